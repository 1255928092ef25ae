//! Bit-identity guard for optimisations of the runtime (issue 33): every corpus export (Spine
//! 3.7-4.3 JSON and `.skel`, DragonBones JSON and `.dbbin`, MRTK recordings) is played and
//! every pose hashed (FNV-1a over the bit patterns of bone world transforms, slot colors and
//! deforms, the attachments and the draw order), one line per file, compared with
//! `tests/fixtures/pose_hashes.txt`.
//!
//! Each pose is hashed twice: over the full `f64` bits (an optimisation that moves a last
//! bit, such as f32 trigonometry or a reassociated sum, shows there even where the goldens'
//! tolerance lets it pass) and over the bits rounded to `f32`. The `f64` hash depends on the
//! platform's libm (`sin`, `cos`, `atan2`... may differ in the last bit between glibc on
//! x86_64, where the fixture is written and CI runs, and other systems), so it is compared
//! only on x86_64 Linux with glibc; the `f32` hash is compared everywhere.
//!
//! The scenarios: each animation looping on track 0 from a fresh state, stepped with a mix of
//! small and large deltas (the large ones jump forward and, through the loop, back: key
//! lookups from a cached index and from scratch both run); then the anchors' mixing scenario
//! (track 0 switching animation every 20 frames with a 0.25 s default mix, track 1 at alpha
//! 0.5) as `examples/frame_loop.rs` runs it.
//!
//! A change that legitimately alters poses must still pass every golden test; then rewrite the
//! file with `BONESCOPE_WRITE_POSE_HASHES=1 cargo test --release --test goldens pose_hash::` and say so in
//! the commit.

use crate::common;

use bonescope::core::model::SkeletonData;
use bonescope::core::skeleton::{Physics, Skeleton};
use bonescope::core::state::{AnimationState, AnimationStateData};
use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const EXPECTED: &str = "tests/fixtures/pose_hashes.txt";
/// Frames per animation run (enough to loop short animations and reach far keys).
const FRAMES_PER_ANIM: usize = 72;
/// At most this many animations per skeleton (the synthetic-size ones have hundreds).
const MAX_ANIMS: usize = 40;
const MIX_FRAMES: usize = 160;

/// FNV-1a, 64 bits: stable across Rust versions and platforms, unlike `DefaultHasher`.
struct Fnv(u64);

/// The two hashes of the same poses: full `f64` bits and `f32`-rounded bits.
struct PoseHash {
    full: Fnv,
    rounded: Fnv,
}

impl PoseHash {
    fn new() -> PoseHash {
        PoseHash {
            full: Fnv::new(),
            rounded: Fnv::new(),
        }
    }
    fn f(&mut self, v: f64) {
        self.full.bytes(&v.to_bits().to_le_bytes());
        self.rounded.bytes(&(v as f32).to_bits().to_le_bytes());
    }
    fn u(&mut self, v: u64) {
        self.full.u(v);
        self.rounded.u(v);
    }
    /// `rounded/full`, as the fixture holds them.
    fn text(&self) -> String {
        format!("{:016x}/{:016x}", self.rounded.0, self.full.0)
    }
}

/// Whether the `f64` hashes are compared: the platform the fixture is written on.
const COMPARE_FULL_BITS: bool = cfg!(all(
    target_arch = "x86_64",
    target_os = "linux",
    target_env = "gnu"
));

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn u(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
}

fn hash_pose(h: &mut PoseHash, sk: &Skeleton) {
    for b in &sk.bones {
        for v in [b.a, b.b, b.c, b.d, b.world_x, b.world_y] {
            h.f(v);
        }
        h.u(u64::from(b.active));
    }
    for s in &sk.slots {
        for c in [Some(s.color), s.dark, s.offset].into_iter().flatten() {
            for v in [c.r, c.g, c.b, c.a] {
                h.f(v);
            }
        }
        h.u(s.attachment.map_or(u64::MAX, |a| a as u64));
        h.u(s.sequence_index as u64);
        h.u(s.deform.len() as u64);
        for &v in &s.deform {
            h.f(v);
        }
    }
    for &i in &sk.draw_order {
        h.u(i as u64);
    }
}

fn frame(state: &mut AnimationState, sk: &mut Skeleton, dt: f64) {
    state.update(dt);
    state.apply(sk);
    sk.update(dt);
    sk.update_world_transform_with(Physics::Update);
}

