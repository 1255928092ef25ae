//! A recording as core skeleton data, so it plays through the same animation state and views
//! as any skeleton.
//!
//! - Bones with a 3D pose: `camera` (a camera), `eye_gaze` (a ray: origin and direction) and
//!   per hand the 26 joints `hand.left.Wrist` .. `hand.right.PinkyTip`, parented wrist → palm
//!   and wrist → metacarpal → .. → tip. Joint `None` carries nothing and gets no bone.
//! - One animation, [`ANIMATION`], as long as the recording: a joint timeline per pose
//!   channel group (position, rotation; origin, direction) that has keys, evaluated with the
//!   stored Unity curves.
//! - Per hand two slots on the wrist: `hand.left.tracked` shows the point attachment
//!   `tracked` while the hand is tracked (the hand's joints are shown only then) and
//!   `hand.left.pinching` shows `pinching` while it pinches; attachment timelines follow the
//!   bool curves.
//! - Events `tracked.left`, `pinch.right`, ... (int 1 / string "on" when the state turns on,
//!   0 / "off" when it turns off; a state that is on from the start fires "on" at 0) and
//!   `marker` (string = the marker's name) at each marker's time.

use super::changes::changes;
use super::layout::{Hand, JOINT_NAMES, JOINT_PARENTS};
use super::model::{NamedCurve, Recording};
use crate::core::animation::{
    Animation, AttachmentTimeline, EventTimeline, Joint3Channel, JointTimeline, Timeline,
};
use crate::core::model::{
    Attachment, AttachmentKind, BoneData, Event, EventData, Joint3Kind, Joint3Setup,
    PointAttachment, SkeletonData, Skin, SlotData, SourceInfo,
};

/// The name of the recording's one animation.
pub const ANIMATION: &str = "recording";
/// Playback steps per second (MRTK records once per rendered frame; HoloLens renders at 60).
pub const FPS: f64 = 60.0;
/// The attachment a hand's tracked slot shows while the hand is tracked.
pub const TRACKED: &str = "tracked";
/// The attachment a hand's pinching slot shows while the hand pinches.
pub const PINCHING: &str = "pinching";
/// The event fired at each marker (its name in the string payload).
pub const MARKER_EVENT: &str = "marker";

/// The bone of `joint` (an index into [`JOINT_NAMES`]) of `hand`: `hand.right.IndexTip`.
pub fn joint_bone_name(hand: Hand, joint: usize) -> String {
    format!(
        "hand.{}.{}",
        hand.name(),
        JOINT_NAMES.get(joint).copied().unwrap_or("?")
    )
}

/// Builds the skeleton data of a recording. `name` is the display name. The result still
/// needs [`SkeletonData::finish`] (done by [`crate::format::load`]).
pub fn to_skeleton(rec: &Recording, name: &str) -> SkeletonData {
    let mut b = Builder {
        data: SkeletonData {
            name: name.to_string(),
            source: SourceInfo {
                format: "MRTK input animation".into(),
                version: format!("{}.{}", rec.version.major, rec.version.minor),
            },
            fps: FPS,
            rules: crate::core::model::Rules::MRTK,
            skins: vec![Skin::new("default")],
            default_skin: Some(0),
            ..SkeletonData::default()
        },
        duration: rec.duration,
        timelines: Vec::new(),
        events: Vec::new(),
    };
    b.data.load_warnings = rec
        .warnings
        .iter()
        .map(|(at, m)| format!("byte {at}: {m}"))
        .collect();
    if let Some(curves) = rec.camera_curves() {
        let bone = b.bone("camera", None, Joint3Setup::new(Joint3Kind::Camera));
        b.pose_timelines(bone, curves);
    }
    if let Some(curves) = rec.eye_gaze_curves() {
        let bone = b.bone("eye_gaze", None, Joint3Setup::new(Joint3Kind::Ray));
        b.joint_timeline(bone, Joint3Channel::Position, &curves[0..3]);
        b.joint_timeline(bone, Joint3Channel::Direction, &curves[3..6]);
    }
    for hand in [Hand::Left, Hand::Right] {
        b.hand(rec, hand);
    }
    b.markers(rec);
    b.finish()
}

