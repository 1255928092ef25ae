//! The Preview panel: snapshots of the built-in sample, layer toggles, zoom and pan, degenerate
//! skeletons and tiny areas.

use crate::common;

use bonescope::core::color::Color;
use bonescope::core::model::{
    Attachment, AttachmentKind, BlendMode, BoneData, PathAttachment, PointAttachment,
    RegionAttachment, SkeletonData, Skin, SlotData, VertexData,
};
use bonescope::session::Session;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{PanelScene, buffer_text, render_panel, sample_app};
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::preview::PreviewView;
use bonescope::tui::views::{MarkerKind, Panel, PanelAction, Selection, ViewCtx};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;
use std::sync::Arc;

/// The sample's "walk" at t=0.5 with bone "head" selected.
fn walk_app() -> App {
    let mut app = sample_app("walk", 0.5);
    app.selection.bone = app.doc.data.find_bone("head");
    assert!(app.selection.bone.is_some(), "sample has a head bone");
    app
}

fn render_with(
    view: &mut PreviewView,
    session: &Session,
    selection: &Selection,
    marker: MarkerKind,
    w: u16,
    h: u16,
) -> Buffer {
    let scene = PanelScene {
        session,
        selection,
        timelines: &[],
        playhead: session.time(),
        playing: false,
        focused: true,
        marker,
    };
    render_panel(view, &scene, w, h)
}

fn render(view: &mut PreviewView, app: &App, marker: MarkerKind, w: u16, h: u16) -> Buffer {
    render_with(view, &app.session, &app.selection, marker, w, h)
}

fn key(view: &mut PreviewView, app: &App, code: KeyCode) -> PanelAction {
    let mods = match code {
        KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
        _ => KeyModifiers::NONE,
    };
    let theme = Theme::new(ColorMode::None);
    let ctx = ViewCtx {
        session: &app.session,
        selection: &app.selection,
        timelines: &app.timelines,
        theme: &theme,
        marker: MarkerKind::Braille,
        focused: true,
        playhead: app.playhead(),
        playing: app.playing,
    };
    view.handle_key(KeyEvent::new(code, mods), &ctx)
}

fn press(view: &mut PreviewView, app: &App, c: char) {
    assert_eq!(
        key(view, app, KeyCode::Char(c)),
        PanelAction::Handled,
        "key {c}"
    );
}

/// Canvas cells (inside the border, above the footer) that show something.
fn painted_cells(buf: &Buffer) -> usize {
    let a = buf.area;
    let mut n = 0;
    for y in 1..a.height.saturating_sub(2) {
        for x in 1..a.width.saturating_sub(1) {
            if buf[(x, y)].symbol() != " " {
                n += 1;
            }
        }
    }
    n
}

