//! Serde helpers for models that keep `oid_core::ObjectId`: `#[serde(with =
//! "oid_bson::object_id")]` stores such a field exactly as [`oid_bson::ObjectId`](crate::ObjectId)
//! does, as a native BSON ObjectId (element type `0x07`).
//!
//! Prefer [`oid_bson::ObjectId`](crate::ObjectId) in models: it needs no attribute and works in
//! every container (`Option<Vec<_>>`, maps, nested structs). These helpers cover only the field
//! itself, `Option` ([`option`]) and `Vec` ([`vec`](mod@vec)); forgetting one compiles and stores
//! a string or binary data instead (see the migration guide's gotchas).
//!
//! | serializer | the field becomes |
//! |---|---|
//! | `bson::serialize_to_vec` / `serialize_to_buffer` / `serialize_to_raw_document_buf` | an ObjectId element (`0x07`) |
//! | `bson::serialize_to_document` / `serialize_to_bson` | `Bson::ObjectId` |
//! | JSON and other human-readable formats | the plain lowercase hex string |
//! | other binary formats (postcard, CBOR, …) | what `bson::oid::ObjectId` writes there: a one-field struct `$oid` holding the hex string |
//!
//! Reading back accepts an ObjectId element, `Bson::ObjectId`, a hex string (any case),
//! extended JSON `{"$oid": "…"}` and 12 raw bytes, so documents written by `bson::oid::ObjectId`,
//! by this helper or by the plain `oid_core` impl all read back. In other binary formats it reads
//! what it wrote where the format hands that struct's string to `deserialize_bytes` (postcard
//! does); CBOR via ciborium does not, exactly as with `bson::oid::ObjectId`: use the plain impl
//! (no helper) there.
//!
//! Use [`option`] for `Option<ObjectId>` (add `#[serde(default)]` if the field may be missing) and
//! [`vec`](mod@vec) for `Vec<ObjectId>`.
//!
//! Without a helper, `oid_core`'s plain serde impl still *reads* a BSON ObjectId element, but it
//! *writes* a string (to `Bson`/`Document`) or binary data (to BSON bytes); that is why the
//! helper exists.
//!
//! # Examples
//!
//! ```
//! # #[cfg(feature = "bson-3")] {
//! use bson::{spec::ElementType, Bson};
//! use oid_core::{oid, ObjectId};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct User {
//!     #[serde(rename = "_id", with = "oid_bson::object_id")]
//!     id: ObjectId,
//!     name: String,
//! }
//!
//! let user = User { id: oid!("507f1f77bcf86cd799439011"), name: "ada".into() };
//!
//! // BSON bytes: the `_id` element has type 0x07.
//! let bytes = bson::serialize_to_vec(&user)?;
//! let raw = bson::RawDocument::from_bytes(&bytes)?;
//! assert_eq!(raw.get("_id")?.map(|v| v.element_type()), Some(ElementType::ObjectId));
//! assert_eq!(bson::deserialize_from_slice::<User>(&bytes)?, user);
//!
//! // Document: `_id` is a `Bson::ObjectId`.
//! let doc = bson::serialize_to_document(&user)?;
//! assert!(matches!(doc.get("_id"), Some(Bson::ObjectId(_))));
//! assert_eq!(bson::deserialize_from_document::<User>(doc)?, user);
//!
//! // JSON: a plain string.
//! let json = serde_json::to_string(&user).unwrap();
//! assert_eq!(json, r#"{"_id":"507f1f77bcf86cd799439011","name":"ada"}"#);
//! assert_eq!(serde_json::from_str::<User>(&json).unwrap(), user);
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Limitation
//!
//! Telling bson's `Bson` serializer apart from JSON is done by its type,
//! `bson::Serializer`. If bson's optional `serde_path_to_error` feature is enabled (by you or
//! another crate in your build), `serialize_to_bson`/`serialize_to_document` wrap that serializer
//! and this helper then writes a string there. BSON bytes (`serialize_to_vec`, what the `mongodb`
//! driver sends) are not affected.

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

use oid_core::ObjectId;

/// Serializes `id` exactly as [`oid_bson::ObjectId`](crate::ObjectId) does: a BSON ObjectId
/// through bson's serializers, the hex string in JSON and other human-readable formats.
///
/// # Errors
///
/// Whatever the serializer reports.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "bson-3")] {
/// use bson::Bson;
/// use oid_core::oid;
///
/// let id = oid!("507f1f77bcf86cd799439011");
/// let value = oid_bson::object_id::serialize(&id, bson::Serializer::new())?;
/// assert!(matches!(value, Bson::ObjectId(b) if b.bytes() == id.bytes()));
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[inline]
pub fn serialize<S: Serializer>(id: &ObjectId, serializer: S) -> Result<S::Ok, S::Error> {
    crate::ObjectId::from(*id).serialize(serializer)
}

