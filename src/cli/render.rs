//! `bonescope render`: a pose drawn without a terminal, as the preview's text (for CI logs
//! and bug reports) or as an SVG picture.
//!
//! Text output is a caption line (file, animation, skins, time; the frame with `--frames`)
//! and the picture under it, without the viewer's panel chrome (border, title, footer).

use super::{CliError, MarkerArg};
use crate::text::sanitize;
use std::path::PathBuf;

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
    /// One textured frame as PNG, drawn from the atlas pages beside the export (see --atlas).
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

/// Runs `render`: images here, the text and SVG pictures by the viewer's preview (`ui`).
pub fn run(args: &RenderArgs, ui: &dyn super::Interactive) -> Result<(), CliError> {
    if args.format.is_image() {
        super::render_image::run(args)
    } else {
        ui.render_preview(args)
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
