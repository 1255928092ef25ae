//! What a new user meets in the viewer's first minutes (issue 15, points 1, 2, 4 and 5): the
//! animation and skins it opens on, composing skins, the help and the prompt (validation,
//! history, completion) and the message log. Off-screen snapshots, then tmux end to end.

use crate::common;
use crate::tmux;

use bonescope::tui::app::{App, Document, Overlay};
use bonescope::tui::offscreen::{buffer_text, file_app_with, render_app, sample_app};
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::sync::Arc;
use tmux::{Tmux, shell_wrapped};

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn chars(app: &mut App, s: &str) {
    for c in s.chars() {
        app.handle_key(key(KeyCode::Char(c)));
    }
}

/// Runs `line` through the prompt as typed (`:` line Enter).
fn prompt(app: &mut App, line: &str) {
    chars(app, ":");
    chars(app, line);
    app.handle_key(key(KeyCode::Enter));
}

fn last_row(app: &mut App, w: u16, h: u16) -> String {
    let text = buffer_text(&render_app(app, w, h));
    text.lines()
        .last()
        .unwrap_or_default()
        .trim_end()
        .to_string()
}

/// The corpus files the issue names, as the viewer opens them.
const CORPUS: &[&str] = &[
    "spine/3.8/spineboy-pro.json",
    "spine/4.2/owl-pro.json",
    "spine/4.2/raptor-pro.json",
    "dragonbones/4.5/DragonBoy.json",
    "spine/4.2/mix-and-match-pro.json",
];

/// An app on a corpus file started as the viewer starts it (defaults, or named choices).
fn opened(rel: &str, animation: Option<&str>, skins: Option<&[String]>) -> Option<App> {
    let path = common::shared_file("tui_first_minutes", &format!("corpus/{rel}"))?;
    let bytes = std::fs::read(&path).expect("read");
    let name = path.file_name()?.to_string_lossy().into_owned();
    Some(file_app_with(&bytes, &name, 0.0, animation, skins).expect("opens"))
}

#[test]
fn each_corpus_file_opens_on_a_moving_animation_and_a_dressed_character() {
    let mut table = String::new();
    for rel in CORPUS {
        let Some(mut app) = opened(rel, None, None) else {
            return;
        };
        let a = app.selection.animation.expect("an animation");
        let data = app.doc.data.clone();
        let anim = &data.animations[a];
        assert!(anim.duration > 0.0, "{rel}: {} moves", anim.name);
        let (msg, _) = app.message.clone().expect("the choice is said");
        let skins = app.session.skins().to_vec();
        let status = last_row(&mut app, 200, 40);
        table.push_str(&format!(
            "{rel}: {} ({:.3} s), skins {skins:?}\n  message: {msg}\n  status: {status}\n",
            anim.name, anim.duration,
        ));
    }
    insta::assert_snapshot!("first_minutes_defaults", table);
}

#[test]
fn mix_and_match_preview_shows_a_whole_character() {
    let Some(mut app) = opened("spine/4.2/mix-and-match-pro.json", None, None) else {
        return;
    };
    app.session.seek_time(0.3);
    // Drawn slots with an attachment: the default skin alone shows almost nothing.
    let shown = |app: &App| {
        app.session
            .skeleton()
            .slots
            .iter()
            .filter(|s| s.attachment.is_some())
            .count()
    };
    let dressed = shown(&app);
    prompt(&mut app, "skin default");
    assert_eq!(app.session.skins(), [] as [String; 0]);
    let bare = shown(&app);
    assert!(dressed > 3 * bare.max(1), "dressed {dressed}, bare {bare}");
}