/// The canvas rows only (no border, no footer), as text.
fn canvas_text(buf: &Buffer) -> String {
    let text = buffer_text(buf);
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    lines[1..n.saturating_sub(2)]
        .iter()
        .map(|l| {
            let chars: Vec<char> = l.chars().collect();
            chars[1..chars.len() - 1].iter().collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------------------------------------
// Snapshots

/// The walk drawn at both snapshot sizes on a fresh view after `setup` (given the size), as
/// `("{w}x{h}", text)` pairs.
fn walk_at_sizes(
    marker: MarkerKind,
    setup: impl Fn(&mut PreviewView, &App, u16, u16),
) -> Vec<(String, String)> {
    let app = walk_app();
    [(80, 24), (160, 48)]
        .into_iter()
        .map(|(w, h)| {
            let mut view = PreviewView::default();
            setup(&mut view, &app, w, h);
            let buf = render(&mut view, &app, marker, w, h);
            (format!("{w}x{h}"), buffer_text(&buf))
        })
        .collect()
}

#[test]
fn snapshot_walk_default_layers() {
    for (size, text) in walk_at_sizes(MarkerKind::Braille, |_, _, _, _| {}) {
        insta::assert_snapshot!(format!("walk_default_{size}"), text);
    }
}

#[test]
fn snapshot_bones_only() {
    let bones_only = |view: &mut PreviewView, app: &App, _, _| {
        for c in ['2', '3', '4', '5', '6', '7'] {
            press(view, app, c);
        }
    };
    for (size, text) in walk_at_sizes(MarkerKind::Braille, bones_only) {
        insta::assert_snapshot!(format!("walk_bones_only_{size}"), text);
    }
}

#[test]
fn snapshot_zoomed_twice() {
    let zoom_twice = |view: &mut PreviewView, app: &App, w, h| {
        render(view, app, MarkerKind::Braille, w, h);
        press(view, app, 'z');
        press(view, app, 'z');
    };
    for (size, text) in walk_at_sizes(MarkerKind::Braille, zoom_twice) {
        assert!(text.contains("2.0x"));
        insta::assert_snapshot!(format!("walk_zoomed_twice_{size}"), text);
    }
}

#[test]
fn snapshot_ascii_marker() {
    for (size, text) in walk_at_sizes(MarkerKind::Ascii, |_, _, _, _| {}) {
        insta::assert_snapshot!(format!("walk_ascii_{size}"), text);
    }
}

// ---------------------------------------------------------------------------------------------
// Layers

#[test]
fn every_layer_on_by_default_and_in_the_title() {
    let app = walk_app();
    let mut view = PreviewView::default();
    let text = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 80, 24));
    let title = text.lines().next().unwrap();
    assert!(
        title.contains("Preview [1b 2r 3m 4x 5p 6o 7c] 1.0x"),
        "{title}"
    );
    press(&mut view, &app, '3');
    let text = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 80, 24));
    assert!(text.lines().next().unwrap().contains("[1b 2r 3· 4x"));
}

#[test]
fn title_suffix_shrinks_with_the_panel() {
    let app = walk_app();
    let mut view = PreviewView::default();
    let title = |buf: &Buffer| buffer_text(buf).lines().next().unwrap().to_string();
    let t36 = title(&render(&mut view, &app, MarkerKind::Braille, 36, 12));
    assert!(t36.contains(" Preview [brmxpoc] 1.0x "), "{t36}");
    let t20 = title(&render(&mut view, &app, MarkerKind::Braille, 20, 8));
    assert!(t20.contains(" Preview 1.0x "), "{t20}");
    let t12 = title(&render(&mut view, &app, MarkerKind::Braille, 12, 6));
    assert!(t12.contains("Preview") && !t12.contains('x'), "{t12}");
}

#[test]
fn toggling_a_layer_removes_its_pixels() {
    let app = walk_app();
    let mut base = PreviewView::default();
    let all = render(&mut base, &app, MarkerKind::Braille, 120, 40);
    let all_cells = painted_cells(&all);
    // Layers the sample has: bones, regions, meshes, boxes, points, clipping.
    for layer in ['1', '2', '3', '4', '6', '7'] {
        // Only this layer on: something is drawn; then off: nothing is.
        let mut view = PreviewView::default();
        for c in ['1', '2', '3', '4', '5', '6', '7'] {
            if c != layer {
                press(&mut view, &app, c);
            }
        }
        let only = render(&mut view, &app, MarkerKind::Braille, 120, 40);
        assert!(painted_cells(&only) > 0, "layer {layer} draws something");
        press(&mut view, &app, layer);
        let none = render(&mut view, &app, MarkerKind::Braille, 120, 40);
        assert_eq!(painted_cells(&none), 0, "layer {layer} off leaves nothing");

        // From all layers: turning it off changes the picture; on again restores it.
        let mut view = PreviewView::default();
        press(&mut view, &app, layer);
        let without = render(&mut view, &app, MarkerKind::Braille, 120, 40);
        assert_ne!(canvas_text(&without), canvas_text(&all), "layer {layer}");
        assert!(painted_cells(&without) <= all_cells, "layer {layer}");
        press(&mut view, &app, layer);
        let again = render(&mut view, &app, MarkerKind::Braille, 120, 40);
        assert_eq!(buffer_text(&again), buffer_text(&all), "layer {layer}");
    }
}

