//! Skins: the default skin (slot entries only), then the named skins (bones, constraint
//! lists, slot entries). Attachments: [`super::attachment`].

use super::attachment::attachment;
use super::out::{Out, Strings};
use super::setup::own_name;
use super::{Ctx, WriteError, setup43};
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

pub fn skins(o: &mut Out, s: &mut Strings, cx: &Ctx<'_>) -> Result<(), WriteError> {
    let d = cx.d;
    match d.default_skin {
        Some(i) => {
            let skin = &d.skins[i];
            if !skin.bones.is_empty() || !skin.constraints.is_empty() {
                return Err(WriteError(
                    "the default skin has bones or constraints: a binary default skin holds attachments only".into(),
                ));
            }
            entries(o, s, cx, skin)?;
        }
        None => o.uvarint(0),
    }
    let named: Vec<usize> = cx
        .skin_order
        .iter()
        .copied()
        .filter(|&i| Some(i) != d.default_skin)
        .collect();
    o.uvarint(named.len());
    for i in named {
        let skin = &d.skins[i];
        own_name(o, s, cx.v, &skin.name);
        if cx.v >= SpineVersion::V42 {
            o.i32(-1); // editor color (nonessential)
        }
        o.uvarint(skin.bones.len());
        skin.bones.iter().for_each(|&b| o.uvarint(b));
        if cx.v >= SpineVersion::V43 {
            // One list: indices into the file's one constraint list.
            o.uvarint(skin.constraints.len());
            for &c in &skin.constraints {
                o.uvarint(setup43::list_index(cx.d, c)?);
            }
            entries(o, s, cx, skin)?;
            continue;
        }
        let mut lists: [Vec<usize>; 4] = Default::default();
        for c in &skin.constraints {
            match *c {
                ConstraintRef::Ik(i) => lists[0].push(i),
                ConstraintRef::Transform(i) => lists[1].push(i),
                ConstraintRef::Path(i) => lists[2].push(i),
                ConstraintRef::Physics(i) => lists[3].push(i),
                ConstraintRef::Slider(_) => {
                    return Err(WriteError(format!(
                        "skin \"{}\" lists a slider (Spine 4.3)",
                        skin.name
                    )));
                }
            }
        }
        let listed = if cx.v >= SpineVersion::V42 { 4 } else { 3 };
        if listed == 3 && !lists[3].is_empty() {
            return Err(WriteError(format!(
                "skin \"{}\" lists physics constraints (Spine 4.2)",
                skin.name
            )));
        }
        for list in &lists[..listed] {
            o.uvarint(list.len());
            list.iter().for_each(|&i| o.uvarint(i));
        }
        entries(o, s, cx, skin)?;
    }
    Ok(())
}

/// The slots with attachments in `skin`, each with its attachments by key.
fn entries(o: &mut Out, s: &mut Strings, cx: &Ctx<'_>, skin: &Skin) -> Result<(), WriteError> {
    let slots: Vec<usize> = (0..cx.d.slots.len())
        .filter(|&i| !skin.slot_entries(i).is_empty())
        .collect();
    o.uvarint(slots.len());
    for slot in slots {
        o.uvarint(slot);
        let entries = skin.slot_entries(slot);
        o.uvarint(entries.len());
        for (key, id) in entries {
            s.write(o, Some(key));
            attachment(o, s, cx, key, *id).map_err(|e| {
                WriteError(format!(
                    "skin \"{}\", slot \"{}\", attachment \"{key}\": {}",
                    skin.name, cx.d.slots[slot].name, e.0
                ))
            })?;
        }
    }
    Ok(())
}
