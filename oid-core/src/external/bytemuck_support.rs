//! `bytemuck` support (feature `bytemuck`): [`ObjectId`] is `#[repr(transparent)]` over
//! `[u8; 12]`, so it is [`Pod`](bytemuck::Pod), [`Zeroable`](bytemuck::Zeroable) and a
//! [`TransparentWrapper`](bytemuck::TransparentWrapper) of `[u8; 12]` (the impls are derived
//! next to the type, which checks the layout at compile time). A `&[u8]` of 12·n bytes casts to
//! `&[ObjectId]` without a copy; its alignment is 1, so only the length can be wrong.
//!
//! # Examples
//!
//! ```
//! use oid_core::ObjectId;
//!
//! let bytes = [0x11u8; 24];
//! let ids: &[ObjectId] = bytemuck::try_cast_slice(&bytes).expect("24 bytes are two ids");
//! assert_eq!(ids, [ObjectId::from_bytes([0x11; 12]); 2]);
//! assert_eq!(bytemuck::cast_slice::<ObjectId, u8>(ids), bytes);
//! assert!(bytemuck::try_cast_slice::<u8, ObjectId>(&bytes[..23]).is_err());
//! ```

#[cfg(test)]
mod tests {
    use crate::ObjectId;

    #[test]
    fn casts_both_ways_without_copying() {
        let bytes: [u8; 36] = core::array::from_fn(|i| i as u8);
        let ids: &[ObjectId] = bytemuck::cast_slice(&bytes);
        assert_eq!(ids.len(), 3);
        assert_eq!(ids[2].bytes()[0], 24);
        assert_eq!(ids.as_ptr().cast::<u8>(), bytes.as_ptr());
        let back: &[u8] = bytemuck::cast_slice(ids);
        assert_eq!(back, bytes);
        for len in [1, 11, 13, 35] {
            assert!(bytemuck::try_cast_slice::<u8, ObjectId>(&bytes[..len]).is_err());
        }
        let zero: ObjectId = bytemuck::Zeroable::zeroed();
        assert_eq!(zero, ObjectId::MIN);
        let wrapped: &ObjectId = bytemuck::TransparentWrapper::wrap_ref(&[7u8; 12]);
        assert_eq!(*wrapped, ObjectId::from_bytes([7; 12]));
    }
}
