//! One case of the differential test: its class, its input, and what it is by construction;
//! and the line format of case files (`oid-verify cases` writes them, `compare` reads them).

use std::fmt::Write as _;

/// How a corpus string was made. The name is what the case file and the deviation table use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Class {
    /// 12 random bytes as 24 lowercase hex digits.
    ValidLower,
    /// 12 random bytes as 24 uppercase hex digits.
    ValidUpper,
    /// 12 random bytes, each letter's case picked at random.
    ValidMixed,
    /// Edge values: timestamps 0, 2^31 - 1, 2^31, 2^32 - 1, all-zero and all-`f` ids, counter
    /// 0 and 0xffffff; random case.
    ValidEdge,
    /// 0 to 23 hex digits.
    LengthShort,
    /// 25 to 48 hex digits.
    LengthLong,
    /// A valid id with one character deleted (23 characters).
    DeletedChar,
    /// A valid id with one hex digit inserted (25 characters).
    InsertedChar,
    /// One character of a valid id replaced by printable ASCII that is not a hex digit.
    BadAscii,
    /// One character replaced by an ASCII control character that is not whitespace, or DEL.
    BadControl,
    /// One character replaced by ASCII whitespace (24 characters).
    WhitespaceInside,
    /// 22 (or 20) hex digits with 2 (or 4) ASCII whitespace characters between byte pairs:
    /// 24 characters that Python's `bytes.fromhex` decodes to 11 (or 10) bytes.
    WhitespacePairs,
    /// Whitespace before or after a valid id (25 to 27 characters), or before or after 23 hex
    /// digits (24 characters).
    WhitespaceAround,
    /// `0x`/`0X`/`\x` before 22 hex digits (24 characters) or before 24 (26 characters).
    Prefix0x,
    /// `+` or `-` before 23 hex digits.
    Sign,
    /// Separators and wrappers: dashes, colons, spaces in groups, quotes, `{"$oid": …}`,
    /// `ObjectId("…")`.
    Separators,
    /// One character replaced by a non-ASCII character (look-alike digits and letters,
    /// Unicode spaces, zero-width characters, combining marks, emoji, random code points).
    NonAsciiInside,
    /// Non-ASCII strings that are 24 bytes long in UTF-8, or 24 units long in UTF-16, but are
    /// not 24 characters.
    NonAsciiLength,
    /// A valid id with a non-ASCII character before or after it (BOM, NBSP, ...).
    NonAsciiAround,
    /// Ids printed by `oid new 10000`.
    CliNew,
    /// Ids made by `oid_std::new()`.
    StdNew,
}

/// Every class with how many corpus strings it gets (the generated ids are not in here).
pub(crate) const CORPUS_CLASSES: &[(Class, usize)] = &[
    (Class::ValidLower, 1000),
    (Class::ValidUpper, 600),
    (Class::ValidMixed, 1000),
    (Class::ValidEdge, 400),
    (Class::LengthShort, 600),
    (Class::LengthLong, 600),
    (Class::DeletedChar, 300),
    (Class::InsertedChar, 300),
    (Class::BadAscii, 1000),
    (Class::BadControl, 300),
    (Class::WhitespaceInside, 500),
    (Class::WhitespacePairs, 500),
    (Class::WhitespaceAround, 500),
    (Class::Prefix0x, 400),
    (Class::Sign, 100),
    (Class::Separators, 300),
    (Class::NonAsciiInside, 1100),
    (Class::NonAsciiLength, 300),
    (Class::NonAsciiAround, 200),
];

const ALL: &[Class] = &[
    Class::ValidLower,
    Class::ValidUpper,
    Class::ValidMixed,
    Class::ValidEdge,
    Class::LengthShort,
    Class::LengthLong,
    Class::DeletedChar,
    Class::InsertedChar,
    Class::BadAscii,
    Class::BadControl,
    Class::WhitespaceInside,
    Class::WhitespacePairs,
    Class::WhitespaceAround,
    Class::Prefix0x,
    Class::Sign,
    Class::Separators,
    Class::NonAsciiInside,
    Class::NonAsciiLength,
    Class::NonAsciiAround,
    Class::CliNew,
    Class::StdNew,
];

