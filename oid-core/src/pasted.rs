//! Reading an id as people paste it: from mongosh, Compass, drivers' logs and JSON.
//!
//! [`ObjectId::parse_pasted`] accepts, with any surrounding whitespace: bare hex (any case),
//! hex in double or single quotes, `ObjectId("…")`, `ObjectId('…')`, `new ObjectId("…")`, and
//! extended JSON `{"$oid": "…"}` (any spacing; the key may also be `'$oid'` or bare `$oid`, as
//! mongosh prints it). The hex inside must be exactly an id: this reads the listed forms, it
//! does not search. When the input is none of them, the error offers the id the input holds,
//! if any, as a "did you mean" hint. [`ObjectId::parse_str`] stays strict.

use core::fmt;

use crate::{ErrorKind, ObjectId, ParseError};

/// The form a pasted id was written in.
///
/// # Examples
///
/// ```
/// use oid_core::{Form, ObjectId};
///
/// let pasted = ObjectId::parse_pasted("ObjectId('507f1f77bcf86cd799439011')")?;
/// assert_eq!(pasted.form(), Form::Shell);
/// assert_eq!(pasted.form().to_string(), "mongosh ObjectId(\"…\")");
/// # Ok::<(), oid_core::PastedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Form {
    /// Bare hex, any case: `507f1f77bcf86cd799439011`.
    Hex,
    /// Hex in double or single quotes: `"507f1f77bcf86cd799439011"`.
    Quoted,
    /// The mongosh literal: `ObjectId("…")`, `ObjectId('…')` or `new ObjectId("…")`.
    Shell,
    /// MongoDB extended JSON: `{"$oid": "…"}`, also with `'$oid'` or `$oid` as the key.
    ExtendedJson,
}

impl Form {
    /// A short name for messages: `hex`, `quoted hex`, `mongosh ObjectId("…")` or
    /// `extended JSON {"$oid": "…"}`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::Form::Quoted.as_str(), "quoted hex");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Form::Hex => "hex",
            Form::Quoted => "quoted hex",
            Form::Shell => "mongosh ObjectId(\"…\")",
            Form::ExtendedJson => "extended JSON {\"$oid\": \"…\"}",
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An id read by [`ObjectId::parse_pasted`], with the form it was written in.
///
/// # Examples
///
/// ```
/// use oid_core::{Form, ObjectId, oid};
///
/// let pasted = ObjectId::parse_pasted(r#" {"$oid": "507f1f77bcf86cd799439011"} "#)?;
/// assert_eq!(pasted.id(), oid!("507f1f77bcf86cd799439011"));
/// assert_eq!(pasted.form(), Form::ExtendedJson);
/// # Ok::<(), oid_core::PastedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pasted {
    id: ObjectId,
    form: Form,
}

impl Pasted {
    /// The id.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let pasted = ObjectId::parse_pasted("'507f1f77bcf86cd799439011'")?;
    /// assert_eq!(pasted.id().to_hex(), "507f1f77bcf86cd799439011");
    /// # Ok::<(), oid_core::PastedError>(())
    /// ```
    pub const fn id(&self) -> ObjectId {
        self.id
    }

    /// The form the id was written in.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Form, ObjectId};
    /// let pasted = ObjectId::parse_pasted("'507f1f77bcf86cd799439011'")?;
    /// assert_eq!(pasted.form(), Form::Quoted);
    /// # Ok::<(), oid_core::PastedError>(())
    /// ```
    pub const fn form(&self) -> Form {
        self.form
    }
}

/// Why a pasted text is not an id: the strict parser's reason, the form recognised around it
/// (if any), and the id the text holds in some other shape (if any), for a "did you mean" hint.
///
/// Its message is the strict parser's: for the text inside the quotes when a form was
/// recognised (`ObjectId("xyz")`: length 3), for the whole input (trimmed) otherwise. The hint
/// is not part of the message; [`hint`](PastedError::hint) gives it.
///
/// # Examples
///
/// ```
/// use oid_core::{ObjectId, oid};
///
/// let err = ObjectId::parse_pasted("id=507f1f77bcf86cd799439011").unwrap_err();
/// assert_eq!(err.to_string(), "invalid length: expected 24 hex characters, found 27");
/// assert_eq!(err.hint(), Some(oid!("507f1f77bcf86cd799439011")));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PastedError {
    error: ParseError,
    form: Option<Form>,
    hint: Option<ObjectId>,
    /// The first byte and character index of the whitespace inside an id that is whole
    /// without it (`507f1f77 bcf86cd799439011`).
    space: Option<(u8, usize)>,
}

