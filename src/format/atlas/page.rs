//! PNG pages decoded to premultiplied RGBA (what the renderer samples).

use super::{AtlasError, MAX_PAGE_SIDE};

/// A decoded page: `width` x `height` pixels, RGBA 8-bit, premultiplied alpha, rows top down.
#[derive(Clone, Debug, PartialEq)]
pub struct PageImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl PageImage {
    /// A page from straight-alpha RGBA (premultiplied here). `None` when the length is wrong.
    pub fn from_straight(width: u32, height: u32, mut rgba: Vec<u8>) -> Option<PageImage> {
        if rgba.len() as u64 != u64::from(width) * u64::from(height) * 4 {
            return None;
        }
        premultiply(&mut rgba);
        Some(PageImage {
            width,
            height,
            rgba,
        })
    }
}

/// Decodes PNG bytes. `pma`: the image already holds premultiplied colour (the atlas says
/// `pma: true`); otherwise its straight colours are premultiplied, as Skia does on decode.
pub fn decode_page(bytes: &[u8], name: &str, pma: bool) -> Result<PageImage, AtlasError> {
    let fail = |message: String| AtlasError::Page {
        page: crate::text::sanitize(name).into_owned(),
        message,
    };
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let side = MAX_PAGE_SIDE as usize;
    decoder.set_limits(png::Limits {
        bytes: side * side * 4,
    });
    let mut reader = decoder.read_info().map_err(|e| fail(e.to_string()))?;
    let (width, height) = (reader.info().width, reader.info().height);
    if width > MAX_PAGE_SIDE || height > MAX_PAGE_SIDE {
        return Err(fail(format!(
            "{width}x{height} pixels: at most {MAX_PAGE_SIDE} per side"
        )));
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| fail("image too large".into()))?;
    let mut buf = vec![0; size];
    let frame = reader
        .next_frame(&mut buf)
        .map_err(|e| fail(e.to_string()))?;
    let pixels = (width as usize) * (height as usize);
    let mut rgba = Vec::with_capacity(pixels * 4);
    let data = &buf[..frame.buffer_size()];
    match frame.color_type {
        png::ColorType::Rgba => rgba.extend_from_slice(data),
        png::ColorType::Rgb => data
            .chunks_exact(3)
            .for_each(|p| rgba.extend_from_slice(&[p[0], p[1], p[2], 255])),
        png::ColorType::GrayscaleAlpha => data
            .chunks_exact(2)
            .for_each(|p| rgba.extend_from_slice(&[p[0], p[0], p[0], p[1]])),
        png::ColorType::Grayscale => data
            .chunks_exact(1)
            .for_each(|p| rgba.extend_from_slice(&[p[0], p[0], p[0], 255])),
        png::ColorType::Indexed => return Err(fail("palette was not expanded".into())),
    }
    if rgba.len() != pixels * 4 {
        return Err(fail("truncated pixel data".into()));
    }
    if !pma {
        premultiply(&mut rgba);
    }
    Ok(PageImage {
        width,
        height,
        rgba,
    })
}

/// Straight to premultiplied alpha, rounding to nearest.
fn premultiply(rgba: &mut [u8]) {
    for p in rgba.chunks_exact_mut(4) {
        let a = u32::from(p[3]);
        if a != 255 {
            for c in &mut p[..3] {
                *c = ((u32::from(*c) * a + 127) / 255) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(w: u32, h: u32, color: png::ColorType, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(color);
        e.set_depth(png::BitDepth::Eight);
        e.write_header().unwrap().write_image_data(data).unwrap();
        out
    }

    #[test]
    fn straight_pages_are_premultiplied_pma_pages_kept() {
        let bytes = encode(1, 1, png::ColorType::Rgba, &[200, 100, 50, 128]);
        let p = decode_page(&bytes, "p", false).unwrap();
        assert_eq!(p.rgba, vec![100, 50, 25, 128]);
        let p = decode_page(&bytes, "p", true).unwrap();
        assert_eq!(p.rgba, vec![200, 100, 50, 128]);
        let rgb = encode(2, 1, png::ColorType::Rgb, &[1, 2, 3, 4, 5, 6]);
        assert_eq!(
            decode_page(&rgb, "p", false).unwrap().rgba,
            vec![1, 2, 3, 255, 4, 5, 6, 255]
        );
    }

    #[test]
    fn broken_pages_are_errors() {
        let e = decode_page(b"not a png", "a.png", false).unwrap_err();
        assert!(e.to_string().starts_with("page a.png: "), "{e}");
        let mut bytes = encode(4, 4, png::ColorType::Rgba, &[9; 64]);
        bytes.truncate(bytes.len() - 20);
        assert!(decode_page(&bytes, "a.png", false).is_err());
    }
}