#[test]
fn selected_bone_is_highlighted_without_color() {
    let app = walk_app();
    let mut view = PreviewView::default();
    let buf = render(&mut view, &app, MarkerKind::Braille, 80, 24);
    let a = buf.area;
    let mut marked = 0;
    for y in 1..a.height - 2 {
        for x in 1..a.width - 1 {
            let m = buf[(x, y)].modifier;
            if m.contains(Modifier::REVERSED) && m.contains(Modifier::BOLD) {
                marked += 1;
            }
        }
    }
    assert!(marked > 0, "the head bone's cells are bold and reversed");
    // No selection: nothing reversed.
    let mut sel = app.selection.clone();
    sel.bone = None;
    let buf = render_with(&mut view, &app.session, &sel, MarkerKind::Braille, 80, 24);
    let any = (0..a.height)
        .flat_map(|y| (0..a.width).map(move |x| (x, y)))
        .any(|p| buf[p].modifier.contains(Modifier::REVERSED));
    assert!(!any);
    // The footer names the selected bone.
    let text = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 80, 24));
    let footer = text.lines().nth(22).unwrap();
    assert!(footer.contains("head "), "{footer}");
    assert!(footer.contains("centre "), "{footer}");
}

// ---------------------------------------------------------------------------------------------
// Zoom and pan

#[test]
fn zoom_and_pan_round_trip() {
    let app = walk_app();
    let mut view = PreviewView::default();
    let fit = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 100, 30));

    press(&mut view, &app, 'z');
    let zin = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 100, 30));
    assert_ne!(zin, fit);
    assert!(zin.lines().next().unwrap().contains("1.4x"));
    press(&mut view, &app, 'Z');
    assert_eq!(
        buffer_text(&render(&mut view, &app, MarkerKind::Braille, 100, 30)),
        fit
    );

    press(&mut view, &app, 'Z');
    let zout = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 100, 30));
    assert!(zout.lines().next().unwrap().contains("0.7x"));
    assert!(painted_cells_text(&zout) < painted_cells_text(&fit));
    press(&mut view, &app, '0');
    assert_eq!(
        buffer_text(&render(&mut view, &app, MarkerKind::Braille, 100, 30)),
        fit
    );

    for (there, back) in [('H', 'L'), ('J', 'K'), ('K', 'J'), ('L', 'H')] {
        press(&mut view, &app, there);
        let moved = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 100, 30));
        assert_ne!(moved, fit, "pan {there}");
        press(&mut view, &app, back);
        let home = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 100, 30));
        assert_eq!(
            canvas_text_str(&home),
            canvas_text_str(&fit),
            "pan {there} {back}"
        );
    }

    // Zoom, pan, zoom: fit brings everything back.
    for c in ['z', 'z', 'z', 'L', 'L', 'K', 'z', '3'] {
        press(&mut view, &app, c);
    }
    press(&mut view, &app, '3');
    press(&mut view, &app, '0');
    assert_eq!(
        buffer_text(&render(&mut view, &app, MarkerKind::Braille, 100, 30)),
        fit
    );
}

fn painted_cells_text(text: &str) -> usize {
    text.lines()
        .skip(1)
        .take(text.lines().count().saturating_sub(3))
        .map(|l| {
            l.chars()
                .filter(|c| *c != ' ' && *c != '│' && *c != '┃')
                .count()
        })
        .sum()
}

fn canvas_text_str(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[1..lines.len() - 2].join("\n")
}

#[test]
fn pan_moves_the_view_the_right_way() {
    let app = walk_app();
    let mut view = PreviewView::default();
    render(&mut view, &app, MarkerKind::Braille, 100, 30);
    press(&mut view, &app, 'L');
    assert!(view.pan.0 > 0.0 && view.pan.1 == 0.0);
    press(&mut view, &app, 'H');
    press(&mut view, &app, 'H');
    assert!(view.pan.0 < 0.0);
    press(&mut view, &app, 'K');
    assert!(view.pan.1 > 0.0);
    press(&mut view, &app, '0');
    assert_eq!(view.pan, (0.0, 0.0));
    assert_eq!(view.zoom_level, 0);
}

