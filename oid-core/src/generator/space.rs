//! [`IdSpace`]: one random value, its counter and the capacity rule, with block reservation.

use core::fmt;

use super::policy::{CapacityPolicy, next_random, step_for};
use super::words::{
    ONE, RESEEDS, TAG_MASK, TAGGED, UNOPENED, counted, distance, era, era_of, era_random, halves,
    later, next_seq, reseeded_seq, reseeding, rotated_seq, uncounted, untagged, window,
};
use crate::entropy::seed_from;
use crate::loom::Ordering::{AcqRel, Acquire, Relaxed, Release};
use crate::loom::{AtomicU8, AtomicU32, AtomicU64, fence, spin_loop};
use crate::{Entropy, EntropyError, GenerateError, ObjectId};

/// Ids per second and random value: the 3-byte counter's range (4 in the crate's own loom
/// models, so that a model checker reaches the edge in a few steps).
#[cfg(not(all(test, loom)))]
pub(super) const CAPACITY: u32 = 1 << 24;
#[cfg(all(test, loom))]
pub(super) const CAPACITY: u32 = 4;

/// A random value and its counter under the capacity rule: each counter value at most once per
/// second. [`Generator`](crate::Generator) is built on it (adding a clock). An application
/// needs it to set a generator's [`CapacityPolicy`] (`Generator::from_ids(clock,
/// IdSpace::new(..).with_policy(..))`, or [`set_policy`](Self::set_policy) through
/// `Generator::ids()`) and to move it to a fresh random value after a restore from a VM
/// snapshot or a clone ([`rotate`](Self::rotate), [`reseed`](Self::reseed)).
///
/// # The capacity rule
///
/// One second and one random value hold 2^24 ids (the 3-byte counter). An `IdSpace` keeps a
/// *window*: the newest second it has stamped and the counter value that second started at,
/// and hands out a counter value only while it lies less than 2^24 past the window's start. A
/// block is consecutive values wholly inside the window; the unused
/// rest of a block counts as used. (A generator takes one value per id, `fill` a block.)
///
/// * **"Later" is serial-number arithmetic** on the 32-bit timestamp field: a reading less than
///   2^31 seconds ahead of the window's second is later and opens a new window at the current
///   counter, so after `0xFFFFFFFF` (2106-02-07T06:28:15Z) the timestamp wraps to `0` like the
///   field; every second `0..=0xFFFFFFFF` holds its full 2^24 ids.
/// * **A reading of an earlier second** (the clock stepped back) stamps the window's second: a
///   second is never reopened under one random value, and timestamps do not go below the
///   newest one stamped, up to [`CapacityPolicy::STEP_BACK_TOLERANCE`] seconds back.
/// * **No reading** (`None`) stamps the window's second, or second 0 before the first window.
/// * **A new random value** is a new id space: the window starts over, at any second.
///   The [`CapacityPolicy`] says when the id space moves to one by itself (a spent second, a
///   step of the clock back); [`rotate`](Self::rotate) and [`reseed`](Self::reseed) do it on
///   demand. A change of the random value keeps the counter going where it stands (except
///   `reseed`, which sets it).
///
/// # Examples
///
/// An application's generator that moves to a new random value instead of waiting when a
/// second is spent (`Generator::from_ids`), and its move to a fresh random value after a restore
/// from a snapshot (`Generator::ids`):
///
/// ```
/// use oid_core::{CapacityPolicy, FixedClock, Generator, IdSpace};
///
/// static GENERATOR: Generator<FixedClock> = Generator::from_ids(
///     FixedClock::at(1_700_000_000),
///     IdSpace::new([1, 2, 3, 4, 5], 0xfffffe).with_policy(CapacityPolicy::Rotate),
/// );
///
/// let counters: Vec<u32> = (0..4).map(|_| GENERATOR.next().to_parts().counter).collect();
/// assert_eq!(counters, [0xfffffe, 0xffffff, 0, 1]);
/// assert_eq!(GENERATOR.ids().rotate([9; 5]), [1, 2, 3, 4, 5]);
/// assert_eq!(GENERATOR.next().to_parts().random, [9; 5]);
/// ```
// How it works (for this crate and oid-std, not the docs):
//
// Three 64-bit atomics: the *era* (the random value and a sequence number, odd while the
// random value changes), the *window* (second and start), and the *counter* (the next value,
// tagged with the second of the window it is counted in). A reservation takes its values with one
// compare-and-swap of the tagged counter after checking the bound against the window whose
// second equals the tag: a caller that read an older window can never take a value under a
// newer one (its swap fails). A new window is opened at the counter's value (at most the old
// window's end), then the counter is re-tagged, by the opener or by whoever comes next; tags
// only move forward (a caller re-tags only after reading the window again and finding it
// unchanged, so a counter already tagged with a newer window is never tagged back). Every
// reservation reads the era before and after (a sequence lock) and throws away a value whose
// era changed meanwhile.
//
// A change of the random value ([`rotate`](Self::rotate), or the policy's) marks the era
// (odd sequence number), then moves the counter with a read-modify-write that keeps its
// value and tags it with the new window's second, stores the new window and the new era. A
// reservation whose swap of the counter came before that read-modify-write took values of
// the old era, which the new one continues after; one whose swap came after sees the marked
// era (the change's release fence and the reservation's acquire fence pair through the
// counter) and throws its values away. The model checker runs these changes racing
// reservations and `next`'s fast path. [`reseed`](Self::reseed) sets the counter instead,
// and so still runs only when nothing else takes ids.
//
// `Generator::next`'s fast path is one `fetch_add` on the counter word: it keeps the value
// only if the word carries the window's tag, lies less than 2^24 past the window's start and
// the era did not change; otherwise the value is wasted (never handed out). The value is the
// word's high 31 bits, so the `fetch_add` wraps it modulo 2^31 (a multiple of 2^24) and never
// carries into the tag.
pub struct IdSpace {
    /// The random value and the sequence number of its changes ([`era`]).
    era: AtomicU64,
    /// The [`CapacityPolicy`], as its byte.
    policy: AtomicU8,
    /// This id space's step between derived random values (odd, from the seed; see
    /// [`CapacityPolicy`]).
    step: AtomicU32,
    /// The newest second and its start ([`window`]), or `UNOPENED`.
    pub(super) window: AtomicU64,
    /// The next value, tagged ([`counted`]).
    pub(super) counter: AtomicU64,
}

