//! `cargo xtask ci`: the list of CI steps. The steps themselves live in the module of their
//! command; a failed step does not stop the others, and the summary lists them all with times.

use xshell::cmd;

use crate::util::{Result, Runner, ensure_targets, run, toolchain_targets};

/// The rough length of the whole run on a fresh 2-core machine with the build cache empty
/// (printed before the run starts): about 30 minutes measured, plus about 8 estimated for the
/// user-build steps (`userbuild.rs`: two more cold builds, on stable and on nightly).
pub(crate) const ROUGH_MINUTES: u32 = 38;

/// `cargo xtask ci`: prints the steps and their rough duration, then runs them.
pub(crate) fn ci() -> Result {
    let mut plan = Runner::plan()?;
    steps(&mut plan);
    eprintln!(
        "cargo xtask ci: {} steps, about {ROUGH_MINUTES} minutes on a fresh 2-core machine",
        plan.names().len()
    );
    for (i, name) in plan.names().iter().enumerate() {
        eprintln!("  {:>3}. {name}", i + 1);
    }
    let mut r = Runner::new()?;
    steps(&mut r);
    // Every step that installs has waited already; this reports a background failure that no
    // step got to see.
    crate::provision::join_background();
    r.finish()
}

/// Every CI step, in order.
fn steps(r: &mut Runner) {
    r.step("rustup targets (rust-toolchain.toml)", |sh| {
        let targets = toolchain_targets()?;
        let targets: Vec<&str> = targets.iter().map(String::as_str).collect();
        ensure_targets(sh, &targets)
    });
    // apt, pip, npm and rustup (other toolchains) while the next steps compile; the first step
    // that needs any of it (the release check's cargo-deny) waits for it.
    r.step(
        "provision in the background (log in target/ci-provision.log)",
        crate::provision::start_background,
    );
    r.step("fmt", |sh| run(cmd!(sh, "cargo fmt --all --check")));
    r.step("clippy (all features)", |sh| {
        run(cmd!(
            sh,
            "cargo clippy --workspace --all-targets --all-features -- -D warnings"
        )
        // What the rustdoc step sets (docsrs.rs): the dependencies it checks serve both.
        .env("RUSTC_BOOTSTRAP", "1"))
    });
    r.step("clippy (no default features)", |sh| {
        run(cmd!(
            sh,
            "cargo clippy --workspace --all-targets --no-default-features -- -D warnings"
        )
        // The same as the step above: a different setting re-runs the build scripts that read
        // it (proc-macro2's) and checks every dependency again (77 s instead of 13 s).
        .env("RUSTC_BOOTSTRAP", "1"))
    });
    // docs.rs's build: `--cfg docsrs` needs `doc_cfg`, so RUSTC_BOOTSTRAP=1, right after the
    // clippy steps that set it too, whose checked dependencies it reuses (the test steps
    // below do not set it).
    r.step(crate::docsrs::STEP, crate::docsrs::check);
    // Every member: the integrations test crate, the benches (type-checked by clippy above, the
    // bench profile is not built: no step runs them) and xtask's own tests (the tidy checks).
    r.step("test (all features)", |sh| {
        run(cmd!(sh, "cargo test --workspace --all-features"))
    });
    // The published libraries (their default configuration, which the all-features run does not
    // test): oid-cli has no features, and the other members (test, bench and tool crates) none
    // worth a second build.
    r.step("test (no default features)", |sh| {
        run(cmd!(
            sh,
            "cargo test -p oid-core -p oid-std -p oid-bson -p oid-embedded --no-default-features"
        ))
    });
    // The workspace runs above cover oid-bson's two features together (with bson's own
    // `serde_path_to_error` feature) and neither; these are the two single choices.
    r.step("bson-tests: oid-bson with bson-2 only, bson-3 only", |sh| {
        run(cmd!(sh, "cargo test -p oid-bson-tests"))?;
        run(cmd!(
            sh,
            "cargo test -p oid-bson-tests --no-default-features --features bson-3"
        ))
    });
    r.step(
        "oid-core: oid! compile-fail tests (trybuild)",
        crate::verify::ui_step,
    );
    r.step("oid-std past capacity (release)", |sh| {
        run(cmd!(
            sh,
            "cargo test -p oid-std --release --test capacity --test policy -- --include-ignored"
        ))
    });
    r.step("oid-cli: 40 M ids (release)", |sh| {
        run(cmd!(
            sh,
            "cargo test -p oid-cli --release --test new -- --ignored"
        ))
    });
    crate::release::ci_steps(r);
    r.step(
        "msrv: every published crate with rust-version",
        crate::msrv::check,
    );
    crate::nostd::steps(r);
    r.step("web page: wasm + chromium", crate::web::build_and_test);
    crate::readme_deps::step(r);
    crate::firmware::ci_steps(r);
    crate::verify::ci_steps(r);
    crate::postgres::ci_step(r);
    crate::userbuild::ci_steps(r);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_lists_every_step_without_running_one() {
        let start = std::time::Instant::now();
        let mut plan = Runner::plan().unwrap();
        steps(&mut plan);
        let names = plan.names();
        assert!(start.elapsed().as_secs() < 5, "planning ran something");
        for expected in [
            "provision in the background (log in target/ci-provision.log)",
            "fmt",
            "clippy (all features)",
            "test (all features)",
            "oid-core: oid! compile-fail tests (trybuild)",
            crate::docsrs::STEP,
            "release: cargo publish --workspace --dry-run",
            "release: cargo deny check licenses bans sources",
            "release: oid-bson's README driver example against mongodb",
            "msrv: every published crate with rust-version",
            "verify: feature combinations",
            crate::userbuild::NEWEST,
            crate::userbuild::MINIMAL,
            crate::userbuild::LOOM_CONSUMER,
        ] {
            assert!(
                names.iter().any(|n| n == expected),
                "{expected} not in {names:?}"
            );
        }
        let mut sorted = names.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "step names repeat: {names:?}");
    }
}
