//! The text of a constraint row in the bone tree: its kind and live values (what its
//! timelines key and what it applied this frame), then what it follows. Live values come
//! first so a narrow panel keeps them.

use crate::core::model::{ConstraintRef, SkeletonData, TransformMapping};
use crate::core::skeleton::{PhysicsConstraint, Skeleton};
use crate::text::sanitize;

/// The glyph before a constraint's name (physics: `≈`, the others `◇`).
pub fn glyph(c: ConstraintRef) -> &'static str {
    match c {
        ConstraintRef::Physics(_) => "≈",
        _ => "◇",
    }
}

/// The info text of constraint `c` (after the name cell), from the skeleton's live state.
pub fn info(data: &SkeletonData, sk: &Skeleton, c: ConstraintRef) -> String {
    let bone = |b: usize| data.bones.get(b).map_or("?", |b| b.name.as_str());
    match c {
        ConstraintRef::Ik(i) => {
            let (Some(d), Some(c)) = (data.ik_constraints.get(i), sk.ik.get(i)) else {
                return String::new();
            };
            if !c.active {
                return inactive("ik");
            }
            let mut s = format!(
                " ik mix {:.2} soft {:.1} bend {}",
                c.mix,
                c.softness,
                if c.bend_direction < 0 { "-" } else { "+" }
            );
            if c.compress {
                s.push_str(" compress");
            }
            if c.stretch {
                s.push_str(" stretch");
            }
            s.push_str(&format!(" → {}", sanitize(bone(d.target))));
            s
        }
        ConstraintRef::Transform(i) => {
            let (Some(d), Some(c)) = (data.transform_constraints.get(i), sk.transforms.get(i))
            else {
                return String::new();
            };
            if !c.active {
                return inactive("transform");
            }
            let mut s = format!(
                " transform mix {} ← {}",
                mixes(&[
                    ("r", c.mix_rotate),
                    ("x", c.mix_x),
                    ("y", c.mix_y),
                    ("sx", c.mix_scale_x),
                    ("sy", c.mix_scale_y),
                    ("shy", c.mix_shear_y),
                ]),
                sanitize(bone(d.target))
            );
            match &d.mapping {
                Some(m) => s.push_str(&mapping(m)),
                None => {
                    if d.local {
                        s.push_str(" local");
                    }
                    if d.relative {
                        s.push_str(" relative");
                    }
                }
            }
            s
        }
        ConstraintRef::Path(i) => {
            let (Some(d), Some(c)) = (data.path_constraints.get(i), sk.paths.get(i)) else {
                return String::new();
            };
            if !c.active {
                return inactive("path");
            }
            let slot = data.slots.get(d.target).map_or("?", |s| s.name.as_str());
            format!(
                " path pos {:.2} spacing {:.2} mix {} ← {}",
                c.position,
                c.spacing,
                mixes(&[("r", c.mix_rotate), ("x", c.mix_x), ("y", c.mix_y)]),
                sanitize(slot)
            )
        }
        ConstraintRef::Physics(i) => sk.physics.get(i).map_or(String::new(), physics_info),
        ConstraintRef::Slider(i) => slider_info(data, sk, i),
    }
}

/// ` slider t <time> mix <m> ← <bone>.<property>[ local] ▸ <animation> <duration>s`: the
/// animation time the slider applied (the driving bone's, or keyed), its mix, what drives
/// it and the animation it plays.
fn slider_info(data: &SkeletonData, sk: &Skeleton, i: usize) -> String {
    let (Some(d), Some(c)) = (data.slider_constraints.get(i), sk.sliders.get(i)) else {
        return String::new();
    };
    if !c.active {
        return inactive("slider");
    }
    let animation = data.animations.get(d.animation);
    let duration = animation.map_or(0.0, |a| a.duration);
    // A slider at mix 0 does not run: its time is the keyed one. A looping slider plays its
    // time modulo the duration.
    let mut t = if c.mix == 0.0 || d.driver.is_none() {
        c.time
    } else {
        c.applied_time
    };
    if d.looping && duration > 0.0 && t.is_finite() {
        t = t.rem_euclid(duration);
    } else if !d.looping {
        t = t.max(0.0);
    }
    let mut s = format!(" slider t {t:.3} mix {:.2}", c.mix);
    if let Some(dr) = d.driver {
        let b = data.bones.get(dr.bone).map_or("?", |b| b.name.as_str());
        s.push_str(&format!(" ← {}.{}", sanitize(b), dr.property.name()));
        if dr.local {
            s.push_str(" local");
        }
    }
    if let Some(a) = animation {
        s.push_str(&format!(" ▸ {} {duration:.3}s", sanitize(&a.name)));
    }
    if d.additive {
        s.push_str(" additive");
    }
    s
}