/// Consecutive counter values of one second and one random value, reserved from an
/// [`IdSpace`] for oid-std's per-thread blocks (not API: see `oid_core::__private`).
// The ids `timestamp | random | first + i` for `i < len` (counters wrap from `0xFFFFFF` to `0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdBlock {
    timestamp: u32,
    random: [u8; 5],
    first: u32,
    len: u32,
}

impl IdBlock {
    /// The ids' timestamp (seconds, modulo 2^32).
    pub const fn timestamp(&self) -> u32 {
        self.timestamp
    }

    /// The ids' random value.
    pub const fn random(&self) -> [u8; 5] {
        self.random
    }

    /// The first id's counter (only the low 24 bits are an id's counter).
    pub const fn first(&self) -> u32 {
        self.first
    }

    /// How many ids (at least one).
    #[allow(clippy::len_without_is_empty)] // a block is never empty
    pub const fn len(&self) -> u32 {
        self.len
    }

    /// The `i`-th id of the block, if `i < len()`.
    pub const fn id(&self, i: u32) -> Option<ObjectId> {
        if i < self.len {
            Some(ObjectId::from_parts(
                self.timestamp,
                self.random,
                self.first.wrapping_add(i),
            ))
        } else {
            None
        }
    }

    /// The block's ids in counter order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = ObjectId> + '_ {
        (0..self.len as usize).map(|i| {
            ObjectId::from_parts(
                self.timestamp,
                self.random,
                self.first.wrapping_add(i as u32),
            )
        })
    }

    /// The first id of the block.
    #[inline]
    pub(super) const fn first_id(&self) -> ObjectId {
        ObjectId::from_parts(self.timestamp, self.random, self.first)
    }

    /// Writes the block's ids to the start of `out` (as many as fit) and returns how many.
    pub(super) fn write(&self, out: &mut [ObjectId]) -> usize {
        let mut counter = self.first;
        let n = out.len().min(self.len as usize);
        for slot in &mut out[..n] {
            *slot = ObjectId::from_parts(self.timestamp, self.random, counter);
            counter = counter.wrapping_add(1);
        }
        n
    }
}

