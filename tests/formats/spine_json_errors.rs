//! Malformed Spine JSON: every problem is an `Err` (never a panic) that says where, on one
//! sanitized line.

use crate::common;

use bonescope::core::animation::Timeline;
use bonescope::core::model::AttachmentKind;
use bonescope::format::{LoadError, Location, load};

/// A small skeleton using most features; each test breaks one thing in it.
const BASE: &str = r#"{
"skeleton": { "hash": "h", "spine": "3.8.99", "width": 10, "height": 20 },
"bones": [
	{ "name": "root" },
	{ "name": "hip", "parent": "root", "x": 1.5 },
	{ "name": "arm", "parent": "hip", "length": 10 }
],
"slots": [
	{ "name": "body", "bone": "hip", "attachment": "body" },
	{ "name": "cape", "bone": "hip", "attachment": "cape" },
	{ "name": "hand", "bone": "arm", "color": "ff0000ff" }
],
"ik": [ { "name": "reach", "bones": [ "arm" ], "target": "root" } ],
"skins": [
	{ "name": "default", "attachments": {
		"body": { "body": { "x": 1, "width": 10, "height": 20 } },
		"cape": { "cape": { "type": "mesh", "uvs": [ 0, 0, 1, 0, 1, 1 ], "triangles": [ 0, 1, 2 ], "vertices": [ 0, 0, 10, 0, 10, 10 ], "hull": 3 } },
		"hand": { "box": { "type": "boundingbox", "vertexCount": 3, "vertices": [ 1, 1, 0, 0, 1, 1, 2, 10, 0, 1, 1, 0, 0, 10, 1 ] } }
	} },
	{ "name": "alt", "attachments": {
		"cape": { "cape": { "type": "linkedmesh", "parent": "cape" } }
	} }
],
"events": { "step": { "int": 1 } },
"animations": {
	"walk": {
		"bones": { "arm": { "rotate": [ { "angle": 10 }, { "time": 0.5, "angle": 20, "curve": "stepped" } ] } },
		"slots": { "body": { "attachment": [ { "time": 0.2, "name": null }, { "time": 0.4, "name": "body" } ] } },
		"ik": { "reach": [ { "mix": 0.5 } ] },
		"deform": { "default": { "cape": { "cape": [ { "time": 0 }, { "time": 1, "offset": 2, "vertices": [ 1, 1 ] } ] } } },
		"drawOrder": [ { "time": 0.3, "offsets": [ { "slot": "hand", "offset": -2 } ] } ],
		"events": [ { "time": 0.1, "name": "step" } ]
	}
}
}"#;

/// `BASE` with the first `from` replaced by `to`.
fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "test bug: {from:?} is not in BASE");
    BASE.replacen(from, to, 1)
}

fn err(text: &str) -> LoadError {
    match load(text.as_bytes(), "t") {
        Ok(_) => panic!("loaded without error"),
        Err(e) => {
            let shown = e.to_string();
            assert!(
                !shown.chars().any(char::is_control),
                "raw control character in {shown:?}"
            );
            e
        }
    }
}

/// 1-based line and column of byte `offset` of `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    (before.matches('\n').count() + 1, offset - line_start + 1)
}

/// Asserts an error at JSON `path` whose position falls on the first occurrence of `needle`
/// (from its first byte, where the loader points, to just past it, where serde points; serde
/// may also point at the byte before a value it rejects on sight) and whose message contains
/// `message`.
#[track_caller]
fn assert_err(text: &str, path: &str, needle: &str, message: &str) -> LoadError {
    let e = err(text);
    let shown = e.to_string();
    let Some(Location::Json {
        path: p,
        line,
        column,
    }) = &e.location
    else {
        panic!("no JSON location: {shown}");
    };
    assert_eq!(p, path, "{shown}");
    let start = text
        .find(needle)
        .unwrap_or_else(|| panic!("test bug: {needle:?} not in text"));
    let (l0, c0) = line_col(text, start.saturating_sub(1));
    let (l1, c1) = line_col(text, start + needle.len());
    assert!(
        (*line, *column) >= (l0, c0) && (*line, *column) <= (l1, c1),
        "{shown}: expected {l0}:{c0}..{l1}:{c1}"
    );
    assert!(e.message.contains(message), "{shown}");
    assert!(
        shown.starts_with(&format!("line {line}, column {column} ({path}): ")),
        "{shown}"
    );
    e
}

