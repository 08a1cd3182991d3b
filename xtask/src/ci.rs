//! `cargo xtask ci`: the list of CI steps. The steps themselves live in the module of their
//! command; a failed step does not stop the others, and the summary lists them all with times.

use xshell::Shell;

use crate::util::{Result, Runner, cargo, ensure_targets, run};
use crate::{docsrs, postgres, provision, readme_deps, release, userbuild, verify, web};

/// The rough length of the whole run on a fresh 2-core machine with the build cache empty
/// (printed before the run starts): the last whole run from a clean clone took 48 minutes on a
/// quiet machine that already had the toolchains and apt packages (TESTING.md's "CI time"); a
/// fresh machine also downloads them, in the background.
pub(crate) const ROUGH_MINUTES: u32 = 50;

/// `cargo xtask ci` (`command` `None`: prints the steps and their rough duration, then runs
/// them), or the steps of one command (`cargo xtask msrv`).
pub(crate) fn ci(command: Option<&str>) -> Result {
    if command.is_none() {
        eprintln!("cargo xtask ci, about {ROUGH_MINUTES} minutes on a fresh 2-core machine:");
        steps(&mut Runner {
            dry: true,
            ..Runner::default()
        });
    }
    let mut r = Runner {
        only: command.map(str::to_owned),
        ..Runner::default()
    };
    steps(&mut r);
    // Every step that installs has waited already; this reports a background failure that no
    // step got to see.
    provision::join_background();
    r.finish()
}

/// The step that runs the root README's quick check as written.
pub(crate) const QUICK_CHECK: &str = "test (the README's quick check: cargo test --workspace)";

/// Adds the targets `rust-toolchain.toml` lists to the pinned toolchain.
pub(crate) fn toolchain_targets(sh: &Shell) -> Result {
    let targets = crate::util::toml_value("rust-toolchain.toml", "toolchain.targets")?;
    let targets: Vec<String> = targets.try_into()?;
    ensure_targets(sh, &targets)
}

