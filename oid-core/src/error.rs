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

    /// What was wrong: [`ErrorKind::InvalidLength`] or [`ErrorKind::InvalidCharacter`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ErrorKind, ObjectId};
    /// assert_eq!(ObjectId::parse_str("abc").unwrap_err().kind(), ErrorKind::InvalidLength);
    /// let err = ObjectId::parse_str("zz0000000000000000000000").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidCharacter);
    /// assert!(err.to_string().starts_with(err.kind().as_str()));
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        match self.0 {
            ParseErrorKind::Length(_) => ErrorKind::InvalidLength,
            ParseErrorKind::Char(..) => ErrorKind::InvalidCharacter,
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

/// The words of the parse messages after the kind's, shared by `Display` and `defmt`.
pub(crate) const EXPECTED_24: &str = "expected 24 hex characters, found";
pub(crate) const EXPECTED_HEX: &str = "expected a hex digit";
pub(crate) const EXPECTED_12: &str = "expected 12 bytes, found";

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind().as_str();
        match self.0 {
            ParseErrorKind::Length(n) => write!(f, "{kind}: {EXPECTED_24} {n}"),
            ParseErrorKind::Char(c, i) => write!(f, "{kind} {c:?} at index {i}: {EXPECTED_HEX}"),
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

    /// Always [`ErrorKind::InvalidLength`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ErrorKind, ObjectId};
    /// assert_eq!(ObjectId::try_from(&[0u8; 3][..]).unwrap_err().kind(), ErrorKind::InvalidLength);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::InvalidLength
    }
}

impl fmt::Display for FromSliceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {EXPECTED_12} {}", self.kind().as_str(), self.len)
    }
}

impl core::error::Error for FromSliceError {}

/// What went wrong, in words shared by every crate of the workspace: every error type of the
/// workspace (oid-std's and oid-embedded's `Error`, [`GenerateError`], [`EntropyError`], [`TimeOutOfRange`],
/// [`ParseError`], [`FromSliceError`], `PastedError` (feature `pasted`), and oid-bson's
/// `NotAnObjectId`) answers `kind()` with one of these, and the same failure has the same name
/// everywhere. `PastedDateError` (feature `pasted`) has none: it says which pasted form held a
/// value that is not a time, and no kind here names that.
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
    /// A time given as an argument (not a clock reading) lies outside what an ObjectId
    /// timestamp can carry: before 1970-01-01T00:00:00Z or after 2106-02-07T06:28:15Z.
    TimeOutOfRange,
    /// Text or bytes of the wrong length for an ObjectId ([`ParseError`], [`FromSliceError`]).
    InvalidLength,
    /// A character that is not a hex digit where an ObjectId's text has one ([`ParseError`]).
    InvalidCharacter,
    /// The entropy source failed.
    EntropyFailed,
    /// The seed came from a fallback mix because the entropy source failed.
    WeakSeed,
    /// The counter values of the current second are spent: a later second gives more.
    CapacityExhausted,
    /// The generator has not been seeded yet.
    NotInitialized,
    /// The generator was seeded before.
    AlreadyInitialized,
    /// A BSON value that should be an ObjectId (element type `0x07`) is another type or missing
    /// (oid-bson's `NotAnObjectId`).
    NotAnObjectId,
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
            ErrorKind::TimeOutOfRange => "time out of range",
            ErrorKind::InvalidLength => "invalid length",
            ErrorKind::InvalidCharacter => "invalid character",
            ErrorKind::EntropyFailed => "entropy source failed",
            ErrorKind::WeakSeed => "weak seed: the entropy source failed and a fallback was used",
            ErrorKind::CapacityExhausted => "counter exhausted for this second",
            ErrorKind::NotInitialized => "generator not initialized",
            ErrorKind::AlreadyInitialized => "generator already initialized",
            ErrorKind::NotAnObjectId => "expected a BSON ObjectId",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An id could not be generated: the clock does not know the time
/// ([`ErrorKind::ClockUnavailable`]), or this second's ids are spent
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

    /// This second's counter values are spent; nothing was used up by the failed call.
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