#[test]
fn the_base_document_loads() {
    let data = load(BASE.as_bytes(), "base").unwrap();
    assert_eq!(data.name, "base");
    assert_eq!(data.source.version, "3.8.99");
    assert_eq!(data.animations.len(), 1);
    assert_eq!(data.animations[0].duration, 1.0);
    let kinds: Vec<_> = data.animations[0]
        .timelines
        .iter()
        .map(|t| match t {
            Timeline::Attachment(_) => "attachment",
            Timeline::Bone(_) => "bone",
            Timeline::Ik(_) => "ik",
            Timeline::Deform(_) => "deform",
            Timeline::DrawOrder(_) => "drawOrder",
            Timeline::Event(_) => "event",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["attachment", "bone", "ik", "deform", "drawOrder", "event"]
    );
    let Timeline::DrawOrder(d) = &data.animations[0].timelines[4] else {
        unreachable!()
    };
    assert_eq!(d.orders, [Some(vec![2, 0, 1])]);
    let Timeline::Deform(d) = &data.animations[0].timelines[3] else {
        unreachable!()
    };
    // Unweighted: setup positions, plus the key's offsets from index 2.
    assert_eq!(
        d.vertices,
        [
            vec![0.0, 0.0, 10.0, 0.0, 10.0, 10.0],
            vec![0.0, 0.0, 11.0, 1.0, 10.0, 10.0]
        ]
    );
    let AttachmentKind::BoundingBox { vertices, .. } = &data.attachments[2].kind else {
        unreachable!()
    };
    assert_eq!(vertices.bones, Some(vec![1, 1, 1, 2, 1, 0]));
}

#[test]
fn lowercase_draworder_is_accepted() {
    let data = load(with("\"drawOrder\"", "\"draworder\"").as_bytes(), "t").unwrap();
    assert!(
        data.animations[0]
            .timelines
            .iter()
            .any(|t| matches!(t, Timeline::DrawOrder(_)))
    );
}

#[test]
fn an_error_in_lowercase_draworder_is_located_under_that_spelling() {
    let text = with("\"drawOrder\"", "\"draworder\"");
    assert_err(
        &text.replacen("\"slot\": \"hand\"", "\"slot\": \"foot\"", 1),
        "animations.walk.draworder[0].offsets[0].slot",
        "\"foot\"",
        "unknown slot \"foot\"",
    );
}

#[test]
fn both_draw_order_spellings_are_refused() {
    let both = with(
        "\"drawOrder\": [",
        "\"draworder\": [ { \"time\": 0 } ], \"drawOrder\": [",
    );
    assert_err(
        &both,
        "animations.walk.draworder",
        "[ { \"time\": 0 } ]",
        "both \"drawOrder\" and \"draworder\" hold draw order keys",
    );
}

#[test]
fn truncated_json() {
    for cut in [1, 10, BASE.len() / 3, BASE.len() / 2, BASE.len() - 1] {
        let e = err(&BASE[..cut]);
        assert!(
            matches!(e.location, Some(Location::Json { line, .. }) if line >= 1),
            "{e}"
        );
        assert!(e.message.contains("EOF"), "{e}");
    }
    let e = err(&BASE[..BASE.len() / 2]);
    assert!(e.to_string().contains("(skins[0].attachments"), "{e}");
}

#[test]
fn wrong_type() {
    assert_err(
        &with("\"x\": 1.5", "\"x\": \"abc\""),
        "bones[1].x",
        "\"abc\"",
        "invalid type: string \"abc\", expected f64",
    );
    assert_err(
        &with("\"hull\": 3", "\"hull\": true"),
        "skins[0].attachments.cape.cape.hull",
        "true",
        "invalid type",
    );
    assert_err(
        &with("\"curve\": \"stepped\"", "\"curve\": \"wobbly\""),
        "animations.walk.bones.arm.rotate[1].curve",
        "\"wobbly\"",
        "expected \"stepped\"",
    );
}

#[test]
fn unknown_fields() {
    assert_err(
        &with("\"length\": 10", "\"length\": 10, \"lenght\": 3"),
        "bones[2].lenght",
        "\"lenght\"",
        "unknown field `lenght`",
    );
    assert_err(
        &with("\"hash\": \"h\"", "\"hash\": \"h\", \"dpi\": 3"),
        "skeleton.dpi",
        "\"dpi\"",
        "unknown field `dpi`",
    );
    assert_err(
        &with(
            "\"time\": 0.1, \"name\": \"step\"",
            "\"time\": 0.1, \"name\": \"step\", \"audio\": \"x\"",
        ),
        "animations.walk.events[0].audio",
        "\"audio\": \"x\"",
        "unknown field `audio`",
    );
    // A field of another attachment type.
    assert_err(
        &with("\"x\": 1, \"width\"", "\"x\": 1, \"uvs\": [], \"width\""),
        "skins[0].attachments.body.body.uvs",
        "[]",
        "`uvs` is not a field of region attachments",
    );
}

#[test]
fn dangling_names() {
    assert_err(
        &with("\"bone\": \"arm\"", "\"bone\": \"leg\""),
        "slots[2].bone",
        "\"leg\"",
        "unknown bone \"leg\"",
    );
    assert_err(
        &with("\"parent\": \"hip\"", "\"parent\": \"nobody\""),
        "bones[2].parent",
        "\"nobody\"",
        "unknown bone \"nobody\"",
    );
    assert_err(
        &with("\"target\": \"root\"", "\"target\": \"sky\""),
        "ik[0].target",
        "\"sky\"",
        "unknown bone \"sky\"",
    );
    assert_err(
        &with(
            "\"bones\": [ \"arm\" ]",
            "\"bones\": [ \"arm\", \"hip\", \"root\" ]",
        ),
        "ik[0].bones",
        "[ \"arm\", \"hip\"",
        "1 or 2 bones, not 3",
    );
    assert_err(
        &with("\"parent\": \"cape\"", "\"parent\": \"cloak\""),
        "skins[1].attachments.cape.cape.parent",
        "\"cloak\"",
        "unknown parent mesh \"cloak\"",
    );
    assert_err(
        &with("{ \"arm\": { \"rotate\"", "{ \"leg\": { \"rotate\""),
        "animations.walk.bones.leg",
        "{ \"rotate\"",
        "unknown bone \"leg\"",
    );
    assert_err(
        &with("\"slots\": { \"body\"", "\"slots\": { \"bod\""),
        "animations.walk.slots.bod",
        "{ \"attachment\"",
        "unknown slot \"bod\"",
    );
    assert_err(
        &with("\"ik\": { \"reach\"", "\"ik\": { \"grab\""),
        "animations.walk.ik.grab",
        "[ { \"mix\"",
        "unknown IK constraint \"grab\"",
    );
    assert_err(
        &with("\"name\": \"step\" }", "\"name\": \"stomp\" }"),
        "animations.walk.events[0].name",
        "\"stomp\"",
        "unknown event \"stomp\"",
    );
    assert_err(
        &with("\"name\": \"body\" } ]", "\"name\": \"torso\" } ]"),
        "animations.walk.slots.body.attachment[1].name",
        "\"torso\" } ]",
        "no skin has an attachment \"torso\" for slot \"body\"",
    );
    assert_err(
        &with("{ \"cape\": { \"cape\": [", "{ \"cape\": { \"hood\": ["),
        "animations.walk.deform.default.cape.hood",
        "[ { \"time\": 0 }",
        "skin \"default\" has no attachment \"hood\"",
    );
    assert_err(
        &with("\"deform\": { \"default\"", "\"deform\": { \"fancy\""),
        "animations.walk.deform.fancy",
        "{ \"cape\": { \"cape\": [",
        "unknown skin \"fancy\"",
    );
    assert_err(
        &with("\"slot\": \"hand\"", "\"slot\": \"foot\""),
        "animations.walk.drawOrder[0].offsets[0].slot",
        "\"foot\"",
        "unknown slot \"foot\"",
    );
    assert_err(
        &with("\"attachment\": \"cape\"", "\"attachment\": \"coat\""),
        "slots[1].attachment",
        "\"coat\"",
        "no skin has an attachment \"coat\"",
    );
}

#[test]
fn order_and_duplicates() {
    let text = with(
        "{ \"name\": \"hip\", \"parent\": \"root\", \"x\": 1.5 },\n\t{ \"name\": \"arm\", \"parent\": \"hip\", \"length\": 10 }",
        "{ \"name\": \"arm\", \"parent\": \"hip\", \"length\": 10 },\n\t{ \"name\": \"hip\", \"parent\": \"root\", \"x\": 1.5 }",
    );
    assert_err(
        &text,
        "bones[1].parent",
        "\"hip\"",
        "parent bone \"hip\" must come before its child \"arm\"",
    );
    assert_err(
        &with(
            "{ \"name\": \"arm\", \"parent\": \"hip\"",
            "{ \"name\": \"hip\", \"parent\": \"hip\"",
        ),
        "bones[2].name",
        "\"hip\", \"parent\": \"hip\"",
        "duplicate bone name \"hip\"",
    );
    assert_err(
        &with(
            "{ \"name\": \"hand\", \"bone\"",
            "{ \"name\": \"cape\", \"bone\"",
        ),
        "slots[2].name",
        "\"cape\", \"bone\": \"arm\"",
        "duplicate slot name \"cape\"",
    );
    assert_err(
        &with("{ \"name\": \"alt\"", "{ \"name\": \"default\""),
        "skins[1].name",
        "\"default\", \"attachments\": {\n\t\t\"cape\": { \"cape\": { \"type\": \"linked",
        "duplicate skin name",
    );
    let text = with(
        "\"events\": { \"step\": { \"int\": 1 } }",
        "\"events\": { \"step\": { \"int\": 1 }, \"step\": {} }",
    );
    assert_err(
        &text,
        "events.step",
        "{} }",
        "duplicate event name \"step\"",
    );
    assert_err(
        &with(
            "{ \"angle\": 10 }, { \"time\": 0.5",
            "{ \"time\": 0.7, \"angle\": 10 }, { \"time\": 0.5",
        ),
        "animations.walk.bones.arm.rotate[1].time",
        "0.5",
        "comes before the previous key's time 0.7",
    );
    assert_err(
        &with("[ { \"time\": 0.1, \"name\"", "[ { \"time\": -1, \"name\""),
        "animations.walk.events[0].time",
        "-1",
        "negative",
    );
}

#[test]
fn repeated_keys_in_maps() {
    let text = with(
        "\"slots\": { \"body\": {",
        "\"slots\": { \"hand\": {}, \"hand\": {}, \"body\": {",
    );
    assert_err(
        &text,
        "animations.walk.slots.hand",
        "{}, \"body\"",
        "duplicate key \"hand\"",
    );
    let text = with(
        "\"animations\": {\n\t\"walk\": {",
        "\"animations\": {\n\t\"walk\": {},\n\t\"walk\": {",
    );
    assert_err(
        &text,
        "animations.walk",
        "{\n\t\t\"bones\"",
        "duplicate animation name \"walk\"",
    );
    let text = with(
        "\"body\": { \"body\": { \"x\": 1",
        "\"body\": {}, \"body\": { \"body\": { \"x\": 1",
    );
    assert_err(
        &text,
        "skins[0].attachments.body",
        "{ \"body\": { \"x\": 1",
        "duplicate key \"body\"",
    );
    let text = with(
        "\"cape\": { \"cape\": [",
        "\"cape\": { \"cape\": [], \"cape\": [",
    );
    assert_err(
        &text,
        "animations.walk.deform.default.cape.cape",
        "[ { \"time\": 0 }",
        "duplicate key \"cape\"",
    );
}

#[test]
fn small_files_cannot_claim_huge_memory() {
    // A 10,000-vertex mesh and 1,000 empty deform keys: 80 KB of floats per key from 3 bytes
    // of text each. The loader refuses once the expansion budget is spent.
    let n = 10_000;
    let zeros = vec!["0"; n * 2].join(",");
    let triangles = "0,1,2";
    let keys = vec!["{}"; 1000].join(",");
    let text = format!(
        r#"{{"skeleton": {{"spine": "3.8.99"}}, "bones": [{{"name": "root"}}],
"slots": [{{"name": "s", "bone": "root"}}],
"skins": [{{"name": "default", "attachments": {{"s": {{"m": {{"type": "mesh", "uvs": [{zeros}], "vertices": [{zeros}], "triangles": [{triangles}]}}}}}}}}],
"animations": {{"a": {{"deform": {{"default": {{"s": {{"m": [{keys}]}}}}}}}}}}
}}"#
    );
    let e = err(&text);
    assert!(e.message.contains("implausible"), "{e}");
    assert!(
        matches!(&e.location, Some(Location::Json { path, .. }) if path.starts_with("animations.a.deform.default.s.m[")),
        "{e}"
    );
    // The same file with few keys loads.
    let text = text.replace(&keys, "{}, {}");
    assert!(load(text.as_bytes(), "ok").is_ok());
}

