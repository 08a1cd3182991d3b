//! serde_json deserialization of `ObjectId`, alone, in a struct, as `Option`, in a `Vec`, and
//! through `oid_core::serde::extended_json`: never panics, and whatever is accepted serializes
//! and reads back to the same value. An accepted string is exactly a valid id.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oid_core::ObjectId;
use serde::{Deserialize, Serialize};

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Doc {
    id: ObjectId,
    #[serde(default)]
    maybe: Option<ObjectId>,
    #[serde(default)]
    many: Vec<ObjectId>,
    #[serde(default, with = "oid_core::serde::extended_json::option")]
    ext: Option<ObjectId>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Ext(#[serde(with = "oid_core::serde::extended_json")] ObjectId);

fuzz_target!(|data: &[u8]| {
    if let Ok(id) = serde_json::from_slice::<ObjectId>(data) {
        let text = serde_json::to_string(&id).unwrap();
        assert_eq!(text, format!("\"{id}\""));
        assert_eq!(serde_json::from_str::<ObjectId>(&text).unwrap(), id);
        // A JSON string that was accepted is a valid id in any case.
        if let Ok(s) = serde_json::from_slice::<String>(data) {
            assert_eq!(ObjectId::parse_str(&s), Ok(id));
        }
    }
    if let Ok(doc) = serde_json::from_slice::<Doc>(data) {
        let text = serde_json::to_string(&doc).unwrap();
        assert_eq!(serde_json::from_str::<Doc>(&text).unwrap(), doc);
    }
    if let Ok(ext) = serde_json::from_slice::<Ext>(data) {
        let text = serde_json::to_string(&ext).unwrap();
        assert_eq!(text, format!("{{\"$oid\":\"{}\"}}", ext.0));
        assert_eq!(serde_json::from_str::<Ext>(&text).unwrap(), ext);
    }
});
