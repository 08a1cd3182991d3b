//! The lock-free generator: a [`Clock`], a seed, and the capacity rule that keeps every id
//! unique.
//!
//! # The capacity rule
//!
//! One second and one random value hold 2^24 ids (the 3-byte counter). The generator keeps a
//! *window*: the newest second it has stamped and the counter value that second started at.
//! A counter value is handed out only while it lies less than 2^24 past the window's start, so
//! the counters of one second never repeat, whatever the threads and batches. A reading of a
//! later second opens a new window at the current counter; a reading of an *earlier* second
//! (the clock stepped back) stamps the window's second, so a second is never reopened:
//! timestamps never go below the newest second a generator has stamped.
//!
//! Two 64-bit atomics hold the state: the *window* (the second and the counter value it starts
//! at) and the *counter* (the next counter value, tagged with the second of the window it is
//! counted in). A batch, a fallible call and every slow path take their counters with one
//! compare-and-swap on the tagged counter, after checking the bound against the window whose
//! second equals the tag. Because the tag is part of the swapped word, a caller that read an
//! older window can never take a value under a newer one: its swap fails and it starts over. A
//! new window is opened at the counter's current value (at most the old window's end), then the
//! counter is re-tagged (by the opener or by whoever comes next), so under every tag the counter
//! starts at or after that tag's window start, and a swap never takes it past `start + 2^24`.
//!
//! [`Generator::next`] has a fast path (an id costs one `fetch_add`, as in oid-core 0.1): when
//! the clock reads the window's second, it adds one to the counter word unconditionally and
//! keeps the value it got only if that value carries the window's tag and lies less than 2^24
//! past its start; otherwise the value is *wasted* (never handed out) and the slow path decides.
//! Uniqueness does not depend on the waste: every value handed out under a tag, by swap or by
//! `fetch_add`, is a distinct step of that tag's counter and lies within `[start, start + 2^24)`
//! of the one window with that second, so the counters of one second never repeat modulo 2^24.
//! The waste is bounded: a `next` call adds at most once and then waits (by swaps) for a later
//! second, so one tag sees at most a few wasted steps per thread, far from the 2^32 that would
//! make `next - start` wrap. The counter's value is the *high* half of its word, so the
//! `fetch_add` wraps it modulo 2^32 exactly like the swap's `wrapping_add`; it never carries
//! into the tag. Steps wasted on a spent second lie past its window's end, so the next window
//! opens at that end (the counter goes on where the ids stopped), and steps wasted on the
//! untagged counter of a fresh (or reseeded) generator are undone by its first re-tag; a step
//! wasted in a race with a later opener (a stale window, a counter not yet re-tagged) costs one
//! counter value.

mod cell;

use core::fmt;

#[cfg(feature = "portable-atomic")]
use portable_atomic as atomic;

#[cfg(not(feature = "portable-atomic"))]
use core::sync::atomic;

use atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};

use self::cell::{Cell64, ONE, UNOPENED, UNTAGGED, counted, halves, tagged, uncounted};
use crate::entropy::seed_from;
use crate::{Clock, Entropy, EntropyError, GenerateError, ObjectId};

/// Ids per second and random value: the 3-byte counter's range (4 in the loom model, so that a
/// model checker can reach the edge).
pub(crate) const CAPACITY: u32 = if cfg!(loom) { 4 } else { 1 << 24 };