#[test]
fn draw_order_offsets() {
    assert_err(
        &with("\"offset\": -2", "\"offset\": -3"),
        "animations.walk.drawOrder[0].offsets[0].offset",
        "-3",
        "outside the draw order (0..3)",
    );
    assert_err(
        &with("\"offset\": -2", "\"offset\": 9223372036854775807"),
        "animations.walk.drawOrder[0].offsets[0].offset",
        "9223372036854775807",
        "outside the draw order",
    );
    let text = with(
        "[ { \"slot\": \"hand\", \"offset\": -2 } ]",
        "[ { \"slot\": \"hand\", \"offset\": -2 }, { \"slot\": \"cape\", \"offset\": -1 } ]",
    );
    assert_err(
        &text,
        "animations.walk.drawOrder[0].offsets[1].offset",
        "-1 }",
        "already taken by slot \"hand\"",
    );
    let text = with(
        "[ { \"slot\": \"hand\", \"offset\": -2 } ]",
        "[ { \"slot\": \"hand\", \"offset\": -2 }, { \"slot\": \"hand\", \"offset\": 0 } ]",
    );
    assert_err(
        &text,
        "animations.walk.drawOrder[0].offsets[1].slot",
        "\"hand\", \"offset\": 0",
        "listed twice",
    );
}