/// A time given as an argument lies outside what an ObjectId timestamp can carry: before
/// 1970-01-01T00:00:00Z or after 2106-02-07T06:28:15Z (the last second of the unsigned 32-bit
/// field). Its kind is [`ErrorKind::TimeOutOfRange`].
///
/// Returned by every conversion from a time type to an ObjectId timestamp in the workspace
/// (`oid_std::UnixTime`, oid-bson's `bson::DateTime` conversions).
///
/// # Examples
///
/// ```
/// use oid_core::{ErrorKind, TimeOutOfRange};
/// let err = TimeOutOfRange::new();
/// assert_eq!(err.kind(), ErrorKind::TimeOutOfRange);
/// assert_eq!(
///     err.to_string(),
///     "time out of range: ObjectId timestamps cover 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z"
/// );
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimeOutOfRange(());

/// The detail of [`TimeOutOfRange`]'s message, shared by `Display` and `defmt`.
pub(crate) const TIME_RANGE: &str =
    "ObjectId timestamps cover 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z";

impl TimeOutOfRange {
    /// The error (for conversions of time types outside this crate).
    ///
    /// # Examples
    ///
    /// ```
    /// fn seconds(t: i64) -> Result<u32, oid_core::TimeOutOfRange> {
    ///     u32::try_from(t).map_err(|_| oid_core::TimeOutOfRange::new())
    /// }
    /// assert!(seconds(-1).is_err());
    /// ```
    pub const fn new() -> TimeOutOfRange {
        TimeOutOfRange(())
    }

    /// Always [`ErrorKind::TimeOutOfRange`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ErrorKind, TimeOutOfRange};
    /// assert_eq!(TimeOutOfRange::new().kind(), ErrorKind::TimeOutOfRange);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::TimeOutOfRange
    }
}

impl fmt::Display for TimeOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {TIME_RANGE}", self.kind().as_str())
    }
}

impl core::error::Error for TimeOutOfRange {}

/// Why an id could not be made or a generator could not be set up: the error of the
/// workspace's generators beyond oid-core's own `try_next` (re-exported as `oid_std::Error`
/// and `oid_embedded::Error`).
///
/// Small, `Copy` and opaque. [`kind`](Self::kind) says what went wrong in the shared
/// vocabulary; [`entropy`](Self::entropy) gives the entropy source's own error where that is
/// what failed. The message is the kind's [`as_str`](ErrorKind::as_str), followed by a detail
/// where there is one (the entropy source's reason and code, or the words a crate gave with
/// [`with_detail`](Self::with_detail)). Each message appears once in an error report:
/// `Display` already carries the entropy source's reason, so [`source`](core::error::Error::source)
/// is `None`.
///
/// oid-core's own [`Generator::try_next`](crate::Generator::try_next) returns the one-byte
/// [`GenerateError`] instead (a smaller `Result` on the hot path); it converts with `?`.
///
/// # Examples
///
/// ```
/// # use oid_core::__private::Error; // oid_std::Error and oid_embedded::Error
/// use oid_core::{EntropyError, ErrorKind, GenerateError};
///
/// let err = Error::from(GenerateError::CAPACITY_EXHAUSTED);
/// assert_eq!(err.kind(), ErrorKind::CapacityExhausted);
/// assert_eq!(err.to_string(), "counter exhausted for this second");
///
/// let err = Error::from(EntropyError::with_code("getrandom", 38));
/// assert_eq!(err.kind(), ErrorKind::EntropyFailed);
/// assert_eq!(err.entropy().and_then(|e| e.code()), Some(38));
/// assert_eq!(err.to_string(), "entropy source failed: getrandom (code 38)");
///
/// let err = Error::with_detail(ErrorKind::ClockUnavailable, "the rtc is not set");
/// assert_eq!(err.to_string(), "clock time not available: the rtc is not set");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    // Flat rather than an enum of a kind and an `EntropyError`: 24 bytes instead of 32, which
    // keeps `Result<ObjectId, Error>` small on the hot paths that return it.
    /// The words after the kind's message (empty for none; the reason for an entropy failure).
    detail: &'static str,
    /// The entropy source's code, when `has_code`.
    code: i32,
    has_code: bool,
    kind: ErrorKind,
}

