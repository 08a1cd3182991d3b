//! Integrations with other crates for this crate's [`ObjectId`], one feature each, with the
//! feature names of oid-core's. Each forwards to `oid_core::ObjectId`'s impl (the orphan rule
//! puts them here); `bytemuck`, `zerocopy` and juniper's scalar (`transparent` over oid-core's)
//! are derived on the type itself, which is `#[repr(transparent)]` over `oid_core::ObjectId`.
//!
//! [`ObjectId`]: crate::ObjectId

#[cfg(feature = "arbitrary")]
mod arbitrary_support;
#[cfg(feature = "async-graphql")]
mod async_graphql_support;
#[cfg(feature = "borsh")]
mod borsh_support;
#[cfg(feature = "fake")]
mod fake_support;
#[cfg(feature = "poem-openapi")]
mod poem_openapi_support;
#[cfg(feature = "rkyv")]
mod rkyv_support;
#[cfg(feature = "schemars")]
mod schemars_support;
#[cfg(feature = "serde_with")]
mod serde_with_support;
#[cfg(feature = "specta")]
mod specta_support;
#[cfg(feature = "ts-rs")]
mod ts_rs_support;
#[cfg(feature = "utoipa")]
mod utoipa_support;
