//! `oid_bson::ObjectId` through bson 2 (feature `bson-2`, the `mongodb` 3.x driver's default):
//! native ObjectId elements at any depth, `Document` round trips, cross-reads with
//! `bson2::oid::ObjectId` models, buffered shapes, conversions, time and filters.

#![cfg(feature = "bson-2")]
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use std::collections::BTreeMap;

use bson2::{Bson, RawBsonRef, RawDocument, doc, rawdoc, spec::ElementType};
use oid_bson::{BsonDateTime, BsonExt, DocumentExt, ObjectId, oid};
use serde::{Deserialize, Serialize};

const A: ObjectId = oid!("56e1fc72e0c917e9c4714161");
const B: ObjectId = oid!("507f1f77bcf86cd799439011");
const C: ObjectId = oid!("6553f1003f2a91c8d4003039");

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Inner {
    owner: ObjectId,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(untagged)]
enum Untagged {
    Bare(ObjectId),
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(tag = "kind")]
enum Tagged {
    Created { id: ObjectId },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Model {
    #[serde(rename = "_id")]
    id: ObjectId,
    parent: Option<ObjectId>,
    tags: Option<Vec<ObjectId>>,
    map: BTreeMap<String, ObjectId>,
    inner: Inner,
    untagged: Untagged,
    tagged: Tagged,
    #[serde(flatten)]
    flat: Inner2,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Inner2 {
    flat_owner: ObjectId,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Theirs {
    #[serde(rename = "_id")]
    id: bson2::oid::ObjectId,
    parent: Option<bson2::oid::ObjectId>,
    tags: Option<Vec<bson2::oid::ObjectId>>,
    map: BTreeMap<String, bson2::oid::ObjectId>,
    inner: TheirInner,
    untagged: bson2::oid::ObjectId,
    tagged: TheirTagged,
    flat_owner: bson2::oid::ObjectId,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct TheirInner {
    owner: bson2::oid::ObjectId,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(tag = "kind")]
enum TheirTagged {
    Created { id: bson2::oid::ObjectId },
}

fn model() -> Model {
    Model {
        id: A,
        parent: Some(B),
        tags: Some(vec![B, C]),
        map: BTreeMap::from([("k".to_owned(), C)]),
        inner: Inner { owner: A },
        untagged: Untagged::Bare(B),
        tagged: Tagged::Created { id: C },
        flat: Inner2 { flat_owner: A },
    }
}

fn theirs() -> Theirs {
    Theirs {
        id: A.into(),
        parent: Some(B.into()),
        tags: Some(vec![B.into(), C.into()]),
        map: BTreeMap::from([("k".to_owned(), C.into())]),
        inner: TheirInner { owner: A.into() },
        untagged: B.into(),
        tagged: TheirTagged::Created { id: C.into() },
        flat_owner: A.into(),
    }
}

fn element<'a>(doc: &'a RawDocument, path: &[&str]) -> RawBsonRef<'a> {
    let mut value = doc.get(path[0]).unwrap().unwrap();
    for key in &path[1..] {
        value = match value {
            RawBsonRef::Document(d) => d.get(key).unwrap().unwrap(),
            RawBsonRef::Array(a) => a.get(key.parse().unwrap()).unwrap().unwrap(),
            other => panic!("{other:?} at {key}"),
        };
    }
    value
}

const PATHS: &[(&[&str], ObjectId)] = &[
    (&["_id"], A),
    (&["parent"], B),
    (&["tags", "0"], B),
    (&["tags", "1"], C),
    (&["map", "k"], C),
    (&["inner", "owner"], A),
    (&["untagged"], B),
    (&["tagged", "id"], C),
    (&["flat_owner"], A),
];

fn check_raw(doc: &RawDocument) {
    for (path, id) in PATHS {
        let value = element(doc, path);
        assert_eq!(value.element_type(), ElementType::ObjectId, "{path:?}");
        assert_eq!(ObjectId::try_from(value), Ok(*id), "{path:?}");
    }
}

#[test]
fn to_vec_writes_object_id_elements_identical_to_bson2s_type() {
    let m = model();
    let bytes = bson2::to_vec(&m).unwrap();
    assert_eq!(bytes, bson2::to_vec(&theirs()).unwrap());
    check_raw(RawDocument::from_bytes(&bytes).unwrap());
    assert_eq!(bson2::from_slice::<Model>(&bytes).unwrap(), m);
    let raw = bson2::to_raw_document_buf(&m).unwrap();
    check_raw(&raw);
}

#[test]
fn to_document_is_native_and_round_trips() {
    let m = model();
    let doc = bson2::to_document(&m).unwrap();
    assert_eq!(doc, bson2::to_document(&theirs()).unwrap());
    assert!(matches!(doc.get("_id"), Some(Bson::ObjectId(_))));
    assert_eq!(doc.get_oid("_id"), Ok(A));
    let mut bytes = Vec::new();
    doc.to_writer(&mut bytes).unwrap();
    check_raw(RawDocument::from_bytes(&bytes).unwrap());
    assert_eq!(bson2::from_document::<Model>(doc).unwrap(), m);
    assert_eq!(bson2::to_bson(&A).unwrap(), Bson::ObjectId(A.into()));
}

#[test]
fn cross_reads_with_bson2s_type() {
    let ours = bson2::to_vec(&model()).unwrap();
    assert_eq!(bson2::from_slice::<Theirs>(&ours).unwrap(), theirs());
    let their_bytes = bson2::to_vec(&theirs()).unwrap();
    assert_eq!(bson2::from_slice::<Model>(&their_bytes).unwrap(), model());
    let their_doc = bson2::to_document(&theirs()).unwrap();
    assert_eq!(bson2::from_document::<Model>(their_doc).unwrap(), model());
}

#[test]
fn buffered_shapes_read_hex_strings_and_extended_json() {
    let hex = |id: ObjectId| Bson::String(id.to_hex());
    let ext = |id: ObjectId| Bson::Document(doc! { "$oid": id.to_hex() });
    let native = |id: ObjectId| Bson::from(id);
    for form in [hex, ext, native] {
        let doc = doc! {
            "_id": form(A), "parent": form(B), "tags": [form(B), form(C)], "map": { "k": form(C) },
            "inner": { "owner": form(A) }, "untagged": form(B),
            "tagged": { "kind": "Created", "id": form(C) }, "flat_owner": form(A),
        };
        assert_eq!(bson2::from_document::<Model>(doc.clone()).unwrap(), model());
        let mut bytes = Vec::new();
        doc.to_writer(&mut bytes).unwrap();
        assert_eq!(bson2::from_slice::<Model>(&bytes).unwrap(), model());
    }
}

#[test]
fn conversions_comparisons_time_and_filters() {
    let theirs: bson2::oid::ObjectId = A.into();
    assert_eq!(ObjectId::from(theirs), A);
    assert_eq!(A, theirs);
    assert_eq!(theirs, A);
    assert!(B < theirs);
    assert!(theirs < C);
    assert_eq!(Bson::from(A).as_oid(), Some(A));
    assert_eq!(
        ObjectId::try_from(Bson::Null).unwrap_err().element_type(),
        Some(0x0A)
    );
    let raw = rawdoc! { "_id": A };
    assert_eq!(ObjectId::try_from(raw.get("_id").unwrap().unwrap()), Ok(A));
    assert_eq!(doc! { "_id": A }.get_object_id("_id").unwrap(), A);

    let t: bson2::DateTime = C.timestamp_as();
    assert_eq!(t, bson2::DateTime::from_millis(1_700_000_000_000));
    assert_eq!(t, bson2::oid::ObjectId::from(C).timestamp());
    assert_eq!(
        ObjectId::min_for_timestamp(t.to_oid_timestamp().unwrap()).to_hex(),
        "6553f1000000000000000000"
    );
    let filter = oid_bson::v2::created_between(Some(t), None);
    assert_eq!(
        filter,
        doc! { "$gte": oid!("6553f1000000000000000000"), "$lte": ObjectId::from_bytes([0xff; 12]) }
    );
}

/// With only `bson-2`, the default-version API (`timestamp`, `oid::Error`, `oid_bson::bson`) is
/// bson 2's, and the parse error is oid-core's.
#[cfg(not(feature = "bson-3"))]
#[test]
fn bson2_alone_is_the_default_version() {
    let t: bson2::DateTime = C.timestamp();
    assert_eq!(t.timestamp_millis(), 1_700_000_000_000);
    let err: oid_core::ParseError = ObjectId::parse_str("507f1f77bcf86cd79943901g").unwrap_err();
    assert_eq!(err.invalid_char(), Some(('g', 23)));
    let filter: bson2::Document = oid_bson::created_between(Some(t), None);
    assert_eq!(
        filter.get_oid("$gte").unwrap().to_hex(),
        "6553f1000000000000000000"
    );
    let _: oid_bson::bson::Document = filter;
}
