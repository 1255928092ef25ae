//! Spine 4.3 constraints: the one `constraints` list (its order is the update order) read into
//! the core's per-kind constraint data.

use foldhash::HashMap;

use super::ctx::{Ctx, Names, lookup};
use super::dto::{PositionModeDto, RotateModeDto, SpacingModeDto};
use super::dto43::{ConstraintDto, ConstraintType, MappedFromDto, NumberOrName};
use crate::core::model::*;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};

use crate::format::ErrorKind;
use Seg::{Entry, Index, Key};

/// A slider's animation name, resolved once the animations are read.
pub struct PendingSlider<'a> {
    pub slider: usize,
    pub list_index: usize,
    pub animation: &'a str,
}

/// Reads `constraints[]` into `data` and their names into `names` (per kind: the index
/// into that kind's list). Returns the sliders' animation names (resolved by
/// [`resolve_sliders`]).
pub fn constraints<'a>(
    ctx: Ctx<'_>,
    dtos: &'a [ConstraintDto],
    names: &mut Names<'a>,
    data: &mut SkeletonData,
) -> Result<Vec<PendingSlider<'a>>, LoadError> {
    let mut pending = Vec::new();
    for (i, c) in dtos.iter().enumerate() {
        let at = |field| [Key("constraints"), Index(i), Key(field)];
        if let Some(field) = c.present_fields().find(|f| !c.kind.fields().contains(f)) {
            return Err(ctx.err(
                &at(field),
                format!(
                    "\"{field}\" is not a key of a Spine 4.3 {} constraint",
                    c.kind.name()
                ),
            ));
        }
        let order = i32::try_from(i).map_err(|_| ctx.err(&at("name"), "too many constraints"))?;
        // Names are unique per type (timelines are grouped by type).
        let taken = match c.kind {
            ConstraintType::Ik => names.ik.contains_key(c.name.as_str()),
            ConstraintType::Transform => names.transform.contains_key(c.name.as_str()),
            ConstraintType::Path => names.path.contains_key(c.name.as_str()),
            ConstraintType::Physics => names.physics.contains_key(c.name.as_str()),
            ConstraintType::Slider => names.slider.contains_key(c.name.as_str()),
        };
        if taken {
            return Err(ctx
                .err(
                    &at("name"),
                    format!("duplicate {} constraint name \"{}\"", c.kind.name(), c.name),
                )
                .with_kind(ErrorKind::DuplicateName));
        }
        match c.kind {
            ConstraintType::Ik => {
                let ik = ik(ctx, i, c, names, order)?;
                add(&mut names.ik, &c.name, &mut data.ik_constraints, ik);
            }
            ConstraintType::Transform => {
                let transform = transform(ctx, i, c, names, order)?;
                add(
                    &mut names.transform,
                    &c.name,
                    &mut data.transform_constraints,
                    transform,
                );
            }
            ConstraintType::Path => {
                let path = path(ctx, i, c, names, order)?;
                add(&mut names.path, &c.name, &mut data.path_constraints, path);
            }
            ConstraintType::Physics => {
                let physics = physics(ctx, i, c, names, order)?;
                add(
                    &mut names.physics,
                    &c.name,
                    &mut data.physics_constraints,
                    physics,
                );
            }
            ConstraintType::Slider => {
                let Some(animation) = c.animation.as_deref() else {
                    return Err(ctx.err(&at("name"), "a slider constraint needs an \"animation\""));
                };
                let index = data.slider_constraints.len();
                names.slider.insert(&c.name, index);
                pending.push(PendingSlider {
                    slider: index,
                    list_index: i,
                    animation,
                });
                data.slider_constraints
                    .push(slider(ctx, i, c, names, order)?);
            }
        }
    }
    Ok(pending)
}

/// Appends `item` to `list` and names its index `name` in `table`.
fn add<'a, T>(table: &mut HashMap<&'a str, usize>, name: &'a str, list: &mut Vec<T>, item: T) {
    table.insert(name, list.len());
    list.push(item);
}

