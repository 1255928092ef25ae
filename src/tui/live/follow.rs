//! Following a live stream or looking back at it: the state machine behind `LIVE` and
//! `PAUSED at frame N (live: M)`. Pure: the viewer tells it what arrived and where the user
//! moved; it says where the view goes.

/// Whether the view follows the newest frame, and how far the stream has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Follow {
    following: bool,
    newest: u64,
}

impl Default for Follow {
    fn default() -> Self {
        Follow {
            following: true,
            newest: 0,
        }
    }
}

impl Follow {
    /// True while the view follows the stream.
    pub fn following(&self) -> bool {
        self.following
    }

    /// The newest frame received.
    pub fn newest(&self) -> u64 {
        self.newest
    }

    /// A frame arrived: the frame the view moves to (following), or `None` (paused: it is
    /// appended, the view stays).
    pub fn arrived(&mut self, frame: u64) -> Option<u64> {
        self.newest = self.newest.max(frame);
        self.following.then_some(self.newest)
    }

    /// The user moved the view to `frame` (a step, a scrub, a seek): anything but the
    /// newest frame pauses; the view never goes past the newest frame (the returned frame
    /// is where it must be).
    pub fn moved(&mut self, frame: u64) -> u64 {
        if frame >= self.newest {
            return self.newest;
        }
        self.following = false;
        frame
    }

    /// Pause at the current view.
    pub fn pause(&mut self) {
        self.following = false;
    }

    /// Back to live: the frame the view jumps to.
    pub fn back_to_live(&mut self) -> u64 {
        self.following = true;
        self.newest
    }

    /// A new client: its stream starts over, followed.
    pub fn restart(&mut self) {
        *self = Follow::default();
    }

    /// The status line's words for a view at `view`.
    pub fn label(&self, view: u64) -> String {
        if self.following {
            format!("LIVE #{}", self.newest)
        } else {
            format!("PAUSED at frame {view} (live: {})", self.newest)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_pauses_scrubs_back_and_returns_to_live() {
        let mut f = Follow::default();
        assert_eq!(f.arrived(0), Some(0));
        assert_eq!(f.arrived(1), Some(1));
        assert_eq!(f.arrived(2), Some(2));
        assert_eq!(f.label(2), "LIVE #2");
        // Scrubbing back pauses; frames keep arriving without moving the view.
        assert_eq!(f.moved(1), 1);
        assert!(!f.following());
        assert_eq!(f.arrived(3), None);
        assert_eq!(f.arrived(4), None);
        assert_eq!(f.label(1), "PAUSED at frame 1 (live: 4)");
        // Stepping forward stops at the newest frame, still paused.
        assert_eq!(f.moved(9), 4);
        assert!(!f.following());
        // Back to live jumps to the newest and follows again.
        assert_eq!(f.back_to_live(), 4);
        assert!(f.following());
        assert_eq!(f.arrived(5), Some(5));
        // An explicit pause holds the view; a late or repeated frame number never lowers
        // the newest.
        f.pause();
        assert_eq!(f.arrived(3), None);
        assert_eq!(f.newest(), 5);
        assert_eq!(f.label(5), "PAUSED at frame 5 (live: 5)");
        f.restart();
        assert_eq!(f.label(0), "LIVE #0");
    }

    #[test]
    fn moving_to_the_newest_frame_while_following_keeps_following() {
        let mut f = Follow::default();
        f.arrived(7);
        assert_eq!(f.moved(7), 7);
        assert!(f.following());
        assert_eq!(f.moved(12), 7);
        assert!(f.following());
    }
}
