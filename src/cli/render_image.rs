//! `bonescope render --format png | gif | apng`: textured frames drawn by [`crate::raster`].
//!
//! - `png`: one frame (`--time`), RGB (opaque background) or RGBA (`--background
//!   transparent`), sRGB.
//! - `gif`: the animation at `--fps` (the whole animation, or `--frames A..B` at that rate);
//!   each frame gets its own 256-colour palette (NeuQuant), delays in 1/100 s rounded.
//! - `apng`: the same frames as an animated PNG (delay `1/fps` exactly).
//!
//! Posing is the render oracle's: setup pose, the animation applied at the time with alpha 1
//! (looping when the time is past its end), world transforms. `--physics update` (default)
//! warms physics up by stepping from time 0 at `--fps`; `--physics none` leaves physics
//! constraints out (as the oracle). Skins and animation default to the viewer's opening
//! choice (`crate::view_defaults`); `--setup-pose` draws no animation.
//! The viewport defaults to the setup-pose bounds padded by 5% (`png`), joined with every
//! frame's bounds for animations.

use super::render::{RenderArgs, RenderFormat, parse_frames};
use super::{CliError, load_armature, write_stdout};
use crate::core::animation::{Animation, MixBlend, MixDirection};
use crate::core::skeleton::{Physics, Skeleton};
use crate::format::atlas::Textures;
use crate::format::atlas::locate::find_atlas;
use crate::output_file::{OutputOptions, check_output, write_output};
use crate::raster::{Background, Image, RenderOptions, Viewport, default_viewport, draw};
use crate::text::sanitize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Most frames one animation export draws.
const MAX_FRAMES: usize = 10_000;
/// Most physics steps of a warm-up.
const MAX_WARMUP_STEPS: u64 = 1_000_000;

/// Flags of the image formats (ignored by `text` and `svg`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ImageArgs {
    /// World rectangle to show (y up): x,y,width,height. Default: the pose's bounds + 5%.
    #[arg(long, allow_hyphen_values = true)]
    pub viewport: Option<String>,
    /// Background: #rrggbb (default #202020) or transparent (straight-alpha RGBA).
    #[arg(long)]
    pub background: Option<String>,
    /// The atlas (.atlas or DragonBones _tex.json); default: found beside the file.
    #[arg(long)]
    pub atlas: Option<PathBuf>,
    /// Frames per second of gif / apng (and of the physics warm-up); default 30.
    #[arg(long)]
    pub fps: Option<f64>,
    /// How many times gif / apng play (0 = forever, the default).
    #[arg(long, default_value_t = 0)]
    pub loop_count: u16,
    /// Draw the setup pose (no animation).
    #[arg(long, conflicts_with = "animation")]
    pub setup_pose: bool,
    /// Physics: update (warm up from time 0, default) or none.
    #[arg(long, value_parser = ["update", "none"], default_value = "update")]
    pub physics: String,
    /// Write every animation into this folder, one file each (NAME.png / .gif / .apng).
    #[arg(long, conflicts_with = "animation")]
    pub all_animations: Option<PathBuf>,
    /// Output file (default: stdout, never a terminal).
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
}

impl RenderFormat {
    /// True for png, gif and apng.
    pub fn is_image(self) -> bool {
        matches!(
            self,
            RenderFormat::Png | RenderFormat::Gif | RenderFormat::Apng
        )
    }

    fn extension(self) -> &'static str {
        match self {
            RenderFormat::Gif => "gif",
            RenderFormat::Apng => "apng",
            _ => "png",
        }
    }
}

/// Parses `640x480` (pixels, 1 to 8192 each).
pub fn parse_pixel_size(s: &str) -> Result<(u32, u32), String> {
    let max = crate::raster::draw::MAX_SIDE;
    let bad = || {
        format!(
            "--size {}: expected WIDTHxHEIGHT, 1 to {max} pixels each",
            sanitize(s)
        )
    };
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let n = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(bad)
    };
    Ok((n(w)?, n(h)?))
}

