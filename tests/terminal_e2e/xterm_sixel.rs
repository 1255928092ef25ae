//! A real terminal: xterm (as a VT340, with sixel) on a virtual X server (Xvfb) runs the
//! viewer on spineboy-pro with `BONESCOPE_IMAGES=sixel`; a screenshot of the X screen (`xwd`)
//! must show the textured character, compared with the PNG `render --format png` gives for
//! the same frame by a tolerant metric: the colours of the character (a histogram of the
//! chromatic pixels) must mostly agree, and there must be a picture's worth of them (the
//! wireframe alone is a few hundred pixels).
//!
//! Needs `Xvfb`, `xterm` and `xwd` (Debian: xvfb, xterm, x11-apps; `.ci/run` installs them):
//! skipped where they are missing, failing under `CI=true`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const WHAT: &str = "xterm sixel screenshot";

/// The executable `tool` on `PATH`.
fn on_path(tool: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// Kills and reaps a child when dropped (the X server and the terminal must not outlive the
/// test, also when it fails).
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        // SIGTERM first, so that the X server removes its socket and lock file.
        let _ = Command::new("kill").arg(self.0.id().to_string()).status();
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// An RGB picture.
struct Rgb {
    width: usize,
    height: usize,
    px: Vec<[u8; 3]>,
}

/// Reads an `xwd` dump of a 24/32-bit TrueColor screen.
fn read_xwd(d: &[u8]) -> Result<Rgb, String> {
    let word = |i: usize| -> Result<u32, String> {
        d.get(i * 4..i * 4 + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| "short xwd header".to_string())
    };
    let (header, width, height) = (word(0)? as usize, word(4)? as usize, word(5)? as usize);
    let (byte_order, bits, bytes_per_line) = (word(7)?, word(11)?, word(12)? as usize);
    let (rm, gm, bm, ncolors) = (word(14)?, word(15)?, word(16)?, word(19)? as usize);
    if bits != 32 {
        return Err(format!("{bits} bits per pixel (expected 32)"));
    }
    let start = header + ncolors * 12;
    let shift = |m: u32| m.trailing_zeros();
    let mut px = Vec::with_capacity(width * height);
    for y in 0..height {
        for x in 0..width {
            let i = start + y * bytes_per_line + x * 4;
            let b = d.get(i..i + 4).ok_or("short xwd pixels")?;
            let b = [b[0], b[1], b[2], b[3]];
            let v = if byte_order == 0 {
                u32::from_le_bytes(b)
            } else {
                u32::from_be_bytes(b)
            };
            let c = |m: u32| ((v & m) >> shift(m)) as u8;
            px.push([c(rm), c(gm), c(bm)]);
        }
    }
    Ok(Rgb { width, height, px })
}

fn read_png(path: &Path) -> Rgb {
    let file = std::fs::File::open(path).expect("the rendered PNG");
    let mut r = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("PNG");
    let mut buf = vec![0; r.output_buffer_size().expect("size")];
    let info = r.next_frame(&mut buf).expect("frame");
    let n = info.color_type.samples();
    let px = buf[..info.buffer_size()]
        .chunks_exact(n)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    Rgb {
        width: info.width as usize,
        height: info.height as usize,
        px,
    }
}

/// A pixel of the character rather than of text, borders or the black background: clearly
/// coloured.
fn chromatic(p: [u8; 3]) -> bool {
    let (hi, lo) = (*p.iter().max().unwrap_or(&0), *p.iter().min().unwrap_or(&0));
    hi > 60 && hi - lo > 40
}

/// Normalised 8x8x8 histogram of the chromatic pixels of `img` left of `max_x`, and their
/// count.
fn histogram(img: &Rgb, max_x: usize) -> (Vec<f64>, usize) {
    let mut h = vec![0.0; 512];
    let mut n = 0;
    for y in 0..img.height {
        for x in 0..max_x.min(img.width) {
            let p = img.px[y * img.width + x];
            if chromatic(p) {
                let bin = |c: u8| usize::from(c >> 5);
                h[bin(p[0]) * 64 + bin(p[1]) * 8 + bin(p[2])] += 1.0;
                n += 1;
            }
        }
    }
    for v in &mut h {
        *v /= n.max(1) as f64;
    }
    (h, n)
}

fn screenshot(display: &str) -> Option<Rgb> {
    let out = Command::new("xwd")
        .args(["-root", "-silent", "-display", display])
        .stderr(Stdio::null())
        .output()
        .ok()?;
    read_xwd(&out.stdout).ok()
}

#[test]
fn xterm_shows_the_sixel_picture_of_the_rendered_frame() {
    let Some(json) = common::shared_file(WHAT, "corpus/spine/4.2/spineboy-pro.json") else {
        return;
    };
    let tools = ["Xvfb", "xterm", "xwd"];
    if let Some(missing) = tools.iter().find(|t| on_path(t).is_none()) {
        common::skip(WHAT, &format!("{missing} is not installed"));
        return;
    }
    let dir = std::env::temp_dir().join(format!("bonescope-xterm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // The frame the viewer opens on: walk at 0 s.
    let png = dir.join("frame.png");
    let status = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .arg("render")
        .arg(&json)
        .args(["--animation", "walk", "--time", "0", "--format", "png"])
        .args(["--size", "300x480", "--background", "#000000", "-o"])
        .arg(&png)
        .status()
        .expect("render");
    assert!(status.success(), "render --format png");
    let (expected, expected_n) = histogram(&read_png(&png), usize::MAX);
    assert!(expected_n > 5000, "the render shows the character");

    // The X server picks a free display and writes its number when it is ready.
    let mut server = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1024x768x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb");
    let out = server.stdout.take().expect("Xvfb's stdout");
    let _x = Reaped(server);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(out), &mut line);
        let _ = tx.send(line);
    });
    let number = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("Xvfb says its display");
    let display = format!(":{}", number.trim());
    assert!(display.len() > 1, "Xvfb gave no display number");
    let _term = Reaped(
        Command::new("xterm")
            .args([
                "-display",
                &display,
                "-ti",
                "vt340",
                "-geometry",
                "100x40+0+0",
            ])
            .args([
                "-fa", "Mono", "-fs", "10", "-bg", "black", "-fg", "white", "-e",
            ])
            .arg(env!("CARGO_BIN_EXE_bonescope"))
            .arg(&json)
            .args(["--animation", "walk"])
            .env("BONESCOPE_IMAGES", "sixel")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("xterm"),
    );
    // The Preview panel is the left part of the screen at this size; wait for its picture.
    let half = 512;
    let mut last = (Vec::new(), 0);
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(500));
        if let Some(shot) = screenshot(&display) {
            last = histogram(&shot, half);
            if last.1 > expected_n / 2 {
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (seen, seen_n) = last;
    assert!(
        seen_n > expected_n / 2,
        "the screenshot has {seen_n} coloured pixels, the render {expected_n}: no picture"
    );
    let overlap: f64 = seen.iter().zip(&expected).map(|(a, b)| a.min(*b)).sum();
    assert!(
        overlap > 0.5,
        "the picture's colours differ from the render's (histogram overlap {overlap:.2})"
    );
}
