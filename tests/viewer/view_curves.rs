//! The Curves panel: plots (bezier, stepped), key lists, the evaluated overlay, keys, exact
//! sampling, tiny areas and hostile names.

use bonescope::core::animation::{BoneProperty, Timeline};
use bonescope::core::curve::Interp;
use bonescope::inspect::Target;
use bonescope::inspect::{Curve, sample_channel};
use bonescope::session::Command;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{
    PanelScene, buffer_text, file_app, render_panel, sample_app, send_key,
};
use bonescope::tui::views::curves::{CurvesView, OVERLAY_NAME, sample_times};
use bonescope::tui::views::{MarkerKind, PanelAction};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn scene(app: &App) -> PanelScene<'_> {
    PanelScene::of(app)
}

fn render(view: &mut CurvesView, app: &App, w: u16, h: u16) -> Buffer {
    render_panel(view, &scene(app), w, h)
}

fn press(view: &mut CurvesView, app: &App, code: KeyCode) -> PanelAction {
    send_key(view, app, KeyEvent::new(code, KeyModifiers::NONE))
}

/// `animation` at `time` with the timeline labelled `label` selected.
fn app_with(animation: &str, time: f64, label: &str) -> App {
    let mut app = sample_app(animation, time);
    let t = app
        .timelines
        .iter()
        .position(|t| t.label() == label)
        .unwrap_or_else(|| panic!("no timeline {label}"));
    app.selection.timeline = Some(t);
    app
}

fn snap(name: &str, app: &App, w: u16, h: u16) -> String {
    let text = buffer_text(&render(&mut CurvesView::default(), app, w, h));
    insta::assert_snapshot!(name, text);
    text
}

#[test]
fn snapshot_bezier_rotate() {
    // forearm-l in wave: linear and bezier (0.25, 0, 0.75, 1) segments.
    let app = app_with("wave", 0.4, "bone forearm-l.rotate");
    let text = snap("curves_wave_forearm_80x24", &app, 80, 24);
    assert!(text.contains("Curves bone forearm-l.rotate"), "{text}");
    assert!(text.contains("angle"), "{text}");
    snap("curves_wave_forearm_160x48", &app, 160, 48);
}

#[test]
fn snapshot_stepped() {
    // head in walk: stepped keys 0 → -5 → 0.
    let app = app_with("walk", 0.5, "bone head.rotate");
    snap("curves_walk_head_stepped_80x24", &app, 80, 24);
    snap("curves_walk_head_stepped_160x48", &app, 160, 48);
}

#[test]
fn snapshot_color_channels() {
    let app = app_with("wave", 0.8, "slot lantern-body.twoColor");
    snap("curves_wave_twocolor_80x24", &app, 80, 24);
}

#[test]
fn snapshot_attachment_key_list() {
    // walk's first timeline: face attachment, at 0.4 the blink (0.35) is the current key.
    let app = app_with("walk", 0.4, "slot face.attachment");
    assert_eq!(app.selection.timeline, Some(0));
    let text = snap("curves_walk_face_attachment_80x24", &app, 80, 24);
    assert!(text.contains("▶   0.350  face-blink"), "{text}");
    snap("curves_walk_face_attachment_160x48", &app, 160, 48);
}

#[test]
fn snapshot_events_and_draw_order_key_lists() {
    let app = app_with("jump", 0.6, "events");
    let text = snap("curves_jump_events_80x24", &app, 80, 24);
    assert!(text.contains("footstep int=4 float=1 \"push\""), "{text}");
    let app = app_with("jump", 0.6, "draw order");
    let text = snap("curves_jump_draw_order_80x24", &app, 80, 24);
    assert!(text.contains("draw order changed"), "{text}");
    assert!(text.contains("setup order"), "{text}");
    let app = app_with("wave", 0.6, "slot cloak.deform");
    let text = snap("curves_wave_deform_80x24", &app, 80, 24);
    assert!(text.contains("vertices moved"), "{text}");
}

/// walk mixing into wave (default mix 0.4): upper-arm-l's evaluated rotation departs from
/// wave's curve while the mix runs. Every frame is rendered so the overlay has a history.
fn overlay_app(view: &mut CurvesView, w: u16, h: u16) -> App {
    let mut app = sample_app("walk", 0.3);
    let wave = app.doc.data.find_animation("wave").unwrap();
    app.session
        .push(Command::DefaultMix { duration: 0.4 })
        .unwrap();
    app.session
        .push(Command::SetAnimation {
            track: 0,
            animation: wave,
            looping: true,
        })
        .unwrap();
    app.select_animation(Some(wave));
    let t = app
        .timelines
        .iter()
        .position(|t| t.label() == "bone upper-arm-l.rotate")
        .unwrap();
    app.selection.timeline = Some(t);
    assert!(matches!(
        press(view, &app, KeyCode::Char('v')),
        PanelAction::Message(m) if m.contains("on")
    ));
    for _ in 0..30 {
        render(view, &app, w, h);
        app.session.advance(1);
    }
    app
}