/// A reservation got nothing: the window's second is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Spent;

impl IdSpace {
    /// The ids one second and one random value hold: 2^24.
    pub const CAPACITY: u32 = CAPACITY;

    /// An id space with this random value whose counter starts at `counter` (its low 24 bits
    /// are the first id's counter); `const`, so it can be a `static`.
    ///
    /// # Examples
    ///
    /// ```
    /// static IDS: oid_core::IdSpace = oid_core::IdSpace::new([1, 2, 3, 4, 5], 0);
    /// assert_eq!(IDS.random(), [1, 2, 3, 4, 5]);
    /// ```
    #[cfg(not(all(test, loom)))]
    pub const fn new(random: [u8; 5], counter: u32) -> IdSpace {
        IdSpace {
            era: AtomicU64::new(era(random, 0)),
            policy: AtomicU8::new(CapacityPolicy::Wait.to_byte()),
            step: AtomicU32::new(step_for(era(random, 0), counter)),
            window: AtomicU64::new(UNOPENED),
            counter: AtomicU64::new(untagged(counter)),
        }
    }

    /// An id space with this random value whose counter starts at `counter` (not `const` in
    /// the crate's own loom models, whose atomics cannot be made in a constant).
    #[cfg(all(test, loom))]
    pub fn new(random: [u8; 5], counter: u32) -> IdSpace {
        IdSpace {
            era: AtomicU64::new(era(random, 0)),
            policy: AtomicU8::new(CapacityPolicy::Wait.to_byte()),
            step: AtomicU32::new(step_for(era(random, 0), counter)),
            window: AtomicU64::new(UNOPENED),
            counter: AtomicU64::new(untagged(counter)),
        }
    }

    /// The id space with this [`CapacityPolicy`] (the default is
    /// [`Wait`](CapacityPolicy::Wait)); `const`, for a `static`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{CapacityPolicy, IdSpace};
    /// static IDS: IdSpace = IdSpace::new([1; 5], 0).with_policy(CapacityPolicy::Rotate);
    /// assert_eq!(IDS.policy(), CapacityPolicy::Rotate);
    /// ```
    #[must_use]
    pub const fn with_policy(mut self, policy: CapacityPolicy) -> IdSpace {
        self.policy = AtomicU8::new(policy.to_byte());
        self
    }

    /// The [`CapacityPolicy`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{CapacityPolicy, IdSpace};
    /// assert_eq!(IdSpace::new([1; 5], 0).policy(), CapacityPolicy::Wait);
    /// ```
    pub fn policy(&self) -> CapacityPolicy {
        CapacityPolicy::from_byte(self.policy.load(Relaxed))
    }

    /// Sets the [`CapacityPolicy`]; reservations running meanwhile may still follow the old
    /// one (either keeps every id unique).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{CapacityPolicy, FixedClock, Generator};
    /// static GENERATOR: Generator<FixedClock> =
    ///     Generator::from_seed(FixedClock::at(7), [1; 5], 0);
    /// // A spent second now moves to a new random value instead of waiting for the next one.
    /// GENERATOR.ids().set_policy(CapacityPolicy::Rotate);
    /// assert_eq!(GENERATOR.ids().policy(), CapacityPolicy::Rotate);
    /// ```
    pub fn set_policy(&self, policy: CapacityPolicy) {
        self.policy.store(policy.to_byte(), Relaxed);
    }

    /// The current random value.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::IdSpace::new([7; 5], 0).random(), [7; 5]);
    /// ```
    #[inline]
    pub fn random(&self) -> [u8; 5] {
        era_random(self.era.load(Acquire))
    }

