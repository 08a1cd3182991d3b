//! `cargo xtask nostd`: oid-core built alone for the thumb targets (a build of one crate for a
//! target without std is the real no_std guard): every combination of its base features
//! (`cargo hack --feature-powerset`), each no_std integration (and `pasted`) alone, and all of
//! them together.

use std::ffi::OsString;

use xshell::{Shell, cmd};

use crate::provision::cargo_tools;
use crate::util::{Result, Runner, ensure_targets, run};

/// oid-core's base features, combined in every way for the no_std builds.
pub(crate) const CORE_FEATURES: &[&str] =
    &["serde", "defmt", "portable-atomic", "critical-section"];

/// oid-core's features for the workspace's own tools (the readers of pasted text, for oid-cli
/// and oid-web): no dependency, so not integrations (the crate's own MSRV); built for the thumb
/// targets alone and with everything else.
pub(crate) const TOOL_FEATURES: &[&str] = &["pasted"];

/// oid-core's integrations that build without std: each alone, then all together.
pub(crate) const NOSTD_INTEGRATIONS: &[&str] = &[
    "bytemuck",
    "zerocopy",
    "borsh",
    "rand_core",
    "rand_core-0_6",
    "rkyv",
];

/// oid-core's integrations: its features other than [`CORE_FEATURES`] and [`TOOL_FEATURES`],
/// read from its manifest.
/// Each follows the MSRV of the crate it integrates, and the crates that forward one use the same
/// feature name.
pub(crate) fn integrations() -> crate::util::Result<Vec<String>> {
    let manifest =
        std::fs::read_to_string(crate::util::project_root().join("oid-core/Cargo.toml"))?;
    Ok(crate::util::declared_features(&manifest)
        .into_iter()
        .filter(|f| !CORE_FEATURES.contains(&f.as_str()) && !TOOL_FEATURES.contains(&f.as_str()))
        .collect())
}

/// The no_std targets: without compare-and-swap (Cortex-M0) and with it (Cortex-M4F).
const TARGETS: &[&str] = &["thumbv6m-none-eabi", "thumbv7em-none-eabihf"];

/// thumbv6m has no compare-and-swap: portable-atomic needs the final binary to pick how it is
/// emulated. With `critical-section` that is the user's impl (linked later); without it, the
/// build is a single-core user's.
const SINGLE_CORE: (&str, &str) = (
    "CARGO_TARGET_THUMBV6M_NONE_EABI_RUSTFLAGS",
    "--cfg portable_atomic_unsafe_assume_single_core",
);

/// One step per target.
pub(crate) fn steps(r: &mut Runner) {
    for target in TARGETS {
        r.cmd("nostd").step(
            &format!("oid-core for {target}: feature combinations"),
            |sh| build_target(sh, target),
        );
    }
}

/// The builds of one target, each reported by cargo-hack.
fn build_target(sh: &Shell, target: &str) -> Result {
    ensure_targets(sh, &[target])?;
    let path: OsString = cargo_tools(sh)?;
    let hack = |args: &[&str], single_core: bool| {
        let mut c = cmd!(
            sh,
            "cargo hack build -p oid-core --lib --target {target} {args...}"
        )
        .env("PATH", &path);
        if single_core {
            c = c.env(SINGLE_CORE.0, SINGLE_CORE.1);
        }
        run(c)
    };
    let base = CORE_FEATURES.join(",");
    let integrations = [NOSTD_INTEGRATIONS, TOOL_FEATURES].concat().join(",");
    if target == "thumbv6m-none-eabi" {
        // The same 16 combinations, split by whether critical-section provides the CAS.
        let without = CORE_FEATURES
            .iter()
            .filter(|f| **f != "critical-section")
            .copied()
            .collect::<Vec<_>>()
            .join(",");
        hack(
            &[
                "--feature-powerset",
                &format!("--include-features={without}"),
            ],
            true,
        )?;
        hack(
            &[
                "--feature-powerset",
                &format!("--include-features={without}"),
                "--features=critical-section",
            ],
            false,
        )?;
    } else {
        hack(
            &["--feature-powerset", &format!("--include-features={base}")],
            false,
        )?;
    }
    hack(
        &[
            "--each-feature",
            "--exclude-no-default-features",
            &format!("--include-features={integrations}"),
        ],
        false,
    )?;
    let all = format!("--features={base},{integrations}");
    run(cmd!(
        sh,
        "cargo build -p oid-core --lib --target {target} --no-default-features {all}"
    ))
}
