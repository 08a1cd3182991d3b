#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The integrations that need the standard library (`arbitrary`, `utoipa`, `async-graphql`,
// `juniper`, `ts-rs`, `specta`, `fake`, `poem-openapi`) or an allocator (`schemars`) bring it in;
// the rest of the crate never uses either.
#[cfg(feature = "schemars")]
extern crate alloc;
#[cfg(any(
    test,
    feature = "arbitrary",
    feature = "utoipa",
    feature = "async-graphql",
    feature = "juniper",
    feature = "ts-rs",
    feature = "specta",
    feature = "fake",
    feature = "poem-openapi"
))]
extern crate std;

mod clock;
#[cfg(feature = "defmt")]
mod defmt;
mod entropy;
mod error;
mod external;
pub mod fmt;
#[cfg(any(feature = "portable-atomic", target_has_atomic = "64"))]
mod generator;
mod id;
#[cfg(any(feature = "portable-atomic", target_has_atomic = "64"))]
mod loom;
mod macros;
mod parse;
mod parts;
#[cfg(feature = "pasted")]
mod pasted;
mod range;

#[cfg(target_has_atomic = "64")]
pub use crate::clock::ManualClock;
pub use crate::clock::{Clock, FixedClock};
pub use crate::entropy::Entropy;
pub use crate::error::{
    EntropyError, ErrorKind, FromSliceError, GenerateError, ParseError, TimeOutOfRange,
};
#[cfg(feature = "rand_core-0_6")]
pub use crate::external::rand_core_0_6_support as rand_core_0_6;
#[cfg(feature = "rand_core")]
pub use crate::external::rand_core_support::RngEntropy;
#[cfg(feature = "serde")]
pub use crate::external::serde_support as serde;
#[cfg(any(feature = "portable-atomic", target_has_atomic = "64"))]
pub use crate::generator::{CapacityPolicy, Generator, IdSpace};
#[cfg(feature = "rkyv")]
pub use crate::id::ArchivedObjectId;
pub use crate::id::ObjectId;
pub use crate::parts::{LegacyParts, Parts};
#[cfg(feature = "pasted")]
pub use crate::pasted::date::{DateForm, PastedDate, PastedDateError};
#[cfg(feature = "pasted")]
pub use crate::pasted::{Form, Pasted, PastedError};
pub use crate::range::{IdRange, Upper};

/// Not public API: what oid-core's sibling crates (oid-std, oid-bson, oid-embedded) share with
/// it, outside semver (serde's convention for `__private`): hidden from the docs, and any
/// release may change it. Applications use the crates' documented items instead.
#[doc(hidden)]
pub mod __private {
    /// oid-std's and oid-embedded's generation error, re-exported there as their `Error`.
    pub use crate::error::Error;
    /// oid-bson's `ObjectId` asks the same serializer rule as oid-core's.
    #[cfg(feature = "serde")]
    pub use crate::external::serde_support::bson_rule::writes_oid_struct;
    /// oid-std's per-thread blocks of counter values, reserved from an `IdSpace`.
    #[cfg(any(feature = "portable-atomic", target_has_atomic = "64"))]
    pub use crate::generator::IdBlock;
}
