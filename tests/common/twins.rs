//! Comparing two [`SkeletonData`] of the same project: a binary export against its JSON twin.
//! The JSON export rounds values to 2 decimals and times to 4, so numbers are compared within
//! that rounding; everything else (names, hierarchy, references, key counts, curve kinds)
//! must be equal. Written over the model, so it applies to every format version.

use bonescope::core::animation::{Animation, Timeline};
use bonescope::core::color::Color;
use bonescope::core::curve::{Interp, Keys};
use bonescope::core::model::*;
use std::collections::HashMap;

/// Tolerance of setup and key values (the JSON's 2 decimals, plus f32 storage).
pub const VALUE: f64 = 0.0051;
/// Tolerance of key times (the JSON's 4 decimals).
pub const TIME: f64 = 0.000051;
/// Tolerance of sampled bezier tables (control points rounded to 2 decimals).
pub const CURVE: f64 = 0.02;

/// Differences between a project's two exports that are in the files themselves (seen in
/// the official runtime's goldens of each export, `golden/spine/SKEL-VS-JSON.md`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Known {
    /// The binary export holds fewer skins (3.8 hero-pro's has only the default skin); the
    /// skins it has are compared.
    pub fewer_skins: bool,
    /// Keys the JSON export calls stepped are linear in the binary export (3.8 powerup-ess
    /// and powerup-pro, animation `bounce`: the `.skel` goldens show the linear motion).
    pub stepped_as_linear: bool,
}

/// What differs, one line each (the first few kept), and how many values were compared.
#[derive(Default)]
pub struct Diff {
    pub lines: Vec<String>,
    pub count: usize,
    pub compared: usize,
    /// Differences accepted as [`Known`].
    pub known_seen: usize,
    known: Known,
}

impl Diff {
    fn fail(&mut self, msg: String) {
        self.count += 1;
        if self.lines.len() < 12 {
            self.lines.push(msg);
        }
    }

    fn eq<T: PartialEq + std::fmt::Debug>(&mut self, at: &dyn Fn() -> String, a: T, b: T) {
        self.compared += 1;
        if a != b {
            self.fail(format!("{}: {a:?} != {b:?}", at()));
        }
    }

    fn num(&mut self, at: &dyn Fn() -> String, a: f64, b: f64, tol: f64) {
        self.compared += 1;
        // Relative slack for large values stored as f32.
        if (a - b).abs() > tol + b.abs() * 2e-7 {
            self.fail(format!("{}: {a} != {b} (tol {tol})", at()));
        }
    }

    fn nums(&mut self, at: &dyn Fn() -> String, a: &[f32], b: &[f32], tol: f64) {
        if a.len() != b.len() {
            self.fail(format!("{}: {} values != {}", at(), a.len(), b.len()));
            return;
        }
        for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
            self.num(&|| format!("{}[{i}]", at()), x as f64, y as f64, tol);
        }
    }

    fn color(&mut self, at: &dyn Fn() -> String, a: Color, b: Color) {
        for (x, y) in [(a.r, b.r), (a.g, b.g), (a.b, b.b), (a.a, b.a)] {
            self.num(at, x, y, 1e-6);
        }
    }
}

/// Where each attachment id sits: (skin name, slot, key).
fn places(d: &SkeletonData) -> HashMap<AttachmentId, (String, usize, String)> {
    let mut out = HashMap::new();
    for s in &d.skins {
        for (slot, key, id) in s.entries() {
            out.entry(id)
                .or_insert_with(|| (s.name.clone(), slot, key.to_string()));
        }
    }
    out
}

/// Compares `ours` (the binary export) with `twin` (the JSON export).
pub fn compare(ours: &SkeletonData, twin: &SkeletonData, known: Known) -> Diff {
    let mut d = Diff {
        known,
        ..Diff::default()
    };
    let s = |w: &str| {
        let w = w.to_string();
        move || w.clone()
    };
    for (w, a, b) in [
        ("x", ours.x, twin.x),
        ("y", ours.y, twin.y),
        ("width", ours.width, twin.width),
        ("height", ours.height, twin.height),
        ("fps", ours.fps, twin.fps),
    ] {
        d.num(&s(w), a, b, VALUE);
    }
    d.eq(&s("version"), &ours.source.version, &twin.source.version);
    bones(&mut d, ours, twin);
    slots(&mut d, ours, twin);
    constraints(&mut d, ours, twin);
    d.eq(&s("events"), ours.events.len(), twin.events.len());
    for (a, b) in ours.events.iter().zip(&twin.events) {
        let at = |f: &str| format!("event {} {f}", b.name);
        d.eq(&|| at("name"), &a.name, &b.name);
        d.eq(&|| at("int"), a.int, b.int);
        d.num(&|| at("float"), a.float, b.float, VALUE);
        d.eq(&|| at("string"), &a.string, &b.string);
        d.eq(&|| at("audio"), &a.audio, &b.audio);
        d.num(&|| at("volume"), a.volume, b.volume, VALUE);
        d.num(&|| at("balance"), a.balance, b.balance, VALUE);
    }
    skins(&mut d, ours, twin, known.fewer_skins);
    animations(&mut d, ours, twin);
    d
}

