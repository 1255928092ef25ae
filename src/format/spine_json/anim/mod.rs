//! Animations: every timeline kind, each in its own module.

mod bones;
pub(crate) mod constraints;
pub(crate) mod deform;
pub(crate) mod discrete;
pub(crate) mod keys;
pub(crate) mod slots;

use super::SpineVersion;
use super::ctx::{Ctx, Names, join, unique_names};
use super::dto_anim::{AnimationDto, DrawOrderKey, PathTimelinesDto};
use crate::core::animation::{Animation, Timeline};
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use constraints::KeyedConstraints::{Ik, Transform};
use constraints::keyed_constraints;

use Seg::{Entry, Key};

/// One JSON layout of animations (3.x's or 4.x's): the sections of one animation.
pub trait AnimationLayout {
    /// At most how many timelines the animation makes (room allocated up front; 0 when
    /// not worth counting).
    fn timeline_bound(&self) -> usize;

    /// Reads the animation's sections into `out`, in the order the runtimes build them.
    fn read(&mut self, e: Env<'_>, out: &mut Vec<Timeline>) -> Result<(), LoadError>;
}

/// What reading one animation needs besides its own sections: the context, the
/// animation's path (`animations.<name>`), the name tables and the skeleton so far (setup
/// pose and skins).
#[derive(Clone, Copy)]
pub struct Env<'a>(
    pub Ctx<'a>,
    pub &'a [Seg<'a>],
    pub &'a Names<'a>,
    pub &'a SkeletonData,
);

/// Reads every animation, in file order, after refusing repeated names. `data` must hold
/// the setup pose and skins.
pub fn animations<A: AnimationLayout>(
    ctx: Ctx<'_>,
    dtos: OrderedMap<A>,
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
        let mut timelines = Vec::with_capacity(a.timeline_bound());
        let at = [Key("animations"), Entry(i, &name)];
        a.read(Env(ctx, &at, names, data), &mut timelines)?;
        out.push(Animation::new(name, timelines));
    }
    Ok(out)
}

/// 3.x: slots, bones, ik, transform, path, deform, draw order, events.
impl AnimationLayout for AnimationDto {
    /// Empty key lists make no timeline; the others one each (so the list is allocated once).
    fn timeline_bound(&self) -> usize {
        let a = self;
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

    fn read(&mut self, e: Env<'_>, out: &mut Vec<Timeline>) -> Result<(), LoadError> {
        let Env(ctx, at, names, data) = e;
        slots::slots(ctx, at, &mut self.slots, names, data, out)?;
        bones::bones(ctx, at, &mut self.bones, names, out)?;
        keyed_constraints(e, Ik, &mut self.ik, constraints::ik_keys, out)?;
        keyed_constraints(
            e,
            Transform,
            &mut self.transform,
            constraints::transform_keys,
            out,
        )?;
        let (section, mut paths) = path_section(ctx, at, self)?;
        constraints::path(ctx, at, section, &mut paths, names, out)?;
        deform::deform(ctx, at, &self.deform, names, data, out, deform::deform_keys)?;
        let (field, keys) = draw_order_section(ctx, at, self)?;
        discrete::draw_order(ctx, at, field, keys, names, data.slots.len(), out)?;
        discrete::events(ctx, at, &self.events, names, data, out)
    }
}

/// The draw order keys and their key: `drawOrder`, or `draworder` as the format page spells
/// it (a file with both is refused as ambiguous).
fn draw_order_section<'a>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    a: &'a AnimationDto,
) -> Result<(&'static str, &'a [DrawOrderKey]), LoadError> {
    match &a.draw_order_legacy {
        None => Ok(("drawOrder", &a.draw_order)),
        Some(_) if !a.draw_order.is_empty() => Err(ctx.err(
            &join(at, &[Key("draworder")]),
            "both \"drawOrder\" and \"draworder\" hold draw order keys",
        )),
        Some(keys) => Ok(("draworder", keys)),
    }
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
