#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(test)]
extern crate std;

#[cfg(feature = "defmt")]
mod defmt_support;
mod error;
mod fmt;
mod generator;
mod id;
#[doc(hidden)]
pub mod macros;
mod parse;
mod parts;
mod range;
#[cfg(feature = "serde")]
pub mod serde;

pub use crate::error::{FromSliceError, ParseError};
pub use crate::fmt::Hex;
pub use crate::generator::*;
pub use crate::id::ObjectId;
pub use crate::parts::{LegacyParts, Parts};
pub use crate::range::{IdRange, Upper};