/// Generates ObjectIds from a [`Clock`] and a seed: the 5-byte random value and the counter's
/// start.
///
/// * **Never a duplicate.** At most 2^24 ids per second (the counter's range). When a second's
///   capacity is spent, [`try_next`](Self::try_next) and [`try_fill`](Self::try_fill) return
///   an error of kind [`CapacityExhausted`](crate::ErrorKind::CapacityExhausted) and use up
///   nothing, while [`next`](Self::next) and [`fill`](Self::fill) wait (calling
///   [`Clock::wait`]) until the clock reads a later second. With a clock that never moves, they
///   wait forever rather than repeat an id. Sustained generation is capped at 2^24 ids per
///   second per generator.
/// * **Monotonic timestamps.** If the clock steps back, ids keep the newest second already
///   stamped until the clock catches up (that second's capacity then serves the whole step).
///   When the clock does not know the time, ids carry the newest second stamped (0 before the
///   first reading).
/// * `&self` methods and `Sync`: share one generator between threads or interrupt handlers;
///   `from_seed` is a `const fn`, so it can be a `static`.
/// * Lock-free where the target has 64-bit atomics: below the capacity, [`next`](Self::next)
///   costs two loads and one `fetch_add`, and the other methods two loads and one
///   compare-and-swap of 64-bit words. With the `portable-atomic` feature the
///   atomics come from `portable-atomic`, so targets without compare-and-swap or without 64-bit
///   atomics (thumbv6m, thumbv7em, riscv32) work once the final binary enables its
///   `critical-section` (or single-core) support. Without that feature the generator exists only
///   on targets with native 64-bit atomics.
/// * Spec-exact: the first id carries the seeded counter, each next one +1, and `0xFFFFFF` is
///   followed by `0x000000`. (A `next` that races with the opening of a new second may skip a
///   counter value.) Clock readings wrap modulo 2^32.
///
/// # Examples
///
/// ```
/// use oid_core::{FixedClock, Generator};
///
/// static GENERATOR: Generator<FixedClock> =
///     Generator::from_seed(FixedClock::at(1_700_000_000), [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
///
/// assert_eq!(GENERATOR.next().to_hex(), "6553f1003f2a91c8d4003039");
/// assert_eq!(GENERATOR.next().to_hex(), "6553f1003f2a91c8d400303a");
/// ```
pub struct Generator<C: Clock> {
    clock: C,
    /// `(next << 32) | second` ([`counted`]): the next counter value (only its low 24 bits are
    /// used, so the natural wrap of the 32-bit half is also the spec's wrap), tagged with the
    /// second of the window it is counted in (`UNTAGGED` before the first window).
    counter: Cell64,
    /// `(second << 32) | start`: the newest second stamped and the counter value its window
    /// starts at, or `UNOPENED`.
    window: Cell64,
    /// Random bytes 0..4, big-endian.
    random_hi: atomic::AtomicU32,
    /// Random byte 4.
    random_lo: atomic::AtomicU32,
}

/// A reservation got nothing: the window's second is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spent;

/// `from_seed` and `from_legacy` are `const fn`s, except in the loom model, whose atomics cannot be made in a
/// constant.
macro_rules! from_seed_fn {
    ($($const:ident)?) => {
    /// A generator with a given random value and counter start; `const`, so it can be a
    /// `static`. Use it with seeds from a real entropy source, or for deterministic tests.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator};
    /// let generator = Generator::from_seed(FixedClock::at(0), [1, 2, 3, 4, 5], 0xffffff);
    /// assert_eq!(generator.next().to_parts().counter, 0xffffff);
    /// assert_eq!(generator.next().to_parts().counter, 0);
    /// ```
    pub $($const)? fn from_seed(clock: C, random: [u8; 5], counter: u32) -> Self {
        Generator {
            clock,
            counter: Cell64::new(counted(UNTAGGED, counter)),
            window: Cell64::new(UNOPENED),
            random_hi: atomic::AtomicU32::new(u32::from_be_bytes([
                random[0], random[1], random[2], random[3],
            ])),
            random_lo: atomic::AtomicU32::new(random[4] as u32),
        }
    }

    /// A generator in the legacy layout of older drivers: a 3-byte machine id (low 24 bits of
    /// `machine`) and a 2-byte process id take the place of the random value.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator};
    /// let generator = Generator::from_legacy(FixedClock::at(0x507f1f77), 0xbcf86c, 0xd799, 0x439011);
    /// let id = generator.next();
    /// assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
    /// assert_eq!(id.to_legacy_parts().process_id, 0xd799);
    /// ```
    pub $($const)? fn from_legacy(clock: C, machine: u32, process_id: u16, counter: u32) -> Self {
        let m = machine.to_be_bytes();
        let p = process_id.to_be_bytes();
        Self::from_seed(clock, [m[1], m[2], m[3], p[0], p[1]], counter)
    }
    };
}

