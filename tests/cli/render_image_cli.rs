//! `render --format png | gif | apng` on the built-in sample (textured by its own atlas,
//! found beside it): the outputs decode back to the frames asked for, and bad flags are
//! refused with exit status 2 and a message.

use crate::common;

use common::run_with_deadline;
use std::ffi::OsStr;

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
