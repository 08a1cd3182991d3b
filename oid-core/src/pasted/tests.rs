use std::string::{String, ToString};
use std::{format, vec::Vec};

use proptest::prelude::*;

use super::*;

const HEX: &str = "507f1f77bcf86cd799439011";

fn id() -> ObjectId {
    ObjectId::parse_str(HEX).unwrap()
}

fn read(s: &str) -> Result<(ObjectId, Form), PastedError> {
    ObjectId::parse_pasted(s).map(|p| (p.id(), p.form()))
}

#[test]
fn every_listed_form_and_its_name() {
    for (input, form) in [
        ("507f1f77bcf86cd799439011", Form::Hex),
        ("  507F1F77BCF86CD799439011\t", Form::Hex),
        ("\"507f1f77bcf86cd799439011\"", Form::Quoted),
        ("'507f1f77bcf86cd799439011'", Form::Quoted),
        ("ObjectId(\"507f1f77bcf86cd799439011\")", Form::Shell),
        ("ObjectId('507f1f77bcf86cd799439011')", Form::Shell),
        ("ObjectId( \"507f1f77bcf86cd799439011\" )", Form::Shell),
        ("new ObjectId(\"507f1f77bcf86cd799439011\")", Form::Shell),
        ("new  ObjectId ('507f1f77bcf86cd799439011')", Form::Shell),
        (
            "{\"$oid\":\"507f1f77bcf86cd799439011\"}",
            Form::ExtendedJson,
        ),
        (
            "{ \"$oid\" : \"507f1f77bcf86cd799439011\" }",
            Form::ExtendedJson,
        ),
        ("{$oid: '507f1f77bcf86cd799439011'}", Form::ExtendedJson),
        ("{'$oid': \"507f1f77bcf86cd799439011\"}", Form::ExtendedJson),
        (
            "\n{\"$oid\": \"507f1f77bcf86cd799439011\"}\r\n",
            Form::ExtendedJson,
        ),
    ] {
        assert_eq!(read(input), Ok((id(), form)), "{input}");
    }
    let names: Vec<String> = [Form::Hex, Form::Quoted, Form::Shell, Form::ExtendedJson]
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        names,
        [
            "hex",
            "quoted hex",
            "mongosh ObjectId(\"…\")",
            "extended JSON {\"$oid\": \"…\"}"
        ]
    );
}

