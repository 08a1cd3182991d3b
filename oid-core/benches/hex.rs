//! Parsing and formatting, ours against the `bson` crate in the same run.
//!
//! `cargo bench -p oid-core --bench hex`

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

const HEX: &str = "507f1f77bcf86cd799439011";

/// Hex digit values for the floor, `0xf0` for every other byte.
static FLOOR_TABLE: [u8; 256] = {
    let mut t = [0xf0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => 0xf0,
        };
        i += 1;
    }
    t
};

/// The floor for parsing: a validated, branch-free decode of 24 hex digits written for this
/// benchmark alone (a table lookup per digit, validity collected and checked once), returning
/// plain bytes: no error value, no diagnostics, no `ObjectId`.
fn floor_decode(s: &str) -> Option<[u8; 12]> {
    let b: &[u8; 24] = s.as_bytes().try_into().ok()?;
    let mut out = [0u8; 12];
    let mut seen = 0u8;
    for (o, pair) in out.iter_mut().zip(b.chunks_exact(2)) {
        let (hi, lo) = (FLOOR_TABLE[pair[0] as usize], FLOOR_TABLE[pair[1] as usize]);
        seen |= hi | lo;
        *o = (hi << 4) | (lo & 0x0f);
    }
    (seen & 0xf0 == 0).then_some(out)
}

fn parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse");
    g.bench_function("floor: branch-free decode of 24 digits", |b| {
        b.iter(|| floor_decode(black_box(HEX)))
    });
    g.bench_function("oid_core::ObjectId::parse_str", |b| {
        b.iter(|| oid_core::ObjectId::parse_str(black_box(HEX)))
    });
    g.bench_function("bson::oid::ObjectId::parse_str", |b| {
        b.iter(|| bson::oid::ObjectId::parse_str(black_box(HEX)))
    });
    g.finish();
}

fn encode(c: &mut Criterion) {
    let ours = oid_core::ObjectId::parse_str(HEX).unwrap_or_default();
    let theirs = bson::oid::ObjectId::from_bytes(ours.bytes());
    let mut g = c.benchmark_group("encode");
    g.bench_function("oid_core::ObjectId::to_hex (stack)", |b| {
        b.iter(|| black_box(black_box(&ours).to_hex()))
    });
    g.bench_function("oid_core::ObjectId::encode_hex (&str)", |b| {
        let mut buf = [0u8; 24];
        b.iter(|| black_box(black_box(&ours).encode_hex(&mut buf).len()))
    });
    g.bench_function("floor: to_hex + one String allocation", |b| {
        b.iter(|| black_box(String::from(black_box(&ours).to_hex().as_str())))
    });
    g.bench_function("oid_core::ObjectId::to_string", |b| {
        b.iter(|| black_box(black_box(&ours).to_string()))
    });
    g.bench_function("bson::oid::ObjectId::to_hex", |b| {
        b.iter(|| black_box(black_box(&theirs).to_hex()))
    });
    g.bench_function("bson::oid::ObjectId::to_string", |b| {
        b.iter(|| black_box(black_box(&theirs).to_string()))
    });
    g.finish();
}

criterion_group!(benches, parse, encode);
criterion_main!(benches);
