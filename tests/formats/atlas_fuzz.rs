//! Texture atlases and their pages under mutation: Spine `.atlas` text (the built-in sample's
//! and the corpus's 3.8 / 4.2 atlases), DragonBones `_tex.json` and PNG pages, cut and
//! mutated with a fixed seed. Each read ends in an atlas or a located `AtlasError`: never a
//! panic, and a page that claims absurd dimensions is refused before it is allocated.

use crate::common;

use bonescope::format::atlas::{
    AtlasError, Textures, decode_page, parse_dragonbones_tex, parse_spine_atlas,
};
use common::rng::Rng;

const SAMPLE_ATLAS: &str = include_str!("../../samples/spine/lantern-keeper.atlas");
const SAMPLE_PAGE: &[u8] = include_bytes!("../../samples/spine/lantern-keeper.png");
const DB_TEX: &str = include_str!("../fixtures/dragonbones-tex/nested_tex.json");
const DB_PAGE: &[u8] = include_bytes!("../fixtures/dragonbones-tex/nested_tex.png");

/// An atlas error says where: a line and column, or the page.
fn located(e: &AtlasError) -> bool {
    match e {
        AtlasError::Syntax { line, .. } => *line >= 1,
        AtlasError::Page { page, .. } => !page.is_empty(),
        AtlasError::Read(_) => false,
    }
}

/// `text` mutated: a few bytes replaced, removed or duplicated, kept as (lossy) UTF-8 as a
/// file read to a string would be.
fn mutate_text(text: &str, rng: &mut Rng) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..1 + rng.index(4) {
        if b.is_empty() {
            break;
        }
        let i = rng.index(b.len());
        match rng.below(4) {
            0 => b[i] = rng.pick(b"0123456789-.,:x \n\t{}[]\"abc"),
            1 => {
                b.remove(i);
            }
            2 => {
                let c = b[i];
                b.insert(i, c);
            }
            _ => b.truncate(i),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn check_spine_text(text: &str) {
    if let Err(e) = parse_spine_atlas(text) {
        assert!(located(&e), "unlocated: {e}");
    }
}

fn check_db_text(text: &str) {
    if let Err(e) = parse_dragonbones_tex(text) {
        assert!(located(&e), "unlocated: {e}");
    }
}

#[test]
fn every_prefix_of_the_atlases_reads_or_fails_located() {
    for end in 0..=SAMPLE_ATLAS.len() {
        if SAMPLE_ATLAS.is_char_boundary(end) {
            check_spine_text(&SAMPLE_ATLAS[..end]);
        }
    }
    for end in 0..=DB_TEX.len() {
        if DB_TEX.is_char_boundary(end) {
            check_db_text(&DB_TEX[..end]);
        }
    }
}

#[test]
fn seeded_mutations_of_atlas_text() {
    let mut texts = vec![SAMPLE_ATLAS.to_string()];
    if let Some(shared) = common::shared_dir("atlas mutations on the corpus") {
        for (dir, name) in [
            ("corpus/spine/3.8", "spineboy.atlas"),
            ("corpus/spine/4.2", "spineboy.atlas"),
            ("corpus/spine/4.2", "raptor.atlas"),
        ] {
            let path = shared.join(dir).join(name);
            if let Ok(t) = std::fs::read_to_string(&path) {
                texts.push(t);
            } else {
                common::skip("atlas mutations", &format!("{} is absent", path.display()));
            }
        }
    }
    let mut rng = Rng::new(0x5eed_a71a5);
    for text in &texts {
        parse_spine_atlas(text).expect("the unmutated atlas reads");
        for _ in 0..1500 {
            check_spine_text(&mutate_text(text, &mut rng));
        }
    }
    parse_dragonbones_tex(DB_TEX).expect("the unmutated _tex.json reads");
    for _ in 0..3000 {
        check_db_text(&mutate_text(DB_TEX, &mut rng));
    }
}

#[test]
fn seeded_mutations_of_png_pages() {
    let mut rng = Rng::new(0x0070_6e67);
    for page in [SAMPLE_PAGE, DB_PAGE] {
        decode_page(page, "page.png", false).expect("the unmutated page decodes");
        for round in 0..600 {
            let mut b = page.to_vec();
            if round % 10 == 0 {
                b.truncate(rng.index(b.len()));
            } else {
                for _ in 0..1 + rng.index(3) {
                    let i = rng.index(b.len());
                    b[i] = rng.below(256) as u8;
                }
            }
            if let Err(e) = decode_page(&b, "page.png", round % 2 == 0) {
                assert!(located(&e), "unlocated: {e}");
            }
        }
    }
}

/// A PNG header (signature, IHDR with a correct CRC) claiming `w` x `h` RGBA pixels, and
/// no image data.
fn png_claiming(w: u32, h: u32) -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let crc = crc32(&ihdr);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend_from_slice(&13u32.to_be_bytes());
    out.extend_from_slice(&ihdr);
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn a_page_claiming_absurd_dimensions_is_refused_at_once() {
    let started = std::time::Instant::now();
    for (w, h) in [(1 << 30, 1 << 30), (100_000, 100_000), (u32::MAX, 1)] {
        let e = decode_page(&png_claiming(w, h), "huge.png", false)
            .expect_err("a page of absurd size is refused");
        assert!(located(&e), "unlocated: {e}");
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "refusing took {:?}",
        started.elapsed()
    );
}

#[test]
fn textures_from_mutated_atlas_and_page_never_panic() {
    let mut rng = Rng::new(0x7e87_0e55);
    for _ in 0..300 {
        let text = mutate_text(SAMPLE_ATLAS, &mut rng);
        let mut page = SAMPLE_PAGE.to_vec();
        let i = rng.index(page.len());
        page[i] ^= 1 << rng.below(8);
        if let Ok(t) = Textures::from_memory(&text, &[("lantern-keeper.png", &page)]) {
            let _ = t.has_region("lantern");
        }
    }
}
