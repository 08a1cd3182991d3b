//! Lossless conversions between `oid_core::ObjectId` and the `bson` crate's types.
//!
//! The orphan rule forbids `From` between two foreign types, so the conversions are extension
//! traits. Every conversion copies the same 12 bytes; nothing is parsed or formatted.

use bson::{Bson, RawBsonRef};
use oid_core::ObjectId;

use crate::error::NotAnObjectId;
use crate::sealed::Sealed;

/// Conversions from `oid_core::ObjectId` to the `bson` crate's types and back.
///
/// Bring it into scope with `use oid_bson::ObjectIdExt;`. Sealed: implemented only for
/// [`oid_core::ObjectId`].
///
/// # Examples
///
/// ```
/// use bson::{doc, Bson};
/// use oid_bson::{ObjectId, ObjectIdExt};
///
/// let id = oid_core::oid!("507f1f77bcf86cd799439011");
///
/// let theirs: bson::oid::ObjectId = id.to_bson();
/// assert_eq!(theirs.to_hex(), "507f1f77bcf86cd799439011");
/// assert_eq!(ObjectId::from_bson(theirs), id);
///
/// let value: Bson = id.to_bson_value();
/// assert_eq!(ObjectId::try_from_bson_value(&value)?, id);
///
/// let doc = doc! { "_id": id.to_bson(), "n": 1 };
/// assert_eq!(ObjectId::try_from_bson_value(doc.get("_id").unwrap())?, id);
/// # Ok::<(), oid_bson::NotAnObjectId>(())
/// ```
pub trait ObjectIdExt: Sealed + Sized {
    /// The same id as a `bson::oid::ObjectId`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectIdExt;
    ///
    /// let id = oid_core::oid!("507f1f77bcf86cd799439011");
    /// assert_eq!(id.to_bson().bytes(), id.bytes());
    /// ```
    fn to_bson(&self) -> bson::oid::ObjectId;

    /// The same id from a `bson::oid::ObjectId`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::{ObjectId, ObjectIdExt};
    ///
    /// let theirs = bson::oid::ObjectId::parse_str("507f1f77bcf86cd799439011").unwrap();
    /// assert_eq!(ObjectId::from_bson(theirs).to_hex(), "507f1f77bcf86cd799439011");
    /// ```
    fn from_bson(id: bson::oid::ObjectId) -> Self;

    /// The id as a BSON value, `Bson::ObjectId`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bson::Bson;
    /// use oid_bson::ObjectIdExt;
    ///
    /// let id = oid_core::oid!("507f1f77bcf86cd799439011");
    /// assert!(matches!(id.to_bson_value(), Bson::ObjectId(b) if b.bytes() == id.bytes()));
    /// ```
    fn to_bson_value(&self) -> Bson;

    /// The id held by a `Bson::ObjectId`.
    ///
    /// # Errors
    ///
    /// [`NotAnObjectId`] when `value` is any other BSON type; its message names that type, e.g.
    /// `expected a BSON ObjectId, found a string`. A string is not parsed as hex: a string and
    /// an ObjectId are different BSON values.
    ///
    /// # Examples
    ///
    /// ```
    /// use bson::Bson;
    /// use oid_bson::{ObjectId, ObjectIdExt};
    ///
    /// let id = oid_core::oid!("507f1f77bcf86cd799439011");
    /// assert_eq!(ObjectId::try_from_bson_value(&id.to_bson_value()), Ok(id));
    /// let err = ObjectId::try_from_bson_value(&Bson::Null).unwrap_err();
    /// assert_eq!(err.to_string(), "expected a BSON ObjectId, found null");
    /// ```
    fn try_from_bson_value(value: &Bson) -> Result<Self, NotAnObjectId>;

    /// The id held by a raw BSON element (what `bson::RawDocument::get` returns).
    ///
    /// # Errors
    ///
    /// [`NotAnObjectId`] when the element is any other BSON type.
    ///
    /// # Examples
    ///
    /// ```
    /// use bson::rawdoc;
    /// use oid_bson::{ObjectId, ObjectIdExt};
    ///
    /// let id = oid_core::oid!("507f1f77bcf86cd799439011");
    /// let doc = rawdoc! { "_id": id.to_bson(), "name": "x" };
    /// assert_eq!(ObjectId::try_from_raw_bson(doc.get("_id")?.unwrap()), Ok(id));
    ///
    /// let err = ObjectId::try_from_raw_bson(doc.get("name")?.unwrap()).unwrap_err();
    /// assert_eq!(err.to_string(), "expected a BSON ObjectId, found a string");
    /// # Ok::<(), bson::error::Error>(())
    /// ```
    fn try_from_raw_bson(value: RawBsonRef<'_>) -> Result<Self, NotAnObjectId>;
}

impl ObjectIdExt for ObjectId {
    #[inline]
    fn to_bson(&self) -> bson::oid::ObjectId {
        bson::oid::ObjectId::from_bytes(self.bytes())
    }

    #[inline]
    fn from_bson(id: bson::oid::ObjectId) -> Self {
        ObjectId::from_bytes(id.bytes())
    }

