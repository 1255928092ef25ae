//! Hot reload with a real watcher on a temp dir: rewrites of every kind, in a tight loop; the
//! watcher keeps up and the last model equals the last file.

use crate::common;

use bonescope::watch::{ReloadEvent, Reloader, WatchOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn sample() -> String {
    std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine/lantern-keeper.json"),
    )
    .expect("sample")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bonescope-watch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A variant of the sample whose "walk" animation has `n` as one key value.
fn variant(base: &str, n: usize) -> String {
    base.replacen("\"fps\": 30", &format!("\"fps\": {}", 30 + (n % 50)), 1)
}

/// Waits for a Loaded event whose model equals `expected`; fails after `limit`.
fn wait_for_model(
    r: &Reloader,
    expected: &bonescope::core::model::SkeletonData,
    limit: Duration,
) -> usize {
    let start = Instant::now();
    let mut events = 0;
    while start.elapsed() < limit {
        match r.events().recv_timeout(Duration::from_millis(200)) {
            Ok(ReloadEvent::Loaded { data, .. }) => {
                events += 1;
                if *data == *expected {
                    return events;
                }
            }
            Ok(_) => events += 1,
            Err(_) => {}
        }
    }
    panic!("the watcher never delivered the final model ({events} events)");
}

fn write_atomic(path: &Path, text: &str, k: usize) {
    let tmp = path.with_file_name(format!(".{k}.tmp"));
    std::fs::write(&tmp, text).expect("write tmp");
    std::fs::rename(&tmp, path).expect("rename");
}

fn stress(poll: Option<Duration>, name: &str) {
    let dir = temp_dir(name);
    let path = dir.join("model.json");
    let base = sample();
    std::fs::write(&path, &base).expect("write");
    let first = Arc::new(bonescope::format::load(base.as_bytes(), "model").expect("loads"));
    let r = Reloader::start(
        &path,
        first,
        WatchOptions {
            poll,
            ..WatchOptions::default()
        },
    )
    .expect("watch");
    let start = Instant::now();
    for k in 0..1000 {
        let text = variant(&base, k);
        match k % 5 {
            0 => write_atomic(&path, &text, k),
            1 => std::fs::write(&path, &text[..text.len() / 3]).expect("half write"),
            2 => {
                let _ = std::fs::remove_file(&path);
            }
            3 => std::fs::write(&path, &text).expect("recreate"),
            _ => {
                // Truncate, then write in two chunks.
                std::fs::write(&path, "").expect("truncate");
                std::fs::write(&path, &text).expect("write");
            }
        }
    }
    let last = variant(&base, 7777);
    write_atomic(&path, &last, 9999);
    let expected = bonescope::format::load(last.as_bytes(), "model").expect("final loads");
    let events = wait_for_model(&r, &expected, Duration::from_secs(20));
    println!(
        "{name}: 1000 rewrites in {:?}, final model after {events} events",
        start.elapsed()
    );
    assert!(start.elapsed() < Duration::from_secs(40));
    // Nothing was written by the watcher: the directory holds only our file.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    assert_eq!(names, vec!["model.json".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn thousand_rewrites_with_events() {
    stress(None, "events");
}

#[test]
fn thousand_rewrites_with_polling() {
    stress(Some(Duration::from_millis(50)), "poll");
}

#[test]
fn broken_write_reports_location_then_recovers() {
    let dir = temp_dir("broken");
    let path = dir.join("model.json");
    let base = sample();
    std::fs::write(&path, &base).expect("write");
    let first = Arc::new(bonescope::format::load(base.as_bytes(), "model").expect("loads"));
    let r = Reloader::start(&path, first, WatchOptions::default()).expect("watch");
    std::fs::write(
        &path,
        "{\n  \"skeleton\": {\"spine\": \"3.8.99\"},\n  \"bones\": [ {\"name\": 5} ]\n}",
    )
    .expect("write");
    let start = Instant::now();
    let error = loop {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no error reported"
        );
        if let Ok(ReloadEvent::Failed { error }) =
            r.events().recv_timeout(Duration::from_millis(200))
        {
            break error;
        }
    };
    let text = error.to_string();
    assert!(text.contains("line 3"), "{text}");
    let fixed = variant(&base, 3);
    std::fs::write(&path, &fixed).expect("fix");
    let expected = bonescope::format::load(fixed.as_bytes(), "model").expect("loads");
    wait_for_model(&r, &expected, Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file with several skeletons (DragonBones armatures): reloads follow the armature the user
/// switched to, and describe changes against it.
#[test]
fn reloads_follow_the_selected_armature() {
    let dir = temp_dir("armature");
    let path = dir.join("crane.json");
    let base = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/dragonbones/paper-crane.json"),
    )
    .expect("sample");
    std::fs::write(&path, &base).expect("write");
    let all = bonescope::format::load_all(base.as_bytes(), "crane").expect("loads");
    let first = Arc::new(all[0].clone());
    let lantern = Arc::new(all[1].clone());
    assert_eq!(lantern.name, "Lantern");
    let r = Reloader::start(&path, first, WatchOptions::default()).expect("watch");
    r.selector().select(lantern);
    // Rename the lantern's "cord" bone: the reload is that armature, and says what changed.
    let edited = base.replace("\"cord\"", "\"rope\"");
    assert_ne!(edited, base);
    std::fs::write(&path, &edited).expect("rewrite");
    let start = Instant::now();
    loop {
        assert!(start.elapsed() < Duration::from_secs(10), "no reload");
        if let Ok(ReloadEvent::Loaded {
            data,
            armatures,
            diff,
            ..
        }) = r.events().recv_timeout(Duration::from_millis(200))
        {
            assert_eq!(data.name, "Lantern");
            assert_eq!(armatures.len(), 2);
            assert!(data.find_bone("rope").is_some());
            let summary = diff.summary();
            assert!(summary.contains("bone"), "{summary}");
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A re-export that changes the Spine version (3.8 -> 4.2 of the same rig) keeps the user's
/// place: frame, animation, the commands they typed, the selected bone; the status line then
/// names the new runtime rules.
#[test]
fn reexport_from_38_to_42_keeps_the_place() {
    use bonescope::tui::app::App;
    use bonescope::tui::theme::{ColorMode, Theme};
    use bonescope::tui::views::MarkerKind;
    let (Some(old), Some(new)) = (
        common::shared_file("3.8 -> 4.2 reload", "corpus/spine/3.8/spineboy-pro.json"),
        common::shared_file("3.8 -> 4.2 reload", "corpus/spine/4.2/spineboy-pro.json"),
    ) else {
        return;
    };
    let dir = temp_dir("reexport");
    let path = dir.join("spineboy-pro.json");
    std::fs::copy(&old, &path).expect("copy 3.8");
    let bytes = std::fs::read(&path).expect("read");
    let first = Arc::new(bonescope::format::load(&bytes, "spineboy-pro").expect("3.8 loads"));
    assert_eq!(first.rules.label(), "Spine 3.8");
    let mut app = App::open(
        "spineboy-pro.json".into(),
        vec![first.clone()],
        Theme::new(ColorMode::None),
        MarkerKind::Ascii,
    )
    .expect("app");
    let run = first.find_animation("run").expect("run");
    app.play_animation(run);
    app.run_line("queue 1 aim loop").expect("queue");
    app.run_line("frame 37").expect("seek");
    app.selection.bone = first.find_bone("front-foot");
    let r = Reloader::start(&path, first, WatchOptions::default()).expect("watch");
    std::fs::write(&path, std::fs::read(&new).expect("4.2 export")).expect("overwrite");
    let start = Instant::now();
    let (data, diff) = loop {
        assert!(start.elapsed() < Duration::from_secs(10), "no reload");
        if let Ok(ReloadEvent::Loaded { data, diff, .. }) =
            r.events().recv_timeout(Duration::from_millis(200))
        {
            break (data, diff);
        }
    };
    assert_eq!(data.rules.label(), "Spine 4.2");
    app.reload(data.clone(), &diff);
    assert!(app.banner.is_none(), "{:?}", app.banner);
    assert_eq!(app.session.frame(), 37);
    assert_eq!(app.selection.animation, data.find_animation("run"));
    assert_eq!(app.selection.bone, data.find_bone("front-foot"));
    let st = app.session.state();
    let track1 = st.current(1).and_then(|id| st.entry(id)).expect("track 1");
    assert_eq!(track1.animation, data.find_animation("aim"));
    let status = bonescope::tui::views::status::text(&app, 200, 0);
    assert!(status.contains("Spine 4.2"), "{status}");
    let note = app
        .message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default();
    assert!(note.starts_with("reloaded"), "{note}");
    assert!(!note.contains("no longer there"), "{note}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A DragonBones 5.5 export edited while the viewer shows it: the watcher reloads it, the
/// viewer keeps its place (animation, frame, selected bone) and shows the edited setup.
#[test]
fn dragonbones_55_edit_reloads_in_place() {
    use bonescope::tui::app::App;
    use bonescope::tui::theme::{ColorMode, Theme};
    use bonescope::tui::views::MarkerKind;
    let Some(src) = common::shared_file(
        "DragonBones 5.5 reload",
        "corpus/dragonbones/5.x/5.5/starter_ske.json",
    ) else {
        return;
    };
    let dir = temp_dir("db55");
    let path = dir.join("starter_ske.json");
    std::fs::copy(&src, &path).expect("copy 5.5");
    let bytes = std::fs::read(&path).expect("read");
    let all = bonescope::format::load_all(&bytes, "starter_ske").expect("5.5 loads");
    let first = Arc::new(all[0].clone());
    let mut app = App::open(
        "starter_ske.json".into(),
        all.into_iter().map(Arc::new).collect(),
        Theme::new(ColorMode::None),
        MarkerKind::Ascii,
    )
    .expect("app");
    let throw = first.find_animation("throw").expect("throw");
    app.play_animation(throw);
    app.run_line("frame 20").expect("seek");
    let ball = first.find_bone("ball").expect("ball");
    app.selection.bone = Some(ball);
    let old_x = first.bones[ball].x;
    let r = Reloader::start(&path, first, WatchOptions::default()).expect("watch");
    let mut doc: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
    let bones = doc["armature"][0]["bone"].as_array_mut().expect("bones");
    let b = bones
        .iter_mut()
        .find(|b| b["name"] == "ball")
        .expect("ball in the file");
    b["transform"]["x"] = serde_json::json!(-10.5);
    std::fs::write(&path, doc.to_string()).expect("rewrite");
    let start = Instant::now();
    let (data, diff) = loop {
        assert!(start.elapsed() < Duration::from_secs(10), "no reload");
        if let Ok(ReloadEvent::Loaded { data, diff, .. }) =
            r.events().recv_timeout(Duration::from_millis(200))
        {
            break (data, diff);
        }
    };
    assert_eq!(data.bones[ball].x, -10.5);
    assert_ne!(old_x, -10.5);
    assert!(diff.summary().contains("ball"), "{}", diff.summary());
    app.reload(data.clone(), &diff);
    assert!(app.banner.is_none(), "{:?}", app.banner);
    assert_eq!(app.session.frame(), 20);
    assert_eq!(app.selection.animation, data.find_animation("throw"));
    assert_eq!(app.selection.bone, Some(ball));
    let note = app
        .message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default();
    assert!(note.starts_with("reloaded"), "{note}");
    let _ = std::fs::remove_dir_all(&dir);
}