impl PastedError {
    /// The strict parser's error, as [`ObjectId::parse_str`] gives it for the text inside the
    /// recognised form, or for the whole trimmed input.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let err = ObjectId::parse_pasted("ObjectId(\"xyz\")").unwrap_err();
    /// assert_eq!(err.parse_error().len(), Some(3));
    /// ```
    pub const fn parse_error(&self) -> ParseError {
        self.error
    }

    /// What went wrong, in the workspace's shared words: the strict parser's kind,
    /// [`ErrorKind::InvalidLength`] or [`ErrorKind::InvalidCharacter`] (the kind the message
    /// starts with).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ErrorKind, ObjectId};
    /// let err = ObjectId::parse_pasted("ObjectId(\"xyz\")").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidLength);
    /// assert!(err.to_string().starts_with(err.kind().as_str()));
    /// let err = ObjectId::parse_pasted("507f1f77bcf86cd79943901g").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidCharacter);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        self.error.kind()
    }

    /// The form recognised around text that is not an id (`ObjectId("xyz")`: [`Form::Shell`]),
    /// or `None` when no wrapping form was recognised (bare text such as `xyz`, or a near miss
    /// such as `ObjectID("…")`).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Form, ObjectId};
    /// assert_eq!(ObjectId::parse_pasted("ObjectId('xyz')").unwrap_err().form(), Some(Form::Shell));
    /// assert_eq!(ObjectId::parse_pasted("ObjectID('xyz')").unwrap_err().form(), None);
    /// ```
    pub const fn form(&self) -> Option<Form> {
        self.form
    }

    /// The id the input most likely holds: its first run of exactly 24 hex digits that no
    /// other hex digit touches. `None` when there is no such run.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ObjectId, oid};
    /// let near_miss = r#"ObjectID("507f1f77bcf86cd799439011")"#;
    /// let err = ObjectId::parse_pasted(near_miss).unwrap_err();
    /// assert_eq!(err.hint(), Some(oid!("507f1f77bcf86cd799439011")));
    /// assert_eq!(ObjectId::parse_pasted("0507f1f77bcf86cd799439011").unwrap_err().hint(), None);
    /// ```
    pub const fn hint(&self) -> Option<ObjectId> {
        self.hint
    }
}

impl fmt::Display for PastedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)?;
        match self.space {
            Some((byte, index)) => {
                let what = match byte {
                    b' ' => "a space",
                    b'\t' => "a tab",
                    b'\n' | b'\r' => "a line break",
                    _ => "whitespace",
                };
                write!(f, " ({what} at index {index} splits the id)")
            }
            None => Ok(()),
        }
    }
}

impl core::error::Error for PastedError {}

impl ObjectId {
    /// Reads an id as people paste it: bare hex (any case), hex in double or single quotes,
    /// `ObjectId("…")`, `ObjectId('…')`, `new ObjectId("…")`, or extended JSON `{"$oid": "…"}`
    /// (with `'$oid'` or `$oid` as the key too), with any whitespace around and between the
    /// parts, and says which [`Form`] the id was in. The hex inside must be exactly an id;
    /// anything else is an error, which offers the id the text holds in another shape as a
    /// hint. Needs no allocation, and is a `const fn`.
    ///
    /// Use [`ObjectId::parse_str`] where only the canonical 24 hex digits are acceptable.
    ///
    /// # Errors
    ///
    /// A [`PastedError`] with the strict parser's reason (for the text inside a recognised form,
    /// or the whole trimmed input) and, when the input holds an id in some other shape, that
    /// id as [`PastedError::hint`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Form, ObjectId, oid};
    ///
    /// let id = oid!("507f1f77bcf86cd799439011");
    /// for (text, form) in [
    ///     ("507F1F77BCF86CD799439011", Form::Hex),
    ///     ("\"507f1f77bcf86cd799439011\"", Form::Quoted),
    ///     ("ObjectId(\"507f1f77bcf86cd799439011\")", Form::Shell),
    ///     ("new ObjectId('507f1f77bcf86cd799439011')", Form::Shell),
    ///     ("{\"$oid\": \"507f1f77bcf86cd799439011\"}", Form::ExtendedJson),
    /// ] {
    ///     let pasted = ObjectId::parse_pasted(text)?;
    ///     assert_eq!((pasted.id(), pasted.form()), (id, form));
    /// }
    ///
    /// let err = ObjectId::parse_pasted("\"507f1f77bcf86cd799439011\",").unwrap_err();
    /// assert_eq!(err.to_string(), "invalid length: expected 24 hex characters, found 27");
    /// assert_eq!(err.hint(), Some(id));
    /// # Ok::<(), oid_core::PastedError>(())
    /// ```
    pub const fn parse_pasted(s: &str) -> Result<Pasted, PastedError> {
        let text = trim(s.as_bytes());
        let (form, inner) = match unwrap(text) {
            Some((form, inner)) => (Some(form), inner),
            None => (None, text),
        };
        // `inner` is cut from UTF-8 text next to ASCII bytes or whole whitespace characters, so
        // it is UTF-8; the fallback only keeps this free of a panic path.
        let inner = match core::str::from_utf8(inner) {
            Ok(inner) => inner,
            Err(_) => s,
        };
        match ObjectId::parse_str(inner) {
            Ok(id) => Ok(Pasted {
                id,
                form: match form {
                    Some(form) => form,
                    None => Form::Hex,
                },
            }),
            Err(error) => {
                let (hint, space) = match joined(inner.as_bytes()) {
                    Some(id) => (Some(id), first_space(inner.as_bytes())),
                    None => (find(text), None),
                };
                Err(PastedError {
                    error,
                    form,
                    hint,
                    space,
                })
            }
        }
    }
}

