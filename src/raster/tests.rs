//! Frames of tiny skeletons over 1x1 pages: each blend mode, the dark tint, PMA pages,
//! clipping and missing regions, checked pixel by pixel.

use super::*;
use crate::core::skeleton::Skeleton;
use crate::format::atlas::{PageImage, Textures, parse_spine_atlas};
use std::sync::Arc;

/// A 4.2 skeleton whose slots (JSON) all show 10x10 regions called `sq` on the root bone.
fn skeleton(slots: &str, attachments: &str) -> Skeleton {
    let json = format!(
        r#"{{"skeleton":{{"spine":"4.2.0"}},"bones":[{{"name":"root"}}],"slots":[{slots}],
        "skins":[{{"name":"default","attachments":{{{attachments}}}}}],"animations":{{}}}}"#
    );
    let data = crate::format::load(json.as_bytes(), "t").expect("test skeleton");
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk.update_world_transform();
    sk
}

fn page(rgba: [u8; 4], pma: bool) -> Textures {
    let atlas = parse_spine_atlas(&format!(
        "p.png\nsize: 1,1\npma: {pma}\nsq\nbounds: 0,0,1,1\n"
    ))
    .unwrap();
    let image = PageImage {
        width: 1,
        height: 1,
        rgba: rgba.to_vec(),
    };
    Textures::new(atlas, vec![Some(image)], Vec::new())
}

fn render(sk: &Skeleton, t: &Textures, bg: Background) -> Image {
    let viewport = Viewport {
        x: -5.0,
        y: -5.0,
        w: 10.0,
        h: 10.0,
    };
    draw(
        sk,
        t,
        &RenderOptions {
            width: 10,
            height: 10,
            viewport,
            background: bg,
            untextured_bones: true,
        },
    )
}

fn pixel(img: &Image, x: usize, y: usize) -> [u8; 4] {
    let i = (y * img.width as usize + x) * 4;
    img.rgba[i..i + 4].try_into().unwrap()
}

const SQ: &str = r#""sq":{"width":10,"height":10}"#;

/// Two full-frame slots: `base` colour under `top` colour with `blend`.
fn two(base: &str, top: &str, blend: &str) -> [u8; 4] {
    let sk = skeleton(
        &format!(
            r#"{{"name":"a","bone":"root","attachment":"sq","color":"{base}"}},
               {{"name":"b","bone":"root","attachment":"sq","color":"{top}","blend":"{blend}"}}"#
        ),
        &format!(r#""a":{{{SQ}}},"b":{{{SQ}}}"#),
    );
    pixel(
        &render(&sk, &page([255; 4], false), Background::DEFAULT),
        5,
        5,
    )
}

fn near(a: [u8; 4], b: [u8; 4]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 1)
}

#[test]
fn each_blend_mode() {
    let n = two("ff8000ff", "80808080", "normal");
    // SrcOver: 128/255 alpha grey over orange.
    assert!(near(n, [191, 127, 64, 255]), "{n:?}");
    let a = two("800000ff", "008000ff", "additive");
    assert!(near(a, [128, 128, 0, 255]), "{a:?}");
    let m = two("ff8000ff", "808080ff", "multiply");
    assert!(near(m, [128, 64, 0, 255]), "multiply is not normal: {m:?}");
    let s = two("808080ff", "808080ff", "screen");
    assert!(near(s, [192, 192, 192, 255]), "{s:?}");
}

#[test]
fn colours_multiply_and_truncate_per_channel() {
    // skeleton x slot x attachment, each product truncated to 8 bits: 0.5 * 0.5 = 0.25 -> 63.
    let sk = skeleton(
        r#"{"name":"a","bone":"root","attachment":"sq","color":"808080ff"}"#,
        r#""a":{"sq":{"width":10,"height":10,"color":"808080ff"}}"#,
    );
    let p = pixel(
        &render(&sk, &page([255; 4], false), Background::Opaque([0, 0, 0])),
        5,
        5,
    );
    let q = ((128.0 / 255.0) * (128.0 / 255.0) * 255.0_f64).trunc() as u8;
    assert_eq!(p, [q, q, q, 255]);
}

