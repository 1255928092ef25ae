use super::{AttachmentId, ConstraintRef};

/// A set of attachments keyed by (slot, name), plus the bones and constraints it activates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skin {
    pub name: String,
    /// Per slot index: (key name, attachment), in file order.
    slots: Vec<Vec<(String, AttachmentId)>>,
    pub bones: Vec<usize>,
    pub constraints: Vec<ConstraintRef>,
}

impl Skin {
    /// An empty skin.
    pub fn new(name: impl Into<String>) -> Skin {
        Skin {
            name: name.into(),
            ..Skin::default()
        }
    }

    /// Adds or replaces the attachment for (slot, key name).
    pub fn set(&mut self, slot: usize, name: &str, attachment: AttachmentId) {
        if self.slots.len() <= slot {
            self.slots.resize_with(slot + 1, Vec::new);
        }
        let entries = &mut self.slots[slot];
        match entries.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = attachment,
            None => entries.push((name.to_string(), attachment)),
        }
    }

    /// Adds an attachment under a key the caller knows is new in `slot` (loaders that
    /// deduplicate keys themselves; `set` would search the slot's entries each time).
    pub fn push_new(&mut self, slot: usize, name: String, attachment: AttachmentId) {
        if self.slots.len() <= slot {
            self.slots.resize_with(slot + 1, Vec::new);
        }
        self.slots[slot].push((name, attachment));
    }

    /// The attachment for (slot, key name).
    pub fn get(&self, slot: usize, name: &str) -> Option<AttachmentId> {
        self.slots
            .get(slot)?
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, a)| a)
    }

    /// Every (key name, attachment) of a slot, in file order.
    pub fn slot_entries(&self, slot: usize) -> &[(String, AttachmentId)] {
        self.slots.get(slot).map_or(&[], |v| v.as_slice())
    }

    /// Every (slot, key name, attachment).
    pub fn entries(&self) -> impl Iterator<Item = (usize, &str, AttachmentId)> {
        self.slots
            .iter()
            .enumerate()
            .flat_map(|(s, v)| v.iter().map(move |(n, a)| (s, n.as_str(), *a)))
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
