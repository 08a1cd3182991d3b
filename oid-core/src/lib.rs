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
mod fmt;
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
    EntropyError, Error, ErrorKind, FromSliceError, GenerateError, ParseError, TimeOutOfRange,
};
#[cfg(feature = "rand_core-0_6")]
pub use crate::external::rand_core_0_6_support as rand_core_0_6;
#[cfg(feature = "rand_core")]
pub use crate::external::rand_core_support::RngEntropy;
#[cfg(feature = "serde")]
pub use crate::external::serde_support as serde;
pub use crate::fmt::{Hex, Rfc3339};
#[cfg(any(feature = "portable-atomic", target_has_atomic = "64"))]
pub use crate::generator::{CapacityPolicy, Generator, IdBlock, IdSpace};
#[cfg(feature = "rkyv")]
pub use crate::id::ArchivedObjectId;
pub use crate::id::ObjectId;
pub use crate::parts::{LegacyParts, Parts};
#[cfg(feature = "pasted")]
pub use crate::pasted::date::{DateForm, PastedDate, PastedDateError};
#[cfg(feature = "pasted")]
pub use crate::pasted::{Form, Pasted, PastedError};
pub use crate::range::{IdRange, Upper};
