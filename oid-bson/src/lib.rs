#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod convert;
mod error;
pub mod migration;
pub mod object_id;

pub use crate::convert::{BsonObjectIdExt, ObjectIdExt};
pub use crate::error::NotAnObjectId;
pub use oid_core::ObjectId;

/// Keeps the extension traits implementable only here, so methods can be added to them later
/// without breaking anyone.
mod sealed {
    pub trait Sealed {}
    impl Sealed for oid_core::ObjectId {}
    impl Sealed for bson::oid::ObjectId {}
}
