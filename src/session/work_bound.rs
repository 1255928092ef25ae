//! The one bound on headless replay work. A seek, a script line, an image export, a scenario
//! or a poses run costs about (frames replayed) x (bones, slots and constraints); a big rig
//! and a long time multiply into hours. Headless commands ask [`check`] before starting and
//! are refused with the size of the job and how to allow it; the viewer slices its seeks
//! instead (it answers keys between slices).

use crate::core::model::SkeletonData;

/// The most work a headless job may cost by default, in bone-frames (bones, slots and
/// constraints times frames replayed): about 20 s at ~20 ns each. `BONESCOPE_SEEK_WORK`
/// overrides it.
pub const DEFAULT_SEEK_WORK: u64 = 1_000_000_000;

/// The work limit: `BONESCOPE_SEEK_WORK` if set to a whole number, else
/// [`DEFAULT_SEEK_WORK`].
pub fn seek_work_limit() -> u64 {
    std::env::var("BONESCOPE_SEEK_WORK")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_SEEK_WORK)
}

/// What one frame costs on `data`'s rig: its bones, slots and constraints (and one, so an
/// empty rig still counts frames).
pub fn rig_size(data: &SkeletonData) -> u64 {
    [
        data.bones.len(),
        data.slots.len(),
        data.ik_constraints.len(),
        data.transform_constraints.len(),
        data.path_constraints.len(),
        data.physics_constraints.len(),
        data.slider_constraints.len(),
        1,
    ]
    .iter()
    .fold(0u64, |sum, &n| sum.saturating_add(n as u64))
}

/// A job beyond the work limit.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "{what} {frames} frames of a rig of {bones} bones: about {work} bone-frames, beyond the \
     limit of {limit} (set BONESCOPE_SEEK_WORK to allow more)"
)]
pub struct TooMuchWork {
    /// The job, as the start of the sentence ("reaching frame 5000 replays").
    pub what: String,
    /// Frames (or poses) it replays.
    pub frames: u64,
    /// Bones of the rig.
    pub bones: usize,
    /// `frames` x [`rig_size`].
    pub work: u64,
    /// The limit it is beyond.
    pub limit: u64,
}

/// Refuses replaying `frames` frames of `data`'s rig when that is more than `limit`
/// bone-frames; `what` starts the message ("the scenario runs").
pub fn check(
    what: impl FnOnce() -> String,
    frames: u64,
    data: &SkeletonData,
    limit: u64,
) -> Result<(), TooMuchWork> {
    let work = frames.saturating_mul(rig_size(data));
    if work <= limit {
        return Ok(());
    }
    Err(TooMuchWork {
        what: what(),
        frames,
        bones: data.bones.len(),
        work,
        limit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_is_frames_times_the_rig_and_refused_above_the_limit() {
        let data = crate::format::load(crate::EMBEDDED_SAMPLE, "sample").expect("loads");
        let size = rig_size(&data);
        assert!(size > data.bones.len() as u64);
        check(|| unreachable!(), 10, &data, 10 * size).expect("at the limit is allowed");
        let e = check(|| "the job runs".into(), 11, &data, 10 * size).unwrap_err();
        assert_eq!(e.work, 11 * size);
        let text = e.to_string();
        assert!(
            text.starts_with("the job runs 11 frames of a rig of"),
            "{text}"
        );
        assert!(text.contains("BONESCOPE_SEEK_WORK"), "{text}");
        // No overflow whatever the frames.
        let e = check(|| "x".into(), u64::MAX, &data, u64::MAX - 1).unwrap_err();
        assert_eq!(e.work, u64::MAX);
    }
}