impl Error {
    /// The generator has not been seeded yet.
    pub const NOT_INITIALIZED: Error = Error::new(ErrorKind::NotInitialized);
    /// The generator was seeded before.
    pub const ALREADY_INITIALIZED: Error = Error::new(ErrorKind::AlreadyInitialized);
    /// The seed came from a fallback mix because the entropy source failed.
    pub const WEAK_SEED: Error = Error::new(ErrorKind::WeakSeed);
    /// This second's ids are spent.
    pub const CAPACITY_EXHAUSTED: Error = Error::new(ErrorKind::CapacityExhausted);

    /// An error of `kind` whose message is the kind's alone.
    ///
    /// # Examples
    ///
    /// ```
    /// # use oid_core::__private::Error; // oid_std::Error and oid_embedded::Error
    /// use oid_core::ErrorKind;
    /// assert_eq!(Error::new(ErrorKind::NotInitialized).to_string(), "generator not initialized");
    /// ```
    pub const fn new(kind: ErrorKind) -> Error {
        Error::with_detail(kind, "")
    }

    /// An error of `kind` with a few lowercase words that say more (after a colon in the
    /// message). For [`ErrorKind::EntropyFailed`], convert the source's [`EntropyError`]
    /// instead, so that [`entropy`](Self::entropy) has its code.
    ///
    /// # Examples
    ///
    /// ```
    /// # use oid_core::__private::Error; // oid_std::Error and oid_embedded::Error
    /// use oid_core::ErrorKind;
    /// let err = Error::with_detail(ErrorKind::ClockUnavailable, "being set by another context");
    /// assert_eq!(err.kind(), ErrorKind::ClockUnavailable);
    /// assert_eq!(err.detail(), Some("being set by another context"));
    /// ```
    pub const fn with_detail(kind: ErrorKind, detail: &'static str) -> Error {
        Error {
            detail,
            code: 0,
            has_code: false,
            kind,
        }
    }

    /// What went wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// # use oid_core::__private::Error; // oid_std::Error and oid_embedded::Error
    /// use oid_core::{EntropyError, ErrorKind};
    /// assert_eq!(Error::from(EntropyError::new("busy")).kind(), ErrorKind::EntropyFailed);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The words after the kind's message, if any (for an entropy failure, the source's
    /// reason).
    ///
    /// # Examples
    ///
    /// ```
    /// # use oid_core::__private::Error; // oid_std::Error and oid_embedded::Error
    /// use oid_core::EntropyError;
    /// assert_eq!(Error::from(EntropyError::new("busy")).detail(), Some("busy"));
    /// assert_eq!(Error::NOT_INITIALIZED.detail(), None);
    /// ```
    pub const fn detail(&self) -> Option<&'static str> {
        if self.detail.is_empty() {
            None
        } else {
            Some(self.detail)
        }
    }

    /// The entropy source's error, when that is what failed
    /// ([`ErrorKind::EntropyFailed`]).
    ///
    /// # Examples
    ///
    /// ```
    /// # use oid_core::__private::Error; // oid_std::Error and oid_embedded::Error
    /// use oid_core::EntropyError;
    /// let source = EntropyError::with_code("rng seed error", 2);
    /// assert_eq!(Error::from(source).entropy(), Some(source));
    /// assert_eq!(Error::WEAK_SEED.entropy(), None);
    /// ```
    pub const fn entropy(&self) -> Option<EntropyError> {
        match (self.kind, self.has_code) {
            (ErrorKind::EntropyFailed, true) => {
                Some(EntropyError::with_code(self.detail, self.code))
            }
            (ErrorKind::EntropyFailed, false) => Some(EntropyError::new(self.detail)),
            _ => None,
        }
    }

    /// The numeric code after the detail (the entropy source's), if any.
    const fn code(&self) -> Option<i32> {
        if self.has_code { Some(self.code) } else { None }
    }
}