impl<C: Clock> Generator<C> {
    #[cfg(not(loom))]
    from_seed_fn!(const);
    #[cfg(loom)]
    from_seed_fn!();

    /// A generator seeded from `entropy`: 5 bytes for the random value and 3 for the counter's
    /// start.
    ///
    /// # Errors
    ///
    /// The entropy source's error; nothing is generated from a failed source.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Entropy, EntropyError, FixedClock, Generator};
    ///
    /// struct Broken;
    /// impl Entropy for Broken {
    ///     fn fill(&mut self, _: &mut [u8]) -> Result<(), EntropyError> {
    ///         Err(EntropyError::new("no rng"))
    ///     }
    /// }
    /// assert!(Generator::from_entropy(FixedClock::at(0), &mut Broken).is_err());
    /// ```
    pub fn from_entropy(clock: C, entropy: &mut impl Entropy) -> Result<Self, EntropyError> {
        let (random, counter) = seed_from(entropy)?;
        Ok(Self::from_seed(clock, random, counter))
    }

    /// The clock this generator reads.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator};
    /// let generator = Generator::from_seed(FixedClock::at(7), [0; 5], 0);
    /// assert_eq!(generator.clock(), &FixedClock::at(7));
    /// ```
    pub const fn clock(&self) -> &C {
        &self.clock
    }

    /// Replaces the random value and the counter (e.g. in a child process after `fork`). A new
    /// random value is a new id space, so the capacity and the monotonic-timestamp rule start
    /// over too.
    ///
    /// Ids generated by other threads while `reseed` runs may mix the old and the new seed;
    /// call it when nothing else generates (the child of a `fork` has one thread).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator};
    /// let generator = Generator::from_seed(FixedClock::at(0), [0; 5], 0);
    /// generator.reseed([9; 5], 100);
    /// let parts = generator.next().to_parts();
    /// assert_eq!((parts.random, parts.counter), ([9; 5], 100));
    /// ```
    pub fn reseed(&self, random: [u8; 5], counter: u32) {
        self.random_hi.store(
            u32::from_be_bytes([random[0], random[1], random[2], random[3]]),
            Relaxed,
        );
        self.random_lo.store(u32::from(random[4]), Relaxed);
        self.window.store(UNOPENED, Release);
        self.counter.store(counted(UNTAGGED, counter), Release);
    }

    /// Reseeds from `entropy` (see [`reseed`](Self::reseed)).
    ///
    /// # Errors
    ///
    /// The entropy source's error; the generator is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Entropy, EntropyError, FixedClock, Generator};
    /// struct Sevens;
    /// impl Entropy for Sevens {
    ///     fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
    ///         dest.fill(7);
    ///         Ok(())
    ///     }
    /// }
    /// let generator = Generator::from_seed(FixedClock::at(0), [0; 5], 0);
    /// generator.reseed_from(&mut Sevens)?;
    /// assert_eq!(generator.random(), [7; 5]);
    /// # Ok::<(), EntropyError>(())
    /// ```
    pub fn reseed_from(&self, entropy: &mut impl Entropy) -> Result<(), EntropyError> {
        let (random, counter) = seed_from(entropy)?;
        self.reseed(random, counter);
        Ok(())
    }

    /// The current random value.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator};
    /// assert_eq!(Generator::from_seed(FixedClock::at(0), [7; 5], 0).random(), [7; 5]);
    /// ```
    #[inline]
    pub fn random(&self) -> [u8; 5] {
        use atomic::Ordering::Relaxed;
        let hi = self.random_hi.load(Relaxed).to_be_bytes();
        let lo = self.random_lo.load(Relaxed) as u8;
        [hi[0], hi[1], hi[2], hi[3], lo]
    }

    /// The clock's reading, wrapped to the 32-bit field.
    #[inline]
    fn read(&self) -> Option<u32> {
        // Wraps modulo 2^32, as the timestamp field does.
        self.clock.unix_seconds().map(|secs| secs as u32)
    }

