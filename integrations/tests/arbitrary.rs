//! arbitrary: a property test that drives `ObjectId: Arbitrary` the way a fuzzer does (an
//! `Unstructured` over random bytes) and checks the ids through the text and serde paths.

use arbitrary::{Arbitrary, Unstructured};
use proptest::prelude::*;

type CoreId = oid_core::ObjectId;
type BsonId = oid_bson::ObjectId;

proptest! {
    #[test]
    fn any_twelve_bytes_make_an_id(data in proptest::collection::vec(any::<u8>(), 12..100)) {
        let mut u = Unstructured::new(&data);
        let id = CoreId::arbitrary(&mut u).expect("12 bytes are enough");
        prop_assert_eq!(&id.bytes()[..], &data[..12]);
        prop_assert_eq!(u.len(), data.len() - 12);

        let hex = id.to_hex();
        prop_assert_eq!(CoreId::parse_str(hex.as_str()).expect("our own output parses"), id);
        prop_assert_eq!(CoreId::parse_str(&hex.to_ascii_uppercase()).expect("upper case parses"), id);
        let json = serde_json::to_string(&id).expect("to JSON");
        prop_assert_eq!(serde_json::from_str::<CoreId>(&json).expect("from JSON"), id);

        let bson = BsonId::arbitrary(&mut Unstructured::new(&data)).expect("12 bytes are enough");
        prop_assert_eq!(CoreId::from(bson), id);
    }

    #[test]
    fn ids_in_collections(data in proptest::collection::vec(any::<u8>(), 0..300)) {
        let ids: Vec<CoreId> = Unstructured::new(&data).arbitrary().expect("any input");
        for id in &ids {
            prop_assert_eq!(CoreId::parse_str(id.to_hex().as_str()).expect("parses"), *id);
        }
    }
}

#[test]
fn size_hint_is_exact() {
    assert_eq!(CoreId::size_hint(0), (12, Some(12)));
    assert_eq!(BsonId::size_hint(0), (12, Some(12)));
}
