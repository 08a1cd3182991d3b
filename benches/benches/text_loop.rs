//! The text paths against their floors and peers without criterion: plain `Instant` loops in one
//! process. Each round runs every case of a group in turn, in slices of [`SLICE`] calls, so a
//! change of the machine's load hits the cases of a ratio alike, and keeps each case's fastest
//! slice (the one least disturbed by other processes); the ratio to the group's first case (its
//! floor) is taken per round, and the median over the rounds printed. On a shared, loaded machine
//! these ratios hold better than criterion's, whose cases run seconds to minutes apart.
//!
//! `cargo bench -p oid-benches --bench text_loop`

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use oid_benches::{floor_decode, floor_encode, floor_to_string, safe_to_string, swar_decode};
use oid_core::ObjectId;

const HEX: &str = "507f1f77bcf86cd799439011";
/// A uuid in its simple form (32 hex digits), for `uuid::Uuid::parse_str` as a yardstick.
const UUID: &str = "67e5504410b1426f9247bb680e5fe0c8";
/// Calls per slice.
const SLICE: u32 = 100_000;
/// Slices per case and round.
const SLICES: u32 = 20;
/// Rounds.
const ROUNDS: usize = 9;

/// Seconds spent in one slice of calls of `f`.
fn slice<R>(f: &mut dyn FnMut() -> R) -> f64 {
    let start = Instant::now();
    for _ in 0..SLICE {
        black_box(f());
    }
    start.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs a group (the first case is the floor) and prints each case's median time per call and
/// median ratio to the floor.
fn group(title: &str, cases: &mut [(&str, &mut dyn FnMut() -> usize)]) {
    let n = cases.len();
    let mut times = vec![Vec::new(); n];
    let mut ratios = vec![Vec::new(); n];
    for _ in 0..ROUNDS {
        let mut t = vec![f64::MAX; n];
        for _ in 0..SLICES {
            for (k, (_, f)) in cases.iter_mut().enumerate() {
                t[k] = t[k].min(slice(*f));
            }
        }
        for k in 0..n {
            let ns = t[k] * 1e9 / f64::from(SLICE);
            times[k].push(ns);
            ratios[k].push(t[k] / t[0]);
        }
    }
    println!("\n{title}");
    for (k, (name, _)) in cases.iter().enumerate() {
        println!(
            "  {name:<48} {:>7.2} ns  {:>5.2}x",
            median(times[k].clone()),
            median(ratios[k].clone())
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; this program takes no arguments.
    let id = ObjectId::parse_str(HEX).unwrap_or_default();
    let bytes = id.bytes();
    println!(
        "fastest slice of {SLICE} calls per case and round, median over {ROUNDS} rounds; ratios to the first case of each group"
    );
    group(
        "parse (valid input)",
        &mut [
            ("floor: arithmetic validated decode", &mut || {
                usize::from(black_box(floor_decode(black_box(HEX))).is_some())
            }),
            ("candidate: SWAR validated decode (u64 lanes)", &mut || {
                usize::from(black_box(swar_decode(black_box(HEX))).is_some())
            }),
            ("oid_core::ObjectId::parse_str", &mut || {
                usize::from(black_box(ObjectId::parse_str(black_box(HEX))).is_ok())
            }),
            ("oid_core::ObjectId::try_parse_ascii (bytes)", &mut || {
                usize::from(black_box(ObjectId::try_parse_ascii(black_box(HEX).as_bytes())).is_ok())
            }),
            ("uuid::Uuid::parse_str (32 digits, simple)", &mut || {
                usize::from(black_box(uuid::Uuid::parse_str(black_box(UUID))).is_ok())
            }),
            ("oid_core::ObjectId::is_valid", &mut || {
                usize::from(ObjectId::is_valid(black_box(HEX)))
            }),
            ("const_hex::decode_to_array::<12>", &mut || {
                usize::from(black_box(const_hex::decode_to_array::<_, 12>(black_box(HEX))).is_ok())
            }),
            ("faster_hex::hex_decode", &mut || {
                let mut out = [0u8; 12];
                let r = faster_hex::hex_decode(black_box(HEX).as_bytes(), &mut out);
                black_box(&out);
                usize::from(r.is_ok())
            }),
        ],
    );
    let mut buf = [0u8; 24];
    let mut buf2 = [0u8; 24];
    let mut buf3 = [0u8; 24];
    group(
        "encode (stack)",
        &mut [
            ("floor: arithmetic encode", &mut || {
                usize::from(black_box(floor_encode(black_box(&bytes)))[23])
            }),
            ("oid_core::ObjectId::to_hex", &mut || {
                usize::from(black_box(black_box(&id).to_hex()).as_bytes()[23])
            }),
            ("oid_core::ObjectId::encode_hex (&str)", &mut || {
                black_box(black_box(&id).encode_hex(&mut buf)).len()
            }),
            ("const_hex::encode_to_slice", &mut || {
                const_hex::encode_to_slice(black_box(&bytes), &mut buf2)
                    .map_or(0, |()| usize::from(black_box(&buf2)[23]))
            }),
            ("faster_hex::hex_encode (&str)", &mut || {
                faster_hex::hex_encode(black_box(&bytes), &mut buf3)
                    .map_or(0, |s| black_box(s).len())
            }),
        ],
    );
    let mut reused = String::with_capacity(64);
    let mut reused2 = String::with_capacity(64);
    group(
        "to_string (one allocation)",
        &mut [
            ("floor: encode + one String, no UTF-8 check", &mut || {
                black_box(floor_to_string(black_box(&id))).len()
            }),
            ("reference: encode + one String, UTF-8 checked", &mut || {
                black_box(safe_to_string(black_box(&id))).len()
            }),
            ("oid_core::ObjectId::to_string", &mut || {
                black_box(black_box(&id).to_string()).len()
            }),
            ("const_hex::encode", &mut || {
                black_box(const_hex::encode(black_box(&bytes))).len()
            }),
            ("faster_hex::hex_string", &mut || {
                black_box(faster_hex::hex_string(black_box(&bytes))).len()
            }),
            ("reused String: push_str(&to_hex())", &mut || {
                reused.clear();
                reused.push_str(&black_box(&id).to_hex());
                black_box(&reused).len()
            }),
            ("reused String: write!(\"{id}\")", &mut || {
                reused2.clear();
                let _ = write!(reused2, "{}", black_box(&id));
                black_box(&reused2).len()
            }),
        ],
    );
}