#[test]
fn fit_is_stable_while_playing() {
    let mut app = walk_app();
    let mut view = PreviewView::default();
    render(&mut view, &app, MarkerKind::Braille, 100, 30);
    let footer = |buf: &Buffer| {
        let t = buffer_text(buf);
        let l = t.lines().nth(28).unwrap().to_string();
        l[l.find("centre").unwrap()..].to_string()
    };
    let first = footer(&render(&mut view, &app, MarkerKind::Braille, 100, 30));
    for _ in 0..20 {
        app.session.advance(2);
        let now = footer(&render(&mut view, &app, MarkerKind::Braille, 100, 30));
        assert_eq!(now, first, "the view centre does not follow the pose");
    }
}

#[test]
fn global_keys_pass_through() {
    let app = walk_app();
    let mut view = PreviewView::default();
    for code in [
        KeyCode::Char(' '),
        KeyCode::Char('q'),
        KeyCode::Char('l'),
        KeyCode::Char('h'),
        KeyCode::Char('8'),
        KeyCode::Char('?'),
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Tab,
        KeyCode::Enter,
        KeyCode::Char('P'),
        KeyCode::Char('M'),
    ] {
        assert_eq!(key(&mut view, &app, code), PanelAction::Ignored, "{code:?}");
    }
    let theme = Theme::new(ColorMode::None);
    let ctx = ViewCtx {
        session: &app.session,
        selection: &app.selection,
        timelines: &app.timelines,
        theme: &theme,
        marker: MarkerKind::Braille,
        focused: true,
        playhead: 0.0,
        playing: false,
    };
    let ctrl_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(view.handle_key(ctrl_z, &ctx), PanelAction::Ignored);
}

// ---------------------------------------------------------------------------------------------
// Robustness

/// A small hand-built skeleton: a root, a chain of bones (one with NaN, one with infinite
/// coordinates), a region, a path, a point and a bounding box on them.
fn degenerate_data(name: &str) -> SkeletonData {
    let mut d = SkeletonData {
        name: "degenerate".into(),
        fps: 30.0,
        ..SkeletonData::default()
    };
    let mut root = BoneData::new("root", None);
    root.length = 40.0;
    d.bones.push(root);
    let mut nan = BoneData::new(name, Some(0));
    nan.x = f64::NAN;
    nan.length = 30.0;
    d.bones.push(nan);
    let mut inf = BoneData::new("inf", Some(0));
    inf.y = f64::INFINITY;
    inf.rotation = 45.0;
    inf.length = 10.0;
    d.bones.push(inf);
    let mut huge = BoneData::new("huge", Some(0));
    huge.x = 1e300;
    huge.scale_x = 1e300;
    huge.length = 1e300;
    d.bones.push(huge);
    let mut ok = BoneData::new("ok", Some(0));
    ok.x = 20.0;
    ok.rotation = 90.0;
    ok.length = 25.0;
    d.bones.push(ok);

    let mut region = RegionAttachment {
        path: "r".into(),
        x: 0.0,
        y: 0.0,
        rotation: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        width: 20.0,
        height: 10.0,
        color: Color::WHITE,
        offset: [0.0; 8],
    };
    region.update_offset();
    let plain = |v: &[f32]| VertexData {
        bones: None,
        vertices: v.to_vec(),
        world_len: v.len(),
    };
    let mut skin = Skin::new("default");
    let mut add = |d: &mut SkeletonData, bone: usize, kind: AttachmentKind| {
        let id = d.attachments.len();
        let slot = d.slots.len();
        let name = format!("a{id}");
        d.attachments.push(Attachment {
            name: name.clone(),
            kind,
            deform_source: id,
            sequence: None,
        });
        d.slots.push(SlotData {
            name: name.clone(),
            bone,
            color: Color::WHITE,
            dark: None,
            offset: None,
            attachment: Some(name.clone()),
            blend: BlendMode::Normal,
        });
        skin.set(slot, &name, id);
    };
    for bone in 0..5 {
        add(&mut d, bone, AttachmentKind::Region(region.clone()));
        add(
            &mut d,
            bone,
            AttachmentKind::Point(PointAttachment {
                x: 3.0,
                y: 4.0,
                rotation: 30.0,
                color: None,
            }),
        );
        add(
            &mut d,
            bone,
            AttachmentKind::Path(PathAttachment {
                vertices: plain(&[
                    -10.0, 0.0, 0.0, 0.0, 10.0, 5.0, 20.0, 5.0, 30.0, 0.0, 40.0, -5.0,
                ]),
                closed: false,
                constant_speed: true,
                lengths: vec![30.0],
                color: None,
            }),
        );
        add(
            &mut d,
            bone,
            AttachmentKind::BoundingBox {
                vertices: plain(&[0.0, 0.0, 10.0, f32::NAN, 10.0, 10.0]),
                color: None,
            },
        );
    }
    // A region with NaN corners on a healthy bone.
    let mut bad = region.clone();
    bad.offset[3] = f32::NAN;
    add(&mut d, 4, AttachmentKind::Region(bad));
    d.default_skin = Some(0);
    d.skins.push(skin);
    d.finish();
    d
}

