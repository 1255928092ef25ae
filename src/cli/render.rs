//! `bonescope render`: a pose drawn without a terminal, as the preview's text (for CI logs
//! and bug reports) or as an SVG picture.
//!
//! Text output is a caption line (file, animation, skins, time; the frame with `--frames`)
//! and the picture under it, without the viewer's panel chrome (border, title, footer).

use super::{CliError, MarkerArg, load_armature, write_stdout};
use crate::text::sanitize;
use crate::tui::app::App;
use crate::tui::offscreen::{PanelScene, buffer_text, render_preview_bare};
use crate::tui::theme::{ColorMode, Theme};
use crate::tui::views::MarkerKind;
use crate::tui::views::preview::PreviewView;
use std::path::PathBuf;
use std::sync::Arc;

/// Largest text picture (cells per side).
const MAX_SIZE: u16 = 1000;
/// Most frames one `--frames` range prints.
const MAX_FRAMES: u64 = 10_000;

/// What `render` draws.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderFormat {
    /// The preview panel as text (see --marker).
    Text,
    /// An SVG document: one group per layer (bones, regions, meshes, ...).
    Svg,
    /// One textured frame as PNG (see `render_image`).
    Png,
    /// The animation as a GIF.
    Gif,
    /// The animation as an animated PNG.
    Apng,
}

/// Options of `bonescope render`.
#[derive(clap::Args, Debug, Clone)]
pub struct RenderArgs {
    /// The skeleton file.
    pub file: PathBuf,
    /// The animation to play on track 0 (default: the first; none when the file has none).
    #[arg(long)]
    pub animation: Option<String>,
    /// The time to show, in seconds (default 0).
    #[arg(long, conflicts_with = "frames", allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Frames to print, at the skeleton's frame rate: `N`, `A..B` (B excluded) or `A..=B`.
    #[arg(long)]
    pub frames: Option<String>,
    /// Size: text in cells (default 80x24), images in pixels (default 256x256), WIDTHxHEIGHT.
    #[arg(long)]
    pub size: Option<String>,
    /// Text marker: braille (default), octant, sextant, halfblock or ascii.
    #[arg(long, value_enum, default_value_t = MarkerArg::Braille)]
    pub marker: MarkerArg,
    /// Output: text (default), svg, png, gif or apng.
    #[arg(long, value_enum, default_value_t = RenderFormat::Text)]
    pub format: RenderFormat,
    /// Skins to combine (comma separated); default: the skin the viewer opens with.
    #[arg(long, value_delimiter = ',')]
    pub skin: Vec<String>,
    /// The armature to draw, by name (DragonBones files hold several); default the first.
    #[arg(long)]
    pub armature: Option<String>,
    /// Flags of png, gif and apng.
    #[command(flatten)]
    pub image: Box<super::render_image::ImageArgs>,
}

/// Parses `80x24`.
pub fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("--size {}: expected WIDTHxHEIGHT", sanitize(s)))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<u16>()
            .ok()
            .filter(|n| (4..=MAX_SIZE).contains(n))
            .ok_or_else(|| {
                format!(
                    "--size {}: each side must be 4 to {MAX_SIZE} cells",
                    sanitize(s)
                )
            })
    };
    Ok((parse(w)?, parse(h)?))
}

/// Parses a frame range: `N`, `A..B` or `A..=B` (frames `A` up to, not including, `B`).
pub fn parse_frames(s: &str) -> Result<std::ops::Range<u64>, String> {
    let bad = || {
        format!(
            "--frames {}: expected N, A..B or A..=B (frame numbers)",
            sanitize(s)
        )
    };
    let num = |v: &str| v.trim().parse::<u64>().map_err(|_| bad());
    let range = if let Some((a, b)) = s.split_once("..=") {
        num(a)?..num(b)?.checked_add(1).ok_or_else(bad)?
    } else if let Some((a, b)) = s.split_once("..") {
        num(a)?..num(b)?
    } else {
        let n = num(s)?;
        n..n.checked_add(1).ok_or_else(bad)?
    };
    if range.is_empty() {
        return Err(format!("--frames {}: the range is empty", sanitize(s)));
    }
    if range.end - range.start > MAX_FRAMES {
        return Err(format!(
            "--frames {}: at most {MAX_FRAMES} frames at once",
            sanitize(s)
        ));
    }
    Ok(range)
}

/// An app on `args.file`, opened as the viewer opens it (or on the named animation and
/// skins), paused at time 0.
fn open(args: &RenderArgs, marker: MarkerKind) -> Result<App, CliError> {
    let data = load_armature(&args.file, args.armature.as_deref())?;
    let label = super::file_name(&args.file);
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

/// Runs `render`.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    if args.format.is_image() {
        return super::render_image::run(args);
    }
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
    let marker = args.marker.kind();
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
            super::render_image::run(args)
        }
        (RenderFormat::Svg, None) => {
            app.session.seek_time(args.time.unwrap_or(0.0));
            let title = format!(
                "{} {} t={}",
                super::file_name(&args.file),
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
            let caption = caption(&super::file_name(&args.file), &app, None);
            write_stdout(text_frame(&app, &caption, width, height).as_bytes())
        }
        (RenderFormat::Text, Some(range)) => {
            let mut out = String::new();
            let file = super::file_name(&args.file);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_frame_ranges_parse() {
        assert_eq!(parse_size("80x24"), Ok((80, 24)));
        assert!(parse_size("80").is_err());
        assert!(parse_size("0x24").is_err());
        assert!(parse_size("80x99999").is_err());
        assert_eq!(parse_frames("3"), Ok(3..4));
        assert_eq!(parse_frames("0..10"), Ok(0..10));
        assert_eq!(parse_frames("2..=4"), Ok(2..5));
        assert!(parse_frames("5..5").is_err());
        assert!(parse_frames("a..b").is_err());
        assert!(parse_frames("0..99999999").is_err());
    }
}
