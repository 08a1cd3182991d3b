//! `borsh` support (feature `borsh`); the docs and example are on the impl.

use borsh::io::{Read, Result, Write};
use borsh::{BorshDeserialize, BorshSerialize};

use crate::ObjectId;

/// `borsh` support (feature `borsh`): an [`ObjectId`] is written as its 12 raw bytes, with no
/// length prefix — byte for byte what borsh's own `bson` feature writes for
/// `bson::oid::ObjectId`, so the two types read each other's data.
///
/// # Examples
///
/// ```
/// use oid_core::{oid, ObjectId};
///
/// let id = oid!("507f1f77bcf86cd799439011");
/// let bytes = borsh::to_vec(&id)?;
/// assert_eq!(bytes, id.bytes());
/// assert_eq!(borsh::from_slice::<ObjectId>(&bytes)?, id);
/// assert!(borsh::from_slice::<ObjectId>(&bytes[..11]).is_err());
/// # Ok::<(), borsh::io::Error>(())
/// ```
impl BorshSerialize for ObjectId {
    fn serialize<W: Write>(&self, writer: &mut W) -> Result<()> {
        writer.write_all(self.as_bytes())
    }
}

impl BorshDeserialize for ObjectId {
    fn deserialize_reader<R: Read>(reader: &mut R) -> Result<Self> {
        <[u8; 12]>::deserialize_reader(reader).map(ObjectId::from_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_raw_bytes_both_ways() {
        let id = ObjectId::from_bytes(core::array::from_fn(|i| 0xa0 + i as u8));
        let mut buf = std::vec::Vec::new();
        id.serialize(&mut buf).unwrap();
        assert_eq!(buf, id.bytes());
        assert_eq!(ObjectId::try_from_slice(&buf).unwrap(), id);
        assert!(ObjectId::try_from_slice(&buf[..11]).is_err());
        buf.push(0);
        // try_from_slice rejects bytes left over.
        assert!(ObjectId::try_from_slice(&buf).is_err());
    }
}
