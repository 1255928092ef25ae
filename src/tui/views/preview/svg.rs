//! The preview's pose as an SVG picture: the same segments the canvas draws (`Scene`),
//! one group per layer (bones, regions, meshes, ...), in world units with y up.
//!
//! Geometry is not recomputed here: every layer is built by `Scene::build` with only that
//! layer on, so the picture and the terminal preview cannot drift apart.

use super::scene::{self, Bounds, LAYERS, Look, Scene};
use crate::core::skeleton::Skeleton;
use ratatui::style::Color;
use std::fmt::Write;

/// Layer names, used as group ids and classes.
pub const LAYER_NAMES: [&str; LAYERS] = [
    "bones", "regions", "meshes", "boxes", "paths", "points", "clipping",
];
/// Stroke color of each layer.
const LAYER_STROKES: [&str; LAYERS] = [
    "#d9480f", "#1971c2", "#2f9e44", "#9c36b5", "#e67700", "#c2255c", "#495057",
];
/// Picture size of the larger side, in SVG user units (pixels).
const PICTURE: f64 = 800.0;

/// The pose of `sk` as a standalone SVG document. `animation` (an index into the skeleton's
/// animations) widens the view to fit the whole animation, as the preview does.
pub fn pose_svg(sk: &Skeleton, animation: Option<usize>, title: &str) -> String {
    let mut scene = Scene::default();
    let mut b = if sk.data.has_joints3() {
        // 3D poses draw as their front view: fit the joints, not the gating slots' markers.
        let (mut bones, mut marks) = (Bounds::EMPTY, Bounds::EMPTY);
        scene.measure(sk, &mut bones, &mut marks);
        bones
    } else {
        super::fit::fit_bounds(sk, animation, &mut scene)
    };
    if b.is_empty() || !(b.width().is_finite() && b.height().is_finite()) {
        b = Bounds {
            min_x: -100.0,
            min_y: -100.0,
            max_x: 100.0,
            max_y: 100.0,
        };
    }
    let size = b.width().max(b.height()).max(1.0);
    let pad = size * 0.05;
    let (x0, y0) = (b.min_x - pad, b.min_y - pad);
    let (w, h) = (b.width() + 2.0 * pad, b.height() + 2.0 * pad);
    // World units per picture pixel, for strokes and marks of a fixed on-screen size.
    let unit = w.max(h) / PICTURE;
    let (pw, ph) = (w / unit, h / unit);
    // Enough decimals for a hundredth of a picture pixel (metre-sized 3D poses need more
    // than pixel-sized skeletons).
    let dec = ((-unit.log10()).ceil() + 2.0).clamp(1.0, 9.0) as usize;
    let num = |v: f64| num(v, dec);
    let px = |v: f64| super::svg::num(v, 3);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="{} {} {} {}">"#,
        px(pw),
        px(ph),
        num(x0),
        num(-(y0 + h)),
        num(w),
        num(h)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    // World y points up; SVG's down.
    let _ = writeln!(
        out,
        r#"<g transform="scale(1,-1)" fill="none" stroke-width="{}" stroke-linecap="round">"#,
        num(unit * 1.5)
    );
    for layer in (1..LAYERS).chain([scene::BONES]) {
        let mut layers = [false; LAYERS];
        layers[layer] = true;
        let look = Look {
            layers,
            colors: [Color::Reset; LAYERS],
            highlight: Color::Reset,
            selected: None,
            dot: unit * 2.0,
            triangles: true,
        };
        scene.build(sk, &look);
        if scene.segs.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            r#"<g id="{0}" class="{0}" stroke="{1}">"#,
            LAYER_NAMES[layer], LAYER_STROKES[layer]
        );
        for s in &scene.segs {
            if s.x1 == s.x2 && s.y1 == s.y2 {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="none"/>"#,
                    num(s.x1),
                    num(s.y1),
                    num(unit * 2.0),
                    LAYER_STROKES[layer]
                );
            } else {
                let _ = writeln!(
                    out,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                    num(s.x1),
                    num(s.y1),
                    num(s.x2),
                    num(s.y2)
                );
            }
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// A coordinate with `dec` decimals and no trailing zeros (segments are finite: `Scene` drops
/// the others).
fn num(v: f64, dec: usize) -> String {
    let s = format!("{v:.dec$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Text for XML content and attributes: markup characters escaped, control characters
/// (invalid in XML 1.0) made visible by [`crate::text::sanitize`] first.
fn escape(s: &str) -> String {
    let s = crate::text::sanitize(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_escaping_covers_markup() {
        assert_eq!(num(1.5, 3), "1.5");
        assert_eq!(num(-0.0001, 3), "0");
        assert_eq!(num(2.0, 3), "2");
        assert_eq!(num(0.00012345, 6), "0.000123");
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert!(!escape("x\u{1b}[31m").contains('\u{1b}'));
    }
}