/// Parses `x,y,w,h` (finite, positive width and height).
pub fn parse_viewport(s: &str) -> Result<Viewport, String> {
    let v: Option<Vec<f64>> = s.split(',').map(|p| p.trim().parse().ok()).collect();
    match v.as_deref() {
        Some(&[x, y, w, h]) if [x, y, w, h].iter().all(|v| v.is_finite()) && w > 0.0 && h > 0.0 => {
            Ok(Viewport { x, y, w, h })
        }
        _ => Err(format!(
            "--viewport {}: expected x,y,width,height (numbers, width and height > 0)",
            sanitize(s)
        )),
    }
}

/// Parses `#rrggbb` or `transparent`.
pub fn parse_background(s: &str) -> Result<Background, String> {
    if s == "transparent" {
        return Ok(Background::Transparent);
    }
    let hex = s.strip_prefix('#').unwrap_or(s);
    let c = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
    };
    match (hex.len(), c(0), c(2), c(4)) {
        (6, Some(r), Some(g), Some(b)) => Ok(Background::Opaque([r, g, b])),
        _ => Err(format!(
            "--background {}: expected #rrggbb or transparent",
            sanitize(s)
        )),
    }
}

/// Poses a skeleton at given times, as the oracle (physics none) or warming physics up.
struct Poser {
    skeleton: Skeleton,
    physics: bool,
    fps: f64,
    /// Warm-up: the step reached (time = step / fps).
    step: u64,
}

impl Poser {
    fn new(skeleton: Skeleton, physics: bool, fps: f64) -> Poser {
        let mut p = Poser {
            skeleton,
            physics,
            fps,
            step: 0,
        };
        p.reset();
        p
    }

    fn reset(&mut self) {
        self.skeleton.time = 0.0;
        self.skeleton.set_to_setup_pose();
        self.skeleton.update_world_transform_with(Physics::Reset);
        self.step = 0;
    }

    fn apply(&mut self, anim: Option<&Animation>, last: f64, t: f64) {
        let sk = &mut self.skeleton;
        sk.set_to_setup_pose();
        if let Some(a) = anim {
            a.apply(
                sk,
                last,
                t,
                t > a.duration,
                None,
                1.0,
                MixBlend::Setup,
                MixDirection::In,
            );
        }
    }

    fn pose(&mut self, anim: Option<&Animation>, t: f64) -> &Skeleton {
        if !self.physics {
            self.apply(anim, -1.0, t);
            self.skeleton.update_world_transform_with(Physics::None);
            return &self.skeleton;
        }
        let target = ((t.max(0.0) * self.fps).round() as u64).min(MAX_WARMUP_STEPS);
        if target < self.step {
            self.reset();
        }
        let dt = 1.0 / self.fps;
        while self.step < target {
            self.step += 1;
            self.skeleton.update(dt);
            let now = self.step as f64 * dt;
            self.apply(anim, -1.0, now.min(t));
            self.skeleton.update_world_transform_with(Physics::Update);
        }
        self.apply(anim, -1.0, t);
        self.skeleton.update_world_transform_with(Physics::Pose);
        &self.skeleton
    }
}

