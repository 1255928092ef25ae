//! `bonescope curves`: every curve of a file sampled at chosen times, as JSON or a table.
//!
//! MRTK input animations give one entry per stored curve (`hand.right.joint.IndexTip.position.y`);
//! Spine skeletons one per plottable channel of every animation's timelines
//! (`walk/bone.hip.rotate.angle`).

use super::CliError;
use super::poses::num;
use crate::core::model::SkeletonData;
use crate::format::mrtk::{self, Recording};
use crate::inspect;
use crate::text::sanitize;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;
use unicode_width::UnicodeWidthStr;

/// One curve and its samples `(time, value)`.
#[derive(Clone, Debug, PartialEq)]
pub struct SampledCurve {
    /// Unsanitized (names from the file); sanitized when printed.
    pub path: String,
    pub samples: Vec<(f64, f64)>,
}

/// What `curves` prints.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvesReport {
    /// One line describing the file, for the table's header.
    pub title: String,
    pub duration: f64,
    /// `(time, name)`; names unsanitized.
    pub markers: Vec<(f64, String)>,
    pub curves: Vec<SampledCurve>,
    /// True when every curve was sampled at the same (given) times.
    pub shared_times: bool,
}

/// Sorted, distinct, finite key times.
fn distinct_times(times: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut out: Vec<f64> = times.filter(|t| t.is_finite()).collect();
    out.sort_by(f64::total_cmp);
    out.dedup();
    out
}

/// The curves of an MRTK recording, at `times` or else at each of its own key times, one at
/// a time (`sample` false: paths only).
fn recording_curves<'a>(
    rec: &'a Recording,
    times: Option<&'a [f64]>,
    sample: bool,
) -> impl Iterator<Item = SampledCurve> + 'a {
    rec.curves.iter().map(move |c| {
        let samples = if !sample {
            Vec::new()
        } else {
            let own;
            let at = match times {
                Some(t) => t,
                None => {
                    own = distinct_times(c.curve.keys.iter().map(|k| k.time as f64));
                    &own
                }
            };
            at.iter().map(|&t| (t, c.value(t))).collect()
        };
        SampledCurve {
            path: c.path.clone(),
            samples,
        }
    })
}

fn recording_markers(rec: &Recording) -> Vec<(f64, String)> {
    rec.markers
        .iter()
        .map(|m| (m.time as f64, m.name.clone()))
        .collect()
}

/// Every curve of an MRTK recording, at `times` or else at each of its own key times.
pub fn from_recording(rec: &Recording, title: String, times: Option<&[f64]>) -> CurvesReport {
    CurvesReport {
        title,
        duration: rec.duration,
        markers: recording_markers(rec),
        curves: recording_curves(rec, times, true).collect(),
        shared_times: times.is_some(),
    }
}

/// Every plottable channel of every animation, at `times` or else at its timeline's key
/// times, one at a time (`sample` false: paths only).
fn skeleton_curves<'a>(
    data: &'a SkeletonData,
    times: Option<&'a [f64]>,
    sample: bool,
) -> impl Iterator<Item = SampledCurve> + 'a {
    data.animations.iter().flat_map(move |anim| {
        inspect::describe(data, anim)
            .into_iter()
            .flat_map(move |info| {
                let timeline = &anim.timelines[info.index];
                let curve = inspect::Curve::new(timeline);
                let at: Vec<f64> = match (&curve, times, sample) {
                    (_, _, false) | (None, _, _) => Vec::new(),
                    (Some(_), Some(t), true) => t.to_vec(),
                    (Some(c), None, true) => {
                        distinct_times(c.key_times().iter().map(|&t| t as f64))
                    }
                };
                let channels: Vec<(usize, String)> = match &curve {
                    None => Vec::new(),
                    Some(_) => info
                        .channels
                        .iter()
                        .enumerate()
                        .map(|(ch, name)| (ch, format!("{}/{}", anim.name, info.path(name))))
                        .collect(),
                };
                channels.into_iter().map(move |(channel, path)| {
                    let samples = match &curve {
                        Some(c) => at
                            .iter()
                            .filter_map(|&t| Some((t, c.value(channel, t)?)))
                            .collect(),
                        None => Vec::new(),
                    };
                    SampledCurve { path, samples }
                })
            })
    })
}

fn skeleton_duration(data: &SkeletonData) -> f64 {
    data.animations
        .iter()
        .map(|a| a.duration)
        .fold(0.0, f64::max)
}

/// Every plottable channel of every animation, at `times` or else at its timeline's key times.
pub fn from_skeleton(data: &SkeletonData, title: String, times: Option<&[f64]>) -> CurvesReport {
    CurvesReport {
        title,
        duration: skeleton_duration(data),
        markers: Vec::new(),
        curves: skeleton_curves(data, times, true).collect(),
        shared_times: times.is_some(),
    }
}

