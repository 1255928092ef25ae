//! Applying slot timelines (attachment, colors, deform) and the draw order timeline.

use super::timeline::{At, channels, discrete_key, span};
use super::{
    AttachmentTimeline, ColorKind, ColorTimeline, DeformTimeline, DrawOrderTimeline, MixBlend,
    MixDirection, SequenceMode, SequenceTimeline, TwoColorKind, TwoColorTimeline,
};
use crate::core::color::Color;
use crate::core::curve::Span;
use crate::core::skeleton::Skeleton;

fn slot_active(sk: &Skeleton, slot: usize) -> bool {
    sk.bones[sk.data.slots[slot].bone].active
}

/// Shows the attachment of key `key` of `t` on its slot: the one its name finds in the
/// skins ([`Skeleton::attachment`]), from the default-skin lookup done at load when no other
/// skin is active.
#[inline]
pub(crate) fn set_keyed_attachment(sk: &mut Skeleton, t: &AttachmentTimeline, key: usize) {
    let name = t.names.get(key).and_then(Option::as_deref);
    let att = match (name, t.default_ids.get(key)) {
        (None, _) => None,
        (Some(_), Some(&id)) if sk.skin.is_none() => id,
        (Some(n), Some(&id)) => sk.skin.as_ref().and_then(|s| s.get(t.slot, n)).or(id),
        (Some(n), None) => sk.attachment(t.slot, n),
    };
    sk.slots[t.slot].set_attachment(att, &sk.data);
}

/// Shows `slot`'s setup attachment (looked up in the skins by the setup name).
pub(crate) fn set_setup_attachment(sk: &mut Skeleton, slot: usize) {
    let name = sk.data.slots[slot].attachment.as_deref();
    let att = match (name, sk.data.setup_attachments.get(slot)) {
        (None, _) => None,
        (Some(_), Some(&id)) if sk.skin.is_none() => id,
        (Some(n), Some(&id)) => sk.skin.as_ref().and_then(|s| s.get(slot, n)).or(id),
        (Some(n), None) => sk.attachment(slot, n),
    };
    sk.slots[slot].set_attachment(att, &sk.data);
}

pub(super) fn apply_attachment(
    t: &AttachmentTimeline,
    sk: &mut Skeleton,
    time: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    if !slot_active(sk, t.slot) {
        return;
    }
    if direction == MixDirection::Out {
        if blend == MixBlend::Setup {
            set_setup_attachment(sk, t.slot);
        }
        return;
    }
    match discrete_key(&t.times, time) {
        None => {
            if matches!(blend, MixBlend::Setup | MixBlend::First) {
                set_setup_attachment(sk, t.slot);
            }
        }
        Some(i) => set_keyed_attachment(sk, t, i),
    }
}

/// Sets a color from channels, clamped to 0..1.
fn set_color(c: &mut Color, r: f64, g: f64, b: f64, a: f64) {
    *c = Color::rgba(r, g, b, a).clamped();
}

/// Moves a color toward (r, g, b, a) by alpha, clamped to 0..1.
fn blend_color(c: &mut Color, r: f64, g: f64, b: f64, a: f64, alpha: f64) {
    let n = Color::rgba(
        c.r + (r - c.r) * alpha,
        c.g + (g - c.g) * alpha,
        c.b + (b - c.b) * alpha,
        c.a + (a - c.a) * alpha,
    );
    *c = n.clamped();
}

pub(super) fn apply_color(
    t: &ColorTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    if !slot_active(sk, t.slot) {
        return;
    }
    if matches!(t.kind, ColorKind::Rgb | ColorKind::Alpha) {
        apply_partial_color(t, sk, at, alpha, blend);
        return;
    }
    let sd = &sk.data.slots[t.slot];
    let slot = &mut sk.slots[t.slot];
    // Color transforms key an offset after the multipliers; it replaces the slot's the same
    // way, unclamped (offsets darken as well as brighten).
    if t.keys.channels() == 8 {
        let keyed = t.keys.values_from::<8>(at.time, at.hint, 0);
        let half = |h: usize| keyed.map(|v| [v[h], v[h + 1], v[h + 2], v[h + 3]]);
        blend_toward(&mut slot.color, sd.color, half(0), alpha, blend, true);
        let setup = sd.offset.unwrap_or(Color::rgba(0.0, 0.0, 0.0, 0.0));
        let offset = slot.offset.get_or_insert(setup);
        blend_toward(offset, setup, half(4), alpha, blend, false);
        return;
    }
    // The span found and the key's curve read once for the four channels.
    let keyed = t.keys.values_from::<4>(at.time, at.hint, 0);
    blend_toward(&mut slot.color, sd.color, keyed, alpha, blend, true);
}

