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

use xshell::{PushDir, PushEnv, Shell, cmd};

use crate::release::PUBLISHED;
use crate::util::{Result, cargo, cargo_target_dir, project_root, repo_files, run};

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
    let _copy = scratch_copy(sh, "newest")?;
    // A user's `cargo update` on a toolchain newer than our rust-version gets the newest releases
    // whatever their own rust-version says.
    // cargo prints each package it moves (`Updating serde v1.0.200 -> v1.0.229`).
    run(cargo(sh, "+stable update").env("CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS", "allow"))?;
    // xtask is no user's crate, and its tidy tests read the repository, which the copy is not.
    let test = "+stable test --workspace --exclude xtask --all-features --locked --no-fail-fast";
    run(cargo(sh, test))
}

/// The published crates with their direct dependencies at the declared minimums (nightly's
/// `-Z direct-minimal-versions`, nightly installed if missing), checked with all features.
pub(crate) fn minimal_step(sh: &Shell) -> Result {
    crate::provision::install(sh, crate::provision::Kit::Nightly)?;
    let _copy = scratch_copy(sh, "minimal")?;
    // Only the published crates ([`PUBLISHED`]; oid-audit, a path dependency of oid-cli, is a
    // member either way), without dev-dependencies: the test crates and dev-dependencies have
    // minimums of their own that no user resolves (and that conflict with the libraries':
    // bson-tests needs bson 2.15, oid-bson declares 2.3).
    for dir in PUBLISHED.iter().chain(&["."]) {
        let manifest = format!("{dir}/Cargo.toml");
        sh.write_file(&manifest, published_only(&sh.read_file(&manifest)?)?)?;
    }
    // Nightly only resolves (`-Z direct-minimal-versions`); the check runs on the pinned toolchain
    // with the all-features clippy step's settings (`RUSTC_BOOTSTRAP=1`, which nightly had too).
    run(cargo(sh, "+nightly update -Z direct-minimal-versions"))?;
    // The indirect dependencies are at their newest; a crate whose companions follow it with a
    // caret requirement gets them at its own version, as its users' locks have them (async-graphql
    // 7.0.0 does not build with async-graphql-derive 7.2). `cargo pkgid` ends in `@<version>`.
    for (leader, companions) in LOCKSTEP {
        let id = cmd!(sh, "cargo +nightly pkgid {leader}").read()?;
        let (_, version) = id
            .rsplit_once('@')
            .ok_or(format!("cargo pkgid {leader}: no version in {id:?}"))?;
        for c in *companions {
            run(cmd!(sh, "cargo +nightly update -p {c} --precise {version}"))?;
        }
    }
    let check = cargo(sh, "check --workspace --all-features --locked --keep-going");
    run(check.env("RUSTC_BOOTSTRAP", "1"))
}

/// `integrations/loom-consumer` built and run with `RUSTFLAGS="--cfg loom"`, in
/// `target/loom-consumer`.
pub(crate) fn loom_consumer_step(sh: &Shell) -> Result {
    let manifest = project_root().join("integrations/loom-consumer/Cargo.toml");
    let consumer = cargo(sh, "run --manifest-path")
        .arg(manifest)
        .env("RUSTFLAGS", "--cfg loom");
    run(consumer.env("CARGO_TARGET_DIR", cargo_target_dir().join("loom-consumer")))
}

