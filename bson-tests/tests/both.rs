//! oid-bson with both `bson-2` and `bson-3` on in one build (as `mongodb` with both of its
//! features, or a workspace where one crate asks for each): the unversioned API follows bson 3,
//! and `oid_bson::v2` keeps bson 2's, as oid-bson's README says.

#![cfg(all(feature = "oid-bson-default", feature = "bson-3"))]

use std::any::TypeId;

use oid_bson::ObjectId;

#[test]
fn the_unversioned_api_follows_bson_3_and_v2_keeps_bson_2() {
    assert_eq!(
        TypeId::of::<oid_bson::bson::Document>(),
        TypeId::of::<bson::Document>()
    );
    let id = ObjectId::new();
    // Typed: these lines compile only with bson 3's types at the root and bson 2's in `v2`.
    let stamped: bson::DateTime = id.timestamp();
    let filter: bson::Document = oid_bson::created_between(Some(stamped), None);
    let filter2: bson2::Document = oid_bson::v2::created_between(
        Some(bson2::DateTime::from_millis(stamped.timestamp_millis())),
        None,
    );
    let (low, low2) = (
        filter.get_object_id("$gte").unwrap(),
        filter2.get_object_id("$gte").unwrap(),
    );
    assert_eq!(low.bytes(), low2.bytes());
    assert_eq!(low.bytes()[..4], id.bytes()[..4]);
    // The parse error is bson 3's.
    let e: bson::error::Error = oid_bson::oid::ObjectId::parse_str("nope").unwrap_err();
    assert!(e.to_string().contains("expected 24 hex characters"), "{e}");
}
