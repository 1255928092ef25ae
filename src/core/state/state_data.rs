use crate::core::model::SkeletonData;
use std::collections::HashMap;
use std::sync::Arc;

/// Mix (crossfade) durations between animations: a default plus per-pair overrides.
#[derive(Clone, Debug)]
pub struct AnimationStateData {
    pub skeleton: Arc<SkeletonData>,
    pub default_mix: f64,
    mixes: HashMap<(usize, usize), f64>,
}

impl AnimationStateData {
    /// How many mix durations are set between pairs of animations.
    pub fn mix_count(&self) -> usize {
        self.mixes.len()
    }

    /// No mixing until durations are set.
    pub fn new(skeleton: Arc<SkeletonData>) -> AnimationStateData {
        AnimationStateData {
            skeleton,
            default_mix: 0.0,
            mixes: HashMap::new(),
        }
    }

    /// Sets the mix duration from animation `from` to `to` (indices into the skeleton data).
    pub fn set_mix(&mut self, from: usize, to: usize, duration: f64) {
        self.mixes.insert((from, to), duration);
    }

    /// Sets a mix by animation names; fails on the first unknown name.
    pub fn set_mix_by_name(
        &mut self,
        from: &str,
        to: &str,
        duration: f64,
    ) -> Result<(), crate::core::model::UnknownName> {
        use crate::core::model::{NameKind, UnknownName};
        let f = self
            .skeleton
            .find_animation(from)
            .ok_or_else(|| UnknownName::new(NameKind::Animation, from))?;
        let t = self
            .skeleton
            .find_animation(to)
            .ok_or_else(|| UnknownName::new(NameKind::Animation, to))?;
        self.set_mix(f, t, duration);
        Ok(())
    }

    /// The mix duration from `from` to `to` (`None` = the empty animation): the pair's, else
    /// the fade-in `to` asks for, else the default.
    pub fn mix(&self, from: Option<usize>, to: Option<usize>) -> f64 {
        let fade_in = || {
            to.and_then(|t| self.skeleton.animations.get(t))
                .and_then(|a| a.fade_in)
                .unwrap_or(self.default_mix)
        };
        match (from, to) {
            (Some(f), Some(t)) => self.mixes.get(&(f, t)).copied().unwrap_or_else(fade_in),
            _ => fade_in(),
        }
    }
}