/// 4.x `rgb` and `alpha`: only the owned channels move, unclamped (4.3: clamped).
fn apply_partial_color(
    t: &ColorTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    let setup = sk.data.slots[t.slot].color;
    let c = &mut sk.slots[t.slot].color;
    // The owned channels from one span read.
    match t.kind {
        ColorKind::Rgb => {
            let keyed = t.keys.values_from::<3>(at.time, at.hint, 0);
            let mut owned = [
                (&mut c.r, setup.r),
                (&mut c.g, setup.g),
                (&mut c.b, setup.b),
            ];
            blend_values(&mut owned, keyed, alpha, blend);
        }
        _ => {
            let keyed = t.keys.values_from::<1>(at.time, at.hint, 0);
            blend_values(&mut [(&mut c.a, setup.a)], keyed, alpha, blend);
        }
    }
    if sk.data.rules.clamp_colors {
        let c = &mut sk.slots[t.slot].color;
        *c = c.clamped();
    }
}

/// 4.3 clamps every channel of the two colors (4.x before: only rgba2's light color).
fn clamp_two_colors(sk: &mut Skeleton, slot: usize) {
    if sk.data.rules.clamp_colors {
        let slot = &mut sk.slots[slot];
        slot.color = slot.color.clamped();
        if let Some(d) = &mut slot.dark {
            *d = d.clamped();
        }
    }
}

/// The dark color's three channels of a 4.x two-color timeline, stored unclamped
/// ([`blend_values`]).
#[inline(always)]
fn blend_dark(
    dark: &mut Color,
    setup: Color,
    keyed: Option<[f64; 3]>,
    alpha: f64,
    blend: MixBlend,
) {
    let mut owned = [
        (&mut dark.r, setup.r),
        (&mut dark.g, setup.g),
        (&mut dark.b, setup.b),
    ];
    blend_values(&mut owned, keyed, alpha, blend);
}

/// Moves each `(current, setup)` channel as a 4.x color timeline does: before the first key
/// (`keyed` is `None`) toward setup as `blend` says, else to the keyed value by `alpha` (from
/// setup with blend setup), unclamped.
fn blend_values<const N: usize>(
    owned: &mut [(&mut f64, f64); N],
    keyed: Option<[f64; N]>,
    alpha: f64,
    blend: MixBlend,
) {
    let Some(values) = keyed else {
        for (c, s) in owned.iter_mut() {
            match blend {
                MixBlend::Setup => **c = *s,
                MixBlend::First => **c += (*s - **c) * alpha,
                _ => {}
            }
        }
        return;
    };
    for ((c, s), v) in owned.iter_mut().zip(values) {
        if alpha == 1.0 {
            **c = v;
        } else {
            if blend == MixBlend::Setup {
                **c = *s;
            }
            **c += (v - **c) * alpha;
        }
    }
}

/// What a color timeline does to one color: before the first key (`keyed` is `None`) back to
/// `setup` as `blend` says; else to the keyed `[r, g, b, a]`, by `alpha`. `clamp` keeps the
/// channels in 0..1.
fn blend_toward(
    c: &mut Color,
    setup: Color,
    keyed: Option<[f64; 4]>,
    alpha: f64,
    blend: MixBlend,
    clamp: bool,
) {
    let lerp = |c: &mut Color, to: Color, alpha: f64| {
        *c = Color::rgba(
            c.r + (to.r - c.r) * alpha,
            c.g + (to.g - c.g) * alpha,
            c.b + (to.b - c.b) * alpha,
            c.a + (to.a - c.a) * alpha,
        );
    };
    match keyed {
        None => match blend {
            MixBlend::Setup => *c = setup,
            MixBlend::First => lerp(c, setup, alpha),
            _ => return,
        },
        Some([r, g, b, a]) => {
            let to = Color::rgba(r, g, b, a);
            if alpha == 1.0 {
                *c = to;
            } else {
                if blend == MixBlend::Setup {
                    *c = setup;
                }
                lerp(c, to, alpha);
            }
        }
    }
    if clamp {
        *c = c.clamped();
    }
}

