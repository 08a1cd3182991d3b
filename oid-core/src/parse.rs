//! Parsing the 24-character hex form. The parser is a `const fn`, so the [`oid!`](crate::oid)
//! macro checks literals at compile time.

use core::str::FromStr;

use crate::ObjectId;
use crate::error::{ParseError, ParseErrorKind};

/// One byte's hex value and whether it is a hex digit (1) or not (0), by arithmetic alone: no
/// table, no branch. Digits are `c - '0' < 10`; letters, either case, are `(c | 0x20) - 'a' < 6`.
/// Written with multiplications by the 0/1 flags rather than selects: LLVM vectorises the loop
/// over 24 bytes written this way (SSE2 on x86_64), and kept the select form scalar.
#[inline(always)]
const fn digit(c: u8) -> (u8, u8) {
    let d = c.wrapping_sub(b'0');
    let l = (c | 0x20).wrapping_sub(b'a');
    let is_digit = (d < 10) as u8;
    let is_letter = (l < 6) as u8;
    (
        d.wrapping_mul(is_digit) + l.wrapping_add(10).wrapping_mul(is_letter),
        is_digit | is_letter,
    )
}

/// Decodes 24 hex digits, or `None` if `b` is not 24 bytes or any byte is not a hex digit. Two
/// branch-free loops (the values of all 24 bytes with their validity collected in one
/// accumulator, then the pairs joined), checked once at the end. Always inlined: a call of its
/// own returns the bytes through memory and cost `parse_str` about a third more.
#[inline(always)]
const fn decode24(b: &[u8]) -> Option<[u8; 12]> {
    if b.len() != 24 {
        return None;
    }
    let mut values = [0u8; 24];
    let mut invalid = 0u8;
    let mut i = 0;
    while i < 24 {
        let (value, valid) = digit(b[i]);
        values[i] = value;
        invalid |= valid ^ 1;
        i += 1;
    }
    let mut out = [0u8; 12];
    let mut i = 0;
    while i < 12 {
        out[i] = (values[2 * i] << 4) | values[2 * i + 1];
        i += 1;
    }
    if invalid != 0 {
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

    /// Parses 24 ASCII hex digits given as bytes (any case), as [`parse_str`](ObjectId::parse_str)
    /// does for a `&str`: for byte columns and buffers that are not known to be UTF-8. Shares
    /// `parse_str`'s decode, so it runs at the same speed.
    ///
    /// # Errors
    ///
    /// The [`ParseError`] `parse_str` gives for the same text when `b` is UTF-8. Bytes that are not
    /// UTF-8 count one character each, and the first of them that is not a hex digit is reported as
    /// U+FFFD (`'\u{fffd}'`) at its byte index.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::try_parse_ascii(b"507F1F77bcf86cd799439011")?;
    /// assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
    ///
    /// let err = ObjectId::try_parse_ascii(b"507f1f77bcf86cd79943901\xff").unwrap_err();
    /// assert_eq!(err.invalid_char(), Some(('\u{fffd}', 23)));
    /// assert_eq!(ObjectId::try_parse_ascii(b"507f").unwrap_err().len(), Some(4));
    /// # Ok::<(), oid_core::ParseError>(())
    /// ```
    #[inline]
    pub const fn try_parse_ascii(b: &[u8]) -> Result<ObjectId, ParseError> {
        if let Some(bytes) = decode24(b) {
            return Ok(ObjectId::from_bytes(bytes));
        }
        Err(diagnose_ascii(b))
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
        if digit(b[i]).1 == 0 {
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

/// The slow path of [`ObjectId::try_parse_ascii`], kept out of line so the fast path inlines
/// into callers' loops as `parse_str`'s does.
#[cold]
#[inline(never)]
const fn diagnose_ascii(b: &[u8]) -> ParseError {
    match core::str::from_utf8(b) {
        Ok(s) => diagnose(s.as_bytes()),
        Err(_) => diagnose_bytes(b),
    }
}

/// The slow path for bytes that are not UTF-8: each byte is one character.
const fn diagnose_bytes(b: &[u8]) -> ParseError {
    if b.len() != 24 {
        return ParseError(ParseErrorKind::Length(b.len()));
    }
    let mut i = 0;
    while i < b.len() {
        if digit(b[i]).1 == 0 {
            let c = if b[i] < 0x80 {
                b[i] as char
            } else {
                char::REPLACEMENT_CHARACTER
            };
            return ParseError(ParseErrorKind::Char(c, i));
        }
        i += 1;
    }
    ParseError(ParseErrorKind::Length(b.len()))
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
            // The byte form gives the same error for UTF-8 input.
            assert_eq!(ObjectId::try_parse_ascii(input.as_bytes()), Err(err));
        }
    }

    #[test]
    fn try_parse_ascii_reports_bytes_that_are_not_utf8() {
        let mut b = *b"507f1f77bcf86cd799439011";
        assert_eq!(
            ObjectId::try_parse_ascii(&b),
            ObjectId::parse_str("507f1f77bcf86cd799439011")
        );
        b[5] = 0xc3; // a lead byte with no continuation
        let err = ObjectId::try_parse_ascii(&b).unwrap_err();
        assert_eq!(err.invalid_char(), Some((char::REPLACEMENT_CHARACTER, 5)));
        let err = ObjectId::try_parse_ascii(&b[..23]).unwrap_err();
        assert_eq!(err.len(), Some(23));
        b[5] = b'f';
        b[23] = b'g';
        b[2] = 0xff;
        // The first bad byte wins, ASCII or not.
        let err = ObjectId::try_parse_ascii(&b).unwrap_err();
        assert_eq!(err.invalid_char(), Some((char::REPLACEMENT_CHARACTER, 2)));
        b[2] = b'0';
        b[0] = 0x80;
        b[1] = b'z';
        let err = ObjectId::try_parse_ascii(&b).unwrap_err();
        assert_eq!(err.invalid_char(), Some((char::REPLACEMENT_CHARACTER, 0)));
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

    /// The reference decoder: the rule and the messages written out with the standard library,
    /// character by character, sharing no code with the fast path or its diagnosis.
    fn reference(s: &str) -> Result<[u8; 12], std::string::String> {
        let chars: std::vec::Vec<char> = s.chars().collect();
        if chars.len() != 24 {
            return Err(std::format!(
                "invalid length: expected 24 hex characters, found {}",
                chars.len()
            ));
        }
        if let Some((i, c)) = chars
            .iter()
            .enumerate()
            .find(|(_, c)| !c.is_ascii_hexdigit())
        {
            return Err(std::format!(
                "invalid character {c:?} at index {i}: expected a hex digit"
            ));
        }
        let mut out = [0u8; 12];
        for (k, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&s[2 * k..2 * k + 2], 16).map_err(|e| e.to_string())?;
        }
        Ok(out)
    }

    /// Every entry point agrees with [`reference`] on `s`: accept or reject, bytes, message.
    fn agrees(s: &str) {
        let expected = reference(s);
        let parsed = ObjectId::parse_str(s);
        assert_eq!(
            parsed.map(|id| id.bytes()).map_err(|e| e.to_string()),
            expected,
            "{s:?}"
        );
        assert_eq!(ObjectId::is_valid(s), expected.is_ok(), "{s:?}");
        assert_eq!(s.parse::<ObjectId>(), parsed, "{s:?}");
        assert_eq!(ObjectId::try_from(s), parsed, "{s:?}");
    }

    #[test]
    fn every_single_character_substitution_agrees_with_the_reference() {
        // Every ASCII character, and characters of two, three and four UTF-8 bytes (some that
        // look like digits, some whose last byte is a digit's), in every position of ids in
        // lower, upper and mixed case. Also every deletion and every insertion of one.
        let mut alphabet: std::vec::Vec<char> = (0u8..0x80).map(char::from).collect();
        alphabet.extend([
            '\u{80}',
            '\u{a0}',
            'é',
            'ß',
            '\u{430}',
            '\u{660}',
            '\u{7ff}',
            '\u{800}',
            '\u{2010}',
            '€',
            'ａ',
            'Ｆ',
            '０',
            '\u{fffd}',
            '\u{feff}',
            '\u{ffff}',
            '\u{10000}',
            '😀',
            '\u{10ffff}',
            '\u{1d7ce}',
        ]);
        for base in [
            "507f1f77bcf86cd799439011",
            "ABCDEF0123456789ABCDEF09",
            "aBcDeF0123456789fEdCbA90",
        ] {
            agrees(base);
            let chars: std::vec::Vec<char> = base.chars().collect();
            for pos in 0..=24 {
                for &c in &alphabet {
                    let mut sub = chars.clone();
                    if pos < 24 {
                        sub[pos] = c;
                        agrees(&sub.iter().collect::<std::string::String>());
                    }
                    let mut ins = chars.clone();
                    ins.insert(pos, c);
                    agrees(&ins.iter().collect::<std::string::String>());
                }
                if pos < 24 {
                    let mut del = chars.clone();
                    del.remove(pos);
                    agrees(&del.iter().collect::<std::string::String>());
                }
            }
        }
    }

    #[test]
    fn digit_matches_char_to_digit() {
        for b in 0..=255u8 {
            let (value, valid) = digit(b);
            let ours = (valid == 1).then_some(u32::from(value));
            assert_eq!(ours, hex_value(b).map(u32::from), "byte {b}");
        }
    }
}
