//! `oid_bson::ObjectId` through bson 3: native ObjectId elements at any depth with no attribute,
//! `Document` round trips, cross-reads with `bson::oid::ObjectId` models, the shapes serde buffers
//! (untagged, internally tagged, flatten), JSON, conversions and the filter helpers.

#![cfg(feature = "bson-3")]
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use std::collections::{BTreeMap, HashMap};

use bson::{Bson, Document, RawBsonRef, RawDocument, doc, rawdoc, spec::ElementType};
use oid_bson::{BsonDateTime, BsonExt, DocumentExt, IdRange, ObjectId, oid};
use serde::{Deserialize, Serialize};

const A: ObjectId = oid!("56e1fc72e0c917e9c4714161");
const B: ObjectId = oid!("507f1f77bcf86cd799439011");
const C: ObjectId = oid!("6553f1003f2a91c8d4003039");

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Inner {
    owner: ObjectId,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Ref {
    User(ObjectId),
    Pair { left: ObjectId, right: ObjectId },
}

/// Every container shape, with no attribute on any id.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Model {
    #[serde(rename = "_id")]
    id: ObjectId,
    parent: Option<ObjectId>,
    none: Option<ObjectId>,
    tags: Vec<ObjectId>,
    maybe_tags: Option<Vec<ObjectId>>,
    by_name: HashMap<String, ObjectId>,
    sorted: BTreeMap<String, Vec<ObjectId>>,
    inner: Inner,
    nested: Vec<Inner>,
    reference: Ref,
    pair: Ref,
    tuple: (ObjectId, i32),
}

