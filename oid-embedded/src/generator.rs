//! A generator that lives in a `static`, is set up once at boot and is then shared by interrupt
//! handlers and the main loop.

use core::fmt;

use oid_core::{CapacityPolicy, Clock, Entropy, Generator, ObjectId};
use portable_atomic::{AtomicU8, Ordering};

use crate::Error;

const UNINIT: u8 = 0;
const INITIALIZING: u8 = 1;
const READY: u8 = 2;

/// An [`oid_core::Generator`] for a `static`: created `const` with its clock, seeded once at
/// boot ([`init`](Self::init) from an [`Entropy`] source, or
/// [`init_legacy`](Self::init_legacy) with an assigned device id), then used from any context.
///
/// Before it is seeded it generates nothing (kind
/// [`NotInitialized`](crate::ErrorKind::NotInitialized)), so no id ever carries an unseeded,
/// fleet-wide identical random value; before its clock is set, [`try_next`](Self::try_next)
/// fails with kind [`ClockUnavailable`](crate::ErrorKind::ClockUnavailable). After that, each id
/// costs a clock reading, two reads and one compare-and-swap of the generator's 64-bit state.
/// On 32-bit microcontrollers (none has 64-bit atomics) those go through short critical sections
/// with the `critical-section` feature and the implementation your binary picks (see the
/// crate docs' table per target).
///
/// # Examples
///
/// ```
/// use oid_embedded::{DeviceIdEntropy, ErrorKind, SharedGenerator, SyncedClock};
///
/// fn ticks() -> u64 { 0 } // your monotonic timer, here 1 kHz
/// static GENERATOR: SharedGenerator<SyncedClock<fn() -> u64, 1000>> =
///     SharedGenerator::new(SyncedClock::new(ticks));
///
/// // At boot:
/// let uid = [7u8; 12]; // the chip's unique id
/// GENERATOR.init(&mut DeviceIdEntropy::new(&uid, 1))?;
/// assert_eq!(GENERATOR.try_next().unwrap_err().kind(), ErrorKind::ClockUnavailable);
/// GENERATOR.clock().set_unix_time(1_700_000_000)?; // from the RTC
///
/// // Anywhere, interrupts included:
/// let id = GENERATOR.try_next()?;
/// assert_eq!(id.timestamp(), 1_700_000_000);
/// # Ok::<(), oid_embedded::Error>(())
/// ```
pub struct SharedGenerator<C: Clock> {
    generator: Generator<C>,
    state: AtomicU8,
    /// The policy the seeded generator gets (`init_legacy`: always `Fixed`).
    policy: CapacityPolicy,
}

impl<C: Clock> SharedGenerator<C> {
    /// A generator that is not seeded yet; `const`, for a `static`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::SharedGenerator;
    /// static GENERATOR: SharedGenerator<FixedClock> = SharedGenerator::new(FixedClock::UNSET);
    /// assert!(!GENERATOR.is_initialized());
    /// ```
    pub const fn new(clock: C) -> Self {
        SharedGenerator {
            generator: Generator::from_seed(clock, [0; 5], 0),
            state: AtomicU8::new(UNINIT),
            policy: CapacityPolicy::Wait,
        }
    }

