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
    // The newest stable by its version, installed beside the others: updating the `stable`
    // channel in place would also move a pinned toolchain that is a link to it (these machines
    // link `1.95.0` to `stable`), and a fresh machine's stable is the pinned release itself.
    // Exit status 100 when any toolchain has an update: the text is what counts.
    let check = cmd!(sh, "rustup check").ignore_status().read()?;
    let stable = newest_stable(&check).ok_or("`rustup check` names no stable release")?;
    // `install` on the beta channel brings it to its newest release (a no-op when it is there).
    run(cmd!(sh, "rustup install --profile minimal {stable} beta"))?;
    for toolchain in [stable, "beta"] {
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

/// The newest stable release in `rustup check`'s output (`stable-<host> - update available:
/// 1.95.0 (…) -> 1.99.1 (…)` or `stable-<host> - up to date: 1.99.1 (…)`).
fn newest_stable(check: &str) -> Option<&str> {
    let line = check.lines().find(|l| l.starts_with("stable-"))?;
    let newest = line.rsplit(['>', ':']).next()?;
    let version = newest.split_whitespace().next()?;
    let numbers = version.split('.').all(|n| n.parse::<u32>().is_ok());
    numbers.then_some(version)
}

#[cfg(test)]
mod tests {
    use super::newest_stable;

    #[test]
    fn the_newest_stable_is_read_from_rustup_check() {
        let update = "stable-x86_64-unknown-linux-gnu - update available: 1.95.0 (59807616e 2026-04-14) -> 1.99.1 (58cf8f9c3 2026-10-13)\nbeta-x86_64-unknown-linux-gnu - up to date: 1.100.0-beta.7 (fd8e211ae 2026-10-17)\n";
        assert_eq!(newest_stable(update), Some("1.99.1"));
        let current = "nightly-x86_64-unknown-linux-gnu - up to date: 1.97.0-nightly (e50aa6fba 2026-05-19)\nstable-x86_64-unknown-linux-gnu - up to date: 1.99.1 (58cf8f9c3 2026-10-13)\n";
        assert_eq!(newest_stable(current), Some("1.99.1"));
        assert_eq!(
            newest_stable("stable-x86_64-unknown-linux-gnu - error\n"),
            None
        );
        assert_eq!(newest_stable(""), None);
    }
}
