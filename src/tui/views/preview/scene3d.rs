//! The preview of skeletons whose bones carry 3D poses: shown joints projected with a
//! [`Projection`], each joined to its parent, a frustum for each camera and a line for each
//! ray. Nodes the data gates behind a slot (an untracked hand) are not drawn.

use super::projection::Projection;
use super::scene::{BONES, Bounds, Look, PATHS, REGIONS, Scene};
use crate::core::math3d::{Vec3, add_scaled3, normalize3, rotate};
use crate::core::model::Joint3Kind;
use crate::core::skeleton::Skeleton;
use ratatui::style::Color;

/// Frustum depth in canvas dots (it keeps its size on screen when zooming).
const FRUSTUM_DOTS: f64 = 10.0;

/// A shown 3D node of `sk`: (bone, kind).
fn shown(sk: &Skeleton) -> impl Iterator<Item = (usize, Joint3Kind)> + '_ {
    (0..sk.bones.len()).filter_map(|i| {
        let kind = sk.data.bones[i].joint3.as_ref()?.kind;
        sk.joint3_shown(i).then_some((i, kind))
    })
}

/// The world position of bone `i`'s 3D pose.
fn position(sk: &Skeleton, i: usize) -> Option<Vec3> {
    Some(sk.bones.get(i)?.joint3.as_ref()?.position)
}

impl Scene {
    fn line3(&mut self, p: &Projection, a: Vec3, b: Vec3, color: Color) {
        let (x1, y1) = p.project(a);
        let (x2, y2) = p.project(b);
        self.line(x1, y1, x2, y2, color);
    }

    /// Builds the segments of `sk`'s 3D nodes: joints (with the bones layer), cameras and
    /// rays, then the selected node highlighted. `reach` is how far rays are drawn (world
    /// units; the canvas clips them).
    pub fn build_3d(&mut self, sk: &Skeleton, look: &Look, proj: &Projection, reach: f64) {
        self.segs.clear();
        let nodes: Vec<(usize, Joint3Kind)> = shown(sk).collect();
        for &(i, kind) in &nodes {
            match kind {
                Joint3Kind::Joint if look.layers[BONES] => {
                    self.joint(sk, i, proj, look.colors[BONES]);
                }
                Joint3Kind::Joint => {}
                Joint3Kind::Camera => self.camera(sk, i, proj, look.dot, look.colors[REGIONS]),
                Joint3Kind::Ray => self.ray(sk, i, proj, reach, look.colors[PATHS]),
            }
        }
        if let Some(i) = look.selected
            && nodes.iter().any(|&(n, _)| n == i)
        {
            self.selected_3d(sk, i, proj, look);
        }
    }

    /// A joint: a point, and a line to its parent when the parent is shown too.
    fn joint(&mut self, sk: &Skeleton, i: usize, proj: &Projection, color: Color) {
        let Some(at) = position(sk, i) else {
            return;
        };
        if let Some(parent) = sk.data.bones[i].parent
            && sk.joint3_shown(parent)
            && let Some(pp) = position(sk, parent)
        {
            self.line3(proj, pp, at, color);
        }
        let (x, y) = proj.project(at);
        self.point(x, y, color);
    }

    /// A camera: a frustum from its position along its forward axis (+z), wider than high.
    fn camera(&mut self, sk: &Skeleton, i: usize, proj: &Projection, dot: f64, color: Color) {
        let Some(pose) = sk.bones[i].joint3.as_deref() else {
            return;
        };
        let depth = dot * FRUSTUM_DOTS;
        let q = pose.rotation;
        let [f, r, u] = [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].map(|v| rotate(q, v));
        let apex = pose.position;
        let centre = add_scaled3(apex, f, depth);
        let corner = |sr: f64, su: f64| {
            add_scaled3(
                add_scaled3(centre, r, sr * depth * 0.6),
                u,
                su * depth * 0.4,
            )
        };
        let corners = [
            corner(-1.0, -1.0),
            corner(1.0, -1.0),
            corner(1.0, 1.0),
            corner(-1.0, 1.0),
        ];
        for k in 0..4 {
            self.line3(proj, apex, corners[k], color);
            self.line3(proj, corners[k], corners[(k + 1) % 4], color);
        }
        // A tick on the top edge tells up from down.
        let top = add_scaled3(centre, u, depth * 0.4);
        self.line3(proj, top, add_scaled3(top, u, depth * 0.25), color);
    }