/// Runs `render` for an image format.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    let img = &args.image;
    let shown = sanitize(&args.file.display().to_string()).into_owned();
    let (width, height) =
        parse_pixel_size(args.size.as_deref().unwrap_or("256x256")).map_err(CliError)?;
    let viewport = img
        .viewport
        .as_deref()
        .map(parse_viewport)
        .transpose()
        .map_err(CliError)?;
    let background =
        parse_background(img.background.as_deref().unwrap_or("#202020")).map_err(CliError)?;
    let fps = img.fps.unwrap_or(30.0);
    if !(fps.is_finite() && (1.0..=1000.0).contains(&fps)) {
        return Err(CliError(format!("--fps {fps}: expected 1 to 1000")));
    }
    if let Some(t) = args.time
        && !t.is_finite()
    {
        return Err(CliError(format!("--time: {t} is not a finite time")));
    }
    let outputs = OutputOptions {
        protect: Some(&args.file),
        overwrite: true,
        special_in_place: true,
    };
    if let Some(out) = &img.output {
        check_output(out, &outputs).map_err(|e| CliError(e.to_string()))?;
    } else if img.all_animations.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return Err(CliError(format!(
            "{shown}: refusing to write a {} image to a terminal (use -o FILE or a pipe)",
            args.format.extension()
        )));
    }
    let data = load_armature(&args.file, args.armature.as_deref())?;
    let textures = load_textures(&args.file, img.atlas.as_deref(), &data)?;
    let mut skeleton = Skeleton::new(Arc::clone(&data));
    let skins = if args.skin.is_empty() {
        crate::view_defaults::default_skins(&data)
    } else {
        crate::view_defaults::skins_by_name(&data, &args.skin)
            .map_err(|e| CliError(format!("--skin: {e}")))?
    };
    let names: Vec<&str> = skins.iter().map(String::as_str).collect();
    skeleton
        .set_skins_by_name(&names)
        .map_err(|e| CliError(e.to_string()))?;
    let mut poser = Poser::new(skeleton, img.physics == "update", fps);
    let job = Job {
        args,
        textures: &textures,
        size: (width, height),
        viewport,
        background,
        fps,
    };
    if let Some(dir) = &img.all_animations {
        if !dir.is_dir() {
            return Err(CliError(format!(
                "{}: not a folder",
                sanitize(&dir.display().to_string())
            )));
        }
        for (i, a) in data.animations.iter().enumerate() {
            let bytes = job.encode(&mut poser, Some(i))?;
            let name: String = a
                .name
                .chars()
                .map(|c| if c == '/' || c == '\\' { '_' } else { c })
                .collect();
            let out = dir.join(format!("{name}.{}", args.format.extension()));
            write_output(&out, &bytes, &outputs).map_err(|e| CliError(e.to_string()))?;
        }
        return Ok(());
    }
    let anim = if img.setup_pose {
        None
    } else if let Some(name) = &args.animation {
        Some(
            crate::view_defaults::animation_by_name(&data, name)
                .map_err(|e| CliError(format!("--animation: {e}")))?,
        )
    } else {
        crate::view_defaults::default_animation(&data).map(|(i, _)| i)
    };
    let bytes = job.encode(&mut poser, anim)?;
    for m in textures.problems.iter() {
        eprintln!("bonescope: {m}");
    }
    match &img.output {
        None => write_stdout(&bytes),
        Some(out) => write_output(out, &bytes, &outputs).map_err(|e| CliError(e.to_string())),
    }
}

/// The textures for `file`: `--atlas`, else the rule of [`find_atlas`]; none found is an
/// empty set (attachments are reported missing).
fn load_textures(
    file: &Path,
    atlas: Option<&Path>,
    data: &crate::core::model::SkeletonData,
) -> Result<Textures, CliError> {
    let path = match atlas {
        Some(p) => p.to_path_buf(),
        None => match find_atlas(file, data) {
            Some(p) => p,
            None => {
                eprintln!(
                    "bonescope: {}: no atlas found beside it (use --atlas PATH); drawing without textures",
                    sanitize(&file.display().to_string())
                );
                return Ok(Textures::default());
            }
        },
    };
    Textures::load(&path).map_err(|e| CliError(e.to_string()))
}

/// One export's settings.
struct Job<'a> {
    args: &'a RenderArgs,
    textures: &'a Textures,
    size: (u32, u32),
    viewport: Option<Viewport>,
    background: Background,
    fps: f64,
}