pub(super) fn apply_two_color(
    t: &TwoColorTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    if !slot_active(sk, t.slot) {
        return;
    }
    let sd = &sk.data.slots[t.slot];
    let (setup, setup_dark) = (sd.color, sd.dark.unwrap_or(Color::BLACK));
    let slot = &mut sk.slots[t.slot];
    let dark = slot.dark.get_or_insert(setup_dark);
    if t.kind == TwoColorKind::Rgba2 {
        // 4.x rgba2: the light color is clamped like rgba, the dark channels are stored
        // unclamped. Both from one span read (one curve evaluation).
        let keyed = t.keys.values_from::<7>(at.time, at.hint, 0);
        let light = keyed.map(|v| [v[0], v[1], v[2], v[3]]);
        blend_toward(&mut slot.color, setup, light, alpha, blend, true);
        blend_dark(
            dark,
            setup_dark,
            keyed.map(|v| [v[4], v[5], v[6]]),
            alpha,
            blend,
        );
        clamp_two_colors(sk, t.slot);
        return;
    }
    if t.kind == TwoColorKind::Rgb2 {
        // 4.x rgb2: every channel is stored unclamped; all six from one span read.
        let keyed = t.keys.values_from::<6>(at.time, at.hint, 0);
        let c = &mut slot.color;
        let mut light = [
            (&mut c.r, setup.r),
            (&mut c.g, setup.g),
            (&mut c.b, setup.b),
        ];
        blend_values(&mut light, keyed.map(|v| [v[0], v[1], v[2]]), alpha, blend);
        blend_dark(
            dark,
            setup_dark,
            keyed.map(|v| [v[3], v[4], v[5]]),
            alpha,
            blend,
        );
        clamp_two_colors(sk, t.slot);
        return;
    }
    let sp = span(&t.keys, at);
    if sp == Span::Before {
        match blend {
            MixBlend::Setup => {
                slot.color = setup;
                *dark = setup_dark;
            }
            MixBlend::First => {
                blend_color(&mut slot.color, setup.r, setup.g, setup.b, setup.a, alpha);
                blend_color(
                    dark,
                    setup_dark.r,
                    setup_dark.g,
                    setup_dark.b,
                    dark.a,
                    alpha,
                );
            }
            _ => {}
        }
        return;
    }
    let [r, g, b, a, r2, g2, b2] = channels::<7>(&t.keys, sp);
    if alpha == 1.0 {
        set_color(&mut slot.color, r, g, b, a);
        set_color(dark, r2, g2, b2, 1.0);
    } else {
        if blend == MixBlend::Setup {
            slot.color = setup;
            *dark = setup_dark;
        }
        blend_color(&mut slot.color, r, g, b, a, alpha);
        blend_color(dark, r2, g2, b2, dark.a, alpha);
    }
}

pub(super) fn apply_deform(
    t: &DeformTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    mut blend: MixBlend,
) {
    if !slot_active(sk, t.slot) {
        return;
    }
    let Some(att_id) = sk.slots[t.slot].attachment else {
        return;
    };
    let att = &sk.data.attachments[att_id];
    let Some(vd) = att.vertex_data() else {
        return;
    };
    if att.deform_source != t.attachment {
        return;
    }
    let setup: Option<&[f32]> = if vd.is_weighted() {
        None
    } else {
        Some(&vd.vertices)
    };
    let deform = &mut sk.slots[t.slot].deform;
    if deform.is_empty() {
        blend = MixBlend::Setup;
    }
    let count = t.vertices.first().map_or(0, Vec::len);
    let sp = span(&t.keys, at);
    if sp == Span::Before {
        match blend {
            MixBlend::Setup => deform.clear(),
            MixBlend::First => {
                if alpha == 1.0 {
                    deform.clear();
                    return;
                }
                deform.resize(count, 0.0);
                match setup {
                    Some(sv) => {
                        for (d, &s) in deform.iter_mut().zip(sv) {
                            *d += (s as f64 - *d) * alpha;
                        }
                    }
                    None => {
                        for d in deform.iter_mut() {
                            *d *= 1.0 - alpha;
                        }
                    }
                }
            }
            _ => {}
        }
        return;
    }
    deform.resize(count, 0.0);
    // The keyed vertex values: key k0's moved toward k1's by p (the curve is evaluated once,
    // not per vertex). Every array is cut to `count` up front, so the loops below index
    // nothing and keep the arithmetic of the formulas they stand for.
    let (k0, k1, p) = match sp {
        Span::Last(k) => (k, k, 0.0),
        Span::Between { key, percent, time } => {
            (key, key + 1, t.keys.percent_at(key, percent, time))
        }
        Span::Before => return,
    };
    let (v0, v1) = (&t.vertices[k0][..count], &t.vertices[k1][..count]);
    let values = v0.iter().zip(v1).map(|(&a, &b)| {
        let a = a as f64;
        a + (b as f64 - a) * p
    });
    let setup = setup.map(|s| &s[..count]);
    // Weighted attachments have no setup values: the formulas' setup term is 0.0 there, and
    // `v - 0.0` is `v` for every `v` (including -0.0), so it is left out.
    if alpha == 1.0 {
        match (blend, setup) {
            (MixBlend::Add, Some(setup)) => {
                for ((d, v), &s) in deform.iter_mut().zip(values).zip(setup) {
                    *d += v - s as f64;
                }
            }
            (MixBlend::Add, None) => {
                for (d, v) in deform.iter_mut().zip(values) {
                    *d += v;
                }
            }
            _ => {
                for (d, v) in deform.iter_mut().zip(values) {
                    *d = v;
                }
            }
        }
        return;
    }
    match (blend, setup) {
        (MixBlend::Setup, Some(setup)) => {
            for ((d, v), &s) in deform.iter_mut().zip(values).zip(setup) {
                let s = s as f64;
                *d = s + (v - s) * alpha;
            }
        }
        (MixBlend::Setup, None) => {
            for (d, v) in deform.iter_mut().zip(values) {
                // `0.0 +` turns a -0.0 product into 0.0, as the setup-relative formula does.
                *d = 0.0 + v * alpha;
            }
        }
        (MixBlend::First | MixBlend::Replace, _) => {
            for (d, v) in deform.iter_mut().zip(values) {
                *d += (v - *d) * alpha;
            }
        }
        (MixBlend::Add, Some(setup)) => {
            for ((d, v), &s) in deform.iter_mut().zip(values).zip(setup) {
                *d += (v - s as f64) * alpha;
            }
        }
        (MixBlend::Add, None) => {
            for (d, v) in deform.iter_mut().zip(values) {
                *d += v * alpha;
            }
        }
    }
}