#[test]
fn bad_colors() {
    assert_err(
        &with("\"ff0000ff\"", "\"ff00zzff\""),
        "slots[2].color",
        "\"ff00zzff\"",
        "bad color \"ff00zzff\"",
    );
    assert_err(
        &with("\"ff0000ff\"", "\"f00\""),
        "slots[2].color",
        "\"f00\"",
        "bad color",
    );
    assert_err(
        &with("\"ff0000ff\"", "\"ff0000é\""),
        "slots[2].color",
        "\"ff0000é\"",
        "bad color",
    );
}

#[test]
fn bad_geometry() {
    // Weighted data that runs past the end: the last vertex claims 2 bones.
    assert_err(
        &with("1, 0, 0, 10, 1 ]", "2, 0, 0, 10, 1 ]"),
        "skins[0].attachments.hand.box.vertices[10]",
        "2, 0, 0, 10, 1 ]",
        "2 bones need 8 values but only 4 remain",
    );
    assert_err(
        &with("1, 2, 10, 0, 1,", "1, 7, 10, 0, 1,"),
        "skins[0].attachments.hand.box.vertices[6]",
        "7, 10, 0, 1,",
        "bone index 7 is out of range (the skeleton has 3 bones)",
    );
    assert_err(
        &with("1, 2, 10, 0, 1,", "-1, 2, 10, 0, 1,"),
        "skins[0].attachments.hand.box.vertices[5]",
        "-1, 2, 10",
        "bone count must be a whole number",
    );
    assert_err(
        &with("\"triangles\": [ 0, 1, 2 ]", "\"triangles\": [ 0, 1, 3 ]"),
        "skins[0].attachments.cape.cape.triangles[2]",
        "3 ]",
        "vertex index 3 is out of range",
    );
    assert_err(
        &with("\"triangles\": [ 0, 1, 2 ]", "\"triangles\": [ 0, 1 ]"),
        "skins[0].attachments.cape.cape.triangles",
        "[ 0, 1 ]",
        "index triples",
    );
    assert_err(
        &with("\"hull\": 3", "\"hull\": 4"),
        "skins[0].attachments.cape.cape.hull",
        "4",
        "hull of 4 vertices but the mesh has only 3",
    );
    assert_err(
        &with("\"hull\": 3", "\"hull\": -3"),
        "skins[0].attachments.cape.cape.hull",
        "-3",
        "expected u32",
    );
    assert_err(
        &with(
            "\"uvs\": [ 0, 0, 1, 0, 1, 1 ]",
            "\"uvs\": [ 0, 0, 1, 0, 1 ]",
        ),
        "skins[0].attachments.cape.cape.uvs",
        "[ 0, 0, 1, 0, 1 ]",
        "x, y pairs",
    );
    assert_err(
        &with(
            "\"vertices\": [ 0, 0, 10, 0, 10, 10 ]",
            "\"vertices\": [ 0, 0, 10, 0 ]",
        ),
        "skins[0].attachments.cape.cape.vertices",
        "[ 0, 0, 10, 0 ]",
        "too few for 3 vertices",
    );
    assert_err(
        &with(
            "\"offset\": 2, \"vertices\": [ 1, 1 ]",
            "\"offset\": 5, \"vertices\": [ 1, 1 ]",
        ),
        "animations.walk.deform.default.cape.cape[1].vertices",
        "[ 1, 1 ]",
        "2 values at offset 5 run past the end of the attachment's 6 deform values",
    );
    assert_err(
        &with(
            "{ \"type\": \"linkedmesh\", \"parent\": \"cape\" }",
            "{ \"type\": \"linkedmesh\" }",
        ),
        "skins[1].attachments.cape.cape",
        "{ \"type\": \"linkedmesh\" }",
        "missing field `parent`",
    );
}

