//! A wall clock set at run time that keeps counting from a monotonic tick source.

use core::fmt;

use oid_core::Clock;
use portable_atomic::{AtomicBool, AtomicU32, Ordering, fence};

use crate::Error;

/// A monotonic tick counter: a timer that counts up from boot and never goes back (SysTick
/// counted in an interrupt, a 64-bit timer, an RTOS tick, `embassy_time::Instant`...).
///
/// The tick rate is the `HZ` parameter of [`SyncedClock`]. A 32-bit hardware counter must be
/// extended to 64 bits (count its overflows) before it is a tick source.
///
/// Implemented for `fn() -> u64`, so a plain function works in a `static`.
///
/// # Examples
///
/// ```
/// use core::sync::atomic::{AtomicU32, Ordering};
/// use oid_embedded::TickSource;
///
/// static MILLIS: AtomicU32 = AtomicU32::new(0); // incremented by a 1 kHz timer interrupt
/// fn millis() -> u64 {
///     u64::from(MILLIS.load(Ordering::Relaxed))
/// }
///
/// let source: fn() -> u64 = millis;
/// MILLIS.store(1500, Ordering::Relaxed);
/// assert_eq!(source.ticks(), 1500);
/// ```
pub trait TickSource {
    /// Ticks since an arbitrary fixed point (usually boot).
    fn ticks(&self) -> u64;
}

impl TickSource for fn() -> u64 {
    #[inline]
    fn ticks(&self) -> u64 {
        self()
    }
}

impl<T: TickSource + ?Sized> TickSource for &T {
    #[inline]
    fn ticks(&self) -> u64 {
        (**self).ticks()
    }
}

/// A [`Clock`] that knows the time once it is told (by an RTC, GNSS or network time) and keeps
/// counting from a monotonic [`TickSource`] running at `HZ` ticks per second in between.
///
/// Until the first [`set_unix_time`](Self::set_unix_time) it answers `None`, so
/// [`SharedGenerator::try_next`](crate::SharedGenerator::try_next) fails with [`ErrorKind::ClockUnavailable`](crate::ErrorKind::ClockUnavailable)
/// instead of stamping ids with 1970.
///
/// The reading is `secs + (ticks_now - ticks_at_set) / HZ`, where `secs` and `ticks_at_set`
/// are from the last set. It can be a `static` (`new` is `const`) and be read and set from
/// interrupts and the main loop: readers never wait and never see half of an update (the time
/// is kept in two slots, and a reader retries only if an update finished while it was
/// reading). Two contexts that set the time at the same moment do not mix their values: the
/// one that comes second gets an [`Error`] of kind
/// [`ClockUnavailable`](crate::ErrorKind::ClockUnavailable) ("being set by another context")
/// and changes nothing.
///
/// No 64-bit atomics are needed, so it works on Cortex-M0/M3/M4 alike; setting it uses one
/// atomic swap (emulated by `portable-atomic` where the target has no compare-and-swap).
///
/// # Examples
///
/// ```
/// use core::sync::atomic::{AtomicU64, Ordering};
/// use oid_embedded::{Clock, SyncedClock};
///
/// static TICKS: AtomicU64 = AtomicU64::new(0); // a 1 kHz tick
/// fn ticks() -> u64 {
///     TICKS.load(Ordering::Relaxed)
/// }
/// static CLOCK: SyncedClock<fn() -> u64, 1000> = SyncedClock::new(ticks);
///
/// assert_eq!(CLOCK.unix_seconds(), None); // not set yet
/// TICKS.store(5_000, Ordering::Relaxed);
/// CLOCK.set_unix_time(1_700_000_000)?; // e.g. from a GNSS fix
/// TICKS.store(7_999, Ordering::Relaxed); // 2.999 s later
/// assert_eq!(CLOCK.unix_seconds(), Some(1_700_000_002));
/// TICKS.store(8_000, Ordering::Relaxed);
/// assert_eq!(CLOCK.unix_seconds(), Some(1_700_000_003));
/// # Ok::<(), oid_embedded::Error>(())
/// ```
pub struct SyncedClock<T, const HZ: u32> {
    source: T,
    /// Counts completed updates; `generation & 1` is the slot readers use.
    generation: AtomicU32,
    slots: [Slot; 2],
    /// Held by the one context that is writing a slot.
    writing: AtomicBool,
}