    /// The generator with this [`CapacityPolicy`] (the default is
    /// [`Wait`](CapacityPolicy::Wait); the policy's docs say what each does).
    /// [`init_legacy`](Self::init_legacy) always uses
    /// [`Fixed`](CapacityPolicy::Fixed). `const`, for a `static`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{CapacityPolicy, FixedClock};
    /// use oid_embedded::SharedGenerator;
    /// static GENERATOR: SharedGenerator<FixedClock> =
    ///     SharedGenerator::new(FixedClock::at(1_700_000_000)).with_policy(CapacityPolicy::Rotate);
    /// GENERATOR.init_with_seed([1; 5], 0)?;
    /// assert_eq!(GENERATOR.generator()?.ids().policy(), CapacityPolicy::Rotate);
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    #[must_use]
    pub const fn with_policy(mut self, policy: CapacityPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Seeds the generator from `entropy` (5 bytes of random value, 3 for the counter's
    /// start): once per boot.
    ///
    /// # Errors
    ///
    /// Kind [`AlreadyInitialized`](crate::ErrorKind::AlreadyInitialized) if it was seeded
    /// before (or is being seeded by another context right now);
    /// [`EntropyFailed`](crate::ErrorKind::EntropyFailed) (with [`Error::entropy`]) if the source failed, in which case
    /// the generator stays unseeded and `init` may be tried again.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::{HardwareRng, SharedGenerator};
    /// let generator = SharedGenerator::new(FixedClock::at(0));
    /// generator.init(&mut HardwareRng::new(|b: &mut [u8]| b.fill(1)))?;
    /// assert!(generator.is_initialized());
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub fn init(&self, entropy: &mut impl Entropy) -> Result<(), Error> {
        self.claim()?;
        self.generator.ids().set_policy(self.policy);
        if let Err(e) = self.generator.ids().reseed_from(entropy) {
            self.state.store(UNINIT, Ordering::Release);
            return Err(e.into());
        }
        self.state.store(READY, Ordering::Release);
        Ok(())
    }

    /// Seeds the generator with a given random value and counter start: for a seed computed
    /// elsewhere, and for deterministic tests.
    ///
    /// # Errors
    ///
    /// Kind [`AlreadyInitialized`](crate::ErrorKind::AlreadyInitialized), as for [`init`](Self::init).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::SharedGenerator;
    /// let generator = SharedGenerator::new(FixedClock::at(1_700_000_000));
    /// generator.init_with_seed([0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345)?;
    /// assert_eq!(generator.try_next()?.to_hex(), "6553f1003f2a91c8d4003039");
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub fn init_with_seed(&self, random: [u8; 5], counter: u32) -> Result<(), Error> {
        self.claim()?;
        self.generator.ids().set_policy(self.policy);
        self.generator.ids().reseed(random, counter);
        self.state.store(READY, Ordering::Release);
        Ok(())
    }

    /// Seeds the generator in the legacy layout, the deterministic option: a 3-byte machine id
    /// (the low 24 bits of `machine`, assigned uniquely to each device) and a 2-byte process id
    /// (e.g. the low 16 bits of a boot counter) take the place of the random value.
    ///
    /// Ids of two devices can then never be equal, and ids of two boots of one device only if
    /// their boot counts are equal modulo 65,536 *and* their ids share a second and a counter.
    ///
    /// # Errors
    ///
    /// Kind [`AlreadyInitialized`](crate::ErrorKind::AlreadyInitialized), as for [`init`](Self::init).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::SharedGenerator;
    /// let generator = SharedGenerator::new(FixedClock::at(0x507f1f77));
    /// generator.init_legacy(0xbcf86c, 0xd799, 0x439011)?;
    /// let id = generator.try_next()?;
    /// assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
    /// assert_eq!(id.to_legacy_parts().machine, 0xbcf86c);
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub fn init_legacy(&self, machine: u32, process_id: u16, counter: u32) -> Result<(), Error> {
        let random = ObjectId::from_legacy_parts(0, machine, process_id, 0)
            .to_parts()
            .random;
        self.claim()?;
        // The machine and process ids must never be replaced by a new random value.
        self.generator.ids().set_policy(CapacityPolicy::Fixed);
        self.generator.ids().reseed(random, counter);
        self.state.store(READY, Ordering::Release);
        Ok(())
    }

    fn claim(&self) -> Result<(), Error> {
        self.state
            .compare_exchange(UNINIT, INITIALIZING, Ordering::Acquire, Ordering::Relaxed)
            .map(|_| ())
            .map_err(|_| Error::ALREADY_INITIALIZED)
    }

    /// Whether the generator has been seeded.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::SharedGenerator;
    /// let generator = SharedGenerator::new(FixedClock::at(0));
    /// assert!(!generator.is_initialized());
    /// generator.init_with_seed([1; 5], 0)?;
    /// assert!(generator.is_initialized());
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    #[inline]
    pub fn is_initialized(&self) -> bool {
        self.state.load(Ordering::Acquire) == READY
    }

    /// The seeded [`Generator`], for everything it offers (`next`, `fill`, `random`, ...).
    ///
    /// # Errors
    ///
    /// Kind [`NotInitialized`](crate::ErrorKind::NotInitialized) before the generator is seeded.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, ObjectId};
    /// use oid_embedded::SharedGenerator;
    /// let generator = SharedGenerator::new(FixedClock::at(1_700_000_000));
    /// generator.init_with_seed([1; 5], 0xfffffe)?;
    /// let mut batch = [ObjectId::MIN; 3];
    /// generator.generator()?.fill(&mut batch);
    /// assert_eq!(batch[2].to_parts().counter, 0); // wrapped
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    #[inline]
    pub fn generator(&self) -> Result<&Generator<C>, Error> {
        if self.is_initialized() {
            Ok(&self.generator)
        } else {
            Err(Error::NOT_INITIALIZED)
        }
    }

    /// The next id.
    ///
    /// # Errors
    ///
    /// Kind [`NotInitialized`](crate::ErrorKind::NotInitialized) before the generator is
    /// seeded; [`ClockUnavailable`](crate::ErrorKind::ClockUnavailable) while the clock does
    /// not know the time; [`CapacityExhausted`](crate::ErrorKind::CapacityExhausted) when this
    /// second's ids are spent (a later second gives more). A failed call uses up no
    /// counter value.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::FixedClock;
    /// use oid_embedded::{ErrorKind, SharedGenerator};
    /// let generator = SharedGenerator::new(FixedClock::UNSET);
    /// assert_eq!(generator.try_next().unwrap_err().kind(), ErrorKind::NotInitialized);
    /// generator.init_with_seed([1; 5], 0)?;
    /// let err = generator.try_next().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::ClockUnavailable);
    /// assert_eq!(err.to_string(), "clock time not available");
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    #[inline]
    pub fn try_next(&self) -> Result<ObjectId, Error> {
        Ok(self.generator()?.try_next()?)
    }

    /// Fills `out` with consecutive ids (one clock read, one counter reservation).
    ///
    /// # Errors
    ///
    /// As for [`try_next`](Self::try_next); `out` is left untouched then.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, ObjectId};
    /// use oid_embedded::SharedGenerator;
    /// let generator = SharedGenerator::new(FixedClock::at(1_700_000_000));
    /// generator.init_with_seed([1; 5], 10)?;
    /// let mut ids = [ObjectId::MIN; 4];
    /// generator.try_fill(&mut ids)?;
    /// assert_eq!(ids[3].to_parts().counter, 13);
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub fn try_fill(&self, out: &mut [ObjectId]) -> Result<(), Error> {
        Ok(self.generator()?.try_fill(out)?)
    }

    /// The clock, e.g. to set a [`SyncedClock`](crate::SyncedClock).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{Clock, SharedGenerator, SyncedClock};
    /// fn ticks() -> u64 { 0 }
    /// static GENERATOR: SharedGenerator<SyncedClock<fn() -> u64, 1000>> =
    ///     SharedGenerator::new(SyncedClock::new(ticks));
    /// GENERATOR.clock().set_unix_time(1_700_000_000)?;
    /// assert_eq!(GENERATOR.clock().unix_seconds(), Some(1_700_000_000));
    /// # Ok::<(), oid_embedded::Error>(())
    /// ```
    pub const fn clock(&self) -> &C {
        self.generator.clock()
    }
}

impl<C: Clock + fmt::Debug> fmt::Debug for SharedGenerator<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The seed is deliberately not printed (as in oid-core).
        f.debug_struct("SharedGenerator")
            .field("clock", self.clock())
            .field("initialized", &self.is_initialized())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeviceIdEntropy, ErrorKind, SyncedClock};
    use oid_core::{EntropyError, FixedClock};
    use std::collections::HashSet;
    use std::string::ToString;
    use std::sync::atomic::AtomicU64;
    use std::vec::Vec;