#[test]
fn dark_tint_fills_the_dark_texels() {
    let slots = |dark: &str| {
        format!(r#"{{"name":"a","bone":"root","attachment":"sq","color":"ffffffff"{dark}}}"#)
    };
    let grey = page([128, 128, 128, 255], false);
    let plain = skeleton(&slots(""), &format!(r#""a":{{{SQ}}}"#));
    assert_eq!(
        pixel(&render(&plain, &grey, Background::DEFAULT), 5, 5),
        [128, 128, 128, 255]
    );
    let tinted = skeleton(&slots(r#","dark":"ff0000""#), &format!(r#""a":{{{SQ}}}"#));
    // texel * light + (1 - texel) * dark: red fills the dark half.
    let p = pixel(&render(&tinted, &grey, Background::DEFAULT), 5, 5);
    assert!(near(p, [255, 128, 128, 255]), "{p:?}");
}

#[test]
fn pma_pages_are_not_premultiplied_again() {
    let sk = skeleton(
        r#"{"name":"a","bone":"root","attachment":"sq"}"#,
        &format!(r#""a":{{{SQ}}}"#),
    );
    // The same stored texel (64, 0, 0, 128) means red 128 at half alpha in a PMA page.
    // Textures hold premultiplied texels; a straight page stores them after premultiplying.
    let pma = render(&sk, &page([64, 0, 0, 128], true), Background::Transparent);
    assert!(
        near(pixel(&pma, 5, 5), [128, 0, 0, 128]),
        "{:?}",
        pixel(&pma, 5, 5)
    );
    let decoded_straight = PageImage::from_straight(1, 1, vec![128, 0, 0, 128]).unwrap();
    assert_eq!(decoded_straight.rgba, vec![64, 0, 0, 128]);
    let over_black = render(
        &sk,
        &page([64, 0, 0, 128], true),
        Background::Opaque([0, 0, 0]),
    );
    assert_eq!(pixel(&over_black, 5, 5), [64, 0, 0, 255]);
}

#[test]
fn clipping_masks_slots_up_to_the_end_slot() {
    // The clip polygon covers the left half (x < 0); slot b is clipped, c (after the end) not.
    let sk = skeleton(
        r#"{"name":"clip","bone":"root","attachment":"c"},
           {"name":"b","bone":"root","attachment":"sq","color":"ff0000ff"},
           {"name":"c","bone":"root","attachment":"sq","color":"00ff0080"}"#,
        &format!(
            r#""clip":{{"c":{{"type":"clipping","end":"b","vertexCount":4,
                "vertices":[-6,-6, 0,-6, 0,6, -6,6]}}}},"b":{{{SQ}}},"c":{{{SQ}}}"#
        ),
    );
    let img = render(&sk, &page([255; 4], false), Background::Opaque([0, 0, 0]));
    let (left, right) = (pixel(&img, 2, 5), pixel(&img, 7, 5));
    assert!(
        left[0] > 100 && left[1] > 100,
        "red under green on the left: {left:?}"
    );
    assert!(
        right[0] == 0 && right[1] > 100,
        "only green on the right: {right:?}"
    );
}

#[test]
fn missing_regions_are_drawn_untextured_and_listed() {
    let sk = skeleton(
        r#"{"name":"a","bone":"root","attachment":"nothere"}"#,
        r#""a":{"nothere":{"width":6,"height":6}}"#,
    );
    let img = render(&sk, &page([255; 4], false), Background::DEFAULT);
    assert_eq!(img.missing, vec!["nothere".to_string()]);
    // The quad covers pixels 2..8. Inside, a flat translucent grey (lighter than the
    // background, darker than the white page); an outline brighter still on its edge; the
    // background outside. (Nothing is textured, so the root bone's joint is a dot at the
    // centre, 5,5.)
    let inside = pixel(&img, 3, 6);
    assert!(
        inside[0] > 32 && inside[0] < 128 && inside[3] == 255,
        "{inside:?}"
    );
    assert_eq!((inside[0], inside[1]), (inside[1], inside[2]), "neutral");
    let edge = pixel(&img, 2, 6);
    assert!(
        edge[0] > inside[0] + 40,
        "outline {edge:?} over fill {inside:?}"
    );
    assert_eq!(pixel(&img, 0, 0), [32, 32, 32, 255]);
    assert_eq!(pixel(&img, 9, 9), [32, 32, 32, 255]);
}

/// Pixels that differ from the default background.
fn drawn(img: &Image) -> usize {
    img.rgba
        .chunks_exact(4)
        .filter(|p| *p != [32, 32, 32, 255])
        .count()
}

#[test]
fn bones_are_drawn_only_when_nothing_could_be_textured() {
    // Bone `arm` (length 4) along x from the origin: its line is orange where no
    // attachment is.
    let json = |att: &str| {
        format!(
            r#"{{"skeleton":{{"spine":"4.2.0"}},"bones":[{{"name":"root"}},
            {{"name":"arm","parent":"root","length":4,"y":-4}}],
            "slots":[{{"name":"a","bone":"root","attachment":"{att}"}}],
            "skins":[{{"name":"default","attachments":{{"a":{{"{att}":{{"width":4,"height":4}}}}}}}}],
            "animations":{{}}}}"#
        )
    };
    let pose = |att: &str| {
        let data = crate::format::load(json(att).as_bytes(), "t").expect("test skeleton");
        let mut sk = Skeleton::new(Arc::new(data));
        sk.set_to_setup_pose();
        sk.update_world_transform();
        sk
    };
    let textures = page([255; 4], false);
    // The bone runs along pixel row 9 (world y -4), from x 5 to 9.
    let orange = |img: &Image| {
        let p = pixel(img, 7, 9);
        p[0] > p[1] + 40 && p[1] > p[2]
    };
    let untextured = render(&pose("nothere"), &textures, Background::DEFAULT);
    assert!(orange(&untextured), "{:?}", pixel(&untextured, 7, 9));
    let textured = render(&pose("sq"), &textures, Background::DEFAULT);
    assert!(textured.missing.is_empty());
    assert!(!orange(&textured), "a textured frame draws no bones");
    assert_eq!(pixel(&textured, 7, 9), [32, 32, 32, 255]);
    // With no textures at all, the same.
    let none = render(&pose("sq"), &Textures::default(), Background::DEFAULT);
    assert!(orange(&none) && drawn(&none) > 16);
    // A caller that draws its own bones over the picture (the viewer's wireframe) asks for
    // none: the flat shapes stay, the bone line goes.
    let viewport = Viewport {
        x: -5.0,
        y: -5.0,
        w: 10.0,
        h: 10.0,
    };
    let options = RenderOptions {
        width: 10,
        height: 10,
        viewport,
        background: Background::DEFAULT,
        untextured_bones: false,
    };
    let boneless = draw(&pose("nothere"), &textures, &options);
    assert!(!orange(&boneless), "{:?}", pixel(&boneless, 7, 9));
    assert_eq!(pixel(&boneless, 7, 9), [32, 32, 32, 255]);
    assert!(drawn(&boneless) > 4, "the flat shape is still drawn");
    assert_eq!(boneless.missing, untextured.missing);
}

