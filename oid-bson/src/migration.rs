//! Migrating from `bson::oid::ObjectId` to `oid_core::ObjectId`.
//!
//! This module has no items; it is the guide, and every example in it is compiled and run as a
//! test.
//!
//! # What to change
//!
//! 1. **The import.** `use bson::oid::ObjectId;` becomes `use oid_core::ObjectId;` (or
//!    `oid_bson::ObjectId`, the same type re-exported), plus `use oid_bson::ObjectIdExt;` where
//!    you convert to or from the `bson` crate's types.
//! 2. **Struct fields stored in MongoDB.** Add `with = "oid_bson::object_id"` to the serde
//!    attribute (`object_id::option` for `Option<ObjectId>`, `object_id::vec` for
//!    `Vec<ObjectId>`). The field is then a native BSON ObjectId (element type `0x07`) exactly as
//!    before, byte for byte, and documents already in your database read back unchanged.
//! 3. **`doc!` and `Bson` values.** `doc! { "_id": id }` becomes `doc! { "_id": id.to_bson() }`;
//!    `doc.get_object_id("_id")?` becomes `doc.get_object_id("_id")?.to_oid()` (with
//!    [`BsonObjectIdExt`](crate::BsonObjectIdExt)) or
//!    [`ObjectId::try_from_bson_value`](crate::ObjectIdExt::try_from_bson_value), whose error
//!    names the BSON type it found.
//! 4. **`ObjectId::new()`.** Generation is not part of this crate: use
//!    [`oid_core::Generator`] (injectable clock and entropy) or the `oid-std` crate for a
//!    process-wide generator on std.
//!
//! # What behaves differently
//!
//! | `bson::oid::ObjectId` | `oid_core::ObjectId` |
//! |---|---|
//! | `to_hex()` returns a `String` | `to_hex()` returns a stack [`oid_core::Hex`] that derefs to `&str`; call `.to_string()` for a `String` |
//! | `timestamp()` returns a `bson::DateTime` | `timestamp()` returns the `u32` seconds since the Unix epoch |
//! | `ObjectId::default()` generates a new id | `ObjectId::default()` is all zeros (`ObjectId::MIN`) |
//! | `parse_str` accepts `impl AsRef<str>`, error `bson::oid::Error` | `parse_str` takes `&str`, is `const`, error [`oid_core::ParseError`] naming the length or the bad character |
//! | serde to JSON writes `{"$oid": "…"}` | with the helper, JSON gets the plain hex string (it still reads `{"$oid": "…"}`) |
//!
//! # What stays the same
//!
//! `from_bytes`, `bytes`, `parse_str`, `to_hex` (as text), `FromStr`, `Display` (24 lowercase hex
//! characters), `Debug` (`ObjectId("…")`), equality, hashing and the byte-wise ordering; and the
//! BSON your documents contain.
//!
//! # Before and after
//!
//! Before, with the `bson` crate's type:
//!
//! ```
//! use bson::{doc, oid::ObjectId};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct User {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     manager: Option<ObjectId>,
//!     name: String,
//! }
//!
//! let id = ObjectId::parse_str("507f1f77bcf86cd799439011")?;
//! let user = User { id, manager: None, name: "ada".into() };
//! let bytes = bson::serialize_to_vec(&user)?;
//! assert_eq!(bson::deserialize_from_slice::<User>(&bytes)?, user);
//!
//! let filter = doc! { "_id": id };
//! assert_eq!(filter.get_object_id("_id")?, id);
//! assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
//! assert_eq!(id.timestamp().timestamp_millis(), 1_350_508_407_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! After, with `oid_core::ObjectId`; the BSON bytes are identical:
//!
//! ```
//! use bson::doc;
//! use oid_bson::{BsonObjectIdExt, ObjectIdExt};
//! use oid_core::ObjectId;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct User {
//!     #[serde(rename = "_id", with = "oid_bson::object_id")]
//!     id: ObjectId,
//!     #[serde(with = "oid_bson::object_id::option")]
//!     manager: Option<ObjectId>,
//!     name: String,
//! }
//!
//! let id = ObjectId::parse_str("507f1f77bcf86cd799439011")?;
//! let user = User { id, manager: None, name: "ada".into() };
//! let bytes = bson::serialize_to_vec(&user)?;
//! assert_eq!(bson::deserialize_from_slice::<User>(&bytes)?, user);
//!
//! let filter = doc! { "_id": id.to_bson() };
//! assert_eq!(filter.get_object_id("_id")?.to_oid(), id);
//! assert_eq!(ObjectId::try_from_bson_value(filter.get("_id").ok_or("no _id")?)?, id);
//! assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
//! assert_eq!(id.timestamp(), 1_350_508_407);
//! assert_eq!(id.to_string(), id.to_bson().to_string());
//! assert_eq!(format!("{id:?}"), format!("{:?}", id.to_bson()));
//!
//! // Byte for byte what the `bson` crate's type writes, and each reads the other's bytes.
//! #[derive(Serialize, Deserialize)]
//! struct Before {
//!     #[serde(rename = "_id")]
//!     id: bson::oid::ObjectId,
//!     manager: Option<bson::oid::ObjectId>,
//!     name: String,
//! }
//! let before = Before { id: id.to_bson(), manager: None, name: "ada".into() };
//! assert_eq!(bson::serialize_to_vec(&before)?, bytes);
//! let read_back: Before = bson::deserialize_from_slice(&bytes)?;
//! assert_eq!(read_back.id.to_oid(), id);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
