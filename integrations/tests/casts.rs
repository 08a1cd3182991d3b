//! bytemuck and zerocopy: `&[u8]` of 12·n bytes ⇄ `&[ObjectId]` with no copy, for oid-core's
//! and oid-bson's types; every other length fails.

use proptest::prelude::*;
use zerocopy::{FromBytes, IntoBytes};

type CoreId = oid_core::ObjectId;
type BsonId = oid_bson::ObjectId;

/// The ids of `bytes`, copied one by one (what the casts must equal without copying).
fn ids_of(bytes: &[u8]) -> Vec<CoreId> {
    bytes
        .chunks_exact(12)
        .filter_map(|c| CoreId::try_from(c).ok())
        .collect()
}

proptest! {
    #[test]
    fn bytemuck_casts_whole_ids_without_copying(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let core: Result<&[CoreId], _> = bytemuck::try_cast_slice(&bytes);
        let bson: Result<&[BsonId], _> = bytemuck::try_cast_slice(&bytes);
        if bytes.len() % 12 == 0 {
            let core = core.expect("a multiple of 12 bytes");
            let bson = bson.expect("a multiple of 12 bytes");
            prop_assert_eq!(core.as_ptr().cast::<u8>(), bytes.as_ptr());
            prop_assert_eq!(bson.as_ptr().cast::<u8>(), bytes.as_ptr());
            let expected = ids_of(&bytes);
            prop_assert_eq!(core, expected.as_slice());
            prop_assert!(bson.iter().zip(core).all(|(b, c)| CoreId::from(*b) == *c));
            prop_assert_eq!(bytemuck::cast_slice::<CoreId, u8>(core), bytes.as_slice());
            prop_assert_eq!(bytemuck::cast_slice::<BsonId, u8>(bson), bytes.as_slice());
        } else {
            prop_assert!(core.is_err());
            prop_assert!(bson.is_err());
        }
    }

    #[test]
    fn zerocopy_casts_whole_ids_without_copying(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let core = <[CoreId]>::ref_from_bytes(&bytes);
        let bson = <[BsonId]>::ref_from_bytes(&bytes);
        if bytes.len() % 12 == 0 {
            let core = core.expect("a multiple of 12 bytes");
            let bson = bson.expect("a multiple of 12 bytes");
            prop_assert_eq!(core.as_ptr().cast::<u8>(), bytes.as_ptr());
            prop_assert_eq!(bson.as_ptr().cast::<u8>(), bytes.as_ptr());
            let expected = ids_of(&bytes);
            prop_assert_eq!(core, expected.as_slice());
            prop_assert_eq!(core.as_bytes(), bytes.as_slice());
            prop_assert_eq!(bson.as_bytes(), bytes.as_slice());
        } else {
            prop_assert!(core.is_err());
            prop_assert!(bson.is_err());
        }
    }
}

#[test]
fn mutable_casts_write_through() {
    let mut bytes = [0u8; 24];
    let ids: &mut [CoreId] = bytemuck::cast_slice_mut(&mut bytes);
    ids[1] = oid_core::oid!("507f1f77bcf86cd799439011");
    assert_eq!(
        bytes[12..],
        oid_core::oid!("507f1f77bcf86cd799439011").bytes()
    );
    let ids = <[BsonId]>::mut_from_bytes(&mut bytes).expect("24 bytes");
    ids[0] = BsonId::from_bytes([9; 12]);
    assert_eq!(bytes[..12], [9; 12]);
}
