//! The builds a user gets, which this repository's own `Cargo.lock` and pinned toolchain hide:
//!
//! * `newest` (`cargo xtask newest`): a scratch copy of the workspace under
//!   `target/userbuild/newest/`, `cargo update` on the newest installed stable toolchain with
//!   `CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=allow` (what `cargo add` resolves in a new
//!   project), then `cargo test --workspace --all-features --locked --no-fail-fast` (xtask left
//!   out). It catches a dependency release that breaks us (async-graphql 7.2 added a field to the
//!   `MetaType` our hand-written impls built: E0063).
//! * `minimal` (`cargo xtask minimal`): the published crates alone (a scratch copy whose
//!   workspace has only them, without their dev-dependencies), their direct dependencies at the
//!   minimums the manifests declare (`cargo +nightly update -Z direct-minimal-versions`), then
//!   `cargo check --all-features`. It catches a declared minimum lower than the API we use.
//! * `loom-consumer` (`cargo xtask loom-consumer`): `integrations/loom-consumer`, an application
//!   of its own, run with `RUSTFLAGS="--cfg loom"` (how tokio-style projects run their loom tests,
//!   for the whole graph): statics of oid-core's `IdSpace` and `Generator`, oid-embedded's
//!   `SharedGenerator`, and `oid_std::new()`. It catches a cfg of ours that another crate's
//!   convention switches on.
//!
//! Every build has a target folder of its own under `target/`, kept between runs. `newest` and
//! `minimal` build with the workspace's own compiler and profile, so their build directory
//! (`build.build-dir`) is the workspace's: the dependencies the update did not move are not built
//! again. `loom-consumer`'s `RUSTFLAGS` would rebuild all of them: it has a folder of its own.

use std::path::Path;

use xshell::{Shell, cmd};

use crate::release::PUBLISHED;
use crate::util::{Result, cargo_target_dir, project_root, repo_files, run};

/// Crates released together whose leader asks for its companions with a caret requirement only:
/// the `minimal` step sets the companions to the leader's version.
const LOCKSTEP: &[(&str, &[&str])] = &[(
    "async-graphql",
    &[
        "async-graphql-derive",
        "async-graphql-parser",
        "async-graphql-value",
    ],
)];

/// The newest compatible release of every dependency, on the newest stable toolchain (installed
/// if missing), every member tested with all its features.
pub(crate) fn newest_step(sh: &Shell) -> Result {
    crate::provision::install(sh, crate::provision::Kit::Stable)?;
    let base = cargo_target_dir().join("userbuild");
    let copy = base.join("newest");
    scratch_copy(&copy)?;
    let _dir = sh.push_dir(&copy);
    // The same compiler and profile as the workspace's own test step: its build directory
    // (`build.build-dir`, stable since Cargo 1.91) keeps every dependency the update did not move,
    // so only the moved ones and their dependents are built again (on a fresh 2-core machine the
    // step took 1,001 s with a folder of its own). The final artifacts (the `oid` binary, …) go to
    // a target folder of their own, so the workspace's `target/debug/oid` stays its own build.
    let _build = sh.push_env("CARGO_BUILD_BUILD_DIR", cargo_target_dir());
    let _target = sh.push_env("CARGO_TARGET_DIR", base.join("newest-target"));
    // A user's `cargo update` on a toolchain newer than our rust-version gets the newest releases
    // whatever their own rust-version says.
    // cargo prints each package it moves (`Updating serde v1.0.200 -> v1.0.229`).
    run(cmd!(sh, "cargo +stable update").env("CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS", "allow"))?;
    // xtask is no user's crate, and its tidy tests read the repository, which the copy is not.
    run(cmd!(
        sh,
        "cargo +stable test --workspace --exclude xtask --all-features --locked --no-fail-fast"
    ))
}

/// The published crates with their direct dependencies at the declared minimums (nightly's
/// `-Z direct-minimal-versions`, nightly installed if missing), checked with all features.
pub(crate) fn minimal_step(sh: &Shell) -> Result {
    crate::provision::install(sh, crate::provision::Kit::Nightly)?;
    let base = cargo_target_dir().join("userbuild");
    let copy = base.join("minimal");
    scratch_copy(&copy)?;
    // Only the published crates ([`PUBLISHED`]; oid-audit, a path dependency of oid-cli, is a
    // member either way), without dev-dependencies: the test crates and dev-dependencies have
    // minimums of their own that no user resolves (and that conflict with the libraries':
    // bson-tests needs bson 2.15, oid-bson declares 2.3).
    let root = copy.join("Cargo.toml");
    let manifest = std::fs::read_to_string(&root)?;
    std::fs::write(&root, published_workspace(&manifest)?)?;
    for krate in PUBLISHED {
        let path = copy.join(krate).join("Cargo.toml");
        let manifest = std::fs::read_to_string(&path)?;
        std::fs::write(&path, without_dev_dependencies(&manifest))?;
    }
    let _dir = sh.push_dir(&copy);
    // Nightly only resolves (`-Z direct-minimal-versions`); the check runs on the pinned toolchain
    // with the all-features clippy step's settings (`RUSTC_BOOTSTRAP=1`, which nightly had too),
    // in the workspace's build directory: every dependency the minimums did not move is checked
    // already (nightly in a folder of its own checked all of them again: 462 s cold).
    let _build = sh.push_env("CARGO_BUILD_BUILD_DIR", cargo_target_dir());
    let _target = sh.push_env("CARGO_TARGET_DIR", base.join("minimal-target"));
    run(cmd!(sh, "cargo +nightly update -Z direct-minimal-versions"))?;
    // The indirect dependencies are at their newest; a crate whose companions follow it with a
    // caret requirement gets them at its own version, as its users' locks have them (async-graphql
    // 7.0.0 does not build with async-graphql-derive 7.2).
    let lock = std::fs::read_to_string(copy.join("Cargo.lock"))?;
    for (leader, companions) in LOCKSTEP {
        let Some(version) = locked_version(&lock, leader) else {
            return Err(format!("{leader} is not in the minimal lock file").into());
        };
        for c in *companions {
            run(cmd!(sh, "cargo +nightly update -p {c} --precise {version}"))?;
        }
    }
    run(cmd!(
        sh,
        "cargo check --workspace --all-features --locked --keep-going"
    )
    .env("RUSTC_BOOTSTRAP", "1"))
}

