//! Ballista: a scheduler and executors that know oid's functions (feature `ballista`).
//!
//! A plan carries a scalar function by its name; the scheduler resolves it in the session state
//! it builds for each job ([`scheduler_session_state`], for `SchedulerConfig`'s
//! `override_session_builder`), every executor in its function registry
//! ([`executor_function_registry`], for `ExecutorProcessConfig`'s `override_function_registry`).
//! The `oid-ballista` binary is both, with these set.

use std::sync::Arc;

use ballista_core::registry::BallistaFunctionRegistry;
use ballista_core::utils::default_session_builder;
use datafusion::error::Result;
use datafusion::execution::{SessionState, SessionStateBuilder};
use datafusion::prelude::SessionConfig;

/// Ballista's default session state for `config`, with oid's functions and the ObjectId type
/// registered: what a scheduler builds for each session.
pub fn scheduler_session_state(config: SessionConfig) -> Result<SessionState> {
    let mut state = default_session_builder(config)?;
    crate::register_all(&mut state)?;
    crate::register_extension_type(state.extension_type_registry().as_ref())?;
    Ok(state)
}

/// Ballista's default function registry with oid's functions added: what an executor resolves
/// the functions of a task's plan in.
pub fn executor_function_registry() -> Arc<BallistaFunctionRegistry> {
    let mut registry = BallistaFunctionRegistry::default();
    for f in crate::functions() {
        registry.scalar_functions.insert(f.name().to_owned(), f);
    }
    Arc::new(registry)
}

/// A client's session state for a Ballista cluster running oid's functions (standalone or
/// remote): DataFusion's defaults with Ballista's configuration and oid's functions.
pub fn client_session_state() -> Result<SessionState> {
    use ballista::prelude::SessionConfigExt;
    let mut state = SessionStateBuilder::new()
        .with_default_features()
        .with_config(SessionConfig::new_with_ballista())
        .build();
    crate::register_all(&mut state)?;
    crate::register_extension_type(state.extension_type_registry().as_ref())?;
    Ok(state)
}
