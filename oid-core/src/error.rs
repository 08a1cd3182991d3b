//! Error types for parsing text and converting byte slices.

use core::fmt;

/// The reason a string is not an ObjectId.
///
/// Returned by [`ObjectId::parse_str`](crate::ObjectId::parse_str), [`str::parse`] and
/// `TryFrom<&str>`. Its message names the actual length, or the offending character and its
/// (character) index; a non-ASCII character is reported whole, never split.
///
/// # Examples
///
/// ```
/// use oid_core::ObjectId;
///
/// let err = ObjectId::parse_str("abc").unwrap_err();
/// assert_eq!(err.to_string(), "invalid length: expected 24 hex characters, found 3");
/// assert_eq!(err.len(), Some(3));
///
/// let err = ObjectId::parse_str("507f1f77bcf86cd79943901g").unwrap_err();
/// assert_eq!(err.to_string(), "invalid character 'g' at index 23: expected a hex digit");
/// assert_eq!(err.invalid_char(), Some(('g', 23)));
///
/// let err = ObjectId::parse_str("507f1f77bcf86cd79943901é").unwrap_err();
/// assert_eq!(err.invalid_char(), Some(('é', 23)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError(pub(crate) ParseErrorKind);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ParseErrorKind {
    /// The input has this many characters, not 24.
    Length(usize),
    /// This character at this character index is not an ASCII hex digit.
    Char(char, usize),
}

impl ParseError {
    /// The number of characters found, when the length was wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert_eq!(ObjectId::parse_str("").unwrap_err().len(), Some(0));
    /// assert_eq!(ObjectId::parse_str("zz0000000000000000000000").unwrap_err().len(), None);
    /// ```
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(&self) -> Option<usize> {
        match self.0 {
            ParseErrorKind::Length(n) => Some(n),
            ParseErrorKind::Char(..) => None,
        }
    }

    /// The first character that is not a hex digit and its index in characters, when the
    /// length was right.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let err = ObjectId::parse_str("0x7f1f77bcf86cd799439011").unwrap_err();
    /// assert_eq!(err.invalid_char(), Some(('x', 1)));
    /// ```
    pub const fn invalid_char(&self) -> Option<(char, usize)> {
        match self.0 {
            ParseErrorKind::Char(c, i) => Some((c, i)),
            ParseErrorKind::Length(_) => None,
        }
    }

    /// Used by the [`oid!`](crate::oid) macro: fails compilation with a message.
    #[doc(hidden)]
    #[track_caller]
    #[allow(
        clippy::panic,
        reason = "only reached in const evaluation of `oid!`, where it is a compile error"
    )]
    pub const fn panic_const(self) -> ! {
        match self.0 {
            ParseErrorKind::Length(_) => {
                panic!("invalid ObjectId literal: expected exactly 24 hex characters")
            }
            ParseErrorKind::Char(..) => {
                panic!("invalid ObjectId literal: contains a character that is not a hex digit")
            }
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            ParseErrorKind::Length(n) => {
                write!(f, "invalid length: expected 24 hex characters, found {n}")
            }
            ParseErrorKind::Char(c, i) => {
                write!(
                    f,
                    "invalid character {c:?} at index {i}: expected a hex digit"
                )
            }
        }
    }
}

impl core::error::Error for ParseError {}

/// A byte slice that is not exactly 12 bytes long.
///
/// Returned by `ObjectId::try_from(&[u8])`.
///
/// # Examples
///
/// ```
/// use oid_core::ObjectId;
/// let err = ObjectId::try_from(&b"short"[..]).unwrap_err();
/// assert_eq!(err.len(), 5);
/// assert_eq!(err.to_string(), "invalid length: expected 12 bytes, found 5");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FromSliceError {
    len: usize,
}

impl FromSliceError {
    pub(crate) const fn new(len: usize) -> Self {
        FromSliceError { len }
    }

    /// The length of the rejected slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert_eq!(ObjectId::try_from(&[0u8; 13][..]).unwrap_err().len(), 13);
    /// ```
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(&self) -> usize {
        self.len
    }
}

impl fmt::Display for FromSliceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid length: expected 12 bytes, found {}", self.len)
    }
}

impl core::error::Error for FromSliceError {}
