#![doc = include_str!("../README.md")]
// Two unchecked constructors in `compute` (arrow-rs validates text it is given; ours is hex by
// construction), each with its measured reason and SAFETY comment; nothing else.
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod array;
pub mod compute;
mod error;
mod extension;
#[cfg(feature = "ipc")]
pub mod ipc;
#[cfg(feature = "parquet")]
pub mod parquet;

pub use crate::array::{ObjectIdArray, ObjectIdIter};
pub use crate::error::Error;
pub use crate::extension::{Accept, ObjectIdType, STORAGE, check_field, field};
