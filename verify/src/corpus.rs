//! The differential corpus: strings that are ids (any case) and strings that nearly are.
//!
//! Every string is built from a class that knows, by construction, whether the string is an
//! ObjectId and, if so, its 12 bytes. That expectation is a third party in the comparison
//! (besides our parser and each peer's), and [`crate::case::reference_decode`], written here without
//! `oid-core`, checks the construction itself.

use crate::case::{CORPUS_CLASSES, Case, Class, hex};
/// SplitMix64: small, fast, and the same sequence on every machine for one seed.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub(crate) const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub(crate) const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`; the tiny modulo bias does not matter here).
    pub(crate) const fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One element of `items` (not empty).
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// 12 random bytes.
    pub(crate) fn bytes12(&mut self) -> [u8; 12] {
        let mut b = [0u8; 12];
        let (x, y) = (self.next_u64(), self.next_u64());
        b[..8].copy_from_slice(&x.to_le_bytes());
        b[8..].copy_from_slice(&y.to_le_bytes()[..4]);
        b
    }
}

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";
const ASCII_WHITESPACE: &[char] = &[' ', '\t', '\n', '\r', '\x0b', '\x0c'];

fn hex_case(bytes: &[u8], rng: &mut Rng, mode: u8) -> String {
    let lower = hex(bytes);
    match mode {
        0 => lower,
        1 => lower.to_ascii_uppercase(),
        _ => lower
            .chars()
            .map(|c| {
                if rng.below(2) == 0 {
                    c
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect(),
    }
}

fn hex_digits(rng: &mut Rng, n: usize) -> String {
    (0..n)
        .map(|_| {
            let table = if rng.below(4) == 0 {
                HEX_UPPER
            } else {
                HEX_LOWER
            };
            table[rng.below(16)] as char
        })
        .collect()
}

/// Replaces the character at `index` (a character index) with `with`.
fn replace_char(s: &str, index: usize, with: char) -> String {
    s.chars()
        .enumerate()
        .map(|(i, c)| if i == index { with } else { c })
        .collect()
}

/// Non-ASCII characters that people paste, or that look like hex digits.
const NON_ASCII: &[char] = &[
    'é',
    'ß',
    'Ä',
    'µ',
    '²',
    '½', // Latin-1
    '\u{a0}',
    '\u{ad}', // NBSP, soft hyphen
    '０',
    '９',
    'Ａ',
    'Ｆ',
    'ａ',
    'ｆ', // full-width digits and letters
    '٠',
    '٩',
    '۰',
    '߀',
    '०',
    '০', // Arabic-Indic, Persian, NKo, Devanagari, Bengali zero
    'а',
    'е',
    'с',
    'Α',
    'β', // Cyrillic and Greek look-alikes of a, e, c, A, b
    '\u{2007}',
    '\u{2009}',
    '\u{3000}',
    '\u{85}',
    '\u{2028}', // Unicode spaces, NEL, LS
    '\u{200b}',
    '\u{200d}',
    '\u{feff}',
    '\u{301}', // zero-width, BOM, combining acute
    '€',
    '∞',
    '𝟎',
    '𝟏',
    '😀',
    '\u{10ffff}', // BMP symbols and astral characters
];

/// A random Unicode scalar value that is not ASCII.
const fn random_non_ascii(rng: &mut Rng) -> char {
    loop {
        let cp = match rng.below(3) {
            0 => 0x80 + rng.below(0x780) as u32,       // two bytes in UTF-8
            1 => 0x800 + rng.below(0xf800) as u32,     // three bytes
            _ => 0x10000 + rng.below(0x100000) as u32, // four bytes
        };
        if let Some(c) = char::from_u32(cp) {
            return c;
        }
    }
}

fn valid(class: Class, rng: &mut Rng, i: usize) -> Case {
    let mut bytes = rng.bytes12();
    let mode = match class {
        Class::ValidLower => 0,
        Class::ValidUpper => 1,
        Class::ValidMixed => 2,
        _ => {
            // Edge values in turn, each with random other fields and a random case.
            let ts: Option<u32> = match i % 10 {
                0 => Some(0),
                1 => Some(0x7fff_ffff),
                2 => Some(0x8000_0000),
                3 => Some(u32::MAX),
                4 => Some(1_700_000_000),
                _ => None,
            };
            if let Some(ts) = ts {
                bytes[..4].copy_from_slice(&ts.to_be_bytes());
            }
            match i % 10 {
                5 => bytes = [0; 12],
                6 => bytes = [0xff; 12],
                7 => bytes[9..].copy_from_slice(&[0, 0, 0]),
                8 => bytes[9..].copy_from_slice(&[0xff, 0xff, 0xff]),
                _ => {}
            }
            rng.below(3) as u8
        }
    };
    Case {
        class,
        input: hex_case(&bytes, rng, mode),
        expect: Some(bytes),
    }
}

fn near_miss(class: Class, rng: &mut Rng) -> String {
    let id = {
        let b = rng.bytes12();
        let mode = rng.below(3) as u8;
        hex_case(&b, rng, mode)
    };
    let pos = rng.below(24);
    match class {
        Class::LengthShort => {
            let n = rng.below(24);
            hex_digits(rng, n)
        }
        Class::LengthLong => {
            let n = 25 + rng.below(24);
            hex_digits(rng, n)
        }
        Class::DeletedChar => {
            let mut s = id;
            s.remove(pos);
            s
        }
        Class::InsertedChar => {
            let mut s = id;
            let d = HEX_LOWER[rng.below(16)] as char;
            s.insert(rng.below(25), d);
            s
        }
        Class::BadAscii => {
            let c = loop {
                let c = (0x20 + rng.below(0x5f) as u8) as char; // ' ' ..= '~'
                if !c.is_ascii_hexdigit() && c != ' ' {
                    break c;
                }
            };
            replace_char(&id, pos, c)
        }
        Class::BadControl => {
            let c = loop {
                let c = match rng.below(8) {
                    0 => '\x7f',
                    1 => '\0',
                    _ => (rng.below(0x20) as u8) as char,
                };
                if !ASCII_WHITESPACE.contains(&c) {
                    break c;
                }
            };
            replace_char(&id, pos, c)
        }
        Class::WhitespaceInside => replace_char(&id, pos, rng.pick(ASCII_WHITESPACE)),
        Class::WhitespacePairs => {
            // 11 (or 10) byte pairs with whitespace at pair boundaries, 24 characters in all.
            let pairs = if rng.below(4) == 0 { 10 } else { 11 };
            let digits = hex_digits(rng, pairs * 2);
            let mut slots = vec![0usize; pairs + 1]; // whitespace count before pair k (k = pairs: at the end)
            for _ in 0..(24 - pairs * 2) {
                slots[rng.below(pairs + 1)] += 1;
            }
            let mut s = String::new();
            for (k, n) in slots.iter().enumerate() {
                for _ in 0..*n {
                    s.push(rng.pick(ASCII_WHITESPACE));
                }
                if k < pairs {
                    s.push_str(&digits[2 * k..2 * k + 2]);
                }
            }
            s
        }
        Class::WhitespaceAround => {
            let ws: String = (0..1 + rng.below(3))
                .map(|_| rng.pick(ASCII_WHITESPACE))
                .collect();
            let body = if rng.below(2) == 0 {
                id
            } else {
                hex_digits(rng, 24 - ws.chars().count())
            };
            match rng.below(3) {
                0 => format!("{ws}{body}"),
                1 => format!("{body}{ws}"),
                _ => {
                    let w = rng.pick(ASCII_WHITESPACE);
                    format!("{w}{body}{w}")
                }
            }
        }
        Class::Prefix0x => {
            let prefix = rng.pick(&["0x", "0X", "\\x", "x", "#"]);
            let n = if rng.below(2) == 0 {
                24 - prefix.len()
            } else {
                24
            };
            format!("{prefix}{}", hex_digits(rng, n))
        }
        Class::Sign => format!("{}{}", rng.pick(&["+", "-"]), hex_digits(rng, 23)),
        Class::Separators => {
            let lower = id.to_ascii_lowercase();
            match rng.below(7) {
                0 => format!("{}-{}-{}", &lower[..8], &lower[8..16], &lower[16..]),
                1 => {
                    let pairs: Vec<&str> = (0..12).map(|k| &lower[2 * k..2 * k + 2]).collect();
                    pairs.join(":")
                }
                2 => format!("{} {} {}", &lower[..8], &lower[8..16], &lower[16..]),
                3 => format!("\"{lower}\""),
                4 => format!("{{\"$oid\": \"{lower}\"}}"),
                5 => format!("ObjectId(\"{lower}\")"),
                _ => format!("{}_{}", &lower[..12], &lower[12..]),
            }
        }
        Class::NonAsciiInside => {
            let c = if rng.below(2) == 0 {
                rng.pick(NON_ASCII)
            } else {
                random_non_ascii(rng)
            };
            replace_char(&id, pos, c)
        }
        Class::NonAsciiLength => match rng.below(4) {
            // 12 two-byte characters: 24 bytes, 12 characters.
            0 => (0..12)
                .map(|_| char::from_u32(0x80 + rng.below(0x780) as u32).unwrap_or('é'))
                .collect(),
            // 22 hex digits and one two-byte character: 24 bytes, 23 characters.
            1 => {
                let mut s = hex_digits(rng, 22);
                s.insert(rng.below(23), rng.pick(&['é', 'ß', '\u{a0}', 'µ']));
                s
            }
            // 22 hex digits and one astral character: 24 UTF-16 units, 23 characters.
            2 => {
                let mut s = hex_digits(rng, 22);
                s.insert(rng.below(23), rng.pick(&['😀', '𝟎', '\u{10ffff}']));
                s
            }
            // 21 hex digits and one three-byte character: 24 bytes, 22 characters.
            _ => {
                let mut s = hex_digits(rng, 21);
                s.insert(
                    rng.below(22),
                    rng.pick(&['€', '\u{3000}', '\u{feff}', '０']),
                );
                s
            }
        },
        Class::NonAsciiAround => {
            let c = rng.pick(&['\u{feff}', '\u{a0}', '\u{200b}', '\u{3000}', 'é', '😀']);
            if rng.below(2) == 0 {
                format!("{c}{id}")
            } else {
                format!("{id}{c}")
            }
        }
        // Valid and generated classes are not near misses.
        _ => id,
    }
}

/// The corpus: `CORPUS_CLASSES` in order, each with its count, from `seed`.
pub(crate) fn corpus(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for &(class, count) in CORPUS_CLASSES {
        for i in 0..count {
            if class.is_valid() {
                out.push(valid(class, &mut rng, i));
            } else {
                out.push(Case {
                    class,
                    input: near_miss(class, &mut rng),
                    expect: None,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    use crate::case::{case_line, parse_case_line, reference_decode};

    #[test]
    fn the_corpus_has_10000_strings_and_every_class() {
        let total: usize = CORPUS_CLASSES.iter().map(|(_, n)| n).sum();
        assert_eq!(total, 10_000);
        let cases = corpus(1);
        assert_eq!(cases.len(), 10_000);
        let mut per_class: HashMap<Class, usize> = HashMap::new();
        for c in &cases {
            *per_class.entry(c.class).or_default() += 1;
        }
        for (class, n) in CORPUS_CLASSES {
            assert_eq!(per_class.get(class), Some(n), "{}", class.name());
        }
    }

    #[test]
    fn every_case_is_what_its_class_says() {
        for seed in [1, 2, 0xdead_beef] {
            for case in corpus(seed) {
                assert_eq!(
                    reference_decode(&case.input),
                    case.expect,
                    "{} {:?}",
                    case.class.name(),
                    case.input
                );
                assert_eq!(case.expect.is_some(), case.class.is_valid());
            }
        }
    }

    /// The error our parser should give, written out from the rule with the standard library.
    fn reference_error(s: &str) -> String {
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != 24 {
            return format!(
                "invalid length: expected 24 hex characters, found {}",
                chars.len()
            );
        }
        match chars
            .iter()
            .enumerate()
            .find(|(_, c)| !c.is_ascii_hexdigit())
        {
            Some((i, c)) => format!("invalid character {c:?} at index {i}: expected a hex digit"),
            None => String::from("(no error: 24 hex digits)"),
        }
    }

    #[test]
    fn our_parser_agrees_with_the_reference_on_the_corpus() {
        // The differential corpus, without the peers: every entry point accepts exactly what the
        // reference decoder accepts, with the same bytes, and rejects with the reference's message.
        for seed in [1, 2, 0xdead_beef] {
            for case in corpus(seed) {
                let s = case.input.as_str();
                let parsed = oid_core::ObjectId::parse_str(s);
                assert_eq!(
                    parsed.map(|id| id.bytes()).ok(),
                    reference_decode(s),
                    "{s:?}"
                );
                if let Err(e) = parsed {
                    assert_eq!(e.to_string(), reference_error(s), "{s:?}");
                }
                assert_eq!(oid_core::ObjectId::is_valid(s), parsed.is_ok(), "{s:?}");
                assert_eq!(s.parse::<oid_core::ObjectId>(), parsed, "{s:?}");
                assert_eq!(oid_core::ObjectId::try_from(s), parsed, "{s:?}");
            }
        }
    }

    #[test]
    fn classes_have_the_shapes_their_docs_promise() {
        for case in corpus(7) {
            let chars = case.input.chars().count();
            match case.class {
                Class::WhitespacePairs | Class::WhitespaceInside | Class::BadAscii => {
                    assert_eq!(chars, 24, "{:?}", case.input);
                }
                Class::LengthShort | Class::DeletedChar => assert!(chars < 24),
                Class::LengthLong | Class::InsertedChar => assert!(chars > 24),
                Class::NonAsciiInside | Class::NonAsciiAround => {
                    assert!(!case.input.is_ascii());
                }
                Class::NonAsciiLength => {
                    assert_ne!(chars, 24);
                    let utf16 = case.input.encode_utf16().count();
                    assert!(case.input.len() == 24 || utf16 == 24, "{:?}", case.input);
                }
                _ => {}
            }
            if case.class == Class::WhitespacePairs {
                let digits = case.input.chars().filter(char::is_ascii_hexdigit).count();
                assert!(digits == 22 || digits == 20);
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_corpus() {
        assert_eq!(corpus(42), corpus(42));
        assert_ne!(corpus(42), corpus(43));
    }

    #[test]
    fn case_lines_round_trip_any_input() {
        for case in corpus(3).into_iter().step_by(7) {
            let line = case_line(&case);
            assert!(!line.contains('\n'));
            assert_eq!(parse_case_line(&line), Ok(case));
        }
        assert!(parse_case_line("valid-lower\t-").is_err());
        assert!(parse_case_line("nope\t-\t41").is_err());
        assert!(parse_case_line("sign\t-\tzz").is_err());
    }
}