/// One consistent reading: the time set and the tick it was set at, as 32-bit halves.
///
/// `secs_hi` holds the high half plus one, so that 0 means "no time" and a new clock is all
/// zeros (a `static` of it lands in `.bss`, costing no flash).
struct Slot {
    secs_hi: AtomicU32,
    secs_lo: AtomicU32,
    tick_hi: AtomicU32,
    tick_lo: AtomicU32,
}

/// `secs_hi` of a slot that holds no time.
const UNSET_HI: u32 = 0;
/// The largest time that can be stored (its high half plus one must fit in 32 bits).
const MAX_SECS: u64 = ((u32::MAX as u64) << 32) - 1;

impl Slot {
    const fn unset() -> Slot {
        Slot {
            secs_hi: AtomicU32::new(UNSET_HI),
            secs_lo: AtomicU32::new(0),
            tick_hi: AtomicU32::new(0),
            tick_lo: AtomicU32::new(0),
        }
    }

    fn store(&self, secs: Option<u64>, tick: u64) {
        let (hi, lo) = match secs {
            Some(s) => {
                let (hi, lo) = split(s.min(MAX_SECS));
                (hi + 1, lo)
            }
            None => (UNSET_HI, 0),
        };
        let (tick_hi, tick_lo) = split(tick);
        self.secs_hi.store(hi, Ordering::Relaxed);
        self.secs_lo.store(lo, Ordering::Relaxed);
        self.tick_hi.store(tick_hi, Ordering::Relaxed);
        self.tick_lo.store(tick_lo, Ordering::Relaxed);
    }

    fn load(&self) -> (Option<u64>, u64) {
        let hi = self.secs_hi.load(Ordering::Relaxed);
        let lo = self.secs_lo.load(Ordering::Relaxed);
        let tick = join(
            self.tick_hi.load(Ordering::Relaxed),
            self.tick_lo.load(Ordering::Relaxed),
        );
        ((hi != UNSET_HI).then(|| join(hi - 1, lo)), tick)
    }
}

const fn split(v: u64) -> (u32, u32) {
    ((v >> 32) as u32, v as u32)
}

const fn join(hi: u32, lo: u32) -> u64 {
    ((hi as u64) << 32) | lo as u64
}

impl<T, const HZ: u32> SyncedClock<T, HZ> {
    /// A clock that does not know the time yet, counting `source` at `HZ` ticks per second
    /// (`HZ = 0` does not compile).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{Clock, SyncedClock};
    /// fn ticks() -> u64 { 42 }
    /// static CLOCK: SyncedClock<fn() -> u64, 32_768> = SyncedClock::new(ticks);
    /// assert!(!CLOCK.is_set());
    /// ```
    pub const fn new(source: T) -> Self {
        const { assert!(HZ > 0, "a tick source needs at least one tick per second") };
        SyncedClock {
            source,
            generation: AtomicU32::new(0),
            slots: [Slot::unset(), Slot::unset()],
            writing: AtomicBool::new(false),
        }
    }

    /// The tick source.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{SyncedClock, TickSource};
    /// fn ticks() -> u64 { 42 }
    /// let clock: SyncedClock<fn() -> u64, 1> = SyncedClock::new(ticks);
    /// assert_eq!(clock.source().ticks(), 42);
    /// ```
    pub const fn source(&self) -> &T {
        &self.source
    }

    /// Whether the clock knows the time.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::SyncedClock;
    /// fn ticks() -> u64 { 0 }
    /// let clock: SyncedClock<fn() -> u64, 1> = SyncedClock::new(ticks);
    /// assert!(!clock.is_set());
    /// clock.set_unix_time_at(1_700_000_000, 0)?;
    /// assert!(clock.is_set());
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub fn is_set(&self) -> bool {
        self.snapshot().0.is_some()
    }