#[test]
fn absurd_vertex_count_is_an_error_not_an_allocation() {
    let e = assert_err(
        &with("\"vertexCount\": 3", "\"vertexCount\": 1000000000"),
        "skins[0].attachments.hand.box.vertices",
        "[ 1, 1, 0",
        "too few for 1000000000 vertices",
    );
    assert!(e.message.contains("15 vertex values"), "{e}");
    assert_err(
        &with("\"vertexCount\": 3", "\"vertexCount\": 1e9"),
        "skins[0].attachments.hand.box.vertexCount",
        "1e9",
        "expected u32",
    );
    assert_err(
        &with("\"vertexCount\": 3", "\"vertexCount\": 99999999999"),
        "skins[0].attachments.hand.box.vertexCount",
        "99999999999",
        "expected u32",
    );
}

#[test]
fn nan_like_values() {
    assert_err(
        &with("\"x\": 1.5", "\"x\": NaN"),
        "bones[1].x",
        "NaN",
        "expected value",
    );
    assert_err(
        &with("\"x\": 1.5", "\"x\": Infinity"),
        "bones[1].x",
        "Infinity",
        "expected value",
    );
    assert_err(
        &with("\"x\": 1.5", "\"x\": 1e999"),
        "bones[1].x",
        "1e999",
        "number out of range",
    );
    assert_err(
        &with("\"x\": 1.5", "\"x\": \"NaN\""),
        "bones[1].x",
        "\"NaN\"",
        "invalid type",
    );
    // Fine as f64, too large for the f32 key storage.
    assert_err(
        &with("\"angle\": 20", "\"angle\": 1e39"),
        "animations.walk.bones.arm.rotate[1].angle",
        "1e39",
        "too large for 32-bit storage",
    );
    assert_err(
        &with("\"vertices\": [ 1, 1 ]", "\"vertices\": [ 1, 1e300 ]"),
        "animations.walk.deform.default.cape.cape[1].vertices[1]",
        "1e300",
        "too large for 32-bit storage",
    );
}

