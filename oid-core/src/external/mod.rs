//! Integrations with other crates, one optional feature and one file each (the layout of
//! `uuid`'s `external/`): the orphan rule puts impls of foreign traits for [`ObjectId`]
//! here.
//!
//! [`ObjectId`]: crate::ObjectId

#[cfg(feature = "serde")]
pub mod serde_support;
