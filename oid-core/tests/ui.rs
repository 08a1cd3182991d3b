//! `oid!` rejects bad literals at compile time, and accepts good ones in a `const` (trybuild).
//!
//! The expected compiler output (`tests/ui/*.stderr`) is rustc's, so it belongs to the toolchain
//! pinned in `rust-toolchain.toml`; after a toolchain change regenerate it with
//! `TRYBUILD=overwrite cargo test -p oid-core --test ui` and review the diff.

// Neither Miri nor loom can run rustc. trybuild builds oid-core again with the features of this
// run, so the test runs only without optional features (the macro uses none of them): every
// feature set in `cargo xtask features` would otherwise rebuild sqlx, async-graphql, poem-openapi, ... in
// trybuild's own target folder. CI runs it in the no-default-features steps.
#![cfg(not(any(
    miri,
    loom,
    feature = "serde",
    feature = "defmt",
    feature = "portable-atomic",
    feature = "critical-section",
    feature = "arbitrary",
    feature = "bytemuck",
    feature = "zerocopy",
    feature = "borsh",
    feature = "rand_core",
    feature = "schemars",
    feature = "utoipa",
    feature = "async-graphql",
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "postgres-types",
    feature = "rusqlite",
    feature = "juniper",
    feature = "ts-rs",
    feature = "specta",
    feature = "fake",
    feature = "poem-openapi",
    feature = "rkyv",
    feature = "rand_core-0_6",
)))]

#[test]
fn oid_macro_rejects_bad_literals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
