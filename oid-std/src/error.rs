//! The crate's error: oid-core's [`Error`], the one error of the workspace's generators.

use oid_core::ErrorKind;

/// Why an id could not be made: oid-core's `Error`, the error of every generator in the
/// workspace (`oid_embedded::Error` is the same type).
///
/// Ask it what happened with `kind()`, the [`ErrorKind`] shared by every crate of the
/// workspace; `entropy()` gives the OS random source's error where that is what failed.
/// Messages start with the kind's [`as_str`](ErrorKind::as_str) and are lowercase.
///
/// | kind | when |
/// |---|---|
/// | [`ErrorKind::ClockUnavailable`] | `try_new`: the system clock is before 1970 or cannot be read |
/// | [`ErrorKind::EntropyFailed`] | `try_new`: the OS random source failed when the process had to draw its random value |
/// | [`ErrorKind::WeakSeed`] | `try_new`: an earlier `new()` drew the random value from the fallback mix because the OS random source failed |
/// | [`ErrorKind::CapacityExhausted`] | `try_new`: this second's ids are spent |
///
/// A time outside what a timestamp can carry is a different error,
/// [`TimeOutOfRange`](oid_core::TimeOutOfRange) (from [`UnixTime`](crate::UnixTime)).
///
/// # Examples
///
/// ```
/// use oid_std::{EntropyError, Error, ErrorKind, GenerateError};
///
/// let err = Error::from(GenerateError::CAPACITY_EXHAUSTED);
/// assert_eq!(err.kind(), ErrorKind::CapacityExhausted);
/// assert_eq!(err.to_string(), "counter exhausted for this second");
///
/// let err = Error::from(EntropyError::with_code("getrandom", 38));
/// assert_eq!(err.entropy().and_then(|e| e.code()), Some(38));
/// assert_eq!(err.to_string(), "entropy source failed: getrandom (code 38)");
/// ```
pub use oid_core::__private::Error;

/// The system clock is before 1970 or cannot be read.
pub(crate) const CLOCK_UNAVAILABLE: Error = Error::with_detail(
    ErrorKind::ClockUnavailable,
    "the system clock is before 1970 or cannot be read",
);

#[cfg(test)]
mod tests {
    use super::*;
    use oid_core::{EntropyError, GenerateError};

    #[test]
    fn small_enough_for_a_cheap_result() {
        assert_eq!(core::mem::size_of::<Error>(), 24);
    }

    #[test]
    fn messages_start_with_the_kind() {
        for e in [
            CLOCK_UNAVAILABLE,
            Error::WEAK_SEED,
            Error::CAPACITY_EXHAUSTED,
            Error::from(EntropyError::new("busy")),
        ] {
            assert!(e.to_string().starts_with(e.kind().as_str()), "{e}");
        }
        assert_eq!(
            CLOCK_UNAVAILABLE.to_string(),
            "clock time not available: the system clock is before 1970 or cannot be read"
        );
        assert_eq!(
            Error::from(GenerateError::CLOCK_UNAVAILABLE).kind(),
            ErrorKind::ClockUnavailable
        );
    }
}
