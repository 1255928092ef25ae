//! `bonescope poses`: sample an animation's poses with the Timeline API.

use crate::core::model::SkeletonData;
use crate::core::skeleton::{Local, Skeleton};
use crate::core::snapshot::{PoseSnapshot, SampleSpec};
use crate::text::{sanitize, to_json_string, write_json};
use serde_json::{Map, Value, json};
use std::io::Write;
use std::sync::Arc;

/// What to sample.
#[derive(Clone, Debug, Default)]
pub struct PosesOptions {
    /// Standard sample count (`--samples`), used when `times` is `None`.
    pub samples: usize,
    /// Exact times (`--times`).
    pub times: Option<Vec<f64>>,
    /// Skins to combine (`--skin`); empty = default skin only.
    pub skins: Vec<String>,
    /// Only these animations (by name); empty = all.
    pub animations: Vec<String>,
}

/// What `poses` prints: the setup pose and the animations to sample. Samples are computed
/// while they are written ([`PosesReport::write_json`], [`PosesReport::write_text`]), so
/// memory is bounded by the skeleton, not by the size of the output.
pub struct PosesReport {
    pub data: Arc<SkeletonData>,
    pub file: String,
    pub options: PosesOptions,
    pub inactive: Vec<usize>,
    pub setup: PoseSnapshot,
    /// Indices of the animations to sample, in output order.
    pub animations: Vec<usize>,
}

/// Builds a skeleton with the requested skins.
pub fn skeleton_with_skins(data: &Arc<SkeletonData>, skins: &[String]) -> Result<Skeleton, String> {
    let mut sk = Skeleton::new(data.clone());
    let names: Vec<&str> = skins.iter().map(String::as_str).collect();
    sk.set_skins_by_name(&names)
        .map_err(|missing| format!("unknown skin \"{}\"", sanitize(&missing.name)))?;
    Ok(sk)
}

/// Samples the poses. Errors name an unknown skin or animation.
pub fn sample(
    data: Arc<SkeletonData>,
    file: String,
    options: PosesOptions,
) -> Result<PosesReport, String> {
    let mut sk = skeleton_with_skins(&data, &options.skins)?;
    let inactive: Vec<usize> = (0..sk.bones.len())
        .filter(|&i| !sk.bones[i].active)
        .collect();
    sk.set_to_setup_pose();
    sk.update_world_transform();
    let setup = PoseSnapshot::capture(&sk, Vec::new());
    let mut wanted = Vec::new();
    if options.animations.is_empty() {
        wanted.extend(0..data.animations.len());
    } else {
        for name in &options.animations {
            let i = data
                .find_animation(name)
                .ok_or_else(|| format!("unknown animation \"{}\"", sanitize(name)))?;
            wanted.push(i);
        }
    }
    Ok(PosesReport {
        data,
        file,
        options,
        inactive,
        setup,
        animations: wanted,
    })
}

/// A JSON number, or the strings "NaN" / "Infinity" / "-Infinity" for non-finite values.
pub fn num(v: f64) -> Value {
    if v.is_finite() {
        serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
    } else if v.is_nan() {
        Value::from("NaN")
    } else if v > 0.0 {
        Value::from("Infinity")
    } else {
        Value::from("-Infinity")
    }
}

fn nums(v: &[f64]) -> Value {
    Value::Array(v.iter().map(|&x| num(x)).collect())
}

/// Rounds like the reference goldens (4 decimals, halves up).
fn round4(v: f64) -> f64 {
    (v * 1e4 + 0.5).floor() / 1e4
}

fn local_array(l: &Local) -> [f64; 7] {
    [
        l.x, l.y, l.rotation, l.scale_x, l.scale_y, l.shear_x, l.shear_y,
    ]
}

