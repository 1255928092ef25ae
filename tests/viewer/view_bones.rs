//! The Bones panel: snapshots of the tree and the draw-order list, keys, selection sync,
//! tiny areas and hostile names.

use crate::common;

use bonescope::core::model::ConstraintRef;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{PanelScene, buffer_text, file_app, render_panel, sample_app};
use bonescope::tui::views::bones::{BonesMode, BonesView, Node};
use bonescope::tui::views::{Panel, PanelAction, PanelId};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;

fn render(view: &mut BonesView, app: &App, w: u16, h: u16) -> String {
    common::viewer::panel_text(view, app, w, h)
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// Sends a key to the panel the way the app does, applying a bone selection.
fn press(view: &mut BonesView, app: &mut App, code: KeyCode) -> PanelAction {
    let action = view.handle_key(key(code), &app.ctx(PanelId::Bones));
    if let PanelAction::SelectBone(b) = action {
        app.selection.bone = Some(b);
    }
    action
}

fn bone(app: &App, name: &str) -> usize {
    app.doc.data.find_bone(name).expect(name)
}

/// The walk at 0.5 s with "head" selected.
fn walk_with_head() -> App {
    let mut app = sample_app("walk", 0.5);
    app.selection.bone = Some(bone(&app, "head"));
    app
}

#[test]
fn tree_with_head_selected_80x24() {
    let app = walk_with_head();
    let mut view = BonesView::default();
    let text = render(&mut view, &app, 80, 24);
    for name in ["root", "hip", "torso", "neck"] {
        assert!(view.is_expanded(name), "{name} is open");
    }
    assert_eq!(view.cursor(), Some(Node::Bone(bone(&app, "head"))));
    insta::assert_snapshot!(text);
}

#[test]
fn tree_with_head_selected_160x48() {
    let app = walk_with_head();
    let mut view = BonesView::default();
    insta::assert_snapshot!(render(&mut view, &app, 160, 48));
}

#[test]
fn tree_fully_expanded_44x24_and_160x48() {
    let mut app = walk_with_head();
    let mut view = BonesView::default();
    render(&mut view, &app, 44, 24);
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Char('*')),
        PanelAction::Handled
    );
    insta::assert_snapshot!("expanded_44x24", render(&mut view, &app, 44, 24));
    // Shear (hat) and inherit modes (feet, lantern) show at full width.
    insta::assert_snapshot!("expanded_160x48", render(&mut view, &app, 160, 48));
}

#[test]
fn cursor_row_is_reversed() {
    let app = walk_with_head();
    let mut view = BonesView::default();
    let buf = render_panel(&mut view, &PanelScene::of(&app), 80, 24);
    let text = buffer_text(&buf);
    let y = text
        .lines()
        .skip(1)
        .position(|l| l.contains("▸ head"))
        .expect("head row") as u16
        + 1;
    let reversed = |y: u16| buf[(10, y)].modifier.contains(Modifier::REVERSED);
    assert!(reversed(y), "head row is highlighted");
    assert_eq!((1..23).filter(|&y| reversed(y)).count(), 1);
}

/// The jump has draw order keys: from 0.4 s hand-l and pole are moved.
fn jump_draw_order() -> (App, BonesView) {
    let mut app = sample_app("jump", 0.6);
    let mut view = BonesView::default();
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Char('o')),
        PanelAction::Handled
    );
    assert_eq!(view.mode(), BonesMode::DrawOrder);
    let order = &app.session.skeleton().draw_order;
    assert!(
        order.iter().enumerate().any(|(k, &s)| k != s),
        "draw order differs from setup"
    );
    (app, view)
}

#[test]
fn draw_order_during_jump_80x24() {
    let (app, mut view) = jump_draw_order();
    let text = render(&mut view, &app, 80, 24);
    assert!(text.contains("draw order"));
    insta::assert_snapshot!(text);
}

#[test]
fn draw_order_during_jump_160x48() {
    let (app, mut view) = jump_draw_order();
    insta::assert_snapshot!(render(&mut view, &app, 160, 48));
}

#[test]
fn draw_order_keys_select_the_slot_bone_and_o_goes_back() {
    let (mut app, mut view) = jump_draw_order();
    render(&mut view, &app, 80, 24);
    let first_slot_bone = {
        let sk = app.session.skeleton();
        app.doc.data.slots[sk.draw_order[1]].bone
    };
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Down),
        PanelAction::SelectBone(first_slot_bone)
    );
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Char('o')),
        PanelAction::Handled
    );
    assert_eq!(view.mode(), BonesMode::Tree);
    // The tree follows the selection made in the list.
    render(&mut view, &app, 80, 24);
    assert_eq!(view.cursor(), Some(Node::Bone(first_slot_bone)));
}

