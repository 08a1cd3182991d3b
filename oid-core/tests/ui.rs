//! `oid!` rejects bad literals at compile time, and accepts good ones in a `const` (trybuild).
//!
//! The expected compiler output (`tests/ui/*.stderr`) is rustc's, so it belongs to the toolchain
//! pinned in `rust-toolchain.toml`; after a toolchain change regenerate it with
//! `TRYBUILD=overwrite cargo test -p oid-core --test ui` and review the diff.

// Neither Miri nor loom can run rustc.
#![cfg(not(any(miri, loom)))]

#[test]
fn oid_macro_rejects_bad_literals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
