//! Serde support (feature `serde`).
//!
//! * bson's serializers (of any bson version, also wrapped; the rule is
//!   [`is_bson_serializer`]) get the struct `{"$oid": "<hex>"}`, which bson stores as a native
//!   ObjectId element (`0x07`), byte for byte what `bson::oid::ObjectId` writes.
//! * Other human-readable formats (JSON, YAML, TOML, …) get the lowercase hex string.
//! * Other binary formats (bincode, postcard, CBOR, …) get exactly 12 bytes.
//! * Deserializing accepts a hex string of any case, 12 bytes (or a sequence of 12 byte values),
//!   24 bytes holding the hex string (the `{"$oid"}` struct's one field, as postcard and bincode
//!   hand it over), and the extended-JSON map `{"$oid": "<hex>"}` — which is also how the `bson` crate presents a
//!   BSON ObjectId element. A non-string `$oid`, extra keys and wrong lengths are rejected with a
//!   clear message. Nothing on these paths allocates.
//! * [`ExtendedJsonIds`] writes every id inside a value as `{"$oid": …}`, for a detour through
//!   a buffer of another format (`serde_json::to_value`, `json!`) on the way to BSON;
//!   [`extended_json`] does it for one field.
//!
//! # Examples
//!
//! ```
//! use oid_core::{oid, ObjectId};
//!
//! let id = oid!("507f1f77bcf86cd799439011");
//! assert_eq!(serde_json::to_string(&id)?, r#""507f1f77bcf86cd799439011""#);
//! assert_eq!(serde_json::from_str::<ObjectId>(r#""507F1F77BCF86CD799439011""#)?, id);
//! assert_eq!(serde_json::from_str::<ObjectId>(r#"{"$oid": "507f1f77bcf86cd799439011"}"#)?, id);
//! # Ok::<(), serde_json::Error>(())
//! ```

pub(crate) mod bson_rule;
mod extended_json_ids;

pub use self::bson_rule::is_bson_serializer;
use self::bson_rule::writes_oid_struct;
pub use self::extended_json_ids::ExtendedJsonIds;

use core::fmt;

use ::serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use ::serde::ser::{SerializeStruct, Serializer};
use ::serde::{Deserialize, Serialize};

use crate::ObjectId;

impl Serialize for ObjectId {
    /// * bson's serializers (bytes, raw documents, `Document`/`Bson`, of bson 3 and bson 2, also
    ///   wrapped by `serde_path_to_error` or inside bson's `HumanReadable`; the rule is
    ///   [`is_bson_serializer`]), and inside [`ExtendedJsonIds`]: the struct
    ///   `{"$oid": "<hex>"}`, which bson writes as an ObjectId element (`0x07`), byte for byte
    ///   what `bson::oid::ObjectId` writes.
    /// * Other human-readable formats (JSON, YAML, TOML): the 24 lowercase hex digits.
    /// * Other binary formats (postcard, bincode, CBOR): the 12 bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// let id = oid_core::oid!("507f1f77bcf86cd799439011");
    /// assert_eq!(serde_json::to_string(&id)?, r#""507f1f77bcf86cd799439011""#);
    /// let native = bson::oid::ObjectId::from_bytes(id.bytes());
    /// assert_eq!(bson::serialize_to_bson(&id).ok(), Some(bson::Bson::ObjectId(native)));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if writes_oid_struct::<S>() {
            extended_json::serialize(self, serializer)
        } else if serializer.is_human_readable() {
            serializer.serialize_str(self.to_hex().as_str())
        } else {
            serializer.serialize_bytes(self.as_bytes())
        }
    }
}

impl<'de> Deserialize<'de> for ObjectId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(IdVisitor)
        } else {
            deserializer.deserialize_bytes(IdVisitor)
        }
    }
}

struct IdVisitor;

