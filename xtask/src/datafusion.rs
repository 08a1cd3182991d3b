//! `cargo xtask datafusion`: `oid-datafusion`, a workspace of its own (the DataFusion and Ballista
//! tree is built once, here, in `target/datafusion`; the root's `cargo test --workspace` never
//! builds it): fmt, clippy, its tests (the cluster tests start Ballista processes), rustdoc and
//! the licence files of its package.

use xshell::{Shell, cmd};

use crate::util::{Result, cargo_target_dir, project_root, run};

/// The CI step's name.
pub(crate) const STEP: &str =
    "oid-datafusion: fmt, clippy, tests with Ballista, rustdoc (target/datafusion)";

/// The step: everything `cargo xtask datafusion` runs.
pub(crate) fn step(sh: &Shell) -> Result {
    let manifest = project_root().join("oid-datafusion/Cargo.toml");
    let target = cargo_target_dir().join("datafusion");
    // Every cargo command builds in target/datafusion (xshell's environment for the commands).
    let _target = sh.push_env("CARGO_TARGET_DIR", &target);
    run(cmd!(sh, "cargo fmt --manifest-path {manifest} --check"))?;
    run(cmd!(
        sh,
        "cargo clippy --manifest-path {manifest} --locked --all-targets --all-features -- -D warnings"
    ))?;
    run(cmd!(
        sh,
        "cargo test --manifest-path {manifest} --locked --all-features"
    ))?;
    run(cmd!(
        sh,
        "cargo doc --manifest-path {manifest} --locked --all-features --no-deps"
    )
    .env("RUSTDOCFLAGS", "-D warnings"))?;
    // The package ships both licence texts (`cargo package` itself needs oid-arrow and oid-std
    // on the registry first; RELEASING.md publishes them before this crate).
    let list = cmd!(
        sh,
        "cargo package --manifest-path {manifest} --list --allow-dirty"
    )
    .read()?;
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        if !list.lines().any(|l| l == licence) {
            return Err(format!("oid-datafusion's package lacks {licence}").into());
        }
    }
    Ok(())
}
