#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(test)]
extern crate std;

mod clock;
#[cfg(feature = "embassy-time")]
mod embassy;
mod entropy;
mod error;
mod generator;
mod siphash;

pub use crate::clock::{SyncedClock, TickSource};
#[cfg(feature = "embassy-time")]
#[cfg_attr(docsrs, doc(cfg(feature = "embassy-time")))]
pub use crate::embassy::{EmbassyClock, EmbassyTicks};
pub use crate::entropy::{DeviceIdEntropy, HardwareRng};
pub use crate::error::Error;
pub use crate::generator::SharedGenerator;
pub use oid_core::fmt::Hex;
pub use oid_core::{Clock, Entropy, EntropyError, ErrorKind, GenerateError, Generator, ObjectId};
