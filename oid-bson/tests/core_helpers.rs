//! The helpers through every serializer the issue names, and oid-core's plain serde impl reading
//! BSON ObjectId elements without a helper.

#![cfg(feature = "bson-3")]

use bson::{Bson, Document, RawDocument, doc, spec::ElementType};
use oid_bson::{FromBson, ToBson};
use oid_core::{ObjectId, oid};
use serde::{Deserialize, Serialize};

const A: ObjectId = oid!("56e1fc72e0c917e9c4714161");
const B: ObjectId = oid!("507f1f77bcf86cd799439011");

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Ours {
    #[serde(rename = "_id", with = "oid_bson::object_id")]
    id: ObjectId,
    #[serde(default, with = "oid_bson::object_id::option")]
    parent: Option<ObjectId>,
    #[serde(with = "oid_bson::object_id::vec")]
    tags: Vec<ObjectId>,
    name: String,
}

/// The same shape with the `bson` crate's type: the reference for the bytes.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Theirs {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
    parent: Option<bson::oid::ObjectId>,
    tags: Vec<bson::oid::ObjectId>,
    name: String,
}

/// The same shape with oid-core's plain serde impl and no helper.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Plain {
    #[serde(rename = "_id")]
    id: ObjectId,
    parent: Option<ObjectId>,
    tags: Vec<ObjectId>,
    name: String,
}

fn ours() -> Ours {
    Ours {
        id: A,
        parent: Some(B),
        tags: vec![B, ObjectId::MIN, ObjectId::MAX],
        name: "n".into(),
    }
}

fn theirs(o: &Ours) -> Theirs {
    Theirs {
        id: o.id.to_bson(),
        parent: o.parent.map(|p| p.to_bson()),
        tags: o.tags.iter().map(ToBson::to_bson).collect(),
        name: o.name.clone(),
    }
}

fn expected_doc() -> Document {
    doc! {
        "_id": A.to_bson(),
        "parent": B.to_bson(),
        "tags": [B.to_bson(), ObjectId::MIN.to_bson(), ObjectId::MAX.to_bson()],
        "name": "n",
    }
}

#[test]
fn to_bytes_is_object_id_elements_identical_to_bsons_own_type() {
    let value = ours();
    let bytes = bson::serialize_to_vec(&value).unwrap();
    assert_eq!(bytes, bson::serialize_to_vec(&theirs(&value)).unwrap());

    let raw = RawDocument::from_bytes(&bytes).unwrap();
    for key in ["_id", "parent"] {
        let element = raw.get(key).unwrap().unwrap();
        assert_eq!(element.element_type(), ElementType::ObjectId, "{key}");
        assert_eq!(element.element_type() as u8, 0x07);
    }
    let tags = raw.get_array("tags").unwrap();
    for tag in tags {
        assert_eq!(tag.unwrap().element_type(), ElementType::ObjectId);
    }

    assert_eq!(bson::deserialize_from_slice::<Ours>(&bytes).unwrap(), value);
    let raw_buf = bson::serialize_to_raw_document_buf(&value).unwrap();
    assert_eq!(raw_buf.as_bytes(), &bytes[..]);
    assert_eq!(
        bson::deserialize_from_slice::<Ours>(raw_buf.as_bytes()).unwrap(),
        value
    );
}

#[test]
fn to_document_and_bson_are_object_id_values() {
    let value = ours();
    let doc = bson::serialize_to_document(&value).unwrap();
    assert_eq!(doc, expected_doc());
    assert_eq!(doc, bson::serialize_to_document(&theirs(&value)).unwrap());
    assert_eq!(
        bson::serialize_to_bson(&value).unwrap(),
        Bson::Document(expected_doc())
    );
    assert_eq!(
        bson::deserialize_from_document::<Ours>(doc.clone()).unwrap(),
        value
    );
    assert_eq!(
        bson::deserialize_from_bson::<Ours>(Bson::Document(doc)).unwrap(),
        value
    );
    // A lone id, not inside a struct.
    assert_eq!(
        oid_bson::object_id::serialize(&A, bson::Serializer::new()).unwrap(),
        A.to_bson_value()
    );
}