/// The skeleton data being built and the recording animation's timelines.
struct Builder {
    data: SkeletonData,
    duration: f64,
    timelines: Vec<Timeline>,
    /// Events with their key times (sorted at the end).
    events: Vec<(f32, Event)>,
}

impl Builder {
    fn bone(&mut self, name: &str, parent: Option<usize>, setup: Joint3Setup) -> usize {
        let mut bone = BoneData::new(name, parent);
        bone.joint3 = Some(setup);
        self.data.bones.push(bone);
        self.data.bones.len() - 1
    }

    /// Position and rotation timelines from a pose's 7 curves.
    fn pose_timelines(&mut self, bone: usize, curves: &[NamedCurve]) {
        self.joint_timeline(bone, Joint3Channel::Position, &curves[0..3]);
        self.joint_timeline(bone, Joint3Channel::Rotation, &curves[3..7]);
    }

    /// A joint timeline, when any of the group's curves has keys (an empty curve is 0, like
    /// the setup pose, so a group without keys changes nothing).
    fn joint_timeline(&mut self, bone: usize, channel: Joint3Channel, curves: &[NamedCurve]) {
        if curves.iter().all(|c| c.curve.keys.is_empty()) {
            return;
        }
        let curves = curves.iter().map(|c| c.curve.clone()).collect();
        self.timelines
            .push(Timeline::Joint(JointTimeline::new(bone, channel, curves)));
    }

    fn event_index(&mut self, name: &str) -> usize {
        match self.data.find_event(name) {
            Some(i) => i,
            None => {
                self.data.events.push(EventData::new(name));
                self.data.events.len() - 1
            }
        }
    }

    fn event(&mut self, name: &str, time: f32, int: i32, string: String) {
        let data = self.event_index(name);
        self.events.push((
            time,
            Event {
                data,
                time: time as f64,
                int,
                float: 0.0,
                string,
                volume: 1.0,
                balance: 0.0,
            },
        ));
    }

    /// A hand's joints, and its tracked and pinching slots, timelines and events.
    fn hand(&mut self, rec: &Recording, hand: Hand) {
        let Some((tracked, pinching)) = rec.hand_state_curves(hand) else {
            return;
        };
        let side = hand.name();
        let tracked_slot = self.data.slots.len();
        let mut bones = [None; JOINT_NAMES.len()];
        for (joint, parent) in JOINT_PARENTS.iter().enumerate().skip(1) {
            let mut setup = Joint3Setup::new(Joint3Kind::Joint);
            setup.shown_by = Some(tracked_slot);
            let parent = parent.and_then(|p| bones[p]);
            let bone = self.bone(&joint_bone_name(hand, joint), parent, setup);
            bones[joint] = Some(bone);
            if let Some(curves) = rec.joint_curves(hand, joint) {
                self.pose_timelines(bone, curves);
            }
        }
        if let Some(none) = rec.joint_curves(hand, 0)
            && none.iter().any(|c| !c.curve.keys.is_empty())
        {
            self.data.load_warnings.push(format!(
                "hand.{side}.joint.None has keys; MRTK's joint None carries nothing, so they are \
                 not shown"
            ));
        }
        let wrist = bones[1].unwrap_or(0);
        self.flag(
            &format!("hand.{side}.tracked"),
            wrist,
            TRACKED,
            tracked,
            &format!("tracked.{side}"),
        );
        self.flag(
            &format!("hand.{side}.pinching"),
            wrist,
            PINCHING,
            pinching,
            &format!("pinch.{side}"),
        );
    }

