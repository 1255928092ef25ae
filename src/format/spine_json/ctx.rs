//! What the builder carries around: the raw text (to locate errors) and the name tables.

use foldhash::{HashMap, HashMapExt};

use crate::core::color::Color;
use crate::format::ErrorKind;
use crate::format::LoadError;
use crate::format::json::budget::Budget;
use crate::format::json::{OrderedMap, Seg, error_at};

/// The text being loaded (to turn a path into a located [`LoadError`]) and the expansion
/// budget.
#[derive(Clone, Copy)]
pub struct Ctx<'t> {
    pub text: &'t [u8],
    /// What the builder may still allocate for data that is not in the text itself (deform
    /// keys expanded to full arrays, draw order keys to full slot orders, event keys
    /// inheriting a long default string, linked meshes copying their parent's geometry).
    budget: &'t Budget,
    /// The export's version (some keys exist only in some versions).
    pub version: super::SpineVersion,
}

impl<'t> Ctx<'t> {
    pub fn new(text: &'t [u8], budget: &'t Budget, version: super::SpineVersion) -> Ctx<'t> {
        Ctx {
            text,
            budget,
            version,
        }
    }

    /// Takes `bytes` from the expansion budget, or fails at `path`.
    pub fn spend(&self, bytes: usize, path: &[Seg<'_>]) -> Result<(), LoadError> {
        self.budget
            .spend(bytes)
            .map_err(|m| self.err(path, m.to_string()))
    }

    /// Takes `bytes` from the expansion budget, or says why not (for shared code that
    /// locates its own errors).
    pub fn budget_spend(&self, bytes: usize) -> Result<(), crate::format::json::BudgetExceeded> {
        self.budget.spend(bytes)
    }

    /// Walks the named entries of the section `anim.section` (`bones`, `ik`, `slider`...)
    /// in file order: refuses a repeated name, then calls `f` with each entry's path, name
    /// and value (the per-timeline loop every animation section shares).
    pub fn each_entry<T>(
        &self,
        anim: &[Seg<'_>],
        section: &'static str,
        map: &mut OrderedMap<T>,
        mut f: impl FnMut(&[Seg<'_>], &str, &mut T) -> Result<(), LoadError>,
    ) -> Result<(), LoadError> {
        self.no_duplicates(map, &join(anim, &[Seg::Key(section)]))?;
        for (i, (name, t)) in map.0.iter_mut().enumerate() {
            let name = name.as_str();
            f(
                &join(anim, &[Seg::Key(section), Seg::Entry(i, name)]),
                name,
                t,
            )?;
        }
        Ok(())
    }

    /// [`Self::each_entry`] with each entry's path joined only when it is read (the 4.x
    /// sections, whose builders join their timelines' paths from it).
    pub fn each_entry_lazy<T>(
        &self,
        anim: &[Seg<'_>],
        section: &'static str,
        map: &mut OrderedMap<T>,
        mut f: impl FnMut(&LazyPath<'_, '_, 2>, &str, &mut T) -> Result<(), LoadError>,
    ) -> Result<(), LoadError> {
        self.no_duplicates(map, &join(anim, &[Seg::Key(section)]))?;
        for (i, (name, t)) in map.0.iter_mut().enumerate() {
            let name = name.as_str();
            let at = LazyPath {
                base: anim,
                more: [Seg::Key(section), Seg::Entry(i, name)],
            };
            f(&at, name, t)?;
        }
        Ok(())
    }

    /// Fails at the first repeated key of `map` (found at `at`).
    pub fn no_duplicates<T>(&self, map: &OrderedMap<T>, at: &[Seg<'_>]) -> Result<(), LoadError> {
        match map.first_duplicate() {
            None => Ok(()),
            Some(i) => {
                let key = map.0[i].0.as_str();
                Err(self
                    .err(
                        &join(at, &[Seg::Entry(i, key)]),
                        format!("duplicate key \"{key}\""),
                    )
                    .with_kind(ErrorKind::DuplicateName))
            }
        }
    }

    /// An error at the value `path`, with its line and column.
    pub fn err(&self, path: &[Seg<'_>], message: impl AsRef<str>) -> LoadError {
        error_at(self.text, path, message)
    }

    /// Parses a hex color at `path`.
    pub fn color(&self, hex: &str, path: &[Seg<'_>]) -> Result<Color, LoadError> {
        Color::from_hex(hex).ok_or_else(|| {
            self.err(
                path,
                format!("bad color \"{hex}\" (expected RRGGBBAA or RRGGBB hex)"),
            )
        })
    }
}

/// `base` followed by `more`.
pub fn join<'a>(base: &[Seg<'a>], more: &[Seg<'a>]) -> SegPath<'a> {
    let len = base.len() + more.len();
    if len > INLINE_SEGS {
        return SegPath {
            inline: [Seg::Index(0); INLINE_SEGS],
            len,
            heap: [base, more].concat(),
        };
    }
    // Each slot written once, in place: filling the array with a placeholder first and
    // then copying over it (through a chained iterator) was most of a join's cost, and
    // joins are made for every timeline and attachment (3 % of a load).
    let inline = std::array::from_fn(|i| match base.get(i) {
        Some(seg) => *seg,
        None => more.get(i - base.len()).copied().unwrap_or(Seg::Index(0)),
    });
    SegPath {
        inline,
        len,
        heap: Vec::new(),
    }
}

/// A path joined only when it is read: `base` followed by `more`. The builder walks every
/// attachment with one and reads it only on errors (joining each eagerly was ~1 % of a
/// load); what it reads is exactly [`join`]`(base, more)`.
#[derive(Clone, Copy)]
pub struct LazyPath<'p, 'a, const N: usize> {
    pub base: &'p [Seg<'a>],
    pub more: [Seg<'a>; N],
}

impl<'a, const N: usize> LazyPath<'_, 'a, N> {
    /// The path.
    pub fn path(&self) -> SegPath<'a> {
        join(self.base, &self.more)
    }

    /// The path followed by `more`, joined at once.
    pub fn join(&self, more: &[Seg<'a>]) -> SegPath<'a> {
        let (base, mid) = (self.base, &self.more[..]);
        let len = base.len() + mid.len() + more.len();
        if len > INLINE_SEGS {
            return SegPath {
                inline: [Seg::Index(0); INLINE_SEGS],
                len,
                heap: [base, mid, more].concat(),
            };
        }
        // As in `join`: each slot written once, in place.
        let inline = std::array::from_fn(|i| match base.get(i) {
            Some(seg) => *seg,
            None => match mid.get(i - base.len()) {
                Some(seg) => *seg,
                None => (more.get(i - base.len() - mid.len()).copied()).unwrap_or(Seg::Index(0)),
            },
        });
        SegPath {
            inline,
            len,
            heap: Vec::new(),
        }
    }
}

/// [`lookup`] at a path joined only for the error.
pub fn lookup_at<const N: usize>(
    ctx: Ctx<'_>,
    table: &HashMap<&str, usize>,
    name: &str,
    what: &str,
    at: &LazyPath<'_, '_, N>,
) -> Result<usize, LoadError> {
    match table.get(name) {
        Some(&i) => Ok(i),
        None => Err(unknown(ctx, name, what, &at.path())),
    }
}

/// Path depth held without an allocation. The paths made for every timeline and attachment
/// are at most 8 deep (`animations.<name>.attachments.<skin>.<slot>.<key>.deform` is 7);
/// only error paths go deeper, and they may allocate. Every slot is copied when a path is
/// returned, so a shorter array is a cheaper join.
const INLINE_SEGS: usize = 8;

/// A path built by [`join`]. The builder makes one for every timeline and key list it walks,
/// though it is read only when something is wrong: it lives on the stack (`heap` is used,
/// and allocated, only for paths deeper than [`INLINE_SEGS`]).
#[derive(Clone, Debug)]
pub struct SegPath<'a> {
    inline: [Seg<'a>; INLINE_SEGS],
    len: usize,
    heap: Vec<Seg<'a>>,
}

impl<'a> std::ops::Deref for SegPath<'a> {
    type Target = [Seg<'a>];

    fn deref(&self) -> &[Seg<'a>] {
        if self.len <= INLINE_SEGS {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

/// Name -> index tables for everything referenced by name.
///
/// foldhash rather than the standard SipHash: a lookup per timeline, key list and skin
/// entry made SipHash a few percent of a load. Its seed is random per process, so a file
/// cannot be written to make every name collide (which would make building a table
/// quadratic); the tables are only looked up, never iterated, so the seed changes nothing
/// a load produces.
#[derive(Default)]
pub struct Names<'a> {
    pub bones: HashMap<&'a str, usize>,
    pub slots: HashMap<&'a str, usize>,
    pub ik: HashMap<&'a str, usize>,
    pub transform: HashMap<&'a str, usize>,
    pub path: HashMap<&'a str, usize>,
    pub physics: HashMap<&'a str, usize>,
    /// Spine 4.3 sliders.
    pub slider: HashMap<&'a str, usize>,
    pub skins: HashMap<&'a str, usize>,
    pub events: HashMap<&'a str, usize>,
}

/// Looks `name` up in `table`, or fails with "unknown <what> \"name\"" at `path`.
pub fn lookup(
    ctx: Ctx<'_>,
    table: &HashMap<&str, usize>,
    name: &str,
    what: &str,
    path: &[Seg<'_>],
) -> Result<usize, LoadError> {
    table
        .get(name)
        .copied()
        .ok_or_else(|| unknown(ctx, name, what, path))
}

/// The error of [`lookup`] for a `name` not in its table.
pub fn unknown(ctx: Ctx<'_>, name: &str, what: &str, path: &[Seg<'_>]) -> LoadError {
    ctx.err(path, format!("unknown {what} \"{name}\""))
        .with_kind(ErrorKind::DanglingReference)
}

/// Builds a unique-name table; a repeated name is an error at `path(index)`.
pub fn unique_names<'a, 'p>(
    ctx: Ctx<'_>,
    names: impl Iterator<Item = &'a str>,
    what: &str,
    path: impl Fn(usize) -> Vec<Seg<'p>>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let mut table = HashMap::with_capacity(names.size_hint().0);
    for (i, name) in names.enumerate() {
        if table.insert(name, i).is_some() {
            return Err(ctx
                .err(&path(i), format!("duplicate {what} name \"{name}\""))
                .with_kind(ErrorKind::DuplicateName));
        }
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_paths_of_any_depth() {
        let base = [Seg::Key("animations"), Seg::Entry(2, "walk")];
        assert_eq!(
            &*join(&base, &[Seg::Index(3)]),
            &[Seg::Key("animations"), Seg::Entry(2, "walk"), Seg::Index(3)]
        );
        let deep: Vec<Seg<'_>> = (0..20).map(Seg::Index).collect();
        let joined = join(&deep, &base);
        assert_eq!(joined.len(), 22);
        assert_eq!(&joined[..20], &deep[..]);
        assert_eq!(&joined[20..], &base);
        assert!(join(&[], &[]).is_empty());
    }
}
