//! The worked example of the 4.x runtime notes (B8: official spine-core 4.2.119 numbers) and
//! the rules around it (modes, mix 0, activity, reset, update order).

use super::*;
use crate::core::model::{BoneData, ConstraintRef, SkeletonData, Skin};
use crate::core::skeleton::{Local, ParentFrame, UpdateStep};
use std::sync::Arc;

/// The B8 constraint on bone 1 (`arm`).
fn b8_constraint() -> PhysicsConstraintData {
    PhysicsConstraintData {
        x: 0.8,
        y: 0.6,
        rotate: 0.7,
        scale_x: 0.5,
        shear_x: 0.3,
        limit: 5000.0,
        step: 1.0 / 60.0,
        inertia: 0.6,
        strength: 120.0,
        damping: 0.9,
        mass_inverse: 1.0 / 2.0,
        wind: 3.0,
        gravity: 5.0,
        mix: 0.9,
        ..PhysicsConstraintData::new("swing", 1)
    }
}

/// `root` and `arm` (parent root, length 100, rotation 30, x 10, y 20) with the B8 constraint.
fn b8_data() -> SkeletonData {
    let mut d = SkeletonData {
        rules: crate::core::model::Rules::SPINE_42,
        ..SkeletonData::default()
    };
    d.bones.push(BoneData::new("root", None));
    let mut arm = BoneData::new("arm", Some(0));
    (arm.length, arm.rotation, arm.x, arm.y) = (100.0, 30.0, 10.0, 20.0);
    d.bones.push(arm);
    d.physics_constraints.push(b8_constraint());
    d.finish();
    d
}

/// One B8 step: frame time, world update mode and the call made before it.
struct Step {
    dt: f64,
    mode: Physics,
    call: Call,
}

enum Call {
    Nothing,
    Translate(f64, f64),
    Rotate(f64, f64, f64),
}

fn b8_steps() -> Vec<Step> {
    use Physics::{Pose, Reset, Update};
    let s = |dt: f64, mode, call| Step { dt, mode, call };
    vec![
        s(1.0 / 60.0, Update, Call::Nothing),
        s(1.0 / 60.0, Update, Call::Nothing),
        s(1.0 / 30.0, Update, Call::Nothing),
        s(0.01, Update, Call::Nothing),
        s(0.01, Update, Call::Nothing),
        s(1.0 / 60.0, Update, Call::Nothing),
        s(1.0 / 60.0, Update, Call::Translate(50.0, -20.0)),
        s(1.0 / 60.0, Pose, Call::Nothing),
        s(1.0 / 60.0, Update, Call::Rotate(0.0, 0.0, 30.0)),
        s(1.0 / 60.0, Reset, Call::Nothing),
        s(1.0 / 60.0, Update, Call::Nothing),
        s(1.0 / 60.0, Update, Call::Nothing),
    ]
}

/// B8's first table: `arm` a, b, c, d, worldX, worldY after each step.
const B8_WORLD: [[&str; 6]; 12] = [
    [
        "0.829037556",
        "-0.559192950",
        "0.559192910",
        "0.829037553",
        "23.580510543",
        "15.648845719",
    ],
    [
        "0.778704200",
        "-0.615987002",
        "0.609130831",
        "0.787756329",
        "31.638060043",
        "12.462021631",
    ],
    [
        "0.724679391",
        "-0.671440688",
        "0.658362978",
        "0.741058313",
        "40.345532884",
        "8.946542788",
    ],
    [
        "0.667904288",
        "-0.723923715",
        "0.704857782",
        "0.689880044",
        "48.000257381",
        "5.796070829",
    ],
    [
        "0.606983227",
        "-0.774113710",
        "0.750508145",
        "0.633046589",
        "56.581127879",
        "2.222470517",
    ],
    [
        "0.542101381",
        "-0.820964641",
        "0.794328031",
        "0.570979053",
        "65.537562879",
        "-1.536519063",
    ],
    [
        "0.325359807",
        "-0.918784450",
        "0.918716057",
        "0.394759615",
        "53.670364707",
        "0.882715089",
    ],
    [
        "0.260480854",
        "-0.944083377",
        "0.939174064",
        "0.329706837",
        "67.112415705",
        "-4.210797872",
    ],
    [
        "0.203323687",
        "-0.961779731",
        "0.923455284",
        "0.273824339",
        "78.727756212",
        "-16.407432032",
    ],
    [
        "0.342020117",
        "-0.939692650",
        "0.939692620",
        "0.342020092",
        "144.804691658",
        "-28.251235393",
    ],
    [
        "0.269501153",
        "-0.962692328",
        "0.967117403",
        "0.270598412",
        "152.470157447",
        "-31.912035852",
    ],
    [
        "0.195342016",
        "-0.980237671",
        "0.990474276",
        "0.197823476",
        "160.378733865",
        "-35.739643156",
    ],
];

