//! `oid!` rejects bad literals at compile time.

#[test]
#[cfg_attr(miri, ignore = "trybuild runs rustc")]
fn oid_macro_rejects_bad_literals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
