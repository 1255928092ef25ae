//! Texture atlases and pages: the first byte picks the reader (Spine `.atlas` text,
//! DragonBones `_tex.json`, a PNG page, or an atlas with the rest as its one page); the rest
//! is its input. Located errors, never a panic or an allocation a header merely claims.
#![no_main]

use bonescope::format::atlas::{Textures, decode_page, parse_dragonbones_tex, parse_spine_atlas};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    match pick % 4 {
        0 => {
            let _ = parse_spine_atlas(&text);
        }
        1 => {
            let _ = parse_dragonbones_tex(&text);
        }
        2 => {
            let _ = decode_page(rest, "page.png", pick & 0x80 != 0);
        }
        _ => {
            // "page.png" first, then the regions the text names; the same bytes as the page.
            let atlas = format!("page.png\nsize: 4,4\n{text}");
            if let Ok(t) = Textures::from_memory(&atlas, &[("page.png", rest)]) {
                let _ = t.has_region("a");
            }
        }
    }
});