fn bones(d: &mut Diff, ours: &SkeletonData, twin: &SkeletonData) {
    d.eq(&|| "bone count".into(), ours.bones.len(), twin.bones.len());
    for (a, b) in ours.bones.iter().zip(&twin.bones) {
        let at = |f: &str| format!("bone {} {f}", b.name);
        d.eq(&|| at("name"), &a.name, &b.name);
        d.eq(&|| at("parent"), a.parent, b.parent);
        for (f, x, y) in [
            ("length", a.length, b.length),
            ("x", a.x, b.x),
            ("y", a.y, b.y),
            ("rotation", a.rotation, b.rotation),
            ("scaleX", a.scale_x, b.scale_x),
            ("scaleY", a.scale_y, b.scale_y),
            ("shearX", a.shear_x, b.shear_x),
            ("shearY", a.shear_y, b.shear_y),
        ] {
            d.num(&|| at(f), x, y, VALUE);
        }
        d.eq(&|| at("inherit"), a.inherit, b.inherit);
        d.eq(&|| at("skin"), a.skin_required, b.skin_required);
        // Nonessential: the JSON leaves out default colors.
        if let (Some(x), Some(y)) = (a.color, b.color) {
            d.color(&|| at("color"), x, y);
        }
    }
}

fn slots(d: &mut Diff, ours: &SkeletonData, twin: &SkeletonData) {
    d.eq(&|| "slot count".into(), ours.slots.len(), twin.slots.len());
    for (a, b) in ours.slots.iter().zip(&twin.slots) {
        let at = |f: &str| format!("slot {} {f}", b.name);
        d.eq(&|| at("name"), &a.name, &b.name);
        d.eq(&|| at("bone"), a.bone, b.bone);
        d.color(&|| at("color"), a.color, b.color);
        d.eq(&|| at("dark present"), a.dark.is_some(), b.dark.is_some());
        if let (Some(x), Some(y)) = (a.dark, b.dark) {
            d.color(&|| at("dark"), x, y);
        }
        d.eq(&|| at("attachment"), &a.attachment, &b.attachment);
        d.eq(&|| at("blend"), a.blend, b.blend);
    }
}

