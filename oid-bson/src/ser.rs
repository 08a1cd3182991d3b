//! Serde for [`ObjectId`]: a native BSON ObjectId through any of bson's serializers, the hex
//! string in other human-readable formats; reading is oid-core's, which accepts every form either
//! type ever wrote.

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::ObjectId;

/// The struct name and only field bson's serializers turn into an ObjectId element.
pub(crate) const OID: &str = "$oid";

impl Serialize for ObjectId {
    /// bson's serializers (bytes, raw documents, `Document`/`Bson`, of bson 3 and bson 2,
    /// whichever of this crate's features are on, also wrapped by `serde_path_to_error` or
    /// inside bson's `HumanReadable`): an ObjectId element (`0x07`), byte for byte what
    /// `bson::oid::ObjectId` writes. Other human-readable formats (JSON, YAML, TOML): the 24
    /// lowercase hex digits. Other binary formats: what `bson::oid::ObjectId` writes there, a
    /// one-field struct `$oid` holding the hex string.
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
        if !serializer.is_human_readable() || is_bson_serializer::<S>() {
            serialize_oid_struct(hex.as_str(), serializer)
        } else {
            serializer.serialize_str(hex.as_str())
        }
    }
}

/// `{"$oid": hex}` as a struct: what bson's serializers turn into an ObjectId element (and what
/// `bson::oid::ObjectId` writes to every serializer).
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

/// `true` when `S` is one of bson's serializers, of any bson version, or a wrapper around one
/// (such as `serde_path_to_error::Serializer<bson::Serializer>`, which bson itself uses with its
/// `serde_path_to_error` feature). bson's `Bson`/`Document` serializer, and its bytes serializer
/// inside `HumanReadable`, report themselves human-readable, yet must receive the `$oid` struct
/// to write an ObjectId.
///
/// Decided by the type's name, so it needs neither a `'static` bound nor the bson version to be
/// a dependency of this crate: each monomorphization compares a constant string.
#[inline]
pub(crate) fn is_bson_serializer<S>() -> bool {
    is_bson_serializer_name(core::any::type_name::<S>())
}

/// The name test behind [`is_bson_serializer`]: the type, or the first type argument of a
/// wrapper, at any depth, after references, is in the module `bson::ser` (both bson 2 and
/// bson 3 keep their serializers there: `bson::ser::serde::Serializer`,
/// `bson::ser::raw::Serializer`, `bson::ser::raw::value_serializer::ValueSerializer`, …; a
/// renamed dependency keeps the crate name `bson`).
pub(crate) fn is_bson_serializer_name(mut name: &str) -> bool {
    loop {
        name = name.trim_start_matches('&').trim_start_matches("mut ");
        if name.starts_with("bson::ser::") {
            return true;
        }
        // A wrapper: look at its first type argument (`Wrapper<'_, '_, Inner>` shows as
        // `Wrapper<Inner>` or `Wrapper<'_, Inner>`).
        let Some(open) = name.find('<') else {
            return false;
        };
        name = &name[open + 1..];
        while let Some(rest) = name.strip_prefix("'_, ") {
            name = rest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_bson_serializer_name as bson;

    #[test]
    fn names_of_bsons_serializers_and_wrappers() {
        for name in [
            "bson::ser::serde::Serializer",
            "&mut bson::ser::raw::Serializer",
            "&mut bson::ser::raw::Serializer<'_>",
            "&mut bson::ser::raw::value_serializer::ValueSerializer<'_, '_>",
            "serde_path_to_error::ser::Serializer<bson::ser::serde::Serializer>",
            "serde_path_to_error::ser::Serializer<'_, '_, &mut bson::ser::raw::Serializer<'_>>",
            "a::Outer<b::Inner<&mut bson::ser::raw::Serializer>>",
        ] {
            assert!(bson(name), "{name}");
        }
        for name in [
            "&mut serde_json::ser::Serializer<&mut alloc::vec::Vec<u8>>",
            "serde_json::value::ser::Serializer",
            "toml::ser::ValueSerializer<'_>",
            "serde_yaml::ser::Serializer<std::io::Stdout>",
            "my_bson::ser::Serializer",
            "bson::Document",
            "serde_json::Serializer<bson::Document>",
            "&mut dyn erased_serde::ser::Serializer",
            "",
        ] {
            assert!(!bson(name), "{name}");
        }
    }
}
