//! The BSON corpus cases for ObjectId (bson-corpus/tests/oid.json), through every path this
//! crate offers: `oid_bson::ObjectId`, oid-core's plain serde impl and extended-JSON helper, the
//! conversions, and extended JSON.

#![cfg(feature = "bson-3")]

use bson::{Bson, Document, RawDocument};
use oid_bson::NotAnObjectId;
use oid_core::ObjectId;
use serde::{Deserialize, Serialize};

/// `{"a": ObjectId}` with this crate's type (no attribute).
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Newtype {
    a: oid_bson::ObjectId,
}

/// `{"a": ObjectId}` with oid-core's plain serde impl (no helper).
#[derive(Deserialize, PartialEq, Debug)]
struct Plain {
    a: ObjectId,
}

/// `{"a": ObjectId}` with oid-core's extended-JSON helper.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct ExtJson {
    #[serde(with = "oid_core::serde::extended_json")]
    a: ObjectId,
}

/// The id of a BSON value, as oid-core's type.
fn try_from_bson<V>(value: V) -> Result<ObjectId, NotAnObjectId>
where
    oid_bson::ObjectId: TryFrom<V, Error = NotAnObjectId>,
{
    oid_bson::ObjectId::try_from(value).map(|id| id.as_core())
}

struct Valid {
    description: &'static str,
    canonical_bson: &'static str,
    canonical_extjson: &'static str,
    hex: &'static str,
}

const VALID: &[Valid] = &[
    Valid {
        description: "All Zeroes",
        canonical_bson: "1400000007610000000000000000000000000000",
        canonical_extjson: r#"{"a" : {"$oid" : "000000000000000000000000"}}"#,
        hex: "000000000000000000000000",
    },
    Valid {
        description: "All ones",
        canonical_bson: "14000000076100FFFFFFFFFFFFFFFFFFFFFFFF00",
        canonical_extjson: r#"{"a" : {"$oid" : "ffffffffffffffffffffffff"}}"#,
        hex: "ffffffffffffffffffffffff",
    },
    Valid {
        description: "Random",
        canonical_bson: "1400000007610056E1FC72E0C917E9C471416100",
        canonical_extjson: r#"{"a" : {"$oid" : "56e1fc72e0c917e9c4714161"}}"#,
        hex: "56e1fc72e0c917e9c4714161",
    },
];

const TRUNCATED: &str = "1200000007610056E1FC72E0C917E9C471";

fn unhex(s: &str) -> Result<Vec<u8>, std::num::ParseIntError> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16))
        .collect()
}

#[test]
fn valid_cases_decode_and_reencode_byte_for_byte() {
    for case in VALID {
        let bytes = unhex(case.canonical_bson).unwrap();
        let expected = ObjectId::parse_str(case.hex).unwrap();
        let what = case.description;

        // bytes -> struct, with the helper and with the plain impl.
        let with_helper: ExtJson = bson::deserialize_from_slice(&bytes).unwrap();
        assert_eq!(with_helper.a, expected, "{what}: helper");
        let plain: Plain = bson::deserialize_from_slice(&bytes).unwrap();
        assert_eq!(plain.a, expected, "{what}: plain impl");

        // The newtype: bytes -> struct -> exactly the corpus bytes, raw document and Document.
        let newtype: Newtype = bson::deserialize_from_slice(&bytes).unwrap();
        assert_eq!(newtype.a, expected, "{what}: newtype");
        assert_eq!(
            bson::serialize_to_vec(&newtype).unwrap(),
            bytes,
            "{what}: newtype to bytes"
        );
        let raw = bson::serialize_to_raw_document_buf(&newtype).unwrap();
        assert_eq!(
            raw.as_bytes(),
            &bytes[..],
            "{what}: newtype to raw document"
        );
        let doc = bson::serialize_to_document(&newtype).unwrap();
        let mut out = Vec::new();
        doc.to_writer(&mut out).unwrap();
        assert_eq!(out, bytes, "{what}: newtype to Document to bytes");
        assert_eq!(
            bson::deserialize_from_document::<Newtype>(doc).unwrap(),
            newtype
        );

        // struct -> bytes: exactly the corpus bytes.
        assert_eq!(
            bson::serialize_to_vec(&with_helper).unwrap(),
            bytes,
            "{what}: helper to bytes"
        );
        let raw = bson::serialize_to_raw_document_buf(&with_helper).unwrap();
        assert_eq!(raw.as_bytes(), &bytes[..], "{what}: helper to raw document");

        // bytes -> Document -> conversions, and back to the same bytes.
        let doc = Document::from_reader(&bytes[..]).unwrap();
        assert_eq!(
            try_from_bson(doc.get("a").unwrap()),
            Ok(expected),
            "{what}: Bson"
        );
        let raw = RawDocument::from_bytes(&bytes).unwrap();
        assert_eq!(
            try_from_bson(raw.get("a").unwrap().unwrap()),
            Ok(expected),
            "{what}: RawBsonRef"
        );
        let mut rebuilt = Document::new();
        rebuilt.insert("a", Bson::from(oid_bson::ObjectId::from(expected)));
        let mut out = Vec::new();
        rebuilt.to_writer(&mut out).unwrap();
        assert_eq!(out, bytes, "{what}: to_bson_value to bytes");

        // struct <-> Document through bson's `Bson` serializer.
        let via_doc = bson::serialize_to_document(&with_helper).unwrap();
        assert_eq!(via_doc, doc, "{what}: helper to Document");
        assert_eq!(
            bson::serialize_to_bson(&with_helper).unwrap(),
            Bson::Document(doc.clone()),
            "{what}: helper to Bson"
        );
        assert_eq!(
            bson::deserialize_from_document::<ExtJson>(doc.clone()).unwrap(),
            with_helper,
            "{what}: helper from Document"
        );
        assert_eq!(
            bson::deserialize_from_document::<Plain>(doc.clone()).unwrap(),
            plain,
            "{what}: plain impl from Document"
        );
    }
}