    /// Reserves up to `want` consecutive counter values of one second: all of them, or what
    /// the second has left when that is fewer (at least one). A `want` of 0 asks for one, and
    /// more than 2^24 for 2^24.
    // `reading` is the clock's second (wrapped to the 32-bit field), or `None` when the time
    // is unknown: then the newest second stamped (0 before the first). See the
    // [capacity rule](Self#the-capacity-rule) for which second the block carries.
    //
    // # Errors
    //
    // [`GenerateError`] of kind [`CapacityExhausted`](crate::ErrorKind::CapacityExhausted)
    // when the second the block would carry is spent and the [`CapacityPolicy`] says to wait:
    // under [`Wait`](CapacityPolicy::Wait) only when `reading` is that very second (a wait
    // for the next one ends within it; then call
    // [`reserve_after_wait`](Self::reserve_after_wait)), under
    // [`Fixed`](CapacityPolicy::Fixed) always. Nothing is used up.
    #[doc(hidden)]
    pub fn reserve(&self, reading: Option<u32>, want: u32) -> Result<IdBlock, GenerateError> {
        self.take(reading, want.clamp(1, CAPACITY), true, true)
            .map_err(|Spent| GenerateError::CAPACITY_EXHAUSTED)
    }

    /// [`reserve`](Self::reserve) for a caller that has already waited once in this call (one
    /// [`Clock::wait`](crate::Clock::wait), which ends at the clock's next second): under
    /// [`Wait`](CapacityPolicy::Wait) a spent second moves on to a new random value instead of
    /// an error, as [`Generator::next`](crate::Generator::next) does after its one wait. So no
    /// call waits longer than the rest of the second it found spent, whatever the clock does
    /// meanwhile (a step back during the wait brings the spent second back).
    // # Errors
    //
    // Under [`Fixed`](CapacityPolicy::Fixed) only, as `reserve`: the random value never
    // changes there, so the caller waits again.
    #[doc(hidden)]
    pub fn reserve_after_wait(
        &self,
        reading: Option<u32>,
        want: u32,
    ) -> Result<IdBlock, GenerateError> {
        self.take(reading, want.clamp(1, CAPACITY), true, false)
            .map_err(|Spent| GenerateError::CAPACITY_EXHAUSTED)
    }

    /// Reserves exactly `want` consecutive counter values of one second, or nothing.
    // # Errors
    //
    // [`GenerateError`] of kind [`CapacityExhausted`](crate::ErrorKind::CapacityExhausted)
    // when the second has fewer than `want` left and the [`CapacityPolicy`] says to wait, or
    // `want` is 0 or more than 2^24; nothing is used up.
    #[doc(hidden)]
    pub fn reserve_exact(&self, reading: Option<u32>, want: u32) -> Result<IdBlock, GenerateError> {
        if want == 0 || want > CAPACITY {
            return Err(GenerateError::CAPACITY_EXHAUSTED);
        }
        self.take(reading, want, false, true)
            .map_err(|Spent| GenerateError::CAPACITY_EXHAUSTED)
    }

    /// How many ids `second` has left: all 2^24 if it is later than the newest second stamped
    /// (or nothing was stamped yet), what is left if it is the newest, and 0 if it is earlier
    /// (a reservation then gets the newest second's ids, see the
    /// [capacity rule](Self#the-capacity-rule)). A snapshot: other threads may take ids
    /// meanwhile.
    #[doc(hidden)]
    pub fn left(&self, second: u32) -> u32 {
        let w = self.window.load(Acquire);
        let (secs, start) = halves(w);
        if w == UNOPENED || later(second, secs) {
            return CAPACITY;
        }
        if second != secs {
            return 0;
        }
        match uncounted(self.counter.load(Acquire)) {
            (Some(tag), next) if tag == secs => CAPACITY - distance(next, start).min(CAPACITY),
            // Opened, not yet re-tagged: nothing taken under this second.
            _ => CAPACITY,
        }
    }

