//! `cargo xtask msrv`: every published crate checked with the workspace's `rust-version` toolchain
//! (`cargo hack --rust-version`; the toolchain is installed with rustup when missing), so the
//! declared MSRV is really built: each crate with each of its features alone and with all of them
//! together, on the host, and the no_std crates on the thumb targets too.

use std::ffi::OsString;

use xshell::{Shell, cmd};

use crate::nostd::integrations;
use crate::provision::{cargo_tools, msrv_toolchain};
use crate::release::PUBLISHED;
use crate::util::{Result, cargo_target_dir, declared_features, project_root};

/// The no_std crates' extra targets, each with the features every build there needs: thumbv6m
/// has no compare-and-swap, so it gets portable-atomic with critical-section, as a Cortex-M0
/// user would build it.
const NO_STD: &[(&str, &str, &str)] = &[
    ("oid-core", "thumbv7em-none-eabihf", ""),
    (
        "oid-core",
        "thumbv6m-none-eabi",
        "portable-atomic,critical-section",
    ),
    ("oid-embedded", "thumbv7em-none-eabihf", ""),
    ("oid-embedded", "thumbv6m-none-eabi", "critical-section"),
];

/// One MSRV build: `krate` on `target` (`None`: the host), forced `features` on every run.
struct Build<'a> {
    krate: &'a str,
    target: Option<&'a str>,
    features: &'a str,
}

/// The cargo-hack arguments of one build: library (or binary) code only, each feature alone
/// (with none and with the defaults), the integrations left out.
fn hack_args(b: &Build<'_>, declared: &[String], integrations: &[String]) -> Vec<String> {
    let kind = if b.krate == "oid-cli" {
        "--bins"
    } else {
        "--lib"
    };
    let mut args: Vec<String> = [
        "check",
        "--rust-version",
        "-p",
        b.krate,
        kind,
        "--each-feature",
    ]
    .map(str::to_owned)
    .to_vec();
    let excluded: Vec<&str> = declared
        .iter()
        .map(String::as_str)
        .filter(|f| integrations.iter().any(|i| i == f))
        .collect();
    if !excluded.is_empty() {
        args.push(format!("--exclude-features={}", excluded.join(",")));
    }
    if let Some(t) = b.target {
        args.extend(["--target".to_owned(), t.to_owned()]);
    }
    if !b.features.is_empty() {
        args.push(format!("--features={}", b.features));
    }
    args
}

/// Installs the MSRV toolchain and cargo-hack if missing, then runs every build in
/// `target/msrv`; reports every failure, not just the first.
pub(crate) fn check(sh: &Shell) -> Result {
    let version = msrv_toolchain(sh)?;
    let path: OsString = cargo_tools(sh)?;
    let root = project_root();
    let integrations = integrations()?;
    let mut builds: Vec<Build<'_>> = PUBLISHED
        .iter()
        .map(|krate| Build {
            krate,
            target: None,
            features: "",
        })
        .collect();
    builds.extend(NO_STD.iter().map(|&(krate, target, features)| Build {
        krate,
        target: Some(target),
        features,
    }));
    let target_dir = cargo_target_dir().join("msrv");
    let mut failures = Vec::new();
    for b in &builds {
        let manifest = std::fs::read_to_string(root.join(b.krate).join("Cargo.toml"))?;
        let args = hack_args(b, &declared_features(&manifest), &integrations);
        let label = format!("{} on {}", b.krate, b.target.unwrap_or("the host"));
        eprintln!("msrv: Rust {version}: {label}");
        let c = cmd!(sh, "cargo hack {args...}")
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", &target_dir);
        if c.run().is_err() {
            failures.push(label);
        }
    }
    if failures.is_empty() {
        eprintln!(
            "msrv: {} crate/target builds passed with Rust {version}",
            builds.len()
        );
        Ok(())
    } else {
        Err(format!("Rust {version} fails on: {}", failures.join("; ")).into())
    }
}

/// The crates (with their rust-versions) whose toolchain the msrv kit does not install.
#[cfg(test)]
fn missing_toolchains(own: &[(String, String)]) -> Vec<String> {
    use crate::provision::{Item, Kit, TABLE};
    own.iter()
        .filter(|(_, v)| {
            !TABLE.iter().any(|(kit, item)| {
                matches!((kit, item), (Kit::Msrv, Item::Toolchain(name, ..)) if name == v)
            })
        })
        .map(|(k, v)| format!("{k} ({v})"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let declared = ["serde", "arbitrary", "sqlx-sqlite"].map(str::to_owned);
        let integrations = ["arbitrary", "sqlx-sqlite", "rkyv"].map(str::to_owned);
        let args = hack_args(
            &Build {
                krate: "oid-core",
                target: Some("thumbv6m-none-eabi"),
                features: "portable-atomic,critical-section",
            },
            &declared,
            &integrations,
        );
        assert_eq!(
            args.join(" "),
            "check --rust-version -p oid-core --lib --each-feature \
             --exclude-features=arbitrary,sqlx-sqlite --target thumbv6m-none-eabi \
             --features=portable-atomic,critical-section"
        );
        let cli = hack_args(
            &Build {
                krate: "oid-cli",
                target: None,
                features: "",
            },
            &[],
            &integrations,
        );
        assert_eq!(
            cli.join(" "),
            "check --rust-version -p oid-cli --bins --each-feature"
        );
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
