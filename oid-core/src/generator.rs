//! Id generation with an injectable clock and entropy source.
//!
//! The generator is lock-free: one relaxed `fetch_add` on a 32-bit atomic per id (or per batch
//! with [`Generator::fill`]). Its state is the 5-byte random value and the counter, both
//! seeded once, exactly as the MongoDB ObjectId specification describes.

use core::fmt;

use crate::ObjectId;

#[cfg(feature = "portable-atomic")]
use portable_atomic as atomic;

#[cfg(not(feature = "portable-atomic"))]
use core::sync::atomic;

/// A source of wall-clock time.
///
/// The generator reads it once per id (once per batch for [`Generator::fill`]).
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
}

impl<T: Clock + ?Sized> Clock for &T {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        (**self).unix_seconds()
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
#[cfg(target_has_atomic = "64")]
pub struct ManualClock {
    // u64::MAX means "unset"; a set time of u64::MAX is stored as u64::MAX - 1... never happens
    // in practice, see `set`.
    secs: core::sync::atomic::AtomicU64,
}

#[cfg(target_has_atomic = "64")]
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

#[cfg(target_has_atomic = "64")]
impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(target_has_atomic = "64")]
impl Clock for ManualClock {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        let s = self.secs.load(core::sync::atomic::Ordering::Relaxed);
        (s != Self::UNSET).then_some(s)
    }
}

#[cfg(target_has_atomic = "64")]
impl fmt::Debug for ManualClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ManualClock")
            .field(&self.unix_seconds())
            .finish()
    }
}

/// A source of random bytes, used only to seed a generator (the 5-byte random value and the
/// counter's random start).
///
/// # Examples
///
/// ```
/// use oid_core::{Entropy, EntropyError};
///
/// struct Hwrng;
/// impl Entropy for Hwrng {
///     fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
///         dest.fill(0x42); // read the peripheral here
///         Ok(())
///     }
/// }
/// let mut buf = [0u8; 4];
/// Hwrng.fill(&mut buf)?;
/// assert_eq!(buf, [0x42; 4]);
/// # Ok::<(), EntropyError>(())
/// ```
pub trait Entropy {
    /// Fills `dest` with random bytes.
    ///
    /// # Errors
    ///
    /// An [`EntropyError`] when the source cannot deliver.
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError>;
}

impl<T: Entropy + ?Sized> Entropy for &mut T {
    #[inline]
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
        (**self).fill(dest)
    }
}

/// An entropy source failed.
///
/// # Examples
///
/// ```
/// use oid_core::EntropyError;
/// let err = EntropyError::new("rng peripheral not ready");
/// assert_eq!(err.to_string(), "entropy source failed: rng peripheral not ready");
/// let err = EntropyError::with_code("getrandom", 11);
/// assert_eq!(err.code(), Some(11));
/// assert_eq!(err.to_string(), "entropy source failed: getrandom (code 11)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EntropyError {
    reason: &'static str,
    code: Option<i32>,
}

impl EntropyError {
    /// An error with a short lowercase reason.
    ///
    /// # Examples
    ///
    /// ```
    /// let err = oid_core::EntropyError::new("rng not ready");
    /// assert_eq!(err.reason(), "rng not ready");
    /// ```
    pub const fn new(reason: &'static str) -> EntropyError {
        EntropyError { reason, code: None }
    }

    /// An error with a reason and a numeric code from the underlying source (an `errno`, a
    /// driver status).
    ///
    /// # Examples
    ///
    /// ```
    /// let err = oid_core::EntropyError::with_code("getrandom", 5);
    /// assert_eq!((err.reason(), err.code()), ("getrandom", Some(5)));
    /// ```
    pub const fn with_code(reason: &'static str, code: i32) -> EntropyError {
        EntropyError {
            reason,
            code: Some(code),
        }
    }

    /// The reason given by the source.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::EntropyError::new("busy").reason(), "busy");
    /// ```
    pub const fn reason(&self) -> &'static str {
        self.reason
    }

    /// The source's numeric code, if it gave one.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::EntropyError::new("busy").code(), None);
    /// ```
    pub const fn code(&self) -> Option<i32> {
        self.code
    }
}

