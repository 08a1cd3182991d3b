//! The release check: `cargo xtask package` (`cargo publish --workspace --dry-run`: the five
//! crates packaged and each built from its package, as the registry would) and `cargo xtask deny`
//! (`cargo deny check licenses bans sources` with `deny.toml`). Both are CI steps.

use std::path::{Path, PathBuf};

use xshell::{Shell, cmd};

use crate::util::{Result, all_passed, cargo, cargo_target_dir, project_root, run};

/// The crates `cargo publish --workspace` packages, in publishing order (`RELEASING.md`).
pub(crate) const PUBLISHED: &[&str] = &[
    "oid-core",
    "oid-std",
    "oid-bson",
    "oid-embedded",
    "oid-arrow",
    "oid-audit",
    "oid-cli",
];

/// Type-checks `oid-bson/driver-example` (the README's driver code, a workspace of its own with
/// its own lock file) against the real `mongodb` driver, in `target/driver-example`.
pub(crate) fn driver_step(sh: &Shell) -> Result {
    let manifest = project_root().join("oid-bson/driver-example/Cargo.toml");
    let check = cargo(sh, "check --locked --manifest-path").arg(manifest);
    let target = cargo_target_dir().join("driver-example");
    run(check.arg("--target-dir").arg(target))
}

/// Packages every publishable crate and builds each from its `.crate` (sibling crates resolve
/// to the packaged ones). `--allow-dirty`: CI runs on a clean clone, and a developer running it
/// with uncommitted edits wants those checked, not refused.
pub(crate) fn package_step(sh: &Shell) -> Result {
    let home = std::env::var_os("CARGO_HOME").map(PathBuf::from);
    let home = home.or_else(|| Some(Path::new(&std::env::var_os("HOME")?).join(".cargo")));
    let version = crate::util::toml_str("Cargo.toml", "workspace.package.version")?;
    let home = home.ok_or("neither CARGO_HOME nor HOME is set")?;
    remove_unpacked_in(sh, &home, &version)?;
    // Cargo takes a registry crate's version as immutable: a copy unpacked again with newer code
    // but the same version would otherwise be linked as an earlier dry run compiled it (seen: a
    // second run failed on a method that had been private in the first). `clean -p` removes the
    // builds of our crates only (those of the workspace and of the packages; not those of
    // `oid-bson-tests` and the like): they build in seconds.
    run(cargo(sh, "clean").args(PUBLISHED.iter().flat_map(|krate| ["-p", krate])))?;
    run(cargo(
        sh,
        "publish --workspace --dry-run --allow-dirty --locked",
    ))?;
    // Every package ships both licence texts (the licence requires the text to go with the code).
    let mut missing = Vec::new();
    for krate in PUBLISHED {
        let list = cmd!(sh, "cargo package -p {krate} --list --allow-dirty")
            .quiet()
            .read()?;
        for file in ["LICENSE-MIT", "LICENSE-APACHE", "README.md", "CHANGELOG.md"] {
            if !list.lines().any(|l| l == file) {
                missing.push(format!("{krate} lacks {file} in its package"));
            }
        }
    }
    all_passed(&missing)
}

/// `cargo deny check licenses bans sources` (cargo-deny installed by xtask).
pub(crate) fn deny_step(sh: &Shell) -> Result {
    let _tools = crate::provision::cargo_tools(sh)?;
    run(cargo(sh, "deny --locked check licenses bans sources"))?;
    // oid-datafusion is a workspace of its own: the same licence and source rules over its lock
    // (DataFusion and Ballista bring several majors of many crates, which are theirs to choose).
    let manifest = project_root().join("oid-datafusion/Cargo.toml");
    let deny = cargo(
        sh,
        "deny --config deny.toml --locked --all-features --manifest-path",
    );
    run(deny.arg(manifest).args(["check", "licenses", "sources"]))
}

/// Removes the sources of our crates (at `version`) that an earlier dry run unpacked from its
/// local overlay registry (`<home>/registry/src/-<hash>/<crate>-<version>`). Cargo does not
/// unpack a version again when its folder exists, so without this the next dry run builds each
/// crate against the siblings' sources as they were then (same version, older code) and fails
/// or, worse, passes on stale code. crates.io's folders (`index.crates.io-...`) are not touched.
fn remove_unpacked_in(sh: &Shell, home: &Path, version: &str) -> Result {
    let registries = std::fs::read_dir(home.join("registry/src"))
        .into_iter()
        .flatten()
        .flatten();
    for registry in registries.filter(|r| r.file_name().to_string_lossy().starts_with('-')) {
        for krate in PUBLISHED {
            let dir = registry.path().join(format!("{krate}-{version}"));
            if dir.is_dir() {
                eprintln!(
                    "package: removing {} (an earlier dry run's sources)",
                    dir.display()
                );
                sh.remove_path(&dir)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_names_every_member_cargo_would_publish() {
        let members = crate::util::toml_value("Cargo.toml", "workspace.members").unwrap();
        let mut publishable: Vec<&str> = members
            .as_array()
            .unwrap()
            .iter()
            .filter_map(toml::Value::as_str)
            .filter(|m| {
                let path = format!("{m}/Cargo.toml");
                crate::util::toml_value(&path, "package.publish").is_err()
            })
            .collect();
        let mut published = PUBLISHED.to_vec();
        publishable.sort_unstable();
        published.sort_unstable();
        assert_eq!(publishable, published);
    }

    #[test]
    fn only_our_crates_from_local_registries_are_removed() {
        let home = crate::util::cargo_target_dir().join("xtask-test-cargo-home");
        let _ = std::fs::remove_dir_all(&home);
        let src = home.join("registry/src");
        let dirs = [
            "-0123abcd/oid-core-0.1.0",
            "-0123abcd/oid-std-0.2.0",
            "-0123abcd/serde-1.0.0",
            "index.crates.io-1949cf8c6b5b557f/oid-core-0.1.0",
        ];
        for d in dirs {
            std::fs::create_dir_all(src.join(d).join("src")).unwrap();
        }
        remove_unpacked_in(&Shell::new().unwrap(), &home, "0.1.0").unwrap();
        let left: Vec<bool> = dirs.iter().map(|d| src.join(d).exists()).collect();
        assert_eq!(left, [false, true, true, true]);
        std::fs::remove_dir_all(&home).unwrap();
        // A cargo home without registries is fine.
        remove_unpacked_in(&Shell::new().unwrap(), &home, "0.1.0").unwrap();
    }
}