    /// Moves to a new random value, safely while other threads take ids: a new id space that
    /// keeps the newest second and continues the counter where it stands (so the capacity of
    /// that second starts over). The way out of a state that may be shared with another
    /// process: a VM restored from a snapshot twice, a cloned container.
    ///
    /// `random` should be fresh from an entropy source (a value this id space used before
    /// could repeat ids). Returns the value it replaced.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator};
    /// let generator = Generator::from_seed(FixedClock::at(5), [1; 5], 0);
    /// generator.next();
    /// assert_eq!(generator.ids().rotate([2; 5]), [1; 5]); // e.g. in an after-restore hook
    /// let id = generator.next();
    /// assert_eq!((id.timestamp(), id.to_parts().random), (5, [2; 5]));
    /// ```
    pub fn rotate(&self, random: [u8; 5]) -> [u8; 5] {
        loop {
            let seen = self.era.load(Relaxed);
            if !reseeding(seen) && self.rotate_from(seen, era(random, 0) >> 24, None) {
                return era_random(seen);
            }
            spin_loop();
        }
    }

    /// The policy's change: from era `seen` to the next random value on the cycle, stamping
    /// `secs` from now on. One out-of-line copy for both callers in `take` (flash matters on
    /// the small targets).
    #[cold]
    #[inline(never)]
    fn move_on(&self, seen: u64, secs: u32) {
        let step = self.step.load(Relaxed);
        self.rotate_from(seen, next_random(seen >> 24, step), Some(secs));
    }

    /// Moves from era `seen` to `random` (see [`rotate`](Self::rotate)), stamping `secs` from
    /// now on (`None`: the newest second). Returns whether it did: `false` if the era is no
    /// longer `seen` (someone else changed it first).
    #[cold]
    pub(super) fn rotate_from(&self, seen: u64, random: u64, secs: Option<u32>) -> bool {
        if !self.mark(seen) {
            return false;
        }
        let w = self.window.load(Acquire);
        let secs = match (secs, w) {
            (Some(s), _) => Some(s),
            (None, UNOPENED) => None,
            (None, w) => Some(halves(w).0),
        };
        let mut c = self.counter.load(Relaxed);
        let value = loop {
            // One value skipped: the word changes even when the second does not, so a
            // reservation that read it before fails its swap and tries again in the new era
            // instead of taking values it would have to throw away.
            let value = uncounted(c).1.wrapping_add(1);
            let new = match secs {
                Some(s) => counted(s, value),
                None => c,
            };
            match self.counter.compare_exchange_weak(c, new, Release, Relaxed) {
                Ok(_) => break value,
                Err(now) => c = now,
            }
        };
        if let Some(s) = secs {
            // A release: a reservation that reads this window also sees the marked era.
            self.window.store(window(s, value), Release);
        }
        self.era.store(era_of(random, rotated_seq(seen)), Release);
        true
    }

    /// Replaces the random value and sets the counter: a new id space, so the window starts
    /// over (the next reservation opens one at its reading).
    ///
    /// Call it when nothing else takes ids from this id space (at startup, or in the child of a
    /// `fork`, which has one thread); [`rotate`](Self::rotate) is the change that may race
    /// other threads. Reservations that run meanwhile wait (spinning) for its few stores and
    /// throw away a value taken across the change rather than pair it with the other random
    /// value, but a counter set back can meet values taken before it.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator};
    /// let generator = Generator::from_seed(FixedClock::at(5), [0; 5], 0);
    /// generator.next();
    /// generator.ids().reseed([1; 5], 100); // e.g. in the child of a fork, before any thread
    /// let parts = generator.next().to_parts();
    /// assert_eq!((parts.random, parts.counter), ([1; 5], 100));
    /// ```
    pub fn reseed(&self, random: [u8; 5], counter: u32) {
        loop {
            let seen = self.era.load(Relaxed);

            if !reseeding(seen) && self.reseed_era(seen, random, counter) {
                return;
            }
            spin_loop();
        }
    }

    /// Reseeds from `entropy`: 5 bytes for the random value and 3 for the counter's start (see
    /// [`reseed`](Self::reseed), whose contract it shares).
    ///
    /// # Errors
    ///
    /// The entropy source's error; the id space is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Entropy, EntropyError, IdSpace};
    /// struct Sevens;
    /// impl Entropy for Sevens {
    ///     fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
    ///         dest.fill(7);
    ///         Ok(())
    ///     }
    /// }
    /// let ids = IdSpace::new([0; 5], 0);
    /// ids.reseed_from(&mut Sevens)?;
    /// assert_eq!(ids.random(), [7; 5]);
    /// # Ok::<(), EntropyError>(())
    /// ```
    pub fn reseed_from(&self, entropy: &mut impl Entropy) -> Result<(), EntropyError> {
        let (random, counter) = seed_from(entropy)?;
        self.reseed(random, counter);
        Ok(())
    }