impl From<GenerateError> for Error {
    /// Keeps the kind: a clock that does not know the time, or a second whose ids are spent.
    fn from(e: GenerateError) -> Error {
        Error::new(e.kind())
    }
}

impl From<EntropyError> for Error {
    fn from(e: EntropyError) -> Error {
        Error {
            detail: e.reason(),
            code: e.code().unwrap_or_default(),
            has_code: e.code().is_some(),
            kind: ErrorKind::EntropyFailed,
        }
    }
}

impl From<TimeOutOfRange> for Error {
    /// Keeps the kind and the message.
    fn from(_: TimeOutOfRange) -> Error {
        Error::with_detail(ErrorKind::TimeOutOfRange, TIME_RANGE)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind().as_str())?;
        if let Some(detail) = self.detail() {
            write!(f, ": {detail}")?;
        }
        if let Some(code) = self.code() {
            write!(f, " (code {code})")?;
        }
        Ok(())
    }
}

/// No `source`: the message already carries the entropy source's reason and code (see
/// [`Error::entropy`]), and a report should print each message once.
impl core::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn every_message_starts_with_its_kind() {
        let errors = [
            Error::NOT_INITIALIZED,
            Error::ALREADY_INITIALIZED,
            Error::WEAK_SEED,
            Error::CAPACITY_EXHAUSTED,
            Error::from(GenerateError::CLOCK_UNAVAILABLE),
            Error::from(EntropyError::with_code("busy", 3)),
            Error::from(TimeOutOfRange::new()),
            Error::with_detail(ErrorKind::ClockUnavailable, "the rtc is not set"),
        ];
        for e in errors {
            assert!(e.to_string().starts_with(e.kind().as_str()), "{e}");
        }
        assert_eq!(
            Error::from(TimeOutOfRange::new()).to_string(),
            TimeOutOfRange::new().to_string()
        );
        assert_eq!(
            Error::from(EntropyError::with_code("busy", 3)).to_string(),
            "entropy source failed: busy (code 3)"
        );
    }

    #[test]
    fn small_enough_for_a_cheap_result() {
        assert_eq!(core::mem::size_of::<Error>(), 24);
    }

    #[test]
    fn a_report_prints_each_message_once() {
        let e = Error::from(EntropyError::new("busy"));
        let mut report = e.to_string();
        let mut source = core::error::Error::source(&e);
        while let Some(s) = source {
            report.push_str(": ");
            report.push_str(&s.to_string());
            source = s.source();
        }
        assert_eq!(
            report.matches("entropy source failed").count(),
            1,
            "{report}"
        );
        assert_eq!(report.matches("busy").count(), 1, "{report}");
    }

    #[test]
    fn entropy_only_for_entropy_failures() {
        for e in [
            Error::NOT_INITIALIZED,
            Error::WEAK_SEED,
            Error::with_detail(ErrorKind::ClockUnavailable, "busy"),
        ] {
            assert_eq!(e.entropy(), None, "{e:?}");
            assert_ne!(e.kind(), ErrorKind::EntropyFailed);
        }
    }

    #[test]
    fn parse_errors_have_kinds_matching_their_messages() {
        for (input, kind) in [
            ("", ErrorKind::InvalidLength),
            ("507f1f77bcf86cd79943901", ErrorKind::InvalidLength),
            ("507f1f77bcf86cd79943901g", ErrorKind::InvalidCharacter),
            ("507f1f77bcf86cd79943901\u{e9}", ErrorKind::InvalidCharacter),
        ] {
            let err = crate::ObjectId::parse_str(input).unwrap_err();
            assert_eq!(err.kind(), kind, "{input}");
            assert!(err.to_string().starts_with(kind.as_str()), "{err}");
        }
        let err = crate::ObjectId::try_from(&[0u8; 3][..]).unwrap_err();
        assert!(err.to_string().starts_with(err.kind().as_str()));
    }
}
