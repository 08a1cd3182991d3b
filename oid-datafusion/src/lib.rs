#![doc = include_str!("../README.md")]

use std::sync::Arc;

use datafusion_common::Result;
use datafusion_expr::ScalarUDF;
use datafusion_expr::registry::FunctionRegistry;

pub mod audit;
mod extension;
mod kernels;
mod udf;

pub use crate::extension::{
    OBJECTID_EXTENSION_NAME, ObjectIdExtension, objectid_field_metadata, objectid_registration,
    objectid_type, register_extension_type,
};

/// Every function of this crate: `objectid`, `try_objectid`, `objectid_timestamp`,
/// `timestamp_objectid`, `objectid_max_for_time`, `objectid_hex`, `objectid_random`,
/// `objectid_counter`, `objectid_is_valid` and `objectid_new`. Each has its
/// [`documentation`](datafusion_expr::ScalarUDFImpl::documentation).
pub fn functions() -> Vec<Arc<ScalarUDF>> {
    udf::Kind::ALL
        .iter()
        .map(|&kind| Arc::new(ScalarUDF::new_from_impl(udf::OidFunction::new(kind))))
        .collect()
}

/// Registers every function of [`functions`] (the convention of DataFusion's function crates).
///
/// For a `SessionContext` pass `&mut ctx.state_ref().write()` or register on the
/// `SessionState` before building the context; `FunctionRegistry` is also what a Ballista
/// executor's registry is built from.
pub fn register_all(registry: &mut dyn FunctionRegistry) -> Result<()> {
    for f in functions() {
        registry.register_udf(f)?;
    }
    Ok(())
}

#[cfg(feature = "ballista")]
pub mod ballista;