/// The JSON of one pose: `bones`, (`applied`), `slots`, `drawOrder`, `vertices`, `points`.
pub fn pose_json(
    data: &SkeletonData,
    pose: &PoseSnapshot,
    with_applied: bool,
) -> Map<String, Value> {
    let mut out = Map::new();
    {
        out.insert(
            "bones".into(),
            Value::Array(
                pose.bones
                    .iter()
                    .map(|b| b.as_ref().map_or(Value::Null, |b| nums(&b.record())))
                    .collect(),
            ),
        );
        let mut applied = Map::new();
        for (i, b) in pose.bones.iter().enumerate() {
            let Some(b) = b else { continue };
            let (ap, lo) = (local_array(&b.applied), local_array(&b.local));
            if ap.iter().zip(&lo).any(|(a, l)| round4(*a) != round4(*l)) {
                applied.insert(data.bones[i].name.clone(), nums(&ap));
            }
        }
        if with_applied {
            out.insert("applied".into(), Value::Object(applied));
        }
        out.insert(
            "slots".into(),
            Value::Array(
                pose.slots
                    .iter()
                    .map(|s| {
                        let mut rec = vec![s.attachment.clone().map_or(Value::Null, Value::String)];
                        rec.extend(s.color.iter().map(|&c| num(c)));
                        if let Some(d) = s.dark {
                            rec.extend(d.iter().map(|&c| num(c)));
                        }
                        Value::Array(rec)
                    })
                    .collect(),
            ),
        );
        let setup_order = pose.draw_order.iter().enumerate().all(|(i, &s)| i == s);
        out.insert(
            "drawOrder".into(),
            if setup_order {
                Value::Null
            } else {
                Value::Array(
                    pose.draw_order
                        .iter()
                        .map(|&s| Value::String(data.slots[s].name.clone()))
                        .collect(),
                )
            },
        );
        let mut sequence = Map::new();
        for (i, s) in pose.slots.iter().enumerate() {
            if let Some(index) = s.sequence {
                sequence.insert(data.slots[i].name.clone(), Value::from(index));
            }
        }
        if !sequence.is_empty() {
            out.insert("sequence".into(), Value::Object(sequence));
        }
        let mut vertices = Map::new();
        for (slot, v) in &pose.vertices {
            vertices.insert(data.slots[*slot].name.clone(), nums(v));
        }
        out.insert("vertices".into(), Value::Object(vertices));
        let mut points = Map::new();
        for (slot, p) in &pose.points {
            points.insert(data.slots[*slot].name.clone(), nums(p));
        }
        out.insert("points".into(), Value::Object(points));
    }
    out
}

impl PosesReport {
    /// How many poses the report computes (each a setup pose and one animation applied).
    pub fn pose_count(&self) -> u64 {
        self.animations
            .iter()
            .map(|&i| match &self.options.times {
                Some(t) => t.len() as u64,
                // `SampleSpec::standard`: one at duration 0, else the n + 1 grid times and
                // two looping ones.
                None if self.data.animations[i].duration == 0.0 => 1,
                None => (self.options.samples as u64).saturating_add(3),
            })
            .fold(0, u64::saturating_add)
    }

    /// Refuses a report whose poses are beyond the headless work limit (before any is
    /// computed: a sample list is allocated per animation).
    pub fn check_work(&self, limit: u64) -> Result<(), String> {
        crate::session::work_bound::check(
            || "the poses report computes".into(),
            self.pose_count(),
            &self.data,
            limit,
        )
        .map_err(|e| e.to_string())
    }

    /// Calls `each` with every sample of animation `index`, computed one at a time.
    fn for_each_sample<E>(
        &self,
        index: usize,
        mut each: impl FnMut(&SampleSpec, &PoseSnapshot) -> Result<(), E>,
    ) -> Result<(), E> {
        let anim = &self.data.animations[index];
        // A fresh skeleton per animation, as the reference does. Its skins were checked when
        // the report was made.
        let Ok(mut sk) = skeleton_with_skins(&self.data, &self.options.skins) else {
            return Ok(());
        };
        let specs = match &self.options.times {
            Some(t) => SampleSpec::at_times(t),
            None => SampleSpec::standard(anim.duration, self.options.samples),
        };
        for s in specs {
            // A sample is a seek: frame-grid formats show a seek to the very end just before it.
            let seek = SampleSpec {
                time: anim.seek_time(s.time),
                ..s
            };
            let pose = seek.pose(&mut sk, anim);
            each(&s, &pose)?;
        }
        Ok(())
    }

    /// One sample's JSON object.
    fn sample_json(&self, spec: &SampleSpec, pose: &PoseSnapshot) -> Value {
        let data = &self.data;
        let mut m = Map::new();
        m.insert("time".into(), num(spec.time));
        m.insert("lastTime".into(), num(spec.last_time));
        m.insert("loop".into(), Value::Bool(spec.looping));
        let events: Vec<Value> = pose
            .events
            .iter()
            .map(|e| {
                let ed = &data.events[e.data];
                let mut ev = json!({
                    "name": ed.name, "int": e.int, "float": num(e.float),
                    "string": e.string, "time": num(e.time),
                });
                // 4.x events always carry them (0 without audio).
                if ed.audio.is_some() || data.rules.is_4x() {
                    ev["volume"] = num(e.volume);
                    ev["balance"] = num(e.balance);
                }
                ev
            })
            .collect();
        m.insert("events".into(), Value::Array(events));
        m.extend(pose_json(data, pose, true));
        Value::Object(m)
    }