#[test]
fn valid_cases_extended_json_canonical_and_relaxed() {
    for case in VALID {
        let bytes = unhex(case.canonical_bson).unwrap();
        let expected = ObjectId::parse_str(case.hex).unwrap();
        let what = case.description;
        let want: serde_json::Value = serde_json::from_str(case.canonical_extjson).unwrap();

        // BSON -> extended JSON: ObjectId has the same form in both modes.
        let doc = Document::from_reader(&bytes[..]).unwrap();
        assert_eq!(
            Bson::Document(doc.clone()).into_canonical_extjson(),
            want,
            "{what}: canonical"
        );
        assert_eq!(
            Bson::Document(doc.clone()).into_relaxed_extjson(),
            want,
            "{what}: relaxed"
        );

        // Extended JSON -> BSON -> our type, then back to the corpus bytes.
        let parsed = Bson::try_from(want.clone()).unwrap();
        let from_ext: ExtJson = bson::deserialize_from_bson(parsed.clone()).unwrap();
        assert_eq!(from_ext.a, expected, "{what}: helper from extended JSON");
        let newtype: Newtype = bson::deserialize_from_bson(parsed.clone()).unwrap();
        assert_eq!(newtype.a, expected, "{what}: newtype from extended JSON");
        let newtype: Newtype = serde_json::from_str(case.canonical_extjson).unwrap();
        assert_eq!(newtype.a, expected, "{what}: newtype from JSON text");
        assert_eq!(
            serde_json::to_value(&newtype).unwrap(),
            serde_json::json!({ "a": case.hex }),
            "{what}: newtype to JSON"
        );
        assert_eq!(bson::serialize_to_vec(&from_ext).unwrap(), bytes, "{what}");

        // oid-core's type straight from the extended-JSON text with serde_json, and written back
        // as extended JSON by oid-core's helper.
        let plain: ExtJson = serde_json::from_str(case.canonical_extjson).unwrap();
        assert_eq!(plain.a, expected, "{what}: extended_json from JSON text");
        assert_eq!(
            serde_json::to_value(&plain).unwrap(),
            want,
            "{what}: extended_json out"
        );
    }
}

#[test]
fn truncated_document_is_an_error_not_a_panic() {
    let bytes = unhex(TRUNCATED).unwrap();
    assert!(bson::deserialize_from_slice::<ExtJson>(&bytes).is_err());
    assert!(bson::deserialize_from_slice::<Plain>(&bytes).is_err());
    assert!(bson::deserialize_from_slice::<Newtype>(&bytes).is_err());
    assert!(Document::from_reader(&bytes[..]).is_err());
    // The raw view accepts the header lazily; reading the element must fail, not panic.
    let element = RawDocument::from_bytes(&bytes).map(|doc| doc.get("a"));
    assert!(!matches!(element, Ok(Ok(Some(_)))), "{element:?}");
    // Every shorter prefix of a valid document is an error too.
    let full = unhex(VALID[2].canonical_bson).unwrap();
    for len in 0..full.len() {
        assert!(
            bson::deserialize_from_slice::<ExtJson>(&full[..len]).is_err(),
            "prefix of {len} bytes"
        );
        assert!(
            bson::deserialize_from_slice::<Newtype>(&full[..len]).is_err(),
            "newtype, prefix of {len} bytes"
        );
    }
}

#[test]
fn non_object_id_elements_are_rejected_by_name() {
    let doc = bson::doc! { "a": "56e1fc72e0c917e9c4714161", "b": 1.5, "c": [] };
    let err = |key: &str| {
        try_from_bson(doc.get(key).unwrap())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(err("a"), "expected a BSON ObjectId, found a string");
    assert_eq!(err("b"), "expected a BSON ObjectId, found a double");
    assert_eq!(err("c"), "expected a BSON ObjectId, found an array");
    let e: NotAnObjectId = try_from_bson(&Bson::Int32(1)).unwrap_err();
    assert_eq!(e.element_type(), Some(bson::spec::ElementType::Int32 as u8));
}
