//! Spine 4.0, 4.1 and 4.2 binary: the header and the order of the sections. The three
//! versions share one reader; [`Reader::minor`] selects what differs (see `LAYOUT.md`): 4.2
//! packs constraints, attachments and IK keys into flag bytes ([`flags42`], [`anim42`]).

mod anim;
mod anim42;
mod attachment;
mod attachment42;
mod deform;
mod flags42;
mod setup;
mod skins;

use super::cursor::{Cursor, Read};
use super::header::{self, HashLayout};
use crate::core::model::{ReferenceScale, SkeletonData, SourceInfo};
use crate::format::LoadError;
use crate::format::json::budget::Budget;
use crate::format::spine_json::SpineVersion;

/// What every section reader needs: the cursor, the string table and the export settings.
pub struct Reader<'a> {
    pub c: Cursor<'a>,
    /// Attachment, skin and event names referenced by index.
    pub strings: Vec<String>,
    /// Whether nonessential data (editor colors, mesh edges and size, ...) was exported.
    pub nonessential: bool,
    /// Memory for data the file only implies.
    pub budget: Budget,
    /// The 4.x minor version: 0, 1 or 2.
    pub minor: u8,
}

impl Reader<'_> {
    /// Takes `bytes` from the expansion budget, or fails here.
    pub fn spend(&self, bytes: usize) -> Read<()> {
        self.budget.spend(bytes).map_err(|m| self.c.error(m))
    }

    /// A string-table reference.
    pub fn string_ref(&mut self, what: &str) -> Read<Option<String>> {
        self.c.string_ref(&self.strings, what)
    }
}

/// Reads a whole 4.`minor` file.
pub fn read(
    bytes: &[u8],
    layout: HashLayout,
    name: &str,
    minor: u8,
) -> Result<SkeletonData, LoadError> {
    let spine = match minor {
        0 => SpineVersion::V40,
        1 => SpineVersion::V41,
        _ => SpineVersion::V42,
    };
    let mut r = Reader {
        minor,
        c: Cursor::new(bytes),
        strings: Vec::new(),
        nonessential: false,
        budget: Budget::for_text(bytes.len()),
    };
    let mut data = r.c.within("skeleton header", None, None, |c| {
        let (hash, version) = header::read(c, layout)?;
        Ok(SkeletonData {
            name: name.to_string(),
            source: SourceInfo {
                format: "Spine".into(),
                version,
            },
            hash,
            x: c.f64("x")?,
            y: c.f64("y")?,
            width: c.f64("width")?,
            height: c.f64("height")?,
            rules: spine.rules(),
            fps: 30.0,
            ..SkeletonData::default()
        })
    })?;
    r.c.enter("skeleton header", None, None);
    if r.minor >= 2 {
        let at = r.c.offset();
        let scale = r.c.f64("reference scale")?;
        if scale == 0.0 {
            return Err(r.c.error_at(at, "reference scale must not be 0"));
        }
        data.reference_scale = ReferenceScale(scale);
    }
    r.nonessential = r.c.bool("nonessential flag")?;
    if r.nonessential {
        data.fps = r.c.f64("fps")?;
        data.images = r.c.string("images path")?;
        data.audio = r.c.string("audio path")?;
    }
    r.c.leave();
    r.c.enter("string table", None, None);
    let n = r.c.count(1, "string count")?;
    r.strings.reserve_exact(n);
    for i in 0..n {
        r.c.set_index(i);
        let s = r.c.name("string")?;
        r.strings.push(s);
    }
    r.c.leave();
    setup::bones(&mut r, &mut data)?;
    setup::slots(&mut r, &mut data)?;
    if r.minor >= 2 {
        flags42::ik(&mut r, &mut data)?;
        flags42::transform(&mut r, &mut data)?;
        flags42::path(&mut r, &mut data)?;
        flags42::physics(&mut r, &mut data)?;
    } else {
        setup::ik(&mut r, &mut data)?;
        setup::transform(&mut r, &mut data)?;
        setup::path(&mut r, &mut data)?;
    }
    skins::skins(&mut r, &mut data)?;
    setup::events(&mut r, &mut data)?;
    data.animations = anim::animations(&mut r, &data)?;
    if r.c.remaining() != 0 {
        return Err(r.c.error(format!(
            "{} bytes left over after the last animation",
            r.c.remaining()
        )));
    }
    Ok(data)
}
