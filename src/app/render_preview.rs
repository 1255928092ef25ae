//! `bonescope render --format text|svg`: the viewer's preview drawn without a terminal, as
//! text (for CI logs and bug reports) or as an SVG picture.
//!
//! Text output is a caption line (file, animation, skins, time; the frame with `--frames`)
//! and the picture under it, without the viewer's panel chrome (border, title, footer).

use crate::cli::render::{RenderArgs, RenderFormat, parse_frames, parse_size};
use crate::cli::{CliError, file_name, load_armature, write_stdout};
use crate::text::sanitize;
use crate::tui::app::App;
use crate::tui::offscreen::{PanelScene, buffer_text, render_preview_bare};
use crate::tui::theme::{ColorMode, Theme};
use crate::tui::views::MarkerKind;
use crate::tui::views::preview::PreviewView;
use std::sync::Arc;

/// An app on `args.file`, opened as the viewer opens it (or on the named animation and
/// skins), paused at time 0.
fn open(args: &RenderArgs, marker: MarkerKind) -> Result<App, CliError> {
    let data = load_armature(&args.file, args.armature.as_deref())?;
    let label = file_name(&args.file);
    let mut app = App::open(
        label,
        vec![Arc::clone(&data)],
        Theme::new(ColorMode::None),
        marker,
    )
    .map_err(CliError)?;
    // Where the viewer opens: the named animation and skins, else the same default choice.
    let skins = (!args.skin.is_empty()).then_some(args.skin.as_slice());
    crate::tui::default_choice::start(&mut app, args.animation.as_deref(), skins).map_err(|e| {
        CliError(format!(
            "{}: {e}",
            sanitize(&args.file.display().to_string())
        ))
    })?;
    Ok(app)
}

/// The caption above a text picture: `FILE | ANIMATION | skin SKINS | t=T` (and
/// ` | frame N`), ASCII separators so that `--marker ascii` output stays ASCII.
pub fn caption(file: &str, app: &App, frame: Option<u64>) -> String {
    let animation = app
        .selection
        .animation
        .and_then(|a| app.doc.data.animations.get(a))
        .map_or("setup pose", |a| a.name.as_str());
    let skins = app.session.skins();
    let skins = if skins.is_empty() {
        "skin default".to_string()
    } else {
        format!("skin {}", skins.join("+"))
    };
    let mut text = format!(
        "{file} | {animation} | {skins} | t={:.4}",
        app.session.time()
    );
    if let Some(f) = frame {
        text.push_str(&format!(" | frame {f}"));
    }
    sanitize(&text).into_owned()
}

/// The text picture of `app`'s preview under its caption, `height` lines in all, trailing
/// spaces removed.
fn text_frame(app: &App, caption: &str, width: u16, height: u16) -> String {
    let mut preview = PreviewView::default();
    let rows = height.saturating_sub(1).max(1);
    let buf = render_preview_bare(&mut preview, &PanelScene::of(app), width, rows);
    // The caption is never cut: every field matters in a log.
    let mut out = format!("{caption}\n");
    for l in buffer_text(&buf).lines() {
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

/// Runs `render --format text|svg`.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    let (width, height) = parse_size(args.size.as_deref().unwrap_or("80x24")).map_err(CliError)?;
    let frames = args
        .frames
        .as_deref()
        .map(parse_frames)
        .transpose()
        .map_err(CliError)?;
    if let Some(t) = args.time
        && !t.is_finite()
    {
        return Err(CliError(format!("--time: {t} is not a finite time")));
    }
    let marker = super::marker_kind(args.marker);
    let mut app = open(args, marker)?;
    // A long seek on a big rig is refused up front rather than running for hours.
    let last = match &frames {
        Some(range) => range.end.saturating_sub(1),
        None => {
            crate::session::frame_index(args.time.unwrap_or(0.0).max(0.0), app.session.fps()) as u64
        }
    };
    app.session
        .set_seek_limit(Some(crate::session::seek_work_limit()));
    app.session
        .check_seek(last.saturating_add(1))
        .map_err(|e| CliError(e.to_string()))?;
    match (args.format, frames) {
        (RenderFormat::Svg, Some(_)) => Err(CliError(
            "--format svg draws one pose: use --time instead of --frames".into(),
        )),
        (RenderFormat::Png | RenderFormat::Gif | RenderFormat::Apng, _) => {
            crate::cli::render_image::run(args)
        }
        (RenderFormat::Svg, None) => {
            app.session.seek_time(args.time.unwrap_or(0.0));
            let title = format!(
                "{} {} t={}",
                file_name(&args.file),
                app.selection
                    .animation
                    .and_then(|a| app.doc.data.animations.get(a))
                    .map_or("setup pose", |a| a.name.as_str()),
                args.time.unwrap_or(0.0)
            );
            let svg = crate::tui::views::preview::svg::pose_svg(
                app.session.skeleton(),
                app.selection.animation,
                &title,
            );
            write_stdout(svg.as_bytes())
        }
        (RenderFormat::Text, None) => {
            app.session.seek_time(args.time.unwrap_or(0.0));
            let caption = caption(&file_name(&args.file), &app, None);
            write_stdout(text_frame(&app, &caption, width, height).as_bytes())
        }
        (RenderFormat::Text, Some(range)) => {
            let mut out = String::new();
            let file = file_name(&args.file);
            for f in range {
                app.session.seek_frame(f);
                let caption = caption(&file, &app, Some(f));
                out.push_str(&text_frame(&app, &caption, width, height));
                if out.len() > 1 << 20 {
                    write_stdout(out.as_bytes())?;
                    out.clear();
                }
            }
            write_stdout(out.as_bytes())
        }
    }
}
