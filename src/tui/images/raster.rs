//! Lines drawn into an RGBA picture: the bones and wireframe overlay on a pixel picture, and
//! the picture itself when there are no textures. A world-to-pixel camera with square
//! pixels, y up in the world and down in the picture.

use super::Rgba;
use ratatui::style::Color;

/// Which world rectangle a picture shows: its centre and the world units one pixel covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub centre: (f64, f64),
    pub units_per_pixel: f64,
    pub width: u32,
    pub height: u32,
}

impl Camera {
    /// The camera showing at least the world box `x` by `y` (min, max) in a `width` x
    /// `height` picture, centred, keeping pixels square.
    pub fn fitting(x: [f64; 2], y: [f64; 2], width: u32, height: u32) -> Camera {
        let w = f64::from(width.max(1));
        let h = f64::from(height.max(1));
        let upp = ((x[1] - x[0]) / w).max((y[1] - y[0]) / h);
        Camera {
            centre: ((x[0] + x[1]) / 2.0, (y[0] + y[1]) / 2.0),
            units_per_pixel: if upp.is_finite() && upp > 0.0 {
                upp
            } else {
                1.0
            },
            width,
            height,
        }
    }

    /// The world box shown: (x min, x max), (y min, y max).
    pub fn bounds(&self) -> ([f64; 2], [f64; 2]) {
        let hw = f64::from(self.width) * self.units_per_pixel / 2.0;
        let hh = f64::from(self.height) * self.units_per_pixel / 2.0;
        (
            [self.centre.0 - hw, self.centre.0 + hw],
            [self.centre.1 - hh, self.centre.1 + hh],
        )
    }

    /// A world point in pixels (x right, y down; pixel centres at .5).
    pub fn to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        (
            (x - self.centre.0) / self.units_per_pixel + f64::from(self.width) / 2.0,
            f64::from(self.height) / 2.0 - (y - self.centre.1) / self.units_per_pixel,
        )
    }
}

/// A terminal colour as RGB (the xterm defaults for the named ones; `Reset` is light grey).
pub fn rgb_of(c: Color) -> [u8; 3] {
    match c {
        Color::Rgb(r, g, b) => [r, g, b],
        Color::Black => [0, 0, 0],
        Color::Red => [205, 0, 0],
        Color::Green => [0, 205, 0],
        Color::Yellow => [205, 205, 0],
        Color::Blue => [0, 0, 238],
        Color::Magenta => [205, 0, 205],
        Color::Cyan => [0, 205, 205],
        Color::Gray => [229, 229, 229],
        Color::DarkGray => [127, 127, 127],
        Color::LightRed => [255, 0, 0],
        Color::LightGreen => [0, 255, 0],
        Color::LightYellow => [255, 255, 0],
        Color::LightBlue => [92, 92, 255],
        Color::LightMagenta => [255, 0, 255],
        Color::LightCyan => [0, 255, 255],
        Color::White => [255, 255, 255],
        Color::Indexed(i) => indexed(i),
        Color::Reset => [200, 200, 200],
    }
}

/// The xterm 256-colour palette.
fn indexed(i: u8) -> [u8; 3] {
    const BASE: [[u8; 3]; 16] = [
        [0, 0, 0],
        [205, 0, 0],
        [0, 205, 0],
        [205, 205, 0],
        [0, 0, 238],
        [205, 0, 205],
        [0, 205, 205],
        [229, 229, 229],
        [127, 127, 127],
        [255, 0, 0],
        [0, 255, 0],
        [255, 255, 0],
        [92, 92, 255],
        [255, 0, 255],
        [0, 255, 255],
        [255, 255, 255],
    ];
    match i {
        0..=15 => BASE[usize::from(i)],
        16..=231 => {
            let n = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            [level(n / 36), level(n / 6 % 6), level(n % 6)]
        }
        _ => {
            let v = 8 + 10 * (i - 232);
            [v, v, v]
        }
    }
}

/// Draws a line from `a` to `b` (pixels) `width` pixels wide, clipped to the picture.
pub fn line(img: &mut Rgba, a: (f64, f64), b: (f64, f64), colour: [u8; 3], width: u32) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if !(a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite()) {
        return;
    }
    // Clip the parameter range to the picture (with a margin for the width), so a line far
    // outside costs nothing.
    let (w, h) = (f64::from(img.width), f64::from(img.height));
    let m = f64::from(width);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 + m),
        (dx, w + m - a.0),
        (-dy, a.1 + m),
        (dy, h + m - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t0 > t1 {
        return;
    }
    let steps = ((dx.abs().max(dy.abs()) * (t1 - t0)).ceil() as u32).max(1);
    let half = (width.max(1) - 1) as i64 / 2;
    let px = [colour[0], colour[1], colour[2], 255];
    for s in 0..=steps {
        let t = t0 + (t1 - t0) * f64::from(s) / f64::from(steps);
        let (x, y) = ((a.0 + dx * t).floor() as i64, (a.1 + dy * t).floor() as i64);
        for oy in -half..=half + i64::from(width.max(1).is_multiple_of(2)) {
            for ox in -half..=half + i64::from(width.max(1).is_multiple_of(2)) {
                let (x, y) = (x + ox, y + oy);
                if x >= 0 && y >= 0 {
                    img.set(x as u32, y as u32, px);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_camera_keeps_pixels_square_and_maps_the_centre() {
        let cam = Camera::fitting([0.0, 100.0], [0.0, 10.0], 200, 100);
        assert_eq!(cam.units_per_pixel, 0.5);
        assert_eq!(cam.to_pixel(50.0, 5.0), (100.0, 50.0));
        // y up in the world is up in the picture.
        assert!(cam.to_pixel(50.0, 6.0).1 < 50.0);
        let (x, y) = cam.bounds();
        assert_eq!(x, [0.0, 100.0]);
        assert_eq!(y, [-20.0, 30.0]);
    }

    #[test]
    fn lines_are_drawn_and_clipped() {
        let mut img = Rgba::filled(10, 10, [0; 4]).expect("size");
        line(&mut img, (0.5, 5.5), (9.5, 5.5), [255, 0, 0], 1);
        for x in 0..10 {
            assert_eq!(img.get(x, 5), [255, 0, 0, 255]);
        }
        assert_eq!(img.get(5, 4), [0; 4]);
        // Far outside: nothing, quickly.
        line(&mut img, (-1e12, -1e12), (-1e12, 1e12), [0, 255, 0], 2);
        line(&mut img, (f64::NAN, 0.0), (1.0, 1.0), [0, 255, 0], 2);
        assert!(img.pixels.chunks(4).all(|p| p[1] == 0));
        // A line crossing from far away is drawn where it is inside.
        line(&mut img, (-1e9, 2.5), (1e9, 2.5), [0, 0, 255], 1);
        assert_eq!(img.get(3, 2), [0, 0, 255, 255]);
        assert_eq!(indexed(196), [255, 0, 0]);
        assert_eq!(indexed(232), [8, 8, 8]);
    }
}
