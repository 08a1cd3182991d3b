//! Migrating from `bson::oid::ObjectId`: the guide. This module has no items; every example in
//! it is compiled and run as a test.
//!
//! # The short way: change the import
//!
//! `use bson::oid::ObjectId;` becomes `use oid_bson::oid::ObjectId;` (or `oid_bson::ObjectId`,
//! the same type). `bson::oid::Error` becomes `oid_bson::oid::Error`. Same method names and
//! signatures, `doc! { "_id": id }` works, models need no attribute, and the BSON written is byte
//! for byte what bson's type wrote, so the documents already in your database read back unchanged
//! (and documents you write read back in code still on bson's type). The compiler points at the
//! few lines that need more ([below](#what-is-not-just-an-import-change)); the two changes it
//! cannot point at are JSON output (the plain hex string, on purpose) and, following from it,
//! documents built through a `serde_json::Value`, fixed with one wrapper (see the table).
//!
//! Storage does not depend on the features: an id is a native ObjectId through every serializer
//! of bson 2 and bson 3. The features choose which bson's types the rest of the API speaks
//! (`doc!`, `created_between`, `timestamp()`, the parse error); match them to your driver:
//!
//! ```toml
//! mongodb = "3"      # default features: bson 2.x
//! oid-bson = "0.1"   # default features: bson 2.x
//!
//! # or, with the driver's bson 3.x:
//! # mongodb = { version = "3.3", default-features = false, features = ["compat-3-3-0", "bson-3", "rustls-tls", "dns-resolver"] }
//! # oid-bson = { version = "0.1", default-features = false, features = ["bson-3"] }
//! ```
//!
//! Minimum versions: bson 2.3 and bson 3.0 (oid-bson's tests pass with exactly those; the
//! `mongodb` driver itself asks for 2.15 and 3.1), serde 1.0.200. An application whose lock file
//! has older ones gets them updated by `cargo update -p bson -p serde` (semver-compatible).
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
//! # What is not just an import change
//!
//! Found by migrating real services; each with its fix.
//!
//! | code written for `bson::oid::ObjectId` | after the import change | fix |
//! |---|---|---|
//! | `Bson::ObjectId(id)`, `.map(Bson::ObjectId)` | E0308: the variant holds bson's type | `Bson::from(id)` or `id.into()`; `.map(Bson::from)` |
//! | `serde_json::to_value(&model)` or `json!({ "_id": id })`, then `bson::to_document`, `Bson::try_from` (the same through `serde_value` or `serde-content`) | compiles, and the document holds **strings**: the buffer's serializer is JSON's, where our ids write hex (bson's wrote `{"$oid"}`, which bson reads back as an ObjectId) | wrap the value: `serde_json::to_value(ExtendedJsonIds(&model))`, `json!({ "_id": ExtendedJsonIds(id) })` ([`ExtendedJsonIds`](crate::ExtendedJsonIds)); or skip the detour: `bson::to_document(&model)` |
//! | the same with a `Box<dyn erased_serde::Serialize>` wrapped afterwards: `to_value(ExtendedJsonIds(&boxed))` | **strings** still: the erasure hides the wrapper's serializer from the ids inside | wrap before erasing: `Box::new(ExtendedJsonIds(model)) as Box<dyn erased_serde::Serialize>` |
//! | `doc.get_object_id("_id")?` compared or returned as our type | returns bson's type | comparing works as is (`==`, `<` both ways); for our type use [`DocumentExt::get_oid`](crate::DocumentExt::get_oid), or `ObjectId::from(…)` |
//! | `bson.as_object_id()` | returns `Option<bson::oid::ObjectId>` | `bson.as_object_id() == Some(id.into())`, `bson.as_object_id().is_some_and(\|b\| b == id)`, or [`BsonExt::as_oid`](crate::BsonExt::as_oid) |
//! | `bson::serde_helpers` id helpers on a field | they take bson's type | see the table below |
//! | a `match` on bson 2's `oid::Error::InvalidHexStringCharacter { .. }` / `InvalidHexStringLength { .. }` | without `bson-3` the error is oid-core's [`ParseError`](oid_core::ParseError) | `e.invalid_char()` gives `Some((c, index))`, `e.len()` gives `Some(length)`: see below |
//! | JSON responses of an API | `{"$oid": "…"}` becomes the plain hex string | what web clients want; clients that parse `{"$oid"}` keep it per field with [`ExtendedJson`](crate::serde_helpers::object_id::ExtendedJson) |
//! | `#[derive(Default)]` on a model whose `_id` is `oid_core::ObjectId`/`oid_std::ObjectId` | `_id` is all zeros, so the second insert is a duplicate key | `oid_bson::ObjectId` in models (its `Default` is a new id, as bson's), or `Default` written by hand with `oid_std::new()` |
//!
//! ## `bson::serde_helpers`
//!
//! | bson's helper | replacement |
//! |---|---|
//! | bson 3 `serde_helpers::object_id::AsHexString` (an id stored as a string) | [`oid_bson::serde_helpers::object_id::AsHexString`](crate::serde_helpers::object_id::AsHexString) |
//! | bson 3 `serde_helpers::object_id::FromHexString` (a `String` stored as an id) | [`oid_bson::serde_helpers::object_id::FromHexString`](crate::serde_helpers::object_id::FromHexString) |
//! | bson 2 `serialize_object_id_as_hex_string` | `AsHexString` (`#[serde(with = "oid_bson::serde_helpers::object_id::AsHexString")]`) |
//! | bson 2 `hex_string_as_object_id`, `serialize_hex_string_as_object_id`, `deserialize_hex_string_from_object_id` | `FromHexString` |
//! | `HumanReadable<T>`, and every helper that does not take an `ObjectId` (dates, integers, UUIDs) | keep bson's: ids inside `HumanReadable` are still native ObjectIds |
//!
//! With the feature `serde_with`, the adapters also nest: `#[serde_as(as = "Option<AsHexString>")]`.
//!
//! ## Parse errors
//!
//! With `bson-3`, [`oid::Error`](crate::oid::Error) *is* `bson::error::Error`, of kind
//! `ObjectId` as bson's `parse_str` returns it: `?` into `bson::error::Error` and into the
//! driver's `mongodb::error::Error` compiles unchanged, and so does a `match` on its kind; its
//! `message` is ours (`invalid character 'g' at index 23: expected a hex digit`).
//!
//! ```
//! # #[cfg(feature = "bson-3")] {
//! use oid_bson::ObjectId;
//!
//! fn parse(s: &str) -> bson::error::Result<ObjectId> {
//!     Ok(ObjectId::parse_str(s)?)
//! }
//! let err = parse("507f1f77bcf86cd79943901g").unwrap_err();
//! assert!(matches!(err.kind, bson::error::ErrorKind::ObjectId { .. }));
//! assert_eq!(err.message.as_deref(), Some("invalid character 'g' at index 23: expected a hex digit"));
//! # }
//! ```
//!
//! Without `bson-3` (bson 2's error enum cannot be built outside bson) it is oid-core's
//! [`ParseError`](oid_core::ParseError); a `match` on bson 2's variants becomes:
//!
//! ```
//! # #[cfg(not(feature = "bson-3"))] {
//! use oid_bson::ObjectId;
//!
//! fn describe(s: &str) -> String {
//!     match ObjectId::parse_str(s) {
//!         Ok(id) => format!("id {id}"),
//!         // was: Err(oid::Error::InvalidHexStringCharacter { c, index, .. }) => …
//!         Err(e) if e.invalid_char().is_some() => format!("bad character {:?}", e.invalid_char()),
//!         // was: Err(oid::Error::InvalidHexStringLength { length, .. }) => …
//!         Err(e) => format!("bad length {:?}", e.len()),
//!     }
//! }
//! assert_eq!(describe("507f1f77bcf86cd79943901g"), "bad character Some(('g', 23))");
//! assert_eq!(describe("abc"), "bad length Some(3)");
//! # }
//! ```
//!
//! # What behaves differently on purpose
//!
//! | | `bson::oid::ObjectId` | `oid_bson::ObjectId` |
//! |---|---|---|
//! | JSON (and other human-readable formats) | `{"$oid": "…"}` | the plain hex string; reading accepts both. Opt back in per field with [`ExtendedJson`](crate::serde_helpers::object_id::ExtendedJson) |
//! | `new()` | bson's process generator | oid-std's process generator: never a duplicate (past a second's capacity it waits for the next one; see `oid_core::CapacityPolicy`), fork-safe |
//! | `{"$oid": …, "x": 1}` read as an id | bson 2's type reads it and drops `x` (from bytes and from a `Document`; bson 2's `Document::from_reader` itself turns it into an ObjectId) | an error on every path that hands it over (bytes, raw document, `Document`, `Bson` of both versions, JSON), also a duplicated `$oid` |
//!
//! Everything else is the same: `from_bytes` (`const`), `from_parts`, `bytes` (`const`), `to_hex`,
//! `timestamp` (bson's `DateTime`), `FromStr`, `Display`, `Debug` (`ObjectId("…")`), `Default`
//! (a **new** id, as bson's), `From<[u8; 12]>`, equality, hashing and byte-wise ordering. Ours
//! also compares (`==`, `<`) with bson's type directly, both ways.
//!
//! # Gotchas
//!
//! - **An `oid_core::ObjectId` (`oid_std::ObjectId`) field** is a native ObjectId too: all our
//!   id types follow one rule, [`oid_core::serde::is_bson_serializer`], and write exactly what
//!   bson's type writes through every bson serializer. They differ in JSON only from bson's type
//!   (the hex string), and from each other in other binary formats (the core type writes 12
//!   bytes, ours bson's `$oid` struct) and in `Default` (below).
//!
//!   ```
//!   use bson::spec::ElementType;
//!   use serde::Serialize;
//!
//!   #[derive(Serialize)]
//!   struct Core { id: oid_core::ObjectId }
//!   #[derive(Serialize)]
//!   struct Ours { id: oid_bson::ObjectId }
//!
//!   let id = oid_core::oid!("507f1f77bcf86cd799439011");
//!   let core = bson::serialize_to_vec(&Core { id })?;
//!   let raw = bson::RawDocument::from_bytes(&core)?;
//!   assert_eq!(raw.get("id")?.unwrap().element_type(), ElementType::ObjectId);
//!   assert_eq!(bson::serialize_to_vec(&Ours { id: id.into() })?, core);
//!   # Ok::<(), Box<dyn std::error::Error>>(())
//!   ```
//!
//! - **A detour through a serde buffer** (`serde_json::to_value`, `json!`, `serde_value`,
//!   `serde-content`) before `bson::to_document` or `Bson::try_from` stores ids as *strings*:
//!   the buffer's serializer is JSON's, where our ids write the hex string. bson's type wrote
//!   `{"$oid": …}` there, which bson reads back as an ObjectId. Reading back into Rust works
//!   either way, so tests that only round-trip do not notice; mongosh's `_id` queries do. Wrap
//!   the value in [`ExtendedJsonIds`](crate::ExtendedJsonIds) (every id inside writes
//!   `{"$oid"}`; the bytes then equal bson's type's on every buffered route), or serialize the
//!   model to BSON directly. An erased value (`Box<dyn erased_serde::Serialize>`) hides the
//!   wrapper from the ids inside it: wrap before erasing, `Box::new(ExtendedJsonIds(model))`.
//!
//!   ```
//!   use oid_bson::{oid, ExtendedJsonIds, ObjectId};
//!   use serde::Serialize;
//!
//!   #[derive(Serialize)]
//!   struct Order { #[serde(rename = "_id")] id: ObjectId }
//!   let order = Order { id: oid!("507f1f77bcf86cd799439011") };
//!
//!   let detour = bson::serialize_to_document(&serde_json::to_value(&order)?)?;
//!   assert_eq!(detour.get_str("_id")?, "507f1f77bcf86cd799439011"); // a string!
//!
//!   let fixed = bson::serialize_to_document(&serde_json::to_value(ExtendedJsonIds(&order))?)?;
//!   assert_eq!(fixed, bson::serialize_to_document(&order)?); // an ObjectId
//!   let one = bson::serialize_to_document(&serde_json::json!({ "_id": ExtendedJsonIds(order.id) }))?;
//!   assert_eq!(one, fixed);
//!   # Ok::<(), Box<dyn std::error::Error>>(())
//!   ```
//!
//!   A `serde_json::Value` written straight to bytes (`bson::to_vec(&value)`) keeps `{"$oid"}`
//!   as an embedded document, for bson's type too: bson reads extended JSON in its
//!   `Document`/`Bson` serializers and `Bson::try_from` only.
//!
//! - **`Default` makes a new id** with ours (as with bson's type), and
//!   `oid_core::ObjectId::default()` (the same type as `oid_std::ObjectId`) is all zeros, the
//!   value type's zero (oid-core has no clock or generator). A `#[derive(Default)]` model gets a
//!   fresh `_id` each time with ours, and `000000000000000000000000` with the core type, whose
//!   second insert is a duplicate key.
//!
//!   ```
//!   assert_ne!(oid_bson::ObjectId::default(), oid_bson::ObjectId::default());
//!   assert_eq!(oid_core::ObjectId::default(), oid_core::ObjectId::MIN);
//!   assert_eq!(oid_std::ObjectId::default(), oid_std::ObjectId::MIN);
//!   ```
//!
//! - **A serializer that hides bson's type** (a `dyn erased_serde::Serializer`, or a wrapper
//!   of your own that the rule does not know) cannot be told from JSON, so an id gets what that
//!   serializer's `is_human_readable()` asks for, the hex string from bson's `Document`/`Bson`
//!   serializers; see "What each serializer writes" in the crate documentation. bson's own
//!   wrappers (`serde_path_to_error`, `HumanReadable`) and serde's flatten are fine.