    /// A ray: its origin, and a line `reach` long along its direction (none when the
    /// direction is zero).
    fn ray(&mut self, sk: &Skeleton, i: usize, proj: &Projection, reach: f64, color: Color) {
        let Some(pose) = sk.bones[i].joint3.as_deref() else {
            return;
        };
        let d = normalize3(pose.direction);
        if d != [0.0; 3] {
            self.line3(
                proj,
                pose.position,
                add_scaled3(pose.position, d, reach),
                color,
            );
        }
        let (x, y) = proj.project(pose.position);
        self.point(x, y, color);
    }

    /// The selected node: a ring around it, and its line to the parent drawn again.
    fn selected_3d(&mut self, sk: &Skeleton, i: usize, proj: &Projection, look: &Look) {
        let Some(at) = position(sk, i) else {
            return;
        };
        let color = look.highlight;
        if let Some(parent) = sk.data.bones[i].parent
            && sk.joint3_shown(parent)
            && let Some(pp) = position(sk, parent)
        {
            self.line3(proj, pp, at, color);
        }
        let (x, y) = proj.project(at);
        let r = look.dot * 2.0;
        for k in 0..8 {
            let (s, c) = (f64::from(k) * std::f64::consts::FRAC_PI_4).sin_cos();
            self.point(x + c * r, y + s * r, color);
        }
        self.point(x, y, color);
    }
}

/// Grows `b` by the projected positions of `sk`'s shown 3D nodes.
fn measure(sk: &Skeleton, proj: &Projection, b: &mut Bounds) {
    for (i, _) in shown(sk) {
        if let Some(p) = position(sk, i) {
            let (x, y) = proj.project(p);
            b.add(x, y);
        }
    }
}

