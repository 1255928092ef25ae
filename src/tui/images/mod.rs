//! Pictures in the terminal: which image protocol the terminal takes ([`detect`]), encoders
//! for each (kitty graphics, iTerm2 inline images, sixel, and half-block cells as the
//! fallback), and the policy that sends a picture only when it changed ([`sender`]).
//!
//! Everything here but [`detect::probe`] is a pure function of an RGBA buffer.

pub mod detect;
pub mod halfblock;
pub mod iterm2;
pub mod kitty;
pub mod pictures;
pub mod protocol;
pub mod raster;
pub mod sender;
pub mod sixel;
pub mod textures;
pub mod tmux;

pub use protocol::Protocol;

/// An image of straight (not premultiplied) RGBA pixels, row-major, 4 bytes a pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl Rgba {
    /// A `width` x `height` image of one colour; `None` when the size overflows.
    pub fn filled(width: u32, height: u32, rgba: [u8; 4]) -> Option<Rgba> {
        let n = usize::try_from(width)
            .ok()?
            .checked_mul(usize::try_from(height).ok()?)?;
        let mut pixels = Vec::with_capacity(n.checked_mul(4)?);
        for _ in 0..n {
            pixels.extend_from_slice(&rgba);
        }
        Some(Rgba {
            width,
            height,
            pixels,
        })
    }

    /// The pixel at `(x, y)`; transparent black outside the image.
    pub fn get(&self, x: u32, y: u32) -> [u8; 4] {
        if x >= self.width || y >= self.height {
            return [0; 4];
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        match self.pixels.get(i..i + 4) {
            Some(p) => [p[0], p[1], p[2], p[3]],
            None => [0; 4],
        }
    }

    /// Sets the pixel at `(x, y)` (nothing outside the image).
    pub fn set(&mut self, x: u32, y: u32, rgba: [u8; 4]) {
        if x >= self.width || y >= self.height {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        if let Some(p) = self.pixels.get_mut(i..i + 4) {
            p.copy_from_slice(&rgba);
        }
    }

    /// Whether the pixel buffer has exactly `width * height * 4` bytes.
    pub fn is_consistent(&self) -> bool {
        (self.width as usize)
            .checked_mul(self.height as usize)
            .and_then(|n| n.checked_mul(4))
            == Some(self.pixels.len())
    }
}

/// `fg` (straight alpha) over the opaque colour `bg`.
pub fn over(fg: [u8; 4], bg: [u8; 3]) -> [u8; 3] {
    let a = u32::from(fg[3]);
    let mix = |f: u8, b: u8| ((u32::from(f) * a + u32::from(b) * (255 - a) + 127) / 255) as u8;
    [mix(fg[0], bg[0]), mix(fg[1], bg[1]), mix(fg[2], bg[2])]
}

/// The image composited over the opaque colour `bg` (protocols without transparency).
pub fn flatten(img: &Rgba, bg: [u8; 3]) -> Rgba {
    let mut pixels = Vec::with_capacity(img.pixels.len());
    for p in img.pixels.chunks_exact(4) {
        let c = over([p[0], p[1], p[2], p[3]], bg);
        pixels.extend_from_slice(&[c[0], c[1], c[2], 255]);
    }
    Rgba {
        width: img.width,
        height: img.height,
        pixels,
    }
}

/// Where on screen a picture goes, in cells (0-based column and row), and its pixel size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub col: u16,
    pub row: u16,
    pub cols: u16,
    pub rows: u16,
}

/// `CSI row;col H` for a 0-based cell.
pub(crate) fn cursor_to(out: &mut Vec<u8>, col: u16, row: u16) {
    out.extend_from_slice(
        format!("\x1b[{};{}H", u32::from(row) + 1, u32::from(col) + 1).as_bytes(),
    );
}

#[cfg(test)]
pub(crate) mod test_images {
    use super::Rgba;

    /// A deterministic test picture: gradients, a few flat areas and transparent corners.
    pub fn sample(width: u32, height: u32) -> Rgba {
        let mut img = Rgba::filled(width, height, [0, 0, 0, 0]).expect("size");
        for y in 0..height {
            for x in 0..width {
                let r = (x * 255 / width.max(1)) as u8;
                let g = (y * 255 / height.max(1)) as u8;
                let b = if (x / 4 + y / 4) % 2 == 0 { 200 } else { 40 };
                let a = if x < 3 && y < 3 { 0 } else { 255 };
                img.set(x, y, [r, g, b, a]);
            }
        }
        img
    }
}