fn constraints(d: &mut Diff, ours: &SkeletonData, twin: &SkeletonData) {
    d.eq(
        &|| "constraint counts".into(),
        (
            ours.ik_constraints.len(),
            ours.transform_constraints.len(),
            ours.path_constraints.len(),
            ours.physics_constraints.len(),
            ours.slider_constraints.len(),
        ),
        (
            twin.ik_constraints.len(),
            twin.transform_constraints.len(),
            twin.path_constraints.len(),
            twin.physics_constraints.len(),
            twin.slider_constraints.len(),
        ),
    );
    d.eq(
        &|| "constraint update order".into(),
        &ours.constraint_order,
        &twin.constraint_order,
    );
    for (a, b) in ours.slider_constraints.iter().zip(&twin.slider_constraints) {
        let at = |f: &str| format!("slider {} {f}", b.name);
        d.eq(
            &|| at("name/order/skin/animation/additive/loop/keyed bones"),
            (
                &a.name,
                a.order,
                a.skin_required,
                a.animation,
                a.additive,
                a.looping,
                &a.keyed_bones,
            ),
            (
                &b.name,
                b.order,
                b.skin_required,
                b.animation,
                b.additive,
                b.looping,
                &b.keyed_bones,
            ),
        );
        d.num(&|| at("mix"), a.mix, b.mix, VALUE);
        d.num(&|| at("time"), a.time, b.time, VALUE);
        d.eq(
            &|| at("driver"),
            a.driver.map(|x| (x.bone, x.property, x.local)),
            b.driver.map(|x| (x.bone, x.property, x.local)),
        );
        if let (Some(x), Some(y)) = (a.driver, b.driver) {
            d.num(&|| at("from"), x.from, y.from, VALUE);
            d.num(&|| at("to"), x.to, y.to, VALUE);
            d.num(&|| at("scale"), x.scale, y.scale, VALUE);
        }
    }
    d.num(
        &|| "reference scale".into(),
        ours.reference_scale.0,
        twin.reference_scale.0,
        VALUE,
    );
    for (a, b) in ours
        .physics_constraints
        .iter()
        .zip(&twin.physics_constraints)
    {
        let at = |f: &str| format!("physics {} {f}", b.name);
        d.eq(
            &|| at("name/order/skin/bone"),
            (&a.name, a.order, a.skin_required, a.bone),
            (&b.name, b.order, b.skin_required, b.bone),
        );
        for (f, x, y) in [
            ("x", a.x, b.x),
            ("y", a.y, b.y),
            ("rotate", a.rotate, b.rotate),
            ("scaleX", a.scale_x, b.scale_x),
            ("shearX", a.shear_x, b.shear_x),
            ("limit", a.limit, b.limit),
            ("step", a.step, b.step),
            ("inertia", a.inertia, b.inertia),
            ("strength", a.strength, b.strength),
            ("damping", a.damping, b.damping),
            ("wind", a.wind, b.wind),
            ("gravity", a.gravity, b.gravity),
            ("mix", a.mix, b.mix),
        ] {
            d.num(&|| at(f), x, y, VALUE);
        }
        // The binary holds 1 / mass, the JSON the mass (2 decimals).
        d.num(
            &|| at("mass"),
            1.0 / a.mass_inverse,
            1.0 / b.mass_inverse,
            VALUE,
        );
        d.eq(
            &|| at("globals"),
            [
                a.inertia_global,
                a.strength_global,
                a.damping_global,
                a.mass_global,
                a.wind_global,
                a.gravity_global,
                a.mix_global,
            ],
            [
                b.inertia_global,
                b.strength_global,
                b.damping_global,
                b.mass_global,
                b.wind_global,
                b.gravity_global,
                b.mix_global,
            ],
        );
    }
    for (a, b) in ours.ik_constraints.iter().zip(&twin.ik_constraints) {
        let at = |f: &str| format!("IK {} {f}", b.name);
        d.eq(
            &|| at("name/order/skin"),
            (&a.name, a.order, a.skin_required),
            (&b.name, b.order, b.skin_required),
        );
        d.eq(
            &|| at("bones/target"),
            (&a.bones, a.target),
            (&b.bones, b.target),
        );
        d.num(&|| at("mix"), a.mix, b.mix, VALUE);
        d.num(&|| at("softness"), a.softness, b.softness, VALUE);
        // One-bone IK ignores the bend direction; the binary export writes -1 where the
        // JSON says 1 (golden/spine/README.md).
        if b.bones.len() == 2 {
            d.eq(&|| at("bend"), a.bend_direction, b.bend_direction);
        }
        d.eq(
            &|| at("flags"),
            (a.compress, a.stretch, a.uniform, a.volume),
            (b.compress, b.stretch, b.uniform, b.volume),
        );
    }
    for (a, b) in ours
        .transform_constraints
        .iter()
        .zip(&twin.transform_constraints)
    {
        let at = |f: &str| format!("transform {} {f}", b.name);
        d.eq(
            &|| at("name/order/skin"),
            (&a.name, a.order, a.skin_required),
            (&b.name, b.order, b.skin_required),
        );
        d.eq(
            &|| at("bones/target"),
            (&a.bones, a.target),
            (&b.bones, b.target),
        );
        d.eq(
            &|| at("local/relative"),
            (a.local, a.relative),
            (b.local, b.relative),
        );
        for (f, x, y) in [
            ("rotation", a.offset_rotation, b.offset_rotation),
            ("x", a.offset_x, b.offset_x),
            ("y", a.offset_y, b.offset_y),
            ("scaleX", a.offset_scale_x, b.offset_scale_x),
            ("scaleY", a.offset_scale_y, b.offset_scale_y),
            ("shearY", a.offset_shear_y, b.offset_shear_y),
            ("mixRotate", a.mix_rotate, b.mix_rotate),
            ("mixX", a.mix_x, b.mix_x),
            ("mixY", a.mix_y, b.mix_y),
            ("mixScaleX", a.mix_scale_x, b.mix_scale_x),
            ("mixScaleY", a.mix_scale_y, b.mix_scale_y),
            ("mixShearY", a.mix_shear_y, b.mix_shear_y),
        ] {
            d.num(&|| at(f), x, y, VALUE);
        }
        // 4.3: the property mapping.
        let shape = |m: &Option<TransformMapping>| {
            m.as_ref().map(|m| {
                let from: Vec<_> = m
                    .from
                    .iter()
                    .map(|f| {
                        (
                            f.property,
                            f.to.iter().map(|t| t.property).collect::<Vec<_>>(),
                        )
                    })
                    .collect();
                (m.local_source, m.local_target, m.additive, m.clamp, from)
            })
        };
        d.eq(&|| at("mapping"), shape(&a.mapping), shape(&b.mapping));
        let numbers = |m: &Option<TransformMapping>| -> Vec<f64> {
            m.iter()
                .flat_map(|m| &m.from)
                .flat_map(|f| {
                    std::iter::once(f.offset)
                        .chain(f.to.iter().flat_map(|t| [t.offset, t.max, t.scale]))
                })
                .collect()
        };
        let (x, y) = (numbers(&a.mapping), numbers(&b.mapping));
        if x.len() == y.len() {
            for (p, q) in x.into_iter().zip(y) {
                d.num(&|| at("mapping values"), p, q, VALUE);
            }
        }
    }
    for (a, b) in ours.path_constraints.iter().zip(&twin.path_constraints) {
        let at = |f: &str| format!("path {} {f}", b.name);
        d.eq(
            &|| at("name/order/skin"),
            (&a.name, a.order, a.skin_required),
            (&b.name, b.order, b.skin_required),
        );
        d.eq(
            &|| at("bones/target"),
            (&a.bones, a.target),
            (&b.bones, b.target),
        );
        d.eq(
            &|| at("modes"),
            (a.position_mode, a.spacing_mode, a.rotate_mode),
            (b.position_mode, b.spacing_mode, b.rotate_mode),
        );
        for (f, x, y) in [
            ("rotation", a.offset_rotation, b.offset_rotation),
            ("position", a.position, b.position),
            ("spacing", a.spacing, b.spacing),
            ("mixRotate", a.mix_rotate, b.mix_rotate),
            ("mixX", a.mix_x, b.mix_x),
            ("mixY", a.mix_y, b.mix_y),
        ] {
            d.num(&|| at(f), x, y, VALUE);
        }
    }
}