impl Job<'_> {
    /// The times of the frames of animation `anim` (one frame for png).
    fn times(&self, anim: Option<&Animation>) -> Result<Vec<f64>, CliError> {
        if self.args.format == RenderFormat::Png {
            return Ok(vec![self.args.time.unwrap_or(0.0)]);
        }
        if let Some(range) = self
            .args
            .frames
            .as_deref()
            .map(parse_frames)
            .transpose()
            .map_err(CliError)?
        {
            return Ok(range.map(|f| f as f64 / self.fps).collect());
        }
        if let Some(t) = self.args.time {
            return Ok(vec![t]);
        }
        let duration = anim.map_or(0.0, |a| a.duration);
        let n = ((duration * self.fps).round() as usize).clamp(1, MAX_FRAMES);
        Ok((0..n).map(|i| i as f64 / self.fps).collect())
    }

    /// Refuses an export whose posing (physics warm-up steps and poses, once more for the
    /// default viewport) is beyond the headless work limit.
    fn check_work(
        &self,
        poser: &Poser,
        data: &crate::core::model::SkeletonData,
        anim: Option<&Animation>,
        times: &[f64],
    ) -> Result<(), CliError> {
        let steps = if poser.physics {
            times
                .iter()
                .map(|t| ((t.max(0.0) * self.fps).round() as u64).min(MAX_WARMUP_STEPS))
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        let passes = if self.viewport.is_none() && self.args.format != RenderFormat::Png {
            2
        } else {
            1
        };
        let frames = steps
            .saturating_add(times.len() as u64)
            .saturating_mul(passes);
        crate::session::work_bound::check(
            || {
                format!(
                    "the {} of {} poses",
                    self.args.format.extension(),
                    anim.map_or("the setup pose".into(), |a| format!(
                        "\"{}\"",
                        sanitize(&a.name)
                    ))
                )
            },
            frames,
            data,
            crate::session::seek_work_limit(),
        )
        .map_err(|e| CliError(e.to_string()))
    }

    fn encode(&self, poser: &mut Poser, anim: Option<usize>) -> Result<Vec<u8>, CliError> {
        let data = Arc::clone(&poser.skeleton.data);
        let anim = anim.map(|i| &data.animations[i]);
        let times = self.times(anim)?;
        self.check_work(poser, &data, anim, &times)?;
        let viewport = match self.viewport {
            Some(v) => v,
            None => {
                // The setup pose joined with every pose drawn: a frame is never cut off.
                let mut v = default_viewport(poser.pose(None, 0.0));
                for &t in &times {
                    v = union(v, default_viewport(poser.pose(anim, t)));
                }
                v.unwrap_or(Viewport {
                    x: -100.0,
                    y: -100.0,
                    w: 200.0,
                    h: 200.0,
                })
            }
        };
        let options = RenderOptions {
            width: self.size.0,
            height: self.size.1,
            viewport,
            background: self.background,
            untextured_bones: true,
        };
        let mut frames = Vec::with_capacity(times.len());
        for &t in &times {
            frames.push(draw(poser.pose(anim, t), self.textures, &options));
        }
        let mut missing: Vec<&String> = frames.iter().flat_map(|f| &f.missing).collect();
        missing.sort();
        missing.dedup();
        if !missing.is_empty() {
            let list: Vec<String> = missing
                .iter()
                .take(8)
                .map(|m| sanitize(m).into_owned())
                .collect();
            eprintln!(
                "bonescope: {} atlas region(s) missing, those attachments are drawn untextured (outlines): {}{}",
                missing.len(),
                list.join(", "),
                if missing.len() > 8 { ", ..." } else { "" }
            );
        }
        let fail = |e: String| CliError(format!("encoding: {e}"));
        match self.args.format {
            RenderFormat::Gif => {
                encode_gif(&frames, self.fps, self.args.image.loop_count).map_err(fail)
            }
            RenderFormat::Apng => {
                encode_apng(&frames, self.fps, self.args.image.loop_count).map_err(fail)
            }
            _ => encode_png(&frames[0]).map_err(fail),
        }
    }
}

fn union(a: Option<Viewport>, b: Option<Viewport>) -> Option<Viewport> {
    match (a, b) {
        (Some(a), Some(b)) => {
            let (x0, y0) = (a.x.min(b.x), a.y.min(b.y));
            let (x1, y1) = ((a.x + a.w).max(b.x + b.w), (a.y + a.h).max(b.y + b.h));
            Some(Viewport {
                x: x0,
                y: y0,
                w: x1 - x0,
                h: y1 - y0,
            })
        }
        (a, b) => a.or(b),
    }
}

