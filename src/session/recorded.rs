//! A session driven by a game's recording (`bonescope attach`): frames are the game's
//! `update(dt)` frames, not fixed steps.
//!
//! In this mode a frame's step does nothing by itself: the game's own `update(dt)` and
//! `apply` arrive as inputs ([`Command::Update`], [`Command::Apply`]) and run as the game
//! ran them, without the settle a typed command gets, so the state sees exactly the game's
//! sequence of calls. Calls the game made from inside a listener are [`Input::Nested`]:
//! they run inside the session's listener, right after the notification they followed.
//!
//! [`Command::Update`]: super::Command::Update
//! [`Command::Apply`]: super::Command::Apply
//! [`Input::Nested`]: super::Input::Nested

/// The time of a recorded session: the last `update(dt)`'s dt (what `apply` advances the
/// skeleton's physics by) and the sum of every dt so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RecordedClock {
    pub dt: f64,
    pub elapsed: f64,
}

impl RecordedClock {
    /// After an `update(dt)`.
    pub fn advance(&mut self, dt: f64) {
        self.dt = dt;
        self.elapsed += dt;
    }
}

#[cfg(test)]
mod tests {
    use crate::core::model::SkeletonData;
    use crate::session::recording::{Record, Replay, parse_line};
    use crate::session::{Command, Input, LogLine, Session};
    use std::sync::Arc;

    fn sample() -> Arc<SkeletonData> {
        let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("samples/spine/lantern-keeper.json");
        let bytes = std::fs::read(p).expect("sample");
        Arc::new(crate::format::load(&bytes, "lantern-keeper").expect("loads"))
    }

    fn world(s: &crate::core::skeleton::Skeleton) -> Vec<(f64, f64, f64, f64, f64, f64)> {
        s.bones
            .iter()
            .map(|b| (b.a, b.b, b.c, b.d, b.world_x, b.world_y))
            .collect()
    }

    /// A stream with variable dt, a second track and an entry setting, fed to a replay; the
    /// recorded session given the replay's inputs reaches the same pose, at every frame it
    /// is sent back to.
    #[test]
    fn a_recorded_session_is_the_replay_and_travels_in_time() {
        let data = sample();
        let hello = match parse_line(
            1,
            br#"{"kind":"hello","runtime":{"name":"spine-ts","version":"4.2.0"}}"#,
        ) {
            Ok(Record::Hello(h)) => h,
            other => panic!("hello: {other:?}"),
        };
        let mut replay = Replay::new(data.clone(), &hello).expect("replay");
        let mut session = Session::recorded(data, vec![]).expect("session");
        let mut lines = vec![
            r#"{"kind":"frame","frame":0,"items":[{"call":"setAnimation","track":0,"animation":"walk","loop":true,"entry":1},{"call":"entry","entry":1,"property":"alpha","value":0.75}]}"#.to_string(),
        ];
        let mut elapsed = 0.0;
        for f in 1..=40u64 {
            let dt = if f % 2 == 0 { 1.0 / 60.0 } else { 1.0 / 24.0 };
            elapsed += dt;
            let extra = if f == 10 {
                r#",{"call":"setAnimation","track":1,"animation":"wave","loop":false,"entry":2}"#
            } else {
                ""
            };
            lines.push(format!(
                r#"{{"kind":"frame","frame":{f},"items":[{{"call":"update","dt":{dt}}}{extra},{{"call":"apply"}}]}}"#
            ));
        }
        let mut poses = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let Ok(Record::Frame { frame, items }) = parse_line(i as u64 + 2, l.as_bytes()) else {
                panic!("frame line {l}");
            };
            replay.frame(frame, &items);
            session.append_frame(frame, replay.take_inputs());
            session.seek_frame(frame);
            assert_eq!(
                world(session.skeleton()),
                world(replay.skeleton()),
                "frame {frame}"
            );
            poses.push(world(session.skeleton()));
        }
        assert!((session.time() - elapsed).abs() < 1e-12);
        let log: Vec<LogLine> = session.log().to_vec();
        assert!(log.len() >= 2, "start callbacks logged: {log:?}");
        // Back and forth: every frame is the same pose again, and the log too.
        for f in [3u64, 17, 0, 40, 9] {
            session.seek_frame(f);
            assert_eq!(world(session.skeleton()), poses[f as usize], "back at {f}");
        }
        session.seek_frame(40);
        assert_eq!(*session.log(), log[..]);
        assert!((session.time() - elapsed).abs() < 1e-12);
    }

    /// A call from inside a listener runs right after the notification it followed, before
    /// the notifications queued after it.
    #[test]
    fn nested_calls_run_inside_the_listener() {
        let data = sample();
        let walk = data.find_animation("walk").expect("walk");
        let wave = data.find_animation("wave").expect("wave");
        let mut s = Session::recorded(data, vec![]).expect("session");
        s.append_frame(
            0,
            vec![
                Input::Command(Command::SetAnimation {
                    track: 0,
                    animation: walk,
                    looping: true,
                }),
                Input::Nested {
                    after: 1,
                    command: Command::SetAnimation {
                        track: 1,
                        animation: wave,
                        looping: false,
                    },
                },
            ],
        );
        s.append_frame(1, vec![Input::Command(Command::Update { dt: 0.1 })]);
        s.seek_frame(1);
        assert!(s.state().current(1).is_some(), "the nested call ran");
        let tracks: Vec<usize> = s
            .log()
            .iter()
            .filter_map(|l| match l {
                LogLine::Notification { note, .. } => Some(note.track),
                LogLine::Marker { .. } => None,
            })
            .collect();
        assert_eq!(tracks, vec![0, 1]);
        assert!((s.time() - 0.1).abs() < 1e-12);
        // Replayed from scratch, the same.
        s.seek_frame(0);
        s.seek_frame(1);
        assert!(s.state().current(1).is_some());
    }
}