    struct Failing;
    impl Entropy for Failing {
        fn fill(&mut self, _: &mut [u8]) -> Result<(), EntropyError> {
            Err(EntropyError::new("rng not ready"))
        }
    }

    #[test]
    fn a_clock_set_back_keeps_the_legacy_bytes_and_moves_a_random_value_on() {
        let clock = oid_core::ManualClock::at(10_000);
        let legacy = SharedGenerator::new(&clock);
        legacy.init_legacy(0xbcf86c, 0xd799, 5).unwrap();
        let seeded = SharedGenerator::new(&clock);
        seeded.init_with_seed([1; 5], 5).unwrap();
        let first = (legacy.try_next().unwrap(), seeded.try_next().unwrap());
        clock.set(10_000 - 3_600); // the RTC set back an hour
        let (l, r) = (legacy.try_next().unwrap(), seeded.try_next().unwrap());
        // Legacy: the machine and process ids stay, and so does the newest second.
        assert_eq!(l.to_legacy_parts().machine, 0xbcf86c);
        assert_eq!(l.to_legacy_parts().process_id, 0xd799);
        assert_eq!((l.timestamp(), l.to_parts().counter), (10_000, 6));
        assert_ne!(l, first.0);
        // Random layout: a new random value at the clock's second.
        assert_eq!(r.timestamp(), 10_000 - 3_600);
        assert_ne!(r.to_parts().random, [1; 5]);
        assert_eq!(
            legacy.generator().unwrap().ids().policy(),
            CapacityPolicy::Fixed
        );
    }

