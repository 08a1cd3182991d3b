//! Clocks backed by the operating system.

use std::time::{SystemTime, UNIX_EPOCH};

use oid_core::Clock;

/// Whole seconds since the Unix epoch from [`SystemTime::now`], or `None` before 1970.
#[inline]
pub(crate) fn system_unix_seconds() -> Option<u64> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs())
}

/// The wall clock ([`SystemTime::now`]): whole seconds since the Unix epoch, `None` when the
/// system clock is set before 1970.
///
/// Use it with [`oid_core::Generator`] when you want a generator of your own; the process-wide
/// generator behind [`new`](crate::new) reads the cheaper [`CoarseClock`].
///
/// # Examples
///
/// ```
/// use oid_core::{Clock, Generator};
/// use oid_std::{OsEntropy, SystemClock};
///
/// let now = SystemClock.unix_seconds().unwrap();
/// assert!(now > 1_600_000_000);
///
/// let generator = Generator::from_entropy(SystemClock, &mut OsEntropy)?;
/// assert!(u64::from(generator.next().timestamp()) >= now);
/// # Ok::<(), oid_core::EntropyError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SystemClock;

impl Clock for SystemClock {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        system_unix_seconds()
    }
}

/// A cheap seconds clock: on 64-bit Linux and Android `time(2)`, which the vDSO answers
/// without a system call from the kernel's coarse real-time clock (the same wall clock,
/// updated once per scheduler tick, so at most a few milliseconds behind [`SystemClock`]);
/// elsewhere the same as [`SystemClock`]. `None` before 1970.
///
/// This is the clock of the process-wide generator behind [`new`](crate::new).
///
/// # Examples
///
/// ```
/// use oid_core::Clock;
/// use oid_std::{CoarseClock, SystemClock};
///
/// let coarse = CoarseClock.unix_seconds().unwrap();
/// let system = SystemClock.unix_seconds().unwrap();
/// assert!(system.abs_diff(coarse) <= 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CoarseClock;

impl Clock for CoarseClock {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        crate::sys::coarse_unix_seconds()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coarse_and_system_clocks_agree_to_the_second() {
        let before = SystemClock.unix_seconds().unwrap();
        let coarse = CoarseClock.unix_seconds().unwrap();
        let after = SystemClock.unix_seconds().unwrap();
        // The coarse clock lags by at most a tick, so it may still show the previous second.
        assert!(
            before.saturating_sub(1) <= coarse && coarse <= after,
            "{before} {coarse} {after}"
        );
    }
}
