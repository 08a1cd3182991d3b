//! Parsing and formatting: ours against the floors (`src/lib.rs`), the hex crates people reach
//! for (`const-hex`, `faster-hex`), the `bson` crate and, as a yardstick per call, `uuid`'s
//! `Uuid::parse_str` of a 32-digit simple uuid, all in the same run.
//!
//! Every case, floors included, is timed through [`timed`], a loop that passes each result to
//! `std::hint::black_box`, rather than criterion's `iter`: criterion 0.5's `iter` copies each
//! result with a volatile read, whose cost depends on the result's size (24 bytes for
//! `Result<ObjectId, ParseError>`, 13 for the floor's `Option<[u8; 12]>`).
//!
//! `cargo bench -p oid-benches --bench hex -- --warm-up-time 1 --measurement-time 3 --noplot`

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use oid_benches::{
    floor_decode, floor_encode, floor_to_string, safe_to_string, swar_decode, table_decode,
    table_encode,
};
use oid_core::ObjectId;
use serde::Deserialize as _;

const HEX: &str = "507f1f77bcf86cd799439011";
/// A uuid in its simple form: 32 hex digits (16 bytes), the input `Uuid::parse_str` is fastest on.
const UUID: &str = "67e5504410b1426f9247bb680e5fe0c8";

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
    g.bench_function("floor: arithmetic validated decode", |b| {
        b.iter_custom(|iters| timed(iters, || floor_decode(black_box(HEX))))
    });
    g.bench_function("oid_core::ObjectId::parse_str", |b| {
        b.iter_custom(|iters| timed(iters, || ObjectId::parse_str(black_box(HEX))))
    });
    // Right after the floor and parse_str, so the three run close together in time. Not the same
    // input: 32 hex digits into 16 bytes. The best safe parser we know, as a yardstick per call
    // (ours reads 24 digits into 12 bytes).
    g.bench_function("uuid::Uuid::parse_str (32 digits, simple)", |b| {
        b.iter_custom(|iters| timed(iters, || uuid::Uuid::parse_str(black_box(UUID))))
    });
    g.bench_function("candidate: SWAR validated decode (u64 lanes)", |b| {
        b.iter_custom(|iters| timed(iters, || swar_decode(black_box(HEX))))
    });
    g.bench_function("reference: table validated decode", |b| {
        b.iter_custom(|iters| timed(iters, || table_decode(black_box(HEX))))
    });
    g.bench_function("oid_core::ObjectId FromStr", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(HEX).parse::<ObjectId>()))
    });
    g.bench_function("oid_core::ObjectId TryFrom<&str>", |b| {
        b.iter_custom(|iters| timed(iters, || ObjectId::try_from(black_box(HEX))))
    });
    g.bench_function("oid_core::ObjectId::is_valid", |b| {
        b.iter_custom(|iters| timed(iters, || ObjectId::is_valid(black_box(HEX))))
    });
    g.bench_function(
        "oid_core::ObjectId serde visitor (visit_borrowed_str)",
        |b| {
            b.iter_custom(|iters| {
                timed(iters, || {
                    let d =
                        serde::de::value::BorrowedStrDeserializer::<serde::de::value::Error>::new(
                            black_box(HEX),
                        );
                    ObjectId::deserialize(d)
                })
            })
        },
    );
    g.bench_function("const_hex::decode_to_array::<12>", |b| {
        b.iter_custom(|iters| {
            timed(iters, || {
                const_hex::decode_to_array::<_, 12>(black_box(HEX))
            })
        })
    });
    g.bench_function("faster_hex::hex_decode (validating)", |b| {
        b.iter_custom(|iters| {
            timed(iters, || {
                let mut out = [0u8; 12];
                faster_hex::hex_decode(black_box(HEX).as_bytes(), &mut out).map(|()| out)
            })
        })
    });
    g.bench_function("bson::oid::ObjectId::parse_str", |b| {
        b.iter_custom(|iters| timed(iters, || bson::oid::ObjectId::parse_str(black_box(HEX))))
    });
    g.finish();
}

fn encode(c: &mut Criterion) {
    let ours = ObjectId::parse_str(HEX).unwrap_or_default();
    let bytes = ours.bytes();
    let mut g = c.benchmark_group("encode");
    g.bench_function("floor: arithmetic encode (stack)", |b| {
        b.iter_custom(|iters| timed(iters, || floor_encode(black_box(&bytes))))
    });
    g.bench_function("reference: table encode (stack)", |b| {
        b.iter_custom(|iters| timed(iters, || table_encode(black_box(&bytes))))
    });
    g.bench_function("oid_core::ObjectId::to_hex (stack)", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(&ours).to_hex()))
    });
    g.bench_function("oid_core::ObjectId::encode_hex (&str)", |b| {
        let mut buf = [0u8; 24];
        b.iter_custom(|iters| timed(iters, || black_box(&ours).encode_hex(&mut buf).len()))
    });
    g.bench_function("const_hex::encode_to_slice", |b| {
        let mut buf = [0u8; 24];
        b.iter_custom(|iters| {
            timed(iters, || {
                const_hex::encode_to_slice(black_box(&bytes), &mut buf).map(|()| buf[23])
            })
        })
    });
    g.bench_function("faster_hex::hex_encode (&str)", |b| {
        let mut buf = [0u8; 24];
        b.iter_custom(|iters| {
            timed(iters, || {
                faster_hex::hex_encode(black_box(&bytes), &mut buf).map(|s| s.len())
            })
        })
    });
    g.finish();
}

fn to_string(c: &mut Criterion) {
    let ours = ObjectId::parse_str(HEX).unwrap_or_default();
    let bytes = ours.bytes();
    let theirs = bson::oid::ObjectId::from_bytes(bytes);
    let mut g = c.benchmark_group("to_string");
    g.bench_function("floor: encode + one String, no UTF-8 check", |b| {
        b.iter_custom(|iters| timed(iters, || floor_to_string(black_box(&ours))))
    });
    g.bench_function("reference: encode + one String, UTF-8 checked", |b| {
        b.iter_custom(|iters| timed(iters, || safe_to_string(black_box(&ours))))
    });
    g.bench_function("oid_core::ObjectId::to_string", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(&ours).to_string()))
    });
    g.bench_function("const_hex::encode", |b| {
        b.iter_custom(|iters| timed(iters, || const_hex::encode(black_box(&bytes))))
    });
    g.bench_function("faster_hex::hex_string", |b| {
        b.iter_custom(|iters| timed(iters, || faster_hex::hex_string(black_box(&bytes))))
    });
    g.bench_function("bson::oid::ObjectId::to_hex", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(&theirs).to_hex()))
    });
    g.bench_function("bson::oid::ObjectId::to_string", |b| {
        b.iter_custom(|iters| timed(iters, || black_box(&theirs).to_string()))
    });
    // Into a String that is reused: no allocation, so what is left is the formatting.
    let mut s = String::with_capacity(64);
    g.bench_function("reused String: push_str(to_hex())", |b| {
        b.iter_custom(|iters| {
            timed(iters, || {
                s.clear();
                s.push_str(&black_box(&ours).to_hex());
                s.len()
            })
        })
    });
    let mut s = String::with_capacity(64);
    g.bench_function("reused String: write!(\"{id}\") (Display)", |b| {
        b.iter_custom(|iters| {
            timed(iters, || {
                s.clear();
                let _ = write!(s, "{}", black_box(&ours));
                s.len()
            })
        })
    });
    g.finish();
}

criterion_group!(benches, parse, encode, to_string);
criterion_main!(benches);