#[test]
fn none_is_null_and_missing_is_none_with_default() {
    let value = Ours {
        parent: None,
        tags: vec![],
        ..ours()
    };
    let doc = bson::serialize_to_document(&value).unwrap();
    assert_eq!(doc.get("parent"), Some(&Bson::Null));
    assert_eq!(doc.get("tags"), Some(&Bson::Array(vec![])));
    let bytes = bson::serialize_to_vec(&value).unwrap();
    assert_eq!(bytes, bson::serialize_to_vec(&theirs(&value)).unwrap());
    assert_eq!(bson::deserialize_from_slice::<Ours>(&bytes).unwrap(), value);
    let missing = doc! { "_id": A.to_bson(), "tags": [], "name": "n" };
    assert_eq!(
        bson::deserialize_from_document::<Ours>(missing).unwrap(),
        value
    );
}

#[test]
fn json_is_plain_strings_and_reads_back() {
    let value = ours();
    let json = serde_json::to_value(&value).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "_id": "56e1fc72e0c917e9c4714161",
            "parent": "507f1f77bcf86cd799439011",
            "tags": [
                "507f1f77bcf86cd799439011",
                "000000000000000000000000",
                "ffffffffffffffffffffffff"
            ],
            "name": "n",
        })
    );
    assert_eq!(serde_json::from_value::<Ours>(json).unwrap(), value);
    // Extended JSON as `bson::oid::ObjectId` writes it reads back too.
    let theirs_json = serde_json::to_string(&theirs(&value)).unwrap();
    assert!(theirs_json.contains(r#""_id":{"$oid":"56e1fc72e0c917e9c4714161"}"#));
    assert_eq!(serde_json::from_str::<Ours>(&theirs_json).unwrap(), value);
}

#[test]
fn reads_what_bsons_own_type_wrote_and_the_other_way() {
    let value = ours();
    let bytes = bson::serialize_to_vec(&theirs(&value)).unwrap();
    assert_eq!(bson::deserialize_from_slice::<Ours>(&bytes).unwrap(), value);
    let back: Theirs =
        bson::deserialize_from_slice(&bson::serialize_to_vec(&value).unwrap()).unwrap();
    assert_eq!(ObjectId::from_bson(back.id), A);
    assert_eq!(back, theirs(&value));
}

#[test]
fn plain_core_impl_reads_bson_object_ids_without_the_helper() {
    let value = ours();
    let expected = Plain {
        id: value.id,
        parent: value.parent,
        tags: value.tags.clone(),
        name: value.name.clone(),
    };
    // From BSON bytes (bson's raw deserializer, not human-readable).
    let bytes = bson::serialize_to_vec(&theirs(&value)).unwrap();
    assert_eq!(
        bson::deserialize_from_slice::<Plain>(&bytes).unwrap(),
        expected
    );
    // From a Document / Bson (bson's value deserializer, human-readable).
    let doc = expected_doc();
    assert_eq!(
        bson::deserialize_from_document::<Plain>(doc.clone()).unwrap(),
        expected
    );
    assert_eq!(
        bson::deserialize_from_bson::<ObjectId>(A.to_bson_value()).unwrap(),
        A
    );
    // A lone id through the raw deserializer.
    let raw = bson::rawdoc! { "v": A.to_bson() };
    let element = raw.get("v").unwrap().unwrap();
    assert_eq!(
        bson::deserialize_from_slice::<std::collections::HashMap<String, ObjectId>>(raw.as_bytes())
            .unwrap()
            .get("v"),
        Some(&A),
        "{element:?}"
    );
}

#[test]
fn plain_core_impl_does_not_write_object_ids_which_is_why_the_helper_exists() {
    let plain = Plain {
        id: A,
        parent: None,
        tags: vec![],
        name: "n".into(),
    };
    let doc = bson::serialize_to_document(&plain).unwrap();
    assert_eq!(doc.get("_id"), Some(&Bson::String(A.to_hex().to_string())));
    let bytes = bson::serialize_to_vec(&plain).unwrap();
    let raw = RawDocument::from_bytes(&bytes).unwrap();
    assert_eq!(
        raw.get("_id").unwrap().unwrap().element_type(),
        ElementType::Binary
    );
}

#[test]
fn wrong_types_and_bad_values_are_errors_with_messages() {
    let cases = [
        (
            doc! { "_id": 5_i32, "tags": [], "name": "n" },
            "invalid type: integer `5`, expected a BSON ObjectId",
        ),
        (
            doc! { "_id": "xyz", "tags": [], "name": "n" },
            "invalid length: expected 24 hex characters, found 3",
        ),
        (
            doc! { "_id": "56e1fc72e0c917e9c471416g", "tags": [], "name": "n" },
            "invalid character 'g' at index 23",
        ),
        (
            doc! { "_id": A.to_bson(), "tags": [1_i32], "name": "n" },
            "invalid type: integer `1`, expected a BSON ObjectId",
        ),
        (
            doc! { "_id": A.to_bson(), "parent": true, "tags": [], "name": "n" },
            "invalid type: boolean `true`, expected a BSON ObjectId",
        ),
        (
            doc! { "_id": { "$oid": 3_i32 }, "tags": [], "name": "n" },
            "expected a string of 24 hex characters as the value of \"$oid\"",
        ),
    ];
    for (doc, needle) in cases {
        let from_doc = bson::deserialize_from_document::<Ours>(doc.clone())
            .unwrap_err()
            .to_string();
        assert!(from_doc.contains(needle), "{doc}: {from_doc}");
        let mut bytes = Vec::new();
        doc.to_writer(&mut bytes).unwrap();
        let from_bytes = bson::deserialize_from_slice::<Ours>(&bytes)
            .unwrap_err()
            .to_string();
        assert!(from_bytes.contains(needle), "{doc}: {from_bytes}");
    }
}

#[test]
fn postcard_round_trips_with_the_helper() {
    let value = ours();
    let bytes = postcard::to_allocvec(&value).unwrap();
    assert_eq!(postcard::from_bytes::<Ours>(&bytes).unwrap(), value);
    // Written as `bson::oid::ObjectId` writes it there: the hex string, so each reads the other.
    assert_eq!(bytes, postcard::to_allocvec(&theirs(&value)).unwrap());
}

/// Documented limitation: CBOR writes the helper's `$oid` struct as a map and ciborium's
/// `deserialize_bytes` refuses a map. `bson::oid::ObjectId` has the same limitation. It is a
/// clean error, and oid-core's plain impl (no helper) round-trips CBOR.
#[test]
fn cbor_with_the_helper_is_an_error_not_a_panic() {
    let value = ours();
    let mut cbor = Vec::new();
    ciborium::into_writer(&value, &mut cbor).unwrap();
    let err = ciborium::from_reader::<Ours, _>(&cbor[..]).unwrap_err();
    assert!(err.to_string().contains("expected bytes"), "{err}");

    let mut theirs_cbor = Vec::new();
    ciborium::into_writer(&theirs(&value), &mut theirs_cbor).unwrap();
    assert_eq!(cbor, theirs_cbor);
    assert!(ciborium::from_reader::<Theirs, _>(&theirs_cbor[..]).is_err());

    let plain = Plain {
        id: A,
        parent: Some(B),
        tags: vec![B],
        name: "n".into(),
    };
    let mut plain_cbor = Vec::new();
    ciborium::into_writer(&plain, &mut plain_cbor).unwrap();
    assert_eq!(
        ciborium::from_reader::<Plain, _>(&plain_cbor[..]).unwrap(),
        plain
    );
}