#[test]
fn untextured_attachments_keep_draw_order_clipping_and_slot_colour() {
    // The clip covers the left half; `b` (missing, red slot) is clipped to it.
    let sk = skeleton(
        r#"{"name":"clip","bone":"root","attachment":"c"},
           {"name":"b","bone":"root","attachment":"nothere","color":"ff0000ff"}"#,
        r#""clip":{"c":{"type":"clipping","end":"b","vertexCount":4,
                "vertices":[-6,-6, 0,-6, 0,6, -6,6]}},"b":{"nothere":{"width":8,"height":8}}"#,
    );
    let img = render(&sk, &page([255; 4], false), Background::Opaque([0, 0, 0]));
    let (left, right) = (pixel(&img, 3, 5), pixel(&img, 7, 5));
    assert!(
        left[0] > 0 && left[1] == 0 && left[2] == 0,
        "red fill: {left:?}"
    );
    assert_eq!(right, [0, 0, 0, 255], "clipped away");
    // A textured slot over a missing one covers it (draw order).
    let sk = skeleton(
        r#"{"name":"a","bone":"root","attachment":"nothere"},
           {"name":"b","bone":"root","attachment":"sq","color":"00ff00ff"}"#,
        &format!(r#""a":{{"nothere":{{"width":10,"height":10}}}},"b":{{{SQ}}}"#),
    );
    let img = render(&sk, &page([255; 4], false), Background::DEFAULT);
    assert_eq!(pixel(&img, 5, 5), [0, 255, 0, 255]);
}

#[test]
fn trimmed_and_rotated_regions_place_their_pixels() {
    // A 4x2 page: left half red, right half blue. Region `sq` is the 2x2 right half, packed
    // rotated by 90 degrees, trimmed from a 4x2 original (offset 2,0): it fills the right half
    // of the attachment only.
    let atlas =
        parse_spine_atlas("p.png\nsize: 4,2\nsq\nbounds: 2,0,2,2\noffsets: 2,0,4,2\nrotate: 90\n")
            .unwrap();
    let mut rgba = Vec::new();
    for _ in 0..2 {
        rgba.extend([
            255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255,
        ]);
    }
    let t = Textures::new(
        atlas,
        vec![Some(PageImage {
            width: 4,
            height: 2,
            rgba,
        })],
        vec![],
    );
    let sk = skeleton(
        r#"{"name":"a","bone":"root","attachment":"sq"}"#,
        r#""a":{"sq":{"width":10,"height":5}}"#,
    );
    let img = render(&sk, &t, Background::Opaque([0, 0, 0]));
    assert_eq!(
        pixel(&img, 2, 5),
        [0, 0, 0, 255],
        "trimmed left half stays empty"
    );
    assert_eq!(pixel(&img, 7, 5), [0, 0, 255, 255]);
}