#[test]
fn snapshot_overlay() {
    let mut view = CurvesView::default();
    let app = overlay_app(&mut view, 80, 24);
    assert!(view.overlay());
    assert!(view.history_len() >= 30, "{}", view.history_len());
    let text = buffer_text(&render(&mut view, &app, 80, 24));
    assert!(text.contains(OVERLAY_NAME), "{text}");
    assert!(text.contains("after mixing"), "{text}");
    insta::assert_snapshot!("curves_overlay_mixing_80x24", text);
    let mut view = CurvesView::default();
    let app = overlay_app(&mut view, 160, 48);
    let text = buffer_text(&render(&mut view, &app, 160, 48));
    insta::assert_snapshot!("curves_overlay_mixing_160x48", text);
}

#[test]
fn overlay_follows_the_curve_without_mixing_and_departs_while_mixing() {
    // Alone on its track, torso's evaluated rotation is the keyed value.
    let mut app = app_with("wave", 0.0, "bone torso.rotate");
    let mut view = CurvesView::default();
    for _ in 0..40 {
        render(&mut view, &app, 80, 24);
        app.session.advance(1);
    }
    let anim = &app.doc.data.animations[app.selection.animation.unwrap()];
    let tl = &anim.timelines[app.timelines[app.selection.timeline.unwrap()].index];
    let hist = view.history(0);
    assert!(hist.len() >= 40, "{}", hist.len());
    let curve = Curve::new(tl).unwrap();
    for (t, v) in &hist {
        let keyed = curve.value(0, *t).unwrap();
        assert!(
            (keyed - v).abs() < 1e-6,
            "t {t}: keyed {keyed} evaluated {v}"
        );
    }
    // Mixing from walk: the first frames differ from wave's curve.
    let mut view = CurvesView::default();
    let app = overlay_app(&mut view, 80, 24);
    let anim = &app.doc.data.animations[app.selection.animation.unwrap()];
    let tl = &anim.timelines[app.timelines[app.selection.timeline.unwrap()].index];
    let curve = Curve::new(tl).unwrap();
    let differs = view
        .history(0)
        .iter()
        .any(|(t, v)| (curve.value(0, *t).unwrap() - v).abs() > 1.0);
    assert!(differs, "the mix shows in the overlay");
}

#[test]
fn overlay_history_is_cleared_when_the_timeline_changes() {
    let mut view = CurvesView::default();
    let mut app = overlay_app(&mut view, 80, 24);
    assert!(view.history_len() > 0);
    let next = app.selection.timeline.unwrap() + 1;
    app.selection.timeline = Some(next);
    render(&mut view, &app, 80, 24);
    assert!(view.history_len() <= 1, "{}", view.history_len());
}