/// A loaded file whose curves are sampled while they are written, so memory is bounded by
/// the file, not by curves x times.
pub struct CurvesStream {
    pub title: String,
    pub source: CurveSource,
    pub times: Option<Vec<f64>>,
}

/// What the curves come from.
pub enum CurveSource {
    Recording(Recording),
    Skeleton(Box<SkeletonData>),
}

impl CurvesStream {
    fn duration(&self) -> f64 {
        match &self.source {
            CurveSource::Recording(r) => r.duration,
            CurveSource::Skeleton(d) => skeleton_duration(d),
        }
    }

    fn markers(&self) -> Vec<(f64, String)> {
        match &self.source {
            CurveSource::Recording(r) => recording_markers(r),
            CurveSource::Skeleton(_) => Vec::new(),
        }
    }

    fn curves(&self, sample: bool) -> Box<dyn Iterator<Item = SampledCurve> + '_> {
        let times = self.times.as_deref();
        match &self.source {
            CurveSource::Recording(r) => Box::new(recording_curves(r, times, sample)),
            CurveSource::Skeleton(d) => Box::new(skeleton_curves(d, times, sample)),
        }
    }

    /// Writes the JSON of [`CurvesReport::to_json`], one curve at a time.
    pub fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_json_doc(out, self.duration(), &self.markers(), self.curves(true))?;
        out.write_all(b"\n")
    }

    /// Writes the table of [`CurvesReport::to_text`], one curve at a time.
    pub fn write_text(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let paths: Vec<String> = self
            .curves(false)
            .map(|c| sanitize(&c.path).into_owned())
            .collect();
        write_text_doc(
            out,
            &self.title,
            self.duration(),
            &self.markers(),
            self.times.is_some(),
            &paths,
            self.curves(true),
        )
    }
}

/// `{"duration", "markers", "curves"}` written curve by curve: the bytes of the whole
/// document serialized at once, with unsafe characters escaped.
fn write_json_doc(
    out: &mut dyn std::io::Write,
    duration: f64,
    markers: &[(f64, String)],
    curves: impl Iterator<Item = SampledCurve>,
) -> std::io::Result<()> {
    use crate::text::write_json;
    out.write_all(b"{\"duration\":")?;
    write_json(&mut *out, &num(duration))?;
    out.write_all(b",\"markers\":")?;
    let markers: Vec<JsonMarker> = markers
        .iter()
        .map(|(t, name)| JsonMarker {
            time: num(*t),
            name: name.clone(),
        })
        .collect();
    write_json(&mut *out, &markers)?;
    out.write_all(b",\"curves\":[")?;
    for (i, c) in curves.enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let curve = JsonCurve {
            path: c.path,
            samples: c.samples.iter().map(|&(t, v)| [num(t), num(v)]).collect(),
        };
        write_json(&mut *out, &curve)?;
    }
    out.write_all(b"]}")
}

/// The table: a header, then one row per curve and time, or with shared times one row per
/// curve and one column per time. `paths` are the curves' sanitized paths, in order.
fn write_text_doc(
    out: &mut dyn std::io::Write,
    title: &str,
    duration: f64,
    markers: &[(f64, String)],
    shared_times: bool,
    paths: &[String],
    curves: impl Iterator<Item = SampledCurve>,
) -> std::io::Result<()> {
    writeln!(out, "{title}")?;
    writeln!(out, "duration {:.4} s, {} curves", duration, paths.len())?;
    if !markers.is_empty() {
        let list: Vec<String> = markers
            .iter()
            .map(|(t, n)| format!("{t:.4} \"{}\"", sanitize(n)))
            .collect();
        writeln!(out, "markers: {}", list.join(", "))?;
    }
    let w = paths.iter().map(|p| p.width()).max().unwrap_or(0).max(4);
    let pad = |p: &str| format!("{p}{}", " ".repeat(w.saturating_sub(p.width())));
    writeln!(out)?;
    let mut curves = curves.peekable();
    if shared_times {
        write!(out, "{}", pad("path"))?;
        if let Some(first) = curves.peek() {
            for (t, _) in &first.samples {
                write!(out, " {:>11}", format!("t={t:.4}"))?;
            }
        }
        writeln!(out)?;
        for (c, p) in curves.zip(paths) {
            write!(out, "{}", pad(p))?;
            for (_, v) in &c.samples {
                write!(out, " {:>11}", fixed(*v))?;
            }
            writeln!(out)?;
        }
    } else {
        writeln!(out, "{} {:>11} {:>11}", pad("path"), "time", "value")?;
        for (c, p) in curves.zip(paths) {
            if c.samples.is_empty() {
                writeln!(out, "{} {:>11} {:>11}", pad(p), "no keys", "0")?;
            }
            for (i, (t, v)) in c.samples.iter().enumerate() {
                let name = if i == 0 { pad(p) } else { " ".repeat(w) };
                writeln!(out, "{name} {:>11} {:>11}", fixed(*t), fixed(*v))?;
            }
        }
    }
    Ok(())
}