/// B8's second table: x offset, x velocity, y offset, y velocity, rotate offset, rotate
/// velocity, scale offset, scale velocity, remaining after each step.
const B8_STATE: [[&str; 9]; 12] = [
    ["0", "0", "0", "0", "0", "0", "0", "0", "0.0166666667"],
    [
        "-7.61271961",
        "18.0063657",
        "2.34246166",
        "-11.5899332",
        "0.000655726792",
        "-0.087010152",
        "-0.0252314412",
        "0.0341210343",
        "0",
    ],
    [
        "-14.2745955",
        "45.1897123",
        "4.26754434",
        "-24.8794283",
        "0.00494099712",
        "-0.16761362",
        "-0.0464838909",
        "0.0945357945",
        "0",
    ],
    [
        "-22.3605721",
        "45.1897123",
        "7.06382123",
        "-24.8794283",
        "0.0105103025",
        "-0.16761362",
        "-0.0643533032",
        "0.0945357945",
        "0.01",
    ],
    [
        "-29.1324929",
        "70.3118489",
        "9.27484595",
        "-35.0734035",
        "0.0200780378",
        "-0.213503261",
        "-0.0772411359",
        "0.141808025",
        "0.00333333333",
    ],
    [
        "-35.3654976",
        "99.0097748",
        "11.3429732",
        "-46.2963448",
        "0.0327310443",
        "-0.265680836",
        "-0.0851526391",
        "0.188947097",
        "0.00333333333",
    ],
    [
        "-70.5134436",
        "157.44498",
        "25.0537923",
        "-69.1170746",
        "0.242379534",
        "-0.499067284",
        "-0.0563839578",
        "0.195946577",
        "0.00333333333",
    ],
    [
        "-70.5134436",
        "157.44498",
        "25.0537923",
        "-69.1170746",
        "0.242379534",
        "-0.499067284",
        "-0.0563839578",
        "0.195946577",
        "0.00333333333",
    ],
    [
        "-73.0648724",
        "268.516607",
        "12.100696",
        "-87.7761415",
        "0.224621995",
        "-0.882738973",
        "-0.120946652",
        "0.318004703",
        "0.00333333333",
    ],
    ["0", "0", "0", "0", "0", "0", "0", "0", "0"],
    [
        "-8.09732302",
        "0",
        "3.24923118",
        "0",
        "0.00831435435",
        "0",
        "0.008812485",
        "0",
        "0.0166666667",
    ],
    [
        "-15.9023266",
        "16.8428074",
        "6.38203131",
        "-9.65474052",
        "0.0163530717",
        "-0.0447705194",
        "0.0212295006",
        "-0.0524401337",
        "0.0166666667",
    ],
];

/// How far a value may be from a table entry: half a unit of its last printed digit, or of
/// its 9th significant digit when fewer are printed (the tables drop trailing zeros), so
/// at most 5e-9 relative; a printed 0 must be exactly 0.
fn table_tolerance(text: &str) -> f64 {
    let v: f64 = text.parse().expect("table entry");
    if v == 0.0 {
        return 0.0;
    }
    let decimals = text.split('.').nth(1).map_or(0, str::len) as i32;
    let printed = 0.5 * 10f64.powi(-decimals);
    let ninth = 0.5 * 10f64.powi(v.abs().log10().floor() as i32 - 8);
    printed.min(ninth) * (1.0 + 1e-9)
}

