//! Serialize + deserialize a struct with an `_id` to BSON bytes: `oid_core::ObjectId` with the
//! `oid_bson::object_id` helper against the same struct with `bson::oid::ObjectId`, in one run.

//!
//! `cargo bench -p oid-bson --bench roundtrip`

#![allow(missing_docs)] // criterion_group! generates undocumented items
#![allow(
    clippy::unwrap_used,
    reason = "a broken bench setup should stop the bench"
)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oid_bson::ToBson;
use oid_core::{ObjectId, oid};
use serde::{Deserialize, Serialize};

const ID: ObjectId = oid!("6553f1003f2a91c8d4003039");

/// Only the id: the id's own cost dominates.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct OursIdOnly {
    #[serde(rename = "_id", with = "oid_bson::object_id")]
    id: ObjectId,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct TheirsIdOnly {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
}

/// A small, typical document.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct OursUser {
    #[serde(rename = "_id", with = "oid_bson::object_id")]
    id: ObjectId,
    name: String,
    age: i32,
    #[serde(with = "oid_bson::object_id::option")]
    manager: Option<ObjectId>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct TheirsUser {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
    name: String,
    age: i32,
    manager: Option<bson::oid::ObjectId>,
}

/// Serializes `value` into a reused buffer and deserializes it back.
fn round_trip<T: Serialize + for<'de> Deserialize<'de>>(value: &T, buf: &mut Vec<u8>) -> T {
    buf.clear();
    bson::serialize_to_buffer(value, buf).unwrap();
    bson::deserialize_from_slice(buf).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut buf = Vec::with_capacity(128);

    let ours = OursIdOnly { id: ID };
    let theirs = TheirsIdOnly { id: ID.to_bson() };
    // Same bytes, so the two sides do the same work in BSON terms.
    assert_eq!(
        bson::serialize_to_vec(&ours).unwrap(),
        bson::serialize_to_vec(&theirs).unwrap()
    );
    let mut group = c.benchmark_group("bson_roundtrip/id_only");
    group.bench_function("oid_core+helper", |b| {
        b.iter(|| round_trip(black_box(&ours), &mut buf))
    });
    group.bench_function("bson::oid::ObjectId", |b| {
        b.iter(|| round_trip(black_box(&theirs), &mut buf))
    });
    group.finish();

    let ours = OursUser {
        id: ID,
        name: "ada lovelace".into(),
        age: 36,
        manager: Some(oid!("507f1f77bcf86cd799439011")),
    };
    let theirs = TheirsUser {
        id: ours.id.to_bson(),
        name: ours.name.clone(),
        age: ours.age,
        manager: ours.manager.map(|m| m.to_bson()),
    };
    assert_eq!(
        bson::serialize_to_vec(&ours).unwrap(),
        bson::serialize_to_vec(&theirs).unwrap()
    );
    let mut group = c.benchmark_group("bson_roundtrip/user");
    group.bench_function("oid_core+helper", |b| {
        b.iter(|| round_trip(black_box(&ours), &mut buf))
    });
    group.bench_function("bson::oid::ObjectId", |b| {
        b.iter(|| round_trip(black_box(&theirs), &mut buf))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
