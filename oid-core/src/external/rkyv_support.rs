//! `rkyv` support (feature `rkyv`): [`ObjectId`] is rkyv 0.8 `Archive`, `Serialize` and
//! `Deserialize` (derived next to the type). Its archived form, [`ArchivedObjectId`], is the 12
//! bytes in spec order — 12 bytes long, alignment 1, the same on every target and endianness — so
//! archives are portable and an id in a memory-mapped archive is read in place.
//!
//! rkyv's checked path (`rkyv::access`, `rkyv::from_bytes`, enabled by rkyv's `bytecheck`
//! feature, which this feature turns on) validates a buffer before handing out references: a
//! buffer that is too short, a relative pointer out of bounds or an invalid enum tag in the
//! structure around the ids is an error, never undefined behaviour. Every 12 bytes are a valid id,
//! so a changed byte inside an id is a different id, not an error. `no_std`, no allocation.
//!
//! # Examples
//!
//! ```
//! use oid_core::{ArchivedObjectId, ObjectId, oid};
//! use rkyv::rancor::Error;
//!
//! let id = oid!("507f1f77bcf86cd799439011");
//! let bytes = rkyv::to_bytes::<Error>(&id)?;
//! assert_eq!(bytes.as_slice(), id.as_bytes());
//!
//! // Checked access: validates the buffer, then reads the id in place.
//! let archived: &ArchivedObjectId = rkyv::access::<ArchivedObjectId, Error>(&bytes)?;
//! assert_eq!(*archived, id);
//! assert_eq!(archived.to_string(), "507f1f77bcf86cd799439011");
//! assert_eq!(rkyv::deserialize::<ObjectId, Error>(archived)?, id);
//!
//! // Too few bytes are rejected.
//! assert!(rkyv::access::<ArchivedObjectId, Error>(&bytes[..11]).is_err());
//! # Ok::<(), Error>(())
//! ```

use core::fmt;

use crate::{ArchivedObjectId, ObjectId};

impl ArchivedObjectId {
    /// The id, copied out of the archive.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ArchivedObjectId, oid};
    ///
    /// let id = oid!("507f1f77bcf86cd799439011");
    /// let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&id)?;
    /// let archived = rkyv::access::<ArchivedObjectId, rkyv::rancor::Error>(&bytes)?;
    /// assert_eq!(archived.to_object_id(), id);
    /// # Ok::<(), rkyv::rancor::Error>(())
    /// ```
    pub const fn to_object_id(&self) -> ObjectId {
        ObjectId::from_bytes(self.0)
    }

    /// The 12 archived bytes (the id's bytes in spec order).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ArchivedObjectId, oid};
    ///
    /// let id = oid!("507f1f77bcf86cd799439011");
    /// let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&id)?;
    /// let archived = rkyv::access::<ArchivedObjectId, rkyv::rancor::Error>(&bytes)?;
    /// assert_eq!(archived.as_bytes(), id.as_bytes());
    /// # Ok::<(), rkyv::rancor::Error>(())
    /// ```
    pub const fn as_bytes(&self) -> &[u8; 12] {
        &self.0
    }
}

impl From<&ArchivedObjectId> for ObjectId {
    fn from(archived: &ArchivedObjectId) -> ObjectId {
        archived.to_object_id()
    }
}

impl From<ArchivedObjectId> for ObjectId {
    fn from(archived: ArchivedObjectId) -> ObjectId {
        archived.to_object_id()
    }
}

/// The lowercase hex form, as [`ObjectId`]'s `Display`.
impl fmt::Display for ArchivedObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_object_id(), f)
    }
}

/// As [`ObjectId`]'s `Debug`.
impl fmt::Debug for ArchivedObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_object_id(), f)
    }
}

#[cfg(test)]
mod tests {
    use rkyv::rancor::Error;

    use super::*;

    #[test]
    fn twelve_bytes_alignment_one_and_back() {
        assert_eq!(core::mem::size_of::<ArchivedObjectId>(), 12);
        assert_eq!(core::mem::align_of::<ArchivedObjectId>(), 1);
        let id = ObjectId::from_bytes(core::array::from_fn(|i| 0xa0 + i as u8));
        let bytes = rkyv::to_bytes::<Error>(&id).unwrap();
        assert_eq!(bytes.as_slice(), id.as_bytes());
        let archived = rkyv::access::<ArchivedObjectId, Error>(&bytes).unwrap();
        assert_eq!(*archived, id);
        assert_eq!(id, *archived);
        assert_eq!(ObjectId::from(archived), id);
        assert_eq!(
            std::format!("{archived} {archived:?}"),
            std::format!("{id} {id:?}")
        );
        assert_eq!(rkyv::from_bytes::<ObjectId, Error>(&bytes).unwrap(), id);
        for len in [0, 1, 11] {
            assert!(rkyv::access::<ArchivedObjectId, Error>(&bytes[..len]).is_err());
        }
    }
}
