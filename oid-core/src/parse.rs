//! Parsing the 24-character hex form. The parser is a `const fn`, so the [`oid!`](crate::oid)
//! macro checks literals at compile time.

use core::str::FromStr;

use crate::ObjectId;
use crate::error::{ParseError, ParseErrorKind};

/// Decodes 24 ASCII hex digits, or `None` if any byte is not one. Branch-free byte loops, so
/// LLVM vectorises them (SSE2 on x86_64) while the function stays `const`.
/// Each byte's hex value, or `INVALID` (a high nibble no digit has).
const VALUES: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        table[b'a' as usize + i] = 10 + i as u8;
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table
};

const INVALID: u8 = 0xf0;

/// Decodes 24 hex digits in one pass: a table lookup per digit, the validity of all of them
/// collected in one accumulator and checked once at the end (no branch per digit). Always
/// inlined: as a call of its own (LLVM left it out of line) it cost `parse_str` about a third
/// more than the same decode written inline.
#[inline(always)]
const fn decode24(b: &[u8]) -> Option<[u8; 12]> {
    if b.len() != 24 {
        return None;
    }
    let mut out = [0u8; 12];
    let mut seen = 0u8;
    let mut i = 0;
    while i < 12 {
        let hi = VALUES[b[2 * i] as usize];
        let lo = VALUES[b[2 * i + 1] as usize];
        seen |= hi | lo;
        out[i] = (hi << 4) | (lo & 0x0f);
        i += 1;
    }
    if seen & INVALID != 0 {
        return None;
    }
    Some(out)
}

impl ObjectId {
    /// Parses the 24-character hex form. Upper, lower and mixed case are accepted; nothing
    /// else is: no surrounding whitespace, no `0x` prefix, no other length. A `const fn`: the
    /// [`oid!`](crate::oid) macro uses it to check literals at compile time.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] naming the actual length in characters, or the first character that
    /// is not a hex digit with its character index.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::parse_str("507F1F77bcf86cd799439011")?;
    /// assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
    ///
    /// assert!(ObjectId::parse_str(" 507f1f77bcf86cd799439011").is_err());
    /// # Ok::<(), oid_core::ParseError>(())
    /// ```
    #[inline]
    pub const fn parse_str(s: &str) -> Result<ObjectId, ParseError> {
        let b = s.as_bytes();
        if let Some(bytes) = decode24(b) {
            return Ok(ObjectId::from_bytes(bytes));
        }
        Err(diagnose(b))
    }

    /// Whether `s` is exactly 24 ASCII hex digits (any case).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert!(ObjectId::is_valid("507f1f77bcf86cd799439011"));
    /// assert!(ObjectId::is_valid("507F1F77BCF86CD799439011"));
    /// assert!(!ObjectId::is_valid("507f1f77bcf86cd79943901"));
    /// assert!(!ObjectId::is_valid("507f1f77bcf86cd79943901x"));
    /// ```
    #[inline]
    pub const fn is_valid(s: &str) -> bool {
        ObjectId::parse_str(s).is_ok()
    }
}

/// The slow path: find out why `b` (valid UTF-8) is not 24 hex digits.
const fn diagnose(b: &[u8]) -> ParseError {
    // Count characters: every byte that is not a UTF-8 continuation byte starts one.
    let mut chars = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] & 0xc0 != 0x80 {
            chars += 1;
        }
        i += 1;
    }
    if chars != 24 {
        return ParseError(ParseErrorKind::Length(chars));
    }
    let mut index = 0;
    let mut i = 0;
    while i < b.len() {
        if VALUES[b[i] as usize] & INVALID != 0 {
            return ParseError(ParseErrorKind::Char(decode_char(b, i), index));
        }
        // Every valid hex digit is one ASCII byte, so it is one character.
        index += 1;
        i += 1;
    }
    // Unreachable for a 24-character string that failed the fast path; report the length
    // rather than panic.
    ParseError(ParseErrorKind::Length(chars))
}

/// Decodes the UTF-8 character starting at `b[i]` (`b` is valid UTF-8).
const fn decode_char(b: &[u8], i: usize) -> char {
    let first = b[i] as u32;
    let (len, mut cp) = if first < 0x80 {
        (1, first)
    } else if first >> 5 == 0b110 {
        (2, first & 0x1f)
    } else if first >> 4 == 0b1110 {
        (3, first & 0x0f)
    } else {
        (4, first & 0x07)
    };
    let mut k = 1;
    while k < len && i + k < b.len() {
        cp = (cp << 6) | (b[i + k] as u32 & 0x3f);
        k += 1;
    }
    match char::from_u32(cp) {
        Some(c) => c,
        None => char::REPLACEMENT_CHARACTER,
    }
}

impl FromStr for ObjectId {
    type Err = ParseError;

    /// Same as [`ObjectId::parse_str`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id: ObjectId = "507f1f77bcf86cd799439011".parse()?;
    /// assert_eq!(id.timestamp(), 1_350_508_407);
    /// # Ok::<(), oid_core::ParseError>(())
    /// ```
    #[inline]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ObjectId::parse_str(s)
    }
}