#[test]
fn command_line_names_pick_and_unknown_names_list_the_choices() {
    let skins = ["skin-base".to_string(), "eyes/violet".to_string()];
    let Some(app) = opened(
        "spine/4.2/mix-and-match-pro.json",
        Some("dance"),
        Some(&skins),
    ) else {
        return;
    };
    assert_eq!(app.session.skins(), skins);
    let Some(path) = common::shared_file("cli", "corpus/spine/4.2/mix-and-match-pro.json") else {
        return;
    };
    // The errors come before any terminal is set up, so they show without a TTY too.
    for (args, want) in [
        (
            vec!["--animation", "fly"],
            "--animation: no animation \"fly\"; the animations are: aware, blink, dance, dress-up, idle, walk",
        ),
        (
            vec!["--skin", "skin-base,nope"],
            "--skin: no skin \"nope\"; the skins are: default, skin-base, accessories/backpack",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
            .arg(&path)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        // Names are checked before the viewer asks for a terminal.
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let Some(mut app) = opened("spine/4.2/mix-and-match-pro.json", None, None) else {
        return;
    };
    let e = bonescope::tui::default_choice::start(&mut app, Some("fly"), None).unwrap_err();
    assert!(e.starts_with("--animation: no animation \"fly\"; the animations are: aware, blink, dance, dress-up, idle, walk"), "{e}");
}

#[test]
fn skin_picker_composes_in_ticking_order() {
    let Some(mut app) = opened("spine/4.2/mix-and-match-pro.json", None, None) else {
        return;
    };
    chars(&mut app, "s");
    assert!(matches!(app.overlay, Overlay::SkinPicker(_)));
    // Untick the default choice, then tick three skins found by filtering.
    app.handle_key(key(KeyCode::Home));
    chars(&mut app, " ");
    for name in ["skin-base", "eyes/violet", "hair/pink"] {
        chars(&mut app, name);
        chars(&mut app, " ");
        for _ in 0..name.len() {
            app.handle_key(key(KeyCode::Backspace));
        }
    }
    let screen = buffer_text(&render_app(&mut app, 100, 30));
    insta::assert_snapshot!("first_minutes_skin_picker", screen);
    app.handle_key(key(KeyCode::Enter));
    assert!(matches!(app.overlay, Overlay::None));
    assert_eq!(
        app.session.skins(),
        ["skin-base", "eyes/violet", "hair/pink"].map(String::from)
    );
    let status = last_row(&mut app, 200, 40);
    assert!(
        status.contains("skin skin-base+eyes/violet+hair/pink")
            && status.contains("skins: default + skin-base + eyes/violet + hair/pink"),
        "{status}"
    );
    // The same through the prompt, with an unknown name refused.
    prompt(&mut app, "skin clothes/dress-green skin-base");
    assert_eq!(
        app.session.skins(),
        ["clothes/dress-green", "skin-base"].map(String::from)
    );
    prompt(&mut app, "skin hat");
    let (msg, err) = app.message.clone().expect("error");
    assert!(
        err && msg.starts_with("no skin \"hat\"; the skins are: default, skin-base"),
        "{msg}"
    );
    assert_eq!(
        app.session.skins().len(),
        2,
        "a refused skin changes nothing"
    );
}

#[test]
fn prompt_refuses_meaningless_values_with_a_reason() {
    let mut app = sample_app("walk", 0.0);
    let before = app.session.inputs().len();
    let mut rows = String::new();
    for line in [
        "mix -1",
        "alpha 0 2",
        "alpha 5 0.5",
        "timescale 0 -1",
        "empty 1 -0.5",
    ] {
        prompt(&mut app, line);
        let (msg, err) = app.message.clone().expect("a message");
        assert!(err, "{line}: {msg}");
        rows.push_str(&format!(":{line}\n{}\n", last_row(&mut app, 160, 40)));
    }
    assert_eq!(
        app.session.inputs().len(),
        before,
        "nothing refused was recorded"
    );
    prompt(&mut app, "alpha 0 0.5");
    assert!(
        !app.message.clone().expect("note").1,
        "a sensible alpha runs"
    );
    insta::assert_snapshot!("first_minutes_prompt_rejections", rows);
}

#[test]
fn prompt_history_and_completion() {
    let mut app = sample_app("walk", 0.0);
    prompt(&mut app, "mix 0.2");
    prompt(&mut app, "set 1 wave");
    chars(&mut app, ":");
    app.handle_key(key(KeyCode::Up));
    let input = |app: &App| match &app.overlay {
        Overlay::Prompt(p) => p.input.clone(),
        _ => panic!("the prompt is open"),
    };
    assert_eq!(input(&app), "set 1 wave");
    app.handle_key(key(KeyCode::Up));
    assert_eq!(input(&app), "mix 0.2");
    app.handle_key(key(KeyCode::Down));
    app.handle_key(key(KeyCode::Down));
    assert_eq!(input(&app), "", "back to the empty line");
    chars(&mut app, "que");
    app.handle_key(key(KeyCode::Tab));
    assert_eq!(input(&app), "queue", "queue and queue-empty share queue");
    chars(&mut app, " 0 wa");
    app.handle_key(key(KeyCode::Tab));
    let screen = buffer_text(&render_app(&mut app, 100, 30));
    let row = screen
        .lines()
        .last()
        .unwrap_or_default()
        .trim_end()
        .to_string();
    assert!(
        row.contains(":queue 0 wa") && row.contains("walk  wave"),
        "{row}"
    );
    assert_eq!(
        input(&app),
        "queue 0 walk",
        "no longer prefix: the first, then cycle"
    );
    app.handle_key(key(KeyCode::Tab));
    assert_eq!(input(&app), "queue 0 wave");
    app.handle_key(key(KeyCode::Tab));
    assert_eq!(input(&app), "queue 0 walk");
    app.handle_key(key(KeyCode::Tab));
    assert_eq!(input(&app), "queue 0 wave");
    app.handle_key(key(KeyCode::Enter));
    assert!(!app.message.clone().expect("note").1);
    chars(&mut app, ":bone ");
    let first_bone = app.doc.data.bones[1].name.clone();
    chars(&mut app, &first_bone[..2]);
    app.handle_key(key(KeyCode::Tab));
    assert!(input(&app).starts_with("bone "), "{}", input(&app));
    app.handle_key(key(KeyCode::Esc));
    insta::assert_snapshot!("first_minutes_prompt_completion", row);
}

#[test]
fn help_lists_the_missing_keys_aligned() {
    let mut app = sample_app("walk", 0.0);
    chars(&mut app, "?");
    let theme = Theme::new(ColorMode::None);
    let text: Vec<String> = bonescope::tui::views::help::lines(&theme)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    let find = |k: &str| {
        text.iter()
            .find(|l| l.trim_start().starts_with(k))
            .unwrap_or_else(|| panic!("{k} in help:\n{}", text.join("\n")))
            .clone()
    };
    // Every key row's description starts in one column.
    let col = |l: &str| {
        let t = l.trim_start();
        let key_end = t.find("  ").expect("two spaces after the keys");
        l.len() - t.len() + key_end + t[key_end..].len() - t[key_end..].trim_start().len()
    };
    let hjkl = find("H J K L");
    let rows = [
        find("* c"),
        find("o  "),
        find("g G"),
        hjkl.clone(),
        find("space"),
    ];
    let cols: Vec<usize> = rows.iter().map(|r| col(r)).collect();
    assert!(cols.windows(2).all(|w| w[0] == w[1]), "{rows:#?}");
    assert!(
        hjkl.contains("H J K L  ") && hjkl.contains("pan left"),
        "{hjkl}"
    );
    insta::assert_snapshot!("first_minutes_help", text.join("\n"));
}

#[test]
fn help_at_80_columns_wraps_instead_of_cutting_and_scrolls_to_its_end_only() {
    let mut app = sample_app("walk", 0.0);
    chars(&mut app, "?");
    let top = buffer_text(&render_app(&mut app, 80, 24));
    // The physics key's description ends in the overlay, continued on the next row.
    assert!(top.contains("(Spine 4.2 physics"), "{top}");
    assert!(top.contains("constraints)"), "{top}");
    // Far past the end, the scroll stops at the last row, and one step up moves at once.
    for _ in 0..40 {
        app.handle_key(key(KeyCode::PageDown));
    }
    let end = buffer_text(&render_app(&mut app, 80, 24));
    assert!(end.contains("select a bone"), "{end}");
    let Overlay::Help { scroll } = app.overlay else {
        panic!("help closed")
    };
    app.handle_key(key(KeyCode::Up));
    let up = buffer_text(&render_app(&mut app, 80, 24));
    assert!(!up.contains("select a bone"), "{up}");
    assert!(matches!(app.overlay, Overlay::Help { scroll: s } if s + 1 == scroll));
}

#[test]
fn pickers_at_80_columns_show_their_whole_title() {
    let mut app = sample_app("walk", 0.0);
    for (open, title) in [
        (
            "a",
            " Animation (type to filter, enter picks, esc cancels) ",
        ),
        ("s", " Skins (space ticks, enter applies, esc cancels) "),
    ] {
        chars(&mut app, open);
        let screen = buffer_text(&render_app(&mut app, 80, 24));
        assert!(screen.contains(title), "{open}: {screen}");
        app.handle_key(key(KeyCode::Esc));
        assert!(matches!(app.overlay, Overlay::None), "{open}");
    }
}

/// A skeleton carrying long loader warnings (built from the sample).
fn warned_app() -> App {
    let mut data =
        bonescope::format::load(bonescope::tui::EMBEDDED_SAMPLE, "lantern-keeper").expect("loads");
    data.load_warnings = vec![
        format!(
            "slot \"lantern-glow\" names attachment \"{}\" that no skin holds; it is not drawn, and every key that shows it shows nothing instead (line 412, column 17)",
            "glow-".repeat(12)
        ),
        "bone \"tail\" has a scale of 0 on both axes; its children are invisible".into(),
    ];
    let doc = Document {
        label: "lantern-keeper.json".into(),
        data: Arc::new(data),
    };
    App::new(doc, Theme::new(ColorMode::None), MarkerKind::Braille).expect("app")
}

#[test]
fn message_log_keeps_every_message_whole() {
    let mut app = warned_app();
    let status = last_row(&mut app, 80, 24);
    assert!(
        status.ends_with("(m)"),
        "a cut message points at the log: {status}"
    );
    app.note("reloaded: 1 animation changed (walk)");
    let long_error = format!(
        "line 1, column 9: expected `,` or `}}` after an object member; {} (the rest of the file was not read)",
        "the exporter stopped mid-write ".repeat(4)
    );
    app.reload_failed(&long_error);
    let (msg, err) = app.message.clone().expect("message");
    assert!(
        err && !msg.starts_with("reloaded"),
        "no stale reload note under the banner: {msg}"
    );
    prompt(&mut app, "alpha 0 2");
    chars(&mut app, "m");
    assert!(matches!(app.overlay, Overlay::MessageLog(_)));
    let screen = buffer_text(&render_app(&mut app, 80, 24));
    // Every word of every message is on screen, across wrapped rows.
    // (the log's inner columns only: the panels beside it are not part of the text).
    let inner: String = screen
        .lines()
        .map(|l| l.chars().skip(4).take(72).collect::<String>() + " ")
        .collect();
    let flat: String = inner.split_whitespace().collect::<Vec<_>>().join(" ");
    for whole in [
        "names attachment",
        "(line 412, column 17)",
        "its children are invisible",
        "(the rest of the file was not read)",
        "alpha is from 0 to 1 (got 2)",
    ] {
        assert!(flat.contains(whole), "{whole} in\n{screen}");
    }
    insta::assert_snapshot!("first_minutes_message_log", screen);
    app.handle_key(key(KeyCode::Up));
    app.handle_key(key(KeyCode::Char('g')));
    assert!(
        matches!(app.overlay, Overlay::MessageLog(_)),
        "scrolling keeps it open"
    );
    app.handle_key(key(KeyCode::Esc));
    assert!(matches!(app.overlay, Overlay::None));
}

/// The viewer in tmux: it opens on spineboy's walk (not the still `aim`), the prompt refuses
/// `alpha 0 2`, Up recalls the last line, Tab completes, and `m` shows the log.
#[test]
fn tmux_opens_on_walk_and_the_prompt_helps() {
    let Some(file) =
        common::shared_file("tmux_first_minutes", "corpus/spine/3.8/spineboy-pro.json")
    else {
        return;
    };
    let Some(t) = Tmux::start(
        "first-minutes",
        120,
        40,
        &shell_wrapped(&format!("'{}'", file.display())),
    ) else {
        return;
    };
    t.wait_for(&["opened on walk (a cycle", "0: #1 walk"]);
    t.keys(&[":"]);
    t.literal("alpha 0 2");
    t.keys(&["Enter"]);
    t.wait_for(&["alpha is from 0 to 1 (got 2)"]);
    t.keys(&[":", "Up"]);
    t.wait_for(&[":alpha 0 2"]);
    t.keys(&["C-u"]);
    t.literal("set 1 sho");
    t.keys(&["Tab"]);
    t.wait_for(&[":set 1 shoot"]);
    t.keys(&["Enter"]);
    t.wait_for(&["set track 1: shoot"]);
    t.keys(&["m"]);
    t.wait_for(&["Messages (", "error: alpha is from 0 to 1 (got 2)"]);
    // Esc alone (an Esc followed at once by q reads as alt+q).
    t.keys(&["Escape"]);
    std::thread::sleep(std::time::Duration::from_millis(400));
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}

/// `--animation` / `--skin` from the command line, and an unknown name refused with the list.
#[test]
fn tmux_command_line_choices() {
    let Some(file) = common::shared_file(
        "tmux_first_minutes",
        "corpus/spine/4.2/mix-and-match-pro.json",
    ) else {
        return;
    };
    let shown = file.display().to_string();
    let Some(t) = Tmux::start(
        "first-minutes-named",
        160,
        40,
        &shell_wrapped(&format!(
            "'{shown}' --animation dance --skin skin-base,hair/pink"
        )),
    ) else {
        return;
    };
    t.wait_for(&["opened on dance"]);
    t.keys(&["s"]);
    t.wait_for(&[
        "default + skin-base + hair/pink",
        "[1] skin-base",
        "[2] hair/pink",
    ]);
    t.keys(&["Escape"]);
    std::thread::sleep(std::time::Duration::from_millis(400));
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
    let Some(t) = Tmux::start(
        "first-minutes-unknown",
        160,
        40,
        &shell_wrapped(&format!("'{shown}' --skin hat")),
    ) else {
        return;
    };
    t.wait_for(&[
        "no skin \"hat\"; the skins are: default, skin-base",
        "EXIT:2",
    ]);
}