    #[test]
    fn nothing_before_init_then_exactly_one_init() {
        let g = SharedGenerator::new(FixedClock::at(1));
        assert!(g.try_next().unwrap_err().kind() == ErrorKind::NotInitialized);
        assert!(g.try_fill(&mut [ObjectId::MIN]).unwrap_err().kind() == ErrorKind::NotInitialized);
        assert!(g.generator().is_err());
        g.init(&mut DeviceIdEntropy::new(b"id", 1)).unwrap();
        let seeded = g.generator().unwrap().ids().random();
        assert!(
            g.init(&mut DeviceIdEntropy::new(b"id", 2))
                .unwrap_err()
                .kind()
                == ErrorKind::AlreadyInitialized
        );
        assert!(g.init_with_seed([0; 5], 0).unwrap_err().kind() == ErrorKind::AlreadyInitialized);
        assert!(g.init_legacy(1, 2, 3).unwrap_err().kind() == ErrorKind::AlreadyInitialized);
        assert_eq!(g.try_next().unwrap().to_parts().random, seeded);
    }

    #[test]
    fn failed_entropy_leaves_it_unseeded_and_retryable() {
        let g = SharedGenerator::new(FixedClock::at(1));
        let err = g.init(&mut Failing).unwrap_err();
        assert_eq!(err.entropy(), Some(EntropyError::new("rng not ready")));
        assert!(!g.is_initialized());
        assert!(g.try_next().unwrap_err().kind() == ErrorKind::NotInitialized);
        g.init_with_seed([5; 5], 9).unwrap();
        assert_eq!(g.try_next().unwrap().to_parts().counter, 9);
    }

    #[test]
    fn time_not_set_until_the_clock_is_set_and_no_counter_is_lost() {
        static TICKS: AtomicU64 = AtomicU64::new(0);
        fn ticks() -> u64 {
            TICKS.load(std::sync::atomic::Ordering::Relaxed)
        }
        static G: SharedGenerator<SyncedClock<fn() -> u64, 10>> =
            SharedGenerator::new(SyncedClock::new(ticks));
        G.init_with_seed([1, 2, 3, 4, 5], 0xffffff).unwrap();
        let err = G.try_next().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ClockUnavailable);
        assert_eq!(err.to_string(), "clock time not available");
        let mut batch = [ObjectId::MIN; 2];
        assert!(G.try_fill(&mut batch).unwrap_err().kind() == ErrorKind::ClockUnavailable);
        assert_eq!(batch, [ObjectId::MIN; 2]);

        G.clock().set_unix_time(1_700_000_000).unwrap();
        let first = G.try_next().unwrap().to_parts();
        assert_eq!((first.timestamp, first.counter), (1_700_000_000, 0xffffff));
        TICKS.store(25, std::sync::atomic::Ordering::Relaxed); // 2.5 s at 10 Hz
        G.try_fill(&mut batch).unwrap();
        let p: Vec<_> = batch.iter().map(|id| id.to_parts()).collect();
        assert_eq!((p[0].timestamp, p[0].counter), (1_700_000_002, 0));
        assert_eq!((p[1].timestamp, p[1].counter), (1_700_000_002, 1));

