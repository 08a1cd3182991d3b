//! Serde for [`ObjectId`]: a native BSON ObjectId through bson's serializers, the hex string in
//! human-readable formats; reading accepts every form either type ever wrote.

use core::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::ObjectId;

/// The struct name and only field bson's serializers turn into an ObjectId element.
pub(crate) const OID: &str = "$oid";

impl Serialize for ObjectId {
    /// bson's serializers (bytes, raw documents, `Document`/`Bson`, of bson 3 and bson 2): an
    /// ObjectId element (`0x07`), byte for byte what `bson::oid::ObjectId` writes. Other
    /// human-readable formats (JSON, YAML, TOML): the 24 lowercase hex digits. Other binary
    /// formats: what `bson::oid::ObjectId` writes there, a one-field struct `$oid` holding the
    /// hex string.
    ///
    /// # Examples
    ///
    /// ```
    /// let id = oid_bson::oid!("507f1f77bcf86cd799439011");
    /// assert_eq!(serde_json::to_string(&id).unwrap(), r#""507f1f77bcf86cd799439011""#);
    /// ```
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let hex = self.as_core().to_hex();
        if serializer.is_human_readable() && !is_bson_value_serializer::<S>() {
            serializer.serialize_str(hex.as_str())
        } else {
            serialize_oid_struct(hex.as_str(), serializer)
        }
    }
}

/// `{"$oid": hex}` as a struct: what bson's serializers recognise as an ObjectId (and what
/// `bson::oid::ObjectId` writes everywhere but in bson's human-readable value serializer).
#[inline]
pub(crate) fn serialize_oid_struct<S: Serializer>(
    hex: &str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut state = serializer.serialize_struct(OID, 1)?;
    state.serialize_field(OID, hex)?;
    state.end()
}

impl<'de> Deserialize<'de> for ObjectId {
    /// Reads a BSON ObjectId element, a hex string (any case), `{"$oid": "…"}` (extended JSON,
    /// and how bson presents an ObjectId when serde buffers a value for `untagged`, internally
    /// tagged or `flatten` shapes), 12 raw bytes, and the 24 hex bytes other binary formats hand
    /// over.
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
    /// ```
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(IdVisitor)
        } else {
            deserializer.deserialize_bytes(IdVisitor)
        }
    }
}

/// `true` when `S` is one of bson's `Bson`-building serializers: they report themselves
/// human-readable, yet must receive the `$oid` struct to produce `Bson::ObjectId`.
#[inline]
pub(crate) fn is_bson_value_serializer<S>() -> bool {
    // Each `bson::Serializer` is 'static, and so is every type with the same id, so equal ids
    // mean `S` is exactly that type (see the `typeid` crate's documentation).
    let id = typeid::of::<S>();
    #[cfg(feature = "bson-3")]
    if id == core::any::TypeId::of::<::bson::Serializer>() {
        return true;
    }
    #[cfg(feature = "bson-2")]
    if id == core::any::TypeId::of::<::bson2::Serializer>() {
        return true;
    }
    let _ = id;
    false
}

/// Accepts every form an ObjectId is written in.
pub(crate) struct IdVisitor;

impl<'de> Visitor<'de> for IdVisitor {
    type Value = ObjectId;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a BSON ObjectId, 24 hex characters, {\"$oid\": \"<hex>\"} or 12 bytes")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<ObjectId, E> {
        ObjectId::parse_str(v).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ObjectId, E> {
        match v.len() {
            // The hex string written in binary formats other than BSON.
            24 => match core::str::from_utf8(v) {
                Ok(s) => ObjectId::parse_str(s).map_err(E::custom),
                Err(_) => Err(E::custom(
                    "invalid bytes: 24 bytes that are not a hex string",
                )),
            },
            _ => oid_core::ObjectId::try_from(v)
                .map(ObjectId::from)
                .map_err(E::custom),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ObjectId, A::Error> {
        // `{"$oid": "<hex>"}`; oid-core checks the key and the value.
        oid_core::ObjectId::deserialize(MapAccessDeserializer::new(map)).map(ObjectId::from)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<ObjectId, D::Error> {
        ObjectId::deserialize(d)
    }
}