/// `constraints[i].<field>`, required.
fn required<'d, T>(
    ctx: Ctx<'_>,
    i: usize,
    value: &'d Option<T>,
    field: &'static str,
    kind: ConstraintType,
) -> Result<&'d T, LoadError> {
    value.as_ref().ok_or_else(|| {
        ctx.err(
            &[Key("constraints"), Index(i), Key("name")],
            format!("a {} constraint needs \"{field}\"", kind.name()),
        )
    })
}

fn bone_list(
    ctx: Ctx<'_>,
    i: usize,
    c: &ConstraintDto,
    names: &Names<'_>,
) -> Result<Vec<usize>, LoadError> {
    let list = required(ctx, i, &c.bones, "bones", c.kind)?;
    list.iter()
        .enumerate()
        .map(|(j, n)| {
            lookup(
                ctx,
                &names.bones,
                n,
                "bone",
                &[Key("constraints"), Index(i), Key("bones"), Index(j)],
            )
        })
        .collect()
}

fn bone(
    ctx: Ctx<'_>,
    i: usize,
    name: &Option<String>,
    field: &'static str,
    kind: ConstraintType,
    names: &Names<'_>,
) -> Result<usize, LoadError> {
    let name = required(ctx, i, name, field, kind)?;
    lookup(
        ctx,
        &names.bones,
        name,
        "bone",
        &[Key("constraints"), Index(i), Key(field)],
    )
}

/// A `scaleY` mode (`none`, `uniform`, `volume`).
fn scale_y_mode(ctx: Ctx<'_>, i: usize, v: &Option<NumberOrName>) -> Result<ScaleYMode, LoadError> {
    let at = [Key("constraints"), Index(i), Key("scaleY")];
    match v {
        None => Ok(ScaleYMode::None),
        Some(NumberOrName::Name(n)) => match n.as_str() {
            "none" => Ok(ScaleYMode::None),
            "uniform" => Ok(ScaleYMode::Uniform),
            "volume" => Ok(ScaleYMode::Volume),
            _ => Err(ctx.err(
                &at,
                format!("unknown scaleY mode \"{n}\" (none, uniform or volume)"),
            )),
        },
        Some(NumberOrName::Number(_)) => Err(ctx.err(
            &at,
            "scaleY here is a mode: \"none\", \"uniform\" or \"volume\"",
        )),
    }
}

fn ik(
    ctx: Ctx<'_>,
    i: usize,
    c: &ConstraintDto,
    names: &Names<'_>,
    order: i32,
) -> Result<IkConstraintData, LoadError> {
    let bones = bone_list(ctx, i, c, names)?;
    if !(1..=2).contains(&bones.len()) {
        return Err(ctx.err(
            &[Key("constraints"), Index(i), Key("bones")],
            format!("an IK constraint needs 1 or 2 bones, not {}", bones.len()),
        ));
    }
    let mode = scale_y_mode(ctx, i, &c.scale_y)?;
    Ok(IkConstraintData {
        name: c.name.clone(),
        order,
        skin_required: c.skin,
        bones,
        target: bone(ctx, i, &c.target, "target", c.kind, names)?,
        mix: c.mix.unwrap_or(1.0),
        softness: c.softness.unwrap_or(0.0),
        bend_direction: if c.bend_positive.unwrap_or(true) {
            1
        } else {
            -1
        },
        compress: c.compress.unwrap_or(false),
        stretch: c.stretch.unwrap_or(false),
        uniform: mode == ScaleYMode::Uniform,
        volume: mode == ScaleYMode::Volume,
        rigid: false,
    })
}

fn property(ctx: Ctx<'_>, name: &str, at: &[Seg<'_>]) -> Result<BoneProperty43, LoadError> {
    BoneProperty43::from_name(name).ok_or_else(|| {
        ctx.err(
            at,
            format!("unknown property \"{name}\" (rotate, x, y, scaleX, scaleY or shearY)"),
        )
    })
}

