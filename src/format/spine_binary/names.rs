//! The set of names seen so far of one kind (bones, slots, constraints), for the duplicate
//! check every name takes.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Up to this many names are hashed with [`WordHasher`]; a longer list (only a file built to
/// be one, as real rigs have hundreds) takes std's keyed hasher, so names crafted to collide
/// cost at most this many comparisons each.
const FAST_NAMES: usize = 1024;

/// Names seen so far, borrowed from the file.
pub enum NameSet<'a> {
    Fast(HashSet<&'a str, BuildHasherDefault<WordHasher>>),
    Keyed(HashSet<&'a str>),
}

impl<'a> NameSet<'a> {
    /// A set for a list of `count` names (bounded by the caller's bytes left).
    pub fn with_capacity(count: usize) -> NameSet<'a> {
        if count <= FAST_NAMES {
            NameSet::Fast(HashSet::with_capacity_and_hasher(count, Default::default()))
        } else {
            NameSet::Keyed(HashSet::with_capacity(FAST_NAMES))
        }
    }

    /// Adds `name`; false when it was there already.
    #[inline]
    pub fn insert(&mut self, name: &'a str) -> bool {
        match self {
            NameSet::Fast(s) => s.insert(name),
            NameSet::Keyed(s) => s.insert(name),
        }
    }
}

/// A multiply-rotate hash over 8-byte words (as rustc's `FxHasher`): a few instructions per
/// short name where std's SipHash took about 200 per name.
#[derive(Default)]
pub struct WordHasher(u64);

impl WordHasher {
    const K: u64 = 0xf135_7aea_2e62_a9c5;

    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(WordHasher::K);
    }
}

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let (words, tail) = bytes.as_chunks::<8>();
        for w in words {
            self.add(u64::from_le_bytes(*w));
        }
        let mut last = [0u8; 8];
        last[..tail.len()].copy_from_slice(tail);
        self.add(u64::from_le_bytes(last) ^ (tail.len() as u64) << 59);
    }

    #[inline]
    fn write_u8(&mut self, b: u8) {
        self.add(b as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // hashbrown takes its 7-bit tag from the top bits and the bucket from the low ones:
        // fold the well-mixed high half into the low.
        self.0 ^ (self.0 >> 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_are_found_in_both_kinds() {
        for count in [3, FAST_NAMES + 1] {
            let mut set = NameSet::with_capacity(count);
            assert!(set.insert("root"));
            assert!(set.insert("hip"));
            assert!(set.insert("a-longer-bone-name-past-one-word"));
            assert!(set.insert(""));
            assert!(!set.insert("hip"));
            assert!(!set.insert("a-longer-bone-name-past-one-word"));
            assert!(!set.insert(""));
            assert!(set.insert("a-longer-bone-name-past-one-worD"));
        }
    }
}
