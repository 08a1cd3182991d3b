//! `arbitrary` support (feature `arbitrary`); the docs and example are on the impl.

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::ObjectId;

/// `arbitrary` support (feature `arbitrary`): any 12 bytes make an [`ObjectId`], so fuzzers
/// reach every id.
///
/// # Examples
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use oid_core::ObjectId;
///
/// let data = [0x65, 0x53, 0xf1, 0x00, 1, 2, 3, 4, 5, 0, 0, 7, 0xff];
/// let id = ObjectId::arbitrary(&mut Unstructured::new(&data))?;
/// assert_eq!(id.to_hex(), "6553f1000102030405000007");
/// # Ok::<(), arbitrary::Error>(())
/// ```
impl<'a> Arbitrary<'a> for ObjectId {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        <[u8; 12]>::arbitrary(u).map(ObjectId::from_bytes)
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (ObjectId::BYTES, Some(ObjectId::BYTES))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_next_twelve_bytes() {
        let data: [u8; 25] = core::array::from_fn(|i| i as u8);
        let mut u = Unstructured::new(&data);
        let a = ObjectId::arbitrary(&mut u).unwrap();
        let b = ObjectId::arbitrary(&mut u).unwrap();
        assert_eq!(a.bytes(), core::array::from_fn::<u8, 12, _>(|i| i as u8));
        assert_eq!(
            b.bytes(),
            core::array::from_fn::<u8, 12, _>(|i| 12 + i as u8)
        );
        assert_eq!(u.len(), 1);
        assert_eq!(ObjectId::size_hint(0), (12, Some(12)));
    }
}