#[test]
fn up_down_select_bones() {
    let mut app = walk_with_head();
    let mut view = BonesView::default();
    render(&mut view, &app, 80, 24);
    let neck = bone(&app, "neck");
    let head = bone(&app, "head");
    // Rows: ... neck, ◦ scarf, head. Up from head lands on neck's slot: selects neck.
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Up),
        PanelAction::SelectBone(neck)
    );
    assert_eq!(
        view.cursor(),
        Some(Node::Slot(app.doc.data.find_slot("scarf").unwrap()))
    );
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Up),
        PanelAction::SelectBone(neck)
    );
    assert_eq!(view.cursor(), Some(Node::Bone(neck)));
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Down),
        PanelAction::Handled
    );
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Down),
        PanelAction::SelectBone(head)
    );
    assert_eq!(app.selection.bone, Some(head));
    // Head is collapsed: the next row is its applied pose (the look-ik turns it), which
    // the cursor passes, then upper-arm-l (torso's next child); up again lands on head.
    assert!(render(&mut view, &app, 80, 24).contains("→ applied"));
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Down),
        PanelAction::SelectBone(bone(&app, "upper-arm-l"))
    );
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Up),
        PanelAction::SelectBone(head)
    );
    assert_eq!(view.cursor(), Some(Node::Bone(head)));
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Down),
        PanelAction::SelectBone(bone(&app, "upper-arm-l"))
    );
    // PgUp goes to the top; Up there stays on root.
    let root = bone(&app, "root");
    assert_eq!(
        press(&mut view, &mut app, KeyCode::PageUp),
        PanelAction::SelectBone(root)
    );
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Up),
        PanelAction::SelectBone(root)
    );
    // Global keys are left to the app.
    for code in [
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Char(' '),
        KeyCode::Char('q'),
        KeyCode::Tab,
        KeyCode::Char('-'),
    ] {
        assert_eq!(
            press(&mut view, &mut app, code),
            PanelAction::Ignored,
            "{code:?}"
        );
    }
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(
        view.handle_key(ctrl_c, &app.ctx(PanelId::Bones)),
        PanelAction::Ignored
    );
}

#[test]
fn enter_toggles_and_c_collapses_all() {
    let mut app = walk_with_head();
    let mut view = BonesView::default();
    render(&mut view, &app, 80, 24);
    assert!(!view.is_expanded("head"));
    let before = render(&mut view, &app, 80, 24);
    assert!(!before.contains("◦ face"));
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Enter),
        PanelAction::Handled
    );
    assert!(view.is_expanded("head"));
    let after = render(&mut view, &app, 80, 24);
    assert!(after.contains("◦ face"), "{after}");
    assert!(after.contains("▸ hat"), "{after}");
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Enter),
        PanelAction::Handled
    );
    assert!(!view.is_expanded("head"));
    // Collapse all: only the root shows, and the cursor (hidden) moves to it.
    let root = bone(&app, "root");
    assert_eq!(
        press(&mut view, &mut app, KeyCode::Char('c')),
        PanelAction::SelectBone(root)
    );
    assert_eq!(view.expanded().count(), 0);
    let text = render(&mut view, &app, 80, 24);
    assert!(text.contains("▸ root"), "{text}");
    assert!(!text.contains("hip"), "{text}");
    // Expand all opens every bone with children or slots.
    press(&mut view, &mut app, KeyCode::Char('*'));
    assert!(view.is_expanded("lantern") && view.is_expanded("head"));
}

#[test]
fn selection_from_elsewhere_opens_and_scrolls() {
    let mut app = sample_app("walk", 0.5);
    let mut view = BonesView::default();
    press(&mut view, &mut app, KeyCode::Char('*'));
    render(&mut view, &app, 40, 8);
    let lantern = bone(&app, "lantern");
    app.selection.bone = Some(lantern);
    let text = render(&mut view, &app, 40, 8);
    assert_eq!(view.cursor(), Some(Node::Bone(lantern)));
    assert!(text.contains("lantern"), "{text}");
    assert!(text.contains("25 bones · lantern"), "{text}");
}

#[test]
fn inactive_bones_are_marked() {
    let app = walk_with_head();
    let mut view = BonesView::default();
    let mut app2 = app;
    app2.selection.bone = Some(bone(&app2, "feather"));
    let text = render(&mut view, &app2, 80, 24);
    let line = text
        .lines()
        .skip(1)
        .find(|l| l.contains("feather"))
        .expect("feather row");
    assert!(line.contains("inactive"), "{line}");
}

#[test]
fn tiny_areas_do_not_panic() {
    let mut app = walk_with_head();
    let mut view = BonesView::default();
    for (w, h) in [(1, 1), (2, 2), (10, 5), (3, 10), (80, 3)] {
        render(&mut view, &app, w, h);
        press(&mut view, &mut app, KeyCode::Down);
        press(&mut view, &mut app, KeyCode::PageDown);
        press(&mut view, &mut app, KeyCode::Char('o'));
        render(&mut view, &app, w, h);
        press(&mut view, &mut app, KeyCode::PageDown);
        press(&mut view, &mut app, KeyCode::Char('o'));
    }
}