#[test]
fn v_on_a_non_bone_timeline_explains() {
    let app = app_with("walk", 0.4, "slot face.attachment");
    let mut view = CurvesView::default();
    match press(&mut view, &app, KeyCode::Char('v')) {
        PanelAction::Message(m) => assert!(m.contains("bone"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(!view.overlay());
    let app = app_with("walk", 0.4, "bone head.rotate");
    assert!(matches!(
        press(&mut view, &app, KeyCode::Char('v')),
        PanelAction::Message(_)
    ));
    assert!(view.overlay());
    assert!(matches!(
        press(&mut view, &app, KeyCode::Char('v')),
        PanelAction::Message(_)
    ));
    assert!(!view.overlay());
}

#[test]
fn up_down_select_timelines_and_global_keys_pass() {
    let mut app = sample_app("walk", 0.4);
    let n = app.timelines.len();
    let mut view = CurvesView::default();
    app.selection.timeline = Some(3);
    assert_eq!(
        press(&mut view, &app, KeyCode::Down),
        PanelAction::SelectTimeline(4)
    );
    assert_eq!(
        press(&mut view, &app, KeyCode::Up),
        PanelAction::SelectTimeline(2)
    );
    app.selection.timeline = Some(0);
    assert_eq!(
        press(&mut view, &app, KeyCode::Up),
        PanelAction::SelectTimeline(0)
    );
    app.selection.timeline = Some(n - 1);
    assert_eq!(
        press(&mut view, &app, KeyCode::Down),
        PanelAction::SelectTimeline(n - 1)
    );
    for code in [
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Char(' '),
        KeyCode::Char('['),
        KeyCode::Char(']'),
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Tab,
        KeyCode::Char('q'),
        KeyCode::Char('M'),
        KeyCode::Enter,
    ] {
        assert_eq!(
            press(&mut view, &app, code),
            PanelAction::Ignored,
            "{code:?}"
        );
    }
}

#[test]
fn samples_hit_key_values_exactly_and_steps_are_steps() {
    let app = sample_app("walk", 0.0);
    let data = app.doc.data.clone();
    let mut checked = 0;
    let mut turned = 0;
    for anim in &data.animations {
        for tl in &anim.timelines {
            let Some(curve) = Curve::new(tl) else {
                continue;
            };
            let keys = curve.keys().expect("spine timelines share keys");
            let times = sample_times(keys.times(), anim.duration, 200);
            assert!(times.windows(2).all(|w| w[0] < w[1]), "sorted, unique");
            let rotate = matches!(tl, Timeline::Bone(b) if b.property == BoneProperty::Rotate);
            for c in 0..keys.channels() {
                let pts = sample_channel(tl, c, &times);
                for k in 0..keys.len() {
                    let t = keys.time(k);
                    // Keys at equal times resolve to the last of them.
                    if k + 1 < keys.len() && keys.time(k + 1) == t {
                        continue;
                    }
                    let p = pts.iter().find(|p| p.0 == t).expect("key time sampled");
                    let stored = keys.value(k, c);
                    if rotate {
                        // Rotations: the stored angle plus whole turns (the runtime turns the
                        // shortest way between keys).
                        assert_eq!(p.1, curve.key_value(k, c));
                        let turns = (p.1 - stored) / 360.0;
                        assert!(
                            (turns - turns.round()).abs() < 1e-9,
                            "{} key {k}",
                            anim.name
                        );
                        if turns.round() != 0.0 {
                            turned += 1;
                        }
                    } else {
                        assert_eq!(p.1, stored, "{} key {k} channel {c}", anim.name);
                    }
                    checked += 1;
                    // Before a key that ends a stepped span: still the previous key's value.
                    if k > 0 && keys.interp(k - 1) == Interp::Stepped && keys.time(k - 1) < t {
                        let before = pts.iter().rev().find(|p| p.0 < t).unwrap();
                        assert_eq!(before.1, curve.key_value(k - 1, c), "hold before key {k}");
                        assert!(t - before.0 < 1e-5, "sampled just before the key");
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
    assert!(turned > 0, "wave's upper-arm-l turns past ±180°");
    // Dense: at least 2 samples per braille dot of a 160-cell plot.
    assert!(sample_times(&[], 1.0, 160 * 4).len() >= 160 * 2 * 2);
}

#[test]
fn rotations_turn_the_short_way_like_the_runtime() {
    // upper-arm-l in wave: 165 → -160 turns +35°, not -325°. Render every frame of wave
    // playing alone: the evaluated rotation is the plotted curve (nearest turn) everywhere.
    let mut app = app_with("wave", 0.0, "bone upper-arm-l.rotate");
    let mut view = CurvesView::default();
    for _ in 0..46 {
        render(&mut view, &app, 80, 24);
        app.session.advance(1);
    }
    let anim = &app.doc.data.animations[app.selection.animation.unwrap()];
    let tl = &anim.timelines[app.timelines[app.selection.timeline.unwrap()].index];
    let curve = Curve::new(tl).unwrap();
    let hist = view.history(0);
    assert!(hist.len() >= 45, "{}", hist.len());
    for (t, v) in hist {
        let plotted = curve.value(0, t).unwrap();
        assert!(
            (plotted - v).abs() < 1e-6,
            "t {t}: plotted {plotted}, evaluated {v}"
        );
    }
    // Halfway from 165 (0.3 s) to -160 (0.55 s) with linear keys: 182.5, not 2.5.
    assert!((curve.value(0, 0.425).unwrap() - 182.5).abs() < 1e-4);
}

#[test]
fn discrete_ik_channels_hold() {
    let app = sample_app("jump", 0.0);
    let anim = &app.doc.data.animations[app.selection.animation.unwrap()];
    let mut seen = 0;
    for tl in &anim.timelines {
        let Timeline::Ik(ik) = tl else { continue };
        let curve = Curve::new(tl).unwrap();
        for k in 0..ik.keys.len() - 1 {
            let mid = (ik.keys.time(k) + ik.keys.time(k + 1)) / 2.0;
            for c in 2..5 {
                assert_eq!(curve.value(c, mid), Some(ik.keys.value(k, c)));
            }
            seen += 1;
        }
    }
    assert!(seen > 0);
}

#[test]
fn stepped_plot_holds_then_jumps() {
    let app = app_with("walk", 0.5, "bone head.rotate");
    let anim = &app.doc.data.animations[app.selection.animation.unwrap()];
    let tl = &anim.timelines[app.timelines[app.selection.timeline.unwrap()].index];
    let Timeline::Bone(b) = tl else { panic!() };
    assert_eq!(b.keys.interp(0), Interp::Stepped);
    let times = sample_times(b.keys.times(), anim.duration, 100);
    let pts = sample_channel(tl, 0, &times);
    // Every sample before 0.4 is 0; from 0.4 to 0.6, -5.
    for (t, v) in pts {
        let t32 = t as f32;
        if t32 < 0.4 {
            assert_eq!(v, 0.0, "{t}");
        } else if t32 < 0.6 {
            assert_eq!(v, -5.0, "{t}");
        }
    }
}

#[test]
fn tiny_areas_do_not_panic_or_overflow() {
    let scenes = [
        app_with("wave", 0.4, "bone forearm-l.rotate"),
        app_with("wave", 0.4, "slot lantern-body.twoColor"),
        app_with("walk", 0.4, "slot face.attachment"),
        app_with("jump", 0.4, "events"),
    ];
    for app in &scenes {
        for marker in [
            MarkerKind::Braille,
            MarkerKind::HalfBlock,
            MarkerKind::Ascii,
        ] {
            let mut view = CurvesView::default();
            for (w, h) in [
                (1, 1),
                (2, 2),
                (3, 3),
                (10, 5),
                (5, 10),
                (9, 4),
                (12, 6),
                (20, 3),
                (44, 7),
                (200, 2),
                (300, 80),
            ] {
                let mut sc = scene(app);
                sc.marker = marker;
                let buf = render_panel(&mut view, &sc, w, h);
                for line in buffer_text(&buf).lines() {
                    assert!(
                        unicode_width::UnicodeWidthStr::width(line) <= w as usize,
                        "{w}x{h}: {line}"
                    );
                }
            }
        }
    }
}

#[test]
fn ascii_and_halfblock_markers_render() {
    let mut app = app_with("wave", 0.4, "bone forearm-l.rotate");
    app.marker = MarkerKind::Ascii;
    let text = buffer_text(&render(&mut CurvesView::default(), &app, 80, 24));
    // The curve in the ascii marker's '*', keys 'o', the playhead '|'.
    assert!(
        text.contains('*') && text.contains('o') && text.contains('|'),
        "{text}"
    );
    assert!(!text.contains('◆') && !text.contains('⠁'), "{text}");
    insta::assert_snapshot!("curves_wave_forearm_ascii_80x24", text);
    app.marker = MarkerKind::HalfBlock;
    let text = buffer_text(&render(&mut CurvesView::default(), &app, 80, 24));
    assert!(text.contains('◆'), "{text}");
}

#[test]
fn nothing_selected() {
    let mut app = sample_app("walk", 0.4);
    app.selection.timeline = None;
    let text = buffer_text(&render(&mut CurvesView::default(), &app, 44, 10));
    assert!(text.contains("no timeline selected"), "{text}");
    let mut view = CurvesView::default();
    assert!(matches!(
        press(&mut view, &app, KeyCode::Char('v')),
        PanelAction::Message(_)
    ));
    app.selection.animation = None;
    app.timelines.clear();
    let text = buffer_text(&render(&mut CurvesView::default(), &app, 44, 10));
    assert!(text.contains("no animation selected"), "{text}");
    assert_eq!(press(&mut view, &app, KeyCode::Down), PanelAction::Ignored);
}

#[test]
fn hostile_names_are_escaped() {
    let text = String::from_utf8(bonescope::tui::EMBEDDED_SAMPLE.to_vec()).unwrap();
    // A bone and a slot attachment name carrying an escape sequence and a bidi override.
    let text = text
        .replace("\"torso\"", "\"tor\\u001b[2Jso\\u202eevil\"")
        .replace("\"face-blink\"", "\"blink\\u001b]0;x\\u0007\\u202e\"");
    let mut app = file_app(text.as_bytes(), "hostile.json", 0.0).expect("app");
    let walk = app.doc.data.find_animation("walk").unwrap();
    app.play_animation(walk);
    app.session.seek_time(0.4);
    let bone_tl = app
        .timelines
        .iter()
        .position(|t| matches!(t.target, Target::Bone(_)) && t.target_name.contains('\u{1b}'))
        .unwrap();
    for (sel, needle) in [
        (bone_tl, "tor\\e[2Jso\\u{202e}evil"),
        (0, "blink\\e]0;x\\u{7}\\u{202e}"),
    ] {
        app.selection.timeline = Some(sel);
        for (w, h) in [(160, 48), (80, 24)] {
            let text = buffer_text(&render(&mut CurvesView::default(), &app, w, h));
            assert!(
                !text.contains('\u{1b}') && !text.contains('\u{202e}') && !text.contains('\u{7}')
            );
            assert!(text.contains(needle), "{w}x{h}: {text}");
        }
    }
}
