//! Migrating from `bson::oid::ObjectId`: the guide. This module has no items; every example in
//! it is compiled and run as a test.
//!
//! # The short way: change the import
//!
//! `use bson::oid::ObjectId;` becomes `use oid_bson::oid::ObjectId;` (or `oid_bson::ObjectId`,
//! the same type). `bson::oid::Error` becomes `oid_bson::oid::Error`. Nothing else changes: same
//! method names and signatures, `doc! { "_id": id }` works, models need no attribute, and the
//! BSON written is byte for byte what bson's type wrote, so the documents already in your
//! database read back unchanged (and documents you write read back in code still on bson's type).
//! Enable the feature that matches your driver: `bson-3` (default) for `mongodb` with its
//! `bson-3` feature, `bson-2` for `mongodb` 3.x's default.
//!
//! Before:
//!
//! ```
//! # #[cfg(feature = "bson-3")] {
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
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! After: only the `use` line changed (and `get_object_id` still returns bson's type, which
//! compares equal to ours; `get_oid` from [`DocumentExt`](crate::DocumentExt) returns ours):
//!
//! ```
//! # #[cfg(feature = "bson-3")] {
//! use bson::doc;
//! use oid_bson::oid::ObjectId;
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
//!
//! // The same bytes as bson's type, and each reads the other's documents.
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Before {
//!     #[serde(rename = "_id")]
//!     id: bson::oid::ObjectId,
//!     manager: Option<bson::oid::ObjectId>,
//!     name: String,
//! }
//! let before = Before { id: id.into(), manager: None, name: "ada".into() };
//! assert_eq!(bson::serialize_to_vec(&before)?, bytes);
//! assert_eq!(bson::deserialize_from_slice::<Before>(&bytes)?, before);
//! assert_eq!(bson::deserialize_from_slice::<User>(&bson::serialize_to_vec(&before)?)?, user);
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What behaves differently
//!
//! | | `bson::oid::ObjectId` | `oid_bson::ObjectId` |
//! |---|---|---|
//! | parse error | `bson::oid::Error` (an enum) | `oid_bson::oid::Error` = [`oid_core::ParseError`]: `len()`, `invalid_char()`, message naming the length or the character and its index. **The one intended API difference**; code that only uses `?`, `Display` or `Error` compiles unchanged |
//! | JSON (and other human-readable formats) | `{"$oid": "…"}` | the plain hex string, what web APIs want; reading accepts both. Opt back in per field with [`serde_helpers::object_id::ExtendedJson`](crate::serde_helpers::object_id::ExtendedJson) |
//! | `new()` | bson's process generator | oid-std's process generator: never a duplicate (at most 2^24 ids per second and random value; past that it waits for the next second), fork-safe |
//!
//! Everything else is the same: `from_bytes` (`const`), `from_parts`, `bytes` (`const`), `to_hex`,
//! `timestamp` (bson's `DateTime`), `FromStr`, `Display`, `Debug` (`ObjectId("…")`), `Default`
//! (a **new** id, as bson's), `From<[u8; 12]>`, equality, hashing and byte-wise ordering. Ours
//! also compares (`==`, `<`) with bson's type directly, both ways.
//!
//! # If you keep `oid_core::ObjectId` in your models
//!
//! oid-core's type knows nothing about BSON (it is `no_std`), so each field needs a helper. Add
//! `with = "oid_bson::object_id"` (`object_id::option` for `Option<ObjectId>`, `object_id::vec`
//! for `Vec<ObjectId>`), and `#[serde(default)]` on every field that older documents may lack,
//! as serde requires for any `with` field:
//!
//! ```
//! # #[cfg(feature = "bson-3")] {
//! use bson::doc;
//! use oid_bson::{FromBson, ToBson};
//! use oid_core::ObjectId;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct User {
//!     #[serde(rename = "_id", with = "oid_bson::object_id")]
//!     id: ObjectId,
//!     // `default`: documents written before this field existed still read (as `None`).
//!     #[serde(default, with = "oid_bson::object_id::option")]
//!     manager: Option<ObjectId>,
//!     name: String,
//! }
//!
//! let id = ObjectId::parse_str("507f1f77bcf86cd799439011")?;
//! let old_document = doc! { "_id": id.to_bson(), "name": "ada" };
//! let user: User = bson::deserialize_from_document(old_document)?;
//! assert_eq!(user, User { id, manager: None, name: "ada".into() });
//!
//! let filter = doc! { "_id": id.to_bson() };
//! assert_eq!(ObjectId::from_bson(filter.get_object_id("_id")?), id);
//! assert_eq!(ObjectId::try_from_bson(filter.get("_id").ok_or("no _id")?)?, id);
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Gotchas
//!
//! - **A forgotten helper on an `oid_core::ObjectId` field** compiles and round-trips in Rust,
//!   but stores a *string* (through `serialize_to_document`) or *binary data* (through
//!   `serialize_to_vec`, which is what the driver sends), so `_id` queries from mongosh and other
//!   drivers never match. Nothing warns. Containers the helpers do not cover (`Option<Vec<_>>`,
//!   maps, nested structs) cannot be fixed that way at all. `oid_bson::ObjectId` has neither
//!   problem: use it in models.
//!
//!   ```
//!   use bson::spec::ElementType;
//!   use serde::Serialize;
//!
//!   #[derive(Serialize)]
//!   struct Forgotten { id: oid_core::ObjectId }
//!   #[derive(Serialize)]
//!   struct Fine { id: oid_bson::ObjectId }
//!
//!   let id = oid_core::oid!("507f1f77bcf86cd799439011");
//!   let bytes = bson::serialize_to_vec(&Forgotten { id })?;
//!   let raw = bson::RawDocument::from_bytes(&bytes)?;
//!   assert_eq!(raw.get("id")?.unwrap().element_type(), ElementType::Binary); // not an ObjectId!
//!
//!   let bytes = bson::serialize_to_vec(&Fine { id: id.into() })?;
//!   let raw = bson::RawDocument::from_bytes(&bytes)?;
//!   assert_eq!(raw.get("id")?.unwrap().element_type(), ElementType::ObjectId);
//!   # Ok::<(), Box<dyn std::error::Error>>(())
//!   ```
//!
//! - **`Default` makes a new id** (as with bson's type), and `oid_core::ObjectId::default()` is
//!   all zeros. A `#[derive(Default)]` model gets a fresh `_id` each time with ours; with oid-core's
//!   type every default model shares the zero id, which a unique index rejects on the second
//!   insert.
//!
//!   ```
//!   assert_ne!(oid_bson::ObjectId::default(), oid_bson::ObjectId::default());
//!   assert_eq!(oid_core::ObjectId::default(), oid_core::ObjectId::MIN);
//!   ```
//!
//! - **`#[serde(default)]`** is needed on a `with` field that older documents lack (serde
//!   treats a missing `with` field as an error, even for `Option`); plain `Option<oid_bson::ObjectId>`
//!   fields need nothing, as with bson's type.
//! - **bson's `serde_path_to_error` feature**: bson's `Bson`/`Document` serializer is recognised
//!   by its type; with that feature on anywhere in the build, `serialize_to_document` wraps it
//!   and ids are then written there as strings. BSON bytes (what the driver sends) are not
//!   affected.
//! - **The JSON form changed** to the plain hex string (see the table); if a client parses
//!   `{"$oid"}`, use [`ExtendedJson`](crate::serde_helpers::object_id::ExtendedJson) on those
//!   fields.