/// A bone and a slot with an escape sequence and a bidi override in their names.
#[test]
fn hostile_names_are_escaped() {
    let text = std::str::from_utf8(bonescope::tui::EMBEDDED_SAMPLE).unwrap();
    let evil = "h\\u001b[31mead\\u202e";
    let edited = text
        .replace("\"head\"", &format!("\"{evil}\""))
        .replace("\"face\"", "\"fa\\u001b]0;x\\u0007ce\"");
    let mut app = file_app(edited.as_bytes(), "evil.json", 0.0).expect("edited sample loads");
    let b = app
        .doc
        .data
        .bones
        .iter()
        .position(|b| b.name.contains('\u{1b}'))
        .expect("evil bone");
    app.selection.bone = Some(b);
    let mut view = BonesView::default();
    render(&mut view, &app, 80, 24);
    press(&mut view, &mut app, KeyCode::Enter);
    for (w, h) in [(80, 24), (160, 48), (44, 30)] {
        let out = render(&mut view, &app, w, h);
        assert!(!out.contains('\u{1b}') && !out.contains('\u{202e}') && !out.contains('\u{7}'));
        // The title always has room for the whole (escaped) name.
        assert!(out.contains("h\\e[31mead\\u{202e}"), "{out}");
        if w == 160 {
            assert!(out.contains("fa\\e]0;x\\u{7}ce"), "{out}");
        }
    }
    press(&mut view, &mut app, KeyCode::Char('o'));
    let out = render(&mut view, &app, 160, 48);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{202e}'));
    assert!(out.contains("h\\e[31mead\\u{202e}"), "{out}");
}

/// root > arm > hand, with a physics constraint on arm and a skin-required one (not in any
/// skin) on hand.
fn physics_app() -> App {
    use bonescope::core::model::{BoneData, PhysicsConstraintData, SkeletonData};
    use bonescope::tui::app::Document;
    use bonescope::tui::theme::{ColorMode, Theme};
    use bonescope::tui::views::MarkerKind;
    let mut data = SkeletonData::default();
    data.bones.push(BoneData::new("root", None));
    let mut arm = BoneData::new("arm", Some(0));
    (arm.length, arm.rotation, arm.x) = (100.0, 30.0, 10.0);
    data.bones.push(arm);
    data.bones.push(BoneData::new("hand", Some(1)));
    data.physics_constraints.push(PhysicsConstraintData {
        rotate: 1.0,
        mix: 0.75,
        ..PhysicsConstraintData::new("arm-swing", 1)
    });
    data.physics_constraints.push(PhysicsConstraintData {
        skin_required: true,
        ..PhysicsConstraintData::new("cape", 2)
    });
    data.finish();
    let doc = Document {
        label: "physics.json".into(),
        data: std::sync::Arc::new(data),
    };
    App::new(doc, Theme::new(ColorMode::None), MarkerKind::Braille).expect("app")
}

#[test]
fn physics_constraints_under_their_bones_100x8() {
    let mut app = physics_app();
    let mut view = BonesView::default();
    for _ in 0..2 {
        press(&mut view, &mut app, KeyCode::Char('*'));
    }
    let text = render(&mut view, &app, 100, 8);
    assert!(text.contains("≈ arm-swing") && text.contains("physics mix 0.75"));
    assert!(text.contains("≈ cape") && text.contains("physics inactive (not in skin)"));
    insta::assert_snapshot!(text);
    // The constraint's row selects its bone (the cursor starts on the root's row).
    press(&mut view, &mut app, KeyCode::Down);
    press(&mut view, &mut app, KeyCode::Down);
    assert_eq!(
        view.cursor(),
        Some(Node::Constraint(ConstraintRef::Physics(0)))
    );
    assert_eq!(app.selection.bone, Some(bone(&app, "arm")));
}

/// Issue 28.5: the panel never opens on an orphan `→ applied` row (its bone scrolled out
/// above it), whatever bone is selected and however tall the panel; with no bone selected
/// the cursor starts on a bone row.
#[test]
fn never_an_orphan_applied_row_at_the_top() {
    let mut app = sample_app("walk", 0.5);
    let mut applied_seen = false;
    for b in 0..app.doc.data.bones.len() {
        for h in 6..30 {
            app.selection.bone = Some(b);
            let mut view = BonesView::default();
            render(&mut view, &app, 80, h);
            view.handle_key(key(KeyCode::Char('*')), &app.ctx(PanelId::Bones));
            let text = render(&mut view, &app, 80, h);
            applied_seen |= text.contains("→ applied");
            let first = text.lines().nth(2).unwrap_or("");
            assert!(
                !first.contains("→ applied"),
                "bone {b}, height {h}:\n{text}"
            );
        }
    }
    assert!(applied_seen, "the sample has applied rows");
    app.selection.bone = None;
    let mut view = BonesView::default();
    render(&mut view, &app, 80, 24);
    assert!(
        matches!(view.cursor(), Some(Node::Bone(_))),
        "{:?}",
        view.cursor()
    );
}
