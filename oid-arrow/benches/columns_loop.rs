//! The column kernels against their floors and the arrow-rs idiom, interleaved: each case of a
//! group runs in turn, round after round, so load changes on a shared machine hit them alike
//! (criterion's cases run seconds apart). Per case and round the fastest of 3 calls; printed:
//! the median over the rounds, and the median of the per-round ratios to the group's floor.
//!
//! `cargo bench -p oid-arrow --bench columns_loop`

#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use arrow_array::builder::FixedSizeBinaryBuilder;
use arrow_array::{Array, FixedSizeBinaryArray, StringArray};
use oid_arrow::ObjectIdArray;
use oid_arrow::compute::{self, OnInvalid};
use oid_core::ObjectId;

const ROWS: usize = 1_000_000;
const ROUNDS: usize = 15;

type Case<'a> = (&'a str, Box<dyn FnMut() + 'a>);

fn fastest(f: &mut dyn FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs a group (the first case is the floor) and prints each case's median time and ratio.
fn group(name: &str, cases: &mut [Case<'_>]) {
    let mut times = vec![Vec::new(); cases.len()];
    for _ in 0..ROUNDS {
        for (k, (_, f)) in cases.iter_mut().enumerate() {
            times[k].push(fastest(f.as_mut()).as_secs_f64());
        }
    }
    println!("\n{name}");
    for (k, (case, _)) in cases.iter().enumerate() {
        let ratios: Vec<f64> = (0..ROUNDS).map(|r| times[k][r] / times[0][r]).collect();
        println!(
            "  {case:<58} {:>9.3} ms  {:>6.2}x",
            median(times[k].clone()) * 1e3,
            median(ratios)
        );
    }
}

fn idiom(text: &StringArray) -> Option<FixedSizeBinaryArray> {
    let mut b = FixedSizeBinaryBuilder::with_capacity(text.len(), 12);
    for row in text {
        match row {
            None => b.append_null(),
            Some(s) => b
                .append_value(const_hex::decode_to_array::<_, 12>(s).ok()?)
                .ok()?,
        }
    }
    Some(b.finish())
}

fn memcpy(bytes: usize) -> impl FnMut() {
    let src = vec![0x5au8; bytes];
    let mut dst = vec![0u8; bytes];
    move || {
        dst.copy_from_slice(black_box(&src));
        black_box(&mut dst);
    }
}

fn main() {
    let ids: ObjectIdArray = (0..ROWS as u32)
        .map(|i| ObjectId::from_parts(1_700_000_000 + i / 1000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], i))
        .collect();
    let Ok(text) = compute::to_hex(&ids) else {
        return;
    };
    let times = compute::timestamp(&ids);
    group(
        "hex -> ids, 1 M Utf8 rows (floor: memcpy of the 24 MB of text)",
        &mut [
            (
                "floor: memcpy 24,000,000 bytes",
                Box::new(memcpy(ROWS * 24)),
            ),
            (
                "idiom: const-hex per row + FixedSizeBinaryBuilder",
                Box::new(|| {
                    black_box(idiom(black_box(&text)));
                }),
            ),
            (
                "parse_hex, OnInvalid::Error",
                Box::new(|| {
                    let _ = black_box(compute::parse_hex(black_box(&text), OnInvalid::Error));
                }),
            ),
            (
                "parse_hex, OnInvalid::Null",
                Box::new(|| {
                    let _ = black_box(compute::parse_hex(black_box(&text), OnInvalid::Null));
                }),
            ),
            (
                "reference: the same into a fresh zeroed buffer (one allocation)",
                Box::new(|| {
                    let mut out = vec![0u8; ROWS * 12];
                    for (h, o) in text.value_data().chunks(6144).zip(out.chunks_mut(3072)) {
                        black_box(const_hex::decode_to_slice(h, o).is_ok());
                    }
                    black_box(out);
                }),
            ),
            (
                "reference: const-hex decode into a reused buffer, no allocation",
                Box::new({
                    let mut out = vec![0u8; ROWS * 12];
                    let text = &text;
                    move || {
                        for (h, o) in text.value_data().chunks(6144).zip(out.chunks_mut(3072)) {
                            black_box(const_hex::decode_to_slice(h, o).is_ok());
                        }
                        black_box(&mut out);
                    }
                }),
            ),
        ],
    );
    group(
        "ids -> hex, 1 M rows (floor: memcpy of the output, 24 MB text + 4 MB offsets)",
        &mut [
            (
                "floor: memcpy 28,000,000 bytes",
                Box::new(memcpy(ROWS * 28)),
            ),
            (
                "to_hex (Utf8)",
                Box::new(|| {
                    let _ = black_box(compute::to_hex(black_box(&ids)));
                }),
            ),
        ],
    );
    group(
        "ids -> hex view, 1 M rows (floor: memcpy of the output, 16 MB views + 24 MB text)",
        &mut [
            (
                "floor: memcpy 40,000,000 bytes",
                Box::new(memcpy(ROWS * 40)),
            ),
            (
                "to_hex_view (Utf8View)",
                Box::new(|| {
                    let _ = black_box(compute::to_hex_view(black_box(&ids)));
                }),
            ),
        ],
    );
    group(
        "ids -> creation time, 1 M rows (floor: memcpy of the 8 MB output)",
        &mut [
            ("floor: memcpy 8,000,000 bytes", Box::new(memcpy(ROWS * 8))),
            (
                "timestamp",
                Box::new(|| {
                    black_box(compute::timestamp(black_box(&ids)));
                }),
            ),
        ],
    );
    group(
        "times -> ids, 1 M rows (floor: memcpy of the 12 MB output)",
        &mut [
            (
                "floor: memcpy 12,000,000 bytes",
                Box::new(memcpy(ROWS * 12)),
            ),
            (
                "min_for_timestamp",
                Box::new(|| {
                    let _ = black_box(compute::min_for_timestamp(
                        black_box(&times),
                        OnInvalid::Error,
                    ));
                }),
            ),
        ],
    );
}