fn mapping(
    ctx: Ctx<'_>,
    i: usize,
    props: &OrderedMap<MappedFromDto>,
) -> Result<Vec<MappedFrom>, LoadError> {
    let at = [Key("constraints"), Index(i), Key("properties")];
    ctx.no_duplicates(props, &at)?;
    let mut out = Vec::new();
    for (fi, (from_name, from)) in props.0.iter().enumerate() {
        let from_name = from_name.as_str();
        let from_at = [at[0], at[1], at[2], Entry(fi, from_name)];
        let from_prop = property(ctx, from_name, &from_at)?;
        let to_at = [at[0], at[1], at[2], Entry(fi, from_name), Key("to")];
        ctx.no_duplicates(&from.to, &to_at)?;
        let mut to = Vec::new();
        for (ti, (to_name, t)) in from.to.0.iter().enumerate() {
            let to_name = to_name.as_str();
            let t_at = [
                at[0],
                at[1],
                at[2],
                Entry(fi, from_name),
                Key("to"),
                Entry(ti, to_name),
            ];
            let to_prop = property(ctx, to_name, &t_at)?;
            for (field, v) in [("offset", t.offset), ("max", t.max), ("scale", t.scale)] {
                if !v.is_finite() {
                    let mut p = t_at.to_vec();
                    p.push(Key(field));
                    return Err(ctx
                        .err(&p, format!("\"{field}\" must be a finite number"))
                        .with_kind(ErrorKind::NonFinite));
                }
            }
            to.push(MappedTo {
                property: to_prop,
                offset: t.offset,
                max: t.max,
                scale: t.scale,
            });
        }
        if !to.is_empty() {
            out.push(MappedFrom {
                property: from_prop,
                offset: from.offset,
                to,
            });
        }
    }
    Ok(out)
}

fn transform(
    ctx: Ctx<'_>,
    i: usize,
    c: &ConstraintDto,
    names: &Names<'_>,
    order: i32,
) -> Result<TransformConstraintData, LoadError> {
    let bones = bone_list(ctx, i, c, names)?;
    let target = bone(ctx, i, &c.source, "source", c.kind, names)?;
    let from = match &c.properties {
        Some(p) => mapping(ctx, i, p)?,
        None => Vec::new(),
    };
    let targets = |p: BoneProperty43| from.iter().any(|f| f.to.iter().any(|t| t.property == p));
    // A mix is read only when some to-entry drives its property (else 0).
    let read = |p, v: Option<f64>, default: f64| {
        if targets(p) {
            v.unwrap_or(default)
        } else {
            0.0
        }
    };
    let mix_x = read(BoneProperty43::X, c.mix_x, 1.0);
    let mix_scale_x = read(BoneProperty43::ScaleX, c.mix_scale_x, 1.0);
    let scale_y_offset = match &c.scale_y {
        None => 0.0,
        Some(NumberOrName::Number(v)) => *v,
        Some(NumberOrName::Name(_)) => {
            return Err(ctx.err(
                &[Key("constraints"), Index(i), Key("scaleY")],
                "a transform constraint's scaleY is a number (the source's scaleY offset)",
            ));
        }
    };
    let local_source = c.local_source.unwrap_or(false);
    let local_target = c.local_target.unwrap_or(false);
    let additive = c.additive.unwrap_or(false);
    Ok(TransformConstraintData {
        name: c.name.clone(),
        order,
        skin_required: c.skin,
        bones,
        target,
        offset_rotation: c.rotation.unwrap_or(0.0),
        offset_x: c.x.unwrap_or(0.0),
        offset_y: c.y.unwrap_or(0.0),
        offset_scale_x: c.scale_x.unwrap_or(0.0),
        offset_scale_y: scale_y_offset,
        offset_shear_y: c.shear_y.unwrap_or(0.0),
        mix_rotate: read(BoneProperty43::Rotate, c.mix_rotate, 1.0),
        mix_x,
        mix_y: read(BoneProperty43::Y, c.mix_y, mix_x),
        mix_scale_x,
        mix_scale_y: read(BoneProperty43::ScaleY, c.mix_scale_y, mix_scale_x),
        mix_shear_y: read(BoneProperty43::ShearY, c.mix_shear_y, 1.0),
        local: local_source && local_target,
        relative: additive,
        mapping: Some(TransformMapping {
            local_source,
            local_target,
            additive,
            clamp: c.clamp.unwrap_or(false),
            from,
        }),
    })
}

