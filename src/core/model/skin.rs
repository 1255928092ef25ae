use super::{AttachmentId, ConstraintRef};

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
}

impl SlotEntries {
    fn as_slice(&self) -> &[(String, AttachmentId)] {
        match self {
            SlotEntries::Empty => &[],
            SlotEntries::One(e) => std::slice::from_ref(e),
            SlotEntries::Many(v) => v,
        }
    }

    fn as_mut_slice(&mut self) -> &mut [(String, AttachmentId)] {
        match self {
            SlotEntries::Empty => &mut [],
            SlotEntries::One(e) => std::slice::from_mut(e),
            SlotEntries::Many(v) => v,
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
                *self = SlotEntries::Many(v);
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
        match entries.as_mut_slice().iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = attachment,
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
        self.slot_entries(slot)
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, a)| a)
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