/// Bounds to fit the 3D view to: the shown nodes of a sampling of animation `animation`
/// (a recording), projected; the setup pose's when there is no animation or it shows
/// nothing (a recording's setup joints are placeholders at the origin). Not the pose on
/// screen: the framing is a function of the data and the animation (see `fit`).
pub fn fit_bounds_3d(sk: &Skeleton, animation: Option<usize>, proj: &Projection) -> Bounds {
    const SAMPLES: usize = 24;
    let mut b = Bounds::EMPTY;
    let mut probe = sk.clone();
    if let Some(anim) = animation.and_then(|a| sk.data.animations.get(a)) {
        super::scene::sampled_poses(&mut probe, anim, SAMPLES, |p| measure(p, proj, &mut b));
    }
    if b.is_empty() {
        probe.set_to_setup_pose();
        probe.update_world_transform();
        measure(&probe, proj, &mut b);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::super::projection::View3;
    use super::super::scene::LAYERS;
    use super::*;
    use crate::core::model::{
        Attachment, AttachmentKind, BoneData, Joint3Setup, PointAttachment, SkeletonData, Skin,
        SlotData,
    };
    use std::sync::Arc;

    /// A camera at (0, 1, 0), a two-joint arm gated by a slot, and a ray.
    fn skeleton(tracked: bool) -> Skeleton {
        let mut d = SkeletonData::default();
        let mut cam = BoneData::new("camera", None);
        let mut setup = Joint3Setup::new(Joint3Kind::Camera);
        setup.position = [0.0, 1.0, 0.0];
        cam.joint3 = Some(setup);
        d.bones.push(cam);
        for (name, parent, pos) in [
            ("a", None, [0.5, 0.0, 1.0]),
            ("b", Some(1), [1.0, 0.0, 2.0]),
        ] {
            let mut b = BoneData::new(name, parent);
            let mut s = Joint3Setup::new(Joint3Kind::Joint);
            s.position = pos;
            s.shown_by = Some(0);
            b.joint3 = Some(s);
            d.bones.push(b);
        }
        let mut gaze = BoneData::new("gaze", None);
        gaze.joint3 = Some(Joint3Setup::new(Joint3Kind::Ray));
        d.bones.push(gaze);
        d.slots.push(SlotData {
            name: "tracked".into(),
            bone: 1,
            color: crate::core::color::Color::WHITE,
            dark: None,
            offset: None,
            attachment: tracked.then(|| "on".to_string()),
            blend: Default::default(),
        });
        d.attachments.push(Attachment {
            name: "on".into(),
            kind: AttachmentKind::Point(PointAttachment {
                x: 0.0,
                y: 0.0,
                rotation: 0.0,
                color: None,
            }),
            deform_source: 0,
            sequence: None,
        });
        let mut skin = Skin::new("default");
        skin.set(0, "on", 0);
        d.skins.push(skin);
        d.default_skin = Some(0);
        d.finish();
        let mut sk = Skeleton::new(Arc::new(d));
        sk.update_world_transform();
        sk
    }

    fn look(selected: Option<usize>) -> Look {
        Look {
            layers: [true; LAYERS],
            colors: [Color::White; LAYERS],
            highlight: Color::Yellow,
            selected,
            dot: 0.01,
            triangles: false,
        }
    }

    #[test]
    fn gated_joints_show_only_while_their_slot_has_an_attachment() {
        let side = Projection {
            view: View3::Side,
            orbit: 0,
        };
        let mut scene = Scene::default();
        scene.build_3d(&skeleton(true), &look(None), &side, 5.0);
        // Side view: (z, y). The arm's bone from a (1, 0) to b (2, 0).
        assert!(
            scene
                .segs
                .iter()
                .any(|s| (s.x1, s.y1, s.x2, s.y2) == (1.0, 0.0, 2.0, 0.0)),
            "bone a-b"
        );
        // The ray from the origin along +z, 5 long.
        assert!(
            scene
                .segs
                .iter()
                .any(|s| (s.x1, s.x2) == (0.0, 5.0) && s.y1 == 0.0 && s.y2 == 0.0)
        );
        let with = scene.segs.len();
        scene.build_3d(&skeleton(false), &look(None), &side, 5.0);
        assert!(
            !scene
                .segs
                .iter()
                .any(|s| s.x1 >= 1.0 && s.y1 == 0.0 && s.x1 == s.x2),
            "no joint points when untracked"
        );
        assert_eq!(
            with - scene.segs.len(),
            3,
            "two joint points and their bone"
        );
        // The camera frustum: 4 edges from the apex, 4 around, a tick; in front of it (+z).
        let cam: Vec<_> = scene.segs.iter().filter(|s| s.y1 > 0.5).collect();
        assert_eq!(cam.len(), 9, "{cam:?}");
        assert!(cam.iter().all(|s| s.x2 >= 0.0));
    }

    #[test]
    fn the_selected_joint_is_ringed_and_fit_covers_shown_joints() {
        let sk = skeleton(true);
        let front = Projection::default();
        let mut scene = Scene::default();
        scene.build_3d(&sk, &look(Some(2)), &front, 1.0);
        let ring = scene
            .segs
            .iter()
            .filter(|s| s.color == Color::Yellow)
            .count();
        assert_eq!(ring, 10, "bone to parent, 8 ring dots, the centre");
        let b = fit_bounds_3d(&sk, None, &front);
        assert_eq!((b.min_x, b.max_x, b.min_y, b.max_y), (0.0, 1.0, 0.0, 1.0));
        let b = fit_bounds_3d(&skeleton(false), None, &front);
        assert_eq!((b.min_x, b.max_x), (0.0, 0.0), "camera and ray origin only");
    }
}
