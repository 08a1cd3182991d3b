//! bson 2.x (feature `bson-2`, the `mongodb` 3.x driver's default `bson-2` feature): the filter helpers, and
//! where the `From`/`TryFrom`/`PartialEq` impls for bson 2's types live.
//!
//! # Examples
//!
//! ```
//! use bson2::{doc, DateTime};
//! use oid_bson::{v2, ObjectId};
//!
//! let from = DateTime::from_millis(1_700_000_000_500);
//! let to = DateTime::from_millis(1_700_000_060_000);
//! let filter = doc! { "_id": v2::created_between(Some(from), Some(to)) };
//! assert_eq!(filter, doc! { "_id": {
//!     "$gte": ObjectId::parse_str("6553f1000000000000000000")?,
//!     "$lt": ObjectId::parse_str("6553f13c0000000000000000")?,
//! } });
//!
//! // Open end: `$lte` on the largest id, so ids of the last second (2106) are found too.
//! let since = v2::created_between(Some(from), None);
//! assert_eq!(since, doc! {
//!     "$gte": ObjectId::parse_str("6553f1000000000000000000")?,
//!     "$lte": ObjectId::from_bytes([0xff; 12]),
//! });
//! # Ok::<(), oid_bson::oid::Error>(())
//! ```

crate::bson_version::impl_bson_version!(bson2);
