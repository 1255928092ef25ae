//! 4.x attachment timelines: deform keys (4.0 `deform`, 4.1+ `attachments.….deform`) and
//! image sequence keys (4.1+ `attachments.….sequence`).

use crate::core::animation::{SequenceKey, SequenceMode, SequenceTimeline, Timeline};
use crate::core::curve::Interp;
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::Seg;
use crate::format::spine_json::anim::deform::{BySkin, DeformAt, deform_timeline, each};
use crate::format::spine_json::anim::keys::check_time;
use crate::format::spine_json::ctx::{Ctx, Names, join};
use crate::format::spine_json::dto_anim4::{
    AttachmentTimelines, Curve4, DeformKey, SequenceKey as SequenceKeyDto,
};

use super::keys::bezier_points;
use Seg::{Index, Key};

/// 4.1+ `attachments: {skin: {slot: {attachment: {deform, sequence}}}}`.
pub fn attachments(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &BySkin<AttachmentTimelines>,
    names: &Names<'_>,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    let at = join(anim, &[Key("attachments")]);
    if ctx.version < crate::format::spine_json::SpineVersion::V41 {
        return Err(ctx.err(
            &at,
            "\"attachments\" timelines are new in Spine 4.1 (4.0 has \"deform\")",
        ));
    }
    each(ctx, &at, dtos, names, data, |at, slot, attachment, t| {
        if let Some(keys) = t.deform.as_deref().filter(|k| !k.is_empty()) {
            let at = join(at, &[Key("deform")]);
            let d = DeformAt {
                ctx,
                at: &at,
                slot,
                attachment,
                data,
            };
            out.push(deform_keys(keys, d)?);
        }
        if let Some(keys) = t.sequence.as_deref().filter(|k| !k.is_empty()) {
            let at = join(at, &[Key("sequence")]);
            out.push(sequence(ctx, &at, keys, slot, attachment, data)?);
        }
        Ok(())
    })
}

/// 4.x deform keys (a bezier curve is 4 numbers: one channel, the blend between keys).
pub fn deform_keys(keys: &[DeformKey], d: DeformAt<'_>) -> Result<Timeline, LoadError> {
    deform_timeline(
        d,
        keys,
        |k| (k.time.f32(), k.offset, k.vertices.as_deref()),
        |out, i| {
            let k = &keys[i];
            Ok(match (&k.curve, keys.get(i + 1)) {
                (_, None) => Interp::Stepped,
                (None, Some(_)) => Interp::Linear,
                (Some(Curve4::Stepped), Some(_)) => Interp::Stepped,
                (Some(Curve4::Bezier(numbers)), Some(next)) => {
                    let [c] = bezier_points::<0>(d.ctx, d.at, i, numbers)?[..] else {
                        unreachable!("bezier_points checked the count");
                    };
                    out.add_percent_bezier4(k.time.0, c, next.time.0)
                }
            })
        },
    )
}

fn sequence(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    keys: &[SequenceKeyDto],
    slot: usize,
    attachment: usize,
    data: &SkeletonData,
) -> Result<Timeline, LoadError> {
    if data.attachments[attachment].sequence.is_none() {
        return Err(ctx.err(at, "sequence keys need an attachment with a \"sequence\""));
    }
    let mut times = Vec::with_capacity(keys.len());
    let mut out = Vec::with_capacity(keys.len());
    let mut delay = 0.0f32;
    for (i, k) in keys.iter().enumerate() {
        let time = k.time.f32();
        check_time(ctx, at, i, time, times.last().copied())?;
        let mode = match k.mode.as_deref() {
            None => SequenceMode::Hold,
            Some(name) => SequenceMode::ALL
                .into_iter()
                .find(|m| m.name() == name)
                .ok_or_else(|| {
                    ctx.err(
                        &join(at, &[Index(i), Key("mode")]),
                        format!("unknown sequence mode \"{name}\" (hold, once, loop, pingpong, onceReverse, loopReverse, pingpongReverse)"),
                    )
                })?,
        };
        // A key without a delay keeps the previous key's.
        if let Some(d) = k.delay {
            delay = d.f32();
        }
        times.push(time);
        out.push(SequenceKey {
            mode,
            index: k.index,
            delay,
        });
    }
    Ok(Timeline::Sequence(SequenceTimeline {
        slot,
        attachment,
        times,
        keys: out,
    }))
}
