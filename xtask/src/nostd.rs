//! `cargo xtask nostd`: oid-core built alone for the thumb targets in every feature combination
//! (a build of one crate for a target without std is the real no_std guard).

use xshell::cmd;

use crate::util::{Result, Runner, ensure_targets, feature_matrix, run};

/// oid-core's base features, combined in every way for the no_std builds.
pub(crate) const CORE_FEATURES: &[&str] =
    &["serde", "defmt", "portable-atomic", "critical-section"];

/// oid-core's integrations that build without std: each alone, then all together.
pub(crate) const NOSTD_INTEGRATIONS: &[&str] = &[
    "bytemuck",
    "zerocopy",
    "borsh",
    "rand_core",
    "rand_core-0_6",
    "rkyv",
];

/// The no_std targets: without compare-and-swap (Cortex-M0) and with it (Cortex-M4F).
const TARGETS: &[&str] = &["thumbv6m-none-eabi", "thumbv7em-none-eabihf"];

/// `cargo xtask nostd`.
pub(crate) fn nostd() -> Result {
    let mut r = Runner::new()?;
    steps(&mut r);
    r.finish()
}

/// One build step per target and feature combination.
pub(crate) fn steps(r: &mut Runner) {
    for target in TARGETS {
        for combo in feature_matrix(CORE_FEATURES, NOSTD_INTEGRATIONS) {
            let features = combo.join(",");
            let label = if features.is_empty() {
                "(none)".to_owned()
            } else {
                features.clone()
            };
            r.step(&format!("oid-core for {target}, features {label}"), |sh| {
                ensure_targets(sh, &[target])?;
                let mut c = cmd!(
                    sh,
                    "cargo build -p oid-core --lib --target {target} --no-default-features --features={features}"
                );
                // thumbv6m has no compare-and-swap: portable-atomic needs the final binary to pick
                // how it is emulated. With `critical-section` that is the user's impl (linked
                // later); without it, build as a single-core user would.
                if *target == "thumbv6m-none-eabi"
                    && combo.contains(&"portable-atomic")
                    && !combo.contains(&"critical-section")
                {
                    c = c.env(
                        "CARGO_TARGET_THUMBV6M_NONE_EABI_RUSTFLAGS",
                        "--cfg portable_atomic_unsafe_assume_single_core",
                    );
                }
                run(c)
            });
        }
    }
}
