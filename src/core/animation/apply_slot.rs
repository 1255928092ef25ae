//! Applying slot timelines (attachment, colors, deform) and the draw order timeline.

use super::timeline::{discrete_key, span};
use super::{
    AttachmentTimeline, ColorTimeline, DeformTimeline, DrawOrderTimeline, MixBlend, MixDirection,
    TwoColorTimeline,
};
use crate::core::color::Color;
use crate::core::curve::Span;
use crate::core::skeleton::Skeleton;

fn slot_active(sk: &Skeleton, slot: usize) -> bool {
    sk.bones[sk.data.slots[slot].bone].active
}

/// Shows the attachment named `name` (looked up in the skins) on `slot`.
pub(crate) fn set_attachment_by_name(sk: &mut Skeleton, slot: usize, name: Option<&str>) {
    let att = name.and_then(|n| sk.attachment(slot, n));
    sk.slots[slot].set_attachment(att);
}

fn set_setup_attachment(sk: &mut Skeleton, slot: usize) {
    let data = sk.data.clone();
    set_attachment_by_name(sk, slot, data.slots[slot].attachment.as_deref());
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
        Some(i) => set_attachment_by_name(sk, t.slot, t.names[i].as_deref()),
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

/// Channel values of `keys` at a span that is not `Before`.
fn channels<const N: usize>(keys: &crate::core::curve::Keys, sp: Span) -> [f64; N] {
    let mut out = [0.0; N];
    for (ch, v) in out.iter_mut().enumerate() {
        *v = match sp {
            Span::Last(i) => keys.value(i, ch),
            Span::Between { key, percent } => keys.lerp(key, ch, percent),
            Span::Before => 0.0,
        };
    }
    out
}

pub(super) fn apply_color(
    t: &ColorTimeline,
    sk: &mut Skeleton,
    time: f64,
    alpha: f64,
    blend: MixBlend,
) {
    if !slot_active(sk, t.slot) {
        return;
    }
    let setup = sk.data.slots[t.slot].color;
    let color = &mut sk.slots[t.slot].color;
    let sp = span(&t.keys, time);
    if sp == Span::Before {
        match blend {
            MixBlend::Setup => *color = setup,
            MixBlend::First => blend_color(color, setup.r, setup.g, setup.b, setup.a, alpha),
            _ => {}
        }
        return;
    }
    let [r, g, b, a] = channels::<4>(&t.keys, sp);
    if alpha == 1.0 {
        set_color(color, r, g, b, a);
    } else {
        if blend == MixBlend::Setup {
            *color = setup;
        }
        blend_color(color, r, g, b, a, alpha);
    }
}

pub(super) fn apply_two_color(
    t: &TwoColorTimeline,
    sk: &mut Skeleton,
    time: f64,
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
    let sp = span(&t.keys, time);
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
    time: f64,
    alpha: f64,
    mut blend: MixBlend,
) {
    if !slot_active(sk, t.slot) {
        return;
    }
    let data = sk.data.clone();
    let Some(att_id) = sk.slots[t.slot].attachment else {
        return;
    };
    let att = &data.attachments[att_id];
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
    let sp = span(&t.keys, time);
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
    // The keyed vertex value at index i (the curve is evaluated once, not per vertex).
    let (k0, k1, p) = match sp {
        Span::Last(k) => (k, k, 0.0),
        Span::Between { key, percent } => (key, key + 1, t.keys.curve_percent(key, percent)),
        Span::Before => return,
    };
    let (v0, v1) = (&t.vertices[k0], &t.vertices[k1]);
    let value = |i: usize| -> f64 {
        let a = v0[i] as f64;
        a + (v1[i] as f64 - a) * p
    };
    let setup_at = |i: usize| setup.map_or(0.0, |s| s[i] as f64);
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += value(i) - setup_at(i);
            }
        } else {
            for (i, d) in deform.iter_mut().enumerate() {
                *d = value(i);
            }
        }
        return;
    }
    match blend {
        MixBlend::Setup => {
            for (i, d) in deform.iter_mut().enumerate() {
                let s = setup_at(i);
                *d = s + (value(i) - s) * alpha;
            }
        }
        MixBlend::First | MixBlend::Replace => {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += (value(i) - *d) * alpha;
            }
        }
        MixBlend::Add => {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += (value(i) - setup_at(i)) * alpha;
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