/// The hash of every pose of one skeleton's scenarios.
fn hash_skeleton(data: &Arc<SkeletonData>) -> String {
    let mut h = PoseHash::new();
    let n = data.animations.len();
    for i in 0..n.min(MAX_ANIMS) {
        let mut sk = Skeleton::new(data.clone());
        let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
        state.set_animation(0, Some(i), true);
        for f in 0..FRAMES_PER_ANIM {
            // Mostly 1/60 s, with jumps of a fraction of the animation every 9th frame.
            let dt = if f % 9 == 8 {
                0.37 + data.animations[i].duration * 0.29
            } else {
                1.0 / 60.0
            };
            frame(&mut state, &mut sk, dt);
            hash_pose(&mut h, &sk);
        }
    }
    if n > 0 {
        let mut sk = Skeleton::new(data.clone());
        let mut sd = AnimationStateData::new(data.clone());
        sd.default_mix = 0.25;
        let mut state = AnimationState::new(sd);
        state.set_animation(0, Some(0), true);
        let t1 = state.set_animation(1, Some(1 % n), true);
        if let Some(e) = state.entry_mut(t1) {
            e.alpha = 0.5;
        }
        let mut next = 1;
        for f in 0..MIX_FRAMES {
            if f % 20 == 19 {
                state.set_animation(0, Some(next % n), true);
                next += 1;
            }
            frame(&mut state, &mut sk, 1.0 / 60.0);
            hash_pose(&mut h, &sk);
        }
    }
    h.text()
}

/// Every loadable corpus file, relative to `corpus/`, sorted.
fn corpus_files(corpus: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                // MRTK's `invalid` folder holds refusals, not poses.
                if p.file_name().is_some_and(|n| n != "invalid") {
                    walk(&p, out);
                }
            } else if p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e, "json" | "skel" | "dbbin" | "bin"))
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(corpus, &mut out);
    let mut rel: Vec<PathBuf> = out
        .into_iter()
        .filter_map(|p| p.strip_prefix(corpus).ok().map(Path::to_path_buf))
        .collect();
    rel.sort();
    rel
}

/// One line per file: `path hash` per armature, or `path load-error` for files the loaders
/// refuse (a refusal appearing or disappearing is a change too).
fn hash_file(corpus: &Path, rel: &Path) -> String {
    let name = rel.to_string_lossy().replace('\\', "/");
    let bytes = std::fs::read(corpus.join(rel)).expect("read corpus file");
    match bonescope::format::load_all(&bytes, &name) {
        Err(_) => format!("{name} load-error"),
        Ok(all) => {
            let hashes: Vec<String> = all
                .into_iter()
                .map(|d| hash_skeleton(&Arc::new(d)))
                .collect();
            format!("{name} {}", hashes.join(" "))
        }
    }
}

#[test]
fn every_corpus_pose_is_bit_identical() {
    let Some(shared) = shared_dir("pose hashes") else {
        return;
    };
    let corpus = shared.join("corpus");
    let files = corpus_files(&corpus);
    assert!(files.len() > 200, "the corpus has {} files", files.len());
    let got: Vec<String> = files.iter().map(|f| hash_file(&corpus, f)).collect();
    let expected_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(EXPECTED);
    if std::env::var_os("BONESCOPE_WRITE_POSE_HASHES").is_some() {
        std::fs::write(&expected_path, got.join("\n") + "\n").expect("write pose hashes");
        return;
    }
    let text = std::fs::read_to_string(&expected_path).expect("tests/fixtures/pose_hashes.txt");
    let expected: BTreeMap<&str, &str> = text.lines().filter_map(|l| l.split_once(' ')).collect();
    let mut diffs = Vec::new();
    for line in &got {
        let (name, hash) = line.split_once(' ').expect("name hash");
        match expected.get(name) {
            Some(e) if same_hashes(e, hash) => {}
            Some(e) => diffs.push(format!("{name}: expected {e}, got {hash}")),
            None => diffs.push(format!("{name}: not in {EXPECTED} (got {hash})")),
        }
    }
    assert_eq!(
        got.len(),
        expected.len(),
        "{} files hashed, {} expected; differences: {diffs:#?}",
        got.len(),
        expected.len()
    );
    assert!(diffs.is_empty(), "poses changed: {diffs:#?}");
}

/// Whether two lines' hashes agree: every `rounded/full` pair, the full halves only where
/// they are compared.
fn same_hashes(expected: &str, got: &str) -> bool {
    if COMPARE_FULL_BITS {
        return expected == got;
    }
    let rounded = |line: &str| -> Vec<String> {
        line.split(' ')
            .map(|h| h.split('/').next().unwrap_or(h).to_string())
            .collect()
    };
    rounded(expected) == rounded(got)
}

#[test]
fn hashes_compare_rounded_halves_everywhere_and_full_halves_on_the_fixture_platform() {
    let a = "0000000000000001/00000000000000aa 0000000000000002/00000000000000bb";
    assert!(same_hashes(a, a));
    // A rounded half that differs always fails.
    assert!(!same_hashes(
        a,
        "0000000000000009/00000000000000aa 0000000000000002/00000000000000bb"
    ));
    // A full half that differs fails where full bits are compared.
    let full_differs = "0000000000000001/00000000000000ff 0000000000000002/00000000000000bb";
    assert_eq!(same_hashes(a, full_differs), !COMPARE_FULL_BITS);
    assert!(!same_hashes(a, "load-error"));
}
