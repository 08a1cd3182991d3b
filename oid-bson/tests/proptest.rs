//! Round trips for arbitrary ids: conversions, and models through BSON bytes, `Document` and JSON,
//! compared byte for byte with the `bson` crate's own type.

#![cfg(feature = "bson-3")]

use bson::Bson;
use oid_bson::ObjectId;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A model with this crate's type and no attribute.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Ours {
    #[serde(rename = "_id")]
    id: ObjectId,
    parent: Option<ObjectId>,
    refs: Vec<ObjectId>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Theirs {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
    parent: Option<bson::oid::ObjectId>,
    refs: Vec<bson::oid::ObjectId>,
}

fn any_id() -> impl Strategy<Value = ObjectId> {
    any::<[u8; 12]>().prop_map(ObjectId::from_bytes)
}

fn any_doc() -> impl Strategy<Value = Ours> {
    (
        any_id(),
        proptest::option::of(any_id()),
        proptest::collection::vec(any_id(), 0..4),
    )
        .prop_map(|(id, parent, refs)| Ours { id, parent, refs })
}

fn theirs(o: &Ours) -> Theirs {
    Theirs {
        id: o.id.into(),
        parent: o.parent.map(Into::into),
        refs: o.refs.iter().copied().map(Into::into).collect(),
    }
}

proptest! {
    #[test]
    fn conversions_are_lossless(id in any_id()) {
        let theirs = bson::oid::ObjectId::from(id);
        prop_assert_eq!(theirs.bytes(), id.bytes());
        prop_assert_eq!(theirs.to_hex(), id.to_hex());
        prop_assert_eq!(ObjectId::from(theirs), id);
        prop_assert_eq!(ObjectId::from(id.as_core()), id);
        prop_assert_eq!(ObjectId::try_from(&Bson::from(id)), Ok(id));
        prop_assert_eq!(Bson::from(id), Bson::ObjectId(theirs));
    }

    #[test]
    fn bytes_match_bsons_type_and_round_trip(doc in any_doc()) {
        let bytes = bson::serialize_to_vec(&doc).unwrap();
        prop_assert_eq!(&bytes, &bson::serialize_to_vec(&theirs(&doc)).unwrap());
        prop_assert_eq!(bson::deserialize_from_slice::<Ours>(&bytes).unwrap(), doc);
    }

    #[test]
    fn document_matches_bsons_type_and_round_trips(doc in any_doc()) {
        let d = bson::serialize_to_document(&doc).unwrap();
        prop_assert_eq!(&d, &bson::serialize_to_document(&theirs(&doc)).unwrap());
        prop_assert_eq!(bson::deserialize_from_document::<Ours>(d).unwrap(), doc);
    }

    #[test]
    fn json_round_trips_as_strings(doc in any_doc()) {
        let json = serde_json::to_value(&doc).unwrap();
        let id_hex = doc.id.to_hex().to_string();
        prop_assert_eq!(&json["_id"], &serde_json::Value::String(id_hex));
        prop_assert_eq!(serde_json::from_value::<Ours>(json).unwrap(), doc);
    }

    #[test]
    fn matches_bsons_type_everywhere(doc in any_doc()) {
        let json = serde_json::to_string(&doc).unwrap();
        prop_assert_eq!(&serde_json::from_str::<Ours>(&json).unwrap(), &doc);
        let their_json = serde_json::to_string(&theirs(&doc)).unwrap();
        prop_assert_eq!(&serde_json::from_str::<Ours>(&their_json).unwrap(), &doc);
        let id = doc.id;
        prop_assert_eq!(id.to_hex(), bson::oid::ObjectId::from(id).to_hex());
        prop_assert_eq!(format!("{id:?}"), format!("{:?}", bson::oid::ObjectId::from(id)));
        prop_assert_eq!(id.timestamp(), bson::oid::ObjectId::from(id).timestamp());
    }
}