fn assert_near(what: &str, step: usize, got: f64, text: &str, tolerance: f64) {
    let want: f64 = text.parse().expect("table entry");
    assert!(
        (got - want).abs() <= tolerance,
        "step {step} {what}: got {got:.17e}, table {text} (tolerance {tolerance:e})"
    );
}

fn state_of(c: &PhysicsConstraint) -> [f64; 9] {
    [
        c.x_offset,
        c.x_velocity,
        c.y_offset,
        c.y_velocity,
        c.rotate_offset,
        c.rotate_velocity,
        c.scale_offset,
        c.scale_velocity,
        c.remaining,
    ]
}

const STATE_NAMES: [&str; 9] = [
    "xOffset",
    "xVelocity",
    "yOffset",
    "yVelocity",
    "rotateOffset",
    "rotateVelocity",
    "scaleOffset",
    "scaleVelocity",
    "remaining",
];
const WORLD_NAMES: [&str; 6] = ["a", "b", "c", "d", "worldX", "worldY"];

/// The world matrix of a bone under `parent` (or the skeleton at the origin, scale 1) the
/// way Spine 4.2 computes it for `normal` inherit: both axes from their own angle, in
/// degrees times pi'/180. (The bone code uses `PI` today; see `b8_through_the_skeleton`.)
fn world_42(local: &Local, parent: Option<ParentFrame>) -> ParentFrame {
    let rx = (local.rotation + local.shear_x) * SPINE_DEG_RAD;
    let ry = (local.rotation + 90.0 + local.shear_y) * SPINE_DEG_RAD;
    let (la, lb) = (rx.cos() * local.scale_x, ry.cos() * local.scale_y);
    let (lc, ld) = (rx.sin() * local.scale_x, ry.sin() * local.scale_y);
    let p = parent.unwrap_or(ParentFrame {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        world_x: 0.0,
        world_y: 0.0,
    });
    ParentFrame {
        a: p.a * la + p.b * lc,
        b: p.a * lb + p.b * ld,
        c: p.c * la + p.d * lc,
        d: p.c * lb + p.d * ld,
        world_x: p.a * local.x + p.b * local.y + p.world_x,
        world_y: p.c * local.x + p.d * local.y + p.world_y,
    }
}

fn root_local(step: usize) -> Local {
    let k = step as f64;
    Local {
        x: 15.0 * k,
        y: -5.0 * k,
        rotation: 4.0 * k,
        scale_x: 1.0,
        scale_y: 1.0,
        shear_x: 0.0,
        shear_y: 0.0,
    }
}

/// B8 step by step on the constraint itself, with the bones' world matrices computed by the
/// 4.2 rule: every number of both tables, to the precision they are printed with.
#[test]
fn b8_worked_example() {
    let data = b8_data();
    let cd = &data.physics_constraints[0];
    let mut c = PhysicsConstraint::new(cd);
    let mut arm = Bone::new(&data.bones[1]);
    let mut time = 0.0;
    for (k, step) in b8_steps().iter().enumerate() {
        let n = k + 1;
        match step.call {
            Call::Nothing => {}
            Call::Translate(x, y) => c.translate(x, y),
            Call::Rotate(x, y, r) => c.rotate(x, y, r),
        }
        time += step.dt;
        let root = world_42(&root_local(n), None);
        arm.set_world(world_42(&arm.pose, Some(root)));
        let ctx = PhysicsContext {
            time,
            scale_x: 1.0,
            scale_y: 1.0,
            reference_scale: data.reference_scale.0,
            bone_length: data.bones[1].length,
        };
        assert!(c.update(cd, &mut arm, ctx, step.mode));
        let world = [arm.a, arm.b, arm.c, arm.d, arm.world_x, arm.world_y];
        for (i, text) in B8_WORLD[k].iter().enumerate() {
            assert_near(WORLD_NAMES[i], n, world[i], text, table_tolerance(text));
        }
        for (i, (got, text)) in state_of(&c).into_iter().zip(B8_STATE[k]).enumerate() {
            assert_near(STATE_NAMES[i], n, got, text, table_tolerance(text));
        }
        if n == 11 {
            // The time since step 10 is a difference of running sums, a few ulps under 1/60:
            // no step runs, and all of it remains.
            assert_eq!(c.remaining, 0.016666666666666663);
            assert!(c.remaining < cd.step);
        }
    }
}