#[test]
fn nan_and_infinite_coordinates_render_without_panic() {
    let data = Arc::new(degenerate_data("nan"));
    let session = Session::new(data.clone(), Vec::new()).expect("session");
    for bone in [None, Some(0), Some(1), Some(2), Some(3), Some(4), Some(99)] {
        let selection = Selection {
            bone,
            ..Selection::default()
        };
        for marker in [
            MarkerKind::Braille,
            MarkerKind::HalfBlock,
            MarkerKind::Ascii,
        ] {
            let mut view = PreviewView::default();
            for (w, h) in [(80, 24), (10, 5), (1, 1), (200, 60)] {
                render_with(&mut view, &session, &selection, marker, w, h);
            }
            // Zoomed far in and out.
            for _ in 0..60 {
                view.zoom_by(1);
            }
            render_with(&mut view, &session, &selection, marker, 40, 12);
            for _ in 0..120 {
                view.zoom_by(-1);
            }
            render_with(&mut view, &session, &selection, marker, 40, 12);
        }
    }
    // The healthy parts are still drawn.
    let mut view = PreviewView::default();
    let buf = render_with(
        &mut view,
        &session,
        &Selection::default(),
        MarkerKind::Braille,
        60,
        20,
    );
    assert!(painted_cells(&buf) > 0);
}

#[test]
fn an_empty_skeleton_renders() {
    let mut d = SkeletonData::default();
    d.finish();
    let session = Session::new(Arc::new(d), Vec::new()).expect("session");
    let mut view = PreviewView::default();
    for (w, h) in [(80, 24), (10, 5), (1, 1)] {
        render_with(
            &mut view,
            &session,
            &Selection::default(),
            MarkerKind::Braille,
            w,
            h,
        );
    }
}

#[test]
fn tiny_areas_do_not_panic() {
    let app = walk_app();
    let mut view = PreviewView::default();
    for marker in [
        MarkerKind::Braille,
        MarkerKind::HalfBlock,
        MarkerKind::Ascii,
    ] {
        for w in 0..14 {
            for h in 0..10 {
                render(&mut view, &app, marker, w, h);
            }
        }
    }
    let buf = render(&mut view, &app, MarkerKind::Braille, 10, 5);
    let text = buffer_text(&buf);
    assert_eq!(text.lines().count(), 5);
    assert!(text.lines().all(|l| l.chars().count() == 10), "{text}");
    // Keys work before any render too.
    let mut fresh = PreviewView::default();
    for c in ['H', 'J', 'K', 'L', 'z', 'Z', '0'] {
        press(&mut fresh, &app, c);
    }
}