    /// Reserves `want` (1..=2^24) consecutive counter values for one second and returns that
    /// second, the first value and how many were reserved: all of `want`, or with `partial`
    /// as many as the second has left (at least one).
    ///
    /// `reading` is the clock's second (`None`: unknown, then the window's second is used).
    fn reserve(
        &self,
        reading: Option<u32>,
        want: u32,
        partial: bool,
    ) -> Result<(u32, u32, u32), Spent> {
        debug_assert!((1..=CAPACITY).contains(&want));
        loop {
            let window = self.window.load(Acquire);
            let counter = self.counter.load(Acquire);
            let (secs, start) = halves(window);
            let (tag, next) = uncounted(counter);
            let open = match reading {
                // A later second (or the first reading): open its window.
                Some(now) if window == UNOPENED || now > secs => Some(now),
                None if window == UNOPENED => Some(0),
                // The same second, an earlier one (the clock stepped back), or no reading: the
                // newest second.
                _ => None,
            };
            if window != UNOPENED && tag != secs {
                if tag != UNTAGGED && tag > secs {
                    // The counter is already tagged with a newer window than the one read.
                    continue;
                }
                // The window was opened but the counter not yet re-tagged: do it for the opener
                // (tags only ever move forward, to the current window). An untagged counter
                // (the first window) was never handed out, whatever `next`'s fast path added
                // to it meanwhile: it goes back to the window's start, so no value is skipped.
                // (A second `u32::MAX` equals `UNTAGGED` and never comes here.)
                let value = if tag == UNTAGGED { start } else { next };
                let _ =
                    self.counter
                        .compare_exchange(counter, counted(secs, value), AcqRel, Acquire);
                continue;
            }
            if let Some(now) = open {
                self.open(window, counter, now);
                continue;
            }
            // Under this tag the counter stays within [start, start + 2^24].
            let left = CAPACITY - next.wrapping_sub(start).min(CAPACITY);
            let n = if left >= want {
                want
            } else if partial && left > 0 {
                left
            } else {
                return Err(Spent);
            };
            if self
                .counter
                .compare_exchange_weak(
                    counter,
                    counted(secs, next.wrapping_add(n)),
                    AcqRel,
                    Acquire,
                )
                .is_ok()
            {
                return Ok((secs, next, n));
            }
        }
    }

    /// Replaces the window `seen` with one for `secs` starting at the counter's value (unless
    /// another caller replaced it first), then tags the counter with it. `counter` carries the
    /// tag of `seen` (or is untagged when `seen` is `UNOPENED`).
    ///
    /// A counter past the end of `seen` (`start + 2^24`) holds only increments wasted by
    /// `next`'s fast path on the spent second, never handed out: the new window starts at that
    /// end instead, so the counter goes on where the ids stopped.
    #[cold]
    fn open(&self, seen: u64, counter: u64, secs: u32) {
        let (_, mut next) = uncounted(counter);
        if seen != UNOPENED {
            let (_, start) = halves(seen);
            next = start.wrapping_add(next.wrapping_sub(start).min(CAPACITY));
        }
        let mut window = tagged(secs, next);
        if window == UNOPENED {
            // A start one lower is still a valid (one value smaller) window.
            window -= 1;
        }
        if self
            .window
            .compare_exchange(seen, window, AcqRel, Acquire)
            .is_ok()
        {
            let _ = self
                .counter
                .compare_exchange(counter, counted(secs, next), AcqRel, Acquire);
        }
    }