    /// The write side of the sequence lock, shared by [`rotate_from`](Self::rotate_from) and
    /// [`reseed_era`](Self::reseed_era): moves the era from `seen` to the odd sequence
    /// number (false if it is no longer `seen`), then a release fence. A reader whose loads see
    /// any store made after it sees the odd number after its acquire fence and throws its
    /// values away; for `rotate_from` the fence also pairs with the acquire fence of a
    /// reservation whose read-modify-write of the counter comes after the change's (see
    /// `IdSpace`).
    #[inline(always)]
    fn mark(&self, seen: u64) -> bool {
        if self
            .era
            .compare_exchange(seen, next_seq(seen), Acquire, Relaxed)
            .is_err()
        {
            return false;
        }
        fence(Release);
        true
    }

    /// [`reseed`](Self::reseed), but only if the era is still `seen` (one reseed per spent
    /// era, however many callers found it spent). Returns whether it reseeded.
    pub(super) fn reseed_era(&self, seen: u64, random: [u8; 5], counter: u32) -> bool {
        if !self.mark(seen) {
            return false;
        }
        // The counter's store is also a release: a caller of the old era that reads the new
        // counter then reads the new window too, so its re-tag (which first checks that the
        // window it read is still there) never writes an old window's tag into the new era.
        self.window.store(UNOPENED, Relaxed);
        let e = era(random, reseeded_seq(seen));
        self.step.store(step_for(e, counter), Relaxed);
        self.counter.store(untagged(counter), Release);
        self.era.store(e, Release);
        true
    }

    /// Whether the era is still `seen` after the loads and swaps before this call (the read
    /// side of the sequence lock).
    #[inline(always)]
    fn unchanged(&self, seen: u64) -> bool {
        fence(Acquire);
        self.era.load(Relaxed) == seen
    }

    /// Whether values a reservation took under era `e` are its to keep: no reseed since (which
    /// sets the counter back, so its swap may have met a word of the new era). A rotation may
    /// have run: its swap of the counter comes after the reservation's (the reservation read
    /// the counter before the rotation's mark, and the rotation's swap changes the word), so
    /// the new era continues after the values.
    #[inline(always)]
    fn kept(&self, e: u64) -> bool {
        fence(Acquire);
        (self.era.load(Relaxed) ^ e) & RESEEDS == 0
    }

    /// `Generator::next`'s fast path: one value of second `now` if it is the window's second,
    /// the counter is tagged with it and not spent, and no reseed ran; `None` otherwise (the
    /// value is then wasted).
    ///
    /// `Relaxed` suffices for the window and the `fetch_add`: within one era a window with
    /// second `now` has one start (seconds are never reopened), so even a stale window read
    /// gives the right bound for its tag, and the `fetch_add` is ordered with every other
    /// change of the counter by the counter alone; the era check sets eras apart. The tag
    /// check keeps a caller preempted for a long time (while the counter went around 2^31)
    /// from taking a value under a window long gone.
    #[inline(always)]
    pub(super) fn take_one(&self, now: u32) -> Option<ObjectId> {
        let e = self.era.load(Acquire);
        let w = self.window.load(Relaxed);
        let (secs, start) = halves(w);
        if secs != now || w == UNOPENED || reseeding(e) {
            return None;
        }
        let c = self.counter.fetch_add(ONE, Relaxed);
        let value = (c >> 33) as u32;
        let ok = c & TAG_MASK == TAGGED | u64::from(now)
            && distance(value, start) < CAPACITY
            && self.unchanged(e);
        ok.then(|| ObjectId::from_parts(now, era_random(e), value))
    }

