//! The builds for other targets and toolchains, through cargo-hack:
//!
//! * `cargo xtask nostd`: oid-core built alone for the thumb targets (a build of one crate for a
//!   target without std is the real no_std guard): every combination of its base features
//!   (`cargo hack --feature-powerset`), each no_std integration (and `pasted`) alone, and all of
//!   them together.
//! * `cargo xtask msrv`: every published crate checked with the workspace's `rust-version`
//!   toolchain (`cargo hack --rust-version`; the toolchain is installed with rustup when
//!   missing), so the declared MSRV is really built: each crate with each of its features alone
//!   and with all of them together, on the host, and the no_std crates on the thumb targets too.

use xshell::{Cmd, Shell};

use crate::provision::cargo_tools;
use crate::release::PUBLISHED;
use crate::util::{
    Result, Runner, all_passed, cargo, cargo_target_dir, declared_features, ensure_targets,
    project_root, run,
};

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
pub(crate) fn integrations() -> Result<Vec<String>> {
    let manifest = std::fs::read_to_string(project_root().join("oid-core/Cargo.toml"))?;
    let own = [CORE_FEATURES, TOOL_FEATURES].concat();
    let mut features = declared_features(&manifest);
    features.retain(|f| !own.contains(&f.as_str()));
    Ok(features)
}

/// One step per no_std target: without compare-and-swap (Cortex-M0) and with it (Cortex-M4F).
pub(crate) fn steps(r: &mut Runner) {
    for target in ["thumbv6m-none-eabi", "thumbv7em-none-eabihf"] {
        let name = format!("oid-core for {target}: feature combinations");
        r.cmd("nostd").step(&name, |sh| build_target(sh, target));
    }
}

/// The builds of one target, each reported by cargo-hack.
fn build_target(sh: &Shell, target: &str) -> Result {
    ensure_targets(sh, &[target])?;
    let _tools = cargo_tools(sh)?;
    let hack = format!("hack build -p oid-core --lib --target {target}");
    let hack = |args: &str| cargo(sh, &hack).args(args.split(' '));
    let base = CORE_FEATURES.join(",");
    let integrations = [NOSTD_INTEGRATIONS, TOOL_FEATURES].concat().join(",");
    let powerset = format!("--feature-powerset --include-features={base}");
    if target == "thumbv6m-none-eabi" {
        // The same 16 combinations, split by whether critical-section provides the CAS. Without
        // it, portable-atomic needs the final binary to pick how it is emulated: the build is a
        // single-core user's. With it, that is the user's impl (linked later).
        let powerset = powerset.replace(",critical-section", "");
        let single_core = "--cfg portable_atomic_unsafe_assume_single_core";
        run(hack(&powerset).env("CARGO_TARGET_THUMBV6M_NONE_EABI_RUSTFLAGS", single_core))?;
        run(hack(&powerset).arg("--features=critical-section"))?;
    } else {
        run(hack(&powerset))?;
    }
    let each = "--each-feature --exclude-no-default-features --include-features";
    run(hack(&format!("{each}={integrations}")))?;
    run(hack("--no-default-features --features").arg(format!("{base},{integrations}")))
}

/// The no_std crates' extra targets, each with the features every build there needs (cargo
/// arguments): thumbv6m has no compare-and-swap, so it gets portable-atomic with
/// critical-section, as a Cortex-M0 user would build it.
#[rustfmt::skip]
const NO_STD: &[(&str, &str)] = &[
    ("oid-core", "--target=thumbv7em-none-eabihf"),
    ("oid-core", "--target=thumbv6m-none-eabi --features=portable-atomic,critical-section"),
    ("oid-embedded", "--target=thumbv7em-none-eabihf"),
    ("oid-embedded", "--target=thumbv6m-none-eabi --features=critical-section"),
];

/// `cargo hack check` of `krate` (its library, or oid-cli's binary: what a user builds) with
/// each feature alone (and none, and the defaults) on its declared toolchain, with `args` (see
/// [`NO_STD`]), and oid-core's integrations among its features left out (each follows the MSRV
/// of the crate it integrates).
fn msrv_check<'a>(sh: &'a Shell, krate: &str, args: &str) -> Result<Cmd<'a>> {
    let manifest = std::fs::read_to_string(project_root().join(krate).join("Cargo.toml"))?;
    let (mut excluded, integrations) = (declared_features(&manifest), integrations()?);
    excluded.retain(|f| integrations.contains(f));
    let excluded = excluded.join(",");
    let hack = format!("hack check -p {krate} --each-feature --rust-version {args}");
    let skip = (!excluded.is_empty()).then(|| format!("--exclude-features={excluded}"));
    Ok(cargo(sh, &hack).args(skip))
}