/// `integrations/loom-consumer` built and run with `RUSTFLAGS="--cfg loom"`, in
/// `target/loom-consumer`.
pub(crate) fn loom_consumer_step(sh: &Shell) -> Result {
    let manifest = project_root().join("integrations/loom-consumer/Cargo.toml");
    run(cmd!(sh, "cargo run --manifest-path {manifest}")
        .env("RUSTFLAGS", "--cfg loom")
        .env("CARGO_TARGET_DIR", cargo_target_dir().join("loom-consumer")))
}

/// Replaces `dir` with a copy of the workspace's files ([`repo_files`]).
fn scratch_copy(dir: &Path) -> Result {
    let files = repo_files()?;
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    for file in &files {
        let to = dir.join(file);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(project_root().join(file), &to)?;
    }
    eprintln!(
        "userbuild: {} files copied to {}",
        files.len(),
        dir.display()
    );
    Ok(())
}

/// The version of the one package named `name` in a `Cargo.lock`.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let lock: toml::Table = lock.parse().ok()?;
    let packages = lock.get("package")?.as_array()?;
    let package = packages
        .iter()
        .find(|p| p.get("name").and_then(toml::Value::as_str) == Some(name))?;
    Some(package.get("version")?.as_str()?.to_owned())
}

/// The root manifest with `members` and `default-members` set to the published crates.
fn published_workspace(manifest: &str) -> Result<String> {
    let list = PUBLISHED
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let mut found = false;
    let out = manifest
        .lines()
        .map(|line| {
            let one_line = line.trim_end().ends_with(']');
            if line.starts_with("members = [") && one_line {
                found = true;
                format!("members = [{list}]")
            } else if line.starts_with("default-members = [") && one_line {
                format!("default-members = [{list}]")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    if found {
        Ok(out + "\n")
    } else {
        Err("the root Cargo.toml has no one-line `members = [...]`".into())
    }
}

/// A manifest without its `[dev-dependencies]` tables (plain and `[target.'…'.dev-dependencies]`).
fn without_dev_dependencies(manifest: &str) -> String {
    let mut skip = false;
    let mut out = String::new();
    for line in manifest.lines() {
        let header = line.trim_start();
        if header.starts_with('[') {
            skip = header.trim_end().ends_with("dev-dependencies]");
        }
        if !skip {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locked_version_reads_the_named_package_only() {
        let lock = "[[package]]\nname = \"async-graphql-derive\"\nversion = \"7.2.1\"\n\n[[package]]\nname = \"async-graphql\"\nversion = \"7.0.0\"\nsource = \"registry\"\n";
        assert_eq!(
            locked_version(lock, "async-graphql").as_deref(),
            Some("7.0.0")
        );
        assert_eq!(
            locked_version(lock, "async-graphql-derive").as_deref(),
            Some("7.2.1")
        );
        assert_eq!(locked_version(lock, "async"), None);
    }

    #[test]
    fn the_minimal_workspace_has_only_the_published_crates_without_dev_dependencies() {
        let root = "[workspace]\nmembers = [\"oid-core\", \"xtask\", \"bson-tests\"]\nexclude = [\"x\"]\ndefault-members = [\"oid-core\", \"xtask\"]\n[workspace.dependencies]\nserde = \"1\"\n";
        let out = published_workspace(root).unwrap();
        let list = "[\"oid-core\", \"oid-std\", \"oid-bson\", \"oid-embedded\", \"oid-arrow\", \"oid-audit\", \"oid-cli\"]";
        assert!(out.contains(&format!("\nmembers = {list}\n")), "{out}");
        assert!(
            out.contains(&format!("\ndefault-members = {list}\n")),
            "{out}"
        );
        assert!(out.contains("\nexclude = [\"x\"]\n"), "{out}");
        assert!(
            out.ends_with("[workspace.dependencies]\nserde = \"1\"\n"),
            "{out}"
        );
        assert!(published_workspace("[workspace]\nmembers = [\n  \"a\",\n]\n").is_err());

        let krate = "[package]\nname = \"a\"\n\n[dependencies]\nserde = { workspace = true }\n\n[target.'cfg(not(any(loom, trybuild)))'.dev-dependencies]\nproptest = { workspace = true }\n\n[dev-dependencies]\nbson = \"2\"\n\n[target.'cfg(loom)'.dev-dependencies]\nloom = \"0.7\"\n\n[[example]]\nname = \"ds3231\"\n\n[lints]\nworkspace = true\n";
        let out = without_dev_dependencies(krate);
        assert_eq!(
            out,
            "[package]\nname = \"a\"\n\n[dependencies]\nserde = { workspace = true }\n\n[[example]]\nname = \"ds3231\"\n\n[lints]\nworkspace = true\n"
        );
        // Nothing to drop: unchanged.
        assert_eq!(without_dev_dependencies(&out), out);
    }
}