impl fmt::Display for EntropyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entropy source failed: {}", self.reason)?;
        if let Some(code) = self.code {
            write!(f, " (code {code})")?;
        }
        Ok(())
    }
}

impl core::error::Error for EntropyError {}

#[cfg(feature = "defmt")]
impl defmt::Format for EntropyError {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "entropy source failed: {=str}", self.reason)
    }
}

/// An id could not be generated.
///
/// # Examples
///
/// ```
/// use oid_core::{FixedClock, Generator};
/// let generator = Generator::from_seed(FixedClock::UNSET, [0; 5], 0);
/// let err = generator.try_next().unwrap_err();
/// assert_eq!(err.to_string(), "clock time not available");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenerateError(GenerateErrorKind);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum GenerateErrorKind {
    ClockUnavailable,
}

impl GenerateError {
    /// The error for a clock that does not know the time. Clock adapters that wrap a
    /// generator may return it too.
    pub const CLOCK_UNAVAILABLE: GenerateError = GenerateError(GenerateErrorKind::ClockUnavailable);

    /// Whether the clock did not know the time (the only cause today; the type stays opaque
    /// so that others can be added).
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(oid_core::GenerateError::CLOCK_UNAVAILABLE.is_clock_unavailable());
    /// ```
    pub const fn is_clock_unavailable(&self) -> bool {
        matches!(self.0, GenerateErrorKind::ClockUnavailable)
    }
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            GenerateErrorKind::ClockUnavailable => f.write_str("clock time not available"),
        }
    }
}

impl core::error::Error for GenerateError {}

#[cfg(feature = "defmt")]
impl defmt::Format for GenerateError {
    fn format(&self, f: defmt::Formatter<'_>) {
        match self.0 {
            GenerateErrorKind::ClockUnavailable => defmt::write!(f, "clock time not available"),
        }
    }
}

/// Generates ObjectIds from a [`Clock`] and a seed: the 5-byte random value and the counter's
/// start.
///
/// * `&self` methods and `Sync`: share one generator between threads or interrupt handlers;
///   `from_seed` is a `const fn`, so it can be a `static`.
/// * Lock-free: each id costs one relaxed `fetch_add` on a 32-bit atomic. With the
///   `portable-atomic` feature the atomics come from `portable-atomic`, so targets without
///   compare-and-swap (thumbv6m) work once the final binary enables its `critical-section`
///   (or single-core) support. Without that feature the generator exists only on targets with
///   native 32-bit compare-and-swap.
/// * Spec-exact: the first id carries the seeded counter, each next one +1, and `0xFFFFFF` is
///   followed by `0x000000`. Clock readings wrap modulo 2^32.
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
#[cfg(any(feature = "portable-atomic", target_has_atomic = "32"))]
pub struct Generator<C: Clock> {
    clock: C,
    /// The next counter value; only its low 24 bits are used, so the natural wrap of the
    /// 32-bit atomic (a multiple of 2^24) is also the spec's wrap.
    counter: atomic::AtomicU32,
    /// Random bytes 0..4, big-endian.
    random_hi: atomic::AtomicU32,
    /// Random byte 4.
    random_lo: atomic::AtomicU32,
    /// The last good clock reading (wrapped to 32 bits), used by `next` when the clock fails.
    last_secs: atomic::AtomicU32,
}

