#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

pub use oid_core::ObjectId;