fn skins(d: &mut Diff, ours: &SkeletonData, twin: &SkeletonData, only_ours: bool) {
    let names = |x: &SkeletonData| x.skins.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
    let mut a_names = names(ours);
    let mut b_names = names(twin);
    if only_ours {
        b_names.retain(|n| a_names.contains(n));
    }
    a_names.sort();
    b_names.sort();
    d.eq(&|| "skin names".into(), &a_names, &b_names);
    for b in &twin.skins {
        let Some(a) = ours.skins.iter().find(|s| s.name == b.name) else {
            continue;
        };
        let at = |f: &str| format!("skin {} {f}", b.name);
        let sorted = |v: &[usize]| {
            let mut v = v.to_vec();
            v.sort();
            v
        };
        d.eq(&|| at("bones"), sorted(&a.bones), sorted(&b.bones));
        let cs = |s: &Skin| {
            let mut v: Vec<String> = s.constraints.iter().map(|c| format!("{c:?}")).collect();
            v.sort();
            v
        };
        d.eq(&|| at("constraints"), cs(a), cs(b));
        let entries = |s: &Skin| {
            let mut v: Vec<(usize, String)> = s
                .entries()
                .map(|(slot, k, _)| (slot, k.to_string()))
                .collect();
            v.sort();
            v
        };
        d.eq(&|| at("entries"), entries(a), entries(b));
        for (slot, key, bid) in b.entries() {
            if let Some(aid) = a.get(slot, key) {
                let at = || format!("skin {} slot {slot} attachment {key}", b.name);
                attachment(d, &at, ours, aid, twin, bid);
            }
        }
    }
}

