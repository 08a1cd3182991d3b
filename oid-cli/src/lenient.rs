//! The lenient reader: an id as people paste it from mongosh, Compass, drivers' logs and JSON.
//!
//! Accepted, with any surrounding whitespace: bare hex (`507f1f77bcf86cd799439011`, any case),
//! hex in double or single quotes, `ObjectId("…")`, `ObjectId('…')`, `new ObjectId("…")`, and
//! extended JSON `{"$oid": "…"}` (any spacing; the key may also be `'$oid'` or bare `$oid`, as
//! mongosh prints it). The hex inside must be exactly an id: this is a reader of the listed
//! forms, not a search. Anything else gets the strict parser's error for the whole input, and
//! [`find`] offers the id the input contains, if any, for a "did you mean" hint.
//!
//! The library stays strict (`ObjectId::parse_str`); this leniency is the command's.

use oid_std::{ObjectId, ParseError};

/// Reads an id in one of the accepted forms.
///
/// # Errors
///
/// The strict parser's error: for the text inside the quotes when a form was recognised
/// (`ObjectId("xyz")`: length 3), for the whole input otherwise.
pub(crate) fn read(s: &str) -> Result<ObjectId, ParseError> {
    let s = s.trim();
    match unwrap(s) {
        Some(inner) => ObjectId::parse_str(inner),
        None => ObjectId::parse_str(s),
    }
}

/// The first run of exactly 24 hex digits in `s` that no other hex digit touches: the id a
/// wrongly shaped input most likely holds.
pub(crate) fn find(s: &str) -> Option<ObjectId> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_hexdigit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_hexdigit() {
                i += 1;
            }
            if i - start == 24 {
                return ObjectId::parse_str(&s[start..i]).ok();
            }
        } else {
            i += 1;
        }
    }
    None
}

/// The text inside one of the wrapping forms, or `None` when `s` is not wrapped.
fn unwrap(s: &str) -> Option<&str> {
    quoted(s).or_else(|| call(s)).or_else(|| oid_map(s))
}

/// `"…"` or `'…'`: the text inside.
fn quoted(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&q @ (b'"' | b'\'')), Some(&end)) if b.len() >= 2 && end == q => {
            let inner = &s[1..s.len() - 1];
            // One quoted string, not `"a" "b"`.
            (!inner.contains(q as char)).then_some(inner)
        }
        _ => None,
    }
}

/// `ObjectId("…")`, `ObjectId('…')`, `new ObjectId("…")`, spaces allowed around the parts.
fn call(s: &str) -> Option<&str> {
    let s = match s.strip_prefix("new") {
        Some(rest) if rest.starts_with(char::is_whitespace) => rest.trim_start(),
        Some(_) => return None,
        None => s,
    };
    let args = s.strip_prefix("ObjectId")?.trim_start();
    let inner = args.strip_prefix('(')?.strip_suffix(')')?;
    quoted(inner.trim())
}

