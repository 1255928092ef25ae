//! Texture atlases: Spine `.atlas` text (3.7-4.3 layouts) and DragonBones `_tex.json`, their
//! PNG pages decoded to RGBA, and the lookup from an attachment's path to its region.
//!
//! - [`parse_spine_atlas`] reads the text into an [`Atlas`] (pages and regions, no pixels).
//! - [`parse_dragonbones_tex`] reads a DragonBones texture JSON into the same [`Atlas`].
//! - [`decode_page`] decodes a PNG page (the `png` crate) into premultiplied RGBA.
//! - [`Textures`] holds an atlas with its decoded pages: what the renderer
//!   ([`crate::raster`]) samples. [`Textures::load`] reads an atlas file and its pages beside
//!   it; [`locate::find_atlas`] finds the atlas of an export (the documented rule).
//!
//! Errors are [`AtlasError`]s that say where (line:column of the atlas text, or the page).

pub mod dragonbones_tex;
pub mod locate;
pub mod page;
pub mod spine_text;
pub mod textures;

pub use dragonbones_tex::parse_dragonbones_tex;
pub use page::{PageImage, decode_page};
pub use spine_text::parse_spine_atlas;
pub use textures::Textures;

/// Largest page side (pixels) an atlas may declare or a PNG may have.
pub const MAX_PAGE_SIDE: u32 = 16384;

/// A texture page of an atlas.
#[derive(Clone, Debug, PartialEq)]
pub struct AtlasPage {
    /// The image file name, relative to the atlas.
    pub name: String,
    /// Size the atlas declares (0 when it does not: then the image's size is used).
    pub width: u32,
    pub height: u32,
    /// The image holds premultiplied alpha (`pma: true`, 3.x `format` has no such flag).
    pub pma: bool,
    /// The atlas `scale` (4.x), 1 when absent. Geometry uses ratios of region sizes, so the
    /// renderer does not need it; kept for display.
    pub scale: f64,
}

/// A region of a page. Sizes are in page pixels; `width` x `height` is the packed image
/// unrotated (on the page it covers `height` x `width` when rotated by 90 or 270 degrees).
#[derive(Clone, Debug, PartialEq)]
pub struct AtlasRegion {
    pub name: String,
    pub page: usize,
    /// Top-left corner on the page.
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    /// The image's size before whitespace was stripped.
    pub original_width: u32,
    pub original_height: u32,
    /// Where the packed part sits in the original image, from its bottom-left corner.
    pub offset_x: f64,
    pub offset_y: f64,
    /// Counter-clockwise rotation of the image on the page: 0, 90, 180 or 270.
    pub degrees: u32,
    /// The frame index of 3.x sequences (-1: none).
    pub index: i32,
}

/// Pages and regions of one atlas file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Atlas {
    pub pages: Vec<AtlasPage>,
    pub regions: Vec<AtlasRegion>,
}

impl Atlas {
    /// The first region called `name` (as the runtimes' `findRegion`).
    pub fn find_region(&self, name: &str) -> Option<&AtlasRegion> {
        self.regions.iter().find(|r| r.name == name)
    }
}

/// Why an atlas or a page could not be read.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum AtlasError {
    /// Bad atlas text, at a 1-based line and column.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// A page image that is missing or does not decode.
    #[error("page {page}: {message}")]
    Page { page: String, message: String },
    /// The atlas file itself could not be read.
    #[error("{0}")]
    Read(String),
}
