//! The one error type of this crate.

use core::fmt;

use oid_core::{EntropyError, GenerateError};

/// Why an id could not be made, or a time has no ObjectId timestamp.
///
/// Opaque: ask it with [`is_clock`](Error::is_clock), [`is_entropy`](Error::is_entropy) and
/// [`is_out_of_range`](Error::is_out_of_range); [`source`](std::error::Error::source) gives the
/// underlying `oid_core` error where there is one. Messages are short and lowercase.
///
/// # Examples
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use oid_std::prelude::*;
///
/// let err = ObjectId::min_for_time(UNIX_EPOCH - Duration::from_secs(1)).unwrap_err();
/// assert!(err.is_out_of_range());
/// assert_eq!(
///     err.to_string(),
///     "time out of range: ObjectId timestamps cover 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error(Kind);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// The clock is before 1970 or cannot be read.
    Clock(GenerateError),
    /// The operating system's random source failed.
    Entropy(EntropyError),
    /// The process generator was seeded by `new()` from the fallback mix, because the OS
    /// random source failed; `try_new` does not hand out such ids.
    WeakSeed,
    /// A time before 1970 or after 2106-02-07T06:28:15Z.
    OutOfRange,
}

impl Error {
    pub(crate) const CLOCK: Error = Error(Kind::Clock(GenerateError::CLOCK_UNAVAILABLE));
    pub(crate) const WEAK_SEED: Error = Error(Kind::WeakSeed);
    pub(crate) const OUT_OF_RANGE: Error = Error(Kind::OutOfRange);

    /// The clock was before 1970 or could not be read.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_std::Error;
    /// let err = Error::from(oid_core::GenerateError::CLOCK_UNAVAILABLE);
    /// assert!(err.is_clock());
    /// assert!(!err.is_entropy());
    /// ```
    pub const fn is_clock(&self) -> bool {
        matches!(self.0, Kind::Clock(_))
    }

    /// The operating system's random source failed (now, or when the process generator was
    /// seeded).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_std::Error;
    /// let err = Error::from(oid_core::EntropyError::with_code("getrandom", 38));
    /// assert!(err.is_entropy());
    /// assert_eq!(err.to_string(), "entropy source failed: getrandom (code 38)");
    /// ```
    pub const fn is_entropy(&self) -> bool {
        matches!(self.0, Kind::Entropy(_) | Kind::WeakSeed)
    }

    /// A time outside what the 4-byte unsigned timestamp holds (1970-01-01T00:00:00Z to
    /// 2106-02-07T06:28:15Z).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use oid_std::prelude::*;
    /// let t = UNIX_EPOCH + Duration::from_secs(1 << 32);
    /// assert!(ObjectId::max_for_time(t).unwrap_err().is_out_of_range());
    /// ```
    pub const fn is_out_of_range(&self) -> bool {
        matches!(self.0, Kind::OutOfRange)
    }
}

impl From<GenerateError> for Error {
    fn from(e: GenerateError) -> Self {
        Error(Kind::Clock(e))
    }
}

impl From<EntropyError> for Error {
    fn from(e: EntropyError) -> Self {
        Error(Kind::Entropy(e))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Kind::Clock(_) => f.write_str(
                "clock time not available: the system clock is before 1970 or cannot be read",
            ),
            Kind::Entropy(e) => fmt::Display::fmt(e, f),
            Kind::WeakSeed => f.write_str(
                "entropy source failed: the process generator was seeded from a fallback, not \
                 from the os random source",
            ),
            Kind::OutOfRange => f.write_str(
                "time out of range: ObjectId timestamps cover 1970-01-01T00:00:00Z to \
                 2106-02-07T06:28:15Z",
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Kind::Clock(e) => Some(e),
            Kind::Entropy(e) => Some(e),
            Kind::WeakSeed | Kind::OutOfRange => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn messages_and_sources() {
        assert_eq!(
            Error::CLOCK.to_string(),
            "clock time not available: the system clock is before 1970 or cannot be read"
        );
        assert!(Error::CLOCK.source().is_some());
        assert!(Error::WEAK_SEED.is_entropy());
        assert!(Error::WEAK_SEED.source().is_none());
        assert!(
            Error::WEAK_SEED
                .to_string()
                .starts_with("entropy source failed: ")
        );
        assert!(!Error::OUT_OF_RANGE.is_clock());
        let e = Error::from(EntropyError::new("busy"));
        assert_eq!(e.to_string(), "entropy source failed: busy");
        assert_eq!(
            e.source().map(|s| s.to_string()),
            Some("entropy source failed: busy".to_owned())
        );
    }
}