    /// A slot on `bone` that shows `attachment` while the bool `curve` is on, and an event
    /// `event` at every change.
    fn flag(
        &mut self,
        slot_name: &str,
        bone: usize,
        attachment: &str,
        curve: &NamedCurve,
        event: &str,
    ) {
        let slot = self.data.slots.len();
        self.data.slots.push(SlotData {
            name: slot_name.to_string(),
            bone,
            color: crate::core::color::Color::WHITE,
            dark: None,
            offset: None,
            attachment: None,
            blend: Default::default(),
        });
        let id = self.data.attachments.len();
        self.data.attachments.push(Attachment {
            name: attachment.to_string(),
            kind: AttachmentKind::Point(PointAttachment {
                x: 0.0,
                y: 0.0,
                rotation: 0.0,
                color: None,
            }),
            deform_source: id,
            sequence: None,
        });
        self.data.skins[0].set(slot, attachment, id);
        let ch = changes(&curve.curve, self.duration);
        if ch.truncated {
            self.data.load_warnings.push(format!(
                "{}: its wrap mode repeats it more than {} times over the recording; later \
                 changes are not shown",
                curve.path,
                super::changes::MAX_CANDIDATES
            ));
        }
        let mut times = Vec::with_capacity(ch.states.len());
        let mut names = Vec::with_capacity(ch.states.len());
        for (i, &(t, on)) in ch.states.iter().enumerate() {
            let t = t as f32;
            times.push(t);
            names.push(on.then(|| attachment.to_string()));
            // The state at 0 is an event only when it is on (off is where nothing happens).
            if i > 0 || on {
                let (int, word) = if on { (1, "on") } else { (0, "off") };
                self.event(event, t, int, word.to_string());
            }
        }
        self.timelines
            .push(Timeline::Attachment(AttachmentTimeline::new(
                slot, times, names,
            )));
    }

    /// An event per marker; markers outside the recording never fire, which the user is told.
    fn markers(&mut self, rec: &Recording) {
        for m in &rec.markers {
            if !m.time.is_finite() {
                self.data.load_warnings.push(format!(
                    "marker \"{}\" has time {}; it is not shown",
                    m.name, m.time
                ));
                continue;
            }
            let t = m.time as f64;
            if t < 0.0 || t > self.duration {
                self.data.load_warnings.push(format!(
                    "marker \"{}\" at {} s is outside the recording (0 to {} s) and never fires",
                    m.name, m.time, self.duration
                ));
            }
            self.event(MARKER_EVENT, m.time, 0, m.name.clone());
        }
    }

