//! The Preview panel's picture mode: the frame as pixels instead of canvas markers, sent by
//! the terminal's image protocol (kitty, iTerm2, sixel) or drawn as half-block cells. `t`
//! turns it on and off (on by default with textures and an image protocol; half blocks only
//! when asked), `w` the bones and wireframe overlay drawn on top of the textured
//! character. Without textures the picture is the wireframe itself, in pixels.

use super::scene::Seg;
use crate::tui::images::pictures::Setup;
use crate::tui::images::raster::{Camera, line, rgb_of};
use crate::tui::images::{Protocol, Rgba};

/// A picture's pixels, at most (a larger panel gets a picture scaled down: the kitty and
/// iTerm2 protocols stretch it over the cells; sixel shows it smaller).
pub const MAX_PIXELS: u64 = 1_000_000;

/// The user's choices and what the terminal takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PictureMode {
    pub setup: Setup,
    /// `t`: pictures on or off (`None`: on when there are textures).
    pub on: Option<bool>,
    /// `w`: the bones and wireframe drawn over the textured picture.
    pub overlay: bool,
}

impl Default for PictureMode {
    fn default() -> Self {
        PictureMode {
            setup: Setup::default(),
            on: None,
            overlay: true,
        }
    }
}

impl PictureMode {
    /// The protocol drawing the picture this frame, if pictures are on and possible:
    /// half blocks need colours and Unicode.
    pub fn active(&self, textured: bool, colours: bool, ascii: bool) -> Option<Protocol> {
        let p = self.usable(colours, ascii)?;
        // Half blocks are a choice (`t`), not the default: markers draw finer lines.
        self.on.unwrap_or(textured && p.is_graphics()).then_some(p)
    }

    /// The protocol pictures would use, if the screen can show them at all.
    pub fn usable(&self, colours: bool, ascii: bool) -> Option<Protocol> {
        match self.setup.protocol {
            Protocol::Off => None,
            Protocol::HalfBlock if !colours || ascii => None,
            p => Some(p),
        }
    }

    /// The title's name of the mode (`kitty`, `sixel+wire`, `blocks wire`...).
    pub fn label(&self, protocol: Protocol, textured: bool) -> String {
        let name = match protocol {
            Protocol::HalfBlock => "blocks",
            p => p.name(),
        };
        if !textured {
            format!("{name} wire")
        } else if self.overlay {
            format!("{name}+wire")
        } else {
            name.to_string()
        }
    }

    /// The picture's size in pixels for a canvas of `cols` x `rows` cells.
    pub fn pixel_size(&self, protocol: Protocol, cols: u16, rows: u16) -> (u32, u32) {
        if protocol == Protocol::HalfBlock {
            return (u32::from(cols), 2 * u32::from(rows));
        }
        let (cw, ch) = self.setup.cell_px;
        let w = u64::from(cols) * u64::from(cw.max(1));
        let h = u64::from(rows) * u64::from(ch.max(1));
        let n = w * h;
        if n <= MAX_PIXELS {
            return (w as u32, h as u32);
        }
        let s = (MAX_PIXELS as f64 / n as f64).sqrt();
        (
            ((w as f64 * s) as u32).max(1),
            ((h as f64 * s) as u32).max(1),
        )
    }
}

/// Draws the segments (world coordinates) into `img` through `cam`.
pub fn draw_segments(img: &mut Rgba, cam: &Camera, segs: &[Seg], width: u32) {
    for s in segs {
        line(
            img,
            cam.to_pixel(s.x1, s.y1),
            cam.to_pixel(s.x2, s.y2),
            rgb_of(s.color),
            width,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_by_default_only_with_textures_and_a_way_to_show_them() {
        let mut m = PictureMode::default();
        assert_eq!(m.active(true, true, false), None, "protocol off");
        m.setup.protocol = Protocol::Kitty;
        assert_eq!(m.active(true, true, false), Some(Protocol::Kitty));
        assert_eq!(m.active(false, true, false), None);
        m.on = Some(true);
        assert_eq!(m.active(false, true, false), Some(Protocol::Kitty));
        m.setup.protocol = Protocol::HalfBlock;
        m.on = None;
        assert_eq!(m.active(true, true, false), None, "half blocks when asked");
        m.on = Some(true);
        assert_eq!(m.active(false, false, false), None, "no colours");
        assert_eq!(m.active(false, true, true), None, "ascii");
        assert_eq!(m.label(Protocol::HalfBlock, true), "blocks+wire");
        assert_eq!(m.label(Protocol::Sixel, false), "sixel wire");
    }

    #[test]
    fn pictures_are_the_panel_size_in_pixels_within_a_cap() {
        let mut m = PictureMode::default();
        m.setup.cell_px = (10, 20);
        assert_eq!(m.pixel_size(Protocol::Kitty, 40, 20), (400, 400));
        let (w, h) = m.pixel_size(Protocol::Kitty, 300, 100);
        assert!(u64::from(w) * u64::from(h) <= MAX_PIXELS);
        assert!((f64::from(w) / f64::from(h) - 1.5).abs() < 0.01);
        assert_eq!(m.pixel_size(Protocol::HalfBlock, 40, 20), (40, 40));
    }
}
