//! Tests of oid-core's BSON serializer rule (`oid-core/src/external/serde_support/bson_rule.rs`)
//! on the names the compiler gives real serializer types. The rule reads
//! `core::any::type_name`, whose output std calls best effort, free to change between
//! releases; `cargo xtask type-name` builds this crate alone (oid-core with `serde`, bson 3,
//! serde_json) on the newest stable and on beta, so a compiler that spells type names
//! differently fails CI. The library is empty.

#[cfg(test)]
mod tests {
    use core::any::type_name;

    use bson::{Bson, RawBsonRef, RawDocument};
    use oid_core::serde::{ExtendedJsonIds, is_bson_serializer};
    use oid_core::{ObjectId, oid};
    use serde::Serialize;
    use serde_json::json;

    const ID: ObjectId = oid!("507f1f77bcf86cd799439011");
    const HEX: &str = "507f1f77bcf86cd799439011";

    #[derive(Serialize)]
    struct Doc {
        #[serde(rename = "_id")]
        id: ObjectId,
        items: Vec<ObjectId>,
    }

    /// `#[serde(flatten)]`: the id sees serde's `FlatMapSerializer` around the map serializer.
    #[derive(Serialize)]
    struct Flat {
        n: u8,
        #[serde(flatten)]
        doc: Doc,
    }

    fn doc() -> Doc {
        Doc {
            id: ID,
            items: vec![ID],
        }
    }

    fn native() -> Bson {
        Bson::ObjectId(bson::oid::ObjectId::from_bytes(ID.bytes()))
    }

    /// The verdict on each type, with the name the compiler gave it in the message.
    fn bson_verdict<S: ?Sized>(expected: bool) {
        assert_eq!(is_bson_serializer::<S>(), expected, "{}", type_name::<S>());
    }

    #[test]
    fn verdicts_on_real_serializer_types() {
        bson_verdict::<bson::Serializer>(true);
        bson_verdict::<&mut bson::Serializer>(true);
        bson_verdict::<serde_json::value::Serializer>(false);
        bson_verdict::<&mut serde_json::Serializer<Vec<u8>>>(false);
        // A bson type as a JSON serializer's writer does not make it bson's.
        bson_verdict::<&mut serde_json::Serializer<bson::RawDocumentBuf>>(false);
    }

    /// bson's two serializers (to a `Document` and to bytes), also through `#[serde(flatten)]`,
    /// get native ObjectId elements: each id decided by its serializer's type name.
    #[test]
    fn bson_stores_object_ids() {
        let d = bson::serialize_to_document(&doc()).unwrap();
        assert_eq!(d.get("_id"), Some(&native()));
        assert_eq!(d.get("items"), Some(&Bson::Array(vec![native()])));

        let bytes = bson::serialize_to_vec(&doc()).unwrap();
        let raw = RawDocument::from_bytes(&bytes).unwrap();
        assert!(
            matches!(raw.get("_id"), Ok(Some(RawBsonRef::ObjectId(_)))),
            "{raw:?}"
        );

        let flat = Flat { n: 1, doc: doc() };
        let d = bson::serialize_to_document(&flat).unwrap();
        assert_eq!(d.get("_id"), Some(&native()));
        let bytes = bson::serialize_to_vec(&flat).unwrap();
        let raw = RawDocument::from_bytes(&bytes).unwrap();
        assert!(
            matches!(raw.get("_id"), Ok(Some(RawBsonRef::ObjectId(_)))),
            "{raw:?}"
        );

        // Inside oid-core's own wrapper, around bson's serializer.
        let d = bson::serialize_to_document(&ExtendedJsonIds(&doc())).unwrap();
        assert_eq!(d.get("_id"), Some(&native()));
    }

    /// Everything else gets hex strings; oid-core's wrapper (`ExtendedJsonIds`, also through
    /// `#[serde(flatten)]`) gets extended JSON.
    #[test]
    fn json_gets_hex_or_extended_json() {
        assert_eq!(
            serde_json::to_value(doc()).unwrap(),
            json!({ "_id": HEX, "items": [HEX] })
        );
        let oid = json!({ "$oid": HEX });
        assert_eq!(
            serde_json::to_value(ExtendedJsonIds(&doc())).unwrap(),
            json!({ "_id": oid, "items": [oid] })
        );
        assert_eq!(
            serde_json::to_string(&ExtendedJsonIds(Flat { n: 1, doc: doc() })).unwrap(),
            format!(r#"{{"n":1,"_id":{{"$oid":"{HEX}"}},"items":[{{"$oid":"{HEX}"}}]}}"#)
        );
    }
}