    /// Tells the clock that it was `secs` seconds after the Unix epoch when the tick source
    /// read `at_ticks`: use it when the time was captured at a known tick (a GNSS PPS edge,
    /// the moment an RTC's seconds register rolled over), for sub-second accuracy.
    ///
    /// Readings before `at_ticks` (a tick in the future) stay at `secs`. Times beyond
    /// `0xFFFF_FFFE_FFFF_FFFF` (far beyond any timestamp an id can hold) are stored as that.
    ///
    /// # Errors
    ///
    /// [`Error`] of kind [`ClockUnavailable`](crate::ErrorKind::ClockUnavailable) ("clock time
    /// not available: being set by another context") if another context is setting the clock
    /// at this moment (only
    /// possible when an interrupt that sets the time preempts the main loop doing the same, or
    /// on a multi-core part); nothing is changed then, and the other update stands.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::sync::atomic::{AtomicU64, Ordering};
    /// use oid_embedded::{Clock, SyncedClock};
    ///
    /// static TICKS: AtomicU64 = AtomicU64::new(0);
    /// fn ticks() -> u64 { TICKS.load(Ordering::Relaxed) }
    /// let clock: SyncedClock<fn() -> u64, 1000> = SyncedClock::new(ticks);
    ///
    /// // The PPS edge for 1_700_000_000 came at tick 10_250; we learn it at tick 10_900.
    /// TICKS.store(10_900, Ordering::Relaxed);
    /// clock.set_unix_time_at(1_700_000_000, 10_250)?;
    /// TICKS.store(11_250, Ordering::Relaxed);
    /// assert_eq!(clock.unix_seconds(), Some(1_700_000_001));
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub fn set_unix_time_at(&self, secs: u64, at_ticks: u64) -> Result<(), Error> {
        self.publish(Some(secs), at_ticks)
    }

    /// Forgets the time: the clock answers `None` (and `try_next` fails with `ClockUnavailable`) until it is
    /// set again, e.g. after the RTC reported a lost oscillator.
    ///
    /// # Errors
    ///
    /// Kind [`ClockUnavailable`](crate::ErrorKind::ClockUnavailable) (busy), as for [`set_unix_time_at`](Self::set_unix_time_at).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::SyncedClock;
    /// fn ticks() -> u64 { 0 }
    /// let clock: SyncedClock<fn() -> u64, 1> = SyncedClock::new(ticks);
    /// clock.set_unix_time_at(1_700_000_000, 0)?;
    /// clock.unset()?;
    /// assert!(!clock.is_set());
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub fn unset(&self) -> Result<(), Error> {
        self.publish(None, 0)
    }

    fn publish(&self, secs: Option<u64>, tick: u64) -> Result<(), Error> {
        if self.writing.swap(true, Ordering::Acquire) {
            return Err(crate::error::CLOCK_BUSY);
        }
        let generation = self.generation.load(Ordering::Relaxed);
        let next = generation.wrapping_add(1);
        // Readers of the slot we overwrite see `generation` change before they can see our
        // data: the fence orders the earlier publication of `generation` before these stores.
        fence(Ordering::Release);
        self.slots[(next & 1) as usize].store(secs, tick);
        self.generation.store(next, Ordering::Release);
        self.writing.store(false, Ordering::Release);
        Ok(())
    }

    /// The last time set and the tick it was set at, read consistently.
    fn snapshot(&self) -> (Option<u64>, u64) {
        loop {
            let generation = self.generation.load(Ordering::Acquire);
            let value = self.slots[(generation & 1) as usize].load();
            fence(Ordering::Acquire);
            if self.generation.load(Ordering::Relaxed) == generation {
                return value;
            }
            // An update finished while we read (the writer made progress): read again.
        }
    }
}

impl<T: TickSource, const HZ: u32> SyncedClock<T, HZ> {
    /// Tells the clock that it is now `secs` seconds after the Unix epoch (the tick source is
    /// read at this call). Call it at boot from an RTC, and whenever better time arrives;
    /// in between, the clock counts ticks.
    ///
    /// # Errors
    ///
    /// Kind [`ClockUnavailable`](crate::ErrorKind::ClockUnavailable) (busy), as for [`set_unix_time_at`](Self::set_unix_time_at).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{Clock, SyncedClock};
    /// fn ticks() -> u64 { 123_456 }
    /// let clock: SyncedClock<fn() -> u64, 1000> = SyncedClock::new(ticks);
    /// clock.set_unix_time(1_700_000_000)?;
    /// assert_eq!(clock.unix_seconds(), Some(1_700_000_000));
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub fn set_unix_time(&self, secs: u64) -> Result<(), Error> {
        self.set_unix_time_at(secs, self.source.ticks())
    }
}

