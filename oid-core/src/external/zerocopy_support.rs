//! `zerocopy` support (feature `zerocopy`): [`ObjectId`] derives
//! [`FromBytes`](zerocopy::FromBytes), [`IntoBytes`](zerocopy::IntoBytes),
//! [`Immutable`](zerocopy::Immutable), [`KnownLayout`](zerocopy::KnownLayout) and
//! [`Unaligned`](zerocopy::Unaligned) next to the type (the derives check the layout at
//! compile time). A `&[u8]` of 12·n bytes is a `&[ObjectId]` without a copy.
//!
//! # Examples
//!
//! ```
//! use oid_core::ObjectId;
//! use zerocopy::{FromBytes, IntoBytes};
//!
//! let bytes = [0x22u8; 24];
//! let ids = <[ObjectId]>::ref_from_bytes(&bytes).expect("24 bytes are two ids");
//! assert_eq!(ids, [ObjectId::from_bytes([0x22; 12]); 2]);
//! assert_eq!(ids.as_bytes(), bytes);
//! assert!(<[ObjectId]>::ref_from_bytes(&bytes[..13]).is_err());
//! ```

#[cfg(test)]
mod tests {
    use zerocopy::{FromBytes, FromZeros, IntoBytes};

    use crate::ObjectId;

    #[test]
    fn casts_both_ways_without_copying() {
        let bytes: [u8; 36] = core::array::from_fn(|i| i as u8);
        let ids = <[ObjectId]>::ref_from_bytes(&bytes).unwrap();
        assert_eq!(ids.len(), 3);
        assert_eq!(ids[1].bytes()[0], 12);
        assert_eq!(ids.as_ptr().cast::<u8>(), bytes.as_ptr());
        assert_eq!(ids.as_bytes(), bytes);
        for len in [1, 11, 13, 35] {
            assert!(<[ObjectId]>::ref_from_bytes(&bytes[..len]).is_err());
        }
        // Unaligned: any offset works.
        assert!(<[ObjectId]>::ref_from_bytes(&bytes[1..25]).is_ok());
        let (id, rest) = ObjectId::read_from_prefix(&bytes).unwrap();
        assert_eq!((id.bytes()[11], rest.len()), (11, 24));
        assert_eq!(ObjectId::new_zeroed(), ObjectId::MIN);
    }
}
