// The README is the crate docs where its examples compile: they speak bson through
// `oid_bson::bson`, which needs one of the bson features.
#![cfg_attr(
    any(feature = "bson-2", feature = "bson-3"),
    doc = include_str!("../README.md")
)]
#![cfg_attr(
    not(any(feature = "bson-2", feature = "bson-3")),
    doc = "A drop-in for bson's ObjectId, stored as a native BSON ObjectId. Enable `bson-2` (the \
           default) or `bson-3`; the README has the guide."
)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(any(feature = "bson-3", feature = "bson-2"))]
mod bson_version;
mod error;
mod ext;
mod external;
mod id;
pub mod migration;
pub mod serde_helpers;
mod serde_impl;
#[cfg(feature = "bson-2")]
pub mod v2;
#[cfg(feature = "bson-3")]
pub mod v3;

/// The `bson` crate this crate's default-version API uses: bson 3 with the feature `bson-3`,
/// else bson 2 (feature `bson-2`), as the `mongodb` driver picks its `bson`.
///
/// [`ObjectId::timestamp`], [`oid::Error`], [`range_filter`] and [`created_between`] use its
/// types; the modules `v3` and `v2` name a version explicitly.
#[cfg(feature = "bson-3")]
pub use ::bson;
/// The `bson` crate this crate's default-version API uses: bson 3 with the feature `bson-3`,
/// else bson 2 (feature `bson-2`), as the `mongodb` driver picks its `bson`.
#[cfg(all(feature = "bson-2", not(feature = "bson-3")))]
pub use ::bson2 as bson;

pub use crate::error::NotAnObjectId;
pub use crate::ext::{BsonDateTime, BsonExt, DocumentExt};
pub use crate::id::ObjectId;
#[cfg(all(feature = "bson-2", not(feature = "bson-3")))]
pub use crate::v2::{created_between, range_filter};
#[cfg(feature = "bson-3")]
pub use crate::v3::{created_between, range_filter};
/// An id in an rkyv archive (feature `rkyv`): this crate's `ObjectId` archives as
/// `oid_core::ArchivedObjectId`, its 12 bytes, re-exported here.
#[cfg(feature = "rkyv")]
pub use oid_core::ArchivedObjectId;
pub use oid_core::TimeOutOfRange;
/// Every id inside a value written as `{"$oid": …}`: the fix for a detour through a serde
/// buffer (`serde_json::to_value`, `json!`, ...) on the way to BSON, re-exported so an
/// application needs no other dependency for it (see the [`migration`] guide).
pub use oid_core::serde::ExtendedJsonIds;
pub use oid_core::{ErrorKind, IdRange, ParseError, Upper};

/// Mirrors `bson::oid`, so migrating is the path rename `bson::oid` → `oid_bson::oid`.
///
/// # Examples
///
/// ```
/// use oid_bson::oid::{Error, ObjectId};
///
/// fn parse(s: &str) -> Result<ObjectId, Error> {
///     s.parse()
/// }
/// assert!(parse("507f1f77bcf86cd799439011").is_ok());
/// assert!(
///     parse("507f1f77bcf86cd79943901g").unwrap_err().to_string()
///         .contains("invalid character 'g' at index 23: expected a hex digit")
/// );
/// ```
pub mod oid {
    /// The id type, as `bson::oid::ObjectId`.
    pub use crate::ObjectId;

    /// What [`ObjectId::parse_str`], `FromStr` and `TryFrom<&str>` return: with the feature
    /// `bson-3`, bson 3's `bson::error::Error` (kind `ObjectId`, as bson 3's own `parse_str`
    /// returns, so `?` converts it into `mongodb::error::Error`; its `message` is ours, naming
    /// the wrong length or character).
    // Not inlined: bson's page, not ours, shows bson's own feature badges (its
    // `serde_path_to_error` read as a feature of this crate; `cargo xtask docsrs` checks).
    #[cfg(feature = "bson-3")]
    #[doc(no_inline)]
    pub use ::bson::error::Error;

    /// What [`ObjectId::parse_str`], `FromStr` and `TryFrom<&str>` return without the feature
    /// `bson-3`: oid-core's [`ParseError`](oid_core::ParseError), `Clone + Copy + Debug +
    /// Display + Error + Send + Sync + 'static`, whose `len()` and `invalid_char()` say what was
    /// wrong. It replaces bson 2's `oid::Error` enum, which cannot be built outside bson (the
    /// migration guide has the two-line replacement of a `match` on its variants).
    #[cfg(not(feature = "bson-3"))]
    pub use oid_core::ParseError as Error;
}

/// An [`ObjectId`] (this crate's type) literal, checked at compile time; usable in `const`.
///
/// The argument must be a string literal of exactly 24 hex digits (any case); anything else
/// fails to compile. Same as `oid_core::oid!`, wrapped in [`ObjectId::from_core`].
///
/// # Examples
///
/// ```
/// use oid_bson::{oid, ObjectId};
///
/// const ADMIN: ObjectId = oid!("507f1f77bcf86cd799439011");
/// assert_eq!(ADMIN.to_hex(), "507f1f77bcf86cd799439011");
/// ```
///
/// A bad literal is a compile error:
///
/// ```compile_fail
/// let id = oid_bson::oid!("507f1f77bcf86cd79943901z");
/// ```
#[macro_export]
macro_rules! oid {
    ($s:literal) => {
        $crate::ObjectId::from_core($crate::__private::oid_core::oid!($s))
    };
}

#[doc(hidden)]
pub mod __private {
    pub use oid_core;
}

/// Keeps the extension traits implementable only here, so methods can be added to them later
/// without breaking anyone.
mod sealed {
    #[allow(
        unreachable_pub,
        reason = "sealed trait pattern: nameable only inside this crate"
    )]
    pub trait Sealed {}
}
