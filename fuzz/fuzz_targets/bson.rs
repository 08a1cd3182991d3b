//! BSON bytes through oid-bson: `oid_bson::ObjectId`, oid-core's plain serde impl, `Document`
//! and `RawDocument` conversions. Never panics, and agrees with
//! `bson::oid::ObjectId` itself: whenever bson reads an ObjectId from the bytes, ours reads the
//! same 12 bytes, and what we write reads back.
#![no_main]

use bson::oid::ObjectId as BsonId;
use libfuzzer_sys::fuzz_target;
use oid_bson::ObjectId;
use serde::{Deserialize, Serialize};

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
    id: oid_core::ObjectId,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Theirs {
    #[serde(rename = "_id")]
    id: BsonId,
    #[serde(default)]
    maybe: Option<BsonId>,
}

fuzz_target!(|data: &[u8]| {
    let theirs = bson::deserialize_from_slice::<Theirs>(data);
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
            assert_eq!(p.id, ObjectId::from(t.id));
        }
    }

    // Documents and raw documents: every ObjectId element converts, nothing else does.
    if let Ok(raw) = bson::RawDocument::from_bytes(data) {
        for elem in raw.iter() {
            let Ok((_, value)) = elem else { break };
            let converted = ObjectId::try_from(value);
            match value {
                bson::RawBsonRef::ObjectId(b) => assert_eq!(converted.unwrap(), ObjectId::from(b)),
                _ => assert!(converted.is_err()),
            }
        }
    }
    if let Ok(doc) = bson::Document::from_reader(data) {
        for (_, value) in &doc {
            let converted = ObjectId::try_from(value);
            match value {
                bson::Bson::ObjectId(b) => {
                    let id = converted.unwrap();
                    assert_eq!(id.bytes(), b.bytes());
                    assert_eq!(BsonId::from(id), *b);
                    assert_eq!(bson::Bson::from(id), *value);
                }
                _ => assert!(converted.is_err()),
            }
        }
    }
});
