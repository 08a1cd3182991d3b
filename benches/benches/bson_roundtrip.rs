//! A model with ids to BSON bytes: `oid_bson::ObjectId` (no attribute) against the same model with
//! `bson::oid::ObjectId`, and `oid_core::ObjectId` with the `oid_bson::object_id` helpers, in one
//! run. `serialize` is the criterion (what the driver does on insert); `roundtrip` adds
//! reading the bytes back.
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

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct CoreUser {
    #[serde(rename = "_id", with = "oid_bson::object_id")]
    id: oid_core::ObjectId,
    name: String,
    age: i32,
    #[serde(with = "oid_bson::object_id::option")]
    manager: Option<oid_core::ObjectId>,
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
    let core = CoreUser {
        id: ID.as_core(),
        name: ours.name.clone(),
        age: ours.age,
        manager: Some(MANAGER.as_core()),
    };
    // Same bytes, so every side does the same work in BSON terms.
    let bytes = bson::serialize_to_vec(&theirs).unwrap();
    assert_eq!(bson::serialize_to_vec(&ours).unwrap(), bytes);
    assert_eq!(bson::serialize_to_vec(&core).unwrap(), bytes);

    let mut group = c.benchmark_group("bson_serialize/user");
    group.bench_function("oid_bson::ObjectId", |b| {
        b.iter(|| serialize(black_box(&ours), &mut buf))
    });
    group.bench_function("bson::oid::ObjectId", |b| {
        b.iter(|| serialize(black_box(&theirs), &mut buf))
    });
    group.bench_function("oid_core+helper", |b| {
        b.iter(|| serialize(black_box(&core), &mut buf))
    });
    group.finish();

    let mut group = c.benchmark_group("bson_roundtrip/user");
    group.bench_function("oid_bson::ObjectId", |b| {
        b.iter(|| round_trip(black_box(&ours), &mut buf))
    });
    group.bench_function("bson::oid::ObjectId", |b| {
        b.iter(|| round_trip(black_box(&theirs), &mut buf))
    });
    group.bench_function("oid_core+helper", |b| {
        b.iter(|| round_trip(black_box(&core), &mut buf))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