#[derive(Serialize)]
struct JsonMarker {
    time: Value,
    name: String,
}

#[derive(Serialize)]
struct JsonCurve {
    path: String,
    samples: Vec<[Value; 2]>,
}

impl CurvesReport {
    /// `{"duration", "markers": [{"time", "name"}], "curves": [{"path", "samples": [[t, v]]}]}`
    /// on one line; unsafe characters in names JSON-escaped (`\u202e`), non-finite numbers as
    /// "NaN" / "Infinity" / "-Infinity".
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        let _ = write_json_doc(
            &mut out,
            self.duration,
            &self.markers,
            self.curves.iter().cloned(),
        );
        String::from_utf8(out).unwrap_or_default()
    }

    /// A header, then one row per curve and time, or with shared times one row per curve
    /// and one column per time.
    pub fn to_text(&self) -> String {
        let paths: Vec<String> = self
            .curves
            .iter()
            .map(|c| sanitize(&c.path).into_owned())
            .collect();
        let mut out = Vec::new();
        let _ = write_text_doc(
            &mut out,
            &self.title,
            self.duration,
            &self.markers,
            self.shared_times,
            &paths,
            self.curves.iter().cloned(),
        );
        String::from_utf8(out).unwrap_or_default()
    }
}

/// `v` with 4 decimals, without the sign of a value that rounds to zero.
fn fixed(v: f64) -> String {
    let s = format!("{v:.4}");
    if s == "-0.0000" {
        s[1..].to_string()
    } else {
        s
    }
}

