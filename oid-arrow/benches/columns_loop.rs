//! The column kernels against their floors and the arrow-rs idiom, interleaved: each case of a
//! group runs in turn, round after round, so load changes on a shared machine hit them alike
//! (criterion's cases run seconds apart), in a new order each round. Per case and round the
//! fastest of 3 calls; printed:
//! the median over the rounds, the median of the per-round ratios to the group's floor and, in
//! the parse groups, the median of the per-round speed-ups over the const-hex idiom / over the
//! faster of the idioms in that round.
//!
//! The idiom is what an arrow-rs user writes today: decode each row with a hex crate into a
//! `FixedSizeBinaryBuilder`, a null for a null row. It runs with const-hex (the faster of the
//! two here) and with faster-hex; before timing, the bench checks that it and `parse_hex` give
//! the same values and nulls.
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
const ROUNDS: usize = 31;

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

/// Runs a group (the first case is the floor) and prints each case's median time and ratio;
/// with `idioms` (case indices), also each later case's speed-up over the first idiom and over
/// the faster idiom of each round.
fn group(name: &str, idioms: &[usize], cases: &mut [Case<'_>]) {
    let mut times = vec![Vec::new(); cases.len()];
    let mut order: Vec<usize> = (0..cases.len()).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..ROUNDS {
        // A new order each round (Fisher-Yates on a xorshift), so no case always runs right
        // after the same one: the case after the slow idiom ran up to 25% slower, whichever
        // it was.
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        for &k in &order {
            times[k].push(fastest(cases[k].1.as_mut()).as_secs_f64());
        }
    }
    println!("\n{name}");
    if !idioms.is_empty() {
        println!(
            "  {:<58} {:>12}  {:>7}  speed-up over the const-hex idiom / the faster idiom",
            "", "median", "/floor"
        );
    }
    for (k, (case, _)) in cases.iter().enumerate() {
        let ratios: Vec<f64> = (0..ROUNDS).map(|r| times[k][r] / times[0][r]).collect();
        let speed_up = match idioms {
            [first, ..] if k > idioms.iter().copied().max().unwrap_or(0) => {
                let over = |idiom: &dyn Fn(usize) -> f64| {
                    median((0..ROUNDS).map(|r| idiom(r) / times[k][r]).collect())
                };
                let faster =
                    |r: usize| idioms.iter().map(|&p| times[p][r]).fold(f64::MAX, f64::min);
                format!(
                    "  {:>5.2}x / {:>5.2}x",
                    over(&|r| times[*first][r]),
                    over(&faster)
                )
            }
            _ => String::new(),
        };
        println!(
            "  {case:<58} {:>9.3} ms  {:>6.2}x{speed_up}",
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

fn idiom_faster_hex(text: &StringArray) -> Option<FixedSizeBinaryArray> {
    let mut b = FixedSizeBinaryBuilder::with_capacity(text.len(), 12);
    for row in text {
        match row {
            None => b.append_null(),
            Some(s) => {
                let mut id = [0; 12];
                faster_hex::hex_decode(s.as_bytes(), &mut id).ok()?;
                b.append_value(id).ok()?;
            }
        }
    }
    Some(b.finish())
}

/// Whether the idioms and `parse_hex` (both modes) give the same values and nulls.
fn same_output(text: &StringArray) -> bool {
    let strict = compute::parse_hex(text, OnInvalid::Error).map(ObjectIdArray::into_inner);
    let lenient = compute::parse_hex(text, OnInvalid::Null).map(ObjectIdArray::into_inner);
    let (Some(a), Some(b), Ok(c), Ok(d)) = (idiom(text), idiom_faster_hex(text), strict, lenient)
    else {
        return false;
    };
    // Null slots hold zeros in all of them; compare them too, and the null buffers.
    [&b, &c, &d]
        .iter()
        .all(|x| **x == a && x.value_data() == a.value_data() && x.nulls() == a.nulls())
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
    // As pyarrow writes nulls: an empty row under a null bit, every 10th row.
    let with_nulls: StringArray = text
        .iter()
        .enumerate()
        .map(|(i, s)| if i % 10 == 0 { None } else { s })
        .collect();
    if !(same_output(&text) && same_output(&with_nulls)) {
        eprintln!("the idiom and parse_hex disagree: not timing them");
        std::process::exit(1);
    }
    println!("checked: the idioms and parse_hex give the same values and nulls");
    // One row that is not hex, near the end: only its block is parsed again.
    let one_bad: StringArray = text
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if i == ROWS - 10 {
                Some("not an id, 24 bytes long")
            } else {
                s
            }
        })
        .collect();
    let times = compute::timestamp(&ids);
    group(
        "hex -> ids, 1 M Utf8 rows (floor: memcpy of the 24 MB of text)",
        &[1, 2],
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
                "idiom with faster-hex per row",
                Box::new(|| {
                    black_box(idiom_faster_hex(black_box(&text)));
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
        "hex -> ids, 1 M Utf8 rows, every 10th null (an empty row) (floor: memcpy of the 21.6 MB of text)",
        &[1],
        &mut [
            (
                "floor: memcpy 21,600,000 bytes",
                Box::new(memcpy(with_nulls.value_data().len())),
            ),
            (
                "idiom: const-hex per row + FixedSizeBinaryBuilder",
                Box::new(|| {
                    black_box(idiom(black_box(&with_nulls)));
                }),
            ),
            (
                "parse_hex, OnInvalid::Error",
                Box::new(|| {
                    let _ = black_box(compute::parse_hex(black_box(&with_nulls), OnInvalid::Error));
                }),
            ),
        ],
    );
    group(
        "hex -> ids, lenient, 1 M Utf8 rows, one not hex near the end (floor: memcpy of the text)",
        &[],
        &mut [
            (
                "floor: memcpy 24,000,000 bytes",
                Box::new(memcpy(ROWS * 24)),
            ),
            (
                "parse_hex, OnInvalid::Null, every row hex",
                Box::new(|| {
                    let _ = black_box(compute::parse_hex(black_box(&text), OnInvalid::Null));
                }),
            ),
            (
                "parse_hex, OnInvalid::Null, one row not hex",
                Box::new(|| {
                    let _ = black_box(compute::parse_hex(black_box(&one_bad), OnInvalid::Null));
                }),
            ),
        ],
    );
    group(
        "ids -> hex, 1 M rows (floor: memcpy of the output, 24 MB text + 4 MB offsets)",
        &[],
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
        &[],
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
        &[],
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
        &[],
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