    #[inline]
    fn to_bson_value(&self) -> Bson {
        Bson::ObjectId(self.to_bson())
    }

    #[inline]
    fn try_from_bson_value(value: &Bson) -> Result<Self, NotAnObjectId> {
        match value {
            Bson::ObjectId(id) => Ok(ObjectId::from_bytes(id.bytes())),
            other => Err(NotAnObjectId::new(other.element_type())),
        }
    }

    #[inline]
    fn try_from_raw_bson(value: RawBsonRef<'_>) -> Result<Self, NotAnObjectId> {
        match value {
            RawBsonRef::ObjectId(id) => Ok(ObjectId::from_bytes(id.bytes())),
            other => Err(NotAnObjectId::new(other.element_type())),
        }
    }
}

/// Conversions from `bson::oid::ObjectId` to `oid_core::ObjectId` and back, for code that
/// starts from the `bson` side.
///
/// Sealed: implemented only for `bson::oid::ObjectId`.
///
/// # Examples
///
/// ```
/// use oid_bson::BsonObjectIdExt;
///
/// let theirs = bson::oid::ObjectId::parse_str("507f1f77bcf86cd799439011").unwrap();
/// let ours: oid_core::ObjectId = theirs.to_oid();
/// assert_eq!(ours.to_hex(), "507f1f77bcf86cd799439011");
/// assert_eq!(bson::oid::ObjectId::from_oid(ours), theirs);
/// ```
pub trait BsonObjectIdExt: Sealed + Sized {
    /// The same id as an `oid_core::ObjectId`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::BsonObjectIdExt;
    ///
    /// let theirs = bson::oid::ObjectId::from_bytes([7; 12]);
    /// assert_eq!(theirs.to_oid().bytes(), [7; 12]);
    /// ```
    fn to_oid(&self) -> ObjectId;

    /// The same id from an `oid_core::ObjectId`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::BsonObjectIdExt;
    ///
    /// let ours = oid_core::ObjectId::from_bytes([7; 12]);
    /// assert_eq!(bson::oid::ObjectId::from_oid(ours).bytes(), [7; 12]);
    /// ```
    fn from_oid(id: ObjectId) -> Self;
}

impl BsonObjectIdExt for bson::oid::ObjectId {
    #[inline]
    fn to_oid(&self) -> ObjectId {
        ObjectId::from_bytes(self.bytes())
    }

    #[inline]
    fn from_oid(id: ObjectId) -> Self {
        bson::oid::ObjectId::from_bytes(id.bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::spec::ElementType;

    const ID: ObjectId = oid_core::oid!("56e1fc72e0c917e9c4714161");

    #[test]
    fn both_directions_keep_every_byte() {
        for id in [ObjectId::MIN, ObjectId::MAX, ID] {
            let theirs = id.to_bson();
            assert_eq!(theirs.bytes(), id.bytes());
            assert_eq!(theirs.to_hex(), id.to_hex().as_str());
            assert_eq!(ObjectId::from_bson(theirs), id);
            assert_eq!(theirs.to_oid(), id);
            assert_eq!(bson::oid::ObjectId::from_oid(id), theirs);
            assert_eq!(ObjectId::try_from_bson_value(&id.to_bson_value()), Ok(id));
        }
    }

    #[test]
    fn non_object_ids_are_named() {
        let cases = [
            (
                Bson::String("56e1fc72e0c917e9c4714161".into()),
                ElementType::String,
                "a string",
            ),
            (Bson::Int64(1), ElementType::Int64, "a 64-bit integer"),
            (
                Bson::Document(bson::doc! {}),
                ElementType::EmbeddedDocument,
                "an embedded document",
            ),
            (Bson::Array(vec![]), ElementType::Array, "an array"),
            (Bson::Boolean(true), ElementType::Boolean, "a boolean"),
            (Bson::Null, ElementType::Null, "null"),
            (
                Bson::Binary(bson::Binary {
                    subtype: bson::spec::BinarySubtype::Generic,
                    bytes: ID.bytes().to_vec(),
                }),
                ElementType::Binary,
                "binary data",
            ),
        ];
        for (value, found, what) in cases {
            let err = ObjectId::try_from_bson_value(&value);
            assert_eq!(err, Err(NotAnObjectId::new(found)), "{value:?}");
            let message = err.err().map(|e| e.to_string()).unwrap_or_default();
            assert_eq!(message, format!("expected a BSON ObjectId, found {what}"));
        }
    }

    #[test]
    fn raw_elements() {
        let doc = bson::rawdoc! { "_id": ID.to_bson(), "n": 5_i32 };
        let id = doc
            .get("_id")
            .ok()
            .flatten()
            .map(ObjectId::try_from_raw_bson);
        assert_eq!(id, Some(Ok(ID)));
        let n = doc.get("n").ok().flatten().map(ObjectId::try_from_raw_bson);
        assert_eq!(n, Some(Err(NotAnObjectId::new(ElementType::Int32))));
    }
}
