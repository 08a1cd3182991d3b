//! Serde for [`ObjectId`]: a native BSON ObjectId through any of bson's serializers, the hex
//! string in other human-readable formats; reading is oid-core's, which accepts every form either
//! type ever wrote.

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

use crate::ObjectId;

impl Serialize for ObjectId {
    /// bson's serializers (bytes, raw documents, `Document`/`Bson`, of bson 3 and bson 2,
    /// whichever of this crate's features are on, also wrapped by `serde_path_to_error` or
    /// inside bson's `HumanReadable`), and inside [`oid_core::serde::ExtendedJsonIds`]: an
    /// ObjectId element (`0x07`), byte for byte what `bson::oid::ObjectId` writes. Other
    /// human-readable formats (JSON, YAML, TOML): the 24 lowercase hex digits. Other binary
    /// formats: what `bson::oid::ObjectId` writes there, a one-field struct `$oid` holding the
    /// hex string.
    ///
    /// Which serializers are bson's is oid-core's one rule,
    /// [`oid_core::serde::is_bson_serializer`], the same for `oid_core::ObjectId` (which differs
    /// only in other binary formats, where it writes 12 bytes).
    ///
    /// # Examples
    ///
    /// ```
    /// let id = oid_bson::oid!("507f1f77bcf86cd799439011");
    /// assert_eq!(serde_json::to_string(&id).unwrap(), r#""507f1f77bcf86cd799439011""#);
    /// ```
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !serializer.is_human_readable() || oid_core::__private::writes_oid_struct::<S>() {
            oid_core::serde::extended_json::serialize(&self.as_core(), serializer)
        } else {
            serializer.serialize_str(self.as_core().to_hex().as_str())
        }
    }
}

impl<'de> Deserialize<'de> for ObjectId {
    /// Reads what `oid_core::ObjectId` reads (one visitor for both types): a BSON ObjectId
    /// element, a hex string (any case), `{"$oid": "…"}` with no other key (extended JSON, and
    /// how bson presents an ObjectId when serde buffers a value for `untagged`, internally tagged
    /// or `flatten` shapes), 12 raw bytes, and the 24 hex bytes other binary formats hand over.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// let id = oid_bson::oid!("507f1f77bcf86cd799439011");
    /// assert_eq!(serde_json::from_str::<ObjectId>(r#""507F1F77BCF86CD799439011""#).unwrap(), id);
    /// assert_eq!(serde_json::from_str::<ObjectId>(r#"{"$oid":"507f1f77bcf86cd799439011"}"#).unwrap(), id);
    /// let err = serde_json::from_str::<ObjectId>(r#""507f""#).unwrap_err();
    /// assert!(err.to_string().starts_with("invalid length: expected 24 hex characters, found 4"));
    /// let extra = r#"{"$oid":"507f1f77bcf86cd799439011","x":1}"#;
    /// assert!(serde_json::from_str::<ObjectId>(extra).unwrap_err().to_string().contains("extra key"));
    /// ```
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        oid_core::ObjectId::deserialize(deserializer).map(ObjectId::from_core)
    }
}
