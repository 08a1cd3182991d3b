//! The crate's one error type.

use core::fmt;

use oid_core::{EntropyError, GenerateError};

/// Why an id could not be made, a generator not set up, or a clock not set.
///
/// Small and `Copy`; ask it what happened with the `is_*` methods.
///
/// # Examples
///
/// ```
/// use oid_embedded::{SharedGenerator, SyncedClock};
///
/// fn ticks() -> u64 { 0 }
/// static GENERATOR: SharedGenerator<SyncedClock<fn() -> u64, 1000>> =
///     SharedGenerator::new(SyncedClock::new(ticks));
///
/// let err = GENERATOR.try_next().unwrap_err();
/// assert!(err.is_not_initialized());
/// assert_eq!(err.to_string(), "generator not initialized");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error(Kind);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    TimeNotSet,
    NotInitialized,
    AlreadyInitialized,
    ClockBusy,
    Entropy(EntropyError),
}

impl Error {
    pub(crate) const TIME_NOT_SET: Error = Error(Kind::TimeNotSet);
    pub(crate) const NOT_INITIALIZED: Error = Error(Kind::NotInitialized);
    pub(crate) const ALREADY_INITIALIZED: Error = Error(Kind::AlreadyInitialized);
    pub(crate) const CLOCK_BUSY: Error = Error(Kind::ClockBusy);

    /// The clock does not know the time yet (never set, or [`unset`](crate::SyncedClock::unset)).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{Clock, SyncedClock};
    /// fn ticks() -> u64 { 0 }
    /// let clock: SyncedClock<fn() -> u64, 1> = SyncedClock::new(ticks);
    /// assert_eq!(clock.unix_seconds(), None); // what makes `try_next` fail with "time not set"
    /// ```
    pub const fn is_time_not_set(&self) -> bool {
        matches!(self.0, Kind::TimeNotSet)
    }

    /// The shared generator has not been initialized (see
    /// [`SharedGenerator::init`](crate::SharedGenerator::init)).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::SharedGenerator;
    /// let generator = SharedGenerator::new(FixedClock::at(0));
    /// assert!(generator.try_next().unwrap_err().is_not_initialized());
    /// ```
    pub const fn is_not_initialized(&self) -> bool {
        matches!(self.0, Kind::NotInitialized)
    }

    /// The shared generator was initialized before (it is set up once per boot).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::SharedGenerator;
    /// let generator = SharedGenerator::new(FixedClock::at(0));
    /// generator.init_with_seed([1; 5], 0)?;
    /// assert!(generator.init_with_seed([2; 5], 0).unwrap_err().is_already_initialized());
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub const fn is_already_initialized(&self) -> bool {
        matches!(self.0, Kind::AlreadyInitialized)
    }

    /// Another context (an interrupt, another core) was setting the clock at the same moment;
    /// this call changed nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::SyncedClock;
    /// fn ticks() -> u64 { 0 }
    /// let clock: SyncedClock<fn() -> u64, 1> = SyncedClock::new(ticks);
    /// // Nothing else is setting it here, so this succeeds.
    /// assert!(clock.set_unix_time(1_700_000_000).is_ok());
    /// ```
    pub const fn is_clock_busy(&self) -> bool {
        matches!(self.0, Kind::ClockBusy)
    }

    /// The entropy source's error, if that is what failed.
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
    /// ```
    pub const fn entropy(&self) -> Option<EntropyError> {
        match self.0 {
            Kind::Entropy(e) => Some(e),
            _ => None,
        }
    }
}

impl From<EntropyError> for Error {
    fn from(e: EntropyError) -> Error {
        Error(Kind::Entropy(e))
    }
}

impl From<GenerateError> for Error {
    /// The only way `oid-core` fails to generate is a clock that does not know the time.
    fn from(_: GenerateError) -> Error {
        Error::TIME_NOT_SET
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Kind::TimeNotSet => f.write_str("time not set"),
            Kind::NotInitialized => f.write_str("generator not initialized"),
            Kind::AlreadyInitialized => f.write_str("generator already initialized"),
            Kind::ClockBusy => f.write_str("clock busy: being set by another context"),
            Kind::Entropy(e) => fmt::Display::fmt(&e, f),
        }
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.0 {
            Kind::Entropy(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for Error {
    fn format(&self, f: defmt::Formatter<'_>) {
        match self.0 {
            Kind::TimeNotSet => defmt::write!(f, "time not set"),
            Kind::NotInitialized => defmt::write!(f, "generator not initialized"),
            Kind::AlreadyInitialized => defmt::write!(f, "generator already initialized"),
            Kind::ClockBusy => defmt::write!(f, "clock busy: being set by another context"),
            Kind::Entropy(e) => defmt::write!(f, "{}", e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn messages_are_lowercase_and_specific() {
        assert_eq!(Error::TIME_NOT_SET.to_string(), "time not set");
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
            "clock busy: being set by another context"
        );
        let e = Error::from(EntropyError::with_code("rng seed error", 3));
        assert_eq!(
            e.to_string(),
            "entropy source failed: rng seed error (code 3)"
        );
        assert!(core::error::Error::source(&e).is_some());
        assert!(core::error::Error::source(&Error::TIME_NOT_SET).is_none());
    }

    #[test]
    fn generate_error_means_time_not_set() {
        assert!(Error::from(GenerateError::CLOCK_UNAVAILABLE).is_time_not_set());
    }

    #[test]
    fn exactly_one_predicate_holds() {
        let all = [
            Error::TIME_NOT_SET,
            Error::NOT_INITIALIZED,
            Error::ALREADY_INITIALIZED,
            Error::CLOCK_BUSY,
            Error::from(EntropyError::new("x")),
        ];
        for e in all {
            let n = [
                e.is_time_not_set(),
                e.is_not_initialized(),
                e.is_already_initialized(),
                e.is_clock_busy(),
                e.entropy().is_some(),
            ]
            .iter()
            .filter(|b| **b)
            .count();
            assert_eq!(n, 1, "{e:?}");
        }
    }
}