#[test]
fn errors_are_the_strict_parsers_with_the_form_seen() {
    let err = |s: &str| read(s).unwrap_err();
    let e = err("ObjectId(\"xyz\")");
    assert_eq!(
        e.to_string(),
        "invalid length: expected 24 hex characters, found 3"
    );
    assert_eq!(e.form(), Some(Form::Shell));
    assert_eq!(e.parse_error(), ObjectId::parse_str("xyz").unwrap_err());
    let e = err("\"507f1f77bcf86cd79943901g\"");
    assert_eq!(
        e.to_string(),
        "invalid character 'g' at index 23: expected a hex digit"
    );
    assert_eq!((e.form(), e.hint()), (Some(Form::Quoted), None));
    let e = err("{\"$oid\": \"\"}");
    assert_eq!(
        (e.form(), e.parse_error().len()),
        (Some(Form::ExtendedJson), Some(0))
    );
    let e = err("  id: 507f1f77bcf86cd799439011 ");
    assert_eq!(
        e.to_string(),
        "invalid length: expected 24 hex characters, found 28"
    );
    assert_eq!((e.form(), e.hint()), (None, Some(id())));
    for bad in [
        "",
        "\"\"",
        "\"",
        "'",
        "ObjectId(507f1f77bcf86cd799439011)",
        "ObjectId(\"507f1f77bcf86cd799439011\"",
        "newObjectId(\"507f1f77bcf86cd799439011\")",
        "ObjectID(\"507f1f77bcf86cd799439011\")",
        "{\"oid\": \"507f1f77bcf86cd799439011\"}",
        "{\"$oid\": 507f1f77bcf86cd799439011}",
        "\"507f1f77bcf86cd799439011'",
        "\"507f1f77bcf86cd799439011\",",
        "\"507f\"\"1f77bcf86cd799439011\"",
        "507f1f77bcf86cd7994390110",
        "0x507f1f77bcf86cd799439011",
    ] {
        assert!(read(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_hint_is_the_contained_id() {
    let hint = |s: &str| read(s).unwrap_err().hint();
    assert_eq!(hint("id: 507f1f77bcf86cd799439011"), Some(id()));
    assert_eq!(hint("\"507f1f77bcf86cd799439011\","), Some(id()));
    assert_eq!(hint("ObjectID(\"507F1F77BCF86CD799439011\")"), Some(id()));
    assert_eq!(hint("ObjectId(507f1f77bcf86cd799439011)"), Some(id()));
    assert_eq!(
        hint("x507f1f77bcf86cd799439011"),
        Some(id()),
        "x is not hex"
    );
    assert_eq!(hint("0x507f1f77bcf86cd799439011"), Some(id()));
    assert_eq!(hint("a507f1f77bcf86cd799439011"), None, "25 hex digits");
    assert_eq!(hint("507f1f77bcf86cd79943901"), None);
    assert_eq!(hint("é507f1f77bcf86cd799439011é"), Some(id()));
    assert_eq!(
        hint("507f1f77bcf86cd79943901 6553f1003f2a91c8d4003039 507f1f77bcf86cd799439011"),
        ObjectId::parse_str("6553f1003f2a91c8d4003039").ok(),
        "the first whole run"
    );
    assert_eq!(hint(""), None);
}

/// Read at compile time: `parse_pasted` is a `const fn`.
const PASTED: Result<Pasted, PastedError> =
    ObjectId::parse_pasted("\u{a0}new ObjectId ( '507F1F77BCF86CD799439011' )\u{3000}");

#[test]
fn reads_in_const_context() {
    assert_eq!(PASTED.map(|p| (p.id(), p.form())), Ok((id(), Form::Shell)));
}

/// The byte-level whitespace test agrees with `char::is_whitespace` on every character, at
/// the start and at the end of the text.
#[test]
fn whitespace_is_what_char_is_whitespace_says() {
    for c in (0..=0x10_ffff).filter_map(char::from_u32) {
        let mut buf = [0u8; 4];
        let encoded = c.encode_utf8(&mut buf).as_bytes();
        let want = if c.is_whitespace() { encoded.len() } else { 0 };
        assert_eq!(space_at_start(encoded), want, "{c:?} at the start");
        assert_eq!(space_at_end(encoded), want, "{c:?} at the end");
        let framed = [b"x", encoded, b"x"].concat();
        assert_eq!(trim(&framed), &framed[..], "{c:?} inside is kept");
    }
}

/// The wrappers the reader accepts, with `{}` where the hex goes.
const FORMS: [(&str, Form); 9] = [
    ("{}", Form::Hex),
    ("\"{}\"", Form::Quoted),
    ("'{}'", Form::Quoted),
    ("ObjectId(\"{}\")", Form::Shell),
    ("ObjectId('{}')", Form::Shell),
    ("new ObjectId(\"{}\")", Form::Shell),
    ("{\"$oid\": \"{}\"}", Form::ExtendedJson),
    ("{ \"$oid\" : '{}' }", Form::ExtendedJson),
    ("{$oid:\"{}\"}", Form::ExtendedJson),
];

/// What is left of an accepted input once the hex and all whitespace are removed.
fn skeleton(s: &str, hex_at: usize) -> String {
    let mut out = String::new();
    out.push_str(&s[..hex_at]);
    out.push_str(&s[hex_at + 24..]);
    out.retain(|c| !c.is_whitespace());
    out
}

proptest! {
    // Miri is orders of magnitude slower; keep its run short.
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 256 }))]

    #[test]
    fn always_reads_the_id_in_every_form(
        bytes in any::<[u8; 12]>(),
        form in 0..FORMS.len(),
        upper in any::<bool>(),
        pad in "[ \t\n]{0,3}",
    ) {
        let id = ObjectId::from_bytes(bytes);
        let hex = if upper { id.to_hex().as_str().to_ascii_uppercase() } else { id.to_hex().to_string() };
        let input = format!("{pad}{}{pad}", FORMS[form].0.replace("{}", &hex));
        prop_assert_eq!(read(&input), Ok((id, FORMS[form].1)));
    }

    /// A form with one character more or less around the id is refused, and hinted at.
    #[test]
    fn near_misses_are_refused_with_the_id_as_the_hint(
        bytes in any::<[u8; 12]>(),
        form in 1..FORMS.len(),
        extra in "[,;)}\"'gx ]",
        drop_last in any::<bool>(),
    ) {
        let id = ObjectId::from_bytes(bytes);
        let good = FORMS[form].0.replace("{}", id.to_hex().as_str());
        let bad = if drop_last { good[..good.len() - 1].to_string() } else { format!("{good}{extra}") };
        prop_assume!(bad.trim() != good);
        let err = read(&bad).unwrap_err();
        prop_assert_eq!(err.hint(), Some(id));
    }

    /// Whatever the reader accepts is one of the forms around exactly that id.
    #[test]
    fn never_accepts_what_is_not_an_id(s in "[ \"'{}():$a-zA-Z0-9]{0,40}|.{0,40}") {
        if let Ok((id, _)) = read(&s) {
            let lower = s.to_ascii_lowercase();
            let hex = id.to_hex();
            let at = lower.find(hex.as_str());
            prop_assert!(at.is_some(), "{s:?} accepted as {id} but does not hold it");
            let skeleton = skeleton(&s, at.unwrap_or_default());
            let allowed = [
                "", "\"\"", "''", "ObjectId(\"\")", "ObjectId('')", "newObjectId(\"\")",
                "newObjectId('')", "{\"$oid\":\"\"}", "{\"$oid\":''}", "{'$oid':\"\"}",
                "{'$oid':''}", "{$oid:\"\"}", "{$oid:''}",
            ];
            prop_assert!(allowed.contains(&skeleton.as_str()), "{s:?} -> {skeleton:?}");
        }
    }

    #[test]
    fn trims_as_str_trim_does(
        s in proptest::collection::vec(
            prop_oneof![
                any::<char>(),
                proptest::sample::select(&[' ', '\t', '\n', '\u{85}', '\u{a0}', '\u{1680}',
                    '\u{2000}', '\u{200a}', '\u{200b}', '\u{2028}', '\u{202f}', '\u{205f}',
                    '\u{3000}', '\u{feff}', '\u{180e}'][..]),
            ],
            0..12,
        ).prop_map(|cs| cs.into_iter().collect::<String>()),
    ) {
        prop_assert_eq!(trim(s.as_bytes()), s.trim().as_bytes());
        prop_assert_eq!(trim_start(s.as_bytes()), s.trim_start().as_bytes());
    }

    /// The hint is an id the text holds, whatever the text.
    #[test]
    fn a_hint_is_always_held_by_the_text(s in ".{0,60}") {
        if let Err(e) = read(&s) {
            if let Some(hint) = e.hint() {
                prop_assert!(s.to_ascii_lowercase().contains(hint.to_hex().as_str()));
            }
        }
    }

    #[test]
    fn hints_see_an_id_between_non_hex_text(
        bytes in any::<[u8; 12]>(),
        before in "[g-zG-Z :=,\"'({]{1,8}",
        after in "[g-zG-Z :=,\"')}]{0,8}",
    ) {
        let id = ObjectId::from_bytes(bytes);
        let text = format!("{before}{id}{after}");
        match read(&text) {
            Ok((got, _)) => prop_assert_eq!(got, id),
            Err(e) => prop_assert_eq!(e.hint(), Some(id)),
        }
    }
}