/// Every CI step, in order (a table: one step a line). `r.cmd(name)` makes a step also the
/// command `cargo xtask <name>`'s; `r.frees(dir)` says it alone uses `target/<dir>`.
#[rustfmt::skip]
fn steps(r: &mut Runner) {
    r.step("rustup targets (rust-toolchain.toml)", toolchain_targets);
    // apt, pip, npm and rustup (other toolchains) while the next steps compile; the first step
    // that needs any of it (the release check's cargo-deny) waits for it.
    r.step("provision in the background (log in target/ci-provision.log)", provision::start_background);
    r.step("fmt", |sh| run(cargo(sh, "fmt --all --check")));
    // RUSTC_BOOTSTRAP=1 on both clippy steps: what the rustdoc step sets (docsrs.rs), so the
    // dependencies they check serve it too; a different setting re-runs the build scripts that
    // read it (proc-macro2's) and checks every dependency again (77 s instead of 13 s).
    r.step("clippy (all features)", |sh| run(cargo(sh, "clippy --workspace --all-targets --all-features -- -D warnings").env("RUSTC_BOOTSTRAP", "1")));
    r.step("clippy (no default features)", |sh| run(cargo(sh, "clippy --workspace --all-targets --no-default-features -- -D warnings").env("RUSTC_BOOTSTRAP", "1")));
    // docs.rs's build: `--cfg docsrs` needs `doc_cfg`, so RUSTC_BOOTSTRAP=1, right after the
    // clippy steps that set it too, whose checked dependencies it reuses (the test steps
    // below do not set it).
    r.cmd("docsrs").step("rustdoc -D warnings, --cfg docsrs: no foreign cfg badge", docsrs::check);
    // Every member: the integrations test crate, the benches (type-checked by clippy above, the
    // bench profile is not built: no step runs them) and xtask's own tests (the tidy checks).
    r.step("test (all features)", |sh| run(cargo(sh, "test --workspace --all-features")));
    // The README's quick check, exactly as written: every member with its default features, so
    // cargo unifies them as a fresh clone does (a test that reads its own crate's feature
    // instead of what the build resolved fails here, not under `--all-features`).
    r.step(QUICK_CHECK, |sh| run(cargo(sh, "test --workspace")));
    // The published libraries (their default configuration, which the all-features run does not
    // test): oid-cli has no features, and the other members (test, bench and tool crates) none
    // worth a second build.
    r.step("test (no default features)", |sh| run(cargo(sh, "test -p oid-core -p oid-std -p oid-bson -p oid-embedded --no-default-features")));
    // The workspace runs above cover oid-bson's two features together (with bson's own
    // `serde_path_to_error` feature) and neither; these are the two single choices, and both
    // without bson's `serde_path_to_error` (`tests/both.rs`: the root follows bson 3).
    r.step("bson-tests: oid-bson with bson-2 only, bson-3 only, both", |sh| {
        run(cargo(sh, "test -p oid-bson-tests"))?;
        run(cargo(sh, "test -p oid-bson-tests --features bson-3"))?;
        run(cargo(sh, "test -p oid-bson-tests --no-default-features --features bson-3"))
    });
    r.cmd("ui").step("oid-core: oid! compile-fail tests (trybuild)", verify::ui_step);
    // The optimized runs use the `ci` profile (release without whole-program LTO, see the root
    // Cargo.toml), shared with the stress step's build of oid-verify.
    r.step("oid-std past capacity (optimized)", |sh| run(cargo(sh, "test -p oid-std --profile ci --test capacity --test policy -- --include-ignored")));
    r.step("oid-cli: 40 M ids (optimized)", |sh| run(cargo(sh, "test -p oid-cli --profile ci --test new -- --ignored")));
    r.cmd("datafusion").frees("datafusion").step(crate::datafusion::STEP, crate::datafusion::step);
    r.cmd("package").frees("package").step("release: cargo publish --workspace --dry-run", release::package_step);
    r.cmd("deny").step("release: cargo deny check licenses bans sources", release::deny_step);
    r.cmd("driver").frees("driver-example").step("release: oid-bson's README driver example against mongodb", release::driver_step);
    r.cmd("msrv").frees("msrv").step("msrv: every published crate with rust-version", crate::nostd::msrv);
    crate::nostd::steps(r);
    r.cmd("web-test").step("web page: wasm + chromium + firefox", web::build_and_test);
    r.cmd("readme-deps").step("README dependency lines build as written", readme_deps::check);
    crate::firmware::ci_steps(r);
    r.cmd("diff").step("verify: differential test vs pymongo and js-bson", verify::diff_step);
    r.cmd("columns").step("oid-arrow: Parquet and IPC with pyarrow/pymongoarrow, Polars, DuckDB", crate::columns::step);
    r.cmd("audit").step("oid audit: 1,000 pymongo and 1,000 js-bson processes, no finding; the report page in Chromium", crate::audit::step);
    r.frees("fuzz").step("verify: fuzz (4 targets)", |sh| verify::fuzz_step(sh, verify::CI_FUZZ_SECS));
    r.cmd("miri").frees("miri").step("verify: miri (oid-core tests)", verify::miri_step);
    r.cmd("stress").step("verify: stress (threads, counter wrap, fork)", verify::stress_step);
    r.cmd("loom").frees("loom").step("verify: loom (oid-core generator)", verify::loom_step);
    r.cmd("features").step("verify: feature combinations", verify::features_step);
    r.cmd("sql").step("sql: sqlx, postgres-types, rusqlite (PostgreSQL + SQLite)", postgres::test);
    r.cmd("loom-consumer").frees("loom-consumer").step("user build: an application's RUSTFLAGS=\"--cfg loom\" (integrations/loom-consumer)", userbuild::loom_consumer_step);
    r.cmd("minimal").frees("userbuild/minimal-target").step("user build: published crates at their minimum direct dependencies, check --all-features", userbuild::minimal_step);
    r.cmd("newest").step("user build: newest releases (cargo update on stable), test --workspace --all-features", userbuild::newest_step);
    r.cmd("type-name").frees("type-name").step("the BSON serializer rule (type_name) on the newest stable and on beta", crate::type_name::step);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_lists_every_step_without_running_one() {
        let start = std::time::Instant::now();
        let mut plan = Runner {
            dry: true,
            ..Runner::default()
        };
        steps(&mut plan);
        let names = &plan.names;
        assert!(start.elapsed().as_secs() < 5, "planning ran something");
        for expected in [
            "provision in the background (log in target/ci-provision.log)",
            "fmt",
            "clippy (all features)",
            "test (all features)",
            QUICK_CHECK,
            "oid-core: oid! compile-fail tests (trybuild)",
            "rustdoc -D warnings, --cfg docsrs: no foreign cfg badge",
            "release: cargo publish --workspace --dry-run",
            "release: cargo deny check licenses bans sources",
            "release: oid-bson's README driver example against mongodb",
            "msrv: every published crate with rust-version",
            "verify: feature combinations",
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

    #[test]
    fn every_command_but_the_special_ones_selects_steps_of_ci() {
        use clap::CommandFactory;
        for c in crate::Cli::command().get_subcommands() {
            let name = c.get_name();
            if ["ci", "provision", "web", "fuzz"].contains(&name) {
                continue;
            }
            let mut plan = Runner {
                dry: true,
                ..Runner::default()
            };
            plan.only = Some(name.to_owned());
            steps(&mut plan);
            assert!(
                !plan.names.is_empty(),
                "`cargo xtask {name}` selects no step"
            );
        }
        let mut plan = Runner {
            dry: true,
            ..Runner::default()
        };
        plan.only = Some("size".to_owned());
        steps(&mut plan);
        assert_eq!(plan.names, ["firmware: flash cost of ids"]);
    }
}
