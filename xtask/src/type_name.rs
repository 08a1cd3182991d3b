//! `cargo xtask type-name`: the BSON serializer rule against the next compilers.
//!
//! The rule (`oid-core/src/external/serde_support/bson_rule.rs`) tells bson's serializers from
//! the rest by `core::any::type_name`, whose output std calls best effort, free to change
//! between releases. The pinned toolchain runs the rule's tests in the test step; this step runs
//! `integrations/type-name` (the rule's verdicts on real bson and serde_json serializers, and
//! what bson stores for an id through them) on the newest stable and on beta, building only that
//! crate's few dependencies, so a compiler that spells type names differently fails CI before a
//! release built with it stores hex strings where bson wants ObjectIds.

use xshell::{Shell, cmd};

use crate::util::{Result, cargo_target_dir, run};

/// The step: each toolchain in a target folder of its own under `target/type-name/`.
pub(crate) fn step(sh: &Shell) -> Result {
    // `install` on a channel brings it to the channel's newest release (a no-op when it is
    // there already): an installed stable is otherwise never updated, and a fresh machine's
    // stable is its image's, the pinned release itself. Last in the run, after `newest`, which
    // builds on the machine's stable so that it shares the test step's build. `--force`: a
    // target added to an installed stable (the thumb targets here) that the new release does not
    // ship for does not stop the update.
    run(cmd!(
        sh,
        "rustup toolchain install --profile minimal --force stable beta"
    ))?;
    for toolchain in ["stable", "beta"] {
        run(cmd!(sh, "rustc +{toolchain} --version"))?;
        let dir = cargo_target_dir().join("type-name").join(toolchain);
        run(cmd!(
            sh,
            "cargo +{toolchain} test --locked -p oid-type-name-tests --lib"
        )
        .env("CARGO_TARGET_DIR", dir))?;
    }
    Ok(())
}