#[test]
fn hostile_names_are_escaped() {
    let text = with("\"bone\": \"arm\"", "\"bone\": \"a\\u001b[31mrm\\u202e\"");
    let e = assert_err(&text, "slots[2].bone", "\"a\\u001b", "unknown bone");
    let shown = e.to_string();
    assert!(
        shown.ends_with("unknown bone \"a\\e[31mrm\\u{202e}\""),
        "{shown}"
    );
    assert!(!shown.contains('\u{1b}') && !shown.contains('\u{202e}'));
    // In a path too (an unknown slot key in an animation).
    let text = with("\"slots\": { \"body\"", "\"slots\": { \"b\\u001bdy\\n\"");
    let e = err(&text);
    let shown = e.to_string();
    assert!(
        shown.contains("(animations.walk.slots[\"b\\edy\\n\"])"),
        "{shown}"
    );
    assert!(shown.ends_with("unknown slot \"b\\edy\\n\""), "{shown}");
    // And in serde's own messages (unknown field names).
    let e = err(&with(
        "\"length\": 10",
        "\"length\": 10, \"\\u202eevil\": 1",
    ));
    assert!(
        e.to_string().contains("unknown field `\\u{202e}evil`"),
        "{e}"
    );
}

#[test]
fn not_spine_files() {
    let e = err("");
    assert_eq!(
        e.to_string(),
        "line 1, column 1: empty file (expected a Spine 3.7-4.3 or DragonBones 4.x-5.x JSON export or an MRTK input animation)"
    );
    for junk in [
        &b"\x00\x01\x02\xff\xfe random"[..],
        b"\xef\xbb\xbf",
        b"PK\x03\x04",
        b"[1, 2, 3]",
        b"\"skeleton\"",
        b"null",
    ] {
        let e = load(junk, "j").unwrap_err();
        assert!(e.location.is_some(), "{e}");
        assert!(e.message.contains("file"), "{e}");
        assert!(!e.to_string().chars().any(char::is_control));
    }
    // A top-level "armature" list is DragonBones; without a version it is refused as such.
    let e = err("{\"armature\": []}");
    assert!(
        e.message.contains("unsupported DragonBones version (none)"),
        "{e}"
    );
    let e = err("{\"bones\": []}");
    assert!(e.message.contains("unrecognised file"), "{e}");
}

