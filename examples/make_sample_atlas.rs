//! Writes `samples/spine/lantern-keeper.atlas` and `lantern-keeper.png`, the textures of the
//! built-in sample: every region and mesh of the skeleton gets an image painted here (no
//! artwork from elsewhere), packed on one page in shelves.
//!
//! Regenerate (deterministic, same bytes every time):
//!
//! ```text
//! cargo run --example make_sample_atlas                # writes samples/spine/lantern-keeper.*
//! cargo run --example make_sample_atlas -- OUT_DIR     # writes elsewhere
//! ```
//!
//! Images are light (near white, shaded top to bottom) so the slots' colours tint them; the
//! face has eyes, the glow is a soft radial falloff, the lantern glass a warm gradient whose
//! dark texels the slot's dark colour fills. Sizes are the attachments' sizes, 2 px padding.

use bonescope::core::model::AttachmentKind;
use std::collections::BTreeMap;
use std::path::PathBuf;

const PAGE_W: u32 = 256;
const PAD: u32 = 2;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine"));
    let data = bonescope::format::load(bonescope::EMBEDDED_SAMPLE, "lantern-keeper")?;
    // Every path and its size (the largest attachment showing it).
    let mut images: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for att in &data.attachments {
        let (path, w, h) = match &att.kind {
            AttachmentKind::Region(r) => (&r.path, r.width, r.height),
            AttachmentKind::Mesh(m) => (&m.path, m.width, m.height),
            _ => continue,
        };
        let size = (w.ceil().max(1.0) as u32, h.ceil().max(1.0) as u32);
        let e = images.entry(path.clone()).or_insert(size);
        *e = (e.0.max(size.0), e.1.max(size.1));
    }
    // Shelf packing, tallest first.
    let mut order: Vec<(&String, &(u32, u32))> = images.iter().collect();
    order.sort_by(|a, b| b.1.1.cmp(&a.1.1).then(a.0.cmp(b.0)));
    let (mut x, mut y, mut shelf) = (PAD, PAD, 0);
    let mut placed = Vec::new();
    for (name, &(w, h)) in order {
        if x + w + PAD > PAGE_W {
            x = PAD;
            y += shelf + PAD;
            shelf = 0;
        }
        placed.push((name.clone(), x, y, w, h));
        x += w + PAD;
        shelf = shelf.max(h);
    }
    let page_h = (y + shelf + PAD).next_power_of_two();
    let mut rgba = vec![0u8; (PAGE_W * page_h * 4) as usize];
    let mut atlas = format!(
        "lantern-keeper.png\n\tsize: {PAGE_W}, {page_h}\n\tfilter: Linear, Linear\n\tpma: false\n"
    );
    placed.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, x, y, w, h) in &placed {
        atlas.push_str(&format!("{name}\n\tbounds: {x}, {y}, {w}, {h}\n"));
        for j in 0..*h {
            for i in 0..*w {
                let p = paint(name, i, j, *w, *h);
                let k = (((y + j) * PAGE_W + x + i) * 4) as usize;
                rgba[k..k + 4].copy_from_slice(&p);
            }
        }
    }
    let mut png_bytes = Vec::new();
    {
        let mut e = png::Encoder::new(&mut png_bytes, PAGE_W, page_h);
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Eight);
        e.set_compression(png::Compression::High);
        let mut w = e.write_header()?;
        w.write_image_data(&rgba)?;
        w.finish()?;
    }
    std::fs::write(out.join("lantern-keeper.atlas"), atlas)?;
    std::fs::write(out.join("lantern-keeper.png"), png_bytes)?;
    println!("{} images on a {PAGE_W}x{page_h} page", placed.len());
    Ok(())
}

/// The colour of pixel (i, j) (top-left origin) of image `name`, `w` x `h`, straight RGBA.
fn paint(name: &str, i: u32, j: u32, w: u32, h: u32) -> [u8; 4] {
    let (fx, fy) = ((i as f64 + 0.5) / w as f64, (j as f64 + 0.5) / h as f64);
    let edge = i == 0 || j == 0 || i + 1 == w || j + 1 == h;
    let shade = |base: [f64; 3], light: f64| {
        let k = if edge { 0.45 } else { light };
        [
            (base[0] * k * 255.0).round().clamp(0.0, 255.0) as u8,
            (base[1] * k * 255.0).round().clamp(0.0, 255.0) as u8,
            (base[2] * k * 255.0).round().clamp(0.0, 255.0) as u8,
            255,
        ]
    };
    // Top light, bottom shadow.
    let light = 1.0 - 0.25 * fy;
    match name {
        "glow" => {
            let d = ((fx - 0.5).powi(2) + (fy - 0.5).powi(2)).sqrt() * 2.0;
            let a = (1.0 - d).clamp(0.0, 1.0).powf(1.6);
            [255, 244, 200, (a * 255.0).round() as u8]
        }
        "face" | "face-blink" => {
            let eye_y = 0.45;
            let eye = |cx: f64| {
                let (dx, dy) = ((fx - cx) * w as f64, (fy - eye_y) * h as f64);
                if name == "face" {
                    dx * dx + dy * dy <= 4.0
                } else {
                    dx.abs() <= 2.5 && dy.abs() <= 0.6
                }
            };
            if eye(0.32) || eye(0.68) {
                [40, 30, 30, 255]
            } else if (fy - 0.75).abs() * (h as f64) < 0.7 && (fx - 0.5).abs() < 0.15 {
                [150, 70, 60, 255]
            } else {
                shade([0.96, 0.82, 0.70], light)
            }
        }
        "lantern-body" => {
            // Glass: bright in the middle, dark at the sides (the dark colour shows there).
            let g = 1.0 - (fx - 0.5).abs() * 1.6;
            shade([g, g, g * 0.9], 1.0)
        }
        "boot" | "glove-back" | "glove-front" => shade([0.55, 0.42, 0.32], light),
        "pole" => shade([0.62, 0.45, 0.28], 1.0 - 0.3 * (fx - 0.5).abs()),
        "feather" => shade([0.95, 0.35, 0.25], 1.0 - 0.4 * fx),
        _ => shade([0.97, 0.97, 0.97], light),
    }
}
