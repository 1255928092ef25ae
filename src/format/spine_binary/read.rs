//! The reader shared by every version, the header and the order of the sections. One reader
//! covers 3.7, 3.8, 4.0, 4.1, 4.2 and 4.3; [`Version`] names what differs (see `LAYOUT.md`):
//! 4.x writes curves as absolute beziers with a count up front ([`super::anim`]), 4.2 packs
//! constraints, attachments and IK keys into flag bytes ([`super::flags42`],
//! [`super::attachment42`], [`super::anim42`]), 4.3 keeps its constraints in one list
//! ([`super::flags43`]).

use super::cursor::{Cursor, Read};
use super::header::{self, HashLayout};
use super::{anim, flags42, flags43, setup, skins};
use crate::core::model::{ConstraintRef, ReferenceScale, SkeletonData, SourceInfo};
use crate::format::LoadError;
use crate::format::json::budget::Budget;
use crate::format::spine_json::SpineVersion;

/// The binary format versions read, in order (comparisons mean "from this version on").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Version {
    V37,
    V38,
    V40,
    V41,
    V42,
    V43,
}

impl Version {
    /// 3.8 writes a key's curve after its values, as a normalised bezier; 4.x writes a
    /// bezier count before the keys and each segment's curve after the next key's time and
    /// values, in absolute (time, value) units.
    pub fn curve_after_key(self) -> bool {
        self <= Version::V38
    }

    /// 3.8 added the string table; 3.7 writes every attachment, path, skin and event name
    /// inline.
    pub fn string_table(self) -> bool {
        self >= Version::V38
    }

    /// 3.8 added skin-required bones and constraints (the flags and the skins' bone and
    /// constraint lists), IK softness and the bounds' x and y.
    pub fn since_38(self) -> bool {
        self >= Version::V38
    }

    /// 4.2 writes skin and event names themselves; earlier versions a string-table
    /// reference.
    pub fn inline_names(self) -> bool {
        self >= Version::V42
    }

    /// 4.2 packs constraints, attachments and IK keys into flag bytes.
    pub fn flag_bytes(self) -> bool {
        self >= Version::V42
    }

    /// 4.1 added image sequences (attachments and attachment timelines).
    pub fn sequences(self) -> bool {
        self >= Version::V41
    }

    /// 4.3 keeps every constraint in one list (its order is the update order, its index
    /// the one timelines and skins use), adds sliders, draw order folders and an editor
    /// color per animation, moves a bone's length after its inherit mode and writes the
    /// length of a weighted vertex list's bone array before it.
    pub fn one_constraint_list(self) -> bool {
        self >= Version::V43
    }

    /// 3.8 has one translate and one scale mix for both axes (transform and path
    /// constraints and their timelines); 4.x one per axis.
    pub fn mix_per_axis(self) -> bool {
        self >= Version::V40
    }
}

/// What every section reader needs: the cursor, the string table and the export settings.
pub struct Reader<'a> {
    pub c: Cursor<'a>,
    /// Attachment, skin and event names referenced by index, borrowed from the file: only
    /// the references the model keeps are copied.
    pub strings: Vec<&'a str>,
    /// Whether nonessential data (editor colors, mesh edges and size, ...) was exported.
    pub nonessential: bool,
    /// Memory for data the file only implies.
    pub budget: Budget,
    pub version: Version,
    /// Weighted vertex lists are read here first and copied out at their exact size: every
    /// mesh growing its own lists from an estimate cost more than the copy.
    pub weights_scratch: (Vec<u32>, Vec<f32>),
    /// 4.3: the kind and per-kind index of each entry of the one constraint list.
    pub constraints: Vec<ConstraintRef>,
    /// 4.3: per mesh that lists them (offset of the list, mesh, slots), the slots of linked
    /// meshes under other slots that follow its timelines; checked against the linked meshes.
    pub timeline_slots: Vec<(usize, crate::core::model::AttachmentId, Vec<usize>)>,
}

impl<'a> Reader<'a> {
    /// Takes `bytes` from the expansion budget, or fails here.
    pub fn spend(&self, bytes: usize) -> Read<()> {
        self.budget
            .spend(bytes)
            .map_err(|m| self.c.error(m.to_string()))
    }

