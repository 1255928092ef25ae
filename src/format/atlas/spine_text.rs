//! The Spine `.atlas` text format, both layouts:
//!
//! - 3.x: a blank line, the page name, `size`, `format`, `filter`, `repeat`; then regions,
//!   each a name line followed by indented `rotate: true|false|90`, `xy`, `size`, `orig`,
//!   `offset`, `index`.
//! - 4.x: the page name, `size`, `filter`, `pma`, `scale`; regions with `bounds: x,y,w,h`,
//!   `offsets: x,y,origW,origH`, `rotate: 90`, `index`. Pages are separated by blank lines.
//!
//! A line with a `:` is a field of the current region (or of the page before its first
//! region); any other line is a page name after a blank line (or at the top), else a region
//! name. Unknown fields (`split`, `pad`, custom values) are skipped.

use super::{Atlas, AtlasError, AtlasPage, AtlasRegion, MAX_PAGE_SIDE};

/// Most regions one atlas may hold.
const MAX_REGIONS: usize = 1 << 20;

/// Parses Spine atlas text.
pub fn parse_spine_atlas(text: &str) -> Result<Atlas, AtlasError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut atlas = Atlas::default();
    let mut expect_page = true;
    // Per region: whether `orig` / `offsets` were given (else they follow the size).
    let mut has_orig = false;
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            expect_page = true;
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        let err = |column: usize, message: String| AtlasError::Syntax {
            line,
            column: column + 1,
            message,
        };
        if expect_page {
            expect_page = false;
            if let Some(r) = atlas.regions.last_mut() {
                finish_region(r, has_orig);
            }
            atlas.pages.push(AtlasPage {
                name: trimmed.to_string(),
                width: 0,
                height: 0,
                pma: false,
                scale: 1.0,
            });
            continue;
        }
        let page = atlas.pages.len() - 1;
        let Some((key, value)) = trimmed.split_once(':') else {
            if let Some(r) = atlas.regions.last_mut() {
                if r.page == page {
                    finish_region(r, has_orig);
                }
            }
            if atlas.regions.len() >= MAX_REGIONS {
                return Err(err(indent, format!("more than {MAX_REGIONS} regions")));
            }
            atlas.regions.push(AtlasRegion {
                name: trimmed.to_string(),
                page,
                x: 0,
                y: 0,
                width: 0,
                height: 0,
                original_width: 0,
                original_height: 0,
                offset_x: 0.0,
                offset_y: 0.0,
                degrees: 0,
                index: -1,
            });
            has_orig = false;
            continue;
        };
        let key = key.trim();
        let vcol = indent + trimmed.find(':').unwrap_or(0) + 1;
        let value = value.trim();
        let bad = |what: &str| err(vcol, format!("{key}: expected {what}, found {value:?}"));
        let nums = |count: usize| -> Result<Vec<i64>, AtlasError> {
            let v: Option<Vec<i64>> = value.split(',').map(|p| p.trim().parse().ok()).collect();
            match v {
                Some(v) if v.len() == count => Ok(v),
                _ => Err(bad(&format!("{count} integers"))),
            }
        };
        let side = |v: i64| -> Result<u32, AtlasError> {
            u32::try_from(v)
                .ok()
                .filter(|&v| v <= MAX_PAGE_SIDE)
                .ok_or_else(|| bad(&format!("sizes from 0 to {MAX_PAGE_SIDE}")))
        };
        let region = atlas.regions.last_mut().filter(|r| r.page == page);
        match region {
            None => match key {
                "size" => {
                    let v = nums(2)?;
                    let p = &mut atlas.pages[page];
                    (p.width, p.height) = (side(v[0])?, side(v[1])?);
                }
                "pma" => {
                    atlas.pages[page].pma = parse_bool(value).ok_or_else(|| bad("true or false"))?
                }
                "scale" => {
                    atlas.pages[page].scale = value
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s > 0.0)
                        .ok_or_else(|| bad("a positive number"))?
                }
                _ => {}
            },
            Some(r) => match key {
                "xy" => {
                    let v = nums(2)?;
                    (r.x, r.y) = (side(v[0])?, side(v[1])?);
                }
                "size" => {
                    let v = nums(2)?;
                    (r.width, r.height) = (side(v[0])?, side(v[1])?);
                }
                "bounds" => {
                    let v = nums(4)?;
                    (r.x, r.y) = (side(v[0])?, side(v[1])?);
                    (r.width, r.height) = (side(v[2])?, side(v[3])?);
                }
                "orig" => {
                    let v = nums(2)?;
                    (r.original_width, r.original_height) = (side(v[0])?, side(v[1])?);
                    has_orig = true;
                }
                "offset" => {
                    let v = nums(2)?;
                    (r.offset_x, r.offset_y) = (v[0] as f64, v[1] as f64);
                }
                "offsets" => {
                    let v = nums(4)?;
                    (r.offset_x, r.offset_y) = (v[0] as f64, v[1] as f64);
                    (r.original_width, r.original_height) = (side(v[2])?, side(v[3])?);
                    has_orig = true;
                }
                "rotate" => {
                    r.degrees = match value {
                        "true" => 90,
                        "false" => 0,
                        _ => match value.parse::<i64>() {
                            Ok(d) if d.rem_euclid(90) == 0 => d.rem_euclid(360) as u32,
                            _ => return Err(bad("true, false or a multiple of 90")),
                        },
                    }
                }
                "index" => r.index = value.parse::<i32>().map_err(|_| bad("an integer"))?,
                _ => {}
            },
        }
    }
    if let Some(r) = atlas.regions.last_mut() {
        finish_region(r, has_orig);
    }
    Ok(atlas)
}

