//! `ObjectId::parse_str` (and `FromStr`, `TryFrom<&str>`, `is_valid`) on any UTF-8 input, and
//! `TryFrom<&[u8]>` on any bytes: never panics, accepts exactly 24 ASCII hex digits, decodes
//! them to the bytes a plain reference decoder gives, and explains every rejection truthfully.
//! `ObjectId::parse_pasted` on the same input: never panics, reads whatever `parse_str` reads
//! (trimmed) as bare hex, accepts only text that holds the id it returns, and hints only at an id
//! the text holds. `PastedDate::parse`: never panics, and reads every pasted id as its second.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oid_core::{Form, ObjectId, PastedDate};

/// The rule written out without oid-core.
fn reference(s: &str) -> Option<[u8; 12]> {
    if s.len() != 24 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; 12];
    for (k, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * k..2 * k + 2], 16).ok()?;
    }
    Some(out)
}

/// The pasted-form reader's promises on any text.
fn pasted(s: &str) {
    let lower = s.to_ascii_lowercase();
    match ObjectId::parse_pasted(s) {
        Ok(pasted) => {
            assert!(lower.contains(pasted.id().to_hex().as_str()), "{s:?}");
            if let Ok(id) = ObjectId::parse_str(s.trim()) {
                assert_eq!((pasted.id(), pasted.form()), (id, Form::Hex), "{s:?}");
            }
        }
        Err(e) => {
            assert!(ObjectId::parse_str(s.trim()).is_err(), "{s:?}");
            if let Some(hint) = e.hint() {
                // In the text as it is, or with its whitespace left out (an id with a space
                // inside, which the message then names).
                let joined: String = lower.split_whitespace().collect();
                assert!(joined.contains(hint.to_hex().as_str()), "{s:?}");
            }
            let message = e.to_string();
            assert!(message.starts_with(&e.parse_error().to_string()), "{s:?}");
            assert_eq!(message.contains("splits the id"), message.len() > e.parse_error().to_string().len());
        }
    }
    // The pasted-time reader never panics, and reads every id as its second.
    match PastedDate::parse(s) {
        Ok(date) => {
            assert!(date.subsec_nanos() < 1_000_000_000, "{s:?}");
            if let Ok(pasted) = ObjectId::parse_pasted(s) {
                assert_eq!(date.unix_seconds(), i64::from(pasted.id().timestamp()), "{s:?}");
            }
        }
        Err(e) => {
            assert!(ObjectId::parse_pasted(s).is_err(), "{s:?}");
            assert!(!e.to_string().is_empty());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // Bytes: exactly 12 make an id.
    match ObjectId::try_from(data) {
        Ok(id) => assert_eq!(id.as_bytes().as_slice(), data),
        Err(e) => {
            assert_ne!(data.len(), 12);
            assert_eq!(e.len(), data.len());
        }
    }

    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    pasted(s);
    let parsed = ObjectId::parse_str(s);
    assert_eq!(parsed.map(|id| id.bytes()).ok(), reference(s), "{s:?}");
    assert_eq!(ObjectId::is_valid(s), parsed.is_ok());
    assert_eq!(s.parse::<ObjectId>(), parsed);
    assert_eq!(ObjectId::try_from(s), parsed);
    match parsed {
        Ok(id) => {
            assert_eq!(*id.to_hex(), s.to_ascii_lowercase());
            assert_eq!(*id.to_hex_upper(), s.to_ascii_uppercase());
            assert_eq!(format!("{id}"), s.to_ascii_lowercase());
            assert_eq!(format!("{id:X}"), s.to_ascii_uppercase());
            assert_eq!(ObjectId::parse_str(&id.to_hex()), Ok(id));
            assert_eq!(u32::from_be_bytes([id.bytes()[0], id.bytes()[1], id.bytes()[2], id.bytes()[3]]), id.timestamp());
        }
        Err(e) => {
            let msg = e.to_string();
            let chars = s.chars().count();
            match (e.len(), e.invalid_char()) {
                (Some(n), None) => {
                    assert_eq!(n, chars);
                    assert_ne!(n, 24);
                    assert!(msg.starts_with("invalid length: expected 24 hex characters"), "{msg}");
                }
                (None, Some((c, i))) => {
                    // 24 characters, and the first one that is not a hex digit is named.
                    assert_eq!(chars, 24);
                    assert_eq!(s.chars().nth(i), Some(c));
                    assert!(!c.is_ascii_hexdigit());
                    assert!(s.chars().take(i).all(|d| d.is_ascii_hexdigit()));
                    assert!(msg.starts_with("invalid character"), "{msg}");
                }
                other => panic!("error with neither length nor character: {other:?} {msg}"),
            }
        }
    }
});
