//! rkyv: a struct holding `ObjectId`s (oid-core's, also through oid-std, and oid-bson's) round trips through an
//! archive read in place by the checked (validating) path, and corrupted or truncated archives are
//! rejected by it with an error, not undefined behaviour.

#![allow(
    clippy::expect_used,
    reason = "test helpers outside #[test] fns: a failure there is a test failure"
)]

use oid_core::{ArchivedObjectId, ObjectId, oid};
use rkyv::rancor::Error;
use rkyv::{Archive, Deserialize, Serialize};

/// An order, as a cache would store it.
#[derive(Archive, Serialize, Deserialize, Debug, PartialEq)]
struct Order {
    id: ObjectId,
    parent: Option<oid_std::ObjectId>,
    items: Vec<ObjectId>,
}

fn order() -> Order {
    Order {
        id: oid!("507f1f77bcf86cd799439011"),
        parent: Some(oid!("65a0000000000000000000ff")),
        items: (0..5u8).map(|i| ObjectId::from_bytes([i; 12])).collect(),
    }
}

#[test]
fn round_trip_through_the_checked_path() {
    let order = order();
    let bytes = rkyv::to_bytes::<Error>(&order).expect("serializes");
    let archived = rkyv::access::<ArchivedOrder, Error>(&bytes).expect("a valid archive");
    assert_eq!(archived.id, order.id);
    assert_eq!(archived.id.to_object_id(), order.id);
    assert_eq!(archived.id.to_string(), "507f1f77bcf86cd799439011");
    let parent: Option<&ArchivedObjectId> = archived.parent.as_ref();
    assert_eq!(parent.map(ObjectId::from), order.parent);
    assert_eq!(archived.items.len(), 5);
    assert!(archived.items.iter().zip(&order.items).all(|(a, o)| a == o));
    // The ids are stored as their 12 bytes: the id's bytes appear in the archive verbatim.
    assert!(bytes.windows(12).any(|w| w == order.id.as_bytes()));
    assert_eq!(
        rkyv::deserialize::<Order, Error>(archived).expect("deserializes"),
        order
    );
    assert_eq!(
        rkyv::from_bytes::<Order, Error>(&bytes).expect("valid"),
        order
    );

    // An id alone is its 12 bytes.
    let one = rkyv::to_bytes::<Error>(&order.id).expect("serializes");
    assert_eq!(one.as_slice(), order.id.as_bytes());
}

#[test]
fn corrupted_archives_are_rejected_by_the_checked_path() {
    let bytes = rkyv::to_bytes::<Error>(&order())
        .expect("serializes")
        .to_vec();
    let mut aligned = rkyv::util::AlignedVec::<16>::new();
    let mut check = |mutate: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.clone();
        mutate(&mut b);
        aligned.clear();
        aligned.extend_from_slice(&b);
        rkyv::access::<ArchivedOrder, Error>(&aligned).map(|_| ())
    };
    // Unchanged: accepted.
    assert!(check(&|_| {}).is_ok());
    // Truncated by one byte, and cut to the size of one id.
    assert!(check(&|b| b.truncate(b.len() - 1)).is_err());
    assert!(check(&|b| b.truncate(12)).is_err());
    // The vector's length (the last 4 bytes of the root: u32 offset, u32 length) made huge:
    // its elements would lie past the end.
    assert!(
        check(&|b| {
            let n = b.len();
            b[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
        })
        .is_err()
    );
    // The vector's relative offset pointed outside the buffer.
    assert!(
        check(&|b| {
            let n = b.len();
            b[n - 8..n - 4].copy_from_slice(&i32::MAX.to_le_bytes());
        })
        .is_err()
    );
    // The option's tag (0 or 1, right after the root's id) set to 7.
    let id_at = bytes
        .windows(12)
        .position(|w| w == order().id.as_bytes())
        .expect("the id's 12 bytes are in the archive");
    let tag = id_at + 12;
    assert_eq!(bytes[tag], 1, "the archived layout moved: {bytes:?}");
    assert!(check(&|b| b[tag] = 7).is_err());
    // Every 12 bytes are an id: flipping a byte inside one is a different id, not an error.
    assert!(check(&|b| b[id_at] ^= 0xff).is_ok());
}

/// The same order with oid-bson's ids.
#[derive(Archive, Serialize, Deserialize, Debug, PartialEq)]
struct BsonOrder {
    id: oid_bson::ObjectId,
    parent: Option<oid_bson::ObjectId>,
    items: Vec<oid_bson::ObjectId>,
}

#[test]
fn oid_bson_ids_archive_as_oid_cores() {
    let core = order();
    let bson = BsonOrder {
        id: core.id.into(),
        parent: core.parent.map(Into::into),
        items: core.items.iter().copied().map(Into::into).collect(),
    };
    let bytes = rkyv::to_bytes::<Error>(&bson).expect("serializes");
    // The same bytes as the oid-core order: the archives read each other.
    assert_eq!(
        bytes.as_slice(),
        rkyv::to_bytes::<Error>(&core)
            .expect("serializes")
            .as_slice()
    );
    let archived = rkyv::access::<ArchivedBsonOrder, Error>(&bytes).expect("a valid archive");
    let id: &oid_bson::ArchivedObjectId = &archived.id;
    assert_eq!(*id, bson.id);
    assert_eq!(bson.id, *id);
    assert_eq!(oid_bson::ObjectId::from(id), bson.id);
    assert_eq!(
        rkyv::deserialize::<BsonOrder, Error>(archived).expect("deserializes"),
        bson
    );
    let as_core = rkyv::access::<ArchivedOrder, Error>(&bytes).expect("a valid archive");
    assert_eq!(
        rkyv::deserialize::<Order, Error>(as_core).expect("deserializes"),
        core
    );
    assert!(rkyv::access::<ArchivedBsonOrder, Error>(&bytes[..bytes.len() - 1]).is_err());
}