/// One mix when all are equal (`1.00`), else each labelled (`r 1.00 x 0.50 ...`).
fn mixes(m: &[(&str, f64)]) -> String {
    if m.iter().all(|&(_, v)| v == m[0].1) {
        return format!("{:.2}", m[0].1);
    }
    m.iter()
        .map(|(l, v)| format!("{l} {v:.2}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// ` map rotate→x,y scaleX→scaleX[ local][ additive][ clamp]` for a 4.3 transform constraint.
fn mapping(m: &TransformMapping) -> String {
    let mut s = String::from(" map");
    for f in &m.from {
        let to: Vec<&str> = f.to.iter().map(|t| t.property.name()).collect();
        s.push_str(&format!(" {}→{}", f.property.name(), to.join(",")));
    }
    match (m.local_source, m.local_target) {
        (true, true) => s.push_str(" local"),
        (true, false) => s.push_str(" local source"),
        (false, true) => s.push_str(" local target"),
        (false, false) => {}
    }
    if m.additive {
        s.push_str(" additive");
    }
    if m.clamp {
        s.push_str(" clamp");
    }
    s
}

fn inactive(kind: &str) -> String {
    format!(" {kind} inactive (not in skin)")
}

/// ` physics mix <m> x <offset>/<velocity> y … rot <degrees>/<degrees per s> scale …` for a
/// physics constraint row: its live simulation.
pub fn physics_info(c: &PhysicsConstraint) -> String {
    if !c.active {
        return inactive("physics");
    }
    let deg = |r: f64| r.to_degrees();
    format!(
        " physics mix {:.2} x {:.2}/{:.2} y {:.2}/{:.2} rot {:.2}°/{:.2}° scale {:.3}/{:.3}",
        c.mix,
        c.x_offset,
        c.x_velocity,
        c.y_offset,
        c.y_velocity,
        deg(c.rotate_offset),
        deg(c.rotate_velocity),
        c.scale_offset,
        c.scale_velocity
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{
        BoneData, BoneProperty43, IkConstraintData, PhysicsConstraintData, SliderConstraintData,
        SliderDriver, TransformConstraintData,
    };
    use std::sync::Arc;

    #[test]
    fn physics_rows_show_the_live_simulation() {
        let mut c = PhysicsConstraint::new(&PhysicsConstraintData::new("swing", 0));
        (c.x_offset, c.x_velocity, c.y_offset, c.y_velocity) = (-70.513, 157.445, 25.05, -69.1);
        (c.rotate_offset, c.rotate_velocity) = (std::f64::consts::FRAC_PI_4, -0.5);
        (c.scale_offset, c.scale_velocity, c.mix) = (-0.0564, 0.196, 0.9);
        assert_eq!(
            physics_info(&c),
            " physics mix 0.90 x -70.51/157.44 y 25.05/-69.10 rot 45.00°/-28.65° \
             scale -0.056/0.196"
        );
        c.active = false;
        assert_eq!(physics_info(&c), " physics inactive (not in skin)");
    }

    fn data() -> SkeletonData {
        let mut data = SkeletonData::default();
        data.bones.push(BoneData::new("root", None));
        data.bones.push(BoneData::new("arm", Some(0)));
        data.bones.push(BoneData::new("knob", Some(0)));
        data.ik_constraints.push(IkConstraintData {
            name: "reach".into(),
            order: 0,
            skin_required: false,
            bones: vec![1],
            target: 2,
            mix: 0.5,
            softness: 0.0,
            bend_direction: -1,
            compress: false,
            stretch: true,
            uniform: false,
            volume: false,
            rigid: false,
        });
        data.transform_constraints.push(TransformConstraintData {
            name: "follow".into(),
            order: 1,
            skin_required: false,
            bones: vec![1],
            target: 2,
            offset_rotation: 0.0,
            offset_x: 0.0,
            offset_y: 0.0,
            offset_scale_x: 0.0,
            offset_scale_y: 0.0,
            offset_shear_y: 0.0,
            mix_rotate: 1.0,
            mix_x: 0.0,
            mix_y: 0.0,
            mix_scale_x: 0.0,
            mix_scale_y: 0.0,
            mix_shear_y: 0.0,
            local: false,
            relative: false,
            mapping: None,
        });
        let mut sweep = crate::core::animation::Animation::new("sweep", vec![]);
        sweep.duration = 2.0;
        data.animations.push(sweep);
        data.slider_constraints.push(SliderConstraintData {
            name: "dial".into(),
            order: 2,
            skin_required: false,
            animation: 0,
            additive: false,
            looping: true,
            mix: 1.0,
            time: 0.25,
            driver: Some(SliderDriver {
                bone: 2,
                property: BoneProperty43::Rotate,
                from: 0.0,
                to: 0.0,
                scale: 0.01,
                local: true,
            }),
            keyed_bones: vec![],
        });
        data.finish();
        data
    }

    #[test]
    fn constraint_rows_name_their_live_values() {
        let data = Arc::new(data());
        let mut sk = Skeleton::new(data.clone());
        assert_eq!(
            info(&data, &sk, ConstraintRef::Ik(0)),
            " ik mix 0.50 soft 0.0 bend - stretch → knob"
        );
        assert_eq!(
            info(&data, &sk, ConstraintRef::Transform(0)),
            " transform mix r 1.00 x 0.00 y 0.00 sx 0.00 sy 0.00 shy 0.00 ← knob"
        );
        // A looping slider shows the time it applied, modulo the duration.
        sk.sliders[0].applied_time = 2.5;
        assert_eq!(
            info(&data, &sk, ConstraintRef::Slider(0)),
            " slider t 0.500 mix 1.00 ← knob.rotate local ▸ sweep 2.000s"
        );
        sk.sliders[0].mix = 0.0;
        assert_eq!(
            info(&data, &sk, ConstraintRef::Slider(0)),
            " slider t 0.250 mix 0.00 ← knob.rotate local ▸ sweep 2.000s",
            "a slider at mix 0 does not run: its own time"
        );
        sk.ik[0].active = false;
        assert_eq!(
            info(&data, &sk, ConstraintRef::Ik(0)),
            " ik inactive (not in skin)"
        );
        assert_eq!(glyph(ConstraintRef::Physics(0)), "≈");
    }
}