fn vertex_data(d: &mut Diff, at: &dyn Fn() -> String, a: &VertexData, b: &VertexData) {
    d.eq(&|| format!("{} bones", at()), &a.bones, &b.bones);
    d.eq(&|| format!("{} world_len", at()), a.world_len, b.world_len);
    d.nums(
        &|| format!("{} vertices", at()),
        &a.vertices,
        &b.vertices,
        VALUE,
    );
}

fn attachment(
    d: &mut Diff,
    at: &dyn Fn() -> String,
    ours: &SkeletonData,
    aid: AttachmentId,
    twin: &SkeletonData,
    bid: AttachmentId,
) {
    let (a, b) = (&ours.attachments[aid], &twin.attachments[bid]);
    let f = |w: &'static str| move || format!("{} {w}", at());
    d.eq(&f("name"), &a.name, &b.name);
    d.eq(&f("type"), a.type_name(), b.type_name());
    d.eq(&f("sequence"), &a.sequence, &b.sequence);
    // Deform keys drive the same attachment (by place).
    let (pa, pb) = (places(ours), places(twin));
    d.eq(
        &f("deform source"),
        pa.get(&a.deform_source),
        pb.get(&b.deform_source),
    );
    let editor = |d: &mut Diff, x: Option<Color>, y: Option<Color>| {
        if let (Some(x), Some(y)) = (x, y) {
            d.color(&f("color"), x, y);
        }
    };
    match (&a.kind, &b.kind) {
        (AttachmentKind::Region(x), AttachmentKind::Region(y)) => {
            d.eq(&f("path"), &x.path, &y.path);
            for (w, p, q) in [
                ("x", x.x, y.x),
                ("y", x.y, y.y),
                ("rotation", x.rotation, y.rotation),
                ("scaleX", x.scale_x, y.scale_x),
                ("scaleY", x.scale_y, y.scale_y),
                ("width", x.width, y.width),
                ("height", x.height, y.height),
            ] {
                d.num(&|| format!("{} {w}", at()), p, q, VALUE);
            }
            d.color(&f("color"), x.color, y.color);
        }
        (AttachmentKind::Mesh(x), AttachmentKind::Mesh(y)) => {
            d.eq(&f("path"), &x.path, &y.path);
            d.color(&f("color"), x.color, y.color);
            vertex_data(d, &f("vertices"), &x.vertices, &y.vertices);
            d.nums(&f("uvs"), &x.uvs, &y.uvs, 1e-4);
            d.eq(&f("triangles"), &x.triangles, &y.triangles);
            d.eq(&f("hull"), x.hull, y.hull);
            if !x.edges.is_empty() && !y.edges.is_empty() {
                d.eq(&f("edges"), &x.edges, &y.edges);
            }
            d.eq(
                &f("linked parent"),
                x.linked_parent.map(|p| pa.get(&p).cloned()),
                y.linked_parent.map(|p| pb.get(&p).cloned()),
            );
        }
        (
            AttachmentKind::BoundingBox {
                vertices: x,
                color: cx,
            },
            AttachmentKind::BoundingBox {
                vertices: y,
                color: cy,
            },
        ) => {
            vertex_data(d, &f("vertices"), x, y);
            editor(d, *cx, *cy);
        }
        (AttachmentKind::Path(x), AttachmentKind::Path(y)) => {
            vertex_data(d, &f("vertices"), &x.vertices, &y.vertices);
            d.eq(
                &f("closed/constant"),
                (x.closed, x.constant_speed),
                (y.closed, y.constant_speed),
            );
            d.nums(&f("lengths"), &x.lengths, &y.lengths, VALUE);
            editor(d, x.color, y.color);
        }
        (AttachmentKind::Point(x), AttachmentKind::Point(y)) => {
            d.num(&f("x"), x.x, y.x, VALUE);
            d.num(&f("y"), x.y, y.y, VALUE);
            d.num(&f("rotation"), x.rotation, y.rotation, VALUE);
            editor(d, x.color, y.color);
        }
        (
            AttachmentKind::Clipping {
                vertices: x,
                end_slot: ex,
                color: cx,
            },
            AttachmentKind::Clipping {
                vertices: y,
                end_slot: ey,
                color: cy,
            },
        ) => {
            vertex_data(d, &f("vertices"), x, y);
            d.eq(&f("end slot"), ex, ey);
            editor(d, *cx, *cy);
        }
        _ => {} // the type mismatch is reported above
    }
}