/// A region without `orig` is untrimmed: its original size is its packed size.
fn finish_region(r: &mut AtlasRegion, has_orig: bool) {
    if !has_orig || (r.original_width == 0 && r.original_height == 0) {
        r.original_width = r.width;
        r.original_height = r.height;
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V38: &str = "\nboy.png\nsize: 1024,256\nformat: RGBA8888\nfilter: Linear,Linear\nrepeat: none\ncrosshair\n  rotate: false\n  xy: 352, 7\n  size: 45, 45\n  orig: 45, 47\n  offset: 0, 2\n  index: -1\narm\n  rotate: true\n  xy: 2, 3\n  size: 20, 50\n  orig: 20, 50\n  offset: 0, 0\n  index: 4\n\nboy2.png\nsize: 64,64\nformat: RGBA8888\nfilter: Linear,Linear\nrepeat: none\nfoot\n  rotate: 90\n  xy: 1, 1\n  size: 5, 6\n  orig: 5, 6\n  offset: 0, 0\n  index: -1\n";

    const V4X: &str = "boy.png\n\tsize: 1024, 256\n\tfilter: Linear, Linear\n\tpma: true\n\tscale: 0.5\ncrosshair\n\tbounds: 352, 7, 45, 45\nhead\n\tbounds: 2, 2, 30, 40\n\toffsets: 3, 4, 36, 48\n\trotate: 90\n\nboy_2.png\n\tsize: 128, 128\n\tfilter: Linear, Linear\nfoot\n\tbounds: 1, 2, 3, 4\n";

    #[test]
    fn reads_the_3x_layout() {
        let a = parse_spine_atlas(V38).unwrap();
        assert_eq!(a.pages.len(), 2);
        assert_eq!(
            (a.pages[0].width, a.pages[0].height, a.pages[0].pma),
            (1024, 256, false)
        );
        let c = a.find_region("crosshair").unwrap();
        assert_eq!((c.x, c.y, c.width, c.height), (352, 7, 45, 45));
        assert_eq!((c.original_width, c.original_height), (45, 47));
        assert_eq!((c.offset_x, c.offset_y, c.degrees), (0.0, 2.0, 0));
        let arm = a.find_region("arm").unwrap();
        assert_eq!((arm.degrees, arm.index), (90, 4));
        let foot = a.find_region("foot").unwrap();
        assert_eq!((foot.page, foot.degrees), (1, 90));
    }

    #[test]
    fn reads_the_4x_layout_with_trim_pma_and_scale() {
        let a = parse_spine_atlas(V4X).unwrap();
        assert_eq!(a.pages.len(), 2);
        assert!(a.pages[0].pma && !a.pages[1].pma);
        assert_eq!(a.pages[0].scale, 0.5);
        let c = a.find_region("crosshair").unwrap();
        assert_eq!((c.original_width, c.original_height), (45, 45));
        let h = a.find_region("head").unwrap();
        assert_eq!((h.x, h.y, h.width, h.height), (2, 2, 30, 40));
        assert_eq!((h.offset_x, h.offset_y), (3.0, 4.0));
        assert_eq!(
            (h.original_width, h.original_height, h.degrees),
            (36, 48, 90)
        );
        assert_eq!(a.find_region("foot").unwrap().page, 1);
    }

    #[test]
    fn bad_values_are_located() {
        let e = parse_spine_atlas("p.png\nsize: 10,10\nr\n  bounds: 1, x, 2, 2\n").unwrap_err();
        assert!(
            matches!(
                e,
                AtlasError::Syntax {
                    line: 4,
                    column: 10,
                    ..
                }
            ),
            "{e}"
        );
        let e = parse_spine_atlas("p.png\nr\n  rotate: 45\n").unwrap_err();
        assert!(
            e.to_string().starts_with("line 3, column 10: rotate"),
            "{e}"
        );
        let e = parse_spine_atlas("p.png\nsize: 99999,1\n").unwrap_err();
        assert!(e.to_string().contains("sizes from 0"), "{e}");
    }
}