/// Installs the MSRV toolchain and cargo-hack if missing, then checks every published crate on
/// the host and the [`NO_STD`] builds, in `target/msrv`; reports every failure, not just the
/// first.
pub(crate) fn msrv(sh: &Shell) -> Result {
    crate::provision::install(sh, crate::provision::Kit::Msrv)?;
    let version = crate::util::rust_version()?;
    let _tools = cargo_tools(sh)?;
    let _target = sh.push_env("CARGO_TARGET_DIR", cargo_target_dir().join("msrv"));
    let host = PUBLISHED.iter().map(|krate| (*krate, ""));
    let mut failures = Vec::new();
    for (krate, args) in host.chain(NO_STD.iter().copied()) {
        let build = format!("{krate} {args}").trim_end().to_owned();
        eprintln!("msrv: Rust {version}: {build}");
        if msrv_check(sh, krate, args)?.run().is_err() {
            failures.push(build);
        }
    }
    all_passed(&failures).map_err(|e| format!("Rust {version} fails on: {e}").into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provision::{Item, Kit, TABLE};

    /// The crates (with their rust-versions) whose toolchain the msrv kit does not install.
    fn missing_toolchains(own: &[(String, String)]) -> Vec<String> {
        let installed = |v: &String| {
            TABLE.iter().any(|(kit, item)| matches!((kit, item), (Kit::Msrv, Item::Toolchain(name, ..)) if name == v))
        };
        own.iter()
            .filter(|(_, v)| !installed(v))
            .map(|(k, v)| format!("{k} ({v})"))
            .collect()
    }

    #[test]
    fn every_crates_own_rust_version_has_its_toolchain_installed() {
        // cargo hack --rust-version runs `cargo +X.Y` with the crate's own rust-version.
        let root = project_root();
        let mut own = Vec::new();
        for krate in PUBLISHED {
            let manifest = std::fs::read_to_string(root.join(krate).join("Cargo.toml")).unwrap();
            if let Some(v) = crate::tidy::own_rust_version(&manifest) {
                own.push(((*krate).to_owned(), v.to_owned()));
            }
        }
        assert!(
            own.iter().any(|(k, v)| k == "oid-arrow" && v == "1.88"),
            "{own:?}"
        );
        let missing = missing_toolchains(&own);
        assert!(missing.is_empty(), "no Kit::Msrv toolchain for {missing:?}");
        assert_eq!(
            missing_toolchains(&[("x".to_owned(), "1.99".to_owned())]),
            ["x (1.99)"]
        );
    }

    #[test]
    fn integrations_are_left_out_and_thumbv6m_gets_its_atomics() {
        let sh = Shell::new().unwrap();
        let (krate, args) = NO_STD[1];
        let core = msrv_check(&sh, krate, args).unwrap().to_string();
        let (start, excluded) = core.split_once(" --exclude-features=").unwrap();
        assert_eq!(
            start,
            "cargo hack check -p oid-core --each-feature --rust-version --target=thumbv6m-none-eabi \
             --features=portable-atomic,critical-section"
        );
        let excluded: Vec<&str> = excluded.split(',').collect();
        for f in ["arbitrary", "sqlx-sqlite", "rkyv"] {
            assert!(excluded.contains(&f), "{excluded:?}");
        }
        assert!(
            !excluded
                .iter()
                .any(|f| ["serde", "critical-section", "pasted"].contains(f))
        );
        // A crate without integrations gets no exclusion; oid-cli is checked too.
        for krate in ["oid-embedded", "oid-cli"] {
            let check = msrv_check(&sh, krate, "").unwrap().to_string();
            let want = format!("cargo hack check -p {krate} --each-feature --rust-version");
            assert_eq!(check, want);
        }
    }

    #[test]
    fn every_published_crate_is_checked_at_the_msrv() {
        for (krate, ..) in NO_STD {
            assert!(PUBLISHED.contains(krate));
        }
        // The integrations are oid-core's features beyond the base ones.
        let found = integrations().unwrap();
        for f in ["arbitrary", "sqlx-postgres", "async-graphql"] {
            assert!(found.iter().any(|i| i == f), "{f} not in {found:?}");
        }
        assert!(
            !found
                .iter()
                .any(|i| i == "serde" || i == "critical-section" || i == "pasted")
        );
    }
}
