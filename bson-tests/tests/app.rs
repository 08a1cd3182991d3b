//! An application on the `mongodb` driver's default features (bson 2.x: `use mongodb::bson;`),
//! with oid-bson as its README says (`oid-bson = "0.1"`, default features): the filters and
//! comparisons it writes compile, and what it stores holds ObjectIds. bson 2 is the version the
//! driver pins (`2.15`, bson's default features); the driver itself is not built here (its
//! ~400 crates would cost CI minutes), and its error conversion for bson 2 has no arm for a
//! parse error, with bson's own type as with ours.
//!
//! The app's `bson` is `oid_bson::bson`: the version the build really resolved for oid-bson's
//! unversioned API, not this crate's feature. Alone, that is bson 2; in `cargo test --workspace`
//! other members turn on `oid-bson/bson-3` too, and then oid-bson (like the driver with both
//! features) follows bson 3, so the same app is on bson 3 there (`tests/both.rs` checks that
//! build's choice).

#![cfg(any(feature = "oid-bson-default", feature = "bson-3"))]
#![allow(clippy::unwrap_used, reason = "test helpers outside #[test] functions")]

// What `use mongodb::bson;` is: bson 2 with the driver's default features, bson 3 when the build
// turns on `bson-3` (oid-bson's unversioned API and the driver follow the same one).
use oid_bson::bson;

/// The serializer functions the app calls, which bson 3 renamed (`to_document` became
/// `serialize_to_document`, ...): implemented for both versions' `Document`, so the app calls
/// those of the version `oid_bson::bson` really is, with no feature of this crate deciding.
trait Driver: Sized {
    type Raw;
    type Bson;
    fn to_raw<T: Serialize>(value: &T) -> Self::Raw;
    fn to_document<T: Serialize>(value: &T) -> Self;
    fn to_bson<T: Serialize>(value: &T) -> Self::Bson;
    fn from_document<T: serde::de::DeserializeOwned>(document: Self) -> T;
    fn from_slice<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> T;
}

impl Driver for bson2::Document {
    type Raw = bson2::RawDocumentBuf;
    type Bson = bson2::Bson;
    fn to_raw<T: Serialize>(value: &T) -> Self::Raw {
        bson2::to_raw_document_buf(value).unwrap()
    }
    fn to_document<T: Serialize>(value: &T) -> Self {
        bson2::to_document(value).unwrap()
    }
    fn to_bson<T: Serialize>(value: &T) -> bson2::Bson {
        bson2::to_bson(value).unwrap()
    }
    fn from_document<T: serde::de::DeserializeOwned>(document: Self) -> T {
        bson2::from_document(document).unwrap()
    }
    fn from_slice<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> T {
        bson2::from_slice(bytes).unwrap()
    }
}

impl Driver for ::bson::Document {
    type Raw = ::bson::RawDocumentBuf;
    type Bson = ::bson::Bson;
    fn to_raw<T: Serialize>(value: &T) -> Self::Raw {
        ::bson::serialize_to_raw_document_buf(value).unwrap()
    }
    fn to_document<T: Serialize>(value: &T) -> Self {
        ::bson::serialize_to_document(value).unwrap()
    }
    fn to_bson<T: Serialize>(value: &T) -> ::bson::Bson {
        ::bson::serialize_to_bson(value).unwrap()
    }
    fn from_document<T: serde::de::DeserializeOwned>(document: Self) -> T {
        ::bson::deserialize_from_document(document).unwrap()
    }
    fn from_slice<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> T {
        ::bson::deserialize_from_slice(bytes).unwrap()
    }
}

/// The `Document` of the version the app is on.
type Doc = bson::Document;

use bson::spec::ElementType;
use bson::{Bson, RawDocumentBuf, doc};
use oid_bson::oid::ObjectId;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    customer: ObjectId,
    items: Vec<ObjectId>,
    replaces: Option<ObjectId>,
}

/// A partial update, as `$set: to_document(&patch)` sends it.
#[derive(Serialize)]
struct Patch {
    customer: ObjectId,
    replaces: Option<ObjectId>,
}

#[derive(Debug)]
enum AppError {
    BadId(oid_bson::oid::Error),
}

