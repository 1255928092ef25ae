//! The viewer on Spine 4.3 exports: every file of the 4.3 corpus (and the project's
//! lever-43 sample) opens and draws (each animation, at 80x24, 120x40 and 200x60, the bone
//! tree fully expanded), and snapshots of what 4.3 adds: a slider-driven bone's pose beside
//! its applied pose (diamond-pro's `rotation` slider, driven by a bone, turns
//! `middle-rotation`; lever-43's `lever-slider` scales `gauge`), the slider and transform
//! constraint rows with their live values, and slider timelines in the dopesheet and the
//! curves panel.

use crate::common;

use common::viewer::{open_file as open, panel_text};

use bonescope::tui::app::App;
use bonescope::tui::offscreen::{PanelScene, buffer_text, render_app, render_panel};
use bonescope::tui::views::bones::BonesView;
use bonescope::tui::views::curves::CurvesView;
use bonescope::tui::views::tracks::TracksView;
use bonescope::tui::views::{Panel, PanelAction, PanelId};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::PathBuf;

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn lever_path() -> PathBuf {
    common::project_dir().join("samples/spine/lever-43.json")
}

/// The JSON exports of the 4.3 corpus, sorted.
fn corpus43() -> Option<Vec<PathBuf>> {
    common::viewer::spine_json_exports("spine 4.3 corpus", "4.3")
}

/// The Bones panel with every bone expanded and `bone` selected.
fn expanded_bones(app: &mut App, bone: &str) -> BonesView {
    let mut view = BonesView::default();
    render_panel(&mut view, &PanelScene::of(app), 80, 24);
    let action = view.handle_key(key('*'), &app.ctx(PanelId::Bones));
    assert_eq!(action, PanelAction::Handled);
    app.selection.bone = Some(app.doc.data.find_bone(bone).expect(bone));
    view
}

fn render(view: &mut BonesView, app: &App, w: u16, h: u16) -> String {
    panel_text(view, app, w, h)
}

/// The row after the one naming `bone` (its applied-pose row, when it has one).
fn row_after<'a>(text: &'a str, bone: &str) -> &'a str {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.contains(&format!("▾ {bone} ")) || l.contains(&format!("  {bone} ")))
        .unwrap_or_else(|| panic!("a row for {bone}:\n{text}"));
    lines.get(i + 1).copied().unwrap_or("")
}

#[test]
fn every_43_export_opens_and_draws() {
    let Some(mut files) = corpus43() else {
        return;
    };
    files.push(lever_path());
    let mut drawn = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let mut app = open(&path, 0.5);
        assert_eq!(app.doc.data.rules.label(), "Spine 4.3", "{name}");
        let screen = buffer_text(&render_app(&mut app, 200, 60));
        assert!(screen.contains("Spine 4.3"), "{name}: status names 4.3");
        buffer_text(&render_app(&mut app, 80, 24));
        for i in 0..app.doc.data.animations.len() {
            app.play_animation(i);
            app.session.seek_time(0.75);
            let screen = buffer_text(&render_app(&mut app, 120, 40));
            assert!(screen.contains("Tracks"), "{name}: animation {i} draws");
            // The whole tree (applied and constraint rows included) at both sizes.
            let root = app.doc.data.bones[0].name.clone();
            let mut view = expanded_bones(&mut app, &root);
            for (w, h) in [(44, 22), (200, 60)] {
                let text = render(&mut view, &app, w, h);
                assert!(text.contains("Bones"), "{name}: animation {i}");
            }
        }
        // Every constraint has a row under some bone: expand all on the last animation.
        let constraints = app.doc.data.constraint_order.len();
        let root = app.doc.data.bones[0].name.clone();
        let mut view = expanded_bones(&mut app, &root);
        let text = render(&mut view, &app, 200, 400);
        let rows = text
            .lines()
            .filter(|l| l.contains("◇ ") || l.contains("≈ "))
            .count();
        assert_eq!(rows, constraints, "{name}: a row per constraint\n{text}");
        drawn.push(name);
    }
    assert_eq!(drawn.len(), 8, "seven corpus files and lever-43: {drawn:?}");
}

