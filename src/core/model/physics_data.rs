/// A Spine 4.2 physics constraint: springs that make a bone lag behind, overshoot and settle
/// as the skeleton moves (setup values; the live state is
/// [`crate::core::skeleton::PhysicsConstraint`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsConstraintData {
    pub name: String,
    pub order: i32,
    pub skin_required: bool,
    /// The bone whose world transform physics moves.
    pub bone: usize,
    /// Weight of the world x translation channel (0 = off).
    pub x: f64,
    /// Weight of the world y translation channel (0 = off).
    pub y: f64,
    /// Weight of the rotation channel (0 = off).
    pub rotate: f64,
    /// Weight of the stretch along the bone (0 = off).
    pub scale_x: f64,
    /// Weight of the shear channel (0 = off); shares the angular state with `rotate`.
    pub shear_x: f64,
    /// Largest speed (skeleton units per second) the bone's own movement feeds in.
    pub limit: f64,
    /// Simulation step in seconds (`1 / fps`).
    pub step: f64,
    pub inertia: f64,
    pub strength: f64,
    pub damping: f64,
    /// `1 / mass`.
    pub mass_inverse: f64,
    pub wind: f64,
    pub gravity: f64,
    pub mix: f64,
    /// The `*_global` flags: this constraint follows the global (constraint name `""`)
    /// timeline of that property.
    pub inertia_global: bool,
    pub strength_global: bool,
    pub damping_global: bool,
    pub mass_global: bool,
    pub wind_global: bool,
    pub gravity_global: bool,
    pub mix_global: bool,
    /// Spine 4.3: how the scaleX channel also scales the bone's y axis.
    pub scale_y: ScaleYMode,
}

/// Spine 4.3 (`scaleY` of IK and physics): what a stretch along x does to the y axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ScaleYMode {
    /// y is left alone.
    #[default]
    None,
    /// y is scaled like x.
    Uniform,
    /// y is scaled to keep the area roughly constant.
    Volume,
}

/// A physics simulation rate bonescope refuses.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum FpsError {
    /// Zero, negative, NaN or infinite.
    #[error("fps must be a positive number, not {}", shown(*.0))]
    NotPositive(f64),
    /// Above [`PhysicsConstraintData::MAX_FPS`].
    #[error(
        "fps {} is beyond the {} steps per second bonescope simulates (the editor exports at most 255)",
        shown(*.0),
        PhysicsConstraintData::MAX_FPS
    )]
    TooHigh(f64),
}

/// A rate as a message shows it: 1e308 in full would be 309 digits.
fn shown(fps: f64) -> String {
    if fps.abs() >= 1e6 {
        format!("{fps:e}")
    } else {
        format!("{fps}")
    }
}

impl PhysicsConstraintData {
    /// The highest simulation rate a loader accepts. The editor's binary export stores the
    /// rate in one unsigned byte (so 255 at most); JSON is a number, and a rate like 1e9
    /// (16.7 million steps per 60 Hz frame, which the official runtime runs in full) is
    /// refused with a located error rather than stalling every update. 1000 leaves room for
    /// hand-edited files while keeping one frame at most about 17 steps per constraint.
    pub const MAX_FPS: f64 = 1000.0;

    /// Checks a simulation rate read from a file: a finite number in `(0, MAX_FPS]`.
    /// The error's message is what a loader places at the `fps` key.
    pub fn check_fps(fps: f64) -> Result<(), FpsError> {
        if !(fps.is_finite() && fps > 0.0) {
            return Err(FpsError::NotPositive(fps));
        }
        if fps > Self::MAX_FPS {
            return Err(FpsError::TooHigh(fps));
        }
        Ok(())
    }

    /// A constraint on `bone` with the Spine 4.2 defaults of every key the JSON may omit
    /// (all channels off, limit 5000, 60 fps, inertia 1, strength 100, damping 1, mass 1,
    /// no wind or gravity, mix 1, no global flags).
    pub fn new(name: impl Into<String>, bone: usize) -> PhysicsConstraintData {
        PhysicsConstraintData {
            name: name.into(),
            order: 0,
            skin_required: false,
            bone,
            x: 0.0,
            y: 0.0,
            rotate: 0.0,
            scale_x: 0.0,
            shear_x: 0.0,
            limit: 5000.0,
            step: 1.0 / 60.0,
            inertia: 1.0,
            strength: 100.0,
            damping: 1.0,
            mass_inverse: 1.0,
            wind: 0.0,
            gravity: 0.0,
            mix: 1.0,
            inertia_global: false,
            strength_global: false,
            damping_global: false,
            mass_global: false,
            wind_global: false,
            gravity_global: false,
            mix_global: false,
            scale_y: ScaleYMode::None,
        }
    }
}

/// Skeleton units per physics "meter" (Spine's `referenceScale`): converts wind, gravity and
/// bone lengths between the two. Defaults to Spine's 100, so data that never sets it (3.8,
/// DragonBones, MRTK, hand-made) cannot divide by zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReferenceScale(pub f64);

impl Default for ReferenceScale {
    fn default() -> ReferenceScale {
        ReferenceScale(100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_spine_4_2s() {
        let d = PhysicsConstraintData::new("p", 3);
        assert_eq!(d.bone, 3);
        assert_eq!(
            (d.x, d.y, d.rotate, d.scale_x, d.shear_x),
            (0.0, 0.0, 0.0, 0.0, 0.0)
        );
        assert_eq!((d.limit, d.step), (5000.0, 1.0 / 60.0));
        assert_eq!((d.inertia, d.strength, d.damping), (1.0, 100.0, 1.0));
        assert_eq!(
            (d.mass_inverse, d.wind, d.gravity, d.mix),
            (1.0, 0.0, 0.0, 1.0)
        );
        assert!(!d.skin_required && !d.mix_global && !d.inertia_global);
        assert_eq!(ReferenceScale::default().0, 100.0);
    }

    #[test]
    fn rates_outside_zero_to_max_fps_are_refused() {
        for ok in [PhysicsConstraintData::MAX_FPS, 255.0, 60.0, 0.5, 1e-300] {
            assert_eq!(PhysicsConstraintData::check_fps(ok), Ok(()), "{ok}");
        }
        for bad in [
            0.0,
            -0.0,
            -60.0,
            1000.5,
            1e9,
            1e308,
            f64::NAN,
            f64::INFINITY,
        ] {
            let err = PhysicsConstraintData::check_fps(bad)
                .expect_err("refused")
                .to_string();
            assert!(err.starts_with("fps "), "{err}");
            assert!(err.len() < 120, "short: {err}");
        }
    }
}