// The reader works on bytes with `const fn`s and slice patterns: every delimiter is ASCII, and
// whitespace is matched by its UTF-8 encoding, so no `str` pattern machinery is needed (it
// would not be `const`, and it more than doubled what this adds to the web page's wasm).

/// The id `b` holds when its whitespace is left out: 24 hex digits with spaces (ASCII
/// whitespace) between them, and nothing else. `None` for anything else, including an id with no
/// whitespace inside.
const fn joined(b: &[u8]) -> Option<ObjectId> {
    let mut hex = [0u8; 24];
    let mut n = 0;
    let mut spaces = false;
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_hexdigit() {
            if n == 24 {
                return None;
            }
            hex[n] = b[i];
            n += 1;
        } else if b[i].is_ascii_whitespace() {
            spaces = true;
        } else {
            return None;
        }
        i += 1;
    }
    if n != 24 || !spaces {
        return None;
    }
    match core::str::from_utf8(&hex) {
        Ok(hex) => match ObjectId::parse_str(hex) {
            Ok(id) => Some(id),
            Err(_) => None,
        },
        Err(_) => None,
    }
}

/// The first whitespace byte in `b` (ASCII) and its index, in characters.
const fn first_space(b: &[u8]) -> Option<(u8, usize)> {
    let mut i = 0;
    let mut chars = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            return Some((b[i], chars));
        }
        if b[i] & 0xc0 != 0x80 {
            chars += 1;
        }
        i += 1;
    }
    None
}

/// The first run of exactly 24 hex digits in `b` that no other hex digit touches.
const fn find(b: &[u8]) -> Option<ObjectId> {
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_hexdigit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_hexdigit() {
                i += 1;
            }
            if i - start == 24 {
                let (_, tail) = b.split_at(start);
                let (run, _) = tail.split_at(24);
                return match core::str::from_utf8(run) {
                    Ok(hex) => match ObjectId::parse_str(hex) {
                        Ok(id) => Some(id),
                        Err(_) => None,
                    },
                    Err(_) => None,
                };
            }
        } else {
            i += 1;
        }
    }
    None
}

/// The form of `b` and the text inside it, or `None` when `b` is not wrapped.
const fn unwrap(b: &[u8]) -> Option<(Form, &[u8])> {
    if let Some(inner) = quoted(b) {
        Some((Form::Quoted, inner))
    } else if let Some(inner) = call(b) {
        Some((Form::Shell, inner))
    } else if let Some(inner) = oid_map(b) {
        Some((Form::ExtendedJson, inner))
    } else {
        None
    }
}

/// `"…"` or `'…'`: the text inside, when the quote does not appear in it (not `"a" "b"`).
const fn quoted(b: &[u8]) -> Option<&[u8]> {
    match b {
        [quote @ (b'"' | b'\''), inner @ .., end] if *end == *quote && !contains(inner, *quote) => {
            Some(inner)
        }
        _ => None,
    }
}

/// `ObjectId("…")`, `ObjectId('…')`, `new ObjectId("…")`, spaces allowed around the parts.
const fn call(b: &[u8]) -> Option<&[u8]> {
    let b = match strip_prefix(b, b"new") {
        Some(rest) if space_at_start(rest) > 0 => trim_start(rest),
        Some(_) => return None,
        None => b,
    };
    match call_args(b, b"ObjectId") {
        Some(args) => quoted(args),
        None => None,
    }
}

/// `name(…)` with spaces allowed before and inside the parentheses: the text inside, trimmed.
const fn call_args<'a>(b: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    let Some(args) = strip_prefix(b, name) else {
        return None;
    };
    match trim_start(args) {
        [b'(', inner @ .., b')'] => Some(trim(inner)),
        _ => None,
    }
}