    fn finish(mut self) -> SkeletonData {
        // Stable: events at one time keep the order they were made in (hands, then markers).
        self.events.sort_by(|a, b| a.0.total_cmp(&b.0));
        if !self.events.is_empty() {
            let (times, events) = self.events.into_iter().unzip();
            self.timelines
                .push(Timeline::Event(EventTimeline { times, events }));
        }
        let mut anim = Animation::new(ANIMATION, self.timelines);
        // MRTK's duration: curves only (markers, and keys before 0, do not extend it).
        anim.duration = self.duration;
        self.data.animations.push(anim);
        self.data
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::unity_curve::{UnityCurve, UnityKey, WrapMode};
    use crate::format::mrtk::{Marker, Sections, Version};

    /// A 1.1 recording with every section, where `keys(path)` gives each curve's keys.
    fn recording(keys: impl Fn(&str) -> Vec<(f32, f32)>, markers: Vec<Marker>) -> Recording {
        let sections = Sections {
            camera: true,
            hands: true,
            eye_gaze: true,
        };
        let curves: Vec<NamedCurve> = sections
            .curves()
            .into_iter()
            .map(|(path, kind)| NamedCurve {
                curve: UnityCurve::new(
                    keys(&path)
                        .into_iter()
                        .map(|(t, v)| UnityKey::new(t, v))
                        .collect(),
                    WrapMode::ClampForever,
                    WrapMode::ClampForever,
                ),
                path,
                kind,
                offset: 0,
            })
            .collect();
        let duration = curves
            .iter()
            .filter_map(|c| c.curve.keys.last())
            .map(|k| k.time as f64)
            .fold(0.0, f64::max);
        Recording {
            version: Version { major: 1, minor: 1 },
            has_camera: true,
            has_hands: true,
            has_eye_gaze: true,
            curves,
            markers,
            duration,
            warnings: vec![(42, "unsorted_keys: x".into())],
        }
    }

    fn sample() -> SkeletonData {
        let rec = recording(
            |path| match path {
                "hand.right.tracked" => vec![(0.0, 0.0), (0.5, 1.0), (1.5, 0.0)],
                "hand.right.pinching" => vec![(-1.0, 0.0), (1.0, 1.0)],
                "hand.right.joint.IndexTip.position.y" => vec![(0.5, 1.0), (1.5, 2.0)],
                "hand.left.joint.None.position.x" => vec![(0.0, 1.0)],
                "camera.rotation.w" => vec![(0.0, 1.0), (2.0, 1.0)],
                _ => Vec::new(),
            },
            vec![
                Marker {
                    time: 0.25,
                    name: "start".into(),
                },
                Marker {
                    time: 9.0,
                    name: "late".into(),
                },
            ],
        );
        let mut data = to_skeleton(&rec, "rec");
        data.finish();
        data
    }

    #[test]
    fn bones_slots_and_hierarchy() {
        let data = sample();
        assert_eq!(data.bones.len(), 2 + 2 * 26);
        assert_eq!(data.bones[0].name, "camera");
        assert_eq!(data.bones[1].name, "eye_gaze");
        let kind = |n: &str| {
            data.bones[data.find_bone(n).unwrap()]
                .joint3
                .as_ref()
                .unwrap()
                .kind
        };
        assert_eq!(kind("camera"), Joint3Kind::Camera);
        assert_eq!(kind("eye_gaze"), Joint3Kind::Ray);
        assert_eq!(kind("hand.left.PinkyTip"), Joint3Kind::Joint);
        let tip = data.find_bone("hand.right.IndexTip").unwrap();
        let parent = data.bones[tip].parent.unwrap();
        assert_eq!(data.bones[parent].name, "hand.right.IndexDistalJoint");
        let wrist = data.find_bone("hand.right.Wrist").unwrap();
        assert_eq!(data.bones[wrist].parent, None);
        let tracked = data.find_slot("hand.right.tracked").unwrap();
        assert_eq!(data.slots[tracked].bone, wrist);
        assert_eq!(
            data.bones[tip].joint3.as_ref().unwrap().shown_by,
            Some(tracked)
        );
        assert!(data.find_slot("hand.left.pinching").is_some());
        assert_eq!(data.source.format, "MRTK input animation");
        assert_eq!(data.fps, FPS);
    }

    #[test]
    fn one_animation_with_keyed_groups_flags_and_events() {
        let data = sample();
        let anim = &data.animations[0];
        assert_eq!(anim.name, ANIMATION);
        assert_eq!(anim.duration, 2.0, "markers do not extend the recording");
        let joints: Vec<(String, Joint3Channel)> = anim
            .timelines
            .iter()
            .filter_map(|t| match t {
                Timeline::Joint(j) => Some((data.bones[j.bone].name.clone(), j.channel)),
                _ => None,
            })
            .collect();
        assert_eq!(
            joints,
            vec![
                ("camera".to_string(), Joint3Channel::Rotation),
                ("hand.right.IndexTip".to_string(), Joint3Channel::Position)
            ]
        );
        let tracked = data.find_slot("hand.right.tracked").unwrap();
        let att = anim
            .timelines
            .iter()
            .find_map(|t| match t {
                Timeline::Attachment(a) if a.slot == tracked => Some(a),
                _ => None,
            })
            .unwrap();
        assert_eq!(att.times, vec![0.0, 0.5, 1.5]);
        assert_eq!(att.names, vec![None, Some(TRACKED.into()), None]);
        let Some(Timeline::Event(ev)) = anim.timelines.last() else {
            panic!("events last");
        };
        let fired: Vec<(f32, String, String)> = ev
            .times
            .iter()
            .zip(&ev.events)
            .map(|(&t, e)| (t, data.events[e.data].name.clone(), e.string.clone()))
            .collect();
        assert_eq!(
            fired,
            vec![
                (0.25, "marker".into(), "start".into()),
                (0.5, "tracked.right".into(), "on".into()),
                (1.0, "pinch.right".into(), "on".into()),
                (1.5, "tracked.right".into(), "off".into()),
                (9.0, "marker".into(), "late".into()),
            ]
        );
        let w = &data.load_warnings;
        assert_eq!(w[0], "byte 42: unsorted_keys: x");
        assert!(w.iter().any(|l| l.contains("joint.None has keys")), "{w:?}");
        assert!(
            w.iter()
                .any(|l| l.contains("\"late\"") && l.contains("never fires"))
        );
    }
}