/// B8 through the skeleton API: update order, skeleton time, physics modes, translate and
/// rotate forwarding, and the applied pose recomputed from the physics-edited world matrix.
#[test]
fn b8_through_the_skeleton() {
    let mut sk = Skeleton::new(Arc::new(b8_data()));
    assert_eq!(
        sk.update_order().steps,
        [
            UpdateStep::Bone(0),
            UpdateStep::Bone(1),
            UpdateStep::Constraint(ConstraintRef::Physics(0))
        ]
    );
    for (k, step) in b8_steps().iter().enumerate() {
        let n = k + 1;
        sk.bones[0].pose = root_local(n);
        match step.call {
            Call::Nothing => {}
            Call::Translate(x, y) => sk.physics_translate(x, y),
            Call::Rotate(x, y, r) => sk.physics_rotate(x, y, r),
        }
        sk.update(step.dt);
        sk.update_world_transform_with(step.mode);
        let arm = &sk.bones[1];
        let world = [arm.a, arm.b, arm.c, arm.d, arm.world_x, arm.world_y];
        for (i, text) in B8_WORLD[k].iter().enumerate() {
            assert_near(WORLD_NAMES[i], n, world[i], text, table_tolerance(text));
        }
        for (i, (got, text)) in state_of(&sk.physics[0])
            .into_iter()
            .zip(B8_STATE[k])
            .enumerate()
        {
            assert_near(STATE_NAMES[i], n, got, text, table_tolerance(text));
        }
        // The applied pose was recomputed from the physics-edited world matrix: it gives back
        // its position and x axis. (Not the y axis: the 3.8 applied formula's shearY sign is
        // wrong for sheared matrices, and physics shears; 4.2's has it right, B4.2.)
        let mut again = sk.bones[1].clone();
        let parent = sk.parent_frame(1);
        again.update_world(
            sk.applied_pose(1),
            crate::core::model::Inherit::Normal,
            parent,
            sk.frame,
        );
        for (got, want) in [
            (again.a, arm.a),
            (again.c, arm.c),
            (again.world_x, arm.world_x),
            (again.world_y, arm.world_y),
        ] {
            assert!(
                (got - want).abs() < 1e-9,
                "step {n}: applied pose {got} vs world {want}"
            );
        }
    }
    let total: f64 = b8_steps().iter().map(|s| s.dt).sum();
    assert_eq!(sk.time, total);
}

/// A skeleton that has run B8's first three steps (non-zero offsets and velocities).
fn swinging() -> Skeleton {
    let mut sk = Skeleton::new(Arc::new(b8_data()));
    for n in 1..=3 {
        sk.bones[0].pose = root_local(n);
        sk.update(1.0 / 60.0);
        sk.update_world_transform_with(Physics::Update);
    }
    assert!(sk.physics[0].x_offset != 0.0 && sk.physics[0].rotate_velocity != 0.0);
    sk
}

/// `arm`'s world matrix and position.
fn arm_world(sk: &Skeleton) -> [f64; 6] {
    let b = &sk.bones[1];
    [b.a, b.b, b.c, b.d, b.world_x, b.world_y]
}

/// `arm`'s world transform without physics at the skeleton's current pose.
fn world_without_physics(sk: &Skeleton) -> [f64; 6] {
    let mut plain = sk.clone();
    plain.update_world_transform();
    arm_world(&plain)
}

#[test]
fn mode_none_does_nothing() {
    let mut sk = swinging();
    sk.bones[0].pose = root_local(4);
    sk.update(1.0 / 60.0);
    let before = sk.physics.clone();
    sk.update_world_transform_with(Physics::None);
    assert_eq!(sk.physics, before);
    let mut reference = Skeleton::new(sk.data.clone());
    reference.bones[0].pose = root_local(4);
    reference.update_world_transform();
    assert_eq!(arm_world(&sk), arm_world(&reference));
}

