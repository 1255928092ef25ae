//! DragonBones texture atlases (`*_tex.json`): one page (`imagePath`) and its `SubTexture`s.
//!
//! A sub-texture's `frameX` / `frameY` (zero or negative) place the packed image inside its
//! `frameWidth` x `frameHeight` frame, from the top-left; they become the Spine-style
//! bottom-left offsets of [`AtlasRegion`]. `rotated: true` (a 90 degree clockwise packing) is
//! stored as 270 degrees counter-clockwise.

use super::{Atlas, AtlasError, AtlasPage, AtlasRegion, MAX_PAGE_SIDE};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TexDto {
    image_path: Option<String>,
    name: Option<String>,
    #[serde(default)]
    width: f64,
    #[serde(default)]
    height: f64,
    #[serde(default, rename = "SubTexture")]
    sub_texture: Vec<SubDto>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SubDto {
    name: String,
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    frame_x: Option<f64>,
    frame_y: Option<f64>,
    frame_width: Option<f64>,
    frame_height: Option<f64>,
    #[serde(default)]
    rotated: bool,
}

/// Parses a DragonBones `_tex.json`.
pub fn parse_dragonbones_tex(text: &str) -> Result<Atlas, AtlasError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let dto: TexDto = serde_path_to_error::deserialize(de).map_err(|e| {
        let inner = e.inner();
        AtlasError::Syntax {
            line: inner.line(),
            column: inner.column(),
            message: format!("{}: {}", e.path(), inner),
        }
    })?;
    let side = |v: f64| -> Result<u32, AtlasError> {
        if v.is_finite() && (0.0..=MAX_PAGE_SIDE as f64).contains(&v) {
            Ok(v.round() as u32)
        } else {
            Err(AtlasError::Syntax {
                line: 1,
                column: 1,
                message: format!("a size or position of {v} (0 to {MAX_PAGE_SIDE})"),
            })
        }
    };
    let name = dto
        .image_path
        .or(dto.name.map(|n| format!("{n}.png")))
        .unwrap_or_default();
    let mut atlas = Atlas {
        pages: vec![AtlasPage {
            name,
            width: side(dto.width)?,
            height: side(dto.height)?,
            pma: false,
            scale: 1.0,
        }],
        regions: Vec::with_capacity(dto.sub_texture.len()),
    };
    for s in dto.sub_texture {
        let (w, h) = (side(s.width)?, side(s.height)?);
        let fw = s.frame_width.map(side).transpose()?.unwrap_or(w);
        let fh = s.frame_height.map(side).transpose()?.unwrap_or(h);
        let fx = s.frame_x.unwrap_or(0.0);
        let fy = s.frame_y.unwrap_or(0.0);
        atlas.regions.push(AtlasRegion {
            name: s.name,
            page: 0,
            x: side(s.x)?,
            y: side(s.y)?,
            width: w,
            height: h,
            original_width: fw,
            original_height: fh,
            offset_x: -fx,
            offset_y: fh as f64 - h as f64 + fy,
            degrees: if s.rotated { 270 } else { 0 },
            index: -1,
        });
    }
    Ok(atlas)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sub_textures_with_frames() {
        let a = parse_dragonbones_tex(
            r#"{"imagePath":"d_tex.png","width":64,"height":32,"SubTexture":[
            {"name":"arm","x":1,"y":2,"width":10,"height":8},
            {"name":"leg","x":20,"y":2,"width":10,"height":8,"frameX":-2,"frameY":-3,"frameWidth":14,"frameHeight":16}]}"#,
        )
        .unwrap();
        assert_eq!(a.pages[0].name, "d_tex.png");
        let leg = a.find_region("leg").unwrap();
        assert_eq!((leg.original_width, leg.original_height), (14, 16));
        assert_eq!((leg.offset_x, leg.offset_y), (2.0, 5.0));
        let arm = a.find_region("arm").unwrap();
        assert_eq!((arm.original_width, arm.offset_y), (10, 0.0));
        let e = parse_dragonbones_tex("{\"SubTexture\": [{\"name\": 3}]}").unwrap_err();
        assert!(e.to_string().starts_with("line 1, column "), "{e}");
    }
}