/// True when every pixel is opaque.
fn opaque(image: &Image) -> bool {
    image.rgba.chunks_exact(4).all(|p| p[3] == 255)
}

fn rgb(image: &Image) -> Vec<u8> {
    image
        .rgba
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect()
}

/// One frame as a PNG (RGB when opaque, else RGBA), sRGB.
pub fn encode_png(image: &Image) -> Result<Vec<u8>, String> {
    encode(std::slice::from_ref(image), None)
}

/// Frames as an animated PNG, each shown `1/fps` s, played `loops` times (0: forever).
pub fn encode_apng(frames: &[Image], fps: f64, loops: u16) -> Result<Vec<u8>, String> {
    encode(frames, Some((fps, loops)))
}

/// A PNG of `frames` (RGB when all are opaque, else RGBA), sRGB; animated with
/// `(fps, loops)`, else of the first frame alone.
fn encode(frames: &[Image], animation: Option<(f64, u16)>) -> Result<Vec<u8>, String> {
    let first = frames.first().ok_or("no frames")?;
    let opaque = frames.iter().all(opaque);
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, first.width, first.height);
    e.set_color(if opaque {
        png::ColorType::Rgb
    } else {
        png::ColorType::Rgba
    });
    e.set_depth(png::BitDepth::Eight);
    e.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    let shown = match animation {
        Some((fps, loops)) => {
            let n = u32::try_from(frames.len()).map_err(|e| e.to_string())?;
            e.set_animated(n, u32::from(loops))
                .map_err(|e| e.to_string())?;
            let (num, den) = delay_fraction(fps);
            e.set_frame_delay(num, den).map_err(|e| e.to_string())?;
            frames
        }
        None => std::slice::from_ref(first),
    };
    let mut w = e.write_header().map_err(|e| e.to_string())?;
    for f in shown {
        if opaque {
            w.write_image_data(&rgb(f))
        } else {
            w.write_image_data(&f.rgba)
        }
        .map_err(|e| e.to_string())?;
    }
    w.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// `1/fps` as a fraction of u16s.
fn delay_fraction(fps: f64) -> (u16, u16) {
    if fps.fract() == 0.0 && fps <= f64::from(u16::MAX) {
        (1, fps as u16)
    } else {
        (
            1000,
            (fps * 1000.0).round().clamp(1.0, f64::from(u16::MAX)) as u16,
        )
    }
}

/// Frames as a GIF: one palette for the whole animation (NeuQuant trained on a sample of every
/// frame's pixels, so colours do not flicker between frames and no frame pays for its own
/// training), frames mapped to it in parallel, delays `100/fps` hundredths rounded, played
/// `loops` times (0: forever). Transparent pixels (alpha < 128) stay transparent.
pub fn encode_gif(frames: &[Image], fps: f64, loops: u16) -> Result<Vec<u8>, String> {
    let first = frames.first().ok_or("no frames")?;
    let (w, h) = (
        u16::try_from(first.width).map_err(|_| "GIF frames are at most 65535 pixels wide")?,
        u16::try_from(first.height).map_err(|_| "GIF frames are at most 65535 pixels high")?,
    );
    if frames
        .iter()
        .any(|f| f.width != first.width || f.height != first.height)
    {
        return Err("GIF frames differ in size".into());
    }
    let palette = GifPalette::train(frames);
    let indexed = palette.map_frames(frames);
    let mut out = Vec::new();
    {
        let mut e = gif::Encoder::new(&mut out, w, h, &palette.rgb).map_err(|e| e.to_string())?;
        e.set_repeat(if loops == 0 {
            gif::Repeat::Infinite
        } else {
            gif::Repeat::Finite(loops)
        })
        .map_err(|e| e.to_string())?;
        let delay = (100.0 / fps).round().clamp(1.0, 65535.0) as u16;
        for px in indexed {
            let mut frame = gif::Frame::from_indexed_pixels(w, h, px, palette.transparent);
            frame.delay = delay;
            frame.dispose = gif::DisposalMethod::Background;
            e.write_frame(&frame).map_err(|e| e.to_string())?;
        }
    }
    Ok(out)
}

