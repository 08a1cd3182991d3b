//! Shared by the SQL integrations: an id from the bytes of a text column value.

use crate::ObjectId;
use crate::error::{ParseError, ParseErrorKind};

/// Parses the raw bytes of a `TEXT`-family column value as 24 hex digits of any case.
///
/// Databases hand text over as bytes; bytes that are not UTF-8 are reported as the character
/// U+FFFD at the first invalid position, after any earlier character that is not a hex digit.
pub(crate) fn parse_text(b: &[u8]) -> Result<ObjectId, ParseError> {
    match core::str::from_utf8(b) {
        Ok(s) => ObjectId::parse_str(s),
        Err(e) => {
            let valid = core::str::from_utf8(&b[..e.valid_up_to()]).unwrap_or_default();
            let mut count = 0;
            for (i, c) in valid.chars().enumerate() {
                if !c.is_ascii_hexdigit() {
                    return Err(ParseError(ParseErrorKind::Char(c, i)));
                }
                count = i + 1;
            }
            Err(ParseError(ParseErrorKind::Char(
                char::REPLACEMENT_CHARACTER,
                count,
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_of_any_case() {
        let id = ObjectId::parse_str("507f1f77bcf86cd799439011").unwrap();
        assert_eq!(parse_text(b"507F1F77BCF86CD799439011"), Ok(id));
        assert_eq!(parse_text(b"507f1f77bcf86cd799439011"), Ok(id));
    }

    #[test]
    fn bad_text() {
        assert_eq!(parse_text(b"507f").unwrap_err().len(), Some(4));
        let err = parse_text(b"507f1f77bcf86cd79943901g").unwrap_err();
        assert_eq!(err.invalid_char(), Some(('g', 23)));
        let err = parse_text(b"507f\xff1f77bcf86cd7994390").unwrap_err();
        assert_eq!(err.invalid_char(), Some(('\u{FFFD}', 4)));
        let err = parse_text(b"5x7f\xff1f77bcf86cd7994390").unwrap_err();
        assert_eq!(err.invalid_char(), Some(('x', 1)));
    }
}