    /// Every top-level member but `animations`.
    fn header_json(&self) -> Map<String, Value> {
        let data = &self.data;
        let mut setup = Map::new();
        setup.extend(pose_json(data, &self.setup, true));
        let v = json!({
            "format": "bonescope-poses/1",
            "runtime": {"id": "bonescope", "version": env!("CARGO_PKG_VERSION")},
            "skeleton": {
                "file": self.file,
                "spine": data.source.version,
                "format": data.source.format,
                "skin": if self.options.skins.is_empty() { Value::Null } else { json!(self.options.skins) },
                "hash": data.hash,
            },
            "settings": {
                "samples": if self.options.times.is_some() { Value::Null } else { json!(self.options.samples) },
                "times": self.options.times.as_ref().map_or(Value::Null, |t| nums(t)),
                "extraLoops": if self.options.times.is_some() { json!([]) } else { json!([1.5, 2.25]) },
                "alpha": 1, "blend": "setup", "direction": "mixIn",
            },
            "bones": data.bones.iter().map(|b| b.name.clone()).collect::<Vec<_>>(),
            "slots": data.slots.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
            "inactiveBones": self.inactive.iter().map(|&i| data.bones[i].name.clone()).collect::<Vec<_>>(),
            "setup": Value::Object(setup),
        });
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    /// Writes the report as JSON in the structure of the reference `*.poses.json` files,
    /// one sample at a time. The bytes are those of the whole document serialized at once
    /// (members in sorted order, `animations` first), with unsafe characters escaped.
    pub fn write_json(&self, out: &mut dyn Write) -> std::io::Result<()> {
        out.write_all(b"{\"animations\":[")?;
        for (k, &index) in self.animations.iter().enumerate() {
            let anim = &self.data.animations[index];
            if k > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"{\"duration\":")?;
            write_json(&mut *out, &num(anim.duration))?;
            out.write_all(b",\"name\":")?;
            write_json(&mut *out, &anim.name)?;
            out.write_all(b",\"samples\":[")?;
            let mut first = true;
            self.for_each_sample(index, |spec, pose| {
                if !first {
                    out.write_all(b",")?;
                }
                first = false;
                write_json(&mut *out, &self.sample_json(spec, pose))
            })?;
            out.write_all(b"]}")?;
        }
        out.write_all(b"]")?;
        // The other members, after `animations` in sorted order: the header object without
        // its opening brace.
        let rest = to_json_string(&self.header_json());
        if let Some(members) = rest.strip_prefix('{')
            && members != "}"
        {
            out.write_all(b",")?;
            out.write_all(members.as_bytes())?;
        } else {
            out.write_all(b"}")?;
        }
        out.write_all(b"\n")
    }

    /// The whole report as a JSON value (built in memory: for tests and small files).
    pub fn to_json(&self) -> Value {
        let mut bytes = Vec::new();
        // Writing into a Vec cannot fail, and what it wrote is valid JSON.
        let _ = self.write_json(&mut bytes);
        serde_json::from_slice(&bytes).unwrap_or(Value::Null)
    }

    /// Writes a readable summary, one sample at a time: per sample, the fired events and
    /// every active bone's world position and rotation.
    pub fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let data = &self.data;
        let skin = if self.options.skins.is_empty() {
            "default".to_string()
        } else {
            self.options.skins.join("+")
        };
        writeln!(
            out,
            "{} ({} {}): {} bones, {} slots, {} animations, skin {}",
            sanitize(&self.file),
            sanitize(&data.source.format),
            sanitize(&data.source.version),
            data.bones.len(),
            data.slots.len(),
            data.animations.len(),
            sanitize(&skin)
        )?;
        let name_w = data
            .bones
            .iter()
            .map(|b| sanitize(&b.name).chars().count())
            .max()
            .unwrap_or(4)
            .clamp(4, 32);
        for &index in &self.animations {
            let anim = &data.animations[index];
            writeln!(
                out,
                "\nanimation \"{}\"  duration {:.4} s",
                sanitize(&anim.name),
                anim.duration
            )?;
            self.for_each_sample(index, |spec, pose| {
                write!(
                    out,
                    "  t = {:.4}  (last {:.4}{})",
                    spec.time,
                    spec.last_time,
                    if spec.looping { ", looping" } else { "" }
                )?;
                if pose.events.is_empty() {
                    writeln!(out)?;
                } else {
                    let names: Vec<String> = pose
                        .events
                        .iter()
                        .map(|e| format!("{}@{:.4}", sanitize(&data.events[e.data].name), e.time))
                        .collect();
                    writeln!(out, "  events: {}", names.join(", "))?;
                }
                writeln!(
                    out,
                    "    {:<name_w$} {:>10} {:>10} {:>9} {:>9} {:>7} {:>7}",
                    "bone", "worldX", "worldY", "worldRot", "rotation", "scaleX", "scaleY"
                )?;
                for (i, b) in pose.bones.iter().enumerate() {
                    let Some(b) = b else { continue };
                    let name: String = sanitize(&data.bones[i].name).chars().take(name_w).collect();
                    writeln!(
                        out,
                        "    {:<name_w$} {:>10.3} {:>10.3} {:>9.3} {:>9.3} {:>7.3} {:>7.3}",
                        name,
                        b.world_x,
                        b.world_y,
                        b.c.atan2(b.a).to_degrees(),
                        b.local.rotation,
                        b.local.scale_x,
                        b.local.scale_y
                    )?;
                }
                Ok::<(), std::io::Error>(())
            })?;
        }
        Ok(())
    }

    /// The readable summary as a string (built in memory: for tests and small files).
    pub fn to_text(&self) -> String {
        let mut bytes = Vec::new();
        let _ = self.write_text(&mut bytes);
        String::from_utf8(bytes).unwrap_or_default()
    }
}
