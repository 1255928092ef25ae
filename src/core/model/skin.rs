use super::{AttachmentId, ConstraintRef};
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// A set of attachments keyed by (slot, name), plus the bones and constraints it activates.
#[derive(Clone, Debug, Default)]
pub struct Skin {
    pub name: String,
    /// Per slot index: (key name, attachment), in file order.
    slots: Vec<SlotEntries>,
    pub bones: Vec<usize>,
    pub constraints: Vec<ConstraintRef>,
}

/// One slot's (key name, attachment) entries. Most skins hold one attachment per slot: it is
/// kept inline, sparing a list allocation for every attachment a loader reads.
#[derive(Clone, Debug, Default)]
enum SlotEntries {
    #[default]
    Empty,
    One((String, AttachmentId)),
    Many(Vec<(String, AttachmentId)>),
    /// A long slot, with its entries' positions hashed by key: a search per lookup would make
    /// reading a file quadratic in a slot's attachments (a hostile file can list hundreds of
    /// thousands of them in one slot).
    Indexed(Box<IndexedEntries>),
}

/// A long slot's entries in file order, and their positions by key.
#[derive(Clone, Debug)]
struct IndexedEntries {
    entries: Vec<(String, AttachmentId)>,
    positions: HashTable<usize>,
    hasher: foldhash::fast::RandomState,
}

impl IndexedEntries {
    fn new(entries: Vec<(String, AttachmentId)>) -> IndexedEntries {
        let mut indexed = IndexedEntries {
            positions: HashTable::with_capacity(entries.len()),
            entries: Vec::new(),
            hasher: foldhash::fast::RandomState::default(),
        };
        for entry in entries {
            indexed.push(entry);
        }
        indexed
    }

    fn find(&self, name: &str) -> Option<usize> {
        let hash = self.hasher.hash_one(name);
        self.positions
            .find(hash, |&i| self.entries[i].0 == name)
            .copied()
    }

    fn push(&mut self, entry: (String, AttachmentId)) {
        let (hasher, entries) = (&self.hasher, &self.entries);
        let hash = hasher.hash_one(entry.0.as_str());
        self.positions.insert_unique(hash, entries.len(), |&i| {
            hasher.hash_one(entries[i].0.as_str())
        });
        self.entries.push(entry);
    }
}

impl SlotEntries {
    /// Slots with more entries than this are hashed.
    const SEARCHED: usize = 16;

    fn as_slice(&self) -> &[(String, AttachmentId)] {
        match self {
            SlotEntries::Empty => &[],
            SlotEntries::One(e) => std::slice::from_ref(e),
            SlotEntries::Many(v) => v,
            SlotEntries::Indexed(x) => &x.entries,
        }
    }

    /// The position of the entry with key `name`.
    fn find(&self, name: &str) -> Option<usize> {
        match self {
            SlotEntries::Indexed(x) => x.find(name),
            _ => self.as_slice().iter().position(|(n, _)| n == name),
        }
    }

    fn set_attachment(&mut self, position: usize, attachment: AttachmentId) {
        let entry = match self {
            SlotEntries::Empty => None,
            SlotEntries::One(e) => Some(e),
            SlotEntries::Many(v) => v.get_mut(position),
            SlotEntries::Indexed(x) => x.entries.get_mut(position),
        };
        if let Some(e) = entry {
            e.1 = attachment;
        }
    }

    fn push(&mut self, entry: (String, AttachmentId)) {
        match std::mem::take(self) {
            SlotEntries::Empty => *self = SlotEntries::One(entry),
            SlotEntries::One(first) => {
                let mut v = Vec::with_capacity(4);
                v.push(first);
                v.push(entry);
                *self = SlotEntries::Many(v);
            }
            SlotEntries::Many(mut v) => {
                v.push(entry);
                *self = if v.len() > Self::SEARCHED {
                    SlotEntries::Indexed(Box::new(IndexedEntries::new(v)))
                } else {
                    SlotEntries::Many(v)
                };
            }
            SlotEntries::Indexed(mut x) => {
                x.push(entry);
                *self = SlotEntries::Indexed(x);
            }
        }
    }
}

impl PartialEq for Skin {
    /// Equal entries, bones and constraints, however much slot room each reserved.
    fn eq(&self, other: &Skin) -> bool {
        let slots = self.slots.len().max(other.slots.len());
        self.name == other.name
            && self.bones == other.bones
            && self.constraints == other.constraints
            && (0..slots).all(|s| self.slot_entries(s) == other.slot_entries(s))
    }
}

impl Skin {
    /// An empty skin.
    pub fn new(name: impl Into<String>) -> Skin {
        Skin {
            name: name.into(),
            ..Skin::default()
        }
    }

