//! `cargo xtask msrv`: the library crates (and oid-cli) checked with the workspace's `rust-version` toolchain
//! (installed with rustup when missing), so the declared MSRV is really built.

use xshell::{Shell, cmd};

use crate::provision::msrv_toolchain;
use crate::util::{Result, Runner, cargo_target_dir};

/// What is checked: crate, target (`None`: the host) and features (`--no-default-features`
/// plus these). thumbv6m has no compare-and-swap, so oid-core goes there with portable-atomic
/// and critical-section, as a Cortex-M0 user would build it.
const CHECKS: &[(&str, Option<&str>, &str)] = &[
    ("oid-core", None, ""),
    (
        "oid-core",
        None,
        "serde,defmt,portable-atomic,critical-section",
    ),
    ("oid-core", Some("thumbv7em-none-eabihf"), ""),
    ("oid-core", Some("thumbv7em-none-eabihf"), "serde,defmt"),
    (
        "oid-core",
        Some("thumbv6m-none-eabi"),
        "portable-atomic,critical-section",
    ),
    (
        "oid-core",
        Some("thumbv6m-none-eabi"),
        "serde,defmt,portable-atomic,critical-section,rkyv,rand_core-0_6",
    ),
    ("oid-std", None, ""),
    ("oid-std", None, "serde,legacy,chrono,time,jiff"),
    ("oid-bson", None, "bson-3"),
    ("oid-bson", None, "bson-2,bson-3,serde_with"),
    ("oid-embedded", None, ""),
    ("oid-embedded", None, "critical-section,defmt,embassy-time"),
    (
        "oid-embedded",
        Some("thumbv6m-none-eabi"),
        "critical-section",
    ),
    (
        "oid-embedded",
        Some("thumbv7em-none-eabihf"),
        "critical-section,defmt,embassy-time",
    ),
    // The command-line tool (its README states the same MSRV).
    ("oid-cli", None, ""),
];

/// `cargo xtask msrv`.
pub(crate) fn msrv() -> Result {
    let mut r = Runner::new()?;
    r.step("msrv: the library crates with rust-version", check);
    r.finish()
}

/// Installs the MSRV toolchain if missing, then `cargo +MSRV check` of every entry of
/// [`CHECKS`] (library code only), in `target/msrv`; reports every failure, not just the first.
pub(crate) fn check(sh: &Shell) -> Result {
    let version = msrv_toolchain(sh)?;
    let toolchain = format!("+{version}");
    let target_dir = cargo_target_dir().join("msrv");
    let mut failures = Vec::new();
    for &(krate, target, features) in CHECKS {
        let target_args: Vec<&str> = target.map(|t| vec!["--target", t]).unwrap_or_default();
        let kind = if krate == "oid-cli" {
            "--bins"
        } else {
            "--lib"
        };
        let label = format!(
            "{krate} on {} with [{features}]",
            target.unwrap_or("the host")
        );
        eprintln!("msrv: {version}: {label}");
        let c = cmd!(
            sh,
            "cargo {toolchain} check -q -p {krate} {kind} {target_args...} --no-default-features --features={features}"
        )
        .env("CARGO_TARGET_DIR", &target_dir);
        if c.run().is_err() {
            failures.push(label);
        }
    }
    if failures.is_empty() {
        eprintln!("msrv: {} checks passed with Rust {version}", CHECKS.len());
        Ok(())
    } else {
        Err(format!("Rust {version} fails on: {}", failures.join("; ")).into())
    }
}