/// An animation's timelines by [`timeline_key`].
fn index<'a>(
    anim: &'a Animation,
    places: &HashMap<AttachmentId, (String, usize, String)>,
) -> HashMap<String, &'a Timeline> {
    anim.timelines
        .iter()
        .map(|t| (timeline_key(t, places), t))
        .collect()
}

/// A timeline's identity that does not depend on attachment ids.
fn timeline_key(t: &Timeline, places: &HashMap<AttachmentId, (String, usize, String)>) -> String {
    match t {
        Timeline::Deform(t) => format!("Deform({}, {:?})", t.slot, places.get(&t.attachment)),
        Timeline::Sequence(t) => format!("Sequence({}, {:?})", t.slot, places.get(&t.attachment)),
        // Its property ids are the draw order's.
        Timeline::DrawOrderFolder(t) => format!("DrawOrderFolder({:?})", t.slots),
        t => format!("{:?}", t.property_ids().as_slice()),
    }
}

fn keys(d: &mut Diff, at: &dyn Fn() -> String, a: &Keys, b: &Keys) {
    d.eq(&|| format!("{} key count", at()), a.len(), b.len());
    if a.len() != b.len() {
        return;
    }
    d.nums(&|| format!("{} times", at()), a.times(), b.times(), TIME);
    d.nums(
        &|| format!("{} values", at()),
        a.values(),
        b.values(),
        VALUE,
    );
    // The last key's curve is never used (and not written by the binary export).
    for i in 0..a.len().saturating_sub(1) {
        let at = || format!("{} key {i} curve", at());
        match (a.interp(i), b.interp(i)) {
            (Interp::Bezier(x), Interp::Bezier(y)) | (Interp::Bezier4(x), Interp::Bezier4(y)) => {
                let (x, y) = (a.bezier(x as usize), b.bezier(y as usize));
                d.nums(&at, x, y, CURVE);
            }
            // The binary export writes a stepped key that holds the same values as the next
            // key as linear (no difference in effect).
            (Interp::Linear, Interp::Stepped) | (Interp::Stepped, Interp::Linear)
                if (0..a.channels()).all(|c| a.value(i, c) == a.value(i + 1, c)) => {}
            (Interp::Linear, Interp::Stepped) if d.known.stepped_as_linear => d.known_seen += 1,
            (x, y) => d.eq(&at, x, y),
        }
    }
}

fn animations(d: &mut Diff, ours: &SkeletonData, twin: &SkeletonData) {
    let names = |x: &SkeletonData| {
        x.animations
            .iter()
            .map(|a| a.name.clone())
            .collect::<Vec<_>>()
    };
    d.eq(&|| "animation names".into(), names(ours), names(twin));
    let (pa, pb) = (places(ours), places(twin));
    // The 4.3 JSON reader keeps each transform key's own mixShearY.
    let shear_quirk = !twin.source.version.starts_with("4.3");
    for b in &twin.animations {
        let Some(a) = ours.animations.iter().find(|a| a.name == b.name) else {
            continue;
        };
        animation(d, a, &pa, b, &pb, shear_quirk);
    }
}

