//! Every error type of the crate: parsing text, converting byte slices, seeding and generating.

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

/// What went wrong when making an id, in words shared by every crate of the workspace:
/// [`GenerateError`], [`EntropyError`], `oid_std::Error` and `oid_embedded::Error` all answer
/// `kind()` with one of these, and the same failure has the same name everywhere.
///
/// [`as_str`](Self::as_str) is the lowercase message each error's `Display` (and `defmt`
/// output) starts with.
///
/// # Examples
///
/// ```
/// use oid_core::{ErrorKind, FixedClock, Generator};
/// let generator = Generator::from_seed(FixedClock::UNSET, [0; 5], 0);
/// let err = generator.try_next().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::ClockUnavailable);
/// assert_eq!(ErrorKind::CapacityExhausted.as_str(), "counter exhausted for this second");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The clock does not know the time (an unset RTC, a system clock before 1970).
    ClockUnavailable,
    /// The clock reads a time an ObjectId cannot carry, or one that makes no sense here.
    ClockOutOfRange,
    /// The entropy source failed.
    EntropyFailed,
    /// The seed came from a fallback mix because the entropy source failed.
    WeakSeed,
    /// The 2^24 counter values of the current second are spent: a later second gives more.
    CapacityExhausted,
    /// The generator has not been seeded yet.
    NotInitialized,
    /// The generator was seeded before.
    AlreadyInitialized,
}

impl ErrorKind {
    /// The short lowercase message for this kind.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::ErrorKind::ClockUnavailable.as_str(), "clock time not available");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::ClockUnavailable => "clock time not available",
            ErrorKind::ClockOutOfRange => "clock time out of range",
            ErrorKind::EntropyFailed => "entropy source failed",
            ErrorKind::WeakSeed => "weak seed: the entropy source failed and a fallback was used",
            ErrorKind::CapacityExhausted => "counter exhausted for this second",
            ErrorKind::NotInitialized => "generator not initialized",
            ErrorKind::AlreadyInitialized => "generator already initialized",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An id could not be generated: the clock does not know the time
/// ([`ErrorKind::ClockUnavailable`]), or this second's 2^24 ids are spent
/// ([`ErrorKind::CapacityExhausted`]).
///
/// # Examples
///
/// ```
/// use oid_core::{ErrorKind, FixedClock, Generator};
/// let generator = Generator::from_seed(FixedClock::UNSET, [0; 5], 0);
/// let err = generator.try_next().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::ClockUnavailable);
/// assert_eq!(err.to_string(), "clock time not available");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenerateError(ErrorKind);

impl GenerateError {
    /// The clock does not know the time. Clock adapters that wrap a generator may return it
    /// too.
    pub const CLOCK_UNAVAILABLE: GenerateError = GenerateError(ErrorKind::ClockUnavailable);

    /// This second's 2^24 counter values are spent; nothing was used up by the failed call.
    pub const CAPACITY_EXHAUSTED: GenerateError = GenerateError(ErrorKind::CapacityExhausted);

    /// What went wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ErrorKind, GenerateError};
    /// assert_eq!(GenerateError::CAPACITY_EXHAUSTED.kind(), ErrorKind::CapacityExhausted);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        self.0
    }
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl core::error::Error for GenerateError {}

/// An entropy source failed.
///
/// # Examples
///
/// ```
/// use oid_core::EntropyError;
/// let err = EntropyError::new("rng peripheral not ready");
/// assert_eq!(err.to_string(), "entropy source failed: rng peripheral not ready");
/// let err = EntropyError::with_code("getrandom", 11);
/// assert_eq!(err.code(), Some(11));
/// assert_eq!(err.to_string(), "entropy source failed: getrandom (code 11)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EntropyError {
    reason: &'static str,
    code: Option<i32>,
}

impl EntropyError {
    /// An error with a short lowercase reason.
    ///
    /// # Examples
    ///
    /// ```
    /// let err = oid_core::EntropyError::new("rng not ready");
    /// assert_eq!(err.reason(), "rng not ready");
    /// ```
    pub const fn new(reason: &'static str) -> EntropyError {
        EntropyError { reason, code: None }
    }

    /// An error with a reason and a numeric code from the underlying source (an `errno`, a
    /// driver status).
    ///
    /// # Examples
    ///
    /// ```
    /// let err = oid_core::EntropyError::with_code("getrandom", 5);
    /// assert_eq!((err.reason(), err.code()), ("getrandom", Some(5)));
    /// ```
    pub const fn with_code(reason: &'static str, code: i32) -> EntropyError {
        EntropyError {
            reason,
            code: Some(code),
        }
    }

    /// The reason given by the source.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::EntropyError::new("busy").reason(), "busy");
    /// ```
    pub const fn reason(&self) -> &'static str {
        self.reason
    }

    /// The source's numeric code, if it gave one.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::EntropyError::new("busy").code(), None);
    /// ```
    pub const fn code(&self) -> Option<i32> {
        self.code
    }

    /// Always [`ErrorKind::EntropyFailed`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{EntropyError, ErrorKind};
    /// assert_eq!(EntropyError::new("busy").kind(), ErrorKind::EntropyFailed);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::EntropyFailed
    }
}

impl fmt::Display for EntropyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind().as_str(), self.reason)?;
        if let Some(code) = self.code {
            write!(f, " (code {code})")?;
        }
        Ok(())
    }
}

impl core::error::Error for EntropyError {}
