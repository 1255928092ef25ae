//! The bone hierarchy as rows: which nodes are visible given the expanded bones.

use crate::core::model::SkeletonData;
use std::collections::HashSet;

/// A row of the tree: a bone, or a slot or physics constraint shown under its bone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Bone(usize),
    Slot(usize),
    Physics(usize),
}

/// A visible row and its depth in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub node: Node,
    pub depth: usize,
}

/// The hierarchy derived from one skeleton data (rebuilt only when the data changes).
///
/// Children are derived from the bones' parents, keeping only parents that come before their
/// child (the format's rule); anything else is treated as a root, so the tree is never cyclic
/// even for a malformed file.
#[derive(Clone, Debug, Default)]
pub struct Hierarchy {
    pub roots: Vec<usize>,
    pub children: Vec<Vec<usize>>,
    /// Slots attached to each bone, in setup draw order.
    pub slots: Vec<Vec<usize>>,
    /// Physics constraints moving each bone, in data order.
    pub physics: Vec<Vec<usize>>,
    /// The parent used for the tree (only parents before the child).
    pub parent: Vec<Option<usize>>,
    /// Each bone's depth in the tree.
    pub depth: Vec<usize>,
}

impl Hierarchy {
    pub fn new(data: &SkeletonData) -> Hierarchy {
        let n = data.bones.len();
        let mut h = Hierarchy {
            roots: Vec::new(),
            children: vec![Vec::new(); n],
            slots: vec![Vec::new(); n],
            physics: vec![Vec::new(); n],
            parent: vec![None; n],
            depth: vec![0; n],
        };
        for (i, b) in data.bones.iter().enumerate() {
            match b.parent.filter(|&p| p < i) {
                Some(p) => {
                    h.children[p].push(i);
                    h.parent[i] = Some(p);
                    h.depth[i] = h.depth[p] + 1;
                }
                None => h.roots.push(i),
            }
        }
        for (s, sd) in data.slots.iter().enumerate() {
            if let Some(list) = h.slots.get_mut(sd.bone) {
                list.push(s);
            }
        }
        for (c, pd) in data.physics_constraints.iter().enumerate() {
            if let Some(list) = h.physics.get_mut(pd.bone) {
                list.push(c);
            }
        }
        h
    }

    /// Whether a bone has anything to expand.
    pub fn expandable(&self, bone: usize) -> bool {
        !self.children[bone].is_empty()
            || !self.slots[bone].is_empty()
            || !self.physics[bone].is_empty()
    }

    /// The bone a node belongs to (a slot's bone).
    pub fn bone_of(&self, node: Node, data: &SkeletonData) -> Option<usize> {
        match node {
            Node::Bone(b) => (b < self.children.len()).then_some(b),
            Node::Slot(s) => data
                .slots
                .get(s)
                .map(|sd| sd.bone)
                .filter(|&b| b < self.children.len()),
            Node::Physics(c) => data
                .physics_constraints
                .get(c)
                .map(|pd| pd.bone)
                .filter(|&b| b < self.children.len()),
        }
    }

    /// The ancestors of `bone`, nearest first.
    pub fn ancestors(&self, bone: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.parent.get(bone).copied().flatten(), |&p| {
            self.parent[p]
        })
    }

    /// The visible rows: depth-first, each bone followed by its slots, its physics
    /// constraints, then its child bones.
    pub fn flatten(&self, data: &SkeletonData, open: &HashSet<String>) -> Vec<Row> {
        let mut rows = Vec::new();
        // An explicit stack: hierarchies from files can be arbitrarily deep.
        let mut stack: Vec<(usize, usize)> = self.roots.iter().rev().map(|&r| (r, 0)).collect();
        while let Some((b, depth)) = stack.pop() {
            rows.push(Row {
                node: Node::Bone(b),
                depth,
            });
            if !open.contains(&data.bones[b].name) {
                continue;
            }
            for &s in &self.slots[b] {
                rows.push(Row {
                    node: Node::Slot(s),
                    depth: depth + 1,
                });
            }
            for &c in &self.physics[b] {
                rows.push(Row {
                    node: Node::Physics(c),
                    depth: depth + 1,
                });
            }
            for &c in self.children[b].iter().rev() {
                stack.push((c, depth + 1));
            }
        }
        rows
    }
}

/// How a row names `name` under a parent named `parent`: without the parent's dotted
/// namespace when it shares it (`hand.right.IndexTip` under `hand.right.IndexDistalJoint`
/// shows as `IndexTip`; the tree already says whose it is), else in full.
pub fn relative_name<'a>(name: &'a str, parent: Option<&str>) -> &'a str {
    let Some(parent) = parent else {
        return name;
    };
    match parent.rfind('.') {
        Some(dot) if dot > 0 => {
            let prefix = &parent[..=dot];
            match name.strip_prefix(prefix) {
                Some(rest) if !rest.is_empty() => rest,
                _ => name,
            }
        }
        _ => name,
    }
}

impl Hierarchy {
    /// The name a bone row shows (see [`relative_name`]).
    pub fn bone_label<'a>(&self, data: &'a SkeletonData, b: usize) -> &'a str {
        let parent = self.parent[b].map(|p| data.bones[p].name.as_str());
        relative_name(&data.bones[b].name, parent)
    }

    /// The name a slot row shows, relative to its bone's.
    pub fn slot_label<'a>(&self, data: &'a SkeletonData, s: usize) -> &'a str {
        let sd = &data.slots[s];
        relative_name(&sd.name, data.bones.get(sd.bone).map(|b| b.name.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::BoneData;

    #[test]
    fn names_relative_to_a_dotted_parent() {
        assert_eq!(
            relative_name("hand.right.IndexTip", Some("hand.right.IndexDistalJoint")),
            "IndexTip"
        );
        assert_eq!(relative_name("hand.right.Wrist", None), "hand.right.Wrist");
        assert_eq!(relative_name("upper-arm-l", Some("torso")), "upper-arm-l");
        assert_eq!(relative_name("a.b", Some("a.")), "b");
        assert_eq!(relative_name("a.", Some("a.x")), "a.", "never empty");
        assert_eq!(relative_name("b.c", Some(".x")), "b.c", "no namespace");
    }

    #[test]
    fn parents_after_children_become_roots() {
        let mut data = SkeletonData::default();
        data.bones.push(BoneData::new("a", Some(1)));
        data.bones.push(BoneData::new("b", Some(0)));
        let h = Hierarchy::new(&data);
        assert_eq!(h.roots, vec![0]);
        assert_eq!(h.children[0], vec![1]);
        let open: HashSet<String> = ["a".to_string()].into();
        let rows = h.flatten(&data, &open);
        assert_eq!(rows.len(), 2);
        assert_eq!(h.ancestors(1).collect::<Vec<_>>(), vec![0]);
    }
}
