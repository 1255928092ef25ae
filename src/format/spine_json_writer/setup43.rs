//! Spine 4.3 constraints: one `constraints` list whose order is the update order, each entry
//! with its `type` (`ik`, `transform`, `path`, `physics`, `slider`) and no `order`
//! (`shared/docs/spine-4x-format.md` A4).

use super::WriteError;
use super::json::{Json, Obj};
use super::setup::{names, path_body, physics_body};
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

/// The `constraints` list, in update order (`constraint_order`).
pub fn constraints(d: &SkeletonData) -> Result<Json, WriteError> {
    let mut out = Vec::with_capacity(d.constraint_order.len());
    for &c in &d.constraint_order {
        let mut o = Obj::new();
        let kind = match c {
            ConstraintRef::Ik(_) => "ik",
            ConstraintRef::Transform(_) => "transform",
            ConstraintRef::Path(_) => "path",
            ConstraintRef::Physics(_) => "physics",
            ConstraintRef::Slider(_) => "slider",
        };
        o.put("type", Json::str(kind))
            .put("name", Json::str(d.constraint_name(c)));
        match c {
            ConstraintRef::Ik(i) => ik(&mut o, d, &d.ik_constraints[i]),
            ConstraintRef::Transform(i) => transform(&mut o, d, &d.transform_constraints[i])?,
            ConstraintRef::Path(i) => {
                let p = &d.path_constraints[i];
                o.flag("skin", p.skin_required)
                    .put("bones", names(d, &p.bones))
                    .put("slot", Json::str(&d.slots[p.target].name));
                path_body(&mut o, p, SpineVersion::V43);
            }
            ConstraintRef::Physics(i) => {
                let p = &d.physics_constraints[i];
                o.flag("skin", p.skin_required)
                    .put("bone", Json::str(&d.bones[p.bone].name));
                physics_body(&mut o, p);
                if let Some(mode) = scale_y_mode(p.scale_y) {
                    o.put("scaleY", Json::str(mode));
                }
            }
            ConstraintRef::Slider(i) => slider(&mut o, d, &d.slider_constraints[i])?,
        }
        out.push(o.done());
    }
    Ok(Json::Arr(out))
}

/// The name of a `scaleY` mode other than the default `none`.
fn scale_y_mode(m: ScaleYMode) -> Option<&'static str> {
    match m {
        ScaleYMode::None => None,
        ScaleYMode::Uniform => Some("uniform"),
        ScaleYMode::Volume => Some("volume"),
    }
}

fn ik(o: &mut Obj, d: &SkeletonData, c: &IkConstraintData) {
    o.flag("skin", c.skin_required)
        .put("bones", names(d, &c.bones))
        .put("target", Json::str(&d.bones[c.target].name))
        .num("mix", c.mix)
        .num("softness", c.softness)
        .put("bendPositive", Json::Bool(c.bend_direction > 0));
    o.flag("compress", c.compress).flag("stretch", c.stretch);
    let mode = if c.volume {
        ScaleYMode::Volume
    } else if c.uniform {
        ScaleYMode::Uniform
    } else {
        ScaleYMode::None
    };
    if let Some(mode) = scale_y_mode(mode) {
        o.put("scaleY", Json::str(mode));
    }
}

fn transform(o: &mut Obj, d: &SkeletonData, c: &TransformConstraintData) -> Result<(), WriteError> {
    let Some(m) = &c.mapping else {
        return Err(WriteError(format!(
            "transform constraint \"{}\" has no 4.3 property mapping",
            c.name
        )));
    };
    o.flag("skin", c.skin_required)
        .put("bones", names(d, &c.bones))
        .put("source", Json::str(&d.bones[c.target].name));
    o.flag("localSource", m.local_source)
        .flag("localTarget", m.local_target)
        .flag("additive", m.additive)
        .flag("clamp", m.clamp);
    let mut props = Obj::new();
    for from in &m.from {
        let mut to = Obj::new();
        for t in &from.to {
            let mut e = Obj::new();
            e.num("offset", t.offset)
                .num("max", t.max)
                .num("scale", t.scale);
            to.put(t.property.name(), e.done());
        }
        let mut f = Obj::new();
        f.num("offset", from.offset).put("to", to.done());
        props.put(from.property.name(), f.done());
    }
    o.put("properties", props.done());
    o.num("rotation", c.offset_rotation)
        .num("x", c.offset_x)
        .num("y", c.offset_y)
        .num("scaleX", c.offset_scale_x)
        .num("scaleY", c.offset_scale_y)
        .num("shearY", c.offset_shear_y);
    // A mix is read only when some to-entry drives its property (else it is 0); the mix of
    // a property nothing drives (a binary may store one) changes nothing and is left out.
    let driven = |p: BoneProperty43| m.from.iter().any(|f| f.to.iter().any(|t| t.property == p));
    for (key, p, mix) in [
        ("mixRotate", BoneProperty43::Rotate, c.mix_rotate),
        ("mixX", BoneProperty43::X, c.mix_x),
        ("mixY", BoneProperty43::Y, c.mix_y),
        ("mixScaleX", BoneProperty43::ScaleX, c.mix_scale_x),
        ("mixScaleY", BoneProperty43::ScaleY, c.mix_scale_y),
        ("mixShearY", BoneProperty43::ShearY, c.mix_shear_y),
    ] {
        if driven(p) {
            o.num(key, mix);
        }
    }
    Ok(())
}

fn slider(o: &mut Obj, d: &SkeletonData, c: &SliderConstraintData) -> Result<(), WriteError> {
    let animation = d.animations.get(c.animation).ok_or_else(|| {
        WriteError(format!(
            "slider \"{}\": its animation {} does not exist",
            c.name, c.animation
        ))
    })?;
    o.flag("skin", c.skin_required)
        .put("animation", Json::str(&animation.name));
    o.flag("additive", c.additive).flag("loop", c.looping);
    o.num("mix", c.mix);
    match &c.driver {
        // The runtime reads the time only for sliders without a bone.
        None => {
            o.num("time", c.time);
        }
        Some(dr) => {
            o.put("bone", Json::str(&d.bones[dr.bone].name))
                .put("property", Json::str(dr.property.name()))
                .num("from", dr.from)
                .num("to", dr.to)
                .num("scale", dr.scale);
            o.flag("local", dr.local);
        }
    }
    Ok(())
}