/// Replaces `target/userbuild/<name>` with a copy of the workspace's files ([`repo_files`]) and
/// makes it the shell's folder. Its builds use the same compiler and profile as the workspace's
/// own steps, so its build directory (`build.build-dir`, stable since Cargo 1.91) is the
/// workspace's: every dependency that did not move is not built again (on a fresh 2-core machine
/// `newest` took 1,001 s with a folder of its own; `minimal` checked with nightly in a folder of
/// its own: 462 s cold). The final artifacts (the `oid` binary, …) go to
/// `target/userbuild/<name>-target`, so the workspace's `target/debug/oid` stays its own build.
fn scratch_copy<'a>(sh: &'a Shell, name: &str) -> Result<(PushDir<'a>, [PushEnv<'a>; 2])> {
    let (base, files) = (cargo_target_dir().join("userbuild"), repo_files()?);
    let dir = base.join(name);
    sh.remove_path(&dir)?;
    for file in &files {
        std::fs::create_dir_all(dir.join(file).parent().unwrap_or(&dir))?;
        std::fs::copy(project_root().join(file), dir.join(file))?;
    }
    eprintln!(
        "userbuild: {} files copied to {}",
        files.len(),
        dir.display()
    );
    let build = sh.push_env("CARGO_BUILD_BUILD_DIR", cargo_target_dir());
    let target = sh.push_env("CARGO_TARGET_DIR", base.join(format!("{name}-target")));
    Ok((sh.push_dir(dir), [build, target]))
}

/// A manifest without its `[dev-dependencies]` tables (plain and `[target.'…'.dev-dependencies]`),
/// and, in the root's `[workspace]`, `members` and `default-members` set to the published crates.
fn published_only(manifest: &str) -> Result<String> {
    let mut manifest: toml::Table = manifest.parse()?;
    if let Some(toml::Value::Table(workspace)) = manifest.get_mut("workspace") {
        for key in ["members", "default-members"] {
            workspace.insert(key.to_owned(), PUBLISHED.to_vec().into());
        }
    }
    manifest.remove("dev-dependencies");
    if let Some(toml::Value::Table(targets)) = manifest.get_mut("target") {
        for target in targets.iter_mut().filter_map(|(_, t)| t.as_table_mut()) {
            target.remove("dev-dependencies");
        }
    }
    Ok(toml::to_string(&manifest)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_minimal_workspace_has_only_the_published_crates_without_dev_dependencies() {
        let root = "[workspace]\nmembers = [\"oid-core\", \"xtask\", \"bson-tests\"]\nexclude = [\"x\"]\ndefault-members = [\"oid-core\", \"xtask\"]\n[workspace.dependencies]\nserde = \"1\"\n";
        let out: toml::Table = published_only(root).unwrap().parse().unwrap();
        let workspace = &out["workspace"];
        for key in ["members", "default-members"] {
            assert_eq!(
                workspace[key],
                toml::Value::from(PUBLISHED.to_vec()),
                "{out}"
            );
        }
        assert_eq!(workspace["exclude"], toml::Value::from(vec!["x"]));
        assert_eq!(workspace["dependencies"]["serde"].as_str(), Some("1"));
        assert!(published_only("[workspace\n").is_err());

        let krate = "[package]\nname = \"a\"\n\n[dependencies]\nserde = { workspace = true }\n\n[target.'cfg(not(any(loom, trybuild)))'.dev-dependencies]\nproptest = { workspace = true }\n\n[dev-dependencies]\nbson = \"2\"\n\n[target.'cfg(loom)'.dev-dependencies]\nloom = \"0.7\"\n[target.'cfg(loom)'.dependencies]\nloom = \"0.7\"\n\n[[example]]\nname = \"ds3231\"\n\n[lints]\nworkspace = true\n";
        let out: toml::Table = published_only(krate).unwrap().parse().unwrap();
        let want = "[package]\nname = \"a\"\n[dependencies]\nserde = { workspace = true }\n[target.'cfg(not(any(loom, trybuild)))']\n[target.'cfg(loom)'.dependencies]\nloom = \"0.7\"\n[[example]]\nname = \"ds3231\"\n[lints]\nworkspace = true\n";
        assert_eq!(out, want.parse::<toml::Table>().unwrap());
        // The repository's manifests stay valid for cargo: checked by the minimal step itself.
        let real = std::fs::read_to_string(project_root().join("oid-core/Cargo.toml")).unwrap();
        let out: toml::Table = published_only(&real).unwrap().parse().unwrap();
        assert!(out.get("dev-dependencies").is_none() && out.get("features").is_some());
    }
}