#[test]
fn unsupported_spine_versions_are_refused_by_name() {
    let e = assert_err(
        "{\n\"skeleton\": { \"hash\": \"x\", \"spine\": \"4.4.01-beta\" },\n\"bones\": []\n}",
        "skeleton.spine",
        "\"4.4.",
        "Spine \"4.4.01-beta\" JSON is not supported",
    );
    assert!(e.message.contains("3.7-4.3"), "{e}");
    let e = assert_err(
        "{\"skeleton\": {\"spine\": \"5.0.1\"}}",
        "skeleton.spine",
        "\"5.0.1",
        "Spine \"5.0.1\" JSON is not supported",
    );
    assert!(e.message.contains("3.7-4.3"), "{e}");
}

#[test]
fn deep_nesting() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    // Where a value is expected: a type error, found without recursing.
    let text = with("{ \"name\": \"root\" }", &format!("{{ \"name\": {deep} }}"));
    assert_err(
        &text,
        "bones[0].name",
        "[[",
        "invalid type: sequence, expected a string",
    );
    // Unterminated and deep.
    let text = format!(
        "{{\"skeleton\": {{\"spine\": \"3.8.55\"}}, \"bones\": {}",
        "[".repeat(100_000)
    );
    assert!(err(&text).location.is_some());
    // No version found: the syntax check skips the deep value (serde_json ignores values
    // without recursing) and the file is not Spine.
    let e = err(&format!("{{\"x\": {deep}}}"));
    assert!(e.message.contains("without \"skeleton\""), "{e}");
    // Deep and broken.
    let e = err(&format!("{{\"x\": {}}}", "[".repeat(100_000)));
    assert!(e.location.is_some(), "{e}");
    // Deep objects where a struct is expected: rejected at the first level (the typed
    // structs bound the depth; serde_json's recursion limit would catch anything else).
    let objects = format!("{}1{}", "{\"a\": ".repeat(1000), "}".repeat(1000));
    let e = err(&with(
        "\"events\": { \"step\": { \"int\": 1 } }",
        &format!("\"events\": {{ \"step\": {objects} }}"),
    ));
    assert!(
        e.to_string()
            .starts_with("line 24, column 24 (events.step.a): unknown field `a`"),
        "{e}"
    );
}