#[cfg(any(feature = "portable-atomic", target_has_atomic = "32"))]
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
    pub const fn from_seed(clock: C, random: [u8; 5], counter: u32) -> Self {
        Generator {
            clock,
            counter: atomic::AtomicU32::new(counter),
            random_hi: atomic::AtomicU32::new(u32::from_be_bytes([
                random[0], random[1], random[2], random[3],
            ])),
            random_lo: atomic::AtomicU32::new(random[4] as u32),
            last_secs: atomic::AtomicU32::new(0),
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
    pub const fn from_legacy(clock: C, machine: u32, process_id: u16, counter: u32) -> Self {
        let m = machine.to_be_bytes();
        let p = process_id.to_be_bytes();
        Self::from_seed(clock, [m[1], m[2], m[3], p[0], p[1]], counter)
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

    /// Replaces the random value and the counter (e.g. in a child process after `fork`).
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
        use atomic::Ordering::Relaxed;
        self.random_hi.store(
            u32::from_be_bytes([random[0], random[1], random[2], random[3]]),
            Relaxed,
        );
        self.random_lo.store(u32::from(random[4]), Relaxed);
        self.counter.store(counter, Relaxed);
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

    /// Reads the clock; on success remembers the reading for `next`.
    #[inline]
    fn read_clock(&self) -> Option<u32> {
        let secs = self.clock.unix_seconds()? as u32; // wraps modulo 2^32, as the field does
        // Write only when the second changes, so threads do not bounce this cache line.
        if self.last_secs.load(atomic::Ordering::Relaxed) != secs {
            self.last_secs.store(secs, atomic::Ordering::Relaxed);
        }
        Some(secs)
    }

    #[inline]
    fn secs_or_last(&self) -> u32 {
        match self.read_clock() {
            Some(secs) => secs,
            None => self.last_secs.load(atomic::Ordering::Relaxed),
        }
    }

    /// The next id, never failing: when the clock answers `None`, the last good reading is
    /// used (0, i.e. 1970-01-01, if there never was one). Use [`try_next`](Self::try_next) to
    /// see the failure instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Generator, ManualClock};
    /// let clock = ManualClock::at(1_700_000_000);
    /// let generator = Generator::from_seed(&clock, [0; 5], 0);
    /// assert_eq!(generator.next().timestamp(), 1_700_000_000);
    /// clock.unset();
    /// assert_eq!(generator.next().timestamp(), 1_700_000_000); // the last good reading
    /// ```
    #[inline]
    #[allow(clippy::should_implement_trait)] // `Iterator::next` takes `&mut self`; this is `&self`.
    pub fn next(&self) -> ObjectId {
        let secs = self.secs_or_last();
        self.make(secs, self.counter.fetch_add(1, atomic::Ordering::Relaxed))
    }

    /// The next id, or an error when the clock does not know the time. No counter value is
    /// used up by a failed call.
    ///
    /// # Errors
    ///
    /// [`GenerateError`] when the clock answers `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{FixedClock, Generator};
    /// let generator = Generator::from_seed(FixedClock::at(1_700_000_000), [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
    /// assert_eq!(generator.try_next()?.to_hex(), "6553f1003f2a91c8d4003039");
    /// # Ok::<(), oid_core::GenerateError>(())
    /// ```
    #[inline]
    pub fn try_next(&self) -> Result<ObjectId, GenerateError> {
        let secs = self.read_clock().ok_or(GenerateError::CLOCK_UNAVAILABLE)?;
        Ok(self.make(secs, self.counter.fetch_add(1, atomic::Ordering::Relaxed)))
    }

    #[inline]
    fn make(&self, secs: u32, counter: u32) -> ObjectId {
        ObjectId::from_parts(secs, self.random(), counter)
    }

    /// Fills `out` with consecutive ids: one clock read and one counter reservation for the
    /// whole batch. All ids share the timestamp and the random value, and each has a counter one
    /// higher than the one before (wrapping from `0xFFFFFF` to `0`). There is no size limit,
    /// but like any one second of one process, a batch of more than 2^24 ids repeats counters.
    ///
    /// A failing clock is handled as in [`next`](Self::next).
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
        let secs = self.secs_or_last();
        self.fill_at(secs, out);
    }

    /// Like [`fill`](Self::fill), but fails (and fills nothing) when the clock does not know
    /// the time.
    ///
    /// # Errors
    ///
    /// [`GenerateError`] when the clock answers `None`.
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
        let secs = self.read_clock().ok_or(GenerateError::CLOCK_UNAVAILABLE)?;
        self.fill_at(secs, out);
        Ok(())
    }

    fn fill_at(&self, secs: u32, out: &mut [ObjectId]) {
        if out.is_empty() {
            return;
        }
        // Only the low 24 bits matter, so reserving `len mod 2^32` is exact.
        let start = self
            .counter
            .fetch_add(out.len() as u32, atomic::Ordering::Relaxed);
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

#[cfg(any(feature = "portable-atomic", target_has_atomic = "32"))]
impl<C: Clock + fmt::Debug> fmt::Debug for Generator<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The seed is deliberately not printed: it is the process's identity.
        f.debug_struct("Generator")
            .field("clock", &self.clock)
            .finish_non_exhaustive()
    }
}

