//! Every model shape through every serializer path of bson 3 and bson 2, with whichever oid-bson
//! features this build has, for each of our id types (`oid_bson`, `oid_core`, `oid_std`): each id
//! is an ObjectId element (`0x07`, checked with bson 3's
//! `RawDocument`), the bytes equal those of the same model with `bson::oid::ObjectId`, and the
//! value reads back through both bson versions. JSON stays a hex string. Extra keys beside
//! `$oid` are an error on every path.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use std::collections::HashMap;
use std::fmt::Debug;

use bson::{RawBsonRef, RawDocument};
use oid_bson::ObjectId;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize, Serializer};

const A: ObjectId = oid_bson::oid!("56e1fc72e0c917e9c4714161");
const B: ObjectId = oid_bson::oid!("507f1f77bcf86cd799439011");

/// bson's own type: the reference for the bytes (it writes the `$oid` struct everywhere, which
/// every bson serializer turns into an ObjectId element).
type Theirs = bson::oid::ObjectId;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Plain<I> {
    #[serde(rename = "_id")]
    id: I,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Opt<I> {
    id: Option<I>,
    none: Option<I>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Many<I> {
    ids: Vec<I>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Map<I> {
    by_name: HashMap<String, I>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Boxed<I> {
    id: Box<I>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Tuple<I> {
    pair: (I, i32),
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Inner<I> {
    owner: I,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Nested<I> {
    inner: Inner<I>,
    list: Vec<Inner<I>>,
}

/// Externally tagged (serde's default).
#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum External<I> {
    One(I),
    Two { left: I, right: I },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Ext<I> {
    a: External<I>,
    b: External<I>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "kind")]
enum Internal<I> {
    Ref { id: I },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Int<I> {
    r: Internal<I>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "kind", content = "value")]
enum Adjacent<I> {
    Ref(I),
    Pair { left: I },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Adj<I> {
    a: Adjacent<I>,
    b: Adjacent<I>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(untagged)]
enum Untagged<I> {
    Ref { id: I },
    Text(String),
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Unt<I> {
    u: Untagged<I>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Flat<I> {
    #[serde(flatten)]
    inner: Inner<I>,
    n: i32,
}

/// Serializes the value through `serde_path_to_error`, so that the serializer our impl sees is
/// `serde_path_to_error::Serializer<…>` around whichever serializer the path uses (bson's own
/// `serde_path_to_error` feature does the same inside bson).
struct PathToError<'a, T>(&'a T);

impl<T: Serialize> Serialize for PathToError<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_path_to_error::serialize(self.0, serializer).map_err(|e| e.into_inner())
    }
}

fn bson3_document_bytes(value: bson::Bson) -> Vec<u8> {
    match value {
        bson::Bson::Document(doc) => doc.to_vec().unwrap(),
        other => panic!("expected a document, got {other:?}"),
    }
}

fn bson2_document_bytes(value: bson2::Bson) -> Vec<u8> {
    match value {
        bson2::Bson::Document(doc) => {
            let mut out = Vec::new();
            doc.to_writer(&mut out).unwrap();
            out
        }
        other => panic!("expected a document, got {other:?}"),
    }
}

/// Every serializer path of both bson versions, as BSON bytes.
fn paths<T: Serialize>(value: &T) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("bson 3 bytes", bson::serialize_to_vec(value).unwrap()),
        (
            "bson 3 raw document",
            bson::serialize_to_raw_document_buf(value)
                .unwrap()
                .into_bytes(),
        ),
        (
            "bson 3 Document",
            bson::serialize_to_document(value)
                .unwrap()
                .to_vec()
                .unwrap(),
        ),
        (
            "bson 3 Bson",
            bson3_document_bytes(bson::serialize_to_bson(value).unwrap()),
        ),
        (
            "bson 3 Serializer wrapped by serde_path_to_error",
            bson3_document_bytes(
                serde_path_to_error::serialize(value, bson::Serializer::new()).unwrap(),
            ),
        ),
        ("bson 2 bytes", bson2::to_vec(value).unwrap()),
        (
            "bson 2 raw document",
            bson2::to_raw_document_buf(value).unwrap().into_bytes(),
        ),
        (
            "bson 2 Document",
            bson2_document_bytes(bson2::Bson::Document(bson2::to_document(value).unwrap())),
        ),
        (
            "bson 2 Bson",
            bson2_document_bytes(bson2::to_bson(value).unwrap()),
        ),
        (
            "bson 2 Serializer wrapped by serde_path_to_error",
            bson2_document_bytes(
                serde_path_to_error::serialize(value, bson2::Serializer::new()).unwrap(),
            ),
        ),
    ]
}

/// [`paths`] for the value as it is, through `serde_path_to_error`, and inside each bson's
/// `HumanReadable`.
fn all_paths<T: Serialize>(value: &T) -> Vec<(String, Vec<u8>)> {
    let wrapped = [
        ("", paths(value)),
        (
            ", value through serde_path_to_error",
            paths(&PathToError(value)),
        ),
        (
            ", inside bson 3's HumanReadable",
            paths(&bson::serde_helpers::HumanReadable(value)),
        ),
        (
            ", inside bson 2's HumanReadable",
            paths(&bson2::serde_helpers::HumanReadable(value)),
        ),
    ];
    wrapped
        .into_iter()
        .flat_map(|(how, list)| {
            list.into_iter()
                .map(move |(path, bytes)| (format!("{path}{how}"), bytes))
        })
        .collect()
}

/// Counts the ObjectId elements at any depth, and fails on an id stored any other way (a string
/// holding an id's hex, or binary data).
fn object_ids(doc: &RawDocument, what: &str) -> usize {
    let mut n = 0;
    for element in doc {
        let (key, value) = element.unwrap();
        n += match value {
            RawBsonRef::ObjectId(_) => 1,
            RawBsonRef::Document(inner) => object_ids(inner, what),
            RawBsonRef::Array(array) => {
                let mut m = 0;
                for item in array {
                    m += match item.unwrap() {
                        RawBsonRef::ObjectId(_) => 1,
                        RawBsonRef::Document(inner) => object_ids(inner, what),
                        RawBsonRef::String(s) => {
                            assert!(
                                !is_id_hex(s),
                                "{what}: an id stored as a string in an array"
                            );
                            0
                        }
                        RawBsonRef::Binary(_) => panic!("{what}: binary data in an array"),
                        _ => 0,
                    };
                }
                m
            }
            RawBsonRef::String(s) => {
                assert!(
                    !is_id_hex(s),
                    "{what}: {} is an id stored as a string",
                    key.as_str()
                );
                0
            }
            RawBsonRef::Binary(_) => panic!("{what}: {} is binary data", key.as_str()),
            _ => 0,
        };
    }
    n
}

fn is_id_hex(s: &str) -> bool {
    s.eq_ignore_ascii_case(&A.to_hex()) || s.eq_ignore_ascii_case(&B.to_hex())
}

/// Checks one shape: `ours` (with `oid_bson::ObjectId`) and `theirs` (the same with bson's type)
/// hold `ids` ids.
fn check<O, T>(shape: &str, ours: &O, theirs: &T, ids: usize)
where
    O: Serialize + DeserializeOwned + PartialEq + Debug,
    T: Serialize,
{
    let reference: HashMap<String, Vec<u8>> = all_paths(theirs).into_iter().collect();
    let all = all_paths(ours);
    assert_eq!(all.len(), 40);
    for (path, bytes) in all {
        let what = format!("{shape} via {path}");
        let doc = RawDocument::from_bytes(&bytes).unwrap();
        assert_eq!(object_ids(doc, &what), ids, "{what}: ObjectId elements");
        assert_eq!(
            Some(&bytes),
            reference.get(&path),
            "{what}: bytes differ from bson's own type"
        );
        assert_eq!(
            &bson::deserialize_from_slice::<O>(&bytes).unwrap(),
            ours,
            "{what}: read back by bson 3"
        );
        assert_eq!(
            &bson2::from_slice::<O>(&bytes).unwrap(),
            ours,
            "{what}: read back by bson 2"
        );
    }

    // JSON (also through serde_path_to_error): the plain hex strings, and they read back.
    let json = serde_json::to_string(ours).unwrap();
    let mut wrapped = Vec::new();
    serde_path_to_error::serialize(ours, &mut serde_json::Serializer::new(&mut wrapped)).unwrap();
    assert_eq!(
        json.as_bytes(),
        &wrapped[..],
        "{shape}: JSON through serde_path_to_error"
    );
    assert!(!json.contains("$oid"), "{shape}: {json}");
    assert!(json.contains(&format!("\"{A}\"")), "{shape}: {json}");
    assert_eq!(
        &serde_json::from_str::<O>(&json).unwrap(),
        ours,
        "{shape}: JSON"
    );
}

/// Runs [`check`] on a shape built from one expression for each of our id types
/// (`oid_bson::ObjectId`, `oid_core::ObjectId`, `oid_std::ObjectId`) and for bson's: `$id` turns
/// an id into the type at hand.
macro_rules! check_shape {
    ($shape:literal, $ids:literal, |$id:ident| $value:expr) => {{
        check_shape!(@one ObjectId, $shape, $ids, |$id| $value);
        check_shape!(@one oid_core::ObjectId, $shape, $ids, |$id| $value);
        check_shape!(@one oid_std::ObjectId, $shape, $ids, |$id| $value);
    }};
    (@one $ty:ty, $shape:literal, $ids:literal, |$id:ident| $value:expr) => {{
        let $id = |o: ObjectId| <$ty>::from(o);
        let ours = $value;
        let $id = |o: ObjectId| Theirs::from_bytes(o.bytes());
        let theirs = $value;
        check(
            concat!(stringify!($ty), ", ", $shape),
            &ours,
            &theirs,
            $ids,
        );
    }};
}

#[test]
fn every_shape_through_every_path_is_object_id_elements() {
    check_shape!("plain", 1, |id| Plain { id: id(A) });
    check_shape!("Option", 1, |id| Opt {
        id: Some(id(A)),
        none: None
    });
    check_shape!("Vec", 2, |id| Many {
        ids: vec![id(A), id(B)]
    });
    check_shape!("HashMap", 1, |id| Map {
        by_name: HashMap::from([("ada".to_owned(), id(A))])
    });
    check_shape!("Box", 1, |id| Boxed {
        id: Box::new(id(A))
    });
    check_shape!("tuple", 1, |id| Tuple { pair: (id(A), 7) });
    check_shape!("nested struct", 3, |id| Nested {
        inner: Inner { owner: id(A) },
        list: vec![Inner { owner: id(B) }, Inner { owner: id(A) }],
    });
    check_shape!("externally tagged enum", 3, |id| Ext {
        a: External::One(id(A)),
        b: External::Two {
            left: id(A),
            right: id(B)
        },
    });
    check_shape!("internally tagged enum", 1, |id| Int {
        r: Internal::Ref { id: id(A) }
    });
    check_shape!("adjacently tagged enum", 2, |id| Adj {
        a: Adjacent::Ref(id(A)),
        b: Adjacent::Pair { left: id(B) },
    });
    check_shape!("untagged enum", 1, |id| Unt {
        u: Untagged::Ref { id: id(A) }
    });
    check_shape!("flatten", 1, |id| Flat {
        inner: Inner { owner: id(A) },
        n: 3
    });
}

/// A bare id of each of our types through each `Bson` serializer, also wrapped and inside
/// `HumanReadable`: `Bson::ObjectId`; JSON: the hex string.
fn bare_id<I: Serialize + From<ObjectId>>(what: &str) {
    let a = I::from(A);
    let theirs3 = bson::Bson::ObjectId(Theirs::from_bytes(A.bytes()));
    assert_eq!(bson::serialize_to_bson(&a).unwrap(), theirs3, "{what}");
    assert_eq!(
        serde_path_to_error::serialize(&a, bson::Serializer::new()).unwrap(),
        theirs3,
        "{what}"
    );
    assert_eq!(
        bson::serialize_to_bson(&bson::serde_helpers::HumanReadable(&a)).unwrap(),
        theirs3,
        "{what}"
    );
    let theirs2 = bson2::Bson::ObjectId(bson2::oid::ObjectId::from_bytes(A.bytes()));
    assert_eq!(bson2::to_bson(&a).unwrap(), theirs2, "{what}");
    assert_eq!(
        serde_path_to_error::serialize(&a, bson2::Serializer::new()).unwrap(),
        theirs2,
        "{what}"
    );
    assert_eq!(
        bson2::to_bson(&bson2::serde_helpers::HumanReadable(&a)).unwrap(),
        theirs2,
        "{what}"
    );
    assert_eq!(
        serde_json::to_value(&a).unwrap(),
        serde_json::json!(A.to_hex()),
        "{what}"
    );
}

#[test]
fn a_bare_id_is_an_object_id_value() {
    bare_id::<ObjectId>("oid_bson");
    bare_id::<oid_core::ObjectId>("oid_core");
    bare_id::<oid_std::ObjectId>("oid_std");
}

/// A map keyed by ids: BSON keys are strings, and every id type (bson's too) writes an ObjectId
/// to bson's key serializers, so every bson path refuses the map with an error (never a
/// silent string). JSON writes the hex string as the key with ours; bson's type writes its
/// `{"$oid"}` map there, which JSON refuses as a key.
fn id_keys<I: Serialize + Eq + std::hash::Hash>(what: &str, from_bytes: fn([u8; 12]) -> I) {
    #[derive(Serialize)]
    struct Keyed<I: Eq + std::hash::Hash> {
        by_id: HashMap<I, i32>,
    }
    let value = Keyed {
        by_id: HashMap::from([(from_bytes(A.bytes()), 1)]),
    };
    let results: Vec<(&str, bool)> = vec![
        ("bson 3 bytes", bson::serialize_to_vec(&value).is_err()),
        (
            "bson 3 Document",
            bson::serialize_to_document(&value).is_err(),
        ),
        (
            "bson 3 bytes in HumanReadable",
            bson::serialize_to_vec(&bson::serde_helpers::HumanReadable(&value)).is_err(),
        ),
        ("bson 2 bytes", bson2::to_vec(&value).is_err()),
        ("bson 2 Document", bson2::to_document(&value).is_err()),
        (
            "bson 2 bytes, wrapped",
            bson2::to_vec(&PathToError(&value)).is_err(),
        ),
    ];
    for (path, refused) in results {
        assert!(refused, "{what}: {path} accepted an id as a key");
    }
    let json = serde_json::to_string(&value).map_err(|e| e.to_string());
    if what == "bson's own" {
        assert_eq!(json, Err("key must be a string".to_owned()));
    } else {
        assert_eq!(json, Ok(format!(r#"{{"by_id":{{"{A}":1}}}}"#)), "{what}");
    }
}

#[test]
fn ids_as_map_keys_are_an_error_in_bson_as_with_bsons_own_type() {
    id_keys("oid_bson", ObjectId::from_bytes);
    id_keys("oid_core", oid_core::ObjectId::from_bytes);
    id_keys("oid_std", oid_std::ObjectId::from_bytes);
    id_keys("bson's own", Theirs::from_bytes);
}

/// `{"_id": <value>}` as bytes, through bson 3.
fn with_id(value: bson::RawDocumentBuf) -> Vec<u8> {
    let mut doc = bson::RawDocumentBuf::new();
    doc.append(bson::raw::cstr!("_id"), value);
    doc.into_bytes()
}

fn oid_doc(extra: Option<(&bson::raw::CStr, i32)>, duplicate: bool) -> bson::RawDocumentBuf {
    let mut doc = bson::RawDocumentBuf::new();
    doc.append(bson::raw::cstr!("$oid"), A.to_hex());
    if duplicate {
        doc.append(bson::raw::cstr!("$oid"), B.to_hex());
    }
    if let Some((key, value)) = extra {
        doc.append(key, value);
    }
    doc
}

/// Reads `bytes` into each shape that holds an id under `_id` (plain, and the buffered shapes
/// `flatten` and `untagged`) through every reading path of both bson versions, and `doc2` (the
/// same document built with bson 2's `doc!`: bson 2's `Document::from_reader` itself reads
/// `{"$oid": …, "x": 1}` as an ObjectId, dropping `x`, before any type sees it) through bson 2's
/// `Document` and `Bson` paths. Whether each path read it.
fn read_everywhere(bytes: &[u8], doc2: Option<bson2::Document>) -> Vec<(&'static str, bool)> {
    #[derive(Deserialize, Debug)]
    struct FlatId {
        #[serde(flatten)]
        #[allow(dead_code, reason = "read only")]
        inner: Plain<ObjectId>,
    }
    #[derive(Deserialize, Debug)]
    #[serde(untagged)]
    enum UntaggedId {
        #[allow(dead_code, reason = "read only")]
        Id {
            #[serde(rename = "_id")]
            id: ObjectId,
        },
    }
    let doc3 = bson::Document::from_reader(bytes);
    let mut out = vec![
        (
            "bson 3 bytes",
            bson::deserialize_from_slice::<Plain<ObjectId>>(bytes).is_ok(),
        ),
        (
            "bson 3 bytes, flatten",
            bson::deserialize_from_slice::<FlatId>(bytes).is_ok(),
        ),
        (
            "bson 3 bytes, untagged",
            bson::deserialize_from_slice::<UntaggedId>(bytes).is_ok(),
        ),
        (
            "bson 2 bytes",
            bson2::from_slice::<Plain<ObjectId>>(bytes).is_ok(),
        ),
        (
            "bson 2 bytes, flatten",
            bson2::from_slice::<FlatId>(bytes).is_ok(),
        ),
        (
            "bson 2 bytes, untagged",
            bson2::from_slice::<UntaggedId>(bytes).is_ok(),
        ),
    ];
    if let Ok(doc) = doc3 {
        out.extend([
            (
                "bson 3 Document",
                bson::deserialize_from_document::<Plain<ObjectId>>(doc.clone()).is_ok(),
            ),
            (
                "bson 3 Document, flatten",
                bson::deserialize_from_document::<FlatId>(doc.clone()).is_ok(),
            ),
            (
                "bson 3 Document, untagged",
                bson::deserialize_from_document::<UntaggedId>(doc.clone()).is_ok(),
            ),
            (
                "bson 3 Bson",
                bson::deserialize_from_bson::<Plain<ObjectId>>(bson::Bson::Document(doc)).is_ok(),
            ),
        ]);
    }
    if let Some(doc) = doc2 {
        out.extend([
            (
                "bson 2 Document",
                bson2::from_document::<Plain<ObjectId>>(doc.clone()).is_ok(),
            ),
            (
                "bson 2 Document, flatten",
                bson2::from_document::<FlatId>(doc.clone()).is_ok(),
            ),
            (
                "bson 2 Document, untagged",
                bson2::from_document::<UntaggedId>(doc.clone()).is_ok(),
            ),
            (
                "bson 2 Bson",
                bson2::from_bson::<Plain<ObjectId>>(bson2::Bson::Document(doc)).is_ok(),
            ),
        ]);
    }
    out
}

#[test]
fn extra_keys_beside_oid_are_an_error_on_every_path() {
    // The control: `{"$oid": hex}` alone is read on every path (as an embedded document, the
    // form extended JSON and buffered shapes give), and so is a native id.
    let hex = A.to_hex();
    let alone = with_id(oid_doc(None, false));
    let read = read_everywhere(&alone, Some(bson2::doc! { "_id": { "$oid": &hex } }));
    assert_eq!(read.len(), 14);
    assert!(read.iter().all(|(_, ok)| *ok), "{read:?}");
    let native = bson::serialize_to_vec(&Plain { id: A }).unwrap();
    let read = read_everywhere(
        &native,
        Some(bson2::doc! { "_id": bson2::oid::ObjectId::from_bytes(A.bytes()) }),
    );
    assert!(read.iter().all(|(_, ok)| *ok), "{read:?}");

    let mut before = bson::RawDocumentBuf::new();
    before.append(bson::raw::cstr!("x"), 1);
    before.append(bson::raw::cstr!("$oid"), A.to_hex());
    for (case, bytes, doc2) in [
        (
            "an extra key after $oid",
            with_id(oid_doc(Some((bson::raw::cstr!("x"), 1)), false)),
            Some(bson2::doc! { "_id": { "$oid": &hex, "x": 1 } }),
        ),
        (
            "an extra key before $oid",
            with_id(before),
            Some(bson2::doc! { "_id": { "x": 1, "$oid": &hex } }),
        ),
        // A `Document` keeps one of duplicated keys, so the duplicate reaches only the bytes
        // paths (and bson 3's `Document` paths see one key).
        ("a duplicated $oid", with_id(oid_doc(None, true)), None),
    ] {
        let read = read_everywhere(&bytes, doc2);
        assert!(read.len() >= 10, "{case}: {read:?}");
        for (path, ok) in read {
            if case == "a duplicated $oid" && !path.contains("bytes") {
                continue;
            }
            assert!(!ok, "{case}: {path} accepted it");
        }
    }

    // JSON.
    let json = format!(r#"{{"_id":{{"$oid":"{A}","x":1}}}}"#);
    let err = serde_json::from_str::<Plain<ObjectId>>(&json).unwrap_err();
    assert!(
        err.to_string()
            .contains("unexpected extra key beside \"$oid\""),
        "{err}"
    );
}