    /// The next id, never failing and never a repeat.
    ///
    /// * When this second's 2^24 ids are spent, it waits ([`Clock::wait`] between readings)
    ///   until the clock reads a later second; with a clock that never moves, forever.
    /// * When the clock answers `None`, the newest second already stamped is used (0, i.e.
    ///   1970-01-01, if there never was a reading).
    ///
    /// Use [`try_next`](Self::try_next) to see these conditions as errors instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Generator, ManualClock};
    /// let clock = ManualClock::at(1_700_000_000);
    /// let generator = Generator::from_seed(&clock, [0; 5], 0);
    /// assert_eq!(generator.next().timestamp(), 1_700_000_000);
    /// clock.unset();
    /// assert_eq!(generator.next().timestamp(), 1_700_000_000); // the newest second stamped
    /// ```
    #[inline]
    #[allow(clippy::should_implement_trait)] // `Iterator::next` takes `&mut self`; this is `&self`.
    pub fn next(&self) -> ObjectId {
        // The fast path: the clock reads the window's second, and one `fetch_add` on the
        // counter. The value is taken only when the counter still carries that second's tag and
        // lies within the window; an increment that does not is wasted (never handed out), and
        // the slow path below decides. One clock reading serves both paths (a clock may be
        // slow, e.g. an RTC on a bus). The id is built once, after the paths join: building it
        // in each and merging them cost a store-forwarding stall (about 3 ns per id).
        let reading = self.read();
        let (secs, counter) = self
            .next_fast(reading)
            .unwrap_or_else(|| self.next_slow(reading));
        self.make(secs, counter)
    }

    /// The fast path of [`next`](Self::next): its second and counter, or `None` for the slow
    /// path.
    ///
    /// `Relaxed` suffices: a window with second `secs` has one start (seconds are never
    /// reopened), so even a stale window read gives the right bound for its tag, and the
    /// `fetch_add` is ordered with every other change of the counter by the counter alone. The
    /// tag check is what keeps a caller preempted for a long time (while the counter went
    /// around 2^32) from taking a value under a window long gone.
    #[inline(always)]
    fn next_fast(&self, reading: Option<u32>) -> Option<(u32, u32)> {
        let now = reading?;
        let window = self.window.load(Relaxed);
        let (secs, start) = halves(window);
        if now != secs || window == UNOPENED {
            return None;
        }
        let (tag, next) = uncounted(self.counter.fetch_add(ONE, Relaxed));
        (tag == secs && next.wrapping_sub(start) < CAPACITY).then_some((secs, next))
    }

    /// [`next`](Self::next) when its fast path did not take a value: a new second, a spent
    /// one, no reading, or a race with an opener.
    #[cold]
    #[inline(never)]
    fn next_slow(&self, mut reading: Option<u32>) -> (u32, u32) {
        loop {
            match self.reserve(reading, 1, false) {
                Ok((secs, c, _)) => return (secs, c),
                Err(Spent) => {
                    self.clock.wait();
                    reading = self.read();
                }
            }
        }
    }

    /// The next id, or an error: when the clock does not know the time, or when this second's
    /// 2^24 ids are spent. A failed call uses up nothing.
    ///
    /// # Errors
    ///
    /// [`GenerateError`] of kind [`ClockUnavailable`](crate::ErrorKind::ClockUnavailable) or
    /// [`CapacityExhausted`](crate::ErrorKind::CapacityExhausted).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ErrorKind, FixedClock, Generator, ObjectId};
    /// let generator = Generator::from_seed(FixedClock::at(1_700_000_000), [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
    /// assert_eq!(generator.try_next()?.to_hex(), "6553f1003f2a91c8d4003039");
    ///
    /// // A batch larger than a second's 2^24 ids can never come from one second.
    /// let mut too_many = vec![ObjectId::MIN; (1 << 24) + 1];
    /// assert_eq!(generator.try_fill(&mut too_many).unwrap_err().kind(), ErrorKind::CapacityExhausted);
    /// # Ok::<(), oid_core::GenerateError>(())
    /// ```
    #[inline]
    pub fn try_next(&self) -> Result<ObjectId, GenerateError> {
        let secs = self.read().ok_or(GenerateError::CLOCK_UNAVAILABLE)?;
        match self.reserve(Some(secs), 1, false) {
            Ok((secs, c, _)) => Ok(self.make(secs, c)),
            Err(Spent) => Err(GenerateError::CAPACITY_EXHAUSTED),
        }
    }

