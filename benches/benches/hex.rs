//! Parsing and formatting, ours against the `bson` crate and the floors in the same run.
//!
//! Every case, floors included, is timed through [`timed`], a loop that passes each result to
//! `std::hint::black_box`, rather than criterion's `iter`: criterion 0.5's `iter` copies each
//! result with a volatile read, whose cost depends on the result's size (24 bytes for
//! `Result<ObjectId, ParseError>`, 13 for the floor's `Option<[u8; 12]>`).
//!
//! `cargo bench -p oid-benches --bench hex -- --warm-up-time 1 --measurement-time 3`

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use oid_benches::{floor_decode, floor_to_string};

const HEX: &str = "507f1f77bcf86cd799439011";

/// `iters` calls of `f`, each result passed to `std::hint::black_box`; the time they took.
fn timed<R>(iters: u64, mut f: impl FnMut() -> R) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        black_box(f());
    }
    start.elapsed()
}

fn parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse");
    g.bench_function("floor: branch-free decode of 24 digits", |b| {
        b.iter_custom(|iters| timed(iters, || floor_decode(black_box(HEX))))
    });
    g.bench_function("oid_core::ObjectId::parse_str", |b| {
        b.iter_custom(|iters| timed(iters, || oid_core::ObjectId::parse_str(black_box(HEX))))
    });
    g.bench_function("bson::oid::ObjectId::parse_str", |b| {
        b.iter_custom(|iters| timed(iters, || bson::oid::ObjectId::parse_str(black_box(HEX))))
    });
    g.finish();
}

fn encode(c: &mut Criterion) {
    let ours = oid_core::ObjectId::parse_str(HEX).unwrap_or_default();
    let theirs = bson::oid::ObjectId::from_bytes(ours.bytes());
    let mut g = c.benchmark_group("encode");
    g.bench_function("oid_core::ObjectId::to_hex (stack)", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(black_box(&ours).to_hex())))
    });
    g.bench_function("oid_core::ObjectId::encode_hex (&str)", |b| {
        let mut buf = [0u8; 24];
        b.iter_custom(|iters| {
            timed(iters, || {
                black_box(black_box(&ours).encode_hex(&mut buf).len())
            })
        })
    });
    g.bench_function("floor: to_hex + one String allocation", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(floor_to_string(black_box(&ours)))))
    });
    g.bench_function("oid_core::ObjectId::to_string", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(black_box(&ours).to_string())))
    });
    g.bench_function("bson::oid::ObjectId::to_hex", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(black_box(&theirs).to_hex())))
    });
    g.bench_function("bson::oid::ObjectId::to_string", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(black_box(&theirs).to_string())))
    });
    g.finish();
}

criterion_group!(benches, parse, encode);
criterion_main!(benches);
