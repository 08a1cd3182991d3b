//! [`ManualClock`], where the target has 64-bit atomics.

use core::fmt;

use crate::Clock;

/// A clock set by hand, shareable between threads: for tests that move time.
///
/// Available where the target has native 64-bit atomics (most hosts; not the 32-bit thumb
/// targets, where `portable-atomic` offers no 64-bit atomic without its lock-based `fallback`).
///
/// # Examples
///
/// ```
/// use oid_core::{Clock, ManualClock};
/// let clock = ManualClock::new();
/// assert_eq!(clock.unix_seconds(), None);
/// clock.set(1_700_000_000);
/// clock.advance(2);
/// assert_eq!(clock.unix_seconds(), Some(1_700_000_002));
/// clock.unset();
/// assert_eq!(clock.unix_seconds(), None);
/// ```
pub struct ManualClock {
    // u64::MAX means "unset"; a set time of u64::MAX is stored as u64::MAX - 1... never happens
    // in practice, see `set`.
    secs: core::sync::atomic::AtomicU64,
}

impl ManualClock {
    const UNSET: u64 = u64::MAX;

    /// A clock that does not know the time until [`set`](Self::set).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Clock, ManualClock};
    /// assert_eq!(ManualClock::new().unix_seconds(), None);
    /// ```
    pub const fn new() -> ManualClock {
        ManualClock {
            secs: core::sync::atomic::AtomicU64::new(Self::UNSET),
        }
    }

    /// A clock that starts at `secs`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Clock, ManualClock};
    /// assert_eq!(ManualClock::at(9).unix_seconds(), Some(9));
    /// ```
    pub const fn at(secs: u64) -> ManualClock {
        ManualClock {
            secs: core::sync::atomic::AtomicU64::new(Self::clamp(secs)),
        }
    }

    const fn clamp(secs: u64) -> u64 {
        if secs == Self::UNSET {
            Self::UNSET - 1
        } else {
            secs
        }
    }

    /// Sets the time (`u64::MAX` is taken as `u64::MAX - 1`).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Clock, ManualClock};
    /// let clock = ManualClock::new();
    /// clock.set(42);
    /// assert_eq!(clock.unix_seconds(), Some(42));
    /// ```
    pub fn set(&self, secs: u64) {
        self.secs
            .store(Self::clamp(secs), core::sync::atomic::Ordering::Relaxed);
    }

    /// Moves a set clock forward by `secs` (saturating); an unset clock stays unset.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Clock, ManualClock};
    /// let clock = ManualClock::at(10);
    /// clock.advance(5);
    /// assert_eq!(clock.unix_seconds(), Some(15));
    /// let unset = ManualClock::new();
    /// unset.advance(5);
    /// assert_eq!(unset.unix_seconds(), None);
    /// ```
    pub fn advance(&self, secs: u64) {
        #[allow(
            deprecated,
            reason = "newer Rust renames it `try_update`; the MSRV has only `fetch_update`"
        )]
        let _ = self.secs.fetch_update(
            core::sync::atomic::Ordering::Relaxed,
            core::sync::atomic::Ordering::Relaxed,
            |s| (s != Self::UNSET).then(|| Self::clamp(s.saturating_add(secs))),
        );
    }

    /// Forgets the time: the clock answers `None` again.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Clock, ManualClock};
    /// let clock = ManualClock::at(10);
    /// clock.unset();
    /// assert_eq!(clock.unix_seconds(), None);
    /// ```
    pub fn unset(&self) {
        self.secs
            .store(Self::UNSET, core::sync::atomic::Ordering::Relaxed);
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for ManualClock {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        let s = self.secs.load(core::sync::atomic::Ordering::Relaxed);
        (s != Self::UNSET).then_some(s)
    }
}

impl fmt::Debug for ManualClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ManualClock")
            .field(&self.unix_seconds())
            .finish()
    }
}
