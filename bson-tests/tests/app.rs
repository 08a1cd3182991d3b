//! An application on the `mongodb` driver's default features (bson 2.x: `use mongodb::bson;`),
//! with oid-bson as its README says (`oid-bson = "0.1"`, default features): the filters and
//! comparisons it writes compile, and what it stores holds ObjectIds. bson 2 is the version the
//! driver pins (`2.15`, bson's default features); the driver itself is not built here (its
//! ~400 crates would cost CI minutes), and its error conversion for bson 2 has no arm for a
//! parse error, with bson's own type as with ours.

#![cfg(all(feature = "oid-bson-default", not(feature = "bson-3")))]
#![allow(clippy::unwrap_used, reason = "test helpers outside #[test] functions")]

use bson2 as bson; // what `use mongodb::bson;` is with the driver's default features

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
    bson::to_raw_document_buf(order).unwrap()
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

    let document = bson::to_document(&order).unwrap();
    assert!(matches!(document.get("_id"), Some(Bson::ObjectId(_))));
    assert!(matches!(document.get("customer"), Some(Bson::ObjectId(_))));
    assert!(matches!(document.get("replaces"), Some(Bson::ObjectId(_))));
    assert_eq!(bson::to_bson(&order.id).unwrap(), Bson::from(order.id));
    // The same bytes as the driver's path, and the documents read back.
    let mut bytes = Vec::new();
    document.to_writer(&mut bytes).unwrap();
    assert_eq!(bytes, raw.as_bytes());
    assert_eq!(bson::from_document::<Order>(document).unwrap(), order);
    assert_eq!(bson::from_slice::<Order>(raw.as_bytes()).unwrap(), order);

    let patch = Patch {
        customer: order.customer,
        replaces: None,
    };
    let update = doc! { "$set": bson::to_document(&patch).unwrap() };
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
    assert_eq!(
        e.to_string(),
        "invalid length: expected 24 hex characters, found 4"
    );
}