#[test]
fn random_mutations_never_panic() {
    let mut rng = common::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next_u64();
    let bytes = BASE.as_bytes();
    let alphabet = b"{}[],:\"0123456789-.eE \\/nulltrufas";
    for _ in 0..3000 {
        let mut m = bytes.to_vec();
        for _ in 0..1 + next() % 3 {
            let i = (next() % m.len() as u64) as usize;
            match next() % 3 {
                0 => m[i] = alphabet[(next() % alphabet.len() as u64) as usize],
                1 => {
                    m.remove(i);
                }
                _ => m.insert(i, alphabet[(next() % alphabet.len() as u64) as usize]),
            }
        }
        if let Err(e) = load(&m, "fuzz") {
            let shown = e.to_string();
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
        }
    }
}

/// Heavier fuzzing of real exports (mutating bytes, numbers and names), on demand:
/// `FUZZ_ROUNDS=20000 cargo test --release --test spine_json_errors -- --ignored fuzz`.
#[test]
#[ignore = "slow; run on demand"]
fn fuzz_real_exports() {
    let rounds: usize = std::env::var("FUZZ_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/spine/3.8");
    let mut files = vec![
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/spine/lantern-keeper.json"
        ))
        .unwrap(),
    ];
    for name in [
        "spineboy-pro",
        "tank-pro",
        "goblins-pro",
        "stretchyman-pro",
        "alien-pro",
    ] {
        if let Ok(b) = std::fs::read(format!("{dir}/{name}.json")) {
            files.push(b);
        }
    }
    let mut rng = common::rng::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let pieces: [&[u8]; 14] = [
        b"0",
        b"-1",
        b"1e9",
        b"3",
        b"99999",
        b"\"\"",
        b"\"root\"",
        b"null",
        b"[]",
        b"{}",
        b"true",
        b"\"stepped\"",
        b"0.5",
        b"\"x\\u001b\"",
    ];
    let (mut ok, mut failed) = (0, 0);
    for round in 0..rounds {
        let base = &files[round % files.len()];
        let mut m = base.clone();
        for _ in 0..1 + next() % 2 {
            // Replace a token-ish span (a number, a name, a punctuation mark) with a piece.
            let i = (next() % m.len() as u64) as usize;
            let end = (i + 1 + (next() % 6) as usize).min(m.len());
            let piece = pieces[(next() % pieces.len() as u64) as usize];
            m.splice(i..end, piece.iter().copied());
        }
        match load(&m, "fuzz") {
            Ok(_) => ok += 1,
            Err(e) => {
                failed += 1;
                let shown = e.to_string();
                assert!(!shown.chars().any(char::is_control), "{shown:?}");
                assert!(e.location.is_some(), "{shown}");
            }
        }
    }
    println!("{rounds} mutations: {ok} loaded, {failed} refused");
}