#[test]
fn mix_zero_does_nothing_not_even_time_bookkeeping() {
    let mut sk = swinging();
    sk.physics[0].mix = 0.0;
    let before = sk.physics.clone();
    for mode in [Physics::Update, Physics::Reset, Physics::Pose] {
        sk.update(1.0 / 60.0);
        sk.update_world_transform_with(mode);
        assert_eq!(sk.physics, before, "{mode:?}");
        assert_eq!(arm_world(&sk), world_without_physics(&sk), "{mode:?}");
    }
    // Mix back: the whole interval since the last real update is simulated.
    sk.physics[0].mix = 0.9;
    sk.update_world_transform_with(Physics::Update);
    assert_eq!(sk.physics[0].last_time, sk.time);
    assert_ne!(sk.physics[0].x_velocity, before[0].x_velocity);
}

#[test]
fn pose_applies_offsets_but_consumes_no_time() {
    let mut sk = swinging();
    sk.update(1.0 / 60.0);
    let before = sk.physics.clone();
    sk.update_world_transform_with(Physics::Pose);
    assert_eq!(sk.physics, before);
    let plain = world_without_physics(&sk);
    let posed = arm_world(&sk);
    assert!(
        (posed[4] - plain[4] - before[0].x_offset * 0.9 * 0.8).abs() < 1e-9,
        "x offset applied"
    );
    assert_ne!(posed[0], plain[0], "angular and scale offsets applied");
    // The next update integrates the whole interval since the last update.
    sk.update(1.0 / 60.0);
    sk.update_world_transform_with(Physics::Update);
    assert_eq!(sk.physics[0].last_time, sk.time);
}

#[test]
fn reset_zeroes_the_simulation_and_keeps_the_positions() {
    let mut sk = swinging();
    sk.update(0.5);
    let before = sk.physics[0].clone();
    sk.reset_physics();
    let c = &sk.physics[0];
    assert_eq!(state_of(c), [0.0; 9]);
    assert!(c.reset);
    assert_eq!(c.last_time, sk.time);
    assert_eq!(
        (c.ux, c.uy, c.cx, c.cy, c.tx, c.ty),
        (
            before.ux, before.uy, before.cx, before.cy, before.tx, before.ty
        )
    );
    assert_eq!(c.mix, before.mix);
    // The next update only records the position: the bone is at its animated pose.
    sk.update_world_transform_with(Physics::Update);
    assert_eq!(arm_world(&sk), world_without_physics(&sk));
    assert!(!sk.physics[0].reset);
}

#[test]
fn setup_pose_resets_parameters_not_the_simulation() {
    let mut sk = swinging();
    sk.physics[0].wind = 40.0;
    sk.physics[0].mix = 0.25;
    let before = sk.physics[0].clone();
    sk.set_to_setup_pose();
    let c = &sk.physics[0];
    assert_eq!((c.wind, c.mix), (3.0, 0.9));
    assert_eq!(state_of(c), state_of(&before));
    assert_eq!(
        (c.last_time, c.cx, c.tx),
        (before.last_time, before.cx, before.tx)
    );
}

#[test]
fn translate_and_rotate_reach_every_constraint() {
    let mut sk = swinging();
    let before = sk.physics[0].clone();
    sk.physics_translate(5.0, -2.0);
    let c = &sk.physics[0];
    assert_eq!((c.ux, c.uy), (before.ux - 5.0, before.uy + 2.0));
    assert_eq!((c.cx, c.cy), (before.cx - 5.0, before.cy + 2.0));
    // A half turn about the remembered position moves nothing. About the origin the bone
    // seems to have moved from c to -c, so the remembered position goes the other way:
    // c - (-c - c) = 3c.
    let (cx, cy) = (sk.physics[0].cx, sk.physics[0].cy);
    sk.physics_rotate(cx, cy, 180.0);
    assert_eq!((sk.physics[0].cx, sk.physics[0].cy), (cx, cy));
    sk.physics_rotate(0.0, 0.0, 180.0);
    let c = &sk.physics[0];
    assert!((c.cx - 3.0 * cx).abs() < 1e-5 && (c.cy - 3.0 * cy).abs() < 1e-5);
    assert!((c.ux - (before.ux - 5.0 + 2.0 * cx)).abs() < 1e-5);
}

