//! The routes where a value passes through a serde buffer of another format on its way to BSON:
//! `serde_json::to_value` and `json!` (then `bson::serialize_to_document`, `Bson::try_from`,
//! `serialize_to_vec`, of bson 3 and bson 2), `serde_value`, and `serde-content` (binary and
//! human-readable). There the ids see the buffer's serializer, not bson's, and write that
//! format's form. Each route's result is asserted for each id type, as oid-bson's migration
//! guide documents it, with the fix, `oid_bson::ExtendedJsonIds` (oid-core's, re-exported), on every route.
//! Serde's own buffering for `untagged` and `flatten` (reading) keeps native ids (last test).

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use bson::RawDocument;
use bson::spec::ElementType;
use oid_bson::ExtendedJsonIds;
use serde::{Deserialize, Serialize};

const HEX: &str = "56e1fc72e0c917e9c4714161";
const BYTES: [u8; 12] = [
    0x56, 0xe1, 0xfc, 0x72, 0xe0, 0xc9, 0x17, 0xe9, 0xc4, 0x71, 0x41, 0x61,
];

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Order<I> {
    #[serde(rename = "_id")]
    id: I,
    items: Vec<I>,
    parent: Option<I>,
}

fn order<I: Copy>(id: I) -> Order<I> {
    Order {
        id,
        items: vec![id],
        parent: Some(id),
    }
}

/// The element type of the three ids in `bytes` (`_id`, `items.0`, `parent`), which must agree.
fn id_type(bytes: &[u8], what: &str) -> ElementType {
    let doc = RawDocument::from_bytes(bytes).unwrap();
    let id = doc.get("_id").unwrap().unwrap().element_type();
    let item = doc
        .get_array("items")
        .unwrap()
        .into_iter()
        .next()
        .unwrap()
        .unwrap()
        .element_type();
    let parent = doc.get("parent").unwrap().unwrap().element_type();
    assert_eq!((id, parent), (item, item), "{what}: the ids differ");
    item
}

fn bson3_bytes(doc: bson::Document) -> Vec<u8> {
    doc.to_vec().unwrap()
}

fn bson2_bytes(doc: bson2::Document) -> Vec<u8> {
    let mut out = Vec::new();
    doc.to_writer(&mut out).unwrap();
    out
}

/// Every route from a `serde_json::Value` to BSON bytes.
fn from_json(value: &serde_json::Value) -> Vec<(&'static str, Vec<u8>)> {
    let bson3 = |b: bson::Bson| match b {
        bson::Bson::Document(d) => bson3_bytes(d),
        other => panic!("{other:?}"),
    };
    let bson2 = |b: bson2::Bson| match b {
        bson2::Bson::Document(d) => bson2_bytes(d),
        other => panic!("{other:?}"),
    };
    vec![
        (
            "bson 3 serialize_to_document",
            bson3_bytes(bson::serialize_to_document(value).unwrap()),
        ),
        (
            "bson 3 Bson::try_from",
            bson3(bson::Bson::try_from(value.clone()).unwrap()),
        ),
        (
            "bson 3 serialize_to_vec",
            bson::serialize_to_vec(value).unwrap(),
        ),
        (
            "bson 2 to_document",
            bson2_bytes(bson2::to_document(value).unwrap()),
        ),
        (
            "bson 2 Bson::try_from",
            bson2(bson2::Bson::try_from(value.clone()).unwrap()),
        ),
        ("bson 2 to_vec", bson2::to_vec(value).unwrap()),
    ]
}

/// Every buffered route for one value: (route, BSON bytes).
fn routes<T: Serialize>(value: &T) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let json = serde_json::to_value(value).unwrap();
    for (path, bytes) in from_json(&json) {
        out.push((format!("serde_json::to_value, {path}"), bytes));
    }
    let buffered = serde_value::to_value(value).unwrap();
    out.push((
        "serde_value, bson 3 serialize_to_document".to_owned(),
        bson3_bytes(bson::serialize_to_document(&buffered).unwrap()),
    ));
    out.push((
        "serde_value, bson 3 serialize_to_vec".to_owned(),
        bson::serialize_to_vec(&buffered).unwrap(),
    ));
    out.push((
        "serde_value, bson 2 to_vec".to_owned(),
        bson2::to_vec(&buffered).unwrap(),
    ));
    for (mode, serializer) in [
        ("binary", serde_content::Serializer::new()),
        (
            "human-readable",
            serde_content::Serializer::new().human_readable(),
        ),
    ] {
        let content = serializer.serialize(value).unwrap();
        out.push((
            format!("serde-content {mode}, bson 3 serialize_to_document"),
            bson3_bytes(bson::serialize_to_document(&content).unwrap()),
        ));
        out.push((
            format!("serde-content {mode}, bson 3 serialize_to_vec"),
            bson::serialize_to_vec(&content).unwrap(),
        ));
        out.push((
            format!("serde-content {mode}, bson 2 to_vec"),
            bson2::to_vec(&content).unwrap(),
        ));
    }
    out
}