pub(super) fn apply_draw_order(
    t: &DrawOrderTimeline,
    sk: &mut Skeleton,
    time: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    let setup_order = |sk: &mut Skeleton| {
        let n = sk.slots.len();
        sk.draw_order.clear();
        sk.draw_order.extend(0..n);
    };
    if direction == MixDirection::Out {
        if blend == MixBlend::Setup {
            setup_order(sk);
        }
        return;
    }
    match discrete_key(&t.times, time) {
        None => {
            if matches!(blend, MixBlend::Setup | MixBlend::First) {
                setup_order(sk);
            }
        }
        Some(i) => match &t.orders[i] {
            None => setup_order(sk),
            Some(order) => {
                sk.draw_order.clear();
                sk.draw_order.extend_from_slice(order);
            }
        },
    }
}

/// 4.1+ image sequences: picks the frame of the slot's sequence from the key's mode, start
/// frame and delay.
pub(super) fn apply_sequence(
    t: &SequenceTimeline,
    sk: &mut Skeleton,
    time: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    if !slot_active(sk, t.slot) {
        return;
    }
    let Some(att_id) = sk.slots[t.slot].attachment else {
        return;
    };
    let att = &sk.data.attachments[att_id];
    if att_id != t.attachment && (att.vertex_data().is_none() || att.deform_source != t.attachment)
    {
        return;
    }
    let count = sk.data.attachments[t.attachment]
        .sequence
        .map_or(0, |s| s.count as i64);
    let slot = &mut sk.slots[t.slot];
    if direction == MixDirection::Out {
        if blend == MixBlend::Setup {
            slot.sequence_index = -1;
        }
        return;
    }
    let Some(i) = discrete_key(&t.times, time) else {
        if matches!(blend, MixBlend::Setup | MixBlend::First) {
            slot.sequence_index = -1;
        }
        return;
    };
    let key = t.keys[i];
    slot.sequence_index = sequence_frame(key, time - t.times[i] as f64, count);
}

/// The frame a sequence key shows `elapsed` seconds after its time, in a sequence of `n`
/// frames.
pub fn sequence_frame(key: super::SequenceKey, elapsed: f64, n: i64) -> i32 {
    let mut k = key.index as i64;
    if key.mode == SequenceMode::Hold {
        return k as i32;
    }
    // Truncates toward 0 like a 32-bit conversion: a zero delay (inf or NaN) adds nothing.
    let steps = elapsed / key.delay as f64 + 0.00001;
    if steps.is_finite() {
        k += steps.trunc().clamp(i32::MIN as f64, i32::MAX as f64) as i64;
    }
    let rem = |a: i64, m: i64| if m == 0 { 0 } else { a % m };
    let k = match key.mode {
        SequenceMode::Hold => k,
        SequenceMode::Once => k.min(n - 1),
        SequenceMode::Loop => rem(k, n),
        SequenceMode::Pingpong => {
            let m = 2 * n - 2;
            let k = if m == 0 { 0 } else { k % m };
            if k >= n { m - k } else { k }
        }
        SequenceMode::OnceReverse => (n - 1 - k).max(0),
        SequenceMode::LoopReverse => n - 1 - rem(k, n),
        SequenceMode::PingpongReverse => {
            let m = 2 * n - 2;
            let k = if m == 0 { 0 } else { (k + n - 1) % m };
            if k >= n { m - k } else { k }
        }
    };
    k as i32
}