/// `wait` (called once by the infallible `Generator::next`/`fill` when the second the clock
/// reads has its ids spent) spins until this clock reads another second: the next one
/// comes from the tick source, which this clock cannot sleep on. So never call `next`/`fill`
/// where the ticks cannot advance meanwhile (an interrupt handler that outranks the timer
/// interrupt counting them): use `try_next`/`try_fill` there, which return
/// [`ErrorKind::CapacityExhausted`](crate::ErrorKind::CapacityExhausted) instead of waiting.
impl<T: TickSource, const HZ: u32> Clock for SyncedClock<T, HZ> {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        let (secs, at) = self.snapshot();
        let secs = secs?;
        let elapsed = self.source.ticks().saturating_sub(at);
        Some(secs.saturating_add(div_u64(elapsed, HZ)))
    }

    fn wait(&self) {
        let start = self.unix_seconds();
        // Unset: no second to wait for (the generator then moves on to a new random value).
        while start.is_some() && self.unix_seconds() == start {
            core::hint::spin_loop();
        }
    }
}

/// `n / d` by binary long division. The `/` operator on `u64` pulls in compiler-builtins'
/// 64-bit division (about 1.3 KiB of flash on a Cortex-M0, which has no divide instruction,
/// and still about 0.9 KiB on a Cortex-M4); this loop is a few dozen bytes. It runs once per
/// clock reading, 64 rounds at most, and not at all within the first second after a set.
fn div_u64(mut n: u64, d: u32) -> u64 {
    let d = u64::from(d);
    if n < d {
        return 0;
    }
    let mut rem = 0u64;
    let mut quot = 0u64;
    for _ in 0..64 {
        // Shift the next bit of `n` into the remainder (which stays below 2 * d < 2^33).
        rem = (rem << 1) | (n >> 63);
        n <<= 1;
        quot <<= 1;
        if rem >= d {
            rem -= d;
            quot |= 1;
        }
    }
    quot
}

