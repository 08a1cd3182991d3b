//! `arbitrary` (feature `arbitrary`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl.

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::ObjectId;

/// Any 12 bytes, as `oid_core::ObjectId`'s impl.
impl<'a> Arbitrary<'a> for ObjectId {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        oid_core::ObjectId::arbitrary(u).map(ObjectId::from)
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        oid_core::ObjectId::size_hint(depth)
    }
}