    #[inline]
    fn make(&self, secs: u32, counter: u32) -> ObjectId {
        ObjectId::from_parts(secs, self.random(), counter)
    }

    /// Fills `out` with new ids, never failing and never repeating one. Ids of one second are
    /// reserved together (one compare-and-swap per second of ids), share the timestamp and the
    /// random value, and each has a counter one higher than the one before (wrapping from
    /// `0xFFFFFF` to `0`). A batch larger than what the current second has left continues in
    /// later seconds, waiting for them as [`next`](Self::next) does.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator, ObjectId};
    /// let generator = Generator::from_seed(FixedClock::at(1_700_000_000), [1; 5], 0xfffffe);
    /// let mut ids = [ObjectId::MIN; 4];
    /// generator.fill(&mut ids);
    /// let counters: Vec<u32> = ids.iter().map(|id| id.to_parts().counter).collect();
    /// assert_eq!(counters, [0xfffffe, 0xffffff, 0, 1]);
    /// assert_eq!(generator.next().to_parts().counter, 2);
    /// ```
    pub fn fill(&self, out: &mut [ObjectId]) {
        let mut rest = out;
        while !rest.is_empty() {
            let want = u32::try_from(rest.len()).map_or(CAPACITY, |n| n.min(CAPACITY));
            match self.reserve(self.read(), want, true) {
                Ok((secs, start, n)) => {
                    let (head, tail) = rest.split_at_mut(n as usize);
                    self.write(secs, start, head);
                    rest = tail;
                }
                Err(Spent) => self.clock.wait(),
            }
        }
    }

    /// Like [`fill`](Self::fill), but all of `out` comes from the current second, or nothing
    /// is filled and nothing is used up: when the clock does not know the time, or when the
    /// second has fewer than `out.len()` ids left (so a batch of more than 2^24 always fails).
    ///
    /// # Errors
    ///
    /// [`GenerateError`] of kind [`ClockUnavailable`](crate::ErrorKind::ClockUnavailable) or
    /// [`CapacityExhausted`](crate::ErrorKind::CapacityExhausted).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator, ObjectId};
    /// let mut ids = [ObjectId::MIN; 3];
    /// let unset = Generator::from_seed(FixedClock::UNSET, [0; 5], 0);
    /// assert!(unset.try_fill(&mut ids).is_err());
    /// let generator = Generator::from_seed(FixedClock::at(1_700_000_000), [0; 5], 0);
    /// generator.try_fill(&mut ids)?;
    /// assert_eq!(ids[2].to_parts().counter, 2);
    /// # Ok::<(), oid_core::GenerateError>(())
    /// ```
    pub fn try_fill(&self, out: &mut [ObjectId]) -> Result<(), GenerateError> {
        let secs = self.read().ok_or(GenerateError::CLOCK_UNAVAILABLE)?;
        if out.is_empty() {
            return Ok(());
        }
        let want = u32::try_from(out.len())
            .ok()
            .filter(|&n| n <= CAPACITY)
            .ok_or(GenerateError::CAPACITY_EXHAUSTED)?;
        let (secs, start, _) = self
            .reserve(Some(secs), want, false)
            .map_err(|Spent| GenerateError::CAPACITY_EXHAUSTED)?;
        self.write(secs, start, out);
        Ok(())
    }

    fn write(&self, secs: u32, start: u32, out: &mut [ObjectId]) {
        let t = secs.to_be_bytes();
        let r = self.random();
        let mut bytes = [
            t[0], t[1], t[2], t[3], r[0], r[1], r[2], r[3], r[4], 0, 0, 0,
        ];
        let mut counter = start;
        for slot in out {
            let c = counter.to_be_bytes();
            bytes[9] = c[1];
            bytes[10] = c[2];
            bytes[11] = c[3];
            *slot = ObjectId::from_bytes(bytes);
            counter = counter.wrapping_add(1);
        }
    }
}

impl<C: Clock + fmt::Debug> fmt::Debug for Generator<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The seed is deliberately not printed: it is the process's identity.
        f.debug_struct("Generator")
            .field("clock", &self.clock)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests;