impl<T, const HZ: u32> fmt::Debug for SyncedClock<T, HZ> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (secs, at) = self.snapshot();
        f.debug_struct("SyncedClock")
            .field("hz", &HZ)
            .field("set_to", &secs)
            .field("at_tick", &at)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::vec::Vec;

    struct Ticks(AtomicU64);
    impl TickSource for Ticks {
        fn ticks(&self) -> u64 {
            self.0.load(Ordering::Relaxed)
        }
    }

    proptest::proptest! {
        #[test]
        fn long_division_matches_the_operator(n in proptest::num::u64::ANY, d in 1u32..) {
            proptest::prop_assert_eq!(div_u64(n, d), n / u64::from(d));
        }
    }

    #[test]
    fn long_division_edges() {
        for d in [1, 2, 3, 1000, 32_768, 1_000_000, u32::MAX] {
            for n in [0, 1, u64::from(d) - 1, u64::from(d), u64::MAX - 1, u64::MAX] {
                assert_eq!(div_u64(n, d), n / u64::from(d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn counts_whole_seconds_from_the_tick_at_set() {
        let ticks = Ticks(AtomicU64::new(1_000_000));
        let clock: SyncedClock<&Ticks, 32_768> = SyncedClock::new(&ticks);
        assert_eq!(clock.unix_seconds(), None);
        clock.set_unix_time(1_700_000_000).unwrap();
        for (dt, want) in [(0, 0), (32_767, 0), (32_768, 1), (10 * 32_768 + 5, 10)] {
            ticks.0.store(1_000_000 + dt, Ordering::Relaxed);
            assert_eq!(clock.unix_seconds(), Some(1_700_000_000 + want), "dt {dt}");
        }
    }

    #[test]
    fn resync_replaces_the_anchor() {
        let ticks = Ticks(AtomicU64::new(0));
        let clock: SyncedClock<&Ticks, 1000> = SyncedClock::new(&ticks);
        clock.set_unix_time(100).unwrap();
        ticks.0.store(60_000, Ordering::Relaxed);
        assert_eq!(clock.unix_seconds(), Some(160));
        // A better source says the tick oscillator ran 1 s fast.
        clock.set_unix_time(159).unwrap();
        assert_eq!(clock.unix_seconds(), Some(159));
        ticks.0.store(61_000, Ordering::Relaxed);
        assert_eq!(clock.unix_seconds(), Some(160));
        // Many updates: the slots alternate and stay consistent.
        for i in 0..10u64 {
            clock.set_unix_time_at(1_000 * i, 61_000).unwrap();
            assert_eq!(clock.unix_seconds(), Some(1_000 * i));
        }
    }

    #[test]
    fn future_anchor_and_extremes_saturate() {
        let ticks = Ticks(AtomicU64::new(u64::MAX));
        let clock: SyncedClock<&Ticks, 1> = SyncedClock::new(&ticks);
        clock.set_unix_time_at(u64::MAX, 0).unwrap();
        assert_eq!(clock.unix_seconds(), Some(u64::MAX));
        clock.set_unix_time_at(5, u64::MAX).unwrap();
        ticks.0.store(3, Ordering::Relaxed);
        assert_eq!(clock.unix_seconds(), Some(5), "a future anchor holds");
        clock.set_unix_time_at(MAX_SECS + 7, 3).unwrap();
        assert_eq!(clock.unix_seconds(), Some(MAX_SECS), "clamped, still set");
    }

    #[test]
    fn unset_forgets() {
        let ticks = Ticks(AtomicU64::new(0));
        let clock: SyncedClock<&Ticks, 1> = SyncedClock::new(&ticks);
        clock.set_unix_time(1).unwrap();
        clock.unset().unwrap();
        assert_eq!(clock.unix_seconds(), None);
        assert!(!clock.is_set());
        clock.set_unix_time(2).unwrap();
        assert_eq!(clock.unix_seconds(), Some(2));
    }

    #[test]
    fn a_writer_in_progress_makes_the_second_writer_busy() {
        let clock: SyncedClock<fn() -> u64, 1> = SyncedClock::new(|| 0);
        clock.set_unix_time(10).unwrap();
        // Simulate an interrupt arriving while another context holds the writer flag.
        clock.writing.store(true, Ordering::Relaxed);
        assert_eq!(
            clock.set_unix_time(20).unwrap_err(),
            crate::error::CLOCK_BUSY
        );
        assert_eq!(clock.unset().unwrap_err(), crate::error::CLOCK_BUSY);
        assert_eq!(
            clock.unix_seconds(),
            Some(10),
            "the busy call changed nothing"
        );
        clock.writing.store(false, Ordering::Relaxed);
        clock.set_unix_time(20).unwrap();
        assert_eq!(clock.unix_seconds(), Some(20));
    }

    #[test]
    fn debug_shows_the_anchor() {
        let clock: SyncedClock<fn() -> u64, 1000> = SyncedClock::new(|| 7);
        clock.set_unix_time(9).unwrap();
        assert_eq!(
            std::format!("{clock:?}"),
            "SyncedClock { hz: 1000, set_to: Some(9), at_tick: 7, .. }"
        );
    }

    /// Readers on other threads never see a torn (secs, tick) pair while one thread keeps
    /// setting the clock. Every update sets `secs == tick`, so a reader at tick 2^40 must read
    /// `secs + (2^40 - tick)`, i.e. exactly 2^40, whatever update it catches.
    #[test]
    fn readers_never_see_a_torn_update() {
        const NOW: u64 = 1 << 40;
        let clock: SyncedClock<fn() -> u64, 1> = SyncedClock::new(|| NOW);
        clock.set_unix_time_at(0, 0).unwrap();
        let updates: u64 = if cfg!(miri) { 200 } else { 200_000 };
        std::thread::scope(|s| {
            let readers: Vec<_> = (0..2)
                .map(|_| {
                    s.spawn(|| {
                        let mut reads = 0u64;
                        for _ in 0..updates {
                            assert_eq!(clock.unix_seconds(), Some(NOW));
                            reads += 1;
                        }
                        reads
                    })
                })
                .collect();
            for i in 0..updates {
                // Scattered values, so that halves of two updates never match by chance.
                let v = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) % NOW;
                clock.set_unix_time_at(v, v).unwrap();
            }
            for r in readers {
                assert_eq!(r.join().unwrap(), updates);
            }
        });
    }
}