#[test]
fn whitespace_inside_an_id_is_named_and_the_id_offered() {
    for (input, message) in [
        (
            "507f1f77 bcf86cd799439011",
            "invalid length: expected 24 hex characters, found 25 (a space at index 8 splits the id)",
        ),
        (
            " 507f1f77\tbcf86cd7 99439011 ",
            "invalid length: expected 24 hex characters, found 26 (a tab at index 8 splits the id)",
        ),
        (
            "ObjectId(\"507f1f77bcf86cd79943901 1\")",
            "invalid length: expected 24 hex characters, found 25 (a space at index 23 splits the id)",
        ),
    ] {
        let err = ObjectId::parse_pasted(input).unwrap_err();
        assert_eq!(err.to_string(), message, "{input:?}");
        assert_eq!(err.hint(), Some(id()), "{input:?}");
    }
    // Not an id without the spaces: no note, and the usual hint rule.
    for input in [
        "507f1f77 bcf86cd79943901",
        "507f1f77 bcf86cd7994390111",
        "507f1f77 bcf86cd79943901g",
        "id: 507f1f77bcf86cd799439011",
    ] {
        let err = ObjectId::parse_pasted(input).unwrap_err();
        assert!(!err.to_string().contains("splits"), "{input:?}: {err}");
    }
    assert_eq!(
        ObjectId::parse_pasted("id: 507f1f77bcf86cd799439011")
            .unwrap_err()
            .hint(),
        Some(id())
    );
}

#[test]
fn map_keys_must_be_quoted_alike() {
    for input in [
        "{\"$oid': \"507f1f77bcf86cd799439011\"}",
        "{'$oid\": \"507f1f77bcf86cd799439011\"}",
        "{\"$oids\": \"507f1f77bcf86cd799439011\"}",
        "{$oidx: \"507f1f77bcf86cd799439011\"}",
        "{\"$oid\" \"507f1f77bcf86cd799439011\"}",
    ] {
        assert!(ObjectId::parse_pasted(input).is_err(), "{input}");
    }
}