/// A route that writes a map-shaped buffer (`serde_json::Value`, `serde_value::Value`) straight
/// to BSON bytes: bson writes `{"$oid": …}` there as an embedded document, for its own type too
/// (only its `Document`/`Bson` serializers and `Bson::try_from` read extended JSON).
fn map_buffer_to_bytes(route: &str) -> bool {
    (route.starts_with("serde_json") || route.starts_with("serde_value"))
        && route.ends_with("to_vec")
}

#[test]
fn each_buffered_route_stores_what_the_migration_guide_says() {
    let theirs = bson::oid::ObjectId::from_bytes(BYTES);
    let ours = oid_bson::ObjectId::from_bytes(BYTES);
    let core = oid_core::ObjectId::from_bytes(BYTES);
    let std_id = oid_std::ObjectId::from_bytes(BYTES);

    let reference = routes(&order(theirs));
    assert_eq!(reference.len(), 15);
    for (route, bytes) in &reference {
        let expected = if map_buffer_to_bytes(route) {
            ElementType::EmbeddedDocument
        } else {
            ElementType::ObjectId
        };
        assert_eq!(id_type(bytes, route), expected, "bson's type, {route}");
    }

    // Unwrapped, our ids write the buffer format's own form: the hex string in human-readable
    // buffers (JSON, serde_value, serde-content's human-readable mode); in serde-content's binary
    // mode, oid_bson's type writes the `$oid` struct as bson's does (an ObjectId), the core type
    // its 12 bytes (binary data).
    for (who, list, binary) in [
        ("oid_bson", routes(&order(ours)), ElementType::ObjectId),
        ("oid_core", routes(&order(core)), ElementType::Binary),
        ("oid_std", routes(&order(std_id)), ElementType::Binary),
    ] {
        assert_eq!(list.len(), reference.len());
        for (route, bytes) in list {
            let expected = if route.starts_with("serde-content binary") {
                binary
            } else {
                ElementType::String
            };
            assert_eq!(id_type(&bytes, &route), expected, "{who}, {route}");
            if expected == ElementType::String {
                let doc = RawDocument::from_bytes(&bytes).unwrap();
                assert_eq!(doc.get_str("_id").unwrap(), HEX, "{who}, {route}");
            }
        }
    }

    // The fix, one wrapper around the value: exactly the bytes bson's own type gives, on every
    // route.
    for (who, list) in [
        ("oid_bson", routes(&ExtendedJsonIds(&order(ours)))),
        ("oid_core", routes(&ExtendedJsonIds(&order(core)))),
        ("oid_std", routes(&ExtendedJsonIds(&order(std_id)))),
    ] {
        assert_eq!(list, reference, "{who} in ExtendedJsonIds");
    }
}

#[test]
fn json_macro_with_one_id() {
    let core = oid_core::ObjectId::from_bytes(BYTES);
    let ours = oid_bson::ObjectId::from_bytes(BYTES);
    let native = bson::Bson::ObjectId(bson::oid::ObjectId::from_bytes(BYTES));
    let string = bson::Bson::String(HEX.to_owned());
    for (value, expected) in [
        (serde_json::json!({ "_id": core }), &string),
        (serde_json::json!({ "_id": ours }), &string),
        (serde_json::json!({ "_id": ExtendedJsonIds(core) }), &native),
        (serde_json::json!({ "_id": ExtendedJsonIds(ours) }), &native),
    ] {
        let doc = bson::serialize_to_document(&value).unwrap();
        assert_eq!(doc.get("_id"), Some(expected), "{value}");
        let doc = bson::Document::try_from(value.as_object().unwrap().clone()).unwrap();
        assert_eq!(doc.get("_id"), Some(expected), "{value}");
    }
}

/// Serde buffers the input for `untagged` enums and `flatten` when reading (its private
/// `Content`): bson presents an ObjectId element there as `{"$oid": …}`, which our ids read; the
/// model written back holds native ids again, for each id type.
#[test]
fn untagged_and_flatten_read_through_serdes_buffer_and_write_native_ids() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum Either<I> {
        Order(Order<I>),
        Text(String),
    }
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Flat<I> {
        #[serde(flatten)]
        order: Order<I>,
        n: i32,
    }
    fn trip<I: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug + Copy>(
        who: &str,
        id: I,
    ) {
        let theirs = bson::oid::ObjectId::from_bytes(BYTES);
        let stored = bson::serialize_to_vec(&order(theirs)).unwrap();
        let either: Either<I> = bson::deserialize_from_slice(&stored).unwrap();
        assert_eq!(either, Either::Order(order(id)), "{who}");
        let bytes = bson::serialize_to_vec(&either).unwrap();
        assert_eq!(id_type(&bytes, who), ElementType::ObjectId, "{who}");
        assert_eq!(bytes, stored, "{who}: untagged");
        let flat = Flat {
            order: order(theirs),
            n: 1,
        };
        let stored = bson::serialize_to_vec(&flat).unwrap();
        let read: Flat<I> = bson2::from_slice(&stored).unwrap();
        assert_eq!(read.order, order(id), "{who}");
        assert_eq!(bson2::to_vec(&read).unwrap(), stored, "{who}: flatten");
    }
    trip("oid_bson", oid_bson::ObjectId::from_bytes(BYTES));
    trip("oid_core", oid_core::ObjectId::from_bytes(BYTES));
    trip("oid_std", oid_std::ObjectId::from_bytes(BYTES));
}