#[test]
fn hostile_names_never_reach_the_buffer_raw() {
    let evil = "he\u{1b}[2J\u{202e}ad";
    let data = Arc::new(degenerate_data(evil));
    let session = Session::new(data, Vec::new()).expect("session");
    let selection = Selection {
        bone: Some(4),
        ..Selection::default()
    };
    // Select the hostile-named bone and a healthy one named by the sample.
    for bone in [1, 4] {
        let selection = Selection {
            bone: Some(bone),
            ..selection.clone()
        };
        let mut view = PreviewView::default();
        for (w, h) in [(80, 24), (30, 10), (160, 48)] {
            let buf = render_with(&mut view, &session, &selection, MarkerKind::Braille, w, h);
            for cell in buf.content() {
                let s = cell.symbol();
                assert!(
                    !s.chars().any(|c| c == '\u{1b}' || c == '\u{202e}'),
                    "raw control character in {s:?}"
                );
            }
            if bone == 1 && w == 80 {
                assert!(
                    buffer_text(&buf).contains("he\\e[2J"),
                    "{}",
                    buffer_text(&buf)
                );
            }
        }
    }

    // The same through the sample: rename "head".
    let app = walk_app();
    let mut d = (*app.doc.data).clone();
    let head = d.find_bone("head").unwrap();
    d.bones[head].name = evil.to_string();
    let session = Session::new(Arc::new(d), Vec::new()).expect("session");
    let mut view = PreviewView::default();
    let buf = render_with(
        &mut view,
        &session,
        &app.selection,
        MarkerKind::Braille,
        80,
        24,
    );
    let text = buffer_text(&buf);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'));
    assert!(text.contains("\\u{202e}"), "{text}");
}