/// `{"$oid": "…"}`, also with `'$oid'` or `$oid` as the key and single-quoted values.
fn oid_map(s: &str) -> Option<&str> {
    let body = s.strip_prefix('{')?.strip_suffix('}')?.trim();
    let rest = ["\"$oid\"", "'$oid'", "$oid"]
        .iter()
        .find_map(|key| body.strip_prefix(key))?;
    quoted(rest.trim_start().strip_prefix(':')?.trim())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const HEX: &str = "507f1f77bcf86cd799439011";

    fn id() -> ObjectId {
        ObjectId::parse_str(HEX).unwrap()
    }

    #[test]
    fn every_listed_form() {
        for input in [
            "507f1f77bcf86cd799439011",
            "  507F1F77BCF86CD799439011\t",
            "\"507f1f77bcf86cd799439011\"",
            "'507f1f77bcf86cd799439011'",
            "ObjectId(\"507f1f77bcf86cd799439011\")",
            "ObjectId('507f1f77bcf86cd799439011')",
            "ObjectId( \"507f1f77bcf86cd799439011\" )",
            "new ObjectId(\"507f1f77bcf86cd799439011\")",
            "new  ObjectId ('507f1f77bcf86cd799439011')",
            "{\"$oid\":\"507f1f77bcf86cd799439011\"}",
            "{ \"$oid\" : \"507f1f77bcf86cd799439011\" }",
            "{$oid: '507f1f77bcf86cd799439011'}",
            "{'$oid': \"507f1f77bcf86cd799439011\"}",
        ] {
            assert_eq!(read(input), Ok(id()), "{input}");
        }
    }

    #[test]
    fn errors_are_the_strict_parsers() {
        let msg = |s: &str| read(s).unwrap_err().to_string();
        assert_eq!(
            msg("ObjectId(\"xyz\")"),
            "invalid length: expected 24 hex characters, found 3"
        );
        assert_eq!(
            msg("\"507f1f77bcf86cd79943901g\""),
            "invalid character 'g' at index 23: expected a hex digit"
        );
        assert_eq!(
            msg("id: 507f1f77bcf86cd799439011"),
            "invalid length: expected 24 hex characters, found 28"
        );
        for bad in [
            "",
            "\"\"",
            "\"",
            "ObjectId(507f1f77bcf86cd799439011)",
            "ObjectId(\"507f1f77bcf86cd799439011\"",
            "newObjectId(\"507f1f77bcf86cd799439011\")",
            "ObjectID(\"507f1f77bcf86cd799439011\")",
            "{\"oid\": \"507f1f77bcf86cd799439011\"}",
            "{\"$oid\": 507f1f77bcf86cd799439011}",
            "\"507f1f77bcf86cd799439011'",
            "\"507f1f77bcf86cd799439011\",",
            "507f1f77bcf86cd7994390110",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn find_offers_the_contained_id() {
        assert_eq!(find("id: 507f1f77bcf86cd799439011"), Some(id()));
        assert_eq!(find("\"507f1f77bcf86cd799439011\","), Some(id()));
        assert_eq!(find("ObjectID(\"507F1F77BCF86CD799439011\")"), Some(id()));
        assert_eq!(
            find("x507f1f77bcf86cd799439011"),
            Some(id()),
            "x is not hex"
        );
        assert_eq!(find("a507f1f77bcf86cd799439011"), None, "25 hex digits");
        assert_eq!(find("507f1f77bcf86cd79943901"), None);
        assert_eq!(find("é507f1f77bcf86cd799439011é"), Some(id()));
        assert_eq!(find(""), None);
    }

    /// The wrappers the reader accepts, with `{}` where the hex goes.
    const FORMS: [&str; 9] = [
        "{}",
        "\"{}\"",
        "'{}'",
        "ObjectId(\"{}\")",
        "ObjectId('{}')",
        "new ObjectId(\"{}\")",
        "{\"$oid\": \"{}\"}",
        "{ \"$oid\" : '{}' }",
        "{$oid:\"{}\"}",
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
        #[test]
        fn always_reads_the_id_in_every_form(
            bytes in any::<[u8; 12]>(),
            form in 0..FORMS.len(),
            upper in any::<bool>(),
            pad in "[ \t]{0,3}",
        ) {
            let id = ObjectId::from_bytes(bytes);
            let hex = if upper { id.to_hex().as_str().to_ascii_uppercase() } else { id.to_hex().to_string() };
            let input = format!("{pad}{}{pad}", FORMS[form].replace("{}", &hex));
            prop_assert_eq!(read(&input), Ok(id));
            prop_assert_eq!(find(&input), Some(id));
        }

        /// Whatever the reader accepts is one of the forms around exactly that id.
        #[test]
        fn never_accepts_what_is_not_an_id(s in "[ \"'{}():$a-zA-Z0-9]{0,40}|.{0,40}") {
            if let Ok(id) = read(&s) {
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
        fn find_sees_an_id_between_non_hex_text(
            bytes in any::<[u8; 12]>(),
            before in "[g-zG-Z :=,\"'({]{0,8}",
            after in "[g-zG-Z :=,\"')}]{0,8}",
        ) {
            let id = ObjectId::from_bytes(bytes);
            prop_assert_eq!(find(&format!("{before}{id}{after}")), Some(id));
        }
    }
}
