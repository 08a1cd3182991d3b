//! BSON bytes through oid-bson: `oid_bson::ObjectId`, the `#[serde(with =
//! "oid_bson::object_id")]` helpers, oid-core's plain serde impl, `Document` and `RawDocument`
//! conversions. Never panics, and agrees with
//! `bson::oid::ObjectId` itself: whenever bson reads an ObjectId from the bytes, ours reads the
//! same 12 bytes, and what we write reads back.
#![no_main]

use bson::oid::ObjectId as BsonId;
use libfuzzer_sys::fuzz_target;
use oid_bson::{FromBson, ToBson};
use oid_core::ObjectId;
use serde::{Deserialize, Serialize};

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Ours {
    #[serde(rename = "_id", with = "oid_bson::object_id")]
    id: ObjectId,
    #[serde(default, with = "oid_bson::object_id::option")]
    maybe: Option<ObjectId>,
}

/// `oid_bson::ObjectId`, no attribute.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Newtype {
    #[serde(rename = "_id")]
    id: oid_bson::ObjectId,
    #[serde(default)]
    maybe: Option<oid_bson::ObjectId>,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Plain {
    #[serde(rename = "_id")]
    id: ObjectId,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Theirs {
    #[serde(rename = "_id")]
    id: BsonId,
    #[serde(default)]
    maybe: Option<BsonId>,
}

fuzz_target!(|data: &[u8]| {
    let ours = bson::deserialize_from_slice::<Ours>(data);
    let theirs = bson::deserialize_from_slice::<Theirs>(data);
    if let Ok(t) = &theirs {
        let o = ours.as_ref().expect("bson read the ids, the helper did not");
        assert_eq!(o.id, ObjectId::from_bson(t.id));
        assert_eq!(o.maybe, t.maybe.map(|m| ObjectId::from_bson(m)));
    }
    if let Ok(o) = &ours {
        let bytes = bson::serialize_to_vec(o).unwrap();
        assert_eq!(&bson::deserialize_from_slice::<Ours>(&bytes).unwrap(), o);
    }
    let newtype = bson::deserialize_from_slice::<Newtype>(data);
    if let Ok(t) = &theirs {
        let n = newtype.as_ref().expect("bson read the ids, oid_bson::ObjectId did not");
        assert_eq!(n.id, t.id);
        assert_eq!(n.maybe.map(BsonId::from), t.maybe);
    }
    if let Ok(n) = &newtype {
        let bytes = bson::serialize_to_vec(n).unwrap();
        assert_eq!(&bson::deserialize_from_slice::<Newtype>(&bytes).unwrap(), n);
    }
    if let Ok(p) = bson::deserialize_from_slice::<Plain>(data) {
        if let Ok(t) = &theirs {
            assert_eq!(p.id, ObjectId::from_bson(t.id));
        }
    }

    // Documents and raw documents: every ObjectId element converts, nothing else does.
    if let Ok(raw) = bson::RawDocument::from_bytes(data) {
        for elem in raw.iter() {
            let Ok((_, value)) = elem else { break };
            let converted = ObjectId::try_from_bson(value);
            match value {
                bson::RawBsonRef::ObjectId(b) => assert_eq!(converted.unwrap(), ObjectId::from_bson(b)),
                _ => assert!(converted.is_err()),
            }
        }
    }
    if let Ok(doc) = bson::Document::from_reader(data) {
        for (_, value) in &doc {
            let converted = ObjectId::try_from_bson(value);
            match value {
                bson::Bson::ObjectId(b) => {
                    let id = converted.unwrap();
                    assert_eq!(id.bytes(), b.bytes());
                    assert_eq!(id.to_bson(), *b);
                    assert_eq!(id.to_bson_value(), *value);
                }
                _ => assert!(converted.is_err()),
            }
        }
    }
});