    /// Reserves `want` (1..=2^24) values: all, or with `partial` what the second has left (at
    /// least one). A spent second is [`Spent`] only under `Fixed`, or under `Wait` when the
    /// caller may still `wait` and the clock reads that very second; otherwise the id space
    /// moves on to a new random value.
    pub(super) fn take(
        &self,
        reading: Option<u32>,
        want: u32,
        partial: bool,
        wait: bool,
    ) -> Result<IdBlock, Spent> {
        debug_assert!((1..=CAPACITY).contains(&want));
        loop {
            let w = self.window.load(Acquire);
            let c = self.counter.load(Acquire);
            // The era after the window and the counter (the read side of the sequence lock):
            // unmarked, it is the era both belong to. A later change's swap of the counter
            // and store of the window come after its mark and are releases, so reading either
            // would show the mark here; an earlier change swapped the counter (one value on:
            // the word changed), so a word read before it cannot be swapped any more.
            let e = self.era.load(Acquire);
            if reseeding(e) {
                spin_loop();
                continue;
            }
            let (secs, start) = halves(w);
            let (tag, next) = uncounted(c);
            if w != UNOPENED && tag != Some(secs) {
                // Opened, not yet re-tagged; or the window moved on after `w` was read (then
                // its counter may carry a newer tag, which must never be tagged back).
                if self.window.load(Acquire) == w {
                    // Untagged (the first window of an era): nothing was ever handed out, so
                    // the counter goes back to the window's start (undoing `next`'s wasted
                    // increments). Tagged with an older window: it goes on where it stands.
                    let value = if tag.is_none() { start } else { next };
                    let _ = self
                        .counter
                        .compare_exchange(c, counted(secs, value), AcqRel, Acquire);
                }
                continue;
            }
            let policy = self.policy();
            // Whether the caller may wait for this window's second: it reads that very second.
            let mut here = false;
            if let Some(now) = reading {
                let back = secs.wrapping_sub(now);
                here = wait && back == 0;
                if w != UNOPENED
                    && policy != CapacityPolicy::Fixed
                    && back > CapacityPolicy::STEP_BACK_TOLERANCE
                    && !later(now, secs)
                {
                    // The clock stepped back: a new random value, at the clock's own second.
                    self.move_on(e, now);
                    continue;
                }
            }
            let open = match reading {
                Some(now) if w == UNOPENED || later(now, secs) => Some(now),
                None if w == UNOPENED => Some(0),
                // The same second, an earlier one (the clock stepped back), or no reading: the
                // newest second.
                _ => None,
            };
            if let Some(now) = open {
                self.open(w, c, now);
                continue;
            }
            // Under this tag the counter stays within [start, start + 2^24].
            let left = CAPACITY - distance(next, start).min(CAPACITY);
            let n = if left >= want {
                want
            } else if self.window.load(Acquire) != w {
                // A change of the random value moved the window on after it was read (the
                // counter read after it may be the new era's): look again, before cutting the
                // block or calling the second spent.
                continue;
            } else if partial && left > 0 {
                left
            } else {
                // Spent, and `reading` is this second, one at most the tolerance earlier, or
                // none (a later one opened a window, a step back moved to a new value above).
                // Wait only for the clock's own second, once per call (the caller's wait ends
                // at the clock's next second); in every other case (the clock reads an earlier
                // second, no second, or still this one after a wait) a new random value now.
                if policy == CapacityPolicy::Fixed || (policy == CapacityPolicy::Wait && here) {
                    return Err(Spent);
                }
                self.move_on(e, secs);
                continue;
            };
            if self
                .counter
                .compare_exchange(c, counted(secs, next.wrapping_add(n)), AcqRel, Acquire)
                .is_ok()
                && self.kept(e)
            {
                return Ok(IdBlock {
                    timestamp: secs,
                    random: era_random(e),
                    first: next,
                    len: n,
                });
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
            next = start.wrapping_add(distance(next, start).min(CAPACITY));
        }
        if self
            .window
            .compare_exchange(seen, window(secs, next), AcqRel, Acquire)
            .is_ok()
        {
            let _ = self
                .counter
                .compare_exchange(counter, counted(secs, next), AcqRel, Acquire);
        }
    }
}

impl fmt::Debug for IdSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The random value is deliberately not printed: it is the process's identity.
        f.debug_struct("IdSpace").finish_non_exhaustive()
    }
}
