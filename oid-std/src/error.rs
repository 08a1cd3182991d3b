//! The one error type of this crate.

use core::fmt;

use oid_core::{EntropyError, ErrorKind, GenerateError};

/// Why an id could not be made, or a time has no ObjectId timestamp.
///
/// Opaque: [`kind`](Error::kind) says what went wrong, in the workspace's shared vocabulary
/// ([`ErrorKind`]); [`entropy`](Error::entropy) (and [`source`](std::error::Error::source))
/// give the OS random source's error where there is one. Messages start with
/// [`ErrorKind::as_str`] and are lowercase.
///
/// | kind | when |
/// |---|---|
/// | [`ErrorKind::ClockUnavailable`] | `try_new`: the system clock is before 1970 or cannot be read |
/// | [`ErrorKind::EntropyFailed`] | `try_new`: the OS random source failed when the process had to draw its random value |
/// | [`ErrorKind::WeakSeed`] | `try_new`: an earlier `new()` drew the random value from the fallback mix because the OS random source failed |
/// | [`ErrorKind::CapacityExhausted`] | `try_new`: this second's 2^24 ids are spent |
/// | [`ErrorKind::ClockOutOfRange`] | `min_for_time`, `max_for_time`, `UnixTime::to_oid_timestamp`: a time before 1970 or after 2106-02-07T06:28:15Z |
///
/// # Examples
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use oid_std::ErrorKind;
/// use oid_std::prelude::*;
///
/// let err = ObjectId::min_for_time(UNIX_EPOCH - Duration::from_secs(1)).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::ClockOutOfRange);
/// assert_eq!(
///     err.to_string(),
///     "clock time out of range: ObjectId timestamps cover 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error(Repr);

/// One enum rather than a kind beside an `Option<EntropyError>`: 24 bytes instead of 32, which
/// keeps `Result<ObjectId, Error>` small on `try_new`'s hot path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Kind(ErrorKind),
    Entropy(EntropyError),
}

impl Error {
    pub(crate) const CLOCK_UNAVAILABLE: Error = Error::of(ErrorKind::ClockUnavailable);
    pub(crate) const WEAK_SEED: Error = Error::of(ErrorKind::WeakSeed);
    pub(crate) const CAPACITY_EXHAUSTED: Error = Error::of(ErrorKind::CapacityExhausted);
    pub(crate) const OUT_OF_RANGE: Error = Error::of(ErrorKind::ClockOutOfRange);

    const fn of(kind: ErrorKind) -> Error {
        Error(Repr::Kind(kind))
    }

    /// What went wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_std::{Error, ErrorKind, GenerateError};
    /// let err = Error::from(GenerateError::CAPACITY_EXHAUSTED);
    /// assert_eq!(err.kind(), ErrorKind::CapacityExhausted);
    /// assert_eq!(err.to_string(), "counter exhausted for this second");
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        match &self.0 {
            Repr::Kind(kind) => *kind,
            Repr::Entropy(e) => e.kind(),
        }
    }

    /// The OS random source's error, when that is what failed
    /// ([`ErrorKind::EntropyFailed`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_std::{EntropyError, Error, ErrorKind};
    /// let err = Error::from(EntropyError::with_code("getrandom", 38));
    /// assert_eq!(err.kind(), ErrorKind::EntropyFailed);
    /// assert_eq!(err.entropy().and_then(|e| e.code()), Some(38));
    /// assert_eq!(err.to_string(), "entropy source failed: getrandom (code 38)");
    /// ```
    pub const fn entropy(&self) -> Option<EntropyError> {
        match self.0 {
            Repr::Entropy(e) => Some(e),
            Repr::Kind(_) => None,
        }
    }
}

impl From<GenerateError> for Error {
    fn from(e: GenerateError) -> Self {
        Error::of(e.kind())
    }
}

impl From<EntropyError> for Error {
    fn from(e: EntropyError) -> Self {
        Error(Repr::Entropy(e))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.0 {
            // "entropy source failed: <reason> (code n)"
            Repr::Entropy(e) => return fmt::Display::fmt(e, f),
            Repr::Kind(kind) => *kind,
        };
        f.write_str(kind.as_str())?;
        match kind {
            ErrorKind::ClockUnavailable => {
                f.write_str(": the system clock is before 1970 or cannot be read")
            }
            ErrorKind::ClockOutOfRange => f.write_str(
                ": ObjectId timestamps cover 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z",
            ),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Repr::Entropy(e) => Some(e),
            Repr::Kind(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn small_enough_for_a_cheap_result() {
        assert_eq!(core::mem::size_of::<Error>(), 24);
    }

    #[test]
    fn messages_start_with_the_kind_and_sources() {
        for e in [
            Error::CLOCK_UNAVAILABLE,
            Error::WEAK_SEED,
            Error::CAPACITY_EXHAUSTED,
            Error::OUT_OF_RANGE,
            Error::from(EntropyError::new("busy")),
        ] {
            assert!(e.to_string().starts_with(e.kind().as_str()), "{e}");
        }
        assert_eq!(
            Error::CLOCK_UNAVAILABLE.to_string(),
            "clock time not available: the system clock is before 1970 or cannot be read"
        );
        assert!(Error::CLOCK_UNAVAILABLE.source().is_none());
        assert_eq!(Error::WEAK_SEED.kind(), ErrorKind::WeakSeed);
        assert!(Error::WEAK_SEED.entropy().is_none());
        let e = Error::from(EntropyError::new("busy"));
        assert_eq!(e.to_string(), "entropy source failed: busy");
        assert_eq!(
            e.source().map(|s| s.to_string()),
            Some("entropy source failed: busy".to_owned())
        );
        assert_eq!(
            Error::from(GenerateError::CLOCK_UNAVAILABLE),
            Error::CLOCK_UNAVAILABLE
        );
    }
}
