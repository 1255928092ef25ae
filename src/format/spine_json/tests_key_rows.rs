//! The key-row request ([`crate::format::json::key_row`]) against serde_json: seeded random
//! key lists, each read by the fast reader and by serde_json through every key type that
//! makes the request: the same keys, or the fast reader refuses.

use super::dto_keys3::{RotateKey, XyKey};
use super::dto_keys4::KeyList4;
use crate::format::json::de::from_slice;
use serde::Deserialize;
use std::fmt::Debug;

/// xorshift64*: the same lists on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const NAMES: &[&str] = &[
    "time",
    "value",
    "angle",
    "x",
    "y",
    "curve",
    "c2",
    "c3",
    "c4",
    "c5",
    "t\\u0069me",
    "",
    "times",
    "val",
];
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "0.5",
    "-12.75",
    "1e3",
    "2.5E-3",
    "123456789012345678901",
    "1e39",
    "-1e39",
    "3.4028235e38",
    "0.1234567",
    "99999999",
    "7.",
    "01",
    "-",
    "1e400",
];
const WS: &[&str] = &["", " ", "\n\t\t", "\r\n", " \t "];

fn value(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => "null".into(),
        1 => "\"stepped\"".into(),
        2 => "\"linear\"".into(),
        3 | 4 => {
            let n = rng.below(10);
            let items: Vec<_> = (0..n).map(|_| rng.pick(NUMBERS)).collect();
            format!("[{}]", items.join(rng.pick(&[",", ", ", " ,"])))
        }
        5 => "[1, \"a\"]".into(),
        6 => "{}".into(),
        7 => "true".into(),
        _ => rng.pick(NUMBERS).into(),
    }
}

fn key(rng: &mut Rng) -> String {
    if rng.below(20) == 0 {
        return format!("[{}, {}]", rng.pick(NUMBERS), rng.pick(NUMBERS));
    }
    let members: Vec<_> = (0..rng.below(6))
        .map(|_| {
            let (a, b, c) = (rng.pick(WS), rng.pick(WS), rng.pick(WS));
            format!("{a}\"{}\"{b}:{c}{}", rng.pick(NAMES), value(rng))
        })
        .collect();
    let trailing = if rng.below(30) == 0 { "," } else { "" };
    format!("{{{}{trailing}{}}}", members.join(","), rng.pick(WS))
}

fn agree<L: for<'de> Deserialize<'de> + Debug>(text: &str) -> bool {
    let theirs = serde_json::from_str::<L>(text);
    let ours = from_slice::<L>(text.as_bytes());
    match (&theirs, &ours) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text}"),
        (Err(_), Ok(b)) => panic!("the fast reader accepts what serde_json refuses: {text}: {b:?}"),
        _ => {}
    }
    ours.is_ok()
}

#[test]
fn random_keys_read_as_serde_json_reads_them() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut read = 0;
    for _ in 0..4000 {
        let keys: Vec<_> = (0..1 + rng.below(3)).map(|_| key(&mut rng)).collect();
        let text = format!("[{}]", keys.join(", "));
        read += usize::from(agree::<KeyList4<1>>(&text));
        read += usize::from(agree::<KeyList4<2>>(&text));
        read += usize::from(agree::<Vec<RotateKey>>(&text));
        read += usize::from(agree::<Vec<XyKey>>(&text));
    }
    // The generator must reach keys the readers accept, not only refusals.
    assert!(read > 500, "{read} lists read");
}