    /// A skin's or event's name, which must be present: written out (4.2) or a string-table
    /// reference (earlier).
    pub fn own_name(&mut self) -> Read<String> {
        let at = self.c.offset();
        let name = if self.version.inline_names() || !self.version.string_table() {
            self.c.string("name")?
        } else {
            self.string_ref("name")?.map(str::to_string)
        };
        name.ok_or_else(|| self.c.error_at(at, "name is missing (null string)"))
    }

    /// A constraint timeline's constraint: an index into its kind's list of `len`, or (4.3)
    /// into the one constraint list, whose entry must be of that kind (`kind` gives its
    /// per-kind index).
    pub fn constraint(
        &mut self,
        len: usize,
        kind: fn(ConstraintRef) -> Option<usize>,
        what: &str,
    ) -> Read<usize> {
        if !self.version.one_constraint_list() {
            return self.c.index(len, what);
        }
        let at = self.c.offset();
        let i = self.c.index(self.constraints.len(), what)?;
        kind(self.constraints[i]).ok_or_else(|| {
            self.c.error_at(
                at,
                format!(
                    "{what} {i} names a {:?}, not a constraint of this kind",
                    self.constraints[i]
                ),
            )
        })
    }

    /// A string-table reference (3.7: the string itself).
    #[inline]
    pub fn string_ref(&mut self, what: &str) -> Read<Option<&'a str>> {
        if self.version.string_table() {
            self.c.string_ref(&self.strings, what)
        } else {
            self.c.str(what)
        }
    }
}

/// Reads a whole file of `version`.
pub fn read(
    bytes: &[u8],
    layout: HashLayout,
    name: &str,
    version: Version,
) -> Result<SkeletonData, LoadError> {
    let spine = match version {
        Version::V37 => SpineVersion::V37,
        Version::V38 => SpineVersion::V38,
        Version::V40 => SpineVersion::V40,
        Version::V41 => SpineVersion::V41,
        Version::V42 => SpineVersion::V42,
        Version::V43 => SpineVersion::V43,
    };
    let mut r = Reader {
        version,
        c: Cursor::new(bytes),
        strings: Vec::new(),
        nonessential: false,
        budget: Budget::for_text(bytes.len()),
        weights_scratch: (Vec::new(), Vec::new()),
        constraints: Vec::new(),
        timeline_slots: Vec::new(),
    };
    let origin = version.since_38();
    let mut data = r.c.within("skeleton header", None, None, |c| {
        let (hash, version) = header::read(c, layout)?;
        Ok(SkeletonData {
            name: name.to_string(),
            source: SourceInfo {
                format: "Spine".into(),
                version,
            },
            hash,
            x: if origin { c.f64("x")? } else { 0.0 },
            y: if origin { c.f64("y")? } else { 0.0 },
            width: c.f64("width")?,
            height: c.f64("height")?,
            rules: spine.rules(),
            fps: 30.0,
            ..SkeletonData::default()
        })
    })?;
    r.c.enter("skeleton header", None, None);
    if r.version >= Version::V42 {
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
    let n = if r.version.string_table() {
        r.c.count(1, "string count")?
    } else {
        0
    };
    r.strings.reserve_exact(n);
    for i in 0..n {
        r.c.set_index(i);
        let s = r.c.name_str("string")?;
        r.strings.push(s);
    }
    r.c.leave();
    setup::bones(&mut r, &mut data)?;
    setup::slots(&mut r, &mut data)?;
    if r.version.one_constraint_list() {
        flags43::constraints(&mut r, &mut data)?;
    } else if r.version.flag_bytes() {
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
    if r.version.one_constraint_list() {
        flags43::slider_animations(&mut r, &mut data)?;
        crate::format::linked_mesh::share_timelines(&mut data, |_, bytes| r.budget.spend(bytes))
            .map_err(|e| r.c.error(e.to_string()))?;
    }
    if r.c.remaining() != 0 {
        return Err(r.c.error(format!(
            "{} bytes left over after the last animation",
            r.c.remaining()
        )));
    }
    Ok(data)
}