#[test]
fn a_clip_ending_on_its_own_slot_clips_everything_after_it() {
    let sk = skeleton(
        r#"{"name":"clip","bone":"root","attachment":"c"},
           {"name":"b","bone":"root","attachment":"sq","color":"ff0000ff"}"#,
        &format!(
            r#""clip":{{"c":{{"type":"clipping","end":"clip","vertexCount":4,
                "vertices":[-6,-6, 0,-6, 0,6, -6,6]}}}},"b":{{{SQ}}}"#
        ),
    );
    let img = render(&sk, &page([255; 4], false), Background::Opaque([0, 0, 0]));
    assert_eq!(pixel(&img, 2, 5), [255, 0, 0, 255]);
    assert_eq!(pixel(&img, 7, 5), [0, 0, 0, 255]);
}

/// `tests/fixtures/dragonbones-tex`: a DragonBones file whose slot shows a child armature,
/// with a `_tex.json` page of our own (see its README).
#[test]
fn dragonbones_child_armatures_are_drawn() {
    const DIR: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/dragonbones-tex/"
    );
    let read = |name: &str| std::fs::read(format!("{DIR}{name}")).expect("fixture");
    let data = crate::format::load(&read("nested_ske.json"), "nested_ske.json").expect("loads");
    assert_eq!(data.name, "main");
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk.update_world_transform();
    let tex = String::from_utf8(read("nested_tex.json")).expect("utf-8");
    let png = read("nested_tex.png");
    let textures = Textures::from_memory(&tex, &[("nested_tex.png", &png)]).expect("atlas");
    assert!(textures.problems.is_empty(), "{:?}", textures.problems);
    let options = nested_view();
    let img = draw(&sk, &textures, &options);
    assert!(img.missing.is_empty(), "{:?}", img.missing);
    const RED: [u8; 4] = [255, 0, 0, 255];
    const WHITE: [u8; 4] = [255; 4];
    const BLUE: [u8; 4] = [0, 0, 255, 255];
    const BLACK: [u8; 4] = [0, 0, 0, 255];
    // The body: 16x16 on the origin, its 1-px white frame at x 7..8.
    assert_eq!(pixel(&img, 20, 20), RED);
    assert_eq!(pixel(&img, 27, 20), WHITE);
    assert_eq!(pixel(&img, 28, 20), BLACK);
    // The child armature's dot: 8x8 centred on world (30, 10) (bone x 20, display
    // (10, -10) with DragonBones' y down).
    assert_eq!(pixel(&img, 50, 10), BLUE);
    assert_eq!(pixel(&img, 46, 6), BLUE);
    assert_eq!(pixel(&img, 45, 10), BLACK);
    assert_eq!(pixel(&img, 50, 30), BLACK);
    let blue = img.rgba.chunks_exact(4).filter(|p| *p == BLUE).count();
    assert_eq!(blue, 64, "the dot is drawn once, 8x8");
}

/// The nested fixture's view: one pixel per world unit over x -20..40, y -20..20 on black,
/// so world (x, y) is pixel (x + 20, 20 - y).
fn nested_view() -> RenderOptions {
    RenderOptions {
        width: 60,
        height: 40,
        viewport: Viewport {
            x: -20.0,
            y: -20.0,
            w: 60.0,
            h: 40.0,
        },
        background: Background::Opaque([0, 0, 0]),
        untextured_bones: true,
    }
}

/// Without textures, a child armature's bones are drawn too, where it is placed.
#[test]
fn untextured_child_armatures_show_their_bones() {
    const DIR: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/dragonbones-tex/"
    );
    let bytes = std::fs::read(format!("{DIR}nested_ske.json")).expect("fixture");
    let data = crate::format::load(&bytes, "nested_ske.json").expect("loads");
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk.update_world_transform();
    let options = nested_view();
    let img = draw(&sk, &Textures::default(), &options);
    assert!(!img.missing.is_empty());
    let orange = |x: usize, y: usize| {
        let p = pixel(&img, x, y);
        p[0] > p[1] + 40 && p[1] > p[2]
    };
    // The top skeleton's `arm` joint at world (20, 0), and the child's root joint where
    // the armature display places it, world (30, 10).
    assert!(orange(40, 20), "{:?}", pixel(&img, 40, 20));
    assert!(orange(50, 10), "{:?}", pixel(&img, 50, 10));
}
