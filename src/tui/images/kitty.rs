//! The kitty graphics protocol: the picture as zlib-compressed RGBA (`f=32,o=z`), base64 in
//! chunks of 4096 bytes, transmitted and placed at a cell in one command (`a=T`). One image
//! id is reused for every frame, so a new frame replaces the old image's data, and the
//! placement keeps its id, so it replaces the old placement instead of stacking on it.
//! Every command is sent quietly (`q=2`): no reply comes back to be mistaken for keys.

use super::{Placement, Rgba, cursor_to};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use flate2::Compression;
use flate2::write::ZlibEncoder;
use std::io::Write;

/// Base64 bytes per escape sequence, at most (the protocol's limit).
pub const CHUNK: usize = 4096;
/// The placement id bonescope uses with its image id.
const PLACEMENT: u32 = 1;

/// The bytes that draw `img` at `at` (the image scaled to `at.cols` x `at.rows` cells) as
/// image `id`, replacing what image `id` showed before. The cursor does not move (`C=1`).
pub fn encode(img: &Rgba, id: u32, at: Placement) -> Vec<u8> {
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    // Writing to a Vec cannot fail.
    let _ = z.write_all(&img.pixels);
    let packed = z.finish().unwrap_or_default();
    let data = STANDARD.encode(packed);
    let mut out = Vec::with_capacity(data.len() + data.len() / CHUNK * 8 + 128);
    cursor_to(&mut out, at.col, at.row);
    let chunks: Vec<&[u8]> = data.as_bytes().chunks(CHUNK).collect();
    let last = chunks.len().saturating_sub(1);
    for (i, chunk) in chunks.iter().enumerate() {
        out.extend_from_slice(b"\x1b_G");
        if i == 0 {
            out.extend_from_slice(
                format!(
                    "a=T,f=32,o=z,s={},v={},i={id},p={PLACEMENT},c={},r={},C=1,q=2,",
                    img.width, img.height, at.cols, at.rows
                )
                .as_bytes(),
            );
        }
        out.extend_from_slice(if i == last { b"m=0;" } else { b"m=1;" });
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\x1b\\");
    }
    if chunks.is_empty() {
        // An empty image still replaces the old one.
        out.extend_from_slice(
            format!("\x1b_Ga=T,f=32,o=z,s=0,v=0,i={id},p={PLACEMENT},C=1,q=2;\x1b\\").as_bytes(),
        );
    }
    out
}

/// The bytes that delete image `id`'s placements and free its data.
pub fn delete(id: u32) -> Vec<u8> {
    format!("\x1b_Ga=d,d=I,i={id},q=2\x1b\\").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::images::test_images::sample;
    use flate2::read::ZlibDecoder;
    use std::io::Read;

    /// A decoder for what [`encode`] sends: the control keys of the first command and the
    /// pixels of all chunks put together, unpacked.
    fn decode(bytes: &[u8]) -> (Vec<(String, String)>, Vec<u8>, usize) {
        let text = std::str::from_utf8(bytes).expect("ascii");
        let mut keys = Vec::new();
        let mut payload = String::new();
        let mut commands = 0;
        let mut rest = text;
        let mut more = true;
        while let Some(start) = rest.find("\x1b_G") {
            assert!(more, "a command after the last chunk");
            let end = rest[start..].find("\x1b\\").expect("terminated") + start;
            let body = &rest[start + 3..end];
            let (control, data) = body.split_once(';').expect("control;payload");
            assert!(data.len() <= CHUNK);
            let kv: Vec<(String, String)> = control
                .split(',')
                .map(|kv| {
                    let (k, v) = kv.split_once('=').expect("k=v");
                    (k.to_string(), v.to_string())
                })
                .collect();
            more = kv.iter().any(|(k, v)| k == "m" && v == "1");
            if commands == 0 {
                keys = kv;
            } else {
                assert_eq!(kv.len(), 1, "continuations carry m only: {control}");
            }
            payload.push_str(data);
            commands += 1;
            rest = &rest[end + 2..];
        }
        assert!(!more, "the last chunk says m=0");
        let packed = STANDARD.decode(payload).expect("base64");
        let mut pixels = Vec::new();
        ZlibDecoder::new(&packed[..])
            .read_to_end(&mut pixels)
            .expect("zlib");
        (keys, pixels, commands)
    }

    fn key<'a>(keys: &'a [(String, String)], k: &str) -> &'a str {
        &keys.iter().find(|(n, _)| n == k).expect(k).1
    }

    #[test]
    fn decodes_back_to_the_same_pixels() {
        let img = sample(97, 61);
        let at = Placement {
            col: 3,
            row: 2,
            cols: 20,
            rows: 7,
        };
        let out = encode(&img, 7, at);
        assert!(out.starts_with(b"\x1b[3;4H"), "placed at the cell");
        let (keys, pixels, commands) = decode(&out);
        assert_eq!(pixels, img.pixels);
        assert!(commands > 1, "a picture this size takes several chunks");
        for (k, v) in [
            ("a", "T"),
            ("f", "32"),
            ("o", "z"),
            ("s", "97"),
            ("v", "61"),
            ("i", "7"),
            ("c", "20"),
            ("r", "7"),
            ("C", "1"),
            ("q", "2"),
        ] {
            assert_eq!(key(&keys, k), v, "{k}");
        }
    }

    #[test]
    fn frames_reuse_the_image_and_placement_ids() {
        let at = Placement {
            col: 0,
            row: 0,
            cols: 4,
            rows: 2,
        };
        let a = decode(&encode(&sample(8, 8), 5, at)).0;
        let b = decode(&encode(&sample(16, 8), 5, at)).0;
        assert_eq!(key(&a, "i"), key(&b, "i"));
        assert_eq!(key(&a, "p"), key(&b, "p"));
        assert_eq!(delete(5), b"\x1b_Ga=d,d=I,i=5,q=2\x1b\\");
    }

    #[test]
    fn compression_pays_on_flat_pictures() {
        let img = Rgba::filled(200, 100, [10, 20, 30, 255]).expect("size");
        let out = encode(
            &img,
            1,
            Placement {
                col: 0,
                row: 0,
                cols: 10,
                rows: 5,
            },
        );
        assert!(out.len() < img.pixels.len() / 50, "{} bytes", out.len());
        assert_eq!(decode(&out).1, img.pixels);
    }
}