    /// Makes room for attachments of slots below `slots` without growing the slot list one
    /// slot at a time (loaders that know the skeleton's slot count).
    pub fn reserve_slots(&mut self, slots: usize) {
        if self.slots.len() < slots {
            self.slots.resize_with(slots, SlotEntries::default);
        }
    }

    /// The entries of `slot`, made to exist.
    fn slot_mut(&mut self, slot: usize) -> &mut SlotEntries {
        if self.slots.len() <= slot {
            self.slots.resize_with(slot + 1, SlotEntries::default);
        }
        &mut self.slots[slot]
    }

    /// Adds or replaces the attachment for (slot, key name).
    pub fn set(&mut self, slot: usize, name: &str, attachment: AttachmentId) {
        let entries = self.slot_mut(slot);
        match entries.find(name) {
            Some(position) => entries.set_attachment(position, attachment),
            None => entries.push((name.to_string(), attachment)),
        }
    }

    /// Adds an attachment under a key the caller knows is new in `slot` (loaders that
    /// deduplicate keys themselves; `set` would search the slot's entries each time).
    pub fn push_new(&mut self, slot: usize, name: String, attachment: AttachmentId) {
        self.slot_mut(slot).push((name, attachment));
    }

    /// The attachment for (slot, key name).
    pub fn get(&self, slot: usize, name: &str) -> Option<AttachmentId> {
        let entries = self.slots.get(slot)?;
        entries.find(name).map(|i| entries.as_slice()[i].1)
    }

    /// Every (key name, attachment) of a slot, in file order.
    pub fn slot_entries(&self, slot: usize) -> &[(String, AttachmentId)] {
        self.slots.get(slot).map_or(&[], SlotEntries::as_slice)
    }

    /// Every (slot, key name, attachment).
    pub fn entries(&self) -> impl Iterator<Item = (usize, &str, AttachmentId)> {
        self.slots
            .iter()
            .enumerate()
            .flat_map(|(s, v)| v.as_slice().iter().map(move |(n, a)| (s, n.as_str(), *a)))
    }

    /// Merges another skin into this one: its attachments (replacing same keys), bones and
    /// constraints.
    pub fn add_skin(&mut self, other: &Skin) {
        for b in &other.bones {
            if !self.bones.contains(b) {
                self.bones.push(*b);
            }
        }
        for c in &other.constraints {
            if !self.constraints.contains(c) {
                self.constraints.push(*c);
            }
        }
        for (slot, name, att) in other.entries() {
            self.set(slot, name, att);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_then_many_entries_per_slot() {
        let mut skin = Skin::new("s");
        skin.push_new(2, "a".into(), 0);
        assert_eq!(skin.slot_entries(2), &[("a".to_string(), 0)]);
        skin.push_new(2, "b".into(), 1);
        skin.set(2, "a", 5);
        skin.set(2, "c", 6);
        assert_eq!(skin.get(2, "a"), Some(5));
        assert_eq!(skin.get(2, "b"), Some(1));
        assert_eq!(skin.get(2, "c"), Some(6));
        assert_eq!(skin.get(1, "a"), None);
        assert_eq!(skin.get(9, "a"), None);
        let all: Vec<_> = skin.entries().collect();
        assert_eq!(all, [(2, "a", 5), (2, "b", 1), (2, "c", 6)]);
    }

    /// Past `SEARCHED` entries a slot is hashed: lookups, replacements and the file order
    /// stay as they were.
    #[test]
    fn long_slots_find_and_replace_every_key() {
        let mut skin = Skin::new("s");
        let n = 3 * SlotEntries::SEARCHED;
        for i in 0..n {
            skin.push_new(0, format!("k{i}"), i);
            for j in 0..=i {
                assert_eq!(skin.get(0, &format!("k{j}")), Some(j), "k{j} after {i}");
            }
            assert_eq!(skin.get(0, "missing"), None);
        }
        assert!(matches!(skin.slots[0], SlotEntries::Indexed(_)));
        skin.set(0, "k3", 100);
        skin.set(0, "new", 101);
        assert_eq!(skin.get(0, "k3"), Some(100));
        assert_eq!(skin.get(0, "new"), Some(101));
        let order: Vec<_> = skin
            .entries()
            .map(|(_, name, _)| name.to_string())
            .collect();
        let mut expected: Vec<_> = (0..n).map(|i| format!("k{i}")).collect();
        expected.push("new".into());
        assert_eq!(order, expected);
        let mut copy = Skin::new("s");
        copy.add_skin(&skin);
        assert_eq!(copy, skin);
    }

    #[test]
    fn reserved_slot_room_does_not_change_equality() {
        let mut a = Skin::new("s");
        a.reserve_slots(10);
        a.push_new(1, "x".into(), 3);
        let mut b = Skin::new("s");
        b.set(1, "x", 3);
        assert_eq!(a, b);
        b.set(4, "y", 0);
        assert_ne!(a, b);
        assert_ne!(b, a);
    }
}