impl<'de> Visitor<'de> for IdVisitor {
    type Value = ObjectId;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "an ObjectId: 24 hex characters, 12 bytes, or {\"$oid\": \"<24 hex characters>\"}",
        )
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<ObjectId, E> {
        ObjectId::parse_str(v).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ObjectId, E> {
        match v.len() {
            // The hex string of the `{"$oid": …}` struct, as binary formats other than BSON
            // (postcard, bincode) hand it to `deserialize_bytes`.
            24 => match core::str::from_utf8(v) {
                Ok(hex) => ObjectId::parse_str(hex).map_err(E::custom),
                Err(_) => Err(E::custom(
                    "invalid bytes: 24 bytes that are not a hex string",
                )),
            },
            _ => ObjectId::try_from(v).map_err(E::custom),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ObjectId, A::Error> {
        let mut bytes = [0u8; 12];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = seq
                .next_element()?
                .ok_or_else(|| de::Error::custom(LenMsg(i)))?;
        }
        let mut extra = 0usize;
        while seq.next_element::<de::IgnoredAny>()?.is_some() {
            extra += 1;
        }
        if extra > 0 {
            return Err(de::Error::custom(LenMsg(12 + extra)));
        }
        Ok(ObjectId::from_bytes(bytes))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ObjectId, A::Error> {
        let id = match map.next_key_seed(OidKey)? {
            Some(()) => map.next_value_seed(HexSeed)?,
            None => {
                return Err(de::Error::custom(
                    "expected a map with the single key \"$oid\", found an empty map",
                ));
            }
        };
        if map.next_key::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::custom("unexpected extra key beside \"$oid\""));
        }
        Ok(id)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<ObjectId, D::Error> {
        ObjectId::deserialize(d)
    }
}

struct LenMsg(usize);

impl fmt::Display for LenMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid length: expected 12 bytes, found {}", self.0)
    }
}

/// Accepts exactly the key `$oid`, without allocating.
struct OidKey;

impl<'de> DeserializeSeed<'de> for OidKey {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for OidKey {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the key \"$oid\"")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        if v == "$oid" {
            Ok(())
        } else {
            Err(E::custom(format_args!(
                "unexpected key {v:?}: expected \"$oid\""
            )))
        }
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        if v == b"$oid" {
            Ok(())
        } else {
            Err(E::custom("unexpected key: expected \"$oid\""))
        }
    }
}

/// The value of `$oid`: a hex string only.
struct HexSeed;

impl<'de> DeserializeSeed<'de> for HexSeed {
    type Value = ObjectId;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ObjectId, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for HexSeed {
    type Value = ObjectId;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string of 24 hex characters as the value of \"$oid\"")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<ObjectId, E> {
        ObjectId::parse_str(v).map_err(E::custom)
    }
}