#[test]
fn corpus_paths_and_meshes_draw() {
    let Some(shared) = common::shared_dir("preview of corpus skeletons") else {
        return;
    };
    let dir = shared.join("corpus/spine/3.8");
    for file in [
        "tank-pro.json",
        "vine-pro.json",
        "mix-and-match-pro.json",
        "spineboy-pro.json",
    ] {
        let path = dir.join(file);
        let Ok(bytes) = std::fs::read(&path) else {
            common::skip(file, "not in the corpus");
            continue;
        };
        let data = Arc::new(bonescope::format::load(&bytes, file).expect("loads"));
        let skins = bonescope::tui::app::initial_skins(&data);
        let mut session = Session::new(data.clone(), skins).expect("session");
        if !data.animations.is_empty() {
            session
                .restart_with(vec![bonescope::session::Command::SetAnimation {
                    track: 0,
                    animation: 0,
                    looping: true,
                }])
                .expect("animation");
            session.seek_time(0.3);
        }
        let selection = Selection {
            animation: (!data.animations.is_empty()).then_some(0),
            bone: Some(1.min(data.bones.len() - 1)),
            ..Selection::default()
        };
        let mut view = PreviewView::default();
        let buf = render_with(
            &mut view,
            &session,
            &selection,
            MarkerKind::Braille,
            200,
            60,
        );
        assert!(painted_cells(&buf) > 0, "{file}");
        // Paths only: something drawn exactly when the skeleton shows a path.
        let has_path = session.skeleton().slots.iter().any(|s| {
            s.attachment
                .is_some_and(|a| matches!(data.attachments[a].kind, AttachmentKind::Path(_)))
        });
        for c in ['1', '2', '3', '4', '6', '7'] {
            view.toggle_layer(usize::from(c as u8 - b'1'));
        }
        let paths = render_with(
            &mut view,
            &session,
            &selection,
            MarkerKind::Braille,
            200,
            60,
        );
        assert_eq!(painted_cells(&paths) > 0, has_path, "{file}: paths");
        // Zoomed in (mesh triangles on) still renders.
        view = PreviewView::default();
        for _ in 0..3 {
            view.zoom_by(1);
        }
        render_with(
            &mut view,
            &session,
            &selection,
            MarkerKind::Braille,
            200,
            60,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Framing: a function of the data, skins and animation, never of the viewing history

/// The title and the footer's `centre x,y` of a preview.
fn title_and_centre(text: &str) -> (String, String) {
    let lines: Vec<&str> = text.lines().collect();
    let footer = lines[lines.len().saturating_sub(2)];
    let centre = footer.find("centre ").map_or(String::new(), |i| {
        footer[i..].trim_end_matches(['│', '┃', ' ']).to_string()
    });
    (lines[0].to_string(), centre)
}

/// The same frame reached by seeking, by playing frame by frame, after other window sizes
/// and after another frame was fitted (`0` at frame 0): the same cells, title and centre.
#[test]
fn framing_is_the_same_whatever_path_led_to_the_frame() {
    let Some(path) = common::shared_file(
        "celestial-circus (physics, two tracks)",
        "corpus/spine/4.2/celestial-circus-pro.json",
    ) else {
        return;
    };
    let open = || {
        let mut app = common::viewer::open_file(&path, 0.0);
        common::viewer::set_animation(&mut app, 0, "swing", true);
        common::viewer::set_animation(&mut app, 1, "eyeblink", true);
        app
    };
    const FRAME: u64 = 91;
    // Seek straight to the frame, fresh view.
    let mut app = open();
    app.session.seek_frame(FRAME);
    let mut fresh = PreviewView::default();
    let seeked = buffer_text(&render(&mut fresh, &app, MarkerKind::Braille, 200, 60));
    // Play there frame by frame, drawing every frame at other sizes, refitting on the way.
    let mut app = open();
    let mut view = PreviewView::default();
    for f in 0..FRAME {
        app.session.seek_frame(f);
        let (w, h) = if f % 2 == 0 { (80, 24) } else { (120, 40) };
        render(&mut view, &app, MarkerKind::Braille, w, h);
        if f == 0 {
            press(&mut view, &app, '0');
        }
    }
    app.session.advance(1);
    assert_eq!(app.session.frame(), FRAME);
    let played = buffer_text(&render(&mut view, &app, MarkerKind::Braille, 200, 60));
    let (title, centre) = title_and_centre(&seeked);
    assert!(centre.starts_with("centre "), "{seeked}");
    assert_eq!(title_and_centre(&played), (title, centre));
    assert_eq!(played, seeked, "same frame, same cells");
}

/// cloud-pot's rain bones sit and fall far from the pot (its export's own bounds reach
/// 270,000 units down; the viewer used to frame them: `centre -268,-135859`). The view
/// frames the pot: the centre lies by the median bone, and at the frame whose bones reach
/// farthest it is frame 0's.
#[test]
fn runaway_bones_do_not_move_the_framing() {
    let Some(path) = common::shared_file(
        "cloud-pot (physics rain)",
        "corpus/spine/4.2/cloud-pot.json",
    ) else {
        return;
    };
    let mut app = common::viewer::open_file(&path, 0.0);
    let data = app.doc.data.clone();
    let centre = |app: &App| {
        let mut view = PreviewView::default();
        let text = buffer_text(&render(&mut view, app, MarkerKind::Braille, 200, 60));
        title_and_centre(&text).1
    };
    let at_start = centre(&app);
    let bones = |app: &App| -> Vec<(f64, f64)> {
        app.session
            .skeleton()
            .bones
            .iter()
            .map(|b| (b.world_x, b.world_y))
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .collect()
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let start = bones(&app);
    let (mx, my) = (
        median(start.iter().map(|p| p.0).collect()),
        median(start.iter().map(|p| p.1).collect()),
    );
    let reach = |app: &App| {
        bones(app)
            .iter()
            .map(|&(x, y)| (x - mx).hypot(y - my))
            .fold(0.0, f64::max)
    };
    let mut far = (0, 0.0);
    for f in (0..900).step_by(15) {
        app.session.seek_frame(f);
        let r = reach(&app);
        if r > far.1 {
            far = (f, r);
        }
    }
    eprintln!(
        "farthest bone {:.0} from the median bone at frame {}",
        far.1, far.0
    );
    app.session.seek_frame(far.0);
    assert_eq!(centre(&app), at_start, "frame {} vs frame 0", far.0);
    let xy: Vec<f64> = at_start["centre ".len()..]
        .split(',')
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{at_start:?}")))
        .collect();
    let export_centre_y = data.y + data.height / 2.0;
    assert!(
        (xy[0] - mx).abs() < 1000.0 && (xy[1] - my).abs() < 1000.0,
        "{at_start} frames the pot (median bone {mx:.0},{my:.0}; the export's bounds are \
         centred at y {export_centre_y:.0})"
    );
}