/// Pixels NeuQuant trains on, at most (spread evenly over all frames).
const GIF_SAMPLE_PIXELS: usize = 1 << 17;

/// How colours become palette indices.
enum Quantiser {
    /// The frames have few enough colours: each keeps its own entry.
    Exact(std::collections::HashMap<u32, u8>),
    NeuQuant(color_quant::NeuQuant),
}

/// An animation's GIF palette: its colours, and index 255 for transparency when a frame has
/// transparent pixels.
struct GifPalette {
    quant: Quantiser,
    rgb: Vec<u8>,
    transparent: Option<u8>,
}

/// A pixel's colour as a key (alpha left out).
fn rgb_key(p: &[u8]) -> u32 {
    (u32::from(p[0]) << 16) | (u32::from(p[1]) << 8) | u32::from(p[2])
}

impl GifPalette {
    fn train(frames: &[Image]) -> GifPalette {
        let transparent = frames
            .iter()
            .any(|f| f.rgba.chunks_exact(4).any(|p| p[3] < 128));
        let colors = if transparent { 255 } else { 256 };
        let opaque = || {
            frames
                .iter()
                .flat_map(|f| f.rgba.chunks_exact(4))
                .filter(|p| p[3] >= 128)
        };
        let mut exact = std::collections::HashMap::new();
        let mut rgb = Vec::new();
        for p in opaque() {
            let next = exact.len();
            if next == colors {
                break;
            }
            exact.entry(rgb_key(p)).or_insert_with(|| {
                rgb.extend_from_slice(&p[..3]);
                next as u8
            });
        }
        let fits = exact.len() < colors || opaque().all(|p| exact.contains_key(&rgb_key(p)));
        let quant = if fits {
            Quantiser::Exact(exact)
        } else {
            let total: usize = frames.iter().map(|f| f.rgba.len() / 4).sum();
            // An odd stride, so that the sample does not line up with image columns.
            let stride = (total / GIF_SAMPLE_PIXELS) | 1;
            let mut sample = Vec::with_capacity((total / stride + 1) * 4);
            let all = frames.iter().flat_map(|f| f.rgba.chunks_exact(4));
            for p in all.step_by(stride).filter(|p| p[3] >= 128) {
                sample.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
            // NeuQuant learns from one pixel in `samplefac`: all of a small sample.
            let samplefac = (sample.len() / 4 / 16_384).clamp(1, 10) as i32;
            let quant = color_quant::NeuQuant::new(samplefac, colors, &sample);
            rgb = quant.color_map_rgb();
            Quantiser::NeuQuant(quant)
        };
        rgb.resize(colors * 3, 0);
        if transparent {
            rgb.extend_from_slice(&[0, 0, 0]);
        }
        GifPalette {
            quant,
            rgb,
            transparent: transparent.then_some(255),
        }
    }

    /// Every frame's palette indices, frames shared among the available cores.
    fn map_frames(&self, frames: &[Image]) -> Vec<Vec<u8>> {
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, frames.len().max(1));
        let chunk = frames.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            let handles: Vec<_> = frames
                .chunks(chunk)
                .map(|part| s.spawn(move || part.iter().map(|f| self.map(f)).collect::<Vec<_>>()))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    }