impl TryFrom<&str> for ObjectId {
    type Error = ParseError;

    /// Same as [`ObjectId::parse_str`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert!(ObjectId::try_from("507f1f77bcf86cd799439011").is_ok());
    /// assert!(ObjectId::try_from("nope").is_err());
    /// ```
    #[inline]
    fn try_from(s: &str) -> Result<Self, Self::Error> {
        ObjectId::parse_str(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn invalid_inputs_table() {
        let cases: &[(&str, &str)] = &[
            ("", "invalid length: expected 24 hex characters, found 0"),
            (
                "507f1f77bcf86cd79943901",
                "invalid length: expected 24 hex characters, found 23",
            ),
            (
                "507f1f77bcf86cd7994390111",
                "invalid length: expected 24 hex characters, found 25",
            ),
            (
                " 507f1f77bcf86cd799439011",
                "invalid length: expected 24 hex characters, found 25",
            ),
            (
                "507f1f77bcf86cd799439011\n",
                "invalid length: expected 24 hex characters, found 25",
            ),
            (
                "0x507f1f77bcf86cd799439011",
                "invalid length: expected 24 hex characters, found 26",
            ),
            (
                "0x7f1f77bcf86cd799439011",
                "invalid character 'x' at index 1: expected a hex digit",
            ),
            (
                "507f1f77bcf86cd79943901g",
                "invalid character 'g' at index 23: expected a hex digit",
            ),
            (
                "507f1f77 cf86cd799439011",
                "invalid character ' ' at index 8: expected a hex digit",
            ),
            (
                "507f1f77-cf86cd799439011",
                "invalid character '-' at index 8: expected a hex digit",
            ),
            (
                "é07f1f77bcf86cd799439011",
                "invalid character 'é' at index 0: expected a hex digit",
            ),
            (
                "50é7f1f77bcf86cd79943901",
                "invalid character 'é' at index 2: expected a hex digit",
            ),
            (
                "507f1f77bcf86cd7994390€1",
                "invalid character '€' at index 22: expected a hex digit",
            ),
            (
                "507f1f77bcf86cd79943901😀",
                "invalid character '😀' at index 23: expected a hex digit",
            ),
            // 12 two-byte characters are 24 bytes but 12 characters.
            (
                "éééééééééééé",
                "invalid length: expected 24 hex characters, found 12",
            ),
            (
                "507f1f77bcf86cd79943901\0",
                "invalid character '\\0' at index 23: expected a hex digit",
            ),
            (
                "ｆ07f1f77bcf86cd799439011",
                "invalid character 'ｆ' at index 0: expected a hex digit",
            ),
        ];
        for (input, msg) in cases {
            let err = ObjectId::parse_str(input).expect_err(input);
            assert_eq!(err.to_string(), *msg, "input {input:?}");
            assert!(!ObjectId::is_valid(input));
        }
    }

    #[test]
    fn accepts_any_case() {
        let lower = ObjectId::parse_str("abcdefabcdefabcdefabcdef");
        let upper = ObjectId::parse_str("ABCDEFABCDEFABCDEFABCDEF");
        let mixed = ObjectId::parse_str("aBcDeFAbCdEfaBcDeFAbCdEf");
        assert_eq!(lower, upper);
        assert_eq!(lower, mixed);
        assert_eq!(
            lower.map(|id| id.bytes()),
            Ok([
                0xab, 0xcd, 0xef, 0xab, 0xcd, 0xef, 0xab, 0xcd, 0xef, 0xab, 0xcd, 0xef
            ])
        );
    }

    /// The independent oracle: the standard library's digit parsing.
    fn hex_value(b: u8) -> Option<u8> {
        let digit = if b.is_ascii() {
            (b as char).to_digit(16)
        } else {
            None
        };
        digit.and_then(|d| u8::try_from(d).ok())
    }

    #[test]
    fn every_byte_in_every_position() {
        // Exhaustive over the byte value at each of the 24 positions, against the standard library.
        let base = *b"0123456789abcdefABCDEF00";
        for pos in 0..24 {
            for v in 0..=255u8 {
                let mut input = base;
                input[pos] = v;
                let Ok(s) = core::str::from_utf8(&input) else {
                    continue;
                };
                let parsed = ObjectId::parse_str(s);
                match hex_value(v) {
                    Some(_) => {
                        let expected: std::vec::Vec<u8> = input
                            .chunks(2)
                            .map(|p| (hex_value(p[0]).unwrap() << 4) | hex_value(p[1]).unwrap())
                            .collect();
                        assert_eq!(parsed.map(|id| id.bytes().to_vec()), Ok(expected));
                    }
                    None => assert_eq!(
                        parsed.map_err(|e| e.invalid_char()),
                        Err(Some((v as char, pos))),
                        "byte {v:#x} at {pos}"
                    ),
                }
            }
        }
    }

    #[test]
    fn the_table_matches_char_to_digit() {
        for b in 0..=255u8 {
            let value = VALUES[b as usize];
            let ours = (value & INVALID == 0).then_some(u32::from(value));
            assert_eq!(ours, hex_value(b).map(u32::from), "byte {b}");
        }
    }
}