fn animation(
    d: &mut Diff,
    a: &Animation,
    pa: &HashMap<AttachmentId, (String, usize, String)>,
    b: &Animation,
    pb: &HashMap<AttachmentId, (String, usize, String)>,
    shear_quirk: bool,
) {
    d.num(
        &|| format!("animation {} duration", b.name),
        a.duration,
        b.duration,
        TIME,
    );
    let (ta, tb) = (index(a, pa), index(b, pb));
    let mut ka: Vec<&String> = ta.keys().collect();
    let mut kb: Vec<&String> = tb.keys().collect();
    ka.sort();
    kb.sort();
    d.eq(&|| format!("animation {} timelines", b.name), &ka, &kb);
    for (k, y) in &tb {
        let Some(x) = ta.get(k) else { continue };
        let at = || format!("animation {} {k}", b.name);
        match (x, y) {
            (Timeline::Bone(x), Timeline::Bone(y)) => keys(d, &at, &x.keys, &y.keys),
            (Timeline::Color(x), Timeline::Color(y)) => keys(d, &at, &x.keys, &y.keys),
            (Timeline::TwoColor(x), Timeline::TwoColor(y)) => keys(d, &at, &x.keys, &y.keys),
            (Timeline::Ik(x), Timeline::Ik(y)) => keys(d, &at, &x.keys, &y.keys),
            (Timeline::Transform(x), Timeline::Transform(y)) => {
                if shear_quirk {
                    keys(d, &at, &json_shear_quirk(&x.keys), &y.keys)
                } else {
                    keys(d, &at, &x.keys, &y.keys)
                }
            }
            (Timeline::Path(x), Timeline::Path(y)) => keys(d, &at, &x.keys, &y.keys),
            (Timeline::Slider(x), Timeline::Slider(y)) => keys(d, &at, &x.keys, &y.keys),
            (Timeline::Physics(x), Timeline::Physics(y)) => keys(d, &at, &x.keys, &y.keys),
            (Timeline::PhysicsReset(x), Timeline::PhysicsReset(y)) => {
                d.nums(&|| format!("{} times", at()), &x.times, &y.times, TIME);
            }
            (Timeline::Inherit(x), Timeline::Inherit(y)) => {
                d.nums(&|| format!("{} times", at()), &x.times, &y.times, TIME);
                d.eq(&|| format!("{} modes", at()), &x.modes, &y.modes);
            }
            (Timeline::Deform(x), Timeline::Deform(y)) => {
                keys(d, &at, &x.keys, &y.keys);
                for (i, (p, q)) in x.vertices.iter().zip(&y.vertices).enumerate() {
                    // Setup plus a rounded offset: twice the rounding.
                    d.nums(&|| format!("{} key {i} vertices", at()), p, q, 2.0 * VALUE);
                }
            }
            (Timeline::Sequence(x), Timeline::Sequence(y)) => {
                d.nums(&|| format!("{} times", at()), &x.times, &y.times, TIME);
                let modes = |t: &bonescope::core::animation::SequenceTimeline| {
                    t.keys.iter().map(|k| (k.mode, k.index)).collect::<Vec<_>>()
                };
                d.eq(&|| format!("{} modes", at()), modes(x), modes(y));
                let delays = |t: &bonescope::core::animation::SequenceTimeline| {
                    t.keys.iter().map(|k| k.delay).collect::<Vec<_>>()
                };
                d.nums(&|| format!("{} delays", at()), &delays(x), &delays(y), TIME);
            }
            (Timeline::Attachment(x), Timeline::Attachment(y)) => {
                d.nums(&|| format!("{} times", at()), &x.times, &y.times, TIME);
                d.eq(&|| format!("{} names", at()), &x.names, &y.names);
            }
            (Timeline::DrawOrderFolder(x), Timeline::DrawOrderFolder(y)) => {
                d.nums(&|| format!("{} times", at()), &x.times, &y.times, TIME);
                d.eq(&|| format!("{} orders", at()), &x.orders, &y.orders);
            }
            (Timeline::DrawOrder(x), Timeline::DrawOrder(y)) => {
                d.nums(&|| format!("{} times", at()), &x.times, &y.times, TIME);
                d.eq(&|| format!("{} orders", at()), &x.orders, &y.orders);
            }
            (Timeline::Event(x), Timeline::Event(y)) => {
                d.nums(&|| format!("{} times", at()), &x.times, &y.times, TIME);
                d.eq(
                    &|| format!("{} count", at()),
                    x.events.len(),
                    y.events.len(),
                );
                for (p, q) in x.events.iter().zip(&y.events) {
                    d.eq(
                        &|| format!("{} event", at()),
                        (p.data, p.int, &p.string),
                        (q.data, q.int, &q.string),
                    );
                    d.num(&|| format!("{} float", at()), p.float, q.float, VALUE);
                    d.num(&|| format!("{} volume", at()), p.volume, q.volume, VALUE);
                    d.num(&|| format!("{} balance", at()), p.balance, q.balance, VALUE);
                }
            }
            (x, y) => d.fail(format!("{}: {x:?} vs {y:?}", at())),
        }
    }
}

/// The 4.x JSON loader keeps the first key's `mixShearY` in every transform key (the
/// runtimes' JSON reader never carries it from key to key; a bezier still arrives at each
/// key's own value), while the binary reader keeps each key's own: compare the binary keys
/// as the JSON reader would have stored them.
fn json_shear_quirk(k: &Keys) -> Keys {
    let mut k = k.clone();
    if k.channels() == 6 && !k.is_empty() {
        let first = k.values()[5];
        for key in k.values_mut().chunks_exact_mut(6) {
            key[5] = first;
        }
    }
    k
}
