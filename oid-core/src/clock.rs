//! Where the generator gets the time: the [`Clock`] trait and two clocks for tests and for
//! setups without a clock.

/// A source of wall-clock time.
///
/// The generator reads it once per id (once per batch for
/// [`Generator::fill`](crate::Generator::fill)).
/// Readings of 2^32 seconds or more wrap modulo 2^32, like the 4-byte timestamp field itself.
///
/// # Examples
///
/// ```
/// use oid_core::Clock;
///
/// struct Rtc;
/// impl Clock for Rtc {
///     fn unix_seconds(&self) -> Option<u64> {
///         Some(1_700_000_000) // read the hardware here
///     }
/// }
/// assert_eq!((&Rtc).unix_seconds(), Some(1_700_000_000));
/// ```
pub trait Clock {
    /// Seconds since the Unix epoch, or `None` when the time is not known (an unset RTC at
    /// boot, a system clock set before 1970).
    fn unix_seconds(&self) -> Option<u64>;

    /// Called by the infallible [`Generator::next`](crate::Generator::next) and
    /// [`Generator::fill`](crate::Generator::fill) when the second the clock reads has its ids
    /// spent: at most once per call under the default
    /// [`CapacityPolicy`](crate::CapacityPolicy) (`Wait`), which after it moves on to a new
    /// random value if the clock does not read a later second. So it should return when the
    /// clock reaches its next second, and not much later: a clock that can sleep (an OS clock,
    /// an RTC interrupt, an async timer) sleeps until then; with std, oid-std's `SystemClock`
    /// and `CoarseClock` do. The default is a spin-loop hint that returns at once, so a
    /// generator on such a clock moves on to a new random value instead of waiting (it never
    /// blocks; under `Rotate` it never waits anyway).
    ///
    /// Under `Fixed` (the legacy layout, whose random value never changes) the generator calls
    /// it until the clock reads a later second, which after a step back of the clock, or with
    /// no reading, can take long.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::Clock;
    ///
    /// struct Rtc;
    /// impl Clock for Rtc {
    ///     fn unix_seconds(&self) -> Option<u64> {
    ///         Some(1_700_000_000)
    ///     }
    ///     fn wait(&self) {
    ///         // e.g. sleep until the RTC's next second interrupt
    ///     }
    /// }
    /// Rtc.wait();
    /// ```
    #[inline]
    fn wait(&self) {
        core::hint::spin_loop();
    }
}

impl<T: Clock + ?Sized> Clock for &T {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        (**self).unix_seconds()
    }

    #[inline]
    fn wait(&self) {
        (**self).wait();
    }
}

/// A clock that always answers the same: for tests, and for "no clock" setups (`FixedClock::UNSET`).
///
/// # Examples
///
/// ```
/// use oid_core::{Clock, FixedClock};
/// assert_eq!(FixedClock::at(1_700_000_000).unix_seconds(), Some(1_700_000_000));
/// assert_eq!(FixedClock::UNSET.unix_seconds(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedClock(Option<u64>);

impl FixedClock {
    /// A clock that never knows the time.
    pub const UNSET: FixedClock = FixedClock(None);

    /// A clock stopped at `secs` seconds since the epoch.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Clock, FixedClock};
    /// assert_eq!(FixedClock::at(5).unix_seconds(), Some(5));
    /// ```
    pub const fn at(secs: u64) -> FixedClock {
        FixedClock(Some(secs))
    }
}

impl Clock for FixedClock {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        self.0
    }
}

#[cfg(target_has_atomic = "64")]
mod manual;
#[cfg(target_has_atomic = "64")]
pub use manual::ManualClock;
