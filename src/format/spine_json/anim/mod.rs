//! Animations: every timeline kind, each in its own module.

mod bones;
mod constraints;
pub(crate) mod deform;
pub(crate) mod discrete;
pub(crate) mod keys;
pub(crate) mod slots;

use super::SpineVersion;
use super::ctx::{Ctx, Names, join, unique_names};
use super::dto_anim::{AnimationDto, PathTimelinesDto};
use crate::core::animation::Animation;
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};

use Seg::{Entry, Key};

/// Reads every animation, in file order. `data` must hold the setup pose and skins.
pub fn animations(
    ctx: Ctx<'_>,
    dtos: OrderedMap<AnimationDto>,
    names: &Names<'_>,
    data: &SkeletonData,
) -> Result<Vec<Animation>, LoadError> {
    unique_names(
        ctx,
        dtos.0.iter().map(|(n, _)| n.as_str()),
        "animation",
        |i| vec![Key("animations"), Entry(i, dtos.0[i].0.as_str())],
    )?;
    let mut out = Vec::with_capacity(dtos.len());
    for (i, (name, mut a)) in dtos.0.into_iter().enumerate() {
        let at = [Key("animations"), Entry(i, &name)];
        // A stable order: slots, bones, ik, transform, path, deform, draw order, events.
        // Room for every timeline the animation can have, so the list is allocated once.
        let mut timelines = Vec::with_capacity(timeline_bound(&a));
        slots::slots(ctx, &at, &mut a.slots, names, data, &mut timelines)?;
        bones::bones(ctx, &at, &a.bones, names, &mut timelines)?;
        constraints::ik(ctx, &at, &a.ik, names, &mut timelines)?;
        constraints::transform(ctx, &at, &a.transform, names, &mut timelines)?;
        let (section, paths) = path_section(ctx, &at, &mut a)?;
        constraints::path(ctx, &at, section, &paths, names, &mut timelines)?;
        deform::deform(ctx, &at, &a.deform, names, data, &mut timelines)?;
        discrete::draw_order(
            ctx,
            &at,
            &a.draw_order,
            names,
            data.slots.len(),
            &mut timelines,
        )?;
        discrete::events(ctx, &at, &a.events, names, data, &mut timelines)?;
        out.push(Animation::new(name, timelines));
    }
    Ok(out)
}

/// The path constraint timelines and their key: `path`, or `paths` as 3.7 exports write it
/// (a file with both is refused as ambiguous).
fn path_section(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    a: &mut AnimationDto,
) -> Result<(&'static str, OrderedMap<PathTimelinesDto>), LoadError> {
    let path = std::mem::take(&mut a.path);
    let Some(paths) = a.paths.take() else {
        return Ok(("path", path));
    };
    let at = join(at, &[Key("paths")]);
    if ctx.version != SpineVersion::V37 {
        return Err(ctx.err(
            &at,
            format!(
                "\"paths\" is the Spine 3.7 name of \"path\" (this file is Spine {})",
                ctx.version.name()
            ),
        ));
    }
    if !path.is_empty() {
        return Err(ctx.err(&at, "both \"path\" and \"paths\" hold path constraint keys"));
    }
    Ok(("paths", paths))
}

/// At most how many timelines `a` makes (empty key lists make none; the rest one each).
fn timeline_bound(a: &AnimationDto) -> usize {
    let n = |keys: Option<usize>| usize::from(keys.is_some_and(|n| n > 0));
    let bones: usize = (a.bones.0.iter())
        .map(|(_, t)| {
            n(t.rotate.as_ref().map(Vec::len))
                + n(t.translate.as_ref().map(Vec::len))
                + n(t.scale.as_ref().map(Vec::len))
                + n(t.shear.as_ref().map(Vec::len))
        })
        .sum();
    let slots: usize = (a.slots.0.iter())
        .map(|(_, t)| {
            n(t.attachment.as_ref().map(Vec::len))
                + n(t.color.as_ref().map(Vec::len))
                + n(t.two_color.as_ref().map(Vec::len))
        })
        .sum();
    let deform: usize = (a.deform.0.iter())
        .map(|(_, s)| s.0.iter().map(|(_, m)| m.len()).sum::<usize>())
        .sum();
    bones
        + slots
        + a.ik.len()
        + a.transform.len()
        + 3 * (a.path.len() + a.paths.as_ref().map_or(0, OrderedMap::len))
        + deform
        + 2
}
