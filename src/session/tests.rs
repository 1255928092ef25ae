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
    let (p75, log75) = (pose(&s), s.log().clone());
    s.seek_frame(5);
    assert!(
        s.log().iter().all(|l| l.frame() <= 5),
        "the log is rebuilt up to frame 5"
    );
    s.seek_frame(75);
    assert_eq!(pose(&s), p75);
    assert_eq!(*s.log(), log75);
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
    assert!(s.commands().is_empty());
}