#[test]
fn a_skin_required_constraint_outside_the_skin_does_nothing() {
    let mut data = b8_data();
    data.physics_constraints[0].skin_required = true;
    let mut skin = Skin::new("with-physics");
    skin.constraints.push(ConstraintRef::Physics(0));
    data.skins.push(skin);
    let mut sk = Skeleton::new(Arc::new(data));
    assert!(!sk.physics[0].active);
    assert!(
        !sk.update_order()
            .steps
            .contains(&UpdateStep::Constraint(ConstraintRef::Physics(0)))
    );
    let before = sk.physics.clone();
    for n in 1..=3 {
        sk.bones[0].pose = root_local(n);
        sk.update(1.0 / 60.0);
        sk.update_world_transform_with(Physics::Update);
        assert_eq!(sk.physics, before);
        assert_eq!(arm_world(&sk), world_without_physics(&sk));
    }
    sk.set_skins_by_name(&["with-physics"]).unwrap();
    assert!(sk.physics[0].active);
    sk.update(1.0 / 60.0);
    sk.update_world_transform_with(Physics::Update);
    assert_eq!(sk.physics[0].last_time, sk.time);
}

#[test]
fn an_inactive_bone_makes_its_constraint_inactive() {
    let mut data = b8_data();
    data.bones[1].skin_required = true;
    let mut sk = Skeleton::new(Arc::new(data));
    assert!(!sk.physics[0].active);
    sk.update(1.0 / 60.0);
    sk.update_world_transform_with(Physics::Update);
    assert_eq!(sk.physics[0].last_time, 0.0);
}

/// root, arm (root), hand (arm), tail (root); physics on hand (order 2) and arm (order 1).
fn chain_data() -> SkeletonData {
    let mut d = SkeletonData::default();
    d.bones.push(BoneData::new("root", None));
    d.bones.push(BoneData::new("arm", Some(0)));
    d.bones.push(BoneData::new("hand", Some(1)));
    d.bones.push(BoneData::new("tail", Some(0)));
    d.physics_constraints.push(PhysicsConstraintData {
        order: 2,
        ..PhysicsConstraintData::new("hand-swing", 2)
    });
    d.physics_constraints.push(PhysicsConstraintData {
        order: 1,
        ..PhysicsConstraintData::new("arm-swing", 1)
    });
    d.finish();
    d
}

#[test]
fn update_order_places_physics_by_order() {
    let sk = Skeleton::new(Arc::new(chain_data()));
    use UpdateStep::{Bone as B, Constraint as C};
    assert_eq!(
        sk.update_order().steps,
        [
            B(0),
            B(1),
            C(ConstraintRef::Physics(1)),
            B(2),
            C(ConstraintRef::Physics(0)),
            B(3)
        ]
    );
}

#[test]
fn physics_updates_the_bones_children_again() {
    // hand's constraint first: hand is updated before arm's physics, then again after it.
    let mut d = chain_data();
    d.physics_constraints[0].order = 0;
    d.finish();
    let sk = Skeleton::new(Arc::new(d));
    use UpdateStep::{Bone as B, Constraint as C};
    assert_eq!(
        sk.update_order().steps,
        [
            B(0),
            B(1),
            B(2),
            C(ConstraintRef::Physics(0)),
            C(ConstraintRef::Physics(1)),
            B(2),
            B(3)
        ]
    );
}

#[test]
fn equal_orders_put_physics_after_ik_transform_and_path() {
    let mut d = chain_data();
    d.physics_constraints[1].order = 2;
    d.ik_constraints.push(crate::core::model::IkConstraintData {
        name: "reach".into(),
        order: 2,
        skin_required: false,
        bones: vec![3],
        target: 0,
        mix: 1.0,
        softness: 0.0,
        bend_direction: 1,
        compress: false,
        stretch: false,
        uniform: false,
        volume: false,
        rigid: false,
    });
    d.finish();
    assert_eq!(
        d.constraint_order,
        [
            ConstraintRef::Ik(0),
            ConstraintRef::Physics(0),
            ConstraintRef::Physics(1)
        ]
    );
    assert_eq!(d.constraint_name(ConstraintRef::Physics(1)), "arm-swing");
    assert!(!d.constraint_skin_required(ConstraintRef::Physics(1)));
}
