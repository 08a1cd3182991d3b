//! The crate's error: oid-core's [`Error`], the one error of the workspace's generators.

use oid_core::ErrorKind;

/// Why an id could not be made, the generator could not be set up, or the clock could not be
/// set: oid-core's `Error`, the error of every generator in the workspace
/// (`oid_std::Error` is the same type).
///
/// Ask it what happened with `kind()`, the [`ErrorKind`] shared by every crate of the
/// workspace. Its `Display` (and `defmt` output) is the kind's message, followed by a detail
/// where there is one.
///
/// | kind | returned by | when |
/// |---|---|---|
/// | [`ClockUnavailable`](ErrorKind::ClockUnavailable) | `try_next`, `try_fill` | the clock does not know the time (a [`SyncedClock`](crate::SyncedClock) not set yet) |
/// | [`ClockUnavailable`](ErrorKind::ClockUnavailable) | `SyncedClock::set_unix_time*`, `unset` | another context is setting the clock at this moment (message: "... being set by another context"); nothing changed |
/// | [`CapacityExhausted`](ErrorKind::CapacityExhausted) | `try_next`, `try_fill` | this second's ids are spent; a later second gives more |
/// | [`NotInitialized`](ErrorKind::NotInitialized) | `try_next`, `try_fill`, `generator` | the shared generator is not seeded yet |
/// | [`AlreadyInitialized`](ErrorKind::AlreadyInitialized) | `init*` | it was seeded before |
/// | [`EntropyFailed`](ErrorKind::EntropyFailed) | `init` | the entropy source failed (`entropy()` has its error) |
///
/// # Examples
///
/// ```
/// use oid_embedded::{ErrorKind, SharedGenerator, SyncedClock};
///
/// fn ticks() -> u64 { 0 }
/// static GENERATOR: SharedGenerator<SyncedClock<fn() -> u64, 1000>> =
///     SharedGenerator::new(SyncedClock::new(ticks));
///
/// let err = GENERATOR.try_next().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::NotInitialized);
/// assert_eq!(err.to_string(), "generator not initialized");
/// ```
pub use oid_core::__private::Error;

/// A [`SyncedClock`](crate::SyncedClock) being set by another context.
pub(crate) const CLOCK_BUSY: Error =
    Error::with_detail(ErrorKind::ClockUnavailable, "being set by another context");

#[cfg(test)]
mod tests {
    use super::*;
    use oid_core::{EntropyError, GenerateError};
    use std::string::ToString;

    #[test]
    fn messages_come_from_the_kind() {
        assert_eq!(
            Error::NOT_INITIALIZED.to_string(),
            "generator not initialized"
        );
        assert_eq!(
            Error::ALREADY_INITIALIZED.to_string(),
            "generator already initialized"
        );
        assert_eq!(
            CLOCK_BUSY.to_string(),
            "clock time not available: being set by another context"
        );
        let e = Error::from(EntropyError::with_code("rng seed error", 3));
        assert_eq!(e.kind(), ErrorKind::EntropyFailed);
        assert_eq!(
            e.to_string(),
            "entropy source failed: rng seed error (code 3)"
        );
        // The message carries the source's words, so the source chain does not repeat them.
        assert!(core::error::Error::source(&e).is_none());
    }

    #[test]
    fn generate_errors_keep_their_kind() {
        for e in [
            GenerateError::CLOCK_UNAVAILABLE,
            GenerateError::CAPACITY_EXHAUSTED,
        ] {
            let ours = Error::from(e);
            assert_eq!(ours.kind(), e.kind());
            assert_eq!(ours.to_string(), e.to_string());
        }
    }

    #[test]
    fn entropy_only_for_entropy_failures() {
        for e in [
            Error::NOT_INITIALIZED,
            Error::ALREADY_INITIALIZED,
            CLOCK_BUSY,
            Error::from(GenerateError::CLOCK_UNAVAILABLE),
        ] {
            assert_eq!(e.entropy(), None, "{e:?}");
            assert_ne!(e.kind(), ErrorKind::EntropyFailed);
        }
    }
}
