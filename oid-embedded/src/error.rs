//! The crate's one error type.

use core::fmt;

use oid_core::{EntropyError, ErrorKind, GenerateError};

/// Why an id could not be made, the generator could not be set up, or the clock could not be
/// set.
///
/// Small, `Copy` and opaque: ask it what happened with [`kind`](Self::kind), the
/// [`ErrorKind`] shared by every crate of the workspace (so the same failure has the same name
/// in `oid-core`, `oid-std` and here). Its `Display` (and `defmt` output) is the kind's
/// [`as_str`](ErrorKind::as_str) message, followed by a detail where there is one.
///
/// | kind | returned by | when |
/// |---|---|---|
/// | [`ClockUnavailable`](ErrorKind::ClockUnavailable) | `try_next`, `try_fill` | the clock does not know the time (a [`SyncedClock`](crate::SyncedClock) not set yet) |
/// | [`ClockUnavailable`](ErrorKind::ClockUnavailable) | `SyncedClock::set_unix_time*`, `unset` | another context is setting the clock at this moment (message: "... being set by another context"); nothing changed |
/// | [`CapacityExhausted`](ErrorKind::CapacityExhausted) | `try_next`, `try_fill` | this second's 2^24 ids are spent; a later second gives more |
/// | [`NotInitialized`](ErrorKind::NotInitialized) | `try_next`, `try_fill`, `generator` | the shared generator is not seeded yet |
/// | [`AlreadyInitialized`](ErrorKind::AlreadyInitialized) | `init*` | it was seeded before |
/// | [`EntropyFailed`](ErrorKind::EntropyFailed) | `init` | the entropy source failed ([`entropy`](Self::entropy) has its error) |
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error(Repr);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Repr {
    /// A failure that its kind says all about.
    Kind(ErrorKind),
    /// A `SyncedClock` being set by another context.
    ClockBusy,
    /// The entropy source's own error.
    Entropy(EntropyError),
}

impl Error {
    pub(crate) const NOT_INITIALIZED: Error = Error(Repr::Kind(ErrorKind::NotInitialized));
    pub(crate) const ALREADY_INITIALIZED: Error = Error(Repr::Kind(ErrorKind::AlreadyInitialized));
    pub(crate) const CLOCK_BUSY: Error = Error(Repr::ClockBusy);

    /// What went wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::{ErrorKind, SharedGenerator};
    ///
    /// let generator = SharedGenerator::new(FixedClock::UNSET);
    /// assert_eq!(generator.try_next().unwrap_err().kind(), ErrorKind::NotInitialized);
    /// generator.init_with_seed([1; 5], 0)?;
    /// assert_eq!(generator.init_with_seed([2; 5], 0).unwrap_err().kind(), ErrorKind::AlreadyInitialized);
    /// assert_eq!(generator.try_next().unwrap_err().kind(), ErrorKind::ClockUnavailable);
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        match self.0 {
            Repr::Kind(kind) => kind,
            Repr::ClockBusy => ErrorKind::ClockUnavailable,
            Repr::Entropy(e) => e.kind(),
        }
    }

    /// The entropy source's error, if that is what failed (kind
    /// [`EntropyFailed`](ErrorKind::EntropyFailed)).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{EntropyError, FixedClock};
    /// use oid_embedded::{DeviceIdEntropy, SharedGenerator};
    ///
    /// let generator = SharedGenerator::new(FixedClock::at(0));
    /// let err = generator.init(&mut DeviceIdEntropy::new(&[], 0)).unwrap_err();
    /// assert_eq!(err.entropy(), Some(EntropyError::new("empty device id")));
    /// assert_eq!(err.to_string(), "entropy source failed: empty device id");
    /// ```
    pub const fn entropy(&self) -> Option<EntropyError> {
        match self.0 {
            Repr::Entropy(e) => Some(e),
            _ => None,
        }
    }

    /// The words after the kind's message, if any.
    const fn detail(&self) -> Option<&'static str> {
        match self.0 {
            Repr::Kind(_) => None,
            Repr::ClockBusy => Some("being set by another context"),
            Repr::Entropy(e) => Some(e.reason()),
        }
    }
}

impl From<EntropyError> for Error {
    fn from(e: EntropyError) -> Error {
        Error(Repr::Entropy(e))
    }
}

impl From<GenerateError> for Error {
    /// Keeps the kind: a clock that does not know the time, or a second whose ids are spent.
    fn from(e: GenerateError) -> Error {
        Error(Repr::Kind(e.kind()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind().as_str())?;
        if let Some(detail) = self.detail() {
            write!(f, ": {detail}")?;
        }
        if let Some(code) = self.entropy().and_then(|e| e.code()) {
            write!(f, " (code {code})")?;
        }
        Ok(())
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.0 {
            Repr::Entropy(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for Error {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=str}", self.kind().as_str());
        if let Some(detail) = self.detail() {
            defmt::write!(f, ": {=str}", detail);
        }
        if let Some(code) = self.entropy().and_then(|e| e.code()) {
            defmt::write!(f, " (code {=i32})", code);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            Error::CLOCK_BUSY.to_string(),
            "clock time not available: being set by another context"
        );
        let e = Error::from(EntropyError::with_code("rng seed error", 3));
        assert_eq!(e.kind(), ErrorKind::EntropyFailed);
        assert_eq!(
            e.to_string(),
            "entropy source failed: rng seed error (code 3)"
        );
        // The same words as the entropy error itself.
        assert_eq!(
            e.to_string(),
            EntropyError::with_code("rng seed error", 3).to_string()
        );
        assert!(core::error::Error::source(&e).is_some());
        assert!(core::error::Error::source(&Error::NOT_INITIALIZED).is_none());
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
        assert_eq!(
            Error::from(GenerateError::CAPACITY_EXHAUSTED).to_string(),
            "counter exhausted for this second"
        );
    }

    #[test]
    fn entropy_only_for_entropy_failures() {
        for e in [
            Error::NOT_INITIALIZED,
            Error::ALREADY_INITIALIZED,
            Error::CLOCK_BUSY,
            Error::from(GenerateError::CLOCK_UNAVAILABLE),
        ] {
            assert_eq!(e.entropy(), None, "{e:?}");
            assert_ne!(e.kind(), ErrorKind::EntropyFailed);
        }
    }
}
