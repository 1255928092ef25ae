//! The viewer on Spine 4.0, 4.1 and 4.2 exports: every JSON file of the reference corpus opens
//! and draws (each animation, keys that change the physics mode), and snapshots of a 4.2
//! physics skeleton (celestial-circus-pro): the bone tree with its physics rows and the
//! status line naming the runtime rules and the physics mode.

use crate::common;

use common::viewer::{open_file as open, panel_text};

use bonescope::core::skeleton::Physics;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{buffer_text, render_app};
use bonescope::tui::views::bones::BonesView;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::PathBuf;

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

/// The JSON exports of one corpus version, sorted.
fn corpus(version: &str) -> Option<Vec<PathBuf>> {
    common::viewer::spine_json_exports("spine 4.x corpus", version)
}

fn celestial(time: f64) -> Option<App> {
    let p = common::shared_file(
        "celestial-circus-pro",
        "corpus/spine/4.2/celestial-circus-pro.json",
    )?;
    Some(open(&p, time))
}

#[test]
fn every_4x_json_export_opens_and_draws() {
    let mut summary = Vec::new();
    for version in ["4.0", "4.1", "4.2"] {
        let Some(files) = corpus(version) else {
            return;
        };
        for path in files {
            let mut app = open(&path, 0.5);
            let label = format!("Spine {version}");
            let name = path.display().to_string();
            assert_eq!(app.doc.data.rules.label(), label, "{name}");
            let screen = buffer_text(&render_app(&mut app, 200, 60));
            assert!(screen.contains(&label), "{name}: status names {label}");
            buffer_text(&render_app(&mut app, 80, 24));
            for i in 0..app.doc.data.animations.len() {
                app.play_animation(i);
                app.session.seek_time(0.75);
                let screen = buffer_text(&render_app(&mut app, 120, 40));
                assert!(screen.contains("Tracks"), "{name}: animation {i} draws");
            }
            // The physics keys on any version: a mode change where there are constraints.
            let physics = !app.doc.data.physics_constraints.is_empty();
            app.handle_key(key('p'));
            app.handle_key(key('R'));
            let mode = if physics {
                Physics::Pose
            } else {
                Physics::Update
            };
            assert_eq!(app.session.physics(), mode, "{name}");
            buffer_text(&render_app(&mut app, 80, 24));
            summary.push(name);
        }
    }
    println!("{} exports drawn", summary.len());
    assert!(
        summary.len() >= 60,
        "the three corpus versions: {summary:?}"
    );
}

#[test]
fn celestial_bone_tree_shows_physics_rows() {
    let Some(mut app) = celestial(0.0) else {
        return;
    };
    let swing = app.doc.data.find_animation("swing").expect("swing");
    app.play_animation(swing);
    app.session.seek_time(1.0);
    app.selection.bone = app.doc.data.find_bone("swing-bottom");
    let mut view = BonesView::default();
    let text = panel_text(&mut view, &app, 120, 30);
    assert!(text.contains("≈ swing-top"), "{text}");
    // The simulation moved: the row shows non-zero offsets after a second of swinging.
    let c = app
        .doc
        .data
        .physics_constraints
        .iter()
        .position(|p| p.name == "swing-top");
    let live = &app.session.skeleton().physics[c.expect("constraint")];
    assert!(live.rotate_offset != 0.0 || live.x_offset != 0.0);
    insta::assert_snapshot!(text);
}

#[test]
fn celestial_status_names_rules_and_physics_mode() {
    let Some(mut app) = celestial(0.5) else {
        return;
    };
    let wide = bonescope::tui::views::status::text(&app, 200, 0);
    assert!(wide.contains("Spine 4.2") && wide.contains("physics update"));
    app.handle_key(key('p'));
    let pose = bonescope::tui::views::status::text(&app, 200, 0);
    app.handle_key(key('p'));
    let none = bonescope::tui::views::status::text(&app, 80, 0);
    app.handle_key(key('p'));
    assert_eq!(
        app.session.physics(),
        Physics::Update,
        "the cycle comes back"
    );
    insta::assert_snapshot!(format!("{wide}\n{pose}\n{none}"));
}

/// Opens a 4.x corpus file playing `animation` and selects its first timeline whose
/// property is `property`.
fn with_timeline(rel: &str, animation: &str, property: &str, time: f64) -> Option<App> {
    let p = common::shared_file("4.x discrete timelines", rel)?;
    let mut app = open(&p, 0.0);
    let a = app.doc.data.find_animation(animation).expect(animation);
    app.play_animation(a);
    app.session.seek_time(time);
    let t = app.timelines.iter().position(|t| t.property == property);
    app.selection.timeline = Some(t.unwrap_or_else(|| panic!("{animation}: a {property} key")));
    Some(app)
}

/// Sequence keys (Spine 4.1+) and physics resets (4.2) have no plottable channel: the curves
/// panel lists their keys (mode, image, delay; "reset"), the dopesheet marks them.
#[test]
fn discrete_4x_timelines_list_their_keys() {
    use bonescope::tui::views::curves::CurvesView;
    use bonescope::tui::views::tracks::TracksView;
    let Some(seq) = with_timeline(
        "corpus/spine/4.2/dragon-ess.json",
        "flying",
        "sequence",
        0.2,
    ) else {
        return;
    };
    let curves = panel_text(&mut CurvesView::default(), &seq, 100, 12);
    assert!(curves.contains("from image"), "{curves}");
    insta::assert_snapshot!("dragon_sequence_keys", curves);
    let tracks = panel_text(&mut TracksView::default(), &seq, 100, 30);
    assert!(tracks.contains("sequence"), "{tracks}");
    let Some(reset) = with_timeline("corpus/spine/4.2/cloud-pot.json", "rain", "reset", 0.2) else {
        return;
    };
    let curves = panel_text(&mut CurvesView::default(), &reset, 100, 12);
    assert!(curves.contains("reset"), "{curves}");
    insta::assert_snapshot!("cloud_pot_physics_reset_keys", curves);
}
