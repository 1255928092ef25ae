//! The bone hierarchy as rows: which nodes are visible given the expanded bones.

use crate::core::model::{ConstraintRef, SkeletonData};
use std::collections::HashSet;

/// A row of the tree: a bone, its applied pose, or a slot or constraint shown under its bone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Bone(usize),
    /// The bone's applied pose (the row under the bone's while it differs from the pose).
    Applied(usize),
    Slot(usize),
    Constraint(ConstraintRef),
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
    /// The constraints shown under each bone (see [`host_bone`]), in update order.
    pub constraints: Vec<Vec<ConstraintRef>>,
    /// The bone each constraint row is under, by constraint.
    hosts: Vec<(ConstraintRef, usize)>,
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
            constraints: vec![Vec::new(); n],
            hosts: Vec::new(),
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
        for c in constraints_in_order(data) {
            if let Some(b) = host_bone(data, c).filter(|&b| b < n) {
                h.constraints[b].push(c);
                h.hosts.push((c, b));
            } else if let Some(&r) = h.roots.first() {
                h.constraints[r].push(c);
                h.hosts.push((c, r));
            }
        }
        h
    }

    /// Whether a bone has anything to expand.
    pub fn expandable(&self, bone: usize) -> bool {
        !self.children[bone].is_empty()
            || !self.slots[bone].is_empty()
            || !self.constraints[bone].is_empty()
    }

    /// The bone a node belongs to (a slot's bone).
    pub fn bone_of(&self, node: Node, data: &SkeletonData) -> Option<usize> {
        match node {
            Node::Bone(b) | Node::Applied(b) => (b < self.children.len()).then_some(b),
            Node::Slot(s) => data
                .slots
                .get(s)
                .map(|sd| sd.bone)
                .filter(|&b| b < self.children.len()),
            Node::Constraint(c) => self.hosts.iter().find(|h| h.0 == c).map(|h| h.1),
        }
    }

    /// The ancestors of `bone`, nearest first.
    pub fn ancestors(&self, bone: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.parent.get(bone).copied().flatten(), |&p| {
            self.parent[p]
        })
    }

    /// The visible rows: depth-first, each bone followed by its applied pose (when
    /// `applied[bone]`), then if expanded its slots, its constraints, then its child bones.
    pub fn flatten(
        &self,
        data: &SkeletonData,
        open: &HashSet<String>,
        applied: &[bool],
    ) -> Vec<Row> {
        let mut rows = Vec::new();
        // An explicit stack: hierarchies from files can be arbitrarily deep.
        let mut stack: Vec<(usize, usize)> = self.roots.iter().rev().map(|&r| (r, 0)).collect();
        while let Some((b, depth)) = stack.pop() {
            rows.push(Row {
                node: Node::Bone(b),
                depth,
            });
            if applied.get(b).copied().unwrap_or(false) {
                rows.push(Row {
                    node: Node::Applied(b),
                    depth: depth + 1,
                });
            }
            if !open.contains(&data.bones[b].name) {
                continue;
            }
            for &s in &self.slots[b] {
                rows.push(Row {
                    node: Node::Slot(s),
                    depth: depth + 1,
                });
            }
            for &c in &self.constraints[b] {
                rows.push(Row {
                    node: Node::Constraint(c),
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

/// Every constraint in update order (`constraint_order`; in kind order for data whose
/// order was not derived).
pub fn constraints_in_order(data: &SkeletonData) -> Vec<ConstraintRef> {
    let total = data.ik_constraints.len()
        + data.transform_constraints.len()
        + data.path_constraints.len()
        + data.physics_constraints.len()
        + data.slider_constraints.len();
    if data.constraint_order.len() == total {
        return data.constraint_order.clone();
    }
    let mut all: Vec<ConstraintRef> = (0..data.ik_constraints.len())
        .map(ConstraintRef::Ik)
        .collect();
    all.extend((0..data.transform_constraints.len()).map(ConstraintRef::Transform));
    all.extend((0..data.path_constraints.len()).map(ConstraintRef::Path));
    all.extend((0..data.physics_constraints.len()).map(ConstraintRef::Physics));
    all.extend((0..data.slider_constraints.len()).map(ConstraintRef::Slider));
    all
}

/// The bone a constraint's row is shown under: the first bone it changes (an IK chain's
/// parent, a physics constraint's bone); a slider's driving bone (the one to move to play
/// it), else the first bone its animation keys. `None` (the first root then) for a slider
/// that keys no bone and has no driver.
pub fn host_bone(data: &SkeletonData, c: ConstraintRef) -> Option<usize> {
    if let ConstraintRef::Slider(i) = c
        && let Some(d) = data.slider_constraints.get(i).and_then(|s| s.driver)
    {
        return Some(d.bone);
    }
    data.constraint_bones(c).first().copied()
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
        let rows = h.flatten(&data, &open, &[]);
        assert_eq!(rows.len(), 2);
        assert_eq!(h.ancestors(1).collect::<Vec<_>>(), vec![0]);
    }
}
