//! The `serde_helpers::object_id` adapters: with `#[serde(with)]` (always) and nested under
//! `#[serde_as]` (feature `serde_with`), through JSON and bson 3.

#![cfg(feature = "bson-3")]

use bson::{Bson, RawDocument, doc, spec::ElementType};
use oid_bson::serde_helpers::object_id::{AsHexString, ExtendedJson, FromHexString};
use oid_bson::{ObjectId, oid};
use serde::{Deserialize, Serialize};

const A: ObjectId = oid!("56e1fc72e0c917e9c4714161");

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct With {
    #[serde(with = "AsHexString")]
    text_id: ObjectId,
    #[serde(with = "AsHexString")]
    other_text_id: ObjectId,
    #[serde(with = "FromHexString")]
    owner: String,
    #[serde(with = "ExtendedJson")]
    legacy: ObjectId,
}

fn with() -> With {
    With {
        text_id: A,
        other_text_id: A,
        owner: A.to_hex(),
        legacy: A,
    }
}

#[test]
fn with_attributes_store_what_they_say() {
    let bytes = bson::serialize_to_vec(&with()).unwrap();
    let raw = RawDocument::from_bytes(&bytes).unwrap();
    let types: Vec<_> = ["text_id", "other_text_id", "owner", "legacy"]
        .iter()
        .map(|k| raw.get(k).unwrap().unwrap().element_type())
        .collect();
    assert_eq!(
        types,
        [
            ElementType::String,
            ElementType::String,
            ElementType::ObjectId,
            ElementType::ObjectId
        ]
    );
    assert_eq!(
        bson::deserialize_from_slice::<With>(&bytes).unwrap(),
        with()
    );
    let doc = bson::serialize_to_document(&with()).unwrap();
    assert_eq!(doc.get("owner"), Some(&Bson::from(A)));
    assert_eq!(
        bson::deserialize_from_document::<With>(doc).unwrap(),
        with()
    );

    let json = serde_json::to_value(with()).unwrap();
    assert_eq!(json["legacy"]["$oid"], "56e1fc72e0c917e9c4714161");
    assert_eq!(json["owner"], "56e1fc72e0c917e9c4714161");
    assert_eq!(serde_json::from_value::<With>(json).unwrap(), with());

    // FromHexString reads a native id written by bson's own type into the String.
    let theirs = doc! { "text_id": A.to_hex(), "other_text_id": A.to_hex(), "owner": bson::oid::ObjectId::from(A), "legacy": A };
    assert_eq!(
        bson::deserialize_from_document::<With>(theirs).unwrap(),
        with()
    );
}

#[test]
fn from_hex_string_rejects_bad_strings_when_writing() {
    let mut bad = with();
    bad.owner = "not hex".into();
    let err = bson::serialize_to_vec(&bad).unwrap_err();
    assert!(
        err.to_string()
            .contains("invalid length: expected 24 hex characters, found 7"),
        "{err}"
    );
}

#[cfg(feature = "serde_with")]
#[test]
fn nested_under_serde_as() {
    use serde_with::serde_as;

    #[serde_as]
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Nested {
        #[serde_as(as = "Option<AsHexString>")]
        maybe_text: Option<ObjectId>,
        #[serde_as(as = "Vec<FromHexString>")]
        owners: Vec<String>,
        #[serde_as(as = "Option<ExtendedJson>")]
        legacy: Option<ObjectId>,
    }

    let value = Nested {
        maybe_text: Some(A),
        owners: vec![A.to_hex(), "507f1f77bcf86cd799439011".into()],
        legacy: Some(A),
    };
    let bytes = bson::serialize_to_vec(&value).unwrap();
    let raw = RawDocument::from_bytes(&bytes).unwrap();
    assert_eq!(
        raw.get("maybe_text").unwrap().unwrap().element_type(),
        ElementType::String
    );
    let owners = raw.get_array("owners").unwrap();
    assert!(
        owners
            .into_iter()
            .all(|o| o.unwrap().element_type() == ElementType::ObjectId)
    );
    assert_eq!(
        raw.get("legacy").unwrap().unwrap().element_type(),
        ElementType::ObjectId
    );
    assert_eq!(
        bson::deserialize_from_slice::<Nested>(&bytes).unwrap(),
        value
    );
    let json = serde_json::to_string(&value).unwrap();
    assert!(
        json.contains(r#""legacy":{"$oid":"56e1fc72e0c917e9c4714161"}"#),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<Nested>(&json).unwrap(), value);
}