impl From<oid_bson::oid::Error> for AppError {
    fn from(e: oid_bson::oid::Error) -> Self {
        AppError::BadId(e)
    }
}

fn parse_id(s: &str) -> Result<ObjectId, AppError> {
    Ok(ObjectId::parse_str(s)?)
}

fn order() -> Order {
    Order {
        id: ObjectId::new(),
        customer: oid_bson::oid!("507f1f77bcf86cd799439011"),
        items: vec![ObjectId::new(), ObjectId::new()],
        replaces: Some(oid_bson::oid!("56e1fc72e0c917e9c4714161")),
    }
}

/// What the driver does on `insert_one`.
fn insert(order: &Order) -> RawDocumentBuf {
    Doc::to_raw(order)
}

#[test]
fn stored_ids_are_object_ids_on_every_write_path() {
    let order = order();
    let raw = insert(&order);
    for key in ["_id", "customer", "replaces"] {
        assert_eq!(
            raw.get(key).unwrap().unwrap().element_type(),
            ElementType::ObjectId,
            "{key}"
        );
    }
    let items = raw.get_array("items").unwrap();
    assert!(
        items
            .into_iter()
            .all(|item| item.unwrap().element_type() == ElementType::ObjectId)
    );

    let document = Doc::to_document(&order);
    assert!(matches!(document.get("_id"), Some(Bson::ObjectId(_))));
    assert!(matches!(document.get("customer"), Some(Bson::ObjectId(_))));
    assert!(matches!(document.get("replaces"), Some(Bson::ObjectId(_))));
    assert_eq!(Doc::to_bson(&order.id), Bson::from(order.id));
    // The same bytes as the driver's path, and the documents read back.
    let mut bytes = Vec::new();
    document.to_writer(&mut bytes).unwrap();
    assert_eq!(bytes, raw.as_bytes());
    assert_eq!(Doc::from_document::<Order>(document), order);
    assert_eq!(Doc::from_slice::<Order>(raw.as_bytes()), order);

    let patch = Patch {
        customer: order.customer,
        replaces: None,
    };
    let update = doc! { "$set": Doc::to_document(&patch) };
    let set = update.get_document("$set").unwrap();
    assert_eq!(
        set.get("customer"),
        Some(&Bson::ObjectId(order.customer.into()))
    );
}

#[test]
fn filters_and_comparisons_compile_with_the_drivers_bson() {
    let order = order();
    let by_id = doc! { "_id": order.id };
    let by_customer = doc! { "customer": order.customer, "items": { "$in": order.items.clone() } };
    assert!(matches!(
        by_customer.get("customer"),
        Some(Bson::ObjectId(_))
    ));

    // Comparisons with what the driver hands back (bson's own type).
    assert_eq!(by_id.get_object_id("_id").unwrap(), order.id);
    assert!(by_id.get("_id").and_then(Bson::as_object_id) == Some(order.id.into()));
    assert!(
        by_id
            .get("_id")
            .and_then(Bson::as_object_id)
            .is_some_and(|id| id == order.id)
    );
    let theirs: bson::oid::ObjectId = order.id.into();
    assert_eq!(theirs, order.id);
    assert_eq!(order.id, theirs);
    assert!(theirs <= order.id);

    // Orders created in the last hour (the id was made just now).
    let now = bson::DateTime::now();
    let hour_ago = now.saturating_add_millis(-3_600_000);
    let recent = doc! { "_id": oid_bson::created_between(Some(hour_ago), None) };
    let range = recent.get_document("_id").unwrap();
    assert!(range.get_object_id("$gte").unwrap() <= order.id);
    assert!(range.get_object_id("$lte").unwrap() >= order.id);
    assert!(
        order.id.timestamp()
            >= bson::DateTime::from_millis(hour_ago.timestamp_millis() / 1000 * 1000)
    );

    // An id from a URL, with the application's error type.
    assert_eq!(parse_id(&order.id.to_hex()).unwrap(), order.id);
    let AppError::BadId(e) = parse_id("nope").unwrap_err();
    // bson 2: our message alone; bson 3: bson's error, whose message is ours.
    assert!(
        e.to_string()
            .contains("invalid length: expected 24 hex characters, found 4"),
        "{e}"
    );
}
