//! The status bar: play state, animation, time, frame, speed, loop, file and format, the
//! runtime version whose rules play it, the physics mode (skeletons with physics
//! constraints), and the latest message. Segments drop out by priority when the terminal is narrow.

use crate::text::sanitize;
use crate::tui::app::App;
use crate::tui::widgets::{fit, width};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// One status segment: its priority (lower = kept longer), its text, and a shorter text
/// used before the segment is dropped.
struct Seg {
    prio: u8,
    text: String,
    short: Option<String>,
}

impl From<(u8, String)> for Seg {
    fn from((prio, text): (u8, String)) -> Seg {
        Seg {
            prio,
            text,
            short: None,
        }
    }
}

/// The status segments in display order.
fn segments(app: &App) -> Vec<Seg> {
    let data = app.session.data();
    let st = app.session.state();
    let anim = app.selection.animation.and_then(|a| data.animations.get(a));
    let duration = anim.map_or(0.0, |a| a.duration);
    let fps = app.session.fps();
    // Following: the followed track's chain (`walk <- idle 56%`); pinned: the pinned name.
    let shown = match (
        app.pinned,
        crate::session::report::chain_brief(st, app.track),
    ) {
        (false, Some(chain)) => format!("{}: {chain}", app.track),
        _ => {
            let name = anim.map_or("(no animation)".into(), |a| sanitize(&a.name).into_owned());
            if app.pinned {
                format!("pin {name}")
            } else {
                name
            }
        }
    };
    let at = app.playhead();
    // The shown animation's time, in seconds and in its own frames; the short form keeps
    // the seconds when a message needs the room.
    let time = Seg {
        prio: 2,
        text: if duration > 0.0 {
            format!(
                "t {at:.3}/{duration:.3}s ({}/{})",
                crate::session::frame_index(at, fps) as u64,
                (duration * fps).round() as u64
            )
        } else {
            format!("t {at:.3}/{duration:.3}s")
        },
        short: Some(format!("t {at:.3}")),
    };
    let play = if app.playing { "▶ play" } else { "⏸ pause" };
    let mut segs: Vec<Seg> = vec![
        Seg::from((0, play.to_string())),
        Seg::from((1, shown)),
        time,
        Seg::from((
            4,
            format!("#{} {:.3}s", app.session.frame(), app.session.time()),
        )),
        Seg::from((5, format!("{}×", app.speed))),
        Seg::from((6, if app.looping { "loop" } else { "once" }.to_string())),
        Seg::from((3, sanitize(&app.doc.label).into_owned())),
    ];
    // Attached to a game: following or paused, the client, the verdict.
    if let Some(live) = crate::tui::live::segments(app) {
        segs.remove(0);
        for (i, seg) in live.into_iter().enumerate() {
            segs.insert(i, Seg::from(seg));
        }
    }
    // The runtime whose rules play the file; one segment when the export's own version
    // already names it ("Spine 4.2.22" for the 4.2 rules).
    let exported = format!(
        "{} {}",
        sanitize(&data.source.format),
        sanitize(&data.source.version)
    );
    let rules = data.rules.label();
    if exported.starts_with(rules) {
        segs.push(Seg::from((4, exported)));
    } else {
        segs.push(Seg::from((7, exported)));
        segs.push(Seg::from((4, rules.to_string())));
    }
    // A file with several skeletons: which one shows, and the key that lists the others.
    if app.armatures.len() > 1 {
        let at = app
            .armatures
            .iter()
            .position(|a| std::sync::Arc::ptr_eq(a, &app.doc.data))
            .map_or(String::new(), |i| format!("{}/", i + 1));
        segs.push(Seg::from((
            3,
            format!(
                "armature {} {at}{} (A)",
                sanitize(&data.name),
                app.armatures.len()
            ),
        )));
    }
    if !app.session.skins().is_empty() {
        segs.push(Seg::from((
            6,
            format!("skin {}", sanitize(&app.session.skins().join("+"))),
        )));
    }
    segs.push(Seg::from((8, "? help".to_string())));
    if !data.physics_constraints.is_empty() {
        let mode = crate::session::physics_name(app.session.physics());
        segs.insert(2, Seg::from((2, format!("physics {mode}"))));
    }
    if app.range != (None, None) {
        let show = |f: Option<u64>| f.map_or("-".to_string(), |f| f.to_string());
        segs.insert(
            4,
            Seg::from((
                5,
                format!("in {} out {}", show(app.range.0), show(app.range.1)),
            )),
        );
    }
    segs
}

