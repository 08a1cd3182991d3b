//! Ballista: a scheduler and executors that know oid's functions (feature `ballista`).
//!
//! A plan carries a scalar function by its name; the scheduler resolves it in the session state
//! it builds for each job ([`scheduler_session_state`], for `SchedulerConfig`'s
//! `override_session_builder`), every executor in its function registry
//! ([`executor_function_registry`], for `ExecutorProcessConfig`'s `override_function_registry`).
//! The `oid-ballista` binary is both, with these set.

use std::sync::Arc;

use ballista::prelude::SessionContextExt;
use ballista_core::registry::BallistaFunctionRegistry;
use ballista_core::utils::default_session_builder;
use datafusion::catalog::Session as _;
use datafusion::error::Result;
use datafusion::execution::SessionStateDefaults;
use datafusion::execution::{SessionState, SessionStateBuilder};
use datafusion::prelude::{SessionConfig, SessionContext};

/// Ballista's default session state for `config`, with oid's functions and the ObjectId type
/// registered: what a scheduler builds for each session.
pub fn scheduler_session_state(config: SessionConfig) -> Result<SessionState> {
    let mut state = default_session_builder(config)?;
    crate::register_all(&mut state)?;
    crate::register_extension_type(state.extension_type_registry().as_ref())?;
    Ok(state)
}

/// Ballista's default function registry with DataFusion's default scalar functions and oid's
/// added: what an executor resolves the functions of a task's plan in.
///
/// Ballista 55's default registry has DataFusion's core scalar functions but not the nested
/// ones (`array_sort`, `make_array`, ...) that a single-node session and the scheduler have: an
/// executor with it rejects a task that calls one ("PhysicalExtensionCodec is not provided for
/// scalar function array_sort"). This registry has them.
pub fn executor_function_registry() -> Arc<BallistaFunctionRegistry> {
    let mut registry = BallistaFunctionRegistry::default();
    for f in SessionStateDefaults::default_scalar_functions() {
        registry.scalar_functions.insert(f.name().to_owned(), f);
    }
    for f in crate::functions() {
        registry.scalar_functions.insert(f.name().to_owned(), f);
    }
    Arc::new(registry)
}

/// A client's context on the Ballista cluster whose scheduler is at `url`
/// (`df://host:port`), with oid's functions registered.
pub async fn remote_context(url: &str) -> Result<SessionContext> {
    let ctx = SessionContext::remote_with_state(url, client_session_state()?).await?;
    register_on(&ctx)?;
    Ok(ctx)
}

/// A client's context on a new in-process cluster (Ballista's standalone scheduler and executor,
/// over gRPC on the loopback), every part with oid's functions.
pub async fn standalone_context() -> Result<SessionContext> {
    // The standalone scheduler and executor take their functions from this state.
    let ctx = SessionContext::standalone_with_state(client_session_state()?).await?;
    register_on(&ctx)?;
    Ok(ctx)
}

/// Registers oid's functions on a context Ballista made: its `remote_with_state` and
/// `standalone_with_state` replace the state's scalar functions with Ballista's defaults.
pub fn register_on(ctx: &SessionContext) -> Result<()> {
    crate::register_all(&mut *ctx.state_ref().write())?;
    crate::register_extension_type(ctx.state().extension_type_registry().as_ref())
}

/// Ballista's client configuration with oid's functions and the ObjectId type registered (the
/// state to give `remote_with_state` or `standalone_with_state`; call [`register_on`] on the
/// context they return).
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
