//! A model with ids to BSON bytes and to a `Document`: `oid_bson::ObjectId` (no attribute) against
//! the same model with `bson::oid::ObjectId`, in one run. `bson_serialize` (bytes, what the driver
//! does on insert) and `bson_to_document` (what `$set: to_document(&patch)` does) are the
//! criterion: ours must cost no more than bson's; `bson_roundtrip` adds reading the bytes back.
//!
//! `cargo bench -p oid-benches --bench bson_roundtrip -- --warm-up-time 1 --measurement-time 3`

#![allow(missing_docs)] // criterion_group! generates undocumented items
#![allow(
    clippy::unwrap_used,
    reason = "a broken bench setup should stop the bench"
)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};

const ID: oid_bson::ObjectId = oid_bson::oid!("6553f1003f2a91c8d4003039");
const MANAGER: oid_bson::ObjectId = oid_bson::oid!("507f1f77bcf86cd799439011");

/// A small, typical document: an `_id`, two plain fields and an optional reference.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct User<Id> {
    #[serde(rename = "_id")]
    id: Id,
    name: String,
    age: i32,
    manager: Option<Id>,
}

fn user<Id: From<oid_bson::ObjectId>>() -> User<Id> {
    User {
        id: ID.into(),
        name: "ada lovelace".into(),
        age: 36,
        manager: Some(MANAGER.into()),
    }
}

fn serialize<T: Serialize>(value: &T, buf: &mut Vec<u8>) {
    buf.clear();
    bson::serialize_to_buffer(value, buf).unwrap();
}

/// Serializes `value` into a reused buffer and deserializes it back.
fn round_trip<T: Serialize + for<'de> Deserialize<'de>>(value: &T, buf: &mut Vec<u8>) -> T {
    serialize(value, buf);
    bson::deserialize_from_slice(buf).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut buf = Vec::with_capacity(128);
    let ours: User<oid_bson::ObjectId> = user();
    let theirs: User<bson::oid::ObjectId> = user();
    // Same bytes, so every side does the same work in BSON terms.
    let bytes = bson::serialize_to_vec(&theirs).unwrap();
    assert_eq!(bson::serialize_to_vec(&ours).unwrap(), bytes);
    assert_eq!(
        bson::serialize_to_document(&ours).unwrap(),
        bson::serialize_to_document(&theirs).unwrap()
    );

    let mut group = c.benchmark_group("bson_serialize/user");
    group.bench_function("oid_bson::ObjectId", |b| {
        b.iter(|| serialize(black_box(&ours), &mut buf))
    });
    group.bench_function("bson::oid::ObjectId", |b| {
        b.iter(|| serialize(black_box(&theirs), &mut buf))
    });
    group.finish();

    let mut group = c.benchmark_group("bson_to_document/user");
    group.bench_function("oid_bson::ObjectId", |b| {
        b.iter(|| bson::serialize_to_document(black_box(&ours)).unwrap())
    });
    group.bench_function("bson::oid::ObjectId", |b| {
        b.iter(|| bson::serialize_to_document(black_box(&theirs)).unwrap())
    });
    group.finish();

    let mut group = c.benchmark_group("bson_roundtrip/user");
    group.bench_function("oid_bson::ObjectId", |b| {
        b.iter(|| round_trip(black_box(&ours), &mut buf))
    });
    group.bench_function("bson::oid::ObjectId", |b| {
        b.iter(|| round_trip(black_box(&theirs), &mut buf))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