/// The status text for a width (without the message).
pub fn text(app: &App, w: usize, reserve: usize) -> String {
    let mut segs = segments(app);
    let sep = " │ ";
    let mut keep = vec![true; segs.len()];
    let total = |segs: &[Seg], keep: &[bool]| -> usize {
        let parts: Vec<usize> = segs
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(s, _)| width(&s.text))
            .collect();
        // Each separator " │ " is 3 cells; one space pads each end.
        parts.iter().sum::<usize>() + 3 * parts.len().saturating_sub(1) + 2
    };
    // Drop the least important segments until the rest fits. The message's reserve never
    // costs the time and physics segments (priority 2) more than their short forms: they go
    // only when they do not fit the bar on their own, and the message is then cut short.
    let mut order: Vec<usize> = (0..segs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(segs[i].prio));
    for i in order {
        if total(&segs, &keep) + reserve <= w {
            break;
        }
        if segs[i].prio > 2 {
            keep[i] = false;
        } else if segs[i].prio == 2 {
            if let Some(short) = segs[i].short.take() {
                segs[i].text = short;
            }
            if total(&segs, &keep) > w {
                keep[i] = false;
            }
        }
    }
    let parts: Vec<&str> = segs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(s, _)| s.text.as_str())
        .collect();
    format!(" {} ", parts.join(sep))
}

/// Draws the status bar, with the latest message on its right when there is room (the
/// message takes the room of less important segments).
pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let w = area.width as usize;
    let msg = app
        .message
        .as_ref()
        .map(|(m, e)| (sanitize(m).into_owned(), *e));
    let reserve = msg.as_ref().map_or(0, |(m, _)| width(m).min(w / 2) + 1);
    let status = text(app, w, reserve);
    let mut spans = vec![Span::styled(fit(&status, w), app.theme.selected())];
    if let Some((m, is_error)) = msg {
        let room = w.saturating_sub(width(&status) + 1);
        if room >= 6 {
            let style = if is_error {
                app.theme.error()
            } else {
                app.theme.highlight()
            };
            spans.push(Span::raw(" "));
            // A message cut short points at the log that keeps it whole.
            let shown = if width(&m) > room && room > 12 {
                format!("{} (m)", fit(&m, room - 4))
            } else {
                fit(&m, room)
            };
            spans.push(Span::styled(shown, style));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

#[cfg(test)]
mod tests {
    use crate::tui::offscreen::{buffer_text, render_app, sample_app};

    #[test]
    fn an_error_message_at_80_columns_keeps_the_time() {
        let mut app = sample_app("walk", 0.5);
        app.message = Some((crate::tui::app::RELOAD_FAILED_NOTE.into(), true));
        let screen = buffer_text(&render_app(&mut app, 80, 24));
        let bar = screen.lines().last().unwrap_or_default();
        assert!(bar.contains("t 0.500"), "{bar}");
        // Whole, not cut into a hint that no longer reads.
        assert!(bar.contains("reload failed (m: details)"), "{bar}");
    }

    #[test]
    fn a_note_gives_the_duration_back_at_the_next_key() {
        use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let mut app = sample_app("walk", 0.5);
        app.note("opened on walk (a cycle), the most keyed of four animations");
        let bar = |app: &mut crate::tui::app::App| {
            let screen = buffer_text(&render_app(app, 80, 24));
            screen.lines().last().unwrap_or_default().to_string()
        };
        let first = bar(&mut app);
        assert!(first.contains("opened on walk"), "{first}");
        assert!(
            !first.contains("/1.000s"),
            "the note takes the room: {first}"
        );
        app.handle_key(KeyEvent::new(KeyCode::Right, KeyModifiers::NONE));
        let after = bar(&mut app);
        assert!(!after.contains("opened on"), "{after}");
        assert!(after.contains("/1.000s"), "the duration is back: {after}");
        // An error stays until something replaces it.
        app.message = Some((crate::tui::app::RELOAD_FAILED_NOTE.into(), true));
        app.handle_key(KeyEvent::new(KeyCode::Right, KeyModifiers::NONE));
        assert!(bar(&mut app).contains("reload failed"));
    }

    /// Issue 28.6: a file with several skeletons says which one shows and the key that
    /// lists the others, at 80 columns too.
    #[test]
    fn several_armatures_are_said_in_the_status_line() {
        let Some(bytes) = crate::view_defaults::tests::corpus_bytes("dragonbones/4.5/Knight.json")
        else {
            return;
        };
        let mut app = crate::tui::offscreen::file_app(&bytes, "Knight.json", 0.0).expect("opens");
        app.message = None;
        let screen = buffer_text(&render_app(&mut app, 80, 24));
        let bar = screen.lines().last().unwrap_or_default();
        assert!(bar.contains("armature knight 2/8 (A)"), "{bar}");
        // A one-skeleton file says nothing of armatures.
        let mut one = sample_app("walk", 0.0);
        one.message = None;
        let screen = buffer_text(&render_app(&mut one, 80, 24));
        assert!(
            !screen
                .lines()
                .last()
                .unwrap_or_default()
                .contains("armature")
        );
    }
}