        G.clock().unset().unwrap();
        assert!(G.try_next().unwrap_err().kind() == ErrorKind::ClockUnavailable);
    }

    /// A second holds 2^24 ids: the next one is refused with `CapacityExhausted` (not mistaken
    /// for an unset clock), and the following second serves again.
    #[test]
    #[cfg_attr(miri, ignore = "2^24 ids")]
    fn capacity_exhausted_is_its_own_kind() {
        static TICKS: AtomicU64 = AtomicU64::new(0);
        fn ticks() -> u64 {
            TICKS.load(std::sync::atomic::Ordering::Relaxed)
        }
        let g: SharedGenerator<SyncedClock<fn() -> u64, 1>> =
            SharedGenerator::new(SyncedClock::new(ticks));
        g.init_with_seed([9; 5], 0).unwrap();
        g.clock().set_unix_time(1_700_000_000).unwrap();
        let mut chunk = std::vec![ObjectId::MIN; 1 << 16];
        for _ in 0..(1 << 8) {
            g.try_fill(&mut chunk).unwrap();
        }
        assert_eq!(chunk[(1 << 16) - 1].to_parts().counter, 0xffffff);
        let err = g.try_next().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CapacityExhausted);
        assert_eq!(err.to_string(), "counter exhausted for this second");
        TICKS.store(1, std::sync::atomic::Ordering::Relaxed);
        let id = g.try_next().unwrap().to_parts();
        assert_eq!((id.timestamp, id.counter), (1_700_000_001, 0));
    }

    /// The infallible `next` waits (through `SyncedClock::wait`) for the tick source to reach
    /// the next second instead of repeating a counter. Here every tick read advances the tick.
    #[test]
    #[cfg_attr(miri, ignore = "2^24 ids")]
    fn next_waits_for_the_next_second_when_spent() {
        struct Counting(AtomicU64);
        impl crate::TickSource for Counting {
            fn ticks(&self) -> u64 {
                self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            }
        }
        let ticks = Counting(AtomicU64::new(0));
        let g: SharedGenerator<SyncedClock<&Counting, 1000>> =
            SharedGenerator::new(SyncedClock::new(&ticks));
        g.init_with_seed([9; 5], 5).unwrap();
        g.clock().set_unix_time(1_700_000_000).unwrap();
        let mut chunk = std::vec![ObjectId::MIN; 1 << 16];
        for _ in 0..(1 << 8) {
            g.try_fill(&mut chunk).unwrap();
        }
        assert!(ticks.0.load(std::sync::atomic::Ordering::Relaxed) < 1000);
        assert_eq!(
            g.try_next().unwrap_err().kind(),
            ErrorKind::CapacityExhausted
        );
        let id = g.generator().unwrap().next().to_parts();
        assert_eq!((id.timestamp, id.counter), (1_700_000_001, 5));
        assert!(ticks.0.load(std::sync::atomic::Ordering::Relaxed) >= 1000);
    }

    #[test]
    fn legacy_layout_is_deterministic() {
        let a = SharedGenerator::new(FixedClock::at(0x507f1f77));
        a.init_legacy(0xff_bcf86c, 0xd799, 0x439011).unwrap();
        assert_eq!(a.try_next().unwrap().to_hex(), "507f1f77bcf86cd799439011");
        let b = SharedGenerator::new(FixedClock::at(0x507f1f77));
        b.init_legacy(0xbcf86d, 0xd799, 0x439011).unwrap();
        assert_ne!(a.try_next().unwrap(), b.try_next().unwrap());
    }

    #[test]
    fn debug_does_not_print_the_seed() {
        let g = SharedGenerator::new(FixedClock::at(3));
        g.init_with_seed([0xab; 5], 0).unwrap();
        assert_eq!(
            std::format!("{g:?}"),
            "SharedGenerator { clock: FixedClock(Some(3)), initialized: true, .. }"
        );
    }

    /// Threads stand in for interrupt handlers: several contexts race to init (exactly one
    /// wins), then all generate; no id repeats and every counter value is used once.
    #[test]
    fn racing_inits_and_shared_generation() {
        const THREADS: u32 = 4;
        const PER: u32 = if cfg!(miri) { 100 } else { 50_000 };
        let g = SharedGenerator::new(FixedClock::at(1_700_000_000));
        let wins: u32 = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    let g = &g;
                    s.spawn(move || {
                        let won = g.init_with_seed([t as u8; 5], 0).is_ok();
                        while !g.is_initialized() {
                            std::hint::spin_loop();
                        }
                        let ids: Vec<ObjectId> = (0..PER).map(|_| g.try_next().unwrap()).collect();
                        (u32::from(won), ids)
                    })
                })
                .collect();
            let mut all = HashSet::new();
            let mut wins = 0;
            for h in handles {
                let (won, ids) = h.join().unwrap();
                wins += won;
                for id in ids {
                    assert!(all.insert(id));
                }
            }
            let counters: HashSet<u32> = all.iter().map(|id| id.to_parts().counter).collect();
            assert_eq!(counters, (0..THREADS * PER).collect());
            let randoms: HashSet<[u8; 5]> = all.iter().map(|id| id.to_parts().random).collect();
            assert_eq!(randoms.len(), 1, "one seed for everyone");
            wins
        });
        assert_eq!(wins, 1);
    }
}
