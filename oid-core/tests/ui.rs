//! `oid!` rejects bad literals at compile time, and accepts good ones in a `const` (trybuild).
//!
//! The expected compiler output (`tests/ui/*.stderr`) is rustc's, so it belongs to the toolchain
//! pinned in `rust-toolchain.toml`; after a toolchain change regenerate it with
//! `TRYBUILD=overwrite cargo test -p oid-core --test ui -- --ignored` and review the diff.

/// Ignored in plain test runs: trybuild builds oid-core again, with the features of the run,
/// in a target folder of its own (with every feature that is sqlx, async-graphql, ... once more).
/// `cargo xtask ui` (a CI step) runs it alone without optional features; the macro uses none.
#[test]
#[ignore = "builds oid-core again; run by `cargo xtask ui`"]
fn oid_macro_rejects_bad_literals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
