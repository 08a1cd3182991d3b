//! `cargo xtask ci`: the list of CI steps. The steps themselves live in the module of their
//! command; a failed step does not stop the others, and the summary lists them all with times.

use xshell::cmd;

use crate::util::{Result, Runner, ensure_targets, run, toolchain_targets};

/// `cargo xtask ci`.
pub(crate) fn ci() -> Result {
    let mut r = Runner::new()?;
    r.step("rustup targets (rust-toolchain.toml)", |sh| {
        let targets = toolchain_targets()?;
        let targets: Vec<&str> = targets.iter().map(String::as_str).collect();
        ensure_targets(sh, &targets)
    });
    r.step("fmt", |sh| run(cmd!(sh, "cargo fmt --all --check")));
    r.step("clippy (all features)", |sh| {
        run(cmd!(
            sh,
            "cargo clippy --workspace --all-targets --all-features -- -D warnings"
        ))
    });
    r.step("clippy (no default features)", |sh| {
        run(cmd!(
            sh,
            "cargo clippy --workspace --all-targets --no-default-features -- -D warnings"
        ))
    });
    // Includes xtask's own tests: the tidy checks (file length, import cycles, MSRV lines).
    r.step("test (all features)", |sh| {
        run(cmd!(sh, "cargo test --workspace --all-features"))
    });
    r.step("test (no default features)", |sh| {
        run(cmd!(sh, "cargo test --workspace --no-default-features"))
    });
    r.step("integrations (issue 13)", |sh| {
        run(cmd!(sh, "cargo test -p oid-integrations"))
    });
    // The workspace runs above cover both oid-bson features together (with bson's own
    // `serde_path_to_error` feature) and neither; these are the two single choices.
    r.step("bson-tests: oid-bson with bson-2 only, bson-3 only", |sh| {
        run(cmd!(sh, "cargo test -p oid-bson-tests"))?;
        run(cmd!(
            sh,
            "cargo test -p oid-bson-tests --no-default-features --features bson-3"
        ))
    });
    r.step("oid-std past capacity (release)", |sh| {
        run(cmd!(
            sh,
            "cargo test -p oid-std --release --test capacity -- --include-ignored"
        ))
    });
    r.step("oid-cli: 40 M ids (release)", |sh| {
        run(cmd!(
            sh,
            "cargo test -p oid-cli --release --test new -- --ignored"
        ))
    });
    r.step("rustdoc -D warnings", |sh| {
        run(cmd!(sh, "cargo doc --workspace --no-deps --all-features")
            .env("RUSTDOCFLAGS", "-D warnings"))
    });
    r.step(
        "msrv: the library crates with rust-version",
        crate::msrv::check,
    );
    r.step("benches compile", |sh| {
        run(cmd!(sh, "cargo bench -p oid-benches --no-run"))
    });
    crate::nostd::steps(&mut r);
    r.step("web page: wasm + chromium", crate::web::build_and_test);
    crate::firmware::ci_steps(&mut r);
    crate::verify::ci_steps(&mut r);
    crate::postgres::ci_step(&mut r);
    r.finish()
}
