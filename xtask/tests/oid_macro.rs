//! `oid_core::oid!` rejects bad literals at compile time (trybuild).
//!
//! This lives in xtask rather than in oid-core because trybuild compiles each case against the
//! testing crate's dev-dependencies: oid-core's (bson, criterion, proptest, ...) cost minutes
//! per CI run, xtask's cost seconds.

#[test]
fn oid_macro_rejects_bad_literals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