/// Draws 5 random bytes and a 24-bit counter start from `entropy`.
fn seed_from(entropy: &mut impl Entropy) -> Result<([u8; 5], u32), EntropyError> {
    let mut buf = [0u8; 8];
    entropy.fill(&mut buf)?;
    let random = [buf[0], buf[1], buf[2], buf[3], buf[4]];
    let counter = u32::from_be_bytes([0, buf[5], buf[6], buf[7]]);
    Ok((random, counter))
}

#[cfg(all(test, any(feature = "portable-atomic", target_has_atomic = "32")))]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::vec::Vec;

    const RANDOM: [u8; 5] = [0x3f, 0x2a, 0x91, 0xc8, 0xd4];

    #[test]
    fn worked_example() {
        let g = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, 12345);
        assert_eq!(g.next().to_hex(), "6553f1003f2a91c8d4003039");
        assert_eq!(g.next().to_hex(), "6553f1003f2a91c8d400303a");
    }

    #[test]
    fn first_id_uses_seed_then_increments_and_wraps() {
        let g = Generator::from_seed(FixedClock::at(1), [0; 5], 0xfffffd);
        let counters: Vec<u32> = (0..5).map(|_| g.next().to_parts().counter).collect();
        assert_eq!(counters, [0xfffffd, 0xfffffe, 0xffffff, 0, 1]);
    }

    #[test]
    fn seed_counter_above_24_bits_is_truncated() {
        let g = Generator::from_seed(FixedClock::at(1), [0; 5], 0xff00_0005);
        assert_eq!(g.next().to_parts().counter, 5);
    }

    #[test]
    fn wrap_across_the_u32_boundary_of_the_atomic() {
        let g = Generator::from_seed(FixedClock::at(1), [0; 5], u32::MAX);
        assert_eq!(g.next().to_parts().counter, 0xffffff);
        assert_eq!(g.next().to_parts().counter, 0);
    }

    #[test]
    fn clock_wraps_modulo_2_pow_32() {
        let clock = ManualClock::at(u64::from(u32::MAX));
        let g = Generator::from_seed(&clock, [0; 5], 0);
        assert_eq!(g.next().timestamp(), u32::MAX);
        clock.set(1 << 32);
        assert_eq!(g.next().timestamp(), 0);
        clock.set((1 << 32) + 1_700_000_000);
        assert_eq!(g.try_next().map(|id| id.timestamp()), Ok(1_700_000_000));
    }

    #[test]
    fn unknown_time_errors_in_try_next_and_falls_back_in_next() {
        let clock = ManualClock::new();
        let g = Generator::from_seed(&clock, RANDOM, 7);
        assert_eq!(g.try_next(), Err(GenerateError::CLOCK_UNAVAILABLE));
        let mut batch = [ObjectId::MIN; 2];
        assert_eq!(
            g.try_fill(&mut batch),
            Err(GenerateError::CLOCK_UNAVAILABLE)
        );
        assert_eq!(batch, [ObjectId::MIN; 2]);
        // No counter value was used by the failures; never a reading: timestamp 0.
        let id = g.next();
        assert_eq!((id.timestamp(), id.to_parts().counter), (0, 7));
        clock.set(1_700_000_000);
        assert_eq!(g.next().timestamp(), 1_700_000_000);
        clock.unset();
        assert_eq!(g.next().timestamp(), 1_700_000_000);
        g.fill(&mut batch);
        assert_eq!(batch[1].timestamp(), 1_700_000_000);
    }

    struct Failing;
    impl Entropy for Failing {
        fn fill(&mut self, _: &mut [u8]) -> Result<(), EntropyError> {
            Err(EntropyError::with_code("device busy", 16))
        }
    }

    struct Counting(u8);
    impl Entropy for Counting {
        fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
            for b in dest {
                self.0 = self.0.wrapping_add(1);
                *b = self.0;
            }
            Ok(())
        }
    }

    #[test]
    fn failing_entropy_is_an_error() {
        let err = Generator::from_entropy(FixedClock::at(0), &mut Failing).err();
        assert_eq!(err, Some(EntropyError::with_code("device busy", 16)));
        let g = Generator::from_seed(FixedClock::at(0), RANDOM, 1);
        assert!(g.reseed_from(&mut Failing).is_err());
        assert_eq!(
            g.random(),
            RANDOM,
            "a failed reseed leaves the generator unchanged"
        );
    }

    #[test]
    fn entropy_seeds_random_and_counter() {
        let g = Generator::from_entropy(FixedClock::at(0), &mut Counting(0)).ok();
        let parts = g.map(|g| g.next().to_parts());
        assert_eq!(
            parts.map(|p| (p.random, p.counter)),
            Some(([1, 2, 3, 4, 5], 0x060708))
        );
    }

    #[test]
    fn reseed_changes_random_and_counter() {
        let g = Generator::from_seed(FixedClock::at(0), RANDOM, 1);
        g.reseed([1, 2, 3, 4, 5], 0xabcdef);
        let p = g.next().to_parts();
        assert_eq!((p.random, p.counter), ([1, 2, 3, 4, 5], 0xabcdef));
    }

    #[test]
    fn fill_is_one_consecutive_batch() {
        let g = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, 0xffff00);
        let mut ids = std::vec![ObjectId::MIN; 1000];
        g.fill(&mut ids);
        for (i, id) in ids.iter().enumerate() {
            let p = id.to_parts();
            assert_eq!(p.timestamp, 1_700_000_000);
            assert_eq!(p.random, RANDOM);
            assert_eq!(p.counter, (0xffff00 + i as u32) & 0xffffff);
        }
        assert_eq!(g.next().to_parts().counter, (0xffff00 + 1000) & 0xffffff);
        g.fill(&mut []);
        assert_eq!(g.next().to_parts().counter, (0xffff00 + 1001) & 0xffffff);
    }

    #[test]
    fn legacy_generator_layout() {
        let g = Generator::from_legacy(FixedClock::at(0x507f1f77), 0xffbcf86c, 0xd799, 0x439011);
        let id = g.next();
        assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
        let p = id.to_legacy_parts();
        assert_eq!(
            (p.machine, p.process_id, p.counter),
            (0xbcf86c, 0xd799, 0x439011)
        );
    }

    #[test]
    fn threads_share_one_generator_without_duplicates() {
        const THREADS: usize = 4;
        const PER_THREAD: usize = if cfg!(miri) { 500 } else { 250_000 };
        let g = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, 0);
        let results: Vec<Vec<ObjectId>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|_| s.spawn(|| (0..PER_THREAD).map(|_| g.next()).collect::<Vec<_>>()))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("thread panicked"))
                .collect()
        });
        let mut all = HashSet::with_capacity(THREADS * PER_THREAD);
        for ids in &results {
            // Strictly increasing within a thread (same second, counter far from the wrap).
            assert!(ids.windows(2).all(|w| w[0] < w[1]));
            for id in ids {
                assert!(all.insert(*id), "duplicate id {id}");
            }
        }
        assert_eq!(all.len(), THREADS * PER_THREAD);
    }

    #[test]
    fn generator_is_sync_and_send() {
        fn assert_sync<T: Sync + Send>() {}
        assert_sync::<Generator<FixedClock>>();
        assert_sync::<Generator<&'static ManualClock>>();
    }
}