/// `{"$oid": "…"}`, also with `'$oid'` or `$oid` as the key and single-quoted values.
const fn oid_map(b: &[u8]) -> Option<&[u8]> {
    match map_value(b, b"$oid") {
        Some(value) => quoted(value),
        None => None,
    }
}

/// The value of a map of one entry, `{"key": value}`, the key in double or single quotes or
/// bare (as mongosh prints it), any spacing: the value's text, trimmed.
const fn map_value<'a>(b: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    let [b'{', body @ .., b'}'] = b else {
        return None;
    };
    let rest = match trim(body) {
        [quote @ (b'"' | b'\''), body @ ..] => match strip_prefix(body, key) {
            Some([end, rest @ ..]) if *end == *quote => rest,
            _ => return None,
        },
        body => match strip_prefix(body, key) {
            Some(rest) => rest,
            None => return None,
        },
    };
    match trim_start(rest) {
        [b':', value @ ..] => Some(trim(value)),
        _ => None,
    }
}

/// A whole number as JSON and JavaScript write one: an optional `-`, then digits; `None` for
/// anything else or beyond `i64`.
const fn number(b: &[u8]) -> Option<i64> {
    let (negative, digits) = match b {
        [b'-', digits @ ..] => (true, digits),
        digits => (false, digits),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i64 = 0;
    let mut i = 0;
    while i < digits.len() {
        if !digits[i].is_ascii_digit() {
            return None;
        }
        let d = (digits[i] - b'0') as i64;
        n = match n.checked_mul(10) {
            Some(n) => match if negative {
                n.checked_sub(d)
            } else {
                n.checked_add(d)
            } {
                Some(n) => n,
                None => return None,
            },
            None => return None,
        };
        i += 1;
    }
    Some(n)
}

/// `b` without `prefix`, or `None` when it does not start with it.
const fn strip_prefix<'a>(b: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    if b.len() < prefix.len() {
        return None;
    }
    let (head, rest) = b.split_at(prefix.len());
    let mut i = 0;
    while i < prefix.len() {
        if head[i] != prefix[i] {
            return None;
        }
        i += 1;
    }
    Some(rest)
}

const fn contains(b: &[u8], byte: u8) -> bool {
    let mut i = 0;
    while i < b.len() {
        if b[i] == byte {
            return true;
        }
        i += 1;
    }
    false
}

/// `b` without the whitespace at either end, as [`str::trim`] cuts it.
const fn trim(b: &[u8]) -> &[u8] {
    let mut b = trim_start(b);
    loop {
        let n = space_at_end(b);
        if n == 0 {
            return b;
        }
        b = b.split_at(b.len() - n).0;
    }
}

/// `b` without the whitespace at its start, as [`str::trim_start`] cuts it.
const fn trim_start(mut b: &[u8]) -> &[u8] {
    loop {
        let n = space_at_start(b);
        if n == 0 {
            return b;
        }
        b = b.split_at(n).1;
    }
}

// The length in bytes of the whitespace character (Unicode White_Space, what `char::is_whitespace`
// answers) at the start or the end of UTF-8 text, or 0: U+0009..=U+000D, U+0020, U+0085, U+00A0,
// U+1680, U+2000..=U+200A, U+2028, U+2029, U+202F, U+205F and U+3000.

const fn space_at_start(b: &[u8]) -> usize {
    match b {
        [0x09..=0x0d | b' ', ..] => 1,
        [0xc2, 0x85 | 0xa0, ..] => 2,
        [0xe1, 0x9a, 0x80, ..]
        | [0xe2, 0x80, 0x80..=0x8a | 0xa8 | 0xa9 | 0xaf, ..]
        | [0xe2, 0x81, 0x9f, ..]
        | [0xe3, 0x80, 0x80, ..] => 3,
        _ => 0,
    }
}

const fn space_at_end(b: &[u8]) -> usize {
    match b {
        [.., 0x09..=0x0d | b' '] => 1,
        [.., 0xc2, 0x85 | 0xa0] => 2,
        [.., 0xe1, 0x9a, 0x80]
        | [.., 0xe2, 0x80, 0x80..=0x8a | 0xa8 | 0xa9 | 0xaf]
        | [.., 0xe2, 0x81, 0x9f]
        | [.., 0xe3, 0x80, 0x80] => 3,
        _ => 0,
    }
}

// proptest is not a dev-dependency under `--cfg loom` (see Cargo.toml). Two attributes, not
// `all(test, not(loom))`: clippy allows unwrap in tests only under a plain `cfg(test)`.
#[cfg(test)]
#[cfg(not(loom))]
mod tests;

pub(crate) mod date;
