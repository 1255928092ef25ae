//! An atlas with its decoded pages, and the lookup from attachments to regions.

use super::{Atlas, AtlasError, AtlasRegion, PageImage, decode_page};
use crate::core::model::{Attachment, AttachmentKind, SkeletonData};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

/// An atlas and its pages (a page that is missing or broken is `None`, with a message in
/// `problems`: the renderer skips its attachments).
#[derive(Clone, Debug, Default)]
pub struct Textures {
    pub atlas: Atlas,
    pub pages: Vec<Option<PageImage>>,
    /// Located messages about pages that could not be used.
    pub problems: Vec<String>,
    by_name: HashMap<String, usize>,
}

/// A region ready to sample: its placement and its page's pixels and declared size.
#[derive(Clone, Copy, Debug)]
pub struct RegionRef<'a> {
    pub region: &'a AtlasRegion,
    pub image: &'a PageImage,
    /// The page size UVs are measured in (the atlas `size`, else the image's).
    pub page_width: f64,
    pub page_height: f64,
}

impl Textures {
    /// Builds the lookup. `pages` follows `atlas.pages` (missing entries count as `None`).
    pub fn new(atlas: Atlas, mut pages: Vec<Option<PageImage>>, problems: Vec<String>) -> Self {
        pages.resize(atlas.pages.len(), None);
        let mut by_name = HashMap::with_capacity(atlas.regions.len());
        for (i, r) in atlas.regions.iter().enumerate() {
            by_name.entry(r.name.clone()).or_insert(i);
        }
        Textures {
            atlas,
            pages,
            problems,
            by_name,
        }
    }

    /// Reads an atlas file (Spine `.atlas` text, or DragonBones `_tex.json` when it is JSON)
    /// and decodes its pages from the same folder. Unreadable pages are reported in
    /// `problems`, not as an error; an unreadable or malformed atlas is an error.
    pub fn load(path: &Path) -> Result<Textures, AtlasError> {
        let show = |p: &Path| crate::text::sanitize(&p.display().to_string()).into_owned();
        let bytes = crate::format::read::read_file(path)
            .map_err(|e| AtlasError::Read(format!("{}: {e}", show(path))))?;
        let text = String::from_utf8_lossy(&bytes);
        let atlas = if text.trim_start().starts_with('{') {
            super::parse_dragonbones_tex(&text)
        } else {
            super::parse_spine_atlas(&text)
        }
        .map_err(|e| AtlasError::Read(format!("{}: {e}", show(path))))?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut pages = Vec::with_capacity(atlas.pages.len());
        let mut problems = Vec::new();
        for page in &atlas.pages {
            let file = dir.join(&page.name);
            let decoded = crate::format::read::read_file(&file)
                .map_err(|e| AtlasError::Page {
                    page: show(&file),
                    message: e.to_string(),
                })
                .and_then(|b| decode_page(&b, &show(&file), page.pma));
            match decoded {
                Ok(img) => pages.push(Some(img)),
                Err(e) => {
                    problems.push(e.to_string());
                    pages.push(None);
                }
            }
        }
        Ok(Textures::new(atlas, pages, problems))
    }

    /// The region called `name` with its page, or `None` (no such region, or its page is
    /// missing).
    pub fn region(&self, name: &str) -> Option<RegionRef<'_>> {
        let region = &self.atlas.regions[*self.by_name.get(name)?];
        let image = self.pages.get(region.page)?.as_ref()?;
        let page = &self.atlas.pages[region.page];
        let (w, h) = if page.width > 0 && page.height > 0 {
            (page.width, page.height)
        } else {
            (image.width, image.height)
        };
        Some(RegionRef {
            region,
            image,
            page_width: f64::from(w.max(1)),
            page_height: f64::from(h.max(1)),
        })
    }

    /// True when the atlas has a region called `name` (whether or not its page loaded).
    pub fn has_region(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// The atlas paths `data` needs that this atlas lacks (sorted, each once).
    pub fn missing_paths(&self, data: &SkeletonData) -> Vec<String> {
        let mut missing: Vec<String> = required_paths(data)
            .into_iter()
            .filter(|p| !self.has_region(p))
            .collect();
        missing.sort();
        missing.dedup();
        missing
    }
}

/// The atlas region an attachment shows: its `path` (the name when the export has none),
/// with a sequence's frame number appended, zero-padded to the sequence's digits (as the
/// runtimes' atlas attachment loader names sequence regions). `sequence_index` is the
/// slot's index (-1: the setup frame). `None` for attachments without a texture.
pub fn region_path(att: &Attachment, sequence_index: i32) -> Option<Cow<'_, str>> {
    let path = match &att.kind {
        AttachmentKind::Region(r) => &r.path,
        AttachmentKind::Mesh(m) => &m.path,
        _ => return None,
    };
    match &att.sequence {
        None => Some(Cow::Borrowed(path.as_str())),
        Some(seq) => {
            let frame = i64::from(seq.start) + i64::from(seq.resolve(sequence_index));
            let width = seq.digits.min(16) as usize;
            Some(Cow::Owned(format!("{path}{frame:0width$}")))
        }
    }
}

/// Every atlas path the skeleton's attachments may show (sequences: every frame).
pub fn required_paths(data: &SkeletonData) -> Vec<String> {
    let mut out = Vec::new();
    for att in &data.attachments {
        match &att.sequence {
            Some(seq) => {
                for i in 0..seq.count.min(10_000) as i32 {
                    if let Some(p) = region_path(att, i) {
                        out.push(p.into_owned());
                    }
                }
            }
            None => {
                if let Some(p) = region_path(att, -1) {
                    out.push(p.into_owned());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::color::Color;
    use crate::core::model::{RegionAttachment, Sequence};

    fn region(path: &str, sequence: Option<Sequence>) -> Attachment {
        Attachment {
            name: "n".into(),
            kind: AttachmentKind::Region(RegionAttachment {
                path: path.into(),
                x: 0.0,
                y: 0.0,
                rotation: 0.0,
                scale_x: 1.0,
                scale_y: 1.0,
                width: 1.0,
                height: 1.0,
                color: Color::WHITE,
                offset: [0.0; 8],
            }),
            deform_source: 0,
            sequence,
        }
    }

    #[test]
    fn sequence_paths_are_zero_padded_frames() {
        let seq = Sequence {
            count: 3,
            start: 1,
            digits: 2,
            setup: 0,
        };
        let a = region("flare", Some(seq));
        assert_eq!(region_path(&a, -1).unwrap(), "flare01");
        assert_eq!(region_path(&a, 2).unwrap(), "flare03");
        assert_eq!(region_path(&a, 9).unwrap(), "flare03");
        assert_eq!(region_path(&region("plain", None), 5).unwrap(), "plain");
    }

    #[test]
    fn a_missing_page_hides_its_regions() {
        let atlas =
            super::super::parse_spine_atlas("p.png\nsize: 4,4\nr\nbounds: 0,0,2,2\n").unwrap();
        let t = Textures::new(atlas, vec![], vec!["page p.png: no such file".into()]);
        assert!(t.has_region("r") && t.region("r").is_none());
    }
}