    /// One frame's palette indices, through a small direct-mapped cache of colours (frames
    /// repeat few colours, and NeuQuant's search is the slow part).
    fn map(&self, frame: &Image) -> Vec<u8> {
        const CACHE: usize = 1 << 12;
        let mut cache = vec![(u32::MAX, 0u8); CACHE];
        frame
            .rgba
            .chunks_exact(4)
            .map(|p| {
                if p[3] < 128
                    && let Some(t) = self.transparent
                {
                    return t;
                }
                let key = rgb_key(p);
                let slot = (key.wrapping_mul(0x9e37_79b1) >> 20) as usize % CACHE;
                if cache[slot].0 == key {
                    return cache[slot].1;
                }
                let i = match &self.quant {
                    Quantiser::Exact(m) => m.get(&key).copied().unwrap_or(0),
                    Quantiser::NeuQuant(q) => q.index_of(&[p[0], p[1], p[2], 255]) as u8,
                };
                cache[slot] = (key, i);
                i
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_parse() {
        assert_eq!(parse_pixel_size("640x480"), Ok((640, 480)));
        assert!(parse_pixel_size("0x4").is_err() && parse_pixel_size("99999x4").is_err());
        assert_eq!(
            parse_viewport("-232,-46,581,761"),
            Ok(Viewport {
                x: -232.0,
                y: -46.0,
                w: 581.0,
                h: 761.0
            })
        );
        assert!(parse_viewport("1,2,0,4").is_err() && parse_viewport("1,2,3").is_err());
        assert_eq!(
            parse_background("#ff8000"),
            Ok(Background::Opaque([255, 128, 0]))
        );
        assert_eq!(parse_background("transparent"), Ok(Background::Transparent));
        assert!(parse_background("#ff80").is_err());
    }

    fn image(rgba: Vec<u8>) -> Image {
        Image {
            width: 2,
            height: 1,
            rgba,
            missing: Vec::new(),
        }
    }

    #[test]
    fn png_apng_and_gif_decode_back() {
        let a = image(vec![255, 0, 0, 255, 0, 0, 255, 255]);
        let b = image(vec![0, 255, 0, 255, 0, 0, 0, 0]);
        let png_bytes = encode_png(&a).unwrap();
        let mut r = png::Decoder::new(std::io::Cursor::new(&png_bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        r.next_frame(&mut buf).unwrap();
        assert_eq!(&buf[..6], &[255, 0, 0, 0, 0, 255]);
        let apng = encode_apng(&[a.clone(), b.clone()], 30.0, 0).unwrap();
        let r = png::Decoder::new(std::io::Cursor::new(&apng))
            .read_info()
            .unwrap();
        assert_eq!(r.info().animation_control().map(|c| c.num_frames), Some(2));
        let gif_bytes = encode_gif(&[a, b], 25.0, 0).unwrap();
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut d = opts.read_info(std::io::Cursor::new(gif_bytes)).unwrap();
        let f = d.read_next_frame().unwrap().unwrap();
        assert_eq!(f.delay, 4);
        assert_eq!(&f.buffer[..4], &[255, 0, 0, 255]);
        let f = d.read_next_frame().unwrap().unwrap();
        assert_eq!(f.buffer[7], 0, "transparent stays transparent");
    }

    #[test]
    fn gif_frames_share_one_palette_and_keep_their_colours() {
        // Two frames of gradients (512 colours in all, for 256 palette entries).
        let frame = |shift: u8| Image {
            width: 16,
            height: 16,
            rgba: (0..256u32)
                .flat_map(|i| [(i as u8).wrapping_add(shift), (i / 16 * 16) as u8, 128, 255])
                .collect(),
            missing: Vec::new(),
        };
        let frames = [frame(0), frame(40)];
        let bytes = encode_gif(&frames, 30.0, 0).unwrap();
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut d = opts.read_info(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(d.global_palette().map(|p| p.len()), Some(256 * 3));
        for source in &frames {
            let f = d.read_next_frame().unwrap().unwrap();
            assert!(f.palette.is_none(), "no palette of its own");
            let diffs: Vec<u8> = f
                .buffer
                .iter()
                .zip(&source.rgba)
                .map(|(a, b)| a.abs_diff(*b))
                .collect();
            let worst = diffs.iter().max().copied().unwrap_or(0);
            let mean = diffs.iter().map(|&d| f64::from(d)).sum::<f64>() / diffs.len() as f64;
            assert!(
                worst <= 48 && mean <= 8.0,
                "off by {worst} at worst, {mean} on average"
            );
        }
        assert!(d.read_next_frame().unwrap().is_none());
    }
}
