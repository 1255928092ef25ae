//! A plain-data snapshot of a posed skeleton: what views, headless output and tests compare.

use crate::core::animation::{Animation, MixBlend, MixDirection};
use crate::core::model::{AttachmentKind, Event};
use crate::core::skeleton::{Local, Skeleton};

/// One bone: world matrix and position, then the local pose timelines left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneSnapshot {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub world_x: f64,
    pub world_y: f64,
    pub local: Local,
    /// The local transform that reproduces the world transform after constraints.
    pub applied: Local,
}

impl BoneSnapshot {
    /// `[a, b, c, d, worldX, worldY, x, y, rotation, scaleX, scaleY, shearX, shearY]`.
    pub fn record(&self) -> [f64; 13] {
        let l = &self.local;
        [
            self.a,
            self.b,
            self.c,
            self.d,
            self.world_x,
            self.world_y,
            l.x,
            l.y,
            l.rotation,
            l.scale_x,
            l.scale_y,
            l.shear_x,
            l.shear_y,
        ]
    }
}

/// One slot: attachment name and colors.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotSnapshot {
    pub attachment: Option<String>,
    pub color: [f64; 4],
    pub dark: Option<[f64; 3]>,
    /// The slot's sequence index (-1: the setup image) when its attachment has an image
    /// sequence.
    pub sequence: Option<i32>,
}

/// Everything observable about a pose.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseSnapshot {
    /// Per bone in data order; `None` for inactive bones.
    pub bones: Vec<Option<BoneSnapshot>>,
    pub slots: Vec<SlotSnapshot>,
    /// Slot indices in draw order.
    pub draw_order: Vec<usize>,
    /// (slot, world vertices) for slots with an active bone showing a region or a vertex
    /// attachment, in slot order.
    pub vertices: Vec<(usize, Vec<f64>)>,
    /// (slot, [x, y, rotation]) for point attachments.
    pub points: Vec<(usize, [f64; 3])>,
    /// Events fired while posing.
    pub events: Vec<Event>,
}

impl PoseSnapshot {
    /// Captures `sk` (world transforms must be up to date).
    pub fn capture(sk: &Skeleton, events: Vec<Event>) -> PoseSnapshot {
        let data = &sk.data;
        let bones = sk
            .bones
            .iter()
            .enumerate()
            .map(|(i, b)| {
                b.active.then(|| BoneSnapshot {
                    a: b.a,
                    b: b.b,
                    c: b.c,
                    d: b.d,
                    world_x: b.world_x,
                    world_y: b.world_y,
                    local: b.pose,
                    applied: sk.applied_pose(i),
                })
            })
            .collect();
        let slots = sk
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| SlotSnapshot {
                attachment: s.attachment.map(|a| data.attachments[a].name.clone()),
                color: [s.color.r, s.color.g, s.color.b, s.color.a],
                dark: data.slots[i].dark.map(|setup| {
                    let d = s.dark.unwrap_or(setup);
                    [d.r, d.g, d.b]
                }),
                sequence: s
                    .attachment
                    .and_then(|a| data.attachments[a].sequence)
                    .map(|_| s.sequence_index),
            })
            .collect();
        let mut vertices = Vec::new();
        let mut points = Vec::new();
        for (i, s) in sk.slots.iter().enumerate() {
            let Some(att) = s.attachment else { continue };
            if !sk.bones[data.slots[i].bone].active {
                continue;
            }
            match &data.attachments[att].kind {
                AttachmentKind::Point(p) => {
                    let (x, y, r) = sk.point_world_reported(i, p);
                    points.push((i, [x, y, r]));
                }
                _ => {
                    if let Some(v) = sk.slot_world_vertices(i) {
                        vertices.push((i, v));
                    }
                }
            }
        }
        PoseSnapshot {
            bones,
            slots,
            draw_order: sk.draw_order.clone(),
            vertices,
            points,
            events,
        }
    }
}

/// One Timeline API sample: reset to setup, apply at `time` with window `last_time`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleSpec {
    pub time: f64,
    pub last_time: f64,
    pub looping: bool,
}

impl SampleSpec {
    /// The standard sample set: `i * duration / n` for i = 0..=n (not looping), then 1.5 and
    /// 2.25 times the duration (looping); each `last_time` is the previous time, -1 first.
    /// A zero-length animation has the single sample 0.
    pub fn standard(duration: f64, n: usize) -> Vec<SampleSpec> {
        if duration == 0.0 {
            return vec![SampleSpec {
                time: 0.0,
                last_time: -1.0,
                looping: false,
            }];
        }
        let mut times: Vec<(f64, bool)> = (0..=n)
            .map(|i| (duration * i as f64 / n.max(1) as f64, false))
            .collect();
        times.push((duration * 1.5, true));
        times.push((duration * 2.25, true));
        Self::chain(&times)
    }

    /// Exactly the given times (not looping), each `last_time` the previous time, -1 first.
    pub fn at_times(times: &[f64]) -> Vec<SampleSpec> {
        let t: Vec<(f64, bool)> = times.iter().map(|&t| (t, false)).collect();
        Self::chain(&t)
    }

    fn chain(times: &[(f64, bool)]) -> Vec<SampleSpec> {
        let mut last = -1.0;
        times
            .iter()
            .map(|&(time, looping)| {
                let s = SampleSpec {
                    time,
                    last_time: last,
                    looping,
                };
                last = time;
                s
            })
            .collect()
    }

    /// Poses `sk` for this sample of `anim` (setup pose, apply with alpha 1 and setup blend,
    /// world transforms) and captures it.
    pub fn pose(&self, sk: &mut Skeleton, anim: &Animation) -> PoseSnapshot {
        sk.set_to_setup_pose();
        let mut events = Vec::new();
        anim.apply(
            sk,
            self.last_time,
            self.time,
            self.looping,
            Some(&mut events),
            1.0,
            MixBlend::Setup,
            MixDirection::In,
        );
        sk.update_world_transform();
        PoseSnapshot::capture(sk, events)
    }
}
