//! The lock-free generator: a [`Clock`] and an [`IdSpace`] (a random value, its counter and the
//! capacity rule that keeps every id unique; see [`IdSpace`] for the rule and how it is kept).

mod policy;
mod space;
mod words;

use core::fmt;

use crate::entropy::seed_from;
use crate::id::legacy_random;
use crate::{Clock, Entropy, EntropyError, GenerateError, ObjectId};

pub use self::policy::CapacityPolicy;
use self::space::{CAPACITY, Spent};
pub use self::space::{IdBlock, IdSpace};

/// Generates ObjectIds from a [`Clock`] and a seed: the 5-byte random value and the counter's
/// start.
///
/// * **Never a duplicate.** At most [`IdSpace::CAPACITY`] ids per second and random value
///   (the counter's range; the rule is [`IdSpace`]'s). When a second's capacity is spent, the [`CapacityPolicy`] decides: by default
///   ([`Wait`](CapacityPolicy::Wait)) [`try_next`](Self::try_next) and
///   [`try_fill`](Self::try_fill) return an error of kind
///   [`CapacityExhausted`](crate::ErrorKind::CapacityExhausted) and use up nothing, while
///   [`next`](Self::next) and [`fill`](Self::fill) wait once (one [`Clock::wait`], which ends
///   at the clock's next second), and move on to a new random value if the clock reads an
///   earlier second or still the spent one: no call waits longer than the rest of a second; with
///   [`Rotate`](CapacityPolicy::Rotate) the generator moves to a new random value and goes on
///   at once (sustained generation at the machine's speed).
/// * **Clock steps.** A clock stepping back by up to
///   [`STEP_BACK_TOLERANCE`](CapacityPolicy::STEP_BACK_TOLERANCE) seconds keeps the newest
///   second stamped (timestamps stay monotonic); a larger step back (the correction after a
///   forward glitch, a VM resumed with a stale clock) moves to a new random value at the
///   clock's own second, so ids carry the real time again and nothing waits for the clock to
///   catch up. ([`Fixed`](CapacityPolicy::Fixed) keeps one random value whatever happens and
///   waits instead.) When the clock does not know the time, ids carry the newest second
///   stamped (0 before the first reading).
///   "Later" is the field's serial-number arithmetic: after `0xFFFFFFFF`
///   (2106-02-07T06:28:15Z) the timestamp wraps to 0, and every second keeps its 2^24 ids (see
///   [`IdSpace`]).
/// * `&self` methods and `Sync`: share one generator between threads or interrupt handlers;
///   `from_seed` is a `const fn`, so it can be a `static`.
/// * Lock-free where the target has 64-bit atomics (an [`IdSpace::reseed`] makes others
///   wait for its few stores): below the capacity, [`next`](Self::next) costs three loads and
///   one `fetch_add`, and the other methods four loads and one compare-and-swap of 64-bit
///   words. With the `portable-atomic` feature the
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
    /// The random value, the counter and the capacity window.
    ids: IdSpace,
}

impl<C: Clock> Generator<C> {
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
    #[cfg(not(all(test, loom)))]
    pub const fn from_seed(clock: C, random: [u8; 5], counter: u32) -> Self {
        Generator {
            clock,
            ids: IdSpace::new(random, counter),
        }
    }

    /// A generator with a given random value and counter start (not `const` in the crate's
    /// own loom models, whose atomics cannot be made in a constant).
    #[cfg(all(test, loom))]
    pub fn from_seed(clock: C, random: [u8; 5], counter: u32) -> Self {
        Generator {
            clock,
            ids: IdSpace::new(random, counter),
        }
    }

    /// A generator in the legacy layout of older drivers: a 3-byte machine id (low 24 bits of
    /// `machine`) and a 2-byte process id take the place of the random value, so its
    /// [`CapacityPolicy`] is [`Fixed`](CapacityPolicy::Fixed): those bytes never change.
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
    #[cfg(not(all(test, loom)))]
    pub const fn from_legacy(clock: C, machine: u32, process_id: u16, counter: u32) -> Self {
        Self::from_ids(
            clock,
            IdSpace::new(legacy_random(machine, process_id), counter)
                .with_policy(CapacityPolicy::Fixed),
        )
    }

    /// A generator in the legacy layout (not `const` in the crate's own loom models).
    #[cfg(all(test, loom))]
    pub fn from_legacy(clock: C, machine: u32, process_id: u16, counter: u32) -> Self {
        Self::from_ids(
            clock,
            IdSpace::new(legacy_random(machine, process_id), counter)
                .with_policy(CapacityPolicy::Fixed),
        )
    }

