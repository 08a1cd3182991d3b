//! Field adapters named like bson's `serde_helpers::object_id`, for `#[serde(with = …)]`.
//!
//! - [`object_id::AsHexString`]: an [`ObjectId`](crate::ObjectId) field stored as a hex
//!   **string** everywhere, BSON included.
//! - [`object_id::FromHexString`]: a `String` field holding hex, stored as a native **ObjectId**
//!   in BSON (the hex string in JSON).
//! - [`object_id::ExtendedJson`]: an id field written as extended JSON `{"$oid": "…"}` in
//!   human-readable formats (what `bson::oid::ObjectId` writes to JSON), for clients that depend
//!   on that; native in BSON. Opt-in: the default is the plain hex string.
//!
//! All of them read every form an ObjectId is written in (ObjectId element, hex string,
//! `{"$oid": "…"}`, 12 bytes).
//!
//! # Examples
//!
//! ```
//! use oid_bson::serde_helpers::object_id;
//! use oid_bson::ObjectId;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Row {
//!     #[serde(with = "object_id::AsHexString")]
//!     as_text: ObjectId,
//!     #[serde(with = "object_id::FromHexString")]
//!     owner: String,
//!     #[serde(with = "object_id::ExtendedJson")]
//!     legacy: ObjectId,
//! }
//!
//! let id = oid_bson::oid!("507f1f77bcf86cd799439011");
//! let row = Row { as_text: id, owner: id.to_hex(), legacy: id };
//! let json = serde_json::to_string(&row).unwrap();
//! assert_eq!(
//!     json,
//!     r#"{"as_text":"507f1f77bcf86cd799439011","owner":"507f1f77bcf86cd799439011","legacy":{"$oid":"507f1f77bcf86cd799439011"}}"#
//! );
//! assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), row);
//!
//! # #[cfg(feature = "bson-3")] {
//! use bson::Bson;
//! let doc = bson::serialize_to_document(&row).unwrap();
//! assert!(matches!(doc.get("as_text"), Some(Bson::String(_))));
//! assert!(matches!(doc.get("owner"), Some(Bson::ObjectId(_))));
//! assert!(matches!(doc.get("legacy"), Some(Bson::ObjectId(_))));
//! assert_eq!(bson::deserialize_from_document::<Row>(doc).unwrap(), row);
//! # }
//! ```

/// The adapters, at the path bson uses (`serde_helpers::object_id`).
pub mod object_id {
    use serde::de::{Deserialize, Deserializer};
    use serde::ser::{Error as _, Serialize, Serializer};

    use crate::ObjectId;

    /// An id field stored as its 24-digit hex string in every format, BSON included (for
    /// schemas that keep ids as strings).
    ///
    /// Use as `#[serde(with = "oid_bson::serde_helpers::object_id::AsHexString")]`.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use oid_bson::serde_helpers::object_id::AsHexString;
    /// let id = oid_bson::ObjectId::from_bytes([0xff; 12]);
    /// let value = AsHexString::serialize(&id, bson::Serializer::new()).unwrap();
    /// assert_eq!(value, bson::Bson::String("ffffffffffffffffffffffff".into()));
    /// # }
    /// ```
    #[derive(Debug)]
    pub struct AsHexString(());

    impl AsHexString {
        /// Writes the hex string.
        ///
        /// # Errors
        ///
        /// Whatever the serializer reports.
        ///
        /// # Examples
        ///
        /// ```
        /// use oid_bson::serde_helpers::object_id::AsHexString;
        /// let mut out = Vec::new();
        /// AsHexString::serialize(&oid_bson::ObjectId::from_bytes([0; 12]), &mut serde_json::Serializer::new(&mut out)).unwrap();
        /// assert_eq!(out, br#""000000000000000000000000""#);
        /// ```
        #[inline]
        pub fn serialize<S: Serializer>(id: &ObjectId, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_str(id.as_core().to_hex().as_str())
        }

        /// Reads any form of id (a hex string, and also an ObjectId element).
        ///
        /// # Errors
        ///
        /// As `ObjectId`'s `Deserialize`: a bad hex string, a wrong type or length.
        ///
        /// # Examples
        ///
        /// ```
        /// use oid_bson::serde_helpers::object_id::AsHexString;
        /// let mut de = serde_json::Deserializer::from_str(r#""ffffffffffffffffffffffff""#);
        /// let id = AsHexString::deserialize(&mut de).unwrap();
        /// assert_eq!(id.bytes(), [0xff; 12]);
        /// ```
        #[inline]
        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<ObjectId, D::Error> {
            ObjectId::deserialize(deserializer)
        }
    }