/// True when the file should go to the MRTK reader: it has the magic, or it is a `.bin`
/// that is not JSON (so a damaged recording gets the MRTK reader's located error).
fn looks_like_mrtk(path: &Path, bytes: &[u8]) -> bool {
    let bin = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bin"));
    let json = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{' || b == 0xef);
    mrtk::is_mrtk(bytes) || (bin && !json)
}

/// Loads `path` (MRTK recording or any skeleton `format::load` reads) and samples its curves.
/// Warnings of an MRTK recording are returned as sanitized lines.
pub fn report(
    path: &Path,
    times: Option<&[f64]>,
    armature: Option<&str>,
) -> Result<(CurvesReport, Vec<String>), CliError> {
    let (stream, warnings) = open(path, times, armature)?;
    let report = match &stream.source {
        CurveSource::Recording(r) => from_recording(r, stream.title.clone(), times),
        CurveSource::Skeleton(d) => from_skeleton(d, stream.title.clone(), times),
    };
    Ok((report, warnings))
}

/// Loads `path` (MRTK recording or any skeleton `format::load` reads), ready to stream its
/// curves. Warnings of an MRTK recording are returned as sanitized lines.
pub fn open(
    path: &Path,
    times: Option<&[f64]>,
    armature: Option<&str>,
) -> Result<(CurvesStream, Vec<String>), CliError> {
    let times_owned = times.map(<[f64]>::to_vec);
    let shown = sanitize(&path.display().to_string()).into_owned();
    let fail = |e: &dyn std::fmt::Display| CliError(format!("{shown}: {e}"));
    let bytes = super::read_input(path)?;
    let file = path
        .file_name()
        .map(|s| sanitize(&s.to_string_lossy()).into_owned())
        .unwrap_or_default();
    if looks_like_mrtk(path, &bytes) {
        let rec = mrtk::load(&bytes).map_err(|e| fail(&e))?;
        let streams: Vec<&str> = [
            (rec.has_camera, "camera"),
            (rec.has_hands, "hands"),
            (rec.has_eye_gaze, "eye gaze"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        let title = format!(
            "{file}: MRTK input animation {}.{} ({})",
            rec.version.major,
            rec.version.minor,
            if streams.is_empty() {
                "no streams".to_string()
            } else {
                streams.join(", ")
            }
        );
        let warnings = rec
            .warnings
            .iter()
            .map(|(at, m)| format!("{shown}: warning at byte {at}: {}", sanitize(m)))
            .collect();
        let stream = CurvesStream {
            title,
            source: CurveSource::Recording(rec),
            times: times_owned,
        };
        return Ok((stream, warnings));
    }
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let all = crate::format::load_all(&bytes, &name).map_err(|e| fail(&e))?;
    let data = super::pick_armature(path, all.into_iter().map(Box::new).collect(), armature)?;
    let title = format!(
        "{file}: {} {}, {} animations",
        sanitize(&data.source.format),
        sanitize(&data.source.version),
        data.animations.len()
    );
    let stream = CurvesStream {
        title,
        source: CurveSource::Skeleton(data),
        times: times_owned,
    };
    Ok((stream, Vec::new()))
}

/// Runs the command: prints warnings to stderr and the report to stdout.
pub fn run(
    file: &Path,
    json: bool,
    times: Option<Vec<f64>>,
    armature: Option<&str>,
) -> Result<(), CliError> {
    if let Some(bad) = times.iter().flatten().find(|t| !t.is_finite()) {
        return Err(CliError(format!("--times: {bad} is not a finite time")));
    }
    let (stream, warnings) = open(file, times.as_deref(), armature)?;
    for w in warnings {
        eprintln!("bonescope: {w}");
    }
    // Written curve by curve: curves x times can be far larger than the file.
    super::with_stdout(|out| {
        if json {
            stream.write_json(out)
        } else {
            stream.write_text(out)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::unity_curve::{UnityCurve, UnityKey, WrapMode};
    use crate::format::mrtk::{CurveKind, Marker, NamedCurve, Version};
    use serde_json::json;

    fn recording() -> Recording {
        let line = UnityCurve::new(
            vec![UnityKey::new(0.0, 0.0), UnityKey::new(2.0, 1.0)],
            WrapMode::ClampForever,
            WrapMode::ClampForever,
        );
        Recording {
            version: Version { major: 1, minor: 1 },
            has_camera: false,
            has_hands: false,
            has_eye_gaze: false,
            curves: vec![NamedCurve {
                path: "x\u{1b}y".into(),
                kind: CurveKind::Float,
                offset: 19,
                curve: line,
            }],
            markers: vec![Marker {
                time: 0.5,
                name: "evil\u{202e}".into(),
            }],
            duration: 2.0,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn json_shape_and_sanitizing() {
        let r = from_recording(&recording(), "t".into(), None);
        let text = r.to_json();
        assert!(
            text.starts_with("{\"duration\":2.0,\"markers\":["),
            "{text}"
        );
        let v: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(v["duration"], json!(2.0));
        assert!(!text.chars().any(crate::text::needs_escape), "{text:?}");
        assert!(
            text.contains("evil\\u202e") && text.contains("x\\u001by"),
            "{text}"
        );
        assert_eq!(v["markers"], json!([{"time": 0.5, "name": "evil\u{202e}"}]));
        assert_eq!(v["curves"][0]["path"], json!("x\u{1b}y"));
        assert_eq!(v["curves"][0]["samples"], json!([[0.0, 0.0], [2.0, 1.0]]));
        let r = from_recording(&recording(), "t".into(), Some(&[-1.0, 1.0]));
        let v: Value = serde_json::from_str(&r.to_json()).expect("json");
        assert_eq!(v["curves"][0]["samples"], json!([[-1.0, 0.0], [1.0, 0.5]]));
    }

    #[test]
    fn skeletons_give_every_plottable_channel_per_animation() {
        let data = crate::format::load(crate::EMBEDDED_SAMPLE, "lantern-keeper").expect("sample");
        let r = from_skeleton(&data, "t".into(), None);
        assert!(r.markers.is_empty());
        let longest = data
            .animations
            .iter()
            .map(|a| a.duration)
            .fold(0.0, f64::max);
        assert_eq!(r.duration, longest);
        let mut expected = Vec::new();
        for anim in &data.animations {
            for info in inspect::describe(&data, anim) {
                let t = &anim.timelines[info.index];
                for (ch, name) in info.channels.iter().enumerate() {
                    let keys = inspect::keys_of(t).expect("keys");
                    let samples: Vec<(f64, f64)> = (0..keys.len())
                        .map(|k| {
                            let time = keys.time(k);
                            (time, inspect::channel_value(t, ch, time).expect("value"))
                        })
                        .collect();
                    expected.push((format!("{}/{}", anim.name, info.path(name)), samples));
                }
            }
        }
        let ours: Vec<(String, Vec<(f64, f64)>)> = r
            .curves
            .iter()
            .map(|c| (c.path.clone(), c.samples.clone()))
            .collect();
        assert_eq!(ours, expected);
        assert!(
            ours.iter()
                .any(|(p, _)| p == "idle/bone.torso.rotate.angle")
        );
        // Given times apply to every channel.
        let r = from_skeleton(&data, "t".into(), Some(&[0.25, 9.0]));
        assert!(r.curves.iter().all(|c| c.samples.len() == 2));
    }

    #[test]
    fn text_has_no_raw_escapes() {
        for times in [None, Some(&[0.0, 1.5][..])] {
            let text = from_recording(&recording(), "t".into(), times).to_text();
            assert!(
                !text.contains('\u{1b}') && !text.contains('\u{202e}'),
                "{text}"
            );
            assert!(text.contains("x\\ey"), "{text}");
        }
    }
}
