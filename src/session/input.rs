//! What a session records: the user's inputs, each at the frame it was issued on.

use super::Command;

/// One recorded input.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// A command run on the animation state.
    Command(Command),
    /// A line the application adds to the log (e.g. a reload), kept across replays.
    Marker(String),
    /// A game's call made from inside a listener (recorded sessions): runs inside the
    /// session's listener right after the frame's `after`-th notification (1 = the first
    /// notification delivered in the frame).
    Nested { after: usize, command: Command },
}

/// The inputs of a session, ordered by frame and, within a frame, by the order they were
/// issued in (the order a replay runs them in).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    list: Vec<(u64, Input)>,
}

impl Inputs {
    /// Inputs from (frame, input) pairs; a stable sort keeps the order within a frame.
    pub fn from_list(mut list: Vec<(u64, Input)>) -> Inputs {
        list.sort_by_key(|(f, _)| *f);
        Inputs { list }
    }

    /// Every input in replay order.
    pub fn list(&self) -> &[(u64, Input)] {
        &self.list
    }

    /// Records `input` as the last one of `frame`.
    pub fn push(&mut self, frame: u64, input: Input) {
        let at = self.list.partition_point(|(f, _)| *f <= frame);
        self.list.insert(at, (frame, input));
    }

    /// The inputs of `frame`, in issue order.
    pub fn at(&self, frame: u64) -> &[(u64, Input)] {
        let start = self.list.partition_point(|(f, _)| *f < frame);
        let end = self.list.partition_point(|(f, _)| *f <= frame);
        &self.list[start..end]
    }

    /// Drops every input after `frame`.
    pub fn truncate_after(&mut self, frame: u64) {
        let end = self.list.partition_point(|(f, _)| *f <= frame);
        self.list.truncate(end);
    }

    /// Keeps the inputs `keep` accepts.
    pub fn retain(&mut self, keep: impl FnMut(&(u64, Input)) -> bool) {
        self.list.retain(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(s: &str) -> Input {
        Input::Marker(s.into())
    }

    #[test]
    fn inputs_keep_issue_order_within_a_frame() {
        let mut i = Inputs::default();
        i.push(5, marker("a"));
        i.push(2, marker("b"));
        i.push(5, marker("c"));
        i.push(0, marker("d"));
        let names: Vec<(u64, Input)> = i.list().to_vec();
        assert_eq!(
            names,
            vec![
                (0, marker("d")),
                (2, marker("b")),
                (5, marker("a")),
                (5, marker("c"))
            ]
        );
        assert_eq!(i.at(5).len(), 2);
        assert!(i.at(3).is_empty());
        i.truncate_after(2);
        assert_eq!(i.list().len(), 2);
    }
}
