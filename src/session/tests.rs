use super::*;
use std::path::PathBuf;

fn sample() -> Arc<SkeletonData> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine/lantern-keeper.json");
    let bytes = std::fs::read(p).expect("sample");
    Arc::new(crate::format::load(&bytes, "lantern-keeper").expect("loads"))
}

fn pose(s: &Session) -> Vec<(f64, f64, f64, f64, f64, f64)> {
    s.skeleton()
        .bones
        .iter()
        .map(|b| (b.a, b.b, b.c, b.d, b.world_x, b.world_y))
        .collect()
}

#[test]
fn seeking_back_replays_to_the_identical_pose_and_log() {
    let data = sample();
    let walk = data.find_animation("walk").expect("walk");
    let wave = data.find_animation("wave").expect("wave");
    let mut s = Session::new(data, vec![]).expect("session");
    s.restart_with(vec![Command::SetAnimation {
        track: 0,
        animation: walk,
        looping: true,
    }])
    .expect("restart");
    s.seek_frame(20);
    s.push(Command::SetAnimation {
        track: 1,
        animation: wave,
        looping: false,
    })
    .expect("push");
    s.seek_frame(75);
    let (p75, log75) = (pose(&s), s.log().to_vec());
    s.seek_frame(5);
    assert!(
        s.log().iter().all(|l| l.frame() <= 5),
        "the log is rebuilt up to frame 5"
    );
    s.seek_frame(75);
    assert_eq!(pose(&s), p75);
    assert_eq!(*s.log(), log75[..]);
    // The event log holds the walk start at frame 0 and the wave start at frame 20.
    let starts: Vec<(u64, String)> = s
        .log()
        .iter()
        .filter_map(|l| match l {
            LogLine::Notification { frame, note, .. } if note.kind.name() == "start" => {
                Some((*frame, note.animation.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        starts,
        vec![(0, "walk".to_string()), (20, "wave".to_string())]
    );
}

#[test]
fn partial_seeks_are_deterministic() {
    let data = sample();
    let walk = data.find_animation("walk").expect("walk");
    let mut s = Session::new(data, vec![]).expect("session");
    s.restart_with(vec![Command::SetAnimation {
        track: 0,
        animation: walk,
        looping: true,
    }])
    .expect("restart");
    s.seek_time(0.41);
    let a = pose(&s);
    s.seek_frame(3);
    s.seek_time(0.41);
    assert_eq!(pose(&s), a);
    assert!((s.time() - 0.41).abs() < 1e-9);
}

#[test]
fn bad_commands_are_refused() {
    let data = sample();
    let mut s = Session::new(data, vec![]).expect("session");
    assert!(
        s.push(Command::SetAnimation {
            track: 0,
            animation: 999,
            looping: true
        })
        .is_err()
    );
    assert!(
        s.push(Command::AddAnimation {
            track: 1000,
            animation: 0,
            looping: true,
            delay: 0.0
        })
        .is_err()
    );
    assert!(s.push(Command::DefaultMix { duration: f64::NAN }).is_err());
    assert!(s.inputs().is_empty());
}

/// Everything a frame shows: tracks (entry chains), pose and log, for exact comparison.
fn fingerprint(s: &Session) -> String {
    let st = s.state();
    let mut out = String::new();
    for t in 0..st.tracks.len() {
        let mut id = st.current(t);
        out.push_str(&format!("track {t}:"));
        while let Some(e) = id.and_then(|i| st.entry(i)) {
            out.push_str(&format!(
                " #{} {:?} tt={} mt={}/{} a={} ts={} next={:?};",
                e.id.serial,
                e.animation,
                e.track_time,
                e.mix_time,
                e.mix_duration,
                e.alpha,
                e.time_scale,
                e.next.map(|n| n.serial)
            ));
            id = e.mixing_from;
        }
        out.push('\n');
    }
    out.push_str(&format!("{:?}\n{:?}\n", pose(s), &*s.log()));
    out
}

fn cmd_set(data: &SkeletonData, track: usize, name: &str, looping: bool) -> Command {
    Command::SetAnimation {
        track,
        animation: data.find_animation(name).expect("animation"),
        looping,
    }
}

/// Issue 14's first repro: `:mix 0.3` and `:set 0 walk loop` on frame 0 while idle plays.
#[test]
fn two_commands_on_frame_zero_replay_as_issued() {
    let data = sample();
    let mut s = Session::new(data.clone(), vec![]).expect("session");
    s.restart_with(vec![cmd_set(&data, 0, "idle", true)])
        .expect("restart");
    s.push(Command::DefaultMix { duration: 0.3 }).expect("mix");
    s.push(cmd_set(&data, 0, "walk", true)).expect("set");
    let mut live = Vec::new();
    for _ in 0..5 {
        s.advance(1);
        live.push(fingerprint(&s));
    }
    assert!(live[4].contains("mt="), "{}", live[4]);
    let st = s.state();
    let walk = st.entry(st.current(0).expect("walk")).expect("entry");
    assert!(walk.mixing_from.is_some(), "idle still mixes out live");
    s.seek_frame(0);
    for (k, l) in live.iter().enumerate() {
        s.advance(1);
        assert_eq!(&fingerprint(&s), l, "frame {}", k + 1);
    }
}

/// Issue 14's second repro: two sets on frame 15 keep the three-entry mixing chain.
#[test]
fn two_sets_on_one_frame_keep_the_mixing_chain_on_replay() {
    let data = sample();
    let mut s = Session::new(data.clone(), vec![]).expect("session");
    s.restart_with(vec![cmd_set(&data, 0, "idle", true)])
        .expect("restart");
    s.push(Command::DefaultMix { duration: 0.3 }).expect("mix");
    s.seek_frame(15);
    s.push(cmd_set(&data, 0, "jump", false)).expect("jump");
    s.push(cmd_set(&data, 0, "walk", true)).expect("walk");
    s.advance(3);
    let live = fingerprint(&s);
    s.seek_frame(0);
    s.seek_frame(18);
    assert_eq!(fingerprint(&s), live);
}

#[test]
fn checkpoints_thin_out_and_stay_exact() {
    let data = sample();
    let mut s = Session::new(data.clone(), vec![]).expect("session");
    // A small budget, so that the checkpoints thin out within a short session.
    s.checkpoints = Checkpoints::with_budget(1 << 20);
    s.restart_with(vec![cmd_set(&data, 0, "walk", true)])
        .expect("restart");
    s.seek_frame(1);
    let most = s.checkpoints.most() as u64;
    assert!(most < checkpoint::MAX_CHECKPOINTS as u64, "{most}");
    let far = checkpoint::FIRST_INTERVAL * (most + 3);
    s.seek_frame(far - 7);
    let at = fingerprint(&s);
    let (n, interval) = s.checkpoint_stats();
    assert!(n as u64 <= most, "{n}");
    assert!(interval > checkpoint::FIRST_INTERVAL, "{interval}");
    s.seek_frame(3);
    s.seek_frame(far - 7);
    assert_eq!(fingerprint(&s), at);
}

/// Issue 28.4: an animation renamed away and back: its commands leave with it and return,
/// at their frames, when it comes back.
#[test]
fn commands_of_a_vanished_animation_come_back_with_it() {
    let data = sample();
    let walk = data.find_animation("walk").expect("walk");
    let mut s = Session::new(data.clone(), vec![]).expect("session");
    s.restart_with(vec![Command::SetAnimation {
        track: 0,
        animation: walk,
        looping: true,
    }])
    .expect("restart");
    s.seek_frame(12);
    let before = pose(&s);
    let mut renamed = (*data).clone();
    renamed.animations[walk].name = "stroll-draft".into();
    let same = |n: &str| n.to_string();
    let away = s
        .reloaded(Arc::new(renamed), &same, "reload")
        .expect("reload");
    assert_eq!(away.lost, ["set track 0: walk (loop)".to_string()]);
    assert!(away.session.state().current(0).is_none());
    let back = away
        .session
        .reloaded(data.clone(), &same, "reload")
        .expect("reload");
    assert!(back.lost.is_empty());
    assert_eq!(back.restored, ["set track 0: walk (loop)".to_string()]);
    assert_eq!(back.session.frame(), 12);
    assert_eq!(
        pose(&back.session),
        before,
        "the same pose as before it left"
    );
    // Parked commands that still have no animation stay parked.
    let mut other = (*data).clone();
    other.animations[walk].name = "gone".into();
    let away = back
        .session
        .reloaded(Arc::new(other.clone()), &same, "r")
        .expect("reload");
    let still = away
        .session
        .reloaded(Arc::new(other), &same, "r")
        .expect("reload");
    assert!(still.restored.is_empty());
    let back = still.session.reloaded(data, &same, "r").expect("reload");
    assert_eq!(back.restored.len(), 1);
}

#[test]
fn sliced_seeks_land_where_whole_ones_do_and_cancel_on_a_whole_frame() {
    let data = sample();
    let walk = data.find_animation("walk").expect("walk");
    let start = vec![Command::SetAnimation {
        track: 0,
        animation: walk,
        looping: true,
    }];
    let mut whole = Session::new(data.clone(), vec![]).expect("session");
    whole.restart_with(start.clone()).expect("restart");
    whole.seek_time(7.31);
    let (want_pose, want_log, want_time) = (pose(&whole), whole.log().to_vec(), whole.time());

    // A zero slice: every call takes exactly one step, the rest stays pending.
    let mut s = Session::new(data.clone(), vec![]).expect("session");
    s.restart_with(start.clone()).expect("restart");
    s.set_slice(Some(std::time::Duration::ZERO));
    s.seek_time(7.31);
    assert_eq!((s.frame(), s.pending()), (1, Some(219)));
    let mut slices = 1;
    while s.resume() {
        slices += 1;
        assert!(s.frame() < 219 && s.pending() == Some(219));
    }
    assert_eq!(
        slices, 218,
        "one step per slice, then the last with the partial step"
    );
    assert_eq!(s.pending(), None);
    assert_eq!((pose(&s), s.time()), (want_pose.clone(), want_time));
    assert_eq!(*s.log(), want_log[..]);

    // Cancelled half-way: a whole frame, the very frame an unsliced seek gives there.
    s.seek_frame(0);
    s.seek_frame(150);
    s.resume();
    s.resume();
    // From the checkpoint at 128: 129, 130, 131.
    assert_eq!((s.frame(), s.pending()), (131, Some(150)));
    s.cancel_pending();
    assert_eq!((s.frame(), s.pending(), s.resume()), (131, None, false));
    let mut three = Session::new(data, vec![]).expect("session");
    three.restart_with(start).expect("restart");
    three.seek_frame(131);
    assert_eq!(pose(&s), pose(&three));
    assert_eq!(*s.log(), three.log()[..]);
    // An input issued now lands on the frame reached, not the one the seek was going to.
    s.seek_frame(140);
    s.add_marker("here");
    assert_eq!(s.pending(), None);
    assert_eq!(s.inputs().last().map(|(f, _)| *f), Some(132));
}

/// The log's budget drops the oldest lines, and only those: at every time a capped session
/// shows the tail of what an uncapped one shows (the same pose), says how many lines it
/// dropped, and keeps no more lines than its budget, through seeks back into the dropped
/// lines, forward again, partial seeks and an input recorded in the dropped stretch.
#[test]
fn the_log_budget_drops_the_oldest_lines_and_time_travel_stays_exact() {
    let data = sample();
    let walk = data.find_animation("walk").expect("walk");
    let wave = data.find_animation("wave").expect("wave");
    let start = vec![Command::SetAnimation {
        track: 0,
        animation: walk,
        looping: true,
    }];
    let mut whole = Session::new(data.clone(), vec![]).expect("session");
    whole.restart_with(start.clone()).expect("restart");
    let mut capped = Session::new(data, vec![]).expect("session");
    const BUDGET: usize = 24;
    *capped.recorder.borrow_mut() = Recorder::with_budget(BUDGET);
    capped.restart_with(start).expect("restart");
    // Whole frames hold the budget; a partial step's own lines may come on top until the
    // next frame ends.
    let same = |whole: &Session, capped: &Session, at: &str| {
        let most = if capped.partial == 0.0 {
            BUDGET
        } else {
            2 * BUDGET
        };
        let all = whole.log();
        let (tail, dropped) = (capped.log(), capped.log_dropped());
        assert_eq!(
            dropped + tail.len(),
            all.len(),
            "{at}: dropped + kept = all"
        );
        assert_eq!(*tail, all[dropped..], "{at}: the kept lines are the newest");
        assert_eq!(pose(capped), pose(whole), "{at}: the pose");
        assert!(
            capped.recorder.borrow().lines_kept() <= most,
            "{at}: over budget"
        );
    };
    let mut dropped_somewhere = false;
    for f in [900, 450, 10, 899, 1800, 0, 1200, 1201, 60] {
        whole.seek_frame(f);
        capped.seek_frame(f);
        same(&whole, &capped, &format!("frame {f}"));
        dropped_somewhere |= capped.log_dropped() > 0;
    }
    assert!(dropped_somewhere, "the budget never dropped a line");
    for t in [17.25, 3.1, 40.5] {
        whole.seek_time(t);
        capped.seek_time(t);
        same(&whole, &capped, &format!("{t} s"));
    }
    // An input recorded far back, in lines the budget dropped: the future is recomputed.
    for s in [&mut whole, &mut capped] {
        s.seek_frame(30);
        s.push(Command::SetAnimation {
            track: 1,
            animation: wave,
            looping: true,
        })
        .expect("push");
    }
    for f in [30, 700, 31, 1500] {
        whole.seek_frame(f);
        capped.seek_frame(f);
        same(&whole, &capped, &format!("after the edit, frame {f}"));
    }
    assert!(capped.log_dropped() > 0, "a long log is capped");
}

/// Stepping back leaves near checkpoints behind: a step back replays at most `NEAR_EVERY`
/// frames but for the first into each interval between regular checkpoints, and each lands
/// on the pose and log a fresh seek to that frame gives.
#[test]
fn steps_back_replay_a_few_frames_and_land_where_a_fresh_seek_does() {
    let data = sample();
    let walk = data.find_animation("walk").expect("walk");
    let wave = data.find_animation("wave").expect("wave");
    let start = vec![Command::SetAnimation {
        track: 0,
        animation: walk,
        looping: true,
    }];
    let mut s = Session::new(data.clone(), vec![]).expect("session");
    s.restart_with(start.clone()).expect("restart");
    s.seek_frame(700);
    s.push(Command::SetAnimation {
        track: 1,
        animation: wave,
        looping: true,
    })
    .expect("push");
    s.seek_frame(1000);
    let mut fresh = Session::new(data, vec![]).expect("session");
    fresh.restart_with(start).expect("restart");
    fresh.seek_frame(700);
    fresh
        .push(Command::SetAnimation {
            track: 1,
            animation: wave,
            looping: true,
        })
        .expect("push");
    let interval = s.checkpoint_stats().1;
    let mut long = Vec::new();
    for k in 1..=80u64 {
        let f = 1000 - k;
        let frames = s.seek_frames(f);
        assert!(frames <= interval, "step back {k} replays {frames} frames");
        if frames > checkpoint::NEAR_EVERY {
            long.push(f);
        }
        s.seek_frame(f);
        // The fresh session comes from frame 0 or its own checkpoints, never near ones.
        fresh.seek_frame(0);
        fresh.seek_frame(f);
        assert_eq!(pose(&s), pose(&fresh), "frame {f}: pose");
        assert_eq!(*s.log(), *fresh.log(), "frame {f}: log");
    }
    // Only the first step back into each interval between regular checkpoints replays from
    // the regular one (the first step, and the one to 959 at 64-frame intervals).
    assert_eq!(interval, 64);
    assert_eq!(long, vec![999, 959]);
    assert!(s.checkpoints.near_len() > 0, "no near checkpoint was left");
    // A far jump back leaves none (it is not a step back).
    let mut far = Session::new(sample(), vec![]).expect("session");
    far.seek_frame(3000);
    far.seek_frame(10);
    assert_eq!(far.checkpoints.near_len(), 0);
}
