//! Where a session starts: the animation and skins the user named (`--animation`, `--skin`),
//! else [`crate::view_defaults`]' choice. The viewer, `session` and `render` open the same
//! way, so a script logs what the same keys typed in the viewer log.

use super::{Command, Session};
use crate::core::model::{SkeletonData, UnknownName};
use crate::text::sanitize;
use crate::view_defaults::{self, AnimationReason};

/// The opening choice for one skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The animation played on track 0, and why it was chosen.
    pub animation: Option<(usize, AnimationReason)>,
    /// The skins combined on top of the default skin.
    pub skins: Vec<String>,
    /// True when the user named the skins.
    pub skins_named: bool,
}

/// A name the user gave that the skeleton does not have; the text lists the choices.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OpeningError {
    #[error("--animation: {0}")]
    Animation(UnknownName),
    #[error("--skin: {0}")]
    Skin(UnknownName),
    /// The session refused the choice (a skin that fails to build).
    #[error(transparent)]
    Session(#[from] crate::session::SessionError),
}

impl Opening {
    /// The named animation and skins, else the defaults. Unknown names are an error listing
    /// the choices.
    pub fn choose(
        data: &SkeletonData,
        animation: Option<&str>,
        skins: Option<&[String]>,
    ) -> Result<Opening, OpeningError> {
        let animation = match animation {
            Some(name) => Some((
                view_defaults::animation_by_name(data, name).map_err(OpeningError::Animation)?,
                AnimationReason::Named,
            )),
            None => view_defaults::default_animation(data),
        };
        let (skins, skins_named) = match skins {
            Some(names) => (
                view_defaults::skins_by_name(data, names).map_err(OpeningError::Skin)?,
                true,
            ),
            None => (view_defaults::default_skins(data), false),
        };
        Ok(Opening {
            animation,
            skins,
            skins_named,
        })
    }

    /// Whether an opening animation loops: as the file says when it says how often the
    /// animation plays (DragonBones `playTimes`), else yes.
    pub fn looping(data: &SkeletonData, animation: usize) -> bool {
        data.animations
            .get(animation)
            .and_then(|a| a.play_times)
            .is_none_or(|n| n != 1)
    }

    /// Restarts `session` on this choice: the skins, then the animation on track 0.
    pub fn start(&self, session: &mut Session) -> Result<(), OpeningError> {
        if self.skins.as_slice() != session.skins() {
            session
                .set_skins(self.skins.clone())
                .map_err(OpeningError::Session)?;
        }
        let commands = match self.animation {
            Some((i, _)) => vec![Command::SetAnimation {
                track: 0,
                animation: i,
                looping: Opening::looping(session.data(), i),
            }],
            None => Vec::new(),
        };
        session
            .restart_with(commands)
            .map_err(OpeningError::Session)
    }

    /// What was chosen, in a few words for a status line ("opened on walk (a cycle), skin
    /// girl"); empty when there was nothing to choose.
    pub fn describe(&self, data: &SkeletonData) -> String {
        let mut said = match self.animation {
            Some((i, AnimationReason::Named)) => {
                format!("opened on {}", sanitize(&data.animations[i].name))
            }
            Some((i, why)) => format!(
                "opened on {} ({})",
                sanitize(&data.animations[i].name),
                why.describe()
            ),
            None => String::new(),
        };
        if !self.skins.is_empty() && !self.skins_named {
            said.push_str(&format!(
                "{}skin {}",
                if said.is_empty() { "" } else { ", " },
                sanitize(&self.skins.join(" + "))
            ));
        }
        let named = matches!(self.animation, Some((_, AnimationReason::Named)));
        // Nothing was chosen when the file has one animation and the default skin.
        if !named && data.animations.len() < 2 && (self.skins.is_empty() || self.skins_named) {
            return String::new();
        }
        said
    }
}
