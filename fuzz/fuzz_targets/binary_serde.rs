//! Binary serde formats: CBOR (ciborium) and postcard. Deserializing any bytes never panics;
//! whatever is accepted (the 12 bytes, or the 24 hex digits a string-writing serializer leaves)
//! writes back as exactly 12 bytes and reads back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oid_core::ObjectId;
use serde::{Deserialize, Serialize};

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Doc {
    id: ObjectId,
    maybe: Option<ObjectId>,
    many: Vec<ObjectId>,
}

fuzz_target!(|data: &[u8]| {
    // CBOR.
    if let Ok(id) = ciborium::from_reader::<ObjectId, _>(data) {
        let mut out = Vec::new();
        ciborium::into_writer(&id, &mut out).unwrap();
        // A CBOR byte string of 12 bytes: major type 2, length 12, then the id.
        assert_eq!(out.len(), 13);
        assert_eq!(out[0], 0x4c);
        assert_eq!(&out[1..], id.as_bytes());
        assert_eq!(ciborium::from_reader::<ObjectId, _>(out.as_slice()).unwrap(), id);
    }
    if let Ok(doc) = ciborium::from_reader::<Doc, _>(data) {
        let mut out = Vec::new();
        ciborium::into_writer(&doc, &mut out).unwrap();
        assert_eq!(ciborium::from_reader::<Doc, _>(out.as_slice()).unwrap(), doc);
    }
    // postcard.
    if let Ok((id, rest)) = postcard::take_from_bytes::<ObjectId>(data) {
        let out = postcard::to_stdvec(&id).unwrap();
        // A varint length 12, then the id.
        assert_eq!(out.len(), 13);
        assert_eq!(out[0], 12);
        assert_eq!(&out[1..], id.as_bytes());
        // What was read ends with the 12 bytes, or with the 24 hex digits (either case) that a
        // string-writing serializer leaves and the bytes visitor also reads (postcard also
        // reads over-long varints, so the length prefix may be longer than the one it writes).
        let read = &data[..data.len() - rest.len()];
        let raw = read.len() >= 13 && read.ends_with(id.as_bytes());
        let hex = read.len() >= 25
            && read[read.len() - 24..].eq_ignore_ascii_case(id.to_hex().as_str().as_bytes());
        assert!(raw || hex, "{read:?} read as {id}");
        assert_eq!(postcard::from_bytes::<ObjectId>(&out).unwrap(), id);
    }
    if let Ok(doc) = postcard::from_bytes::<Doc>(data) {
        let out = postcard::to_stdvec(&doc).unwrap();
        assert_eq!(postcard::from_bytes::<Doc>(&out).unwrap(), doc);
    }
});
