//! The release check: `cargo xtask package` (`cargo publish --workspace --dry-run`: the five
//! crates packaged and each built from its package, as the registry would) and `cargo xtask deny`
//! (`cargo deny check licenses bans sources` with `deny.toml`). Both are CI steps.

use xshell::{Shell, cmd};

use crate::provision;
use crate::util::{Result, Runner, run};

/// The crates `cargo publish --workspace` packages, in publishing order (`RELEASING.md`).
pub(crate) const PUBLISHED: &[&str] =
    &["oid-core", "oid-std", "oid-bson", "oid-embedded", "oid-cli"];

/// Adds the release check's steps to `r`.
pub(crate) fn ci_steps(r: &mut Runner) {
    r.step("release: cargo publish --workspace --dry-run", package_step);
    r.step("release: cargo deny check licenses bans sources", deny_step);
    r.step(
        "release: oid-bson's README driver example against mongodb",
        driver_step,
    );
}

/// `cargo xtask driver`.
pub(crate) fn driver() -> Result {
    let mut r = Runner::new()?;
    r.step(
        "release: oid-bson's README driver example against mongodb",
        driver_step,
    );
    r.finish()
}

/// Type-checks `oid-bson/driver-example` (the README's driver code, a workspace of its own with
/// its own lock file) against the real `mongodb` driver, in `target/driver-example`.
fn driver_step(sh: &Shell) -> Result {
    let manifest = crate::util::project_root().join("oid-bson/driver-example/Cargo.toml");
    run(
        cmd!(sh, "cargo check --locked --manifest-path {manifest}").env(
            "CARGO_TARGET_DIR",
            crate::util::cargo_target_dir().join("driver-example"),
        ),
    )
}

/// `cargo xtask package`.
pub(crate) fn package() -> Result {
    let mut r = Runner::new()?;
    r.step("release: cargo publish --workspace --dry-run", package_step);
    r.finish()
}

/// `cargo xtask deny`.
pub(crate) fn deny() -> Result {
    let mut r = Runner::new()?;
    r.step("release: cargo deny check licenses bans sources", deny_step);
    r.finish()
}

/// Packages every publishable crate and builds each from its `.crate` (sibling crates resolve
/// to the packaged ones). `--allow-dirty`: CI runs on a clean clone, and a developer running it
/// with uncommitted edits wants those checked, not refused.
fn package_step(sh: &Shell) -> Result {
    run(cmd!(
        sh,
        "cargo publish --workspace --dry-run --allow-dirty --locked"
    ))?;
    // Every package ships both licence texts (the licence requires the text to go with the code).
    let mut missing = Vec::new();
    for krate in PUBLISHED {
        let list = cmd!(sh, "cargo package -p {krate} --list --allow-dirty")
            .quiet()
            .read()?;
        for file in ["LICENSE-MIT", "LICENSE-APACHE", "README.md", "CHANGELOG.md"] {
            if !list.lines().any(|l| l == file) {
                missing.push(format!("{krate}: {file}"));
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("missing from the packages: {}", missing.join(", ")).into())
    }
}

/// `cargo deny check licenses bans sources` (cargo-deny installed by xtask).
fn deny_step(sh: &Shell) -> Result {
    let path = provision::cargo_tools(sh)?;
    run(cmd!(sh, "cargo deny --locked check licenses bans sources").env("PATH", path))
}
