//! The application of `tests/app.rs` on the driver's `bson-3` configuration, one documented line
//! away: `oid-bson = { version = "0.1", default-features = false, features = ["bson-3"] }`. The
//! parse error is bson 3's own, so `?` converts it into `bson::error::Error` and into whatever
//! converts from it (the driver's `mongodb::error::Error`).

#![cfg(feature = "bson-3")]

use bson::spec::ElementType;
use bson::{Bson, doc};
use oid_bson::oid::ObjectId;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    customer: ObjectId,
    replaces: Option<ObjectId>,
}

/// Stands for `mongodb::error::Error` with bson 3: it converts from `bson::error::Error`.
#[derive(Debug)]
struct DriverError(#[allow(dead_code, reason = "carried, as the driver does")] bson::error::Error);

impl From<bson::error::Error> for DriverError {
    fn from(e: bson::error::Error) -> Self {
        DriverError(e)
    }
}

fn parse(s: &str) -> Result<ObjectId, DriverError> {
    Ok(ObjectId::parse_str(s)?)
}

fn parse_bson(s: &str) -> bson::error::Result<ObjectId> {
    let id = ObjectId::parse_str(s)?;
    Ok(id)
}

#[test]
fn the_same_application_with_bson_3() {
    let order = Order {
        id: ObjectId::new(),
        customer: oid_bson::oid!("507f1f77bcf86cd799439011"),
        replaces: None,
    };
    let raw = bson::serialize_to_raw_document_buf(&order).unwrap();
    assert_eq!(
        raw.get("customer").unwrap().unwrap().element_type(),
        ElementType::ObjectId
    );
    let document = bson::serialize_to_document(&order).unwrap();
    assert!(matches!(document.get("_id"), Some(Bson::ObjectId(_))));
    assert_eq!(
        bson::deserialize_from_document::<Order>(document).unwrap(),
        order
    );

    let by_id = doc! { "_id": order.id };
    assert!(by_id.get("_id").and_then(Bson::as_object_id) == Some(order.id.into()));
    let hour_ago = bson::DateTime::now().saturating_add_millis(-3_600_000);
    let recent = doc! { "_id": oid_bson::created_between(Some(hour_ago), None) };
    assert!(
        recent
            .get_document("_id")
            .unwrap()
            .get_object_id("$gte")
            .unwrap()
            <= order.id
    );

    assert_eq!(parse(&order.id.to_hex()).unwrap(), order.id);
    assert!(parse("nope").is_err());
    let err = parse_bson("507f1f77bcf86cd79943901g").unwrap_err();
    assert!(matches!(err.kind, bson::error::ErrorKind::ObjectId { .. }));
    assert!(
        err.to_string()
            .contains("invalid character 'g' at index 23"),
        "{err}"
    );
}