/// Deserializes an id from a BSON ObjectId, a hex string, `{"$oid": "…"}` or 12 bytes, exactly
/// as [`oid_bson::ObjectId`](crate::ObjectId) does.
///
/// # Errors
///
/// A message naming what was wrong: the wrong type, a bad hex string, or a wrong length.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "bson-3")] {
/// use bson::Bson;
/// use oid_bson::ToBson;
/// use oid_core::oid;
///
/// let id = oid!("507f1f77bcf86cd799439011");
/// let de = bson::Deserializer::new(id.to_bson_value());
/// assert_eq!(oid_bson::object_id::deserialize(de)?, id);
///
/// let de = bson::Deserializer::new(Bson::Int32(1));
/// assert!(oid_bson::object_id::deserialize(de).is_err());
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[inline]
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ObjectId, D::Error> {
    crate::ObjectId::deserialize(deserializer).map(|id| id.as_core())
}

/// `#[serde(with = "oid_bson::object_id::option")]` for `Option<ObjectId>`: `Some` as a BSON
/// ObjectId, `None` as BSON null (JSON `null`).
///
/// A missing field is an error unless the field also has `#[serde(default)]`.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "bson-3")] {
/// use bson::Bson;
/// use oid_core::{oid, ObjectId};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Node {
///     #[serde(default, with = "oid_bson::object_id::option")]
///     parent: Option<ObjectId>,
/// }
///
/// let node = Node { parent: Some(oid!("507f1f77bcf86cd799439011")) };
/// let doc = bson::serialize_to_document(&node)?;
/// assert!(matches!(doc.get("parent"), Some(Bson::ObjectId(_))));
/// assert_eq!(bson::deserialize_from_document::<Node>(doc)?, node);
///
/// let doc = bson::serialize_to_document(&Node { parent: None })?;
/// assert_eq!(doc.get("parent"), Some(&Bson::Null));
/// assert_eq!(bson::deserialize_from_document::<Node>(bson::doc! {})?, Node { parent: None });
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod option {
    use super::*;

    /// Serializes `Some(id)` like [`object_id::serialize`](super::serialize), `None` as null.
    ///
    /// # Errors
    ///
    /// Whatever the serializer reports.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use bson::Bson;
    ///
    /// let value = oid_bson::object_id::option::serialize(&None, bson::Serializer::new())?;
    /// assert_eq!(value, Bson::Null);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn serialize<S: Serializer>(
        id: &Option<ObjectId>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match id {
            Some(id) => serializer.serialize_some(&crate::ObjectId::from(*id)),
            None => serializer.serialize_none(),
        }
    }

    /// Deserializes null as `None`, anything [`object_id::deserialize`](super::deserialize)
    /// accepts as `Some`.
    ///
    /// # Errors
    ///
    /// As [`object_id::deserialize`](super::deserialize).
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use bson::Bson;
    ///
    /// let de = bson::Deserializer::new(Bson::Null);
    /// assert_eq!(oid_bson::object_id::option::deserialize(de)?, None);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<ObjectId>, D::Error> {
        Ok(Option::<crate::ObjectId>::deserialize(deserializer)?.map(|id| id.as_core()))
    }
}

/// `#[serde(with = "oid_bson::object_id::vec")]` for `Vec<ObjectId>`: a BSON array of ObjectIds
/// (in JSON, an array of strings).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "bson-3")] {
/// use bson::Bson;
/// use oid_core::{oid, ObjectId};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Group {
///     #[serde(with = "oid_bson::object_id::vec")]
///     members: Vec<ObjectId>,
/// }
///
/// let group = Group {
///     members: vec![oid!("507f1f77bcf86cd799439011"), oid!("56e1fc72e0c917e9c4714161")],
/// };
/// let bytes = bson::serialize_to_vec(&group)?;
/// let doc = bson::Document::from_reader(&bytes[..])?;
/// let members = doc.get_array("members")?;
/// assert!(members.iter().all(|m| matches!(m, Bson::ObjectId(_))));
/// assert_eq!(bson::deserialize_from_slice::<Group>(&bytes)?, group);
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod vec {
    use super::*;

    /// Serializes each id like [`object_id::serialize`](super::serialize).
    ///
    /// # Errors
    ///
    /// Whatever the serializer reports.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use bson::Bson;
    /// use oid_core::ObjectId;
    ///
    /// let value = oid_bson::object_id::vec::serialize(&[ObjectId::MIN], bson::Serializer::new())?;
    /// assert!(matches!(&value, Bson::Array(a) if matches!(a[..], [Bson::ObjectId(_)])));
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn serialize<S: Serializer>(ids: &[ObjectId], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(ids.iter().map(|id| crate::ObjectId::from(*id)))
    }

    /// Deserializes a sequence of anything [`object_id::deserialize`](super::deserialize)
    /// accepts.
    ///
    /// # Errors
    ///
    /// As [`object_id::deserialize`](super::deserialize), for the first bad element; or the
    /// value was not a sequence.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use bson::Bson;
    /// use oid_bson::ToBson;
    /// use oid_core::ObjectId;
    ///
    /// let de = bson::Deserializer::new(Bson::Array(vec![ObjectId::MAX.to_bson_value()]));
    /// assert_eq!(oid_bson::object_id::vec::deserialize(de)?, vec![ObjectId::MAX]);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<ObjectId>, D::Error> {
        let ids = Vec::<crate::ObjectId>::deserialize(deserializer)?;
        Ok(ids.into_iter().map(|id| id.as_core()).collect())
    }
}