    /// A `String` field holding an id's hex digits, stored as a native ObjectId in BSON and as
    /// the (lowercase) hex string in JSON.
    ///
    /// Use as `#[serde(with = "oid_bson::serde_helpers::object_id::FromHexString")]`.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use oid_bson::serde_helpers::object_id::FromHexString;
    /// let value = FromHexString::serialize("507f1f77bcf86cd799439011", bson::Serializer::new()).unwrap();
    /// assert!(matches!(value, bson::Bson::ObjectId(_)));
    /// let err = FromHexString::serialize("nope", bson::Serializer::new()).unwrap_err();
    /// assert!(err.to_string().contains("invalid length: expected 24 hex characters, found 4"));
    /// # }
    /// ```
    #[derive(Debug)]
    pub struct FromHexString(());

    impl FromHexString {
        /// Parses the string and writes the id.
        ///
        /// # Errors
        ///
        /// The string is not 24 hex digits (the message says why), or the serializer failed.
        ///
        /// # Examples
        ///
        /// ```
        /// use oid_bson::serde_helpers::object_id::FromHexString;
        /// let mut out = Vec::new();
        /// FromHexString::serialize("507F1F77BCF86CD799439011", &mut serde_json::Serializer::new(&mut out)).unwrap();
        /// assert_eq!(out, br#""507f1f77bcf86cd799439011""#);
        /// ```
        #[inline]
        pub fn serialize<S: Serializer>(hex: &str, serializer: S) -> Result<S::Ok, S::Error> {
            ObjectId::parse_str(hex)
                .map_err(S::Error::custom)?
                .serialize(serializer)
        }

        /// Reads any form of id and returns its lowercase hex string.
        ///
        /// # Errors
        ///
        /// As `ObjectId`'s `Deserialize`.
        ///
        /// # Examples
        ///
        /// ```
        /// use oid_bson::serde_helpers::object_id::FromHexString;
        /// let mut de = serde_json::Deserializer::from_str(r#"{"$oid":"507F1F77BCF86CD799439011"}"#);
        /// assert_eq!(FromHexString::deserialize(&mut de).unwrap(), "507f1f77bcf86cd799439011");
        /// ```
        #[inline]
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
            ObjectId::deserialize(deserializer).map(ObjectId::to_hex)
        }
    }

    /// An id field written as extended JSON `{"$oid": "<hex>"}` in human-readable formats (what
    /// `bson::oid::ObjectId` writes to JSON), and as a native ObjectId in BSON.
    ///
    /// Use as `#[serde(with = "oid_bson::serde_helpers::object_id::ExtendedJson")]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::serde_helpers::object_id::ExtendedJson;
    /// let mut out = Vec::new();
    /// ExtendedJson::serialize(&oid_bson::ObjectId::from_bytes([0; 12]), &mut serde_json::Serializer::new(&mut out)).unwrap();
    /// assert_eq!(out, br#"{"$oid":"000000000000000000000000"}"#);
    /// ```
    #[derive(Debug)]
    pub struct ExtendedJson(());

    impl ExtendedJson {
        /// Writes `{"$oid": "<hex>"}` (an ObjectId element through bson's serializers).
        ///
        /// # Errors
        ///
        /// Whatever the serializer reports.
        ///
        /// # Examples
        ///
        /// ```
        /// # #[cfg(feature = "bson-3")] {
        /// use oid_bson::serde_helpers::object_id::ExtendedJson;
        /// let value = ExtendedJson::serialize(&oid_bson::ObjectId::from_bytes([1; 12]), bson::Serializer::new()).unwrap();
        /// assert!(matches!(value, bson::Bson::ObjectId(_)));
        /// # }
        /// ```
        #[inline]
        pub fn serialize<S: Serializer>(id: &ObjectId, serializer: S) -> Result<S::Ok, S::Error> {
            oid_core::serde::extended_json::serialize(&id.as_core(), serializer)
        }

        /// Reads any form of id.
        ///
        /// # Errors
        ///
        /// As `ObjectId`'s `Deserialize`.
        ///
        /// # Examples
        ///
        /// ```
        /// use oid_bson::serde_helpers::object_id::ExtendedJson;
        /// let mut de = serde_json::Deserializer::from_str(r#"{"$oid":"000000000000000000000000"}"#);
        /// let id = ExtendedJson::deserialize(&mut de).unwrap();
        /// assert_eq!(id.bytes(), [0; 12]);
        /// ```
        #[inline]
        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<ObjectId, D::Error> {
            ObjectId::deserialize(deserializer)
        }
    }
}