/// diamond-pro playing `idle-rotating` (which turns the slider's driving bone) at `time`.
fn diamond(time: f64) -> Option<App> {
    let p = common::shared_file("diamond-pro 4.3", "corpus/spine/4.3/diamond-pro.json")?;
    let mut app = open(&p, 0.0);
    let a = app
        .doc
        .data
        .find_animation("idle-rotating")
        .expect("idle-rotating");
    app.play_animation(a);
    app.session.seek_time(time);
    Some(app)
}

#[test]
fn diamond_slider_bone_shows_pose_and_applied_pose() {
    let Some(mut app) = diamond(0.5) else {
        return;
    };
    // The runtime: the control bone turned 90 degrees, so the slider plays its animation at
    // 0.5 s, which turns middle-rotation's applied pose; its pose stays as set up.
    let b = app.doc.data.find_bone("middle-rotation").expect("bone");
    let sk = app.session.skeleton();
    assert_eq!(sk.bones[b].pose.rotation, 0.0);
    let applied = sk.applied_pose(b).rotation;
    assert!((applied - 90.0).abs() < 1e-3, "applied {applied}");
    assert!((sk.sliders[0].applied_time - 2.5).abs() < 1e-4);

    let mut view = expanded_bones(&mut app, "middle-rotation");
    let small = render(&mut view, &app, 80, 24);
    let row = row_after(&small, "middle-rotation");
    assert!(row.contains("→ applied") && row.contains("90.0"), "{small}");
    insta::assert_snapshot!("diamond_applied_80x24", small);

    let wide = render(&mut view, &app, 160, 48);
    assert!(wide.contains("◇ rotation"), "{wide}");
    assert!(
        wide.contains("slider t 0.500 mix 1.00 ← diamond-rotation-control.rotate local"),
        "{wide}"
    );
    insta::assert_snapshot!("diamond_applied_160x48", wide);

    // At the start of the loop the slider is at 0: pose and applied agree, no applied row.
    app.session.seek_time(0.0);
    let start = render(&mut view, &app, 160, 48);
    assert!(!row_after(&start, "middle-rotation").contains("→ applied"));
    assert!(start.contains("slider t 0.000 mix 1.00"), "{start}");
}

/// lever-43 playing `pull` at 0.6 s: the lever has turned, its slider scales the gauge.
fn lever() -> App {
    let mut app = open(&lever_path(), 0.0);
    let a = app.doc.data.find_animation("pull").expect("pull");
    app.play_animation(a);
    app.session.seek_time(0.6);
    app
}

#[test]
fn lever_slider_and_transform_rows() {
    let mut app = lever();
    let mut view = expanded_bones(&mut app, "gauge");
    let small = render(&mut view, &app, 80, 24);
    assert!(row_after(&small, "gauge").contains("→ applied"), "{small}");
    insta::assert_snapshot!("lever_80x24", small);
    let wide = render(&mut view, &app, 160, 48);
    for needle in [
        "◇ lever-slider",
        "← lever.rotate local ▸ gauge-sweep",
        "◇ timed",
        "▸ flag-wave 1.000s additive",
        "◇ lever-to-gauge",
        "map rotate→rotate,scaleX",
        "≈ spring",
    ] {
        assert!(wide.contains(needle), "{needle}\n{wide}");
    }
    insta::assert_snapshot!("lever_160x48", wide);
}

#[test]
fn slider_timelines_in_dopesheet_and_curves() {
    let mut app = lever();
    let t = app
        .timelines
        .iter()
        .position(|t| t.label() == "slider timed.time")
        .expect("a slider time timeline");
    app.selection.timeline = Some(t);
    let tracks = panel_text(&mut TracksView::default(), &app, 80, 12);
    assert!(
        tracks.contains("slider timed.time") && tracks.contains("slider timed.mix"),
        "{tracks}"
    );
    insta::assert_snapshot!("lever_pull_dopesheet_80x12", tracks);
    let curves = panel_text(&mut CurvesView::default(), &app, 80, 14);
    assert!(curves.contains("slider timed.time"), "{curves}");
    insta::assert_snapshot!("lever_pull_slider_time_curve_80x14", curves);
    // The whole viewer at 80x24 with the Bones panel focused draws the slider rows.
    app.handle_key(key('B'));
    let screen = buffer_text(&render_app(&mut app, 80, 24));
    assert!(screen.contains("Bones"), "{screen}");
}
