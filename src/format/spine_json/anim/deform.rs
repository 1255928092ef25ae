//! Deform timelines: per key, the full vertex array of one vertex attachment.

use crate::core::animation::{DeformTimeline, Timeline};
use crate::core::curve::{Interp, Keys};
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::SpineVersion;
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::curve::{CurveKey, interp};
use crate::format::spine_json::dto_anim::DeformKey;

use super::keys::check_time;
use Seg::{Entry, Index, Key};

/// skin -> slot -> attachment key -> `T`.
pub(crate) type BySkin<T> = OrderedMap<OrderedMap<OrderedMap<T>>>;

/// Walks skin -> slot -> attachment, resolving each to (slot, attachment id).
pub(crate) fn each<T>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    dtos: &BySkin<T>,
    names: &Names<'_>,
    data: &SkeletonData,
    mut f: impl FnMut(&[Seg<'_>], usize, usize, &T) -> Result<(), LoadError>,
) -> Result<(), LoadError> {
    ctx.no_duplicates(dtos, at)?;
    for (ski, (skin_name, slots)) in dtos.0.iter().enumerate() {
        let skin_name = skin_name.as_str();
        let skin_at = join(at, &[Entry(ski, skin_name)]);
        let skin = lookup(ctx, &names.skins, skin_name, "skin", &skin_at)?;
        ctx.no_duplicates(slots, &skin_at)?;
        for (si, (slot_name, entries)) in slots.0.iter().enumerate() {
            let slot_name = slot_name.as_str();
            let slot_at = join(&skin_at, &[Entry(si, slot_name)]);
            let slot = lookup(ctx, &names.slots, slot_name, "slot", &slot_at)?;
            ctx.no_duplicates(entries, &slot_at)?;
            for (ai, (key, t)) in entries.0.iter().enumerate() {
                let key = key.as_str();
                let att_at = join(&slot_at, &[Entry(ai, key)]);
                let Some(attachment) = data.skins.get(skin).and_then(|s| s.get(slot, key)) else {
                    return Err(ctx.err(
                        &att_at,
                        format!("skin \"{skin_name}\" has no attachment \"{key}\" for slot \"{slot_name}\""),
                    ));
                };
                f(&att_at, slot, attachment, t)?;
            }
        }
    }
    Ok(())
}

/// Where one attachment's deform keys go: the context, the key list's path, the slot and
/// attachment, and the skeleton so far.
#[derive(Clone, Copy)]
pub(crate) struct DeformAt<'a> {
    pub ctx: Ctx<'a>,
    pub at: &'a [Seg<'a>],
    pub slot: usize,
    pub attachment: usize,
    pub data: &'a SkeletonData,
}

/// Reads one attachment's deform keys into a timeline (the version's key layout).
pub(crate) type DeformKeysFn<K> = fn(&[K], DeformAt<'_>) -> Result<Timeline, LoadError>;

/// `deform: {skin: {slot: {attachment key: [keys]}}}` (3.x and 4.0; 4.1 moved the keys
/// to `attachments`); `keys` reads each non-empty key list.
pub fn deform<K>(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &BySkin<Vec<K>>,
    names: &Names<'_>,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
    keys: DeformKeysFn<K>,
) -> Result<(), LoadError> {
    let at = join(anim, &[Key("deform")]);
    if ctx.version >= SpineVersion::V41 {
        return Err(ctx.err(
            &at,
            "Spine 4.1 moved deform keys to \"attachments\": {skin: {slot: {attachment: {deform: [...]}}}}",
        ));
    }
    each(ctx, &at, dtos, names, data, |at, slot, attachment, list| {
        if !list.is_empty() {
            let d = DeformAt {
                ctx,
                at,
                slot,
                attachment,
                data,
            };
            out.push(keys(list, d)?);
        }
        Ok(())
    })
}

/// 3.x deform keys.
pub fn deform_keys(keys: &[DeformKey], d: DeformAt<'_>) -> Result<Timeline, LoadError> {
    let curve = |out: &mut Keys, i: usize| Ok(interp(out, keys[i].curve()));
    deform_timeline(
        d,
        keys,
        |k| (k.time.0, k.offset, k.vertices.as_deref()),
        curve,
    )
}

/// The deform length of `attachment` and its setup vertices (unweighted), or an error at
/// `at` when it is not a vertex attachment.
pub(crate) fn deform_shape<'d>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    attachment: usize,
    data: &'d SkeletonData,
) -> Result<(usize, Option<&'d [f32]>), LoadError> {
    let att = data.attachments.get(attachment);
    let Some(vd) = att.and_then(|a| a.vertex_data()) else {
        let kind = att.map_or("missing", |a| a.type_name());
        return Err(ctx.err(
            at,
            format!(
                "deform keys need a mesh, path, bounding box or clipping attachment, not a {kind}"
            ),
        ));
    };
    // Weighted: an offset per influence (x, y); plain: absolute positions per vertex.
    Ok(match vd.bones {
        Some(_) => (vd.vertices.len() / 3 * 2, None),
        None => (vd.world_len, Some(vd.vertices.as_slice())),
    })
}

/// Key `i`'s full vertex array: the setup vertices (or zeros) with `values` added from
/// `offset` on, in f64 and rounded once.
pub(crate) fn key_vertices(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    i: usize,
    offset: u32,
    values: Option<&[f64]>,
    len: usize,
    setup: Option<&[f32]>,
) -> Result<Vec<f32>, LoadError> {
    ctx.spend(len * 4, &join(at, &[Index(i)]))?;
    let mut v = match setup {
        Some(s) => s.to_vec(),
        None => vec![0.0; len],
    };
    if let Some(values) = values {
        let offset = offset as usize;
        if offset.checked_add(values.len()).is_none_or(|end| end > len) {
            return Err(ctx.err(
                &join(at, &[Index(i), Key("vertices")]),
                format!(
                    "{} values at offset {offset} run past the end of the attachment's {len} deform values",
                    values.len()
                ),
            ));
        }
        for (j, (&d, slot)) in values.iter().zip(&mut v[offset..]).enumerate() {
            let sum = (d + *slot as f64) as f32;
            if !sum.is_finite() {
                return Err(ctx.err(
                    &join(at, &[Index(i), Key("vertices"), Index(j)]),
                    format!("number {d} is too large for 32-bit storage"),
                ));
            }
            *slot = sum;
        }
    }
    Ok(v)
}

/// A deform timeline out of `keys`; `key` gives a key's time, offset and vertices, `interp`
/// the interpolation out of key `i` (adding its bezier table to the keys).
pub(crate) fn deform_timeline<K>(
    d: DeformAt<'_>,
    keys: &[K],
    key: impl Fn(&K) -> (f32, u32, Option<&[f64]>),
    mut interp: impl FnMut(&mut Keys, usize) -> Result<Interp, LoadError>,
) -> Result<Timeline, LoadError> {
    let DeformAt {
        ctx,
        at,
        slot,
        attachment,
        data,
    } = d;
    let (len, setup) = deform_shape(ctx, at, attachment, data)?;
    let mut out = Keys::new(0);
    let mut vertices = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        let (time, offset, values) = key(k);
        check_time(ctx, at, i, time, out.times().last().copied())?;
        vertices.push(key_vertices(ctx, at, i, offset, values, len, setup)?);
        let curve = interp(&mut out, i)?;
        out.push(time, &[], curve);
    }
    Ok(Timeline::Deform(DeformTimeline {
        slot,
        attachment,
        keys: out,
        vertices,
    }))
}