/// The same shape with bson's own type: the reference for the bytes.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct TheirInner {
    owner: bson::oid::ObjectId,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum TheirRef {
    User(bson::oid::ObjectId),
    Pair {
        left: bson::oid::ObjectId,
        right: bson::oid::ObjectId,
    },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Theirs {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
    parent: Option<bson::oid::ObjectId>,
    none: Option<bson::oid::ObjectId>,
    tags: Vec<bson::oid::ObjectId>,
    maybe_tags: Option<Vec<bson::oid::ObjectId>>,
    by_name: HashMap<String, bson::oid::ObjectId>,
    sorted: BTreeMap<String, Vec<bson::oid::ObjectId>>,
    inner: TheirInner,
    nested: Vec<TheirInner>,
    reference: TheirRef,
    pair: TheirRef,
    tuple: (bson::oid::ObjectId, i32),
}

fn model() -> Model {
    Model {
        id: A,
        parent: Some(B),
        none: None,
        tags: vec![B, C],
        maybe_tags: Some(vec![C]),
        // One key: HashMap order must not make the byte comparison flaky.
        by_name: HashMap::from([("ada".to_owned(), B)]),
        sorted: BTreeMap::from([("x".to_owned(), vec![A, B]), ("y".to_owned(), vec![])]),
        inner: Inner { owner: C },
        nested: vec![Inner { owner: A }, Inner { owner: B }],
        reference: Ref::User(B),
        pair: Ref::Pair { left: A, right: C },
        tuple: (C, 7),
    }
}

fn b(id: ObjectId) -> bson::oid::ObjectId {
    id.into()
}

fn theirs(m: &Model) -> Theirs {
    let refs = |r: &Ref| match r {
        Ref::User(u) => TheirRef::User(b(*u)),
        Ref::Pair { left, right } => TheirRef::Pair {
            left: b(*left),
            right: b(*right),
        },
    };
    Theirs {
        id: b(m.id),
        parent: m.parent.map(b),
        none: m.none.map(b),
        tags: m.tags.iter().copied().map(b).collect(),
        maybe_tags: m
            .maybe_tags
            .as_ref()
            .map(|v| v.iter().copied().map(b).collect()),
        by_name: m.by_name.iter().map(|(k, v)| (k.clone(), b(*v))).collect(),
        sorted: m
            .sorted
            .iter()
            .map(|(k, v)| (k.clone(), v.iter().copied().map(b).collect()))
            .collect(),
        inner: TheirInner {
            owner: b(m.inner.owner),
        },
        nested: m
            .nested
            .iter()
            .map(|i| TheirInner { owner: b(i.owner) })
            .collect(),
        reference: refs(&m.reference),
        pair: refs(&m.pair),
        tuple: (b(m.tuple.0), m.tuple.1),
    }
}

/// The element at `path` (keys, and array indexes as strings) in a raw document.
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

/// Every id position of [`Model`], and the id expected there.
fn id_paths() -> Vec<(Vec<&'static str>, ObjectId)> {
    vec![
        (vec!["_id"], A),
        (vec!["parent"], B),
        (vec!["tags", "0"], B),
        (vec!["tags", "1"], C),
        (vec!["maybe_tags", "0"], C),
        (vec!["by_name", "ada"], B),
        (vec!["sorted", "x", "0"], A),
        (vec!["sorted", "x", "1"], B),
        (vec!["inner", "owner"], C),
        (vec!["nested", "0", "owner"], A),
        (vec!["nested", "1", "owner"], B),
        (vec!["reference", "User"], B),
        (vec!["pair", "Pair", "left"], A),
        (vec!["pair", "Pair", "right"], C),
        (vec!["tuple", "0"], C),
    ]
}

fn check_raw(doc: &RawDocument) {
    for (path, id) in id_paths() {
        let value = element(doc, &path);
        assert_eq!(value.element_type(), ElementType::ObjectId, "{path:?}");
        assert_eq!(ObjectId::try_from(value), Ok(id), "{path:?}");
    }
    assert_eq!(element(doc, &["none"]).element_type(), ElementType::Null);
}

#[test]
fn bytes_are_object_id_elements_at_every_depth_identical_to_bsons_type() {
    let m = model();
    let bytes = bson::serialize_to_vec(&m).unwrap();
    assert_eq!(bytes, bson::serialize_to_vec(&theirs(&m)).unwrap());
    check_raw(RawDocument::from_bytes(&bytes).unwrap());
    assert_eq!(bson::deserialize_from_slice::<Model>(&bytes).unwrap(), m);

    let mut buffer = Vec::new();
    bson::serialize_to_buffer(&m, &mut buffer).unwrap();
    assert_eq!(buffer, bytes);

    let raw = bson::serialize_to_raw_document_buf(&m).unwrap();
    check_raw(&raw);
    assert_eq!(raw.as_bytes(), &bytes[..]);
    assert_eq!(
        bson::deserialize_from_slice::<Model>(raw.as_bytes()).unwrap(),
        m
    );
}

#[test]
fn document_round_trips_with_native_ids() {
    let m = model();
    let doc = bson::serialize_to_document(&m).unwrap();
    assert_eq!(doc, bson::serialize_to_document(&theirs(&m)).unwrap());
    // The `Document` holds `Bson::ObjectId` everywhere: its bytes pass the raw checks.
    let mut bytes = Vec::new();
    doc.to_writer(&mut bytes).unwrap();
    check_raw(RawDocument::from_bytes(&bytes).unwrap());
    assert!(matches!(doc.get("_id"), Some(Bson::ObjectId(_))));
    assert_eq!(doc.get_oid("_id"), Ok(A));
    assert_eq!(
        bson::deserialize_from_document::<Model>(doc.clone()).unwrap(),
        m
    );

    let value = bson::serialize_to_bson(&m).unwrap();
    assert_eq!(value, Bson::Document(doc));
    assert_eq!(bson::deserialize_from_bson::<Model>(value).unwrap(), m);

    assert_eq!(
        bson::serialize_to_bson(&A).unwrap(),
        Bson::ObjectId(A.into())
    );
    assert_eq!(
        bson::deserialize_from_bson::<ObjectId>(Bson::ObjectId(A.into())).unwrap(),
        A
    );
}

#[test]
fn cross_reads_with_bsons_own_type() {
    let m = model();
    let t = theirs(&m);
    let their_bytes = bson::serialize_to_vec(&t).unwrap();
    assert_eq!(
        bson::deserialize_from_slice::<Model>(&their_bytes).unwrap(),
        m
    );
    let their_doc = bson::serialize_to_document(&t).unwrap();
    assert_eq!(
        bson::deserialize_from_document::<Model>(their_doc).unwrap(),
        m
    );

    let our_bytes = bson::serialize_to_vec(&m).unwrap();
    assert_eq!(
        bson::deserialize_from_slice::<Theirs>(&our_bytes).unwrap(),
        t
    );
    let our_doc = bson::serialize_to_document(&m).unwrap();
    assert_eq!(
        bson::deserialize_from_document::<Theirs>(our_doc).unwrap(),
        t
    );
}

#[test]
fn json_is_a_hex_string_and_reads_every_form() {
    let m = model();
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["_id"], "56e1fc72e0c917e9c4714161");
    assert_eq!(json["nested"][1]["owner"], "507f1f77bcf86cd799439011");
    assert_eq!(json["by_name"]["ada"], "507f1f77bcf86cd799439011");
    assert_eq!(json["none"], serde_json::Value::Null);
    assert_eq!(serde_json::from_value::<Model>(json).unwrap(), m);

    // What bson's own type writes to JSON ({"$oid": …}) reads into ours.
    let theirs_json = serde_json::to_string(&theirs(&m)).unwrap();
    assert!(theirs_json.contains(r#"{"$oid":"56e1fc72e0c917e9c4714161"}"#));
    assert_eq!(serde_json::from_str::<Model>(&theirs_json).unwrap(), m);
    // And bson's type reads ours? It wants {"$oid"}: a plain string is the documented
    // difference (web APIs want the string).
    assert_eq!(
        serde_json::from_str::<ObjectId>(r#""56E1FC72E0C917E9C4714161""#).unwrap(),
        A
    );
    let err = serde_json::from_str::<ObjectId>(r#""56e1fc72""#).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("invalid length: expected 24 hex characters, found 8"),
        "{err}"
    );
    assert!(serde_json::from_str::<ObjectId>("12").is_err());
}

#[test]
fn reads_hex_strings_and_extended_json_and_bytes_from_bson() {
    #[derive(Deserialize, PartialEq, Debug)]
    struct One {
        id: ObjectId,
    }
    for doc in [
        doc! { "id": A },
        doc! { "id": "56e1fc72e0c917e9c4714161" },
        doc! { "id": { "$oid": "56e1fc72e0c917e9c4714161" } },
        doc! { "id": bson::Binary { subtype: bson::spec::BinarySubtype::Generic, bytes: A.bytes().to_vec() } },
    ] {
        assert_eq!(
            bson::deserialize_from_document::<One>(doc.clone()).unwrap(),
            One { id: A },
            "{doc}"
        );
        let mut bytes = Vec::new();
        doc.to_writer(&mut bytes).unwrap();
        assert_eq!(
            bson::deserialize_from_slice::<One>(&bytes).unwrap(),
            One { id: A },
            "{doc}"
        );
    }
    for bad in [doc! { "id": 5 }, doc! { "id": "zz" }, doc! {}] {
        assert!(bson::deserialize_from_document::<One>(bad).is_err());
    }
}

// Shapes serde buffers: the id reaches our `Deserialize` through serde's `Content`, not bson's
// deserializer.

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(untagged)]
enum Untagged {
    WithId { id: ObjectId, n: i32 },
    Bare(ObjectId),
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(tag = "kind")]
enum Tagged {
    Created { id: ObjectId, by: Option<ObjectId> },
    Deleted { ids: Vec<ObjectId> },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Ref(ObjectId),
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Flattened {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    extra: BTreeMap<String, ObjectId>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Buffered {
    untagged: Untagged,
    bare: Untagged,
    tagged: Tagged,
    deleted: Tagged,
    adjacent: Adjacent,
    flat: Flattened,
}

fn buffered() -> Buffered {
    Buffered {
        untagged: Untagged::WithId { id: A, n: 1 },
        bare: Untagged::Bare(B),
        tagged: Tagged::Created { id: C, by: Some(A) },
        deleted: Tagged::Deleted { ids: vec![A, B] },
        adjacent: Adjacent::Ref(C),
        flat: Flattened {
            id: A,
            inner: Inner { owner: B },
            extra: BTreeMap::from([("other".to_owned(), C)]),
        },
    }
}

#[test]
fn buffered_shapes_round_trip_through_bytes_document_and_json() {
    let v = buffered();
    let bytes = bson::serialize_to_vec(&v).unwrap();
    let raw = RawDocument::from_bytes(&bytes).unwrap();
    for path in [
        &["untagged", "id"][..],
        &["bare"],
        &["tagged", "id"],
        &["tagged", "by"],
        &["deleted", "ids", "1"],
        &["adjacent", "c"],
        &["flat", "_id"],
        &["flat", "owner"],
        &["flat", "other"],
    ] {
        assert_eq!(
            element(raw, path).element_type(),
            ElementType::ObjectId,
            "{path:?}"
        );
    }
    assert_eq!(bson::deserialize_from_slice::<Buffered>(&bytes).unwrap(), v);

    let doc = bson::serialize_to_document(&v).unwrap();
    assert!(matches!(
        doc.get_document("flat").unwrap().get("owner"),
        Some(Bson::ObjectId(_))
    ));
    assert_eq!(bson::deserialize_from_document::<Buffered>(doc).unwrap(), v);

    let json = serde_json::to_string(&v).unwrap();
    assert!(
        json.contains(r#""bare":"507f1f77bcf86cd799439011""#),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<Buffered>(&json).unwrap(), v);
}

#[test]
fn buffered_shapes_read_hex_strings_and_extended_json() {
    let hex = |id: ObjectId| Bson::String(id.to_hex());
    let ext = |id: ObjectId| Bson::Document(doc! { "$oid": id.to_hex() });
    for form in [hex, ext] {
        let doc = doc! {
            "untagged": { "id": form(A), "n": 1 },
            "bare": form(B),
            "tagged": { "kind": "Created", "id": form(C), "by": form(A) },
            "deleted": { "kind": "Deleted", "ids": [form(A), form(B)] },
            "adjacent": { "t": "Ref", "c": form(C) },
            "flat": { "_id": form(A), "owner": form(B), "other": form(C) },
        };
        assert_eq!(
            bson::deserialize_from_document::<Buffered>(doc.clone()).unwrap(),
            buffered()
        );
        let mut bytes = Vec::new();
        doc.to_writer(&mut bytes).unwrap();
        assert_eq!(
            bson::deserialize_from_slice::<Buffered>(&bytes).unwrap(),
            buffered()
        );
    }
}

#[test]
fn conversions_and_comparisons_with_bsons_type() {
    let theirs: bson::oid::ObjectId = A.into();
    assert_eq!(theirs.bytes(), A.bytes());
    assert_eq!(ObjectId::from(theirs), A);
    assert_eq!(A, theirs);
    assert_eq!(theirs, A);
    // Both directions of the cross-type `PartialOrd`.
    assert!(B < theirs);
    assert!(theirs > B);
    assert!(theirs < C);
    assert!(C > theirs);
    let core: oid_core::ObjectId = A.into();
    assert_eq!(ObjectId::from(core), A);
    assert_eq!(core, A);
    assert_eq!(A, core);

    assert_eq!(Bson::from(A), Bson::ObjectId(theirs));
    assert_eq!(ObjectId::try_from(Bson::from(A)), Ok(A));
    assert_eq!(Bson::from(A).as_oid(), Some(A));
    assert_eq!(
        ObjectId::try_from(&Bson::String(A.to_hex()))
            .unwrap_err()
            .to_string(),
        "expected a BSON ObjectId, found a string"
    );
    let raw = rawdoc! { "_id": A, "n": 1_i64 };
    assert_eq!(ObjectId::try_from(raw.get("_id").unwrap().unwrap()), Ok(A));
    assert_eq!(
        ObjectId::try_from(raw.get("n").unwrap().unwrap())
            .unwrap_err()
            .element_type(),
        Some(ElementType::Int64 as u8)
    );
    assert_eq!(
        ObjectId::try_from(&bson::RawBson::from(A)),
        Ok(A),
        "RawBson"
    );
    assert_eq!(RawBsonRef::from(A), RawBsonRef::ObjectId(theirs));

    // Ids the driver returns compare with ours directly.
    let doc = doc! { "_id": A };
    assert_eq!(doc.get_object_id("_id").unwrap(), A);
    assert_eq!(doc.get_oid("_id").unwrap(), theirs);
    let missing = doc.get_oid("nope").unwrap_err();
    assert_eq!(missing.element_type(), None);
}

#[test]
fn time_and_ranges() {
    assert_eq!(
        C.timestamp(),
        bson::DateTime::from_millis(1_700_000_000_000)
    );
    assert_eq!(C.timestamp(), bson::oid::ObjectId::from(C).timestamp());
    let max: ObjectId = ObjectId::from_bytes([0xff; 12]);
    assert_eq!(max.timestamp().timestamp_millis(), 4_294_967_295_000);
    let t = bson::DateTime::from_millis(1_700_000_000_999);
    let secs = t.to_oid_timestamp().unwrap();
    assert_eq!(
        ObjectId::min_for_timestamp(secs).to_hex(),
        "6553f1000000000000000000"
    );
    assert_eq!(
        ObjectId::max_for_timestamp(secs).to_hex(),
        "6553f100ffffffffffffffff"
    );
    assert!(bson::DateTime::from_millis(-1).to_oid_timestamp().is_err());
    assert!(
        bson::DateTime::from_millis(4_294_967_296_000)
            .to_oid_timestamp()
            .is_err()
    );
    assert_eq!(
        bson::DateTime::from_millis(4_294_967_295_999).to_oid_timestamp(),
        Ok(u32::MAX)
    );
    assert_eq!(
        bson::DateTime::from_millis(-1)
            .to_oid_timestamp()
            .unwrap_err()
            .kind(),
        oid_core::ErrorKind::TimeOutOfRange
    );

    let from = bson::DateTime::from_millis(1_700_000_000_500);
    let to = bson::DateTime::from_millis(1_700_000_001_200);
    let filter = oid_bson::created_between(Some(from), Some(to));
    assert_eq!(
        filter,
        doc! {
            "$gte": oid!("6553f1000000000000000000"),
            "$lt": oid!("6553f1020000000000000000"),
        }
    );
    assert_eq!(
        filter,
        oid_bson::range_filter(IdRange::from_millis(
            Some(1_700_000_000_500),
            Some(1_700_000_001_200)
        ))
    );
    assert_eq!(
        oid_bson::created_between(None, None),
        doc! { "$gte": ObjectId::from_bytes([0; 12]), "$lte": max }
    );
    // A filter matches what the range contains: check with bson's own comparison semantics by
    // evaluating the bounds on the ids.
    let gte: ObjectId = filter.get_oid("$gte").unwrap();
    let lt: ObjectId = filter.get_oid("$lt").unwrap();
    for id in [C, ObjectId::from_parts(1_700_000_001, [0xff; 5], [0xff; 3])] {
        assert!(gte <= id && id < lt);
    }
    assert!(ObjectId::from_parts(1_699_999_999, [0xff; 5], [0xff; 3]) < gte);
    assert!(ObjectId::from_parts(1_700_000_002, [0; 5], [0; 3]) >= lt);
}

#[test]
fn new_and_default_are_fresh_process_ids() {
    let a = ObjectId::new();
    let b = ObjectId::default();
    assert!(a < b);
    assert_eq!(a.as_core().to_parts().random, b.as_core().to_parts().random);
    let now = bson::DateTime::now().timestamp_millis() / 1000;
    assert!((a.timestamp().timestamp_millis() / 1000 - now).abs() <= 2);
}

#[test]
fn document_type_checks() {
    // What a `Document` written by our model holds, key by key.
    let doc: Document = bson::serialize_to_document(&model()).unwrap();
    assert!(
        matches!(doc.get("tags"), Some(Bson::Array(a)) if a.iter().all(|v| v.as_oid().is_some()))
    );
    assert!(doc.get_document("by_name").unwrap().get_oid("ada").is_ok());
}
