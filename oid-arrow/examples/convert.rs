//! Converts a column of hex text into ids and reports the process's peak memory against the
//! input and output sizes (Linux: `VmHWM` of `/proc/self/status`).
//!
//! `cargo run --release -p oid-arrow --example convert -- 10000000`
//! (or under `/usr/bin/time -v` for the same peak from outside).

use std::error::Error;
use std::time::Instant;

use arrow_array::{Array, StringArray};
use arrow_buffer::{MutableBuffer, OffsetBuffer, ScalarBuffer};
use oid_arrow::compute::{OnInvalid, parse_hex};
use oid_core::ObjectId;

/// The peak resident set size in bytes, where the system tells it.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() -> Result<(), Box<dyn Error>> {
    let rows: usize = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 10_000_000,
    };
    // The input, written in place: rows of 24 hex digits, as a Utf8 column.
    let mut text = MutableBuffer::with_capacity(rows * 24);
    for i in 0..rows {
        let id = ObjectId::from_parts(1_700_000_000 + (i / 1000) as u32, [7, 1, 2, 3, 4], i as u32);
        text.extend_from_slice(id.to_hex().as_bytes());
    }
    let offsets: ScalarBuffer<i32> = (0..=rows).map(|i| (i * 24) as i32).collect();
    let input = StringArray::try_new(OffsetBuffer::new(offsets), text.into(), None)?;
    let input_bytes = input.get_buffer_memory_size() as u64;
    let before = peak_rss().unwrap_or(0);

    let started = Instant::now();
    let ids = parse_hex(&input, OnInvalid::Error)?;
    let took = started.elapsed();
    let output_bytes = ids.as_inner().get_buffer_memory_size() as u64;
    let after = peak_rss().unwrap_or(0);

    println!("rows: {rows}, converted in {took:.2?}");
    println!("input (Utf8 values + offsets): {:.1} MiB", mib(input_bytes));
    println!("output (12-byte ids): {:.1} MiB", mib(output_bytes));
    println!("peak RSS before the conversion: {:.1} MiB", mib(before));
    println!("peak RSS after the conversion: {:.1} MiB", mib(after));
    if after > 0 {
        let allowed = (input_bytes + output_bytes) as f64 * 1.10;
        println!(
            "peak / (input + output): {:.3} (goal <= 1.10: {})",
            after as f64 / (input_bytes + output_bytes) as f64,
            if (after as f64) <= allowed {
                "met"
            } else {
                "NOT met"
            }
        );
    }
    assert_eq!(ids.len(), rows);
    Ok(())
}
