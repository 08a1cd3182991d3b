//! The text paths against their floors without criterion: plain `Instant` loops in one process.
//! Each round interleaves the four cases in slices of [`SLICE`] calls, so a change of the
//! machine's load hits both sides of a ratio alike. Prints the time per call and the ratios of
//! each round, and the median ratios.
//!
//! `cargo bench -p oid-benches --bench text_loop`

use std::hint::black_box;
use std::time::Instant;

use oid_benches::{floor_decode, floor_to_string};
use oid_core::ObjectId;

const HEX: &str = "507f1f77bcf86cd799439011";
/// Calls per slice.
const SLICE: u32 = 200_000;
/// Slices per case and round.
const SLICES: u32 = 50;
/// Rounds.
const ROUNDS: usize = 7;

/// Seconds spent in one slice of calls of `f`.
fn slice<R>(f: &impl Fn() -> R) -> f64 {
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

fn main() {
    // `cargo bench` passes `--bench`; this program takes no arguments.
    let id = ObjectId::parse_str(HEX).unwrap_or_default();
    let (decode, parse) = (
        || floor_decode(black_box(HEX)),
        || ObjectId::parse_str(black_box(HEX)),
    );
    let (floor_str, to_string) = (
        || floor_to_string(black_box(&id)),
        || black_box(&id).to_string(),
    );
    let per_call = |secs: f64| secs * 1e9 / f64::from(SLICE * SLICES);
    let (mut parse_ratios, mut string_ratios) = (Vec::new(), Vec::new());
    println!("round  floor_decode  parse_str  ratio  |  floor_to_string  to_string  ratio");
    for round in 1..=ROUNDS {
        let mut t = [0.0f64; 4];
        for _ in 0..SLICES {
            t[0] += slice(&decode);
            t[1] += slice(&parse);
            t[2] += slice(&floor_str);
            t[3] += slice(&to_string);
        }
        let [fd, ps, fs, ts] = t.map(per_call);
        parse_ratios.push(ps / fd);
        string_ratios.push(ts / fs);
        println!(
            "{round:>5}  {fd:>9.2} ns  {ps:>6.2} ns  {:>4.2}x  |  {fs:>12.2} ns  {ts:>6.2} ns  {:>4.2}x",
            ps / fd,
            ts / fs
        );
    }
    println!(
        "median ratio: parse_str / floor_decode {:.2}x, to_string / floor_to_string {:.2}x",
        median(parse_ratios),
        median(string_ratios)
    );
}
