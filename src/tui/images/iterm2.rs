//! iTerm2 inline images (`OSC 1337 ; File=inline=1;...: <base64 PNG> BEL`), stretched over
//! the placement's cells. Each frame draws over the last (the protocol has no ids).

use super::{Placement, Rgba, cursor_to};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// The picture as a PNG file (fast compression: frames are many and short-lived).
pub fn png_bytes(img: &Rgba) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width, img.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc.write_header()?;
        w.write_image_data(&img.pixels)?;
        w.finish()?;
    }
    Ok(out)
}

/// The bytes that draw `img` over the cells of `at`, the cursor left where it was.
pub fn encode(img: &Rgba, at: Placement) -> Result<Vec<u8>, png::EncodingError> {
    let png = png_bytes(img)?;
    let data = STANDARD.encode(&png);
    let mut out = Vec::with_capacity(data.len() + 128);
    cursor_to(&mut out, at.col, at.row);
    out.extend_from_slice(
        format!(
            "\x1b]1337;File=inline=1;size={};width={};height={};preserveAspectRatio=0;doNotMoveCursor=1:",
            png.len(),
            at.cols,
            at.rows
        )
        .as_bytes(),
    );
    out.extend_from_slice(data.as_bytes());
    out.push(0x07);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::images::test_images::sample;

    /// Decodes the escape back to its arguments and pixels.
    fn decode(bytes: &[u8]) -> (String, Rgba) {
        let text = std::str::from_utf8(bytes).expect("ascii");
        let start = text.find("\x1b]1337;File=").expect("osc 1337") + 12;
        let end = text.rfind('\x07').expect("BEL");
        let (args, data) = text[start..end].split_once(':').expect("args:data");
        let png = STANDARD.decode(data).expect("base64");
        assert!(args.contains(&format!("size={}", png.len())), "{args}");
        let dec = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = dec.read_info().expect("png header");
        let mut buf = vec![0; reader.output_buffer_size().expect("size")];
        let info = reader.next_frame(&mut buf).expect("png data");
        assert_eq!(info.color_type, png::ColorType::Rgba);
        buf.truncate(info.buffer_size());
        (
            args.to_string(),
            Rgba {
                width: info.width,
                height: info.height,
                pixels: buf,
            },
        )
    }

    #[test]
    fn decodes_back_to_the_same_pixels() {
        let img = sample(45, 30);
        let at = Placement {
            col: 1,
            row: 4,
            cols: 12,
            rows: 5,
        };
        let out = encode(&img, at).expect("encode");
        assert!(out.starts_with(b"\x1b[5;2H"));
        let (args, back) = decode(&out);
        assert_eq!(back, img);
        for a in ["inline=1", "width=12", "height=5", "preserveAspectRatio=0"] {
            assert!(args.split(';').any(|x| x == a), "{a} in {args}");
        }
    }
}
