//! `cargo xtask type-name`: the BSON serializer rule against the next compilers.
//!
//! The rule (`oid-core/src/external/serde_support/bson_rule.rs`) tells bson's serializers from
//! the rest by `core::any::type_name`, whose output std documents as best effort, free to change
//! between compiler releases. The pinned toolchain runs its tests in every test step; this step
//! runs them on the newest stable and on beta too, so that a compiler spelling type names
//! differently fails our CI before a release built with it writes hex strings where bson
//! expects ObjectIds.

use xshell::{Shell, cmd};

use crate::util::{Result, Runner, cargo_target_dir, run};

/// The toolchains after the pinned one: the newest stable and the next release.
const TOOLCHAINS: &[&str] = &["stable", "beta"];

/// The tests that read real serializers' type names: the rule's own (`bson_rule::tests`: bson's,
/// serde_json's and our wrappers' names as the compiler spells them) and the serde impl's, which
/// write ids through bson 3 (native ObjectId elements, also inside flattened structs), JSON and
/// the binary formats.
const FILTER: &str = "external::serde_support";

/// One step per toolchain.
pub(crate) fn steps(r: &mut Runner) {
    for toolchain in TOOLCHAINS {
        r.cmd("type-name").step(
            &format!("serializer rule (type_name) on {toolchain}"),
            move |sh| check(sh, toolchain),
        );
    }
}

/// Installs `toolchain` when missing, or updates it to the channel's newest release
/// (`RUSTUP_AUTO_INSTALL=0` installs nothing by itself), then builds and runs the rule's tests
/// with it, in a target folder of its own (`target/type-name/<toolchain>`). An update that
/// fails (say an installed target the new release no longer ships) keeps the installed release,
/// and says so; the version tested is printed either way.
fn check(sh: &Shell, toolchain: &str) -> Result {
    let installed = cmd!(sh, "rustup toolchain list").quiet().read()?;
    let prefix = format!("{toolchain}-");
    if installed.lines().any(|l| l.starts_with(&prefix)) {
        let update = cmd!(
            sh,
            "rustup toolchain install {toolchain} --profile minimal --no-self-update"
        );
        if update.run().is_err() {
            eprintln!("type-name: {toolchain} not updated; testing the installed release");
        }
    } else {
        run(cmd!(
            sh,
            "rustup toolchain install {toolchain} --profile minimal --no-self-update"
        ))?;
    }
    let version = cmd!(sh, "rustc +{toolchain} --version").read()?;
    eprintln!("type-name: {version}");
    let dir = cargo_target_dir().join("type-name").join(toolchain);
    run(cmd!(
        sh,
        "cargo +{toolchain} test -p oid-core --features serde --lib --locked {FILTER}"
    )
    .env("CARGO_TARGET_DIR", dir))
}
