//! `borsh` (feature `borsh`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl.

use borsh::io::{Read, Result, Write};
use borsh::{BorshDeserialize, BorshSerialize};

use crate::ObjectId;

/// The 12 raw bytes, as `oid_core::ObjectId`'s impl and borsh's `bson` support write.
impl BorshSerialize for ObjectId {
    fn serialize<W: Write>(&self, writer: &mut W) -> Result<()> {
        oid_core::ObjectId::from(*self).serialize(writer)
    }
}

impl BorshDeserialize for ObjectId {
    fn deserialize_reader<R: Read>(reader: &mut R) -> Result<Self> {
        oid_core::ObjectId::deserialize_reader(reader).map(ObjectId::from)
    }
}
