//! Clocks backed by the operating system.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use oid_core::Clock;

/// Whole seconds since the Unix epoch from [`SystemTime::now`], or `None` before 1970.
#[inline]
pub(crate) fn system_unix_seconds() -> Option<u64> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs())
}

/// Sleeps until a clock whose current fraction of a second is `subsec_nanos` reaches its next
/// second (a whole second when the fraction is unknown): never past that boundary (but for the
/// scheduler's lateness), whatever the clock does meanwhile, since a generator waits once per
/// call and no call should wait longer than the rest of its second.
fn sleep_until_next_second(subsec_nanos: Option<u32>) {
    let left = subsec_nanos.map_or(1_000_000_000, |n| 1_000_000_000u32.saturating_sub(n));
    std::thread::sleep(Duration::from_nanos(u64::from(left.max(1))));
}

/// Seconds from the coarse clock: `time(2)` on 64-bit Linux and Android, else the system clock.
#[inline]
fn coarse_unix_seconds() -> Option<u64> {
    #[cfg(all(
        any(target_os = "linux", target_os = "android"),
        target_pointer_width = "64"
    ))]
    return crate::sys::time_seconds();
    #[cfg(not(all(
        any(target_os = "linux", target_os = "android"),
        target_pointer_width = "64"
    )))]
    return system_unix_seconds();
}

/// The fraction of a second of the clock [`coarse_unix_seconds`] follows.
fn coarse_subsec_nanos() -> Option<u32> {
    #[cfg(all(
        any(target_os = "linux", target_os = "android"),
        target_pointer_width = "64"
    ))]
    return crate::sys::coarse_subsec_nanos();
    #[cfg(not(all(
        any(target_os = "linux", target_os = "android"),
        target_pointer_width = "64"
    )))]
    return system_subsec_nanos();
}

fn system_subsec_nanos() -> Option<u32> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.subsec_nanos())
}

/// How many milliseconds [`CoarseClock::wait`] waits at most, after the boundary, for the
/// coarse clock to show the new second: more than a scheduler tick (10 ms at 100 Hz).
const TICK_POLLS: u32 = 20;

/// The wall clock ([`SystemTime::now`]): whole seconds since the Unix epoch, `None` when the
/// system clock is set before 1970.
///
/// Use it with [`Generator`](crate::Generator) when you want a generator of your own; the process-wide
/// generator behind [`new`](crate::new) reads the cheaper [`CoarseClock`].
///
/// # Examples
///
/// ```
/// use oid_std::{Clock, Generator};
/// use oid_std::{OsEntropy, SystemClock};
///
/// let now = SystemClock.unix_seconds().unwrap();
/// assert!(now > 1_600_000_000);
///
/// let generator = Generator::from_entropy(SystemClock, &mut OsEntropy)?;
/// assert!(u64::from(generator.next().timestamp()) >= now);
///
/// // What a generator calls when a second's ids are spent: sleeps until the next second.
/// SystemClock.wait();
/// assert!(SystemClock.unix_seconds().unwrap() > now);
/// # Ok::<(), oid_std::EntropyError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SystemClock;

impl Clock for SystemClock {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        system_unix_seconds()
    }

    /// Sleeps until the system clock's next second (a whole second before 1970).
    fn wait(&self) {
        sleep_until_next_second(system_subsec_nanos());
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
/// use oid_std::Clock;
/// use oid_std::{CoarseClock, SystemClock};
///
/// let coarse = CoarseClock.unix_seconds().unwrap();
/// let system = SystemClock.unix_seconds().unwrap();
/// assert!(system.abs_diff(coarse) <= 1);
///
/// // Sleeps (no busy loop) until the next second; at most a tick late.
/// CoarseClock.wait();
/// while CoarseClock.unix_seconds().unwrap() == coarse {
///     CoarseClock.wait();
/// }
/// assert!(CoarseClock.unix_seconds().unwrap() > coarse);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CoarseClock;

impl Clock for CoarseClock {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        coarse_unix_seconds()
    }

    /// Sleeps until this clock's next second: the rest of the current second of
    /// `CLOCK_REALTIME_COARSE` on Linux, then (it shows the new second within a scheduler
    /// tick) a millisecond at a time until it does, at most 20 of them (the clock
    /// may have been set back meanwhile); of the system clock elsewhere.
    fn wait(&self) {
        // The fraction first: if the second turns between the two readings, `start` is
        // already the new second and the sleep is short, never a second too long.
        let nanos = coarse_subsec_nanos();
        let start = coarse_unix_seconds();
        sleep_until_next_second(nanos);
        for _ in 0..TICK_POLLS {
            if coarse_unix_seconds() != start {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
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

    #[test]
    fn wait_sleeps_to_the_next_second_and_not_much_longer() {
        for clock in [&CoarseClock as &dyn Clock, &SystemClock] {
            let mut s0 = clock.unix_seconds().unwrap();
            // Start just after a second began, so the wait is most of a second.
            while clock.unix_seconds().unwrap() == s0 {
                clock.wait();
            }
            s0 = clock.unix_seconds().unwrap();
            let start = std::time::Instant::now();
            let mut waits = 0;
            while clock.unix_seconds().unwrap() == s0 {
                clock.wait();
                waits += 1;
            }
            let took = start.elapsed();
            // A hot spin would make thousands of calls; a wait ends at the next second, so one
            // does (two if the machine is so loaded that the coarse clock's tick comes late).
            assert!((1..=2).contains(&waits), "{waits} waits");
            assert!(took < Duration::from_secs(3), "{took:?}"); // generous: a loaded machine wakes late
        }
    }
}