    /// A generator handing out ids from `ids` (set its [`CapacityPolicy`] there, with
    /// [`IdSpace::with_policy`]); `const`, for a `static`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{CapacityPolicy, FixedClock, Generator, IdSpace};
    ///
    /// static MOCK_DATA: Generator<FixedClock> = Generator::from_ids(
    ///     FixedClock::at(1_700_000_000),
    ///     IdSpace::new([7; 5], 0).with_policy(CapacityPolicy::Rotate),
    /// );
    ///
    /// let mut ids = vec![oid_core::ObjectId::MIN; (1 << 24) + 10];
    /// MOCK_DATA.fill(&mut ids); // more than a second holds: no wait, a second random value
    /// assert_eq!(ids[0].timestamp(), ids[1 << 24].timestamp());
    /// assert_ne!(ids[0].to_parts().random, ids[1 << 24].to_parts().random);
    /// ```
    pub const fn from_ids(clock: C, ids: IdSpace) -> Self {
        Generator { clock, ids }
    }

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

    /// The id space this generator hands out ids from: its random value
    /// ([`IdSpace::random`]), its [`CapacityPolicy`] ([`IdSpace::policy`],
    /// [`IdSpace::set_policy`]) and reseeding ([`IdSpace::reseed`], [`IdSpace::reseed_from`],
    /// [`IdSpace::rotate`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{CapacityPolicy, FixedClock, Generator};
    /// let generator = Generator::from_seed(FixedClock::at(9), [0; 5], 0);
    /// generator.ids().set_policy(CapacityPolicy::Rotate);
    /// assert_eq!(generator.ids().policy(), CapacityPolicy::Rotate);
    /// assert_eq!(generator.ids().random(), [0; 5]);
    /// ```
    pub const fn ids(&self) -> &IdSpace {
        &self.ids
    }

    /// The clock's reading, wrapped to the 32-bit field.
    #[inline]
    fn read(&self) -> Option<u32> {
        // Wraps modulo 2^32, as the timestamp field does.
        self.clock.unix_seconds().map(|secs| secs as u32)
    }

    /// The next id, never failing and never a repeat.
    ///
    /// * When this second's ids are spent and the clock reads it, it waits once (one
    ///   [`Clock::wait`], which should end at the clock's next second); if the clock then reads
    ///   a later second, the id comes from it, otherwise (and at once when the clock reads an
    ///   earlier second, or under [`CapacityPolicy::Rotate`]) from a new random value. Under
    ///   [`CapacityPolicy::Fixed`] it waits until the clock reads a later second, with a clock
    ///   that never moves forever.
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
        match reading.and_then(|now| self.ids.take_one(now)) {
            Some(id) => id,
            None => self.next_slow(reading),
        }
    }

    /// [`next`](Self::next) when its fast path did not take a value: a new second, a spent
    /// one, no reading, or a race with an opener.
    #[cold]
    #[inline(never)]
    fn next_slow(&self, mut reading: Option<u32>) -> ObjectId {
        let mut wait = true;
        loop {
            match self.ids.take(reading, 1, false, wait) {
                Ok(block) => return block.first_id(),
                Err(Spent) => {
                    self.clock.wait();
                    wait = false;
                    reading = self.read();
                }
            }
        }
    }

    /// The next id, or an error: when the clock does not know the time, or when this second's
    /// ids are spent and the [`CapacityPolicy`] is to wait. A failed call uses up
    /// nothing.
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
        match self.ids.take(Some(secs), 1, false, true) {
            Ok(block) => Ok(block.first_id()),
            Err(Spent) => Err(GenerateError::CAPACITY_EXHAUSTED),
        }
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
        let mut wait = true;
        while !rest.is_empty() {
            let want = u32::try_from(rest.len()).map_or(CAPACITY, |n| n.min(CAPACITY));
            match self.ids.take(self.read(), want, true, wait) {
                Ok(block) => {
                    let n = block.write(rest);
                    rest = &mut rest[n..];
                }
                Err(Spent) => {
                    self.clock.wait();
                    wait = false;
                }
            }
        }
    }

    /// Like [`fill`](Self::fill), but all of `out` comes from the current second, or nothing
    /// is filled and nothing is used up: when the clock does not know the time, or when the
    /// second has fewer than `out.len()` ids left (so a batch of more than
    /// [`IdSpace::CAPACITY`] always fails).
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
        let block = self
            .ids
            .take(Some(secs), want, false, true)
            .map_err(|Spent| GenerateError::CAPACITY_EXHAUSTED)?;
        block.write(out);
        Ok(())
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

#[cfg(all(test, loom))]
mod loom_tests;
#[cfg(all(test, not(loom)))]
mod tests;