/// Extended JSON for `#[serde(with = "oid_core::serde::extended_json")]`: writes
/// `{"$oid": "<hex>"}` in every format and reads that shape back in every format, so its
/// output round trips in JSON, BSON, CBOR, postcard and bincode alike.
///
/// * Human-readable formats (JSON, YAML, …) also read everything the plain impl reads: a hex
///   string, or an array of 12 byte values.
/// * Binary formats read exactly the shape [`serialize`](extended_json::serialize) writes (a
///   map in CBOR, a native ObjectId element in BSON, the hex string alone in postcard and
///   bincode). Formats that are not self-describing (postcard, bincode) can only read the shape
///   that was written, so a field written by the plain impl (12 bytes) is not readable here,
///   and the other way round: pick one representation per field. BSON presents any ObjectId
///   element as the map `{"$oid": …}`, so one written by any driver reads too.
///
/// # Examples
///
/// ```
/// use oid_core::{oid, ObjectId};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Doc {
///     #[serde(rename = "_id", with = "oid_core::serde::extended_json")]
///     id: ObjectId,
/// }
///
/// let doc = Doc { id: oid!("507f1f77bcf86cd799439011") };
/// let json = serde_json::to_string(&doc)?;
/// assert_eq!(json, r#"{"_id":{"$oid":"507f1f77bcf86cd799439011"}}"#);
/// assert_eq!(serde_json::from_str::<Doc>(&json)?, doc);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub mod extended_json {
    use super::*;

    /// Serializes `id` as `{"$oid": "<lowercase hex>"}`: a struct named `$oid` with the one
    /// field `$oid`, which JSON and CBOR write as that map, postcard and bincode as the hex
    /// string alone, and BSON (by the `bson` crate's convention for that name) as a native
    /// ObjectId element.
    ///
    /// # Errors
    ///
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(id: &ObjectId, serializer: S) -> Result<S::Ok, S::Error> {
        let mut oid = serializer.serialize_struct(OID, 1)?;
        oid.serialize_field(OID, id.to_hex().as_str())?;
        oid.end()
    }

    const OID: &str = "$oid";

    /// Deserializes `{"$oid": "<hex>"}`; in human-readable formats also a hex string or an
    /// array of 12 byte values.
    ///
    /// # Errors
    ///
    /// A message naming what was wrong: a bad hex string, a non-string `$oid`, extra keys, or
    /// a wrong length.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{oid, ObjectId};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Serialize, Deserialize, PartialEq, Debug)]
    /// struct Doc {
    ///     #[serde(with = "oid_core::serde::extended_json")]
    ///     id: ObjectId,
    /// }
    ///
    /// let doc = Doc { id: oid!("507f1f77bcf86cd799439011") };
    /// // A binary format reads back the map it wrote.
    /// let bytes = postcard::to_allocvec(&doc)?;
    /// assert_eq!(postcard::from_bytes::<Doc>(&bytes)?, doc);
    /// // JSON also takes a plain hex string.
    /// let doc: Doc = serde_json::from_str(r#"{"id":"507f1f77bcf86cd799439011"}"#).unwrap();
    /// assert_eq!(doc.id, oid!("507f1f77bcf86cd799439011"));
    /// # Ok::<(), postcard::Error>(())
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ObjectId, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(IdVisitor)
        } else {
            deserializer.deserialize_struct(OID, &[OID], OidStruct)
        }
    }

    /// The struct [`serialize`] writes, as a binary format gives it back: a map (CBOR, BSON) or
    /// a sequence of its one field (postcard, bincode).
    struct OidStruct;

    impl<'de> Visitor<'de> for OidStruct {
        type Value = ObjectId;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("{\"$oid\": \"<24 hex characters>\"}")
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ObjectId, A::Error> {
            IdVisitor.visit_map(map)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ObjectId, A::Error> {
            seq.next_element_seed(HexSeed)?
                .ok_or_else(|| de::Error::custom("expected the \"$oid\" field, found nothing"))
        }
    }

    /// An id read through [`deserialize`], for `Option`.
    struct Ext(ObjectId);

    impl<'de> Deserialize<'de> for Ext {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ext, D::Error> {
            super::extended_json::deserialize(d).map(Ext)
        }
    }

    /// The same for `Option<ObjectId>`: `None` is written as the format's null.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Serialize, Deserialize)]
    /// struct Doc {
    ///     #[serde(with = "oid_core::serde::extended_json::option")]
    ///     parent: Option<ObjectId>,
    /// }
    /// assert_eq!(serde_json::to_string(&Doc { parent: None })?, r#"{"parent":null}"#);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub mod option {
        use super::*;

        /// Serializes `Some(id)` as `{"$oid": …}` and `None` as null.
        ///
        /// # Errors
        ///
        /// Whatever the serializer reports.
        pub fn serialize<S: Serializer>(
            id: &Option<ObjectId>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            struct Ext<'a>(&'a ObjectId);
            impl ::serde::Serialize for Ext<'_> {
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    super::serialize(self.0, s)
                }
            }
            match id {
                Some(id) => serializer.serialize_some(&Ext(id)),
                None => serializer.serialize_none(),
            }
        }

        /// Deserializes null as `None`, and as `Some` whatever
        /// [`extended_json::deserialize`](super::deserialize) reads.
        ///
        /// # Errors
        ///
        /// As [`extended_json::deserialize`](super::deserialize).
        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<ObjectId>, D::Error> {
            Ok(Option::<super::Ext>::deserialize(deserializer)?.map(|ext| ext.0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    const ID: ObjectId = crate::oid!("507f1f77bcf86cd799439011");

    #[test]
    fn json_is_lowercase_string() {
        assert_eq!(
            serde_json::to_string(&ID).ok().as_deref(),
            Some("\"507f1f77bcf86cd799439011\"")
        );
    }

    #[test]
    fn json_accepts_string_any_case_and_oid_map() {
        for input in [
            r#""507f1f77bcf86cd799439011""#,
            r#""507F1F77BCF86CD799439011""#,
            r#"{"$oid":"507f1f77bcf86cd799439011"}"#,
            r#"{ "$oid" : "507F1F77bcf86cd799439011" }"#,
            r#"{"\u0024oid":"507f1f77bcf86cd799439011"}"#,
            "[80,127,31,119,188,248,108,215,153,67,144,17]",
        ] {
            assert_eq!(
                serde_json::from_str::<ObjectId>(input).ok(),
                Some(ID),
                "{input}"
            );
        }
    }

    #[test]
    fn json_rejections_have_clear_messages() {
        let cases = [
            (
                r#""abc""#,
                "invalid length: expected 24 hex characters, found 3",
            ),
            (
                r#""507f1f77bcf86cd79943901g""#,
                "invalid character 'g' at index 23",
            ),
            (
                r#"{"$oid": 5}"#,
                "a string of 24 hex characters as the value of \"$oid\"",
            ),
            (
                r#"{"$oid":"507f1f77bcf86cd799439011","x":1}"#,
                "unexpected extra key beside \"$oid\"",
            ),
            (
                r#"{"oid":"507f1f77bcf86cd799439011"}"#,
                "unexpected key \"oid\": expected \"$oid\"",
            ),
            (r#"{}"#, "found an empty map"),
            ("[1,2,3]", "invalid length: expected 12 bytes, found 3"),
            (
                "[1,2,3,4,5,6,7,8,9,10,11,12,13]",
                "invalid length: expected 12 bytes, found 13",
            ),
            ("[1,2,3,4,5,6,7,8,9,10,11,300]", "invalid value"),
            ("12", "an ObjectId: 24 hex characters"),
            ("null", "an ObjectId"),
            ("\"507f1f77bcf86cd79943901", "EOF"),
        ];
        for (input, needle) in cases {
            let err = serde_json::from_str::<ObjectId>(input)
                .err()
                .map(|e| e.to_string());
            let err = err.unwrap_or_default();
            assert!(
                err.contains(needle),
                "input {input}: got {err:?}, expected it to contain {needle:?}"
            );
        }
    }

    #[test]
    fn binary_formats_read_the_hex_of_the_oid_struct_as_24_bytes() {
        // What `extended_json::serialize` writes in postcard: the hex string alone.
        let mut bytes = std::vec![24u8];
        bytes.extend_from_slice(b"507F1F77BCF86CD799439011");
        assert_eq!(postcard::from_bytes::<ObjectId>(&bytes).ok(), Some(ID));
        for (bad, needle) in [
            (
                &b"507f1f77bcf86cd79943901g"[..],
                "invalid character 'g' at index 23",
            ),
            (&[0xff; 24][..], "24 bytes that are not a hex string"),
            (&[0; 13][..], "invalid length"),
        ] {
            let mut bytes = std::vec![u8::try_from(bad.len()).unwrap_or(0)];
            bytes.extend_from_slice(bad);
            assert!(postcard::from_bytes::<ObjectId>(&bytes).is_err());
            // postcard replaces the message with its own; the visitor's says what was wrong.
            let direct = IdVisitor
                .visit_bytes::<::serde::de::value::Error>(bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(direct.contains(needle), "{direct:?} lacks {needle:?}");
        }
    }

    #[test]
    fn binary_formats_get_12_bytes() {
        let bytes = postcard::to_allocvec(&ID).unwrap_or_default();
        assert_eq!(bytes.len(), 13); // one length byte + 12 bytes
        assert_eq!(&bytes[1..], ID.as_bytes());
        assert_eq!(postcard::from_bytes::<ObjectId>(&bytes).ok(), Some(ID));
        // 11 bytes is rejected.
        let short = [11u8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
        let err = postcard::from_bytes::<ObjectId>(&short)
            .err()
            .map(|e| e.to_string());
        assert!(err.is_some());

        let mut cbor = std::vec::Vec::new();
        assert!(ciborium::into_writer(&ID, &mut cbor).is_ok());
        assert_eq!(cbor.len(), 13); // major type 2, length 12, then the bytes
        assert_eq!(cbor[0], 0x4c);
        assert_eq!(
            ciborium::from_reader::<ObjectId, _>(&cbor[..]).ok(),
            Some(ID)
        );
    }

    mod extended_json_round_trip {
        use ::serde::{Deserialize, Serialize};
        use proptest::prelude::*;
        use std::vec::Vec;

        use crate::ObjectId;

        #[derive(Serialize, Deserialize, PartialEq, Debug, Clone, Copy)]
        struct Doc {
            #[serde(rename = "_id", with = "crate::serde::extended_json")]
            id: ObjectId,
            #[serde(with = "crate::serde::extended_json::option")]
            parent: Option<ObjectId>,
        }

        fn json(doc: &Doc) -> Doc {
            let text = serde_json::to_string(doc).unwrap();
            assert!(text.contains("{\"$oid\":"), "{text}");
            serde_json::from_str(&text).unwrap()
        }

        fn bson(doc: &Doc) -> Doc {
            let bytes = bson::serialize_to_vec(doc).unwrap();
            // A real BSON ObjectId element (type 0x07), not a sub-document.
            let raw = bson::RawDocument::from_bytes(&bytes).unwrap();
            assert!(matches!(
                raw.get("_id").unwrap(),
                Some(bson::RawBsonRef::ObjectId(_))
            ));
            bson::deserialize_from_slice(&bytes).unwrap()
        }

        fn postcard(doc: &Doc) -> Doc {
            let bytes = postcard::to_allocvec(doc).unwrap();
            postcard::from_bytes(&bytes).unwrap()
        }

        fn bincode(doc: &Doc) -> Doc {
            let config = bincode::config::standard();
            let bytes = bincode::serde::encode_to_vec(doc, config).unwrap();
            bincode::serde::decode_from_slice(&bytes, config).unwrap().0
        }

        fn cbor(doc: &Doc) -> Doc {
            let mut bytes = Vec::new();
            ciborium::into_writer(doc, &mut bytes).unwrap();
            ciborium::from_reader(&bytes[..]).unwrap()
        }

        /// Writes a document in one format and reads it back.
        type Trip = fn(&Doc) -> Doc;

        const FORMATS: [(&str, Trip); 5] = [
            ("json", json),
            ("bson", bson),
            ("postcard", postcard),
            ("bincode", bincode),
            ("cbor", cbor),
        ];

        #[test]
        fn each_format_reads_what_it_wrote() {
            for parent in [None, Some(ObjectId::MAX)] {
                let doc = Doc {
                    id: crate::oid!("507f1f77bcf86cd799439011"),
                    parent,
                };
                for (name, trip) in FORMATS {
                    assert_eq!(trip(&doc), doc, "{name}");
                }
            }
        }

        #[test]
        fn binary_formats_write_the_hex_not_12_bytes() {
            let doc = Doc {
                id: crate::oid!("507f1f77bcf86cd799439011"),
                parent: None,
            };
            let bytes = postcard::to_allocvec(&doc).unwrap();
            let hex = b"507f1f77bcf86cd799439011";
            // postcard: the struct's one field, the hex string (length 24, then the text).
            assert_eq!(bytes[..25], [&[24u8][..], &hex[..]].concat()[..]);
            // CBOR: the map {"$oid": hex}.
            let mut cbor = Vec::new();
            ciborium::into_writer(&doc, &mut cbor).unwrap();
            assert!(cbor.windows(4).any(|w| w == b"$oid"));
            assert!(cbor.windows(24).any(|w| w == hex));
        }

        proptest! {
            // Miri is orders of magnitude slower; keep its run short.
            #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 256 }))]

            #[test]
            fn round_trips_in_every_format(id in any::<[u8; 12]>(), parent in any::<Option<[u8; 12]>>()) {
                let doc = Doc { id: ObjectId::from_bytes(id), parent: parent.map(ObjectId::from_bytes) };
                for (name, trip) in FORMATS {
                    prop_assert_eq!(trip(&doc), doc, "{}", name);
                }
            }
        }
    }
}