fn path(
    ctx: Ctx<'_>,
    i: usize,
    c: &ConstraintDto,
    names: &Names<'_>,
    order: i32,
) -> Result<PathConstraintData, LoadError> {
    let bones = bone_list(ctx, i, c, names)?;
    let slot = required(ctx, i, &c.slot, "slot", c.kind)?;
    let target = lookup(
        ctx,
        &names.slots,
        slot,
        "slot",
        &[Key("constraints"), Index(i), Key("slot")],
    )?;
    let mix_x = c.mix_x.unwrap_or(1.0);
    Ok(PathConstraintData {
        name: c.name.clone(),
        order,
        skin_required: c.skin,
        bones,
        target,
        position_mode: match c.position_mode.unwrap_or_default() {
            PositionModeDto::Fixed => PositionMode::Fixed,
            PositionModeDto::Percent => PositionMode::Percent,
        },
        spacing_mode: match c.spacing_mode.unwrap_or_default() {
            SpacingModeDto::Length => SpacingMode::Length,
            SpacingModeDto::Fixed => SpacingMode::Fixed,
            SpacingModeDto::Percent => SpacingMode::Percent,
            SpacingModeDto::Proportional => SpacingMode::Proportional,
        },
        rotate_mode: match c.rotate_mode.unwrap_or_default() {
            RotateModeDto::Tangent => RotateMode::Tangent,
            RotateModeDto::Chain => RotateMode::Chain,
            RotateModeDto::ChainScale => RotateMode::ChainScale,
        },
        offset_rotation: c.rotation.unwrap_or(0.0),
        position: c.position.unwrap_or(0.0),
        spacing: c.spacing.unwrap_or(0.0),
        mix_rotate: c.mix_rotate.unwrap_or(1.0),
        mix_x,
        mix_y: c.mix_y.unwrap_or(mix_x),
    })
}

fn physics(
    ctx: Ctx<'_>,
    i: usize,
    c: &ConstraintDto,
    names: &Names<'_>,
    order: i32,
) -> Result<PhysicsConstraintData, LoadError> {
    let at = |field| [Key("constraints"), Index(i), Key(field)];
    let bone = bone(ctx, i, &c.bone, "bone", c.kind, names)?;
    let fps = c.fps.unwrap_or(60.0);
    if let Err(message) = PhysicsConstraintData::check_fps(fps) {
        return Err(ctx.err(&at("fps"), message.to_string()));
    }
    let mass = c.mass.unwrap_or(1.0);
    if mass == 0.0 || !mass.is_finite() {
        return Err(ctx.err(&at("mass"), "mass must be a non-zero number"));
    }
    let mut d = PhysicsConstraintData::new(c.name.clone(), bone);
    d.order = order;
    d.skin_required = c.skin;
    d.x = c.x.unwrap_or(0.0);
    d.y = c.y.unwrap_or(0.0);
    d.rotate = c.rotate.unwrap_or(0.0);
    d.scale_x = c.scale_x.unwrap_or(0.0);
    d.shear_x = c.shear_x.unwrap_or(0.0);
    d.scale_y = scale_y_mode(ctx, i, &c.scale_y)?;
    d.limit = c.limit.unwrap_or(5000.0);
    d.step = 1.0 / fps;
    // 4.3 defaults: inertia 0.5, damping 0.85.
    d.inertia = c.inertia.unwrap_or(0.5);
    d.strength = c.strength.unwrap_or(100.0);
    d.damping = c.damping.unwrap_or(0.85);
    d.mass_inverse = 1.0 / mass;
    d.wind = c.wind.unwrap_or(0.0);
    d.gravity = c.gravity.unwrap_or(0.0);
    d.mix = c.mix.unwrap_or(1.0);
    d.inertia_global = c.inertia_global.unwrap_or(false);
    d.strength_global = c.strength_global.unwrap_or(false);
    d.damping_global = c.damping_global.unwrap_or(false);
    d.mass_global = c.mass_global.unwrap_or(false);
    d.wind_global = c.wind_global.unwrap_or(false);
    d.gravity_global = c.gravity_global.unwrap_or(false);
    d.mix_global = c.mix_global.unwrap_or(false);
    Ok(d)
}