impl Class {
    /// The class's name in case files, reports and the deviation table.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Class::ValidLower => "valid-lower",
            Class::ValidUpper => "valid-upper",
            Class::ValidMixed => "valid-mixed",
            Class::ValidEdge => "valid-edge",
            Class::LengthShort => "length-short",
            Class::LengthLong => "length-long",
            Class::DeletedChar => "deleted-char",
            Class::InsertedChar => "inserted-char",
            Class::BadAscii => "bad-ascii",
            Class::BadControl => "bad-control",
            Class::WhitespaceInside => "whitespace-inside",
            Class::WhitespacePairs => "whitespace-pairs",
            Class::WhitespaceAround => "whitespace-around",
            Class::Prefix0x => "prefix-0x",
            Class::Sign => "sign",
            Class::Separators => "separators",
            Class::NonAsciiInside => "non-ascii-inside",
            Class::NonAsciiLength => "non-ascii-length",
            Class::NonAsciiAround => "non-ascii-around",
            Class::CliNew => "cli-new",
            Class::StdNew => "std-new",
        }
    }

    /// The class with this name.
    pub(crate) fn from_name(name: &str) -> Option<Class> {
        ALL.iter().copied().find(|c| c.name() == name)
    }

    /// Whether every string of this class is an ObjectId.
    pub(crate) const fn is_valid(self) -> bool {
        matches!(
            self,
            Class::ValidLower
                | Class::ValidUpper
                | Class::ValidMixed
                | Class::ValidEdge
                | Class::CliNew
                | Class::StdNew
        )
    }
}

/// One string of the corpus, with what it is by construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Case {
    /// How it was made.
    pub(crate) class: Class,
    /// The string given to every parser.
    pub(crate) input: String,
    /// Its 12 bytes when it is an id, `None` when every parser must reject it.
    pub(crate) expect: Option<[u8; 12]>,
}

/// Lowercase hex digits.
const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    s
}

/// Decodes `s` when it is exactly 24 ASCII hex digits: the rule written out independently of
/// `oid-core`, to check the corpus's construction.
pub(crate) fn reference_decode(s: &str) -> Option<[u8; 12]> {
    let b = s.as_bytes();
    if b.len() != 24 || !b.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut out = [0u8; 12];
    for (k, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * k..2 * k + 2], 16).ok()?;
    }
    Some(out)
}

/// One line of a case file: `class<TAB>expected bytes in hex, or -<TAB>input as hex of its UTF-8`.
/// Hex keeps every input (whitespace, control characters, any Unicode) safe on one line.
pub(crate) fn case_line(case: &Case) -> String {
    let mut line = String::new();
    let expect = case.expect.map_or_else(|| "-".to_owned(), |b| hex(&b));
    let _ = write!(
        line,
        "{}\t{expect}\t{}",
        case.class.name(),
        hex(case.input.as_bytes())
    );
    line
}

/// Reads a line written by [`case_line`].
pub(crate) fn parse_case_line(line: &str) -> Result<Case, String> {
    let mut fields = line.split('\t');
    let (Some(class), Some(expect), Some(input), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(format!("malformed case line {line:?}"));
    };
    let class = Class::from_name(class).ok_or_else(|| format!("unknown class {class:?}"))?;
    let expect = match expect {
        "-" => None,
        h => Some(reference_decode(h).ok_or_else(|| format!("bad expected bytes {h:?}"))?),
    };
    let bytes = unhex(input).ok_or_else(|| format!("bad input hex {input:?}"))?;
    let input = String::from_utf8(bytes).map_err(|_| format!("input {input} is not UTF-8"))?;
    Ok(Case {
        class,
        input,
        expect,
    })
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len() / 2)
        .map(|k| u8::from_str_radix(s.get(2 * k..2 * k + 2)?, 16).ok())
        .collect()
}
