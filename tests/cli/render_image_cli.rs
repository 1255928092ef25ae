//! `render --format png | gif | apng` on the built-in sample (textured by its own atlas,
//! found beside it): the outputs decode back to the frames asked for, and bad flags are
//! refused with exit status 2 and a message.

use crate::common;

use common::run_with_deadline;
use std::ffi::OsStr;
use std::path::Path;

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/samples/spine/lantern-keeper.json"
);

fn run(args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let os: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    run_with_deadline(&os)
}

#[test]
fn png_is_one_textured_frame() {
    let (code, out, err) = run(&[
        "render", SAMPLE, "--format", "png", "--size", "64x48", "--time", "0.2",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let mut r = png::Decoder::new(std::io::Cursor::new(&out))
        .read_info()
        .expect("a PNG");
    assert_eq!((r.info().width, r.info().height), (64, 48));
    assert_eq!(r.info().color_type, png::ColorType::Rgb);
    let mut buf = vec![0; r.output_buffer_size().expect("size")];
    r.next_frame(&mut buf).expect("pixels");
    // Background #202020 in the corner, something else (the character) somewhere.
    assert_eq!(&buf[..3], &[0x20, 0x20, 0x20]);
    assert!(buf.chunks_exact(3).any(|p| p != [0x20, 0x20, 0x20]));
    assert!(
        !err.contains("missing"),
        "the sample's atlas covers it: {err}"
    );
}

#[test]
fn transparent_png_keeps_alpha() {
    let (code, out, err) = run(&[
        "render",
        SAMPLE,
        "--format",
        "png",
        "--size",
        "32x32",
        "--background",
        "transparent",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let r = png::Decoder::new(std::io::Cursor::new(&out))
        .read_info()
        .expect("a PNG");
    assert_eq!(r.info().color_type, png::ColorType::Rgba);
}

#[test]
fn gif_and_apng_hold_every_frame() {
    let (code, out, err) = run(&[
        "render", SAMPLE, "--format", "gif", "--size", "48x48", "--fps", "10", "--frames", "0..5",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut d = opts.read_info(std::io::Cursor::new(out)).expect("a GIF");
    let mut n = 0;
    while let Some(f) = d.read_next_frame().expect("frame") {
        assert_eq!(f.delay, 10);
        n += 1;
    }
    assert_eq!(n, 5);
    let (code, out, err) = run(&[
        "render", SAMPLE, "--format", "apng", "--size", "48x48", "--fps", "10", "--frames", "0..3",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let r = png::Decoder::new(std::io::Cursor::new(&out))
        .read_info()
        .expect("an APNG");
    assert_eq!(r.info().animation_control().map(|c| c.num_frames), Some(3));
}

#[test]
fn bad_flags_are_refused() {
    for args in [
        &["--viewport", "1,2,0,3"][..],
        &["--background", "red"],
        &["--size", "0x10"],
        &["--atlas", "/nonexistent/x.atlas"],
        &["--fps", "0"],
    ] {
        let mut all = vec!["render", SAMPLE, "--format", "png"];
        all.extend_from_slice(args);
        let (code, _, err) = run(&all);
        assert_ne!(code, Some(0), "{args:?} accepted");
        assert!(
            err.contains("bonescope") || err.contains("error"),
            "{args:?}: {err}"
        );
    }
}

/// The RGBA pixels of a PNG.
fn rgba(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut r = png::Decoder::new(std::io::Cursor::new(png_bytes))
        .read_info()
        .expect("a PNG");
    assert_eq!(r.info().color_type, png::ColorType::Rgba);
    let (w, h) = (r.info().width, r.info().height);
    let mut buf = vec![0; r.output_buffer_size().expect("size")];
    r.next_frame(&mut buf).expect("pixels");
    (w, h, buf)
}

// Issue 28: a PNG of a pose that leaves the setup pose's bounds (spineboy in mid-jump) was
// framed on the setup pose alone and cut the character at the edge. The default framing
// joins the drawn pose: nothing is drawn on the border rows and columns.
#[test]
fn a_png_frames_the_pose_it_draws() {
    let Some(file) = common::shared_file("png framing", "corpus/spine/4.2/spineboy-pro.json")
    else {
        return;
    };
    let file = file.to_str().expect("a UTF-8 path");
    for time in ["0.3", "0.5", "0.7"] {
        let (code, out, err) = run(&[
            "render",
            file,
            "--format",
            "png",
            "--animation",
            "jump",
            "--time",
            time,
            "--size",
            "96x96",
            "--background",
            "transparent",
        ]);
        assert_eq!(code, Some(0), "{err}");
        let (w, h, px) = rgba(&out);
        let alpha = |x: u32, y: u32| px[((y * w + x) * 4 + 3) as usize];
        let border = (0..w)
            .flat_map(|x| [(x, 0), (x, h - 1)])
            .chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]));
        let drawn: Vec<(u32, u32)> = border.filter(|&(x, y)| alpha(x, y) > 0).collect();
        assert!(
            drawn.is_empty(),
            "t={time}: the character touches the edge at {:?}",
            &drawn[..drawn.len().min(5)]
        );
        assert!(
            (0..w * h).any(|i| px[(i * 4 + 3) as usize] > 0),
            "t={time}: something is drawn"
        );
    }
}

/// The RGB pixels of an opaque PNG.
fn rgb(png_bytes: &[u8]) -> (usize, usize, Vec<[u8; 3]>) {
    let mut r = png::Decoder::new(std::io::Cursor::new(png_bytes))
        .read_info()
        .expect("a PNG");
    assert_eq!(r.info().color_type, png::ColorType::Rgb);
    let (w, h) = (r.info().width as usize, r.info().height as usize);
    let mut buf = vec![0; r.output_buffer_size().expect("size")];
    r.next_frame(&mut buf).expect("pixels");
    let px = buf.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
    (w, h, px)
}

/// What was drawn over the default #202020 background: how many pixels, their bounding
/// box (x0, y0, x1, y1 inclusive) and how many of them are on the image's border.
fn drawn(w: usize, h: usize, px: &[[u8; 3]]) -> (usize, [usize; 4], usize) {
    let (mut n, mut border) = (0, 0);
    let mut bb = [usize::MAX, usize::MAX, 0, 0];
    for (i, p) in px.iter().enumerate() {
        if *p == [0x20; 3] {
            continue;
        }
        let (x, y) = (i % w, i / w);
        n += 1;
        bb = [bb[0].min(x), bb[1].min(y), bb[2].max(x), bb[3].max(y)];
        if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
            border += 1;
        }
    }
    (n, bb, border)
}

/// Asserts that a picture shows a figure: at least `min` pixels drawn, spread over at least
/// a third of the image each way, and hardly any on its border (framed, not cut off).
fn assert_shows_a_figure(what: &str, w: usize, h: usize, px: &[[u8; 3]], min: usize) {
    let (n, bb, border) = drawn(w, h, px);
    assert!(n >= min, "{what}: only {n} pixels drawn");
    let (bw, bh) = (bb[2] + 1 - bb[0], bb[3] + 1 - bb[1]);
    assert!(
        bw * 3 >= w && bh * 3 >= h,
        "{what}: drawn within {bb:?} only"
    );
    assert!(bw <= w && bh <= h);
    assert!(border * 50 <= n, "{what}: {border} of {n} on the border");
}

// A file whose atlas cannot be found used to give an empty picture (the background alone):
// every attachment was skipped. Now they are drawn untextured, and with nothing textured
// the bones too.
#[test]
fn a_dragonbones_png_without_an_atlas_shows_the_pose() {
    let Some(file) = common::shared_file(
        "untextured png",
        "corpus/dragonbones/5.x/5.5/mecha_2903_ske.json",
    ) else {
        return;
    };
    let file = file.to_str().expect("a UTF-8 path");
    let (code, out, err) = run(&["render", file, "--format", "png", "--size", "256x256"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("no atlas found"), "{err}");
    assert!(err.contains("drawn untextured"), "{err}");
    let (w, h, px) = rgb(&out);
    assert_eq!((w, h), (256, 256));
    // 35 image markers and the bones.
    assert_shows_a_figure("mecha_2903", w, h, &px, 500);
}

#[test]
fn a_spine_png_without_an_atlas_shows_the_pose() {
    let Some(file) = common::shared_file("untextured png", "corpus/spine/3.7/spineboy-pro.json")
    else {
        return;
    };
    let file = file.to_str().expect("a UTF-8 path");
    let (code, out, err) = run(&["render", file, "--format", "png", "--setup-pose"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("drawn untextured"), "{err}");
    let (w, h, px) = rgb(&out);
    // Regions and meshes are filled: a silhouette, not a few lines.
    assert_shows_a_figure("spineboy 3.7", w, h, &px, w * h / 8);
}

// Regions missing from an atlas that has the others: those are outlined, the rest stay
// textured exactly as with the whole atlas, and no bones are drawn.
#[test]
fn regions_missing_from_the_atlas_are_drawn_untextured_among_textured_ones() {
    const WHAT: &str = "partial atlas";
    let (Some(file), Some(atlas), Some(page)) = (
        common::shared_file(WHAT, "corpus/spine/4.2/spineboy-pro.json"),
        common::shared_file(WHAT, "corpus/spine/4.2/spineboy.atlas"),
        common::shared_file(WHAT, "corpus/spine/4.2/spineboy.png"),
    ) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("bonescope-partial-atlas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(&page, dir.join("spineboy.png")).expect("copy the page");
    // The atlas without two regions: a region is its name line and the indented lines
    // after it.
    let text = std::fs::read_to_string(&atlas).expect("atlas text");
    let cut = ["front-thigh", "torso"];
    let mut kept = String::new();
    let mut skipping = false;
    for line in text.lines() {
        if !line.starts_with(char::is_whitespace) {
            skipping = cut.contains(&line.trim());
        }
        if !skipping {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let partial = dir.join("partial.atlas");
    std::fs::write(&partial, kept).expect("write the atlas");
    let render = |atlas: &Path| {
        let file = file.to_str().expect("a UTF-8 path");
        let atlas = atlas.to_str().expect("a UTF-8 path");
        run(&[
            "render",
            file,
            "--format",
            "png",
            "--setup-pose",
            "--atlas",
            atlas,
        ])
    };
    let (code, whole, err) = render(&atlas);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("missing"), "{err}");
    let (code, part, err) = render(&partial);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("2 atlas region(s) missing, those attachments are drawn untextured")
            && err.contains("front-thigh, torso"),
        "{err}"
    );
    let ((w, h, whole), (_, _, part)) = (rgb(&whole), rgb(&part));
    let differ = whole.iter().zip(&part).filter(|(a, b)| a != b).count();
    let (n, _, _) = drawn(w, h, &whole);
    // The torso and a thigh look different; most of the character is the same.
    assert!(
        differ >= 200 && differ * 3 < n,
        "{differ} of {n} drawn pixels differ"
    );
    // No bones: nothing orange where the textured frame has the background.
    let orange = |p: &[u8; 3]| p[0] > 150 && p[1] < 110 && p[2] < 60;
    let new_orange = whole
        .iter()
        .zip(&part)
        .filter(|(a, b)| **a == [0x20; 3] && orange(b))
        .count();
    assert_eq!(new_orange, 0);
}