fn slider(
    ctx: Ctx<'_>,
    i: usize,
    c: &ConstraintDto,
    names: &Names<'_>,
    order: i32,
) -> Result<SliderConstraintData, LoadError> {
    let at = |field| [Key("constraints"), Index(i), Key(field)];
    let driver = match &c.bone {
        None => None,
        Some(_) => {
            let bone = bone(ctx, i, &c.bone, "bone", c.kind, names)?;
            let Some(p) = &c.property else {
                return Err(ctx.err(&at("bone"), "a slider with a \"bone\" needs a \"property\""));
            };
            Some(SliderDriver {
                bone,
                property: property(ctx, p, &at("property"))?,
                from: c.from.unwrap_or(0.0),
                to: c.to.unwrap_or(0.0),
                scale: c.scale.unwrap_or(1.0),
                local: c.local.unwrap_or(false),
            })
        }
    };
    if driver.is_none()
        && let Some(field) = ["property", "from", "to", "scale", "local"]
            .into_iter()
            .zip([
                c.property.is_some(),
                c.from.is_some(),
                c.to.is_some(),
                c.scale.is_some(),
                c.local.is_some(),
            ])
            .find_map(|(f, present)| present.then_some(f))
    {
        return Err(ctx.err(
            &at(field),
            format!("\"{field}\" belongs to a slider driven by a \"bone\""),
        ));
    }
    Ok(SliderConstraintData {
        name: c.name.clone(),
        order,
        skin_required: c.skin,
        animation: usize::MAX,
        additive: c.additive.unwrap_or(false),
        looping: c.looping.unwrap_or(false),
        mix: c.mix.unwrap_or(1.0),
        // The runtime reads the time only for sliders without a bone.
        time: if driver.is_some() {
            0.0
        } else {
            c.time.unwrap_or(0.0)
        },
        driver,
        keyed_bones: Vec::new(),
    })
}

/// Resolves every slider's animation (after the animations are read) and records the bones
/// it keys.
pub fn resolve_sliders(
    ctx: Ctx<'_>,
    pending: &[PendingSlider<'_>],
    data: &mut SkeletonData,
) -> Result<(), LoadError> {
    for p in pending {
        let Some(a) = data.find_animation(p.animation) else {
            return Err(ctx
                .err(
                    &[Key("constraints"), Index(p.list_index), Key("animation")],
                    format!("unknown animation \"{}\"", p.animation),
                )
                .with_kind(ErrorKind::DanglingReference));
        };
        let mut bones: Vec<usize> = data.animations[a]
            .timelines
            .iter()
            .filter_map(|t| t.bone())
            .collect();
        bones.sort_unstable();
        bones.dedup();
        let s = &mut data.slider_constraints[p.slider];
        s.animation = a;
        s.keyed_bones = bones;
    }
    Ok(())
}
