//! The textured renderer: a pure function of (posed skeleton, textures, camera, background)
//! to an RGBA image, with no terminal code and no file I/O.
//!
//! ```
//! use bonescope::core::skeleton::Skeleton;
//! use bonescope::format::atlas::Textures;
//! use bonescope::raster::{Background, RenderOptions, draw, default_viewport};
//! use std::sync::Arc;
//!
//! let data = Arc::new(bonescope::format::load(bonescope::EMBEDDED_SAMPLE, "sample")?);
//! let mut skeleton = Skeleton::new(data);
//! skeleton.set_to_setup_pose();
//! skeleton.update_world_transform();
//! let viewport = default_viewport(&skeleton).expect("the sample has attachments");
//! let options = RenderOptions { width: 64, height: 48, viewport, background: Background::DEFAULT, untextured_bones: true };
//! let image = draw(&skeleton, &Textures::default(), &options);
//! assert_eq!(image.rgba.len(), 64 * 48 * 4);
//! # Ok::<(), bonescope::format::LoadError>(())
//! ```
//!
//! API (stable): [`draw()`] renders one frame into an [`Image`] (straight-alpha RGBA 8-bit, rows
//! top down; opaque unless the background is [`Background::Transparent`]); [`RenderOptions`]
//! gives the pixel size, the [`Viewport`] (world units, y up) and the [`Background`];
//! [`default_viewport`] is the setup-pose bounds padded by 5% of the larger side, rounded
//! outward; [`Camera`] is the world-to-pixel map (fit and centre, keeping the aspect ratio).
//!
//! The pixel contract is the render oracle's (`shared/oracle/render/README.md`): draw order,
//! triangles covering pixel centres (no antialiasing), bilinear clamped sampling of
//! premultiplied pages (8-bit weights), vertex colour `skeleton * slot * attachment` with each channel
//! `trunc(clamp(v * 255))`, and blending in premultiplied sRGB values without gamma:
//! normal = SrcOver, additive = Plus, screen = Screen, multiply = `S*D + S*(1-Da) + D*(1-Sa)`
//! (not drawn as normal, unlike the oracle). A slot's dark colour tints as the runtimes' two
//! colour shader: `texel * light + (1 - texel) * dark` per straight channel, alpha
//! `texel.a * light.a`. Clipping attachments mask the slots up to their end slot with the
//! polygon's pixel-centre coverage (which equals clipping the triangles, then covering).
//! Attachments whose region or page is missing (or all of them, without an atlas) are listed
//! in [`Image::missing`] and drawn untextured: a flat translucent grey under the slot's colour,
//! outlined with thin anti-aliased lines ([`untextured`]); when nothing at all could be
//! textured the bones are drawn too, so the picture always shows the pose. A frame whose
//! attachments are all textured is unchanged by this.
//! A DragonBones child armature (an armature attachment) is drawn in its setup pose where the
//! attachment places it on its bone, its colours multiplied by the slot's, inside the clip
//! of its slot (up to 3 levels deep, as the wireframe).

pub mod blend;
pub mod camera;
pub mod clipping;
pub mod draw;
pub mod fill;
pub mod line;
pub mod sample;
pub mod triangle;
pub mod untextured;

pub use camera::{Camera, Viewport, default_viewport};
pub use draw::{Background, Image, RenderOptions, draw};

#[cfg(test)]
mod tests;
