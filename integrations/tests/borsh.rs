//! borsh: our ids are written as 12 raw bytes, byte for byte what borsh's own `bson` support
//! writes for `bson::oid::ObjectId` (bson 2.x, the version borsh supports), alone and inside
//! derived structs; each reads what the other wrote.

use borsh::{BorshDeserialize, BorshSerialize};
use proptest::prelude::*;

type CoreId = oid_core::ObjectId;
type BsonId = oid_bson::ObjectId;
type TheirId = bson2::oid::ObjectId;

#[derive(BorshSerialize, BorshDeserialize, Debug, PartialEq)]
struct Ours {
    id: CoreId,
    owner: Option<BsonId>,
    tags: Vec<CoreId>,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, PartialEq)]
struct Theirs {
    id: TheirId,
    owner: Option<TheirId>,
    tags: Vec<TheirId>,
}

proptest! {
    #[test]
    fn same_bytes_as_borsh_bson_support(bytes in any::<[u8; 12]>(), more in proptest::collection::vec(any::<[u8; 12]>(), 0..5)) {
        let ours = borsh::to_vec(&CoreId::from_bytes(bytes)).expect("to a Vec");
        let bson = borsh::to_vec(&BsonId::from_bytes(bytes)).expect("to a Vec");
        let theirs = borsh::to_vec(&TheirId::from_bytes(bytes)).expect("to a Vec");
        prop_assert_eq!(&ours, &theirs);
        prop_assert_eq!(&bson, &theirs);
        prop_assert_eq!(ours.len(), 12);

        let ours = Ours {
            id: CoreId::from_bytes(bytes),
            owner: Some(BsonId::from_bytes(bytes)),
            tags: more.iter().copied().map(CoreId::from_bytes).collect(),
        };
        let theirs = Theirs {
            id: TheirId::from_bytes(bytes),
            owner: Some(TheirId::from_bytes(bytes)),
            tags: more.iter().copied().map(TheirId::from_bytes).collect(),
        };
        let written = borsh::to_vec(&ours).expect("to a Vec");
        prop_assert_eq!(&written, &borsh::to_vec(&theirs).expect("to a Vec"));
        prop_assert_eq!(borsh::from_slice::<Ours>(&written).expect("round trip"), ours);
        prop_assert_eq!(borsh::from_slice::<Theirs>(&written).expect("theirs reads ours"), theirs);
    }
}

#[test]
fn short_input_is_an_error() {
    for len in 0..12 {
        assert!(borsh::from_slice::<CoreId>(&[0u8; 12][..len]).is_err());
        assert!(borsh::from_slice::<BsonId>(&[0u8; 12][..len]).is_err());
    }
    assert!(
        borsh::from_slice::<CoreId>(&[0u8; 13]).is_err(),
        "a byte left over"
    );
}
