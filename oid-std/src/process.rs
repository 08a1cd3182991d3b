//! The process-wide generator behind [`new`](crate::new) and [`try_new`](crate::try_new).
//!
//! # Layout of the state
//!
//! * `SHARED` (one cache line): the 5-byte random value of this process, the 24-bit counter
//!   (in a 32-bit atomic, so its natural wrap is the spec's), the epoch and process id the
//!   seed belongs to, a small spin flag for seeding, and the last good clock reading.
//! * `EPOCH` (its own cache line, read-only except in a forked child): incremented by a
//!   `pthread_atfork` child handler. Every id compares it with the epoch of its thread's block:
//!   one relaxed load of a line that every core keeps in its cache, instead of a `getpid()`
//!   system call per id.
//! * Per thread (`LOCAL`): a block of counter values reserved from `SHARED` with one
//!   `fetch_add`, plus the second and epoch it was reserved for. An id takes the next value
//!   of the block, so threads touch no shared cache line per id. Blocks start at 1 value and
//!   double while a thread keeps using them up within one second, up to [`MAX_BLOCK`].
//!
//! # Why the ids stay unique
//!
//! A block is only used in the second (and the epoch) it was reserved for: when the clock
//! moves on, the rest of the block is dropped and a new one reserved. So every id of one
//! second carries a counter from a range reserved during that second, and ranges reserved
//! from one atomic do not overlap until 2^24 values have been reserved. Unused rest of blocks
//! count against that: at most `MAX_BLOCK - 1` values per thread and second, so
//! uniqueness holds while the ids made per second plus 255 per generating thread stay below
//! 2^24 (16,777,216): the spec's own limit, less a little.
//!
//! Within one thread, ids increase: the clock's second first, then the counter, taken from
//! ranges reserved later and later (until the 24-bit counter wraps, as in the spec).

use std::cell::Cell;
use std::hash::{DefaultHasher, Hasher};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64};
use std::time::SystemTime;

use oid_core::{Entropy, EntropyError, ObjectId};

use crate::{Error, OsEntropy};

/// The largest counter block a thread reserves at once.
pub(crate) const MAX_BLOCK: u32 = 256;

/// Keeps the wrapped value on a cache line (two, against adjacent-line prefetch) of its own.
#[repr(align(128))]
struct CacheLine<T>(T);

/// Bumped in the child after every `fork()` (and nowhere else).
static EPOCH: CacheLine<AtomicU32> = CacheLine(AtomicU32::new(0));

const NEVER: u64 = u64::MAX;
const WEAK: u64 = 1 << 40;

const HOOK_UNTRIED: u8 = 0;
const HOOK_OK: u8 = 1;
const HOOK_FAILED: u8 = 2;

struct Shared {
    /// `(epoch << 32) | pid` of the current seed, or `NEVER`.
    seeded: AtomicU64,
    /// The random value in bits 0..40, and `WEAK` when it came from the fallback mix.
    seed: AtomicU64,
    /// The next free counter value (low 24 bits used).
    counter: AtomicU32,
    /// The legacy layout's counter, seeded with the rest.
    legacy_counter: AtomicU32,
    /// Held while seeding.
    busy: AtomicBool,
    /// Whether the fork handler is registered.
    hook: AtomicU8,
    /// The last clock reading, used by `new()` when the clock fails.
    last_secs: AtomicU32,
}

static SHARED: CacheLine<Shared> = CacheLine(Shared::new());

/// Runs in the child after `fork()`, where only the forking thread exists: every seed and
/// block of the parent is now stale, and the seeding flag may have been copied while another
/// parent thread held it. Only async-signal-safe work here: two atomic stores.
extern "C" fn after_fork_in_child() {
    EPOCH.0.fetch_add(1, Relaxed);
    SHARED.0.busy.store(false, Release);
}

/// What a generating call does when something fails: [`Strict`] reports it, [`Lenient`]
/// carries on (last clock reading, fallback seed).
pub(crate) trait Mode {
    type Error;
    const STRICT: bool;
    /// The clock failed: an error, or `Ok` to go on with the last good reading.
    fn no_clock() -> Result<(), Self::Error>;
    fn no_entropy(e: EntropyError) -> Result<(), Self::Error>;
    fn weak_seed() -> Result<(), Self::Error>;
}

/// `try_new`: every failure is an error.
pub(crate) enum Strict {}

impl Mode for Strict {
    type Error = Error;
    const STRICT: bool = true;
    fn no_clock() -> Result<(), Error> {
        Err(Error::CLOCK)
    }
    fn no_entropy(e: EntropyError) -> Result<(), Error> {
        Err(e.into())
    }
    fn weak_seed() -> Result<(), Error> {
        Err(Error::WEAK_SEED)
    }
}

/// `new`: never fails.
pub(crate) enum Lenient {}

impl Mode for Lenient {
    type Error = core::convert::Infallible;
    const STRICT: bool = false;
    fn no_clock() -> Result<(), Self::Error> {
        Ok(())
    }
    fn no_entropy(_: EntropyError) -> Result<(), Self::Error> {
        Ok(())
    }
    fn weak_seed() -> Result<(), Self::Error> {
        Ok(())
    }
}

/// The seed of the current epoch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seed {
    pub(crate) random: [u8; 5],
    pub(crate) weak: bool,
    /// The process id when the seed was drawn (this process's, see `is_current`).
    #[cfg(feature = "legacy")]
    pub(crate) pid: u32,
}

impl Shared {
    const fn new() -> Shared {
        Shared {
            seeded: AtomicU64::new(NEVER),
            seed: AtomicU64::new(0),
            counter: AtomicU32::new(0),
            legacy_counter: AtomicU32::new(0),
            busy: AtomicBool::new(false),
            hook: AtomicU8::new(HOOK_UNTRIED),
            last_secs: AtomicU32::new(0),
        }
    }

    /// Whether `seeded` belongs to this process: the epoch matches, and, only when the fork
    /// handler could not be registered, the process id too (a system call, but then blocks
    /// are one id long and this is the only fork check left).
    #[inline]
    fn is_current(&self, seeded: u64, epoch: u32) -> bool {
        seeded != NEVER
            && (seeded >> 32) as u32 == epoch
            && (self.hook.load(Relaxed) == HOOK_OK || seeded as u32 == std::process::id())
    }

    /// The seed of `epoch`, drawing it from `entropy` first if needed.
    fn seed<M: Mode>(&self, epoch: u32, entropy: &mut impl Entropy) -> Result<Seed, M::Error> {
        loop {
            let seeded = self.seeded.load(Acquire);
            if self.is_current(seeded, epoch) {
                let v = self.seed.load(Relaxed);
                let weak = v & WEAK != 0;
                if weak {
                    M::weak_seed()?;
                }
                let b = v.to_be_bytes();
                return Ok(Seed {
                    random: [b[3], b[4], b[5], b[6], b[7]],
                    weak,
                    #[cfg(feature = "legacy")]
                    pid: seeded as u32,
                });
            }
            if self
                .busy
                .compare_exchange(false, true, Acquire, Relaxed)
                .is_ok()
            {
                let outcome = self.seed_locked::<M>(epoch, entropy);
                self.busy.store(false, Release);
                outcome?;
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Draws the seed of `epoch` while holding `busy`.
    #[cold]
    fn seed_locked<M: Mode>(&self, epoch: u32, entropy: &mut impl Entropy) -> Result<(), M::Error> {
        if self.is_current(self.seeded.load(Acquire), epoch) {
            return Ok(()); // someone else was quicker
        }
        // Register the fork handler before the first seed exists, so no seed can be copied
        // into a child unnoticed.
        if self.hook.load(Relaxed) == HOOK_UNTRIED {
            let ok = crate::sys::register_fork_handler(after_fork_in_child);
            self.hook
                .store(if ok { HOOK_OK } else { HOOK_FAILED }, Relaxed);
        }
        let mut buf = [0u8; 11];
        let weak = match entropy.fill(&mut buf) {
            Ok(()) => false,
            Err(e) => {
                M::no_entropy(e)?;
                fallback_fill(&mut buf);
                true
            }
        };
        let random = u64::from_be_bytes([0, 0, 0, buf[0], buf[1], buf[2], buf[3], buf[4]]);
        self.seed
            .store(random | if weak { WEAK } else { 0 }, Relaxed);
        self.counter
            .store(u32::from_be_bytes([0, buf[5], buf[6], buf[7]]), Relaxed);
        self.legacy_counter
            .store(u32::from_be_bytes([0, buf[8], buf[9], buf[10]]), Relaxed);
        self.seeded.store(
            (u64::from(epoch) << 32) | u64::from(std::process::id()),
            Release,
        );
        Ok(())
    }
}

/// The process's seed of `epoch`, drawing it from [`OsEntropy`] first if needed.
pub(crate) fn seed<M: Mode>(epoch: u32) -> Result<Seed, M::Error> {
    SHARED.0.seed::<M>(epoch, &mut OsEntropy)
}

/// The last resort when the OS random source fails and `new()` must still answer: a hash of
/// the time in nanoseconds, the process id and a few addresses (which differ per run where the
/// OS randomises them). Unique enough to keep processes apart; not unpredictable.
fn fallback_fill(buf: &mut [u8]) {
    let mut h = DefaultHasher::new();
    if let Ok(d) = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH) {
        h.write_u128(d.as_nanos());
    }
    h.write_u32(std::process::id());
    h.write_usize(buf.as_ptr() as usize);
    h.write_usize(fallback_fill as fn(&mut [u8]) as usize);
    h.write_usize(&EPOCH as *const _ as usize);
    for (i, chunk) in buf.chunks_mut(8).enumerate() {
        h.write_usize(i);
        let v = h.finish().to_be_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}

/// A thread's block of counter values.
struct Local {
    /// The epoch, second and seed the block belongs to.
    epoch: Cell<u32>,
    secs: Cell<u32>,
    /// Random bytes 0..4 as a big-endian word, and byte 4 in the top byte of the other word:
    /// the id is then built from whole words (no byte-wise stores).
    random_hi: Cell<u32>,
    random_lo: Cell<u32>,
    weak: Cell<bool>,
    /// The next counter value and how many are left.
    next: Cell<u32>,
    left: Cell<u32>,
    /// The size of the current block.
    size: Cell<u32>,
}

thread_local! {
    static LOCAL: Local = const {
        Local {
            epoch: Cell::new(0),
            secs: Cell::new(0),
            random_hi: Cell::new(0),
            random_lo: Cell::new(0),
            weak: Cell::new(false),
            next: Cell::new(0),
            left: Cell::new(0),
            size: Cell::new(0),
        }
    };
}

/// The next id of the process-wide generator, with `secs` read from its clock.
#[inline]
pub(crate) fn next<M: Mode>(secs: Option<u64>) -> Result<ObjectId, M::Error> {
    let epoch = EPOCH.0.load(Relaxed);
    match LOCAL.try_with(|l| {
        let secs = match secs {
            Some(s) => s as u32, // wraps modulo 2^32, as the timestamp field does
            None => {
                M::no_clock()?;
                // The last good reading: this thread's, else the process's (0 if none).
                if l.size.get() != 0 {
                    l.secs.get()
                } else {
                    SHARED.0.last_secs.load(Relaxed)
                }
            }
        };
        let left = l.left.get();
        if left != 0
            && l.epoch.get() == epoch
            && l.secs.get() == secs
            && !(M::STRICT && l.weak.get())
        {
            let c = l.next.get();
            l.next.set(c.wrapping_add(1));
            l.left.set(left - 1);
            Ok(make(secs, l.random_hi.get(), l.random_lo.get(), c))
        } else {
            refill::<M>(l, epoch, secs)
        }
    }) {
        Ok(r) => r,
        // Thread-local storage is being torn down: one id straight from the shared counter.
        Err(_) => {
            let secs = clock_or_last::<M>(secs)?;
            let seed = seed::<M>(epoch)?;
            let c = SHARED.0.counter.fetch_add(1, Relaxed);
            Ok(ObjectId::from_parts(secs, seed.random, c))
        }
    }
}

/// The clock reading (wrapped to 32 bits), or the process's last good reading.
fn clock_or_last<M: Mode>(secs: Option<u64>) -> Result<u32, M::Error> {
    match secs {
        Some(s) => Ok(s as u32),
        None => {
            M::no_clock()?;
            Ok(SHARED.0.last_secs.load(Relaxed))
        }
    }
}

/// The random value as two words for [`make`].
#[inline]
const fn pack(random: [u8; 5]) -> (u32, u32) {
    (
        u32::from_be_bytes([random[0], random[1], random[2], random[3]]),
        (random[4] as u32) << 24,
    )
}

/// `ObjectId::from_parts(secs, random, counter)` from whole words.
#[inline(always)]
fn make(secs: u32, random_hi: u32, random_lo: u32, counter: u32) -> ObjectId {
    let head = ((u64::from(secs) << 32) | u64::from(random_hi)).to_be_bytes();
    let tail = (random_lo | (counter & 0x00ff_ffff)).to_be_bytes();
    ObjectId::from_bytes([
        head[0], head[1], head[2], head[3], head[4], head[5], head[6], head[7], tail[0], tail[1],
        tail[2], tail[3],
    ])
}

/// Reserves a new block for this thread and returns its first id.
#[cold]
#[inline(never)]
fn refill<M: Mode>(l: &Local, epoch: u32, secs: u32) -> Result<ObjectId, M::Error> {
    let seed = seed::<M>(epoch)?;
    let s = &SHARED.0;
    let size = if s.hook.load(Relaxed) != HOOK_OK {
        1 // no fork handler: every id goes through the pid check in `seed`
    } else if l.left.get() == 0 && l.secs.get() == secs && l.epoch.get() == epoch {
        // Used up within the same second: this thread is busy, reserve more at once.
        (l.size.get() * 2).clamp(1, MAX_BLOCK)
    } else {
        1
    };
    let start = s.counter.fetch_add(size, Relaxed);
    if s.last_secs.load(Relaxed) != secs {
        s.last_secs.store(secs, Relaxed);
    }
    l.epoch.set(epoch);
    l.secs.set(secs);
    let (hi, lo) = pack(seed.random);
    l.random_hi.set(hi);
    l.random_lo.set(lo);
    l.weak.set(seed.weak);
    l.next.set(start.wrapping_add(1));
    l.left.set(size - 1);
    l.size.set(size);
    Ok(ObjectId::from_parts(secs, seed.random, start))
}

/// The next id in the legacy layout: this process's id, one shared counter.
#[cfg(feature = "legacy")]
pub(crate) fn next_legacy<M: Mode>(secs: Option<u64>, machine: u32) -> Result<ObjectId, M::Error> {
    let epoch = EPOCH.0.load(Relaxed);
    let secs = clock_or_last::<M>(secs)?;
    let seed = seed::<M>(epoch)?;
    let c = SHARED.0.legacy_counter.fetch_add(1, Relaxed);
    Ok(ObjectId::from_legacy_parts(
        secs,
        machine,
        seed.pid as u16,
        c,
    ))
}

/// The current seed (for tests).
#[cfg(test)]
pub(crate) fn current_seed() -> Seed {
    match seed::<Lenient>(EPOCH.0.load(Relaxed)) {
        Ok(s) => s,
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lenient(secs: Option<u64>) -> ObjectId {
        match next::<Lenient>(secs) {
            Ok(id) => id,
            Err(never) => match never {},
        }
    }

    #[test]
    fn a_thread_takes_consecutive_counters_from_growing_blocks() {
        // A fresh thread, so this test sees its own block from the start.
        std::thread::spawn(|| {
            let ids: Vec<ObjectId> = (0..1000).map(|_| lenient(Some(1_700_000_000))).collect();
            let seed = current_seed();
            for w in ids.windows(2) {
                let (a, b) = (w[0].to_parts(), w[1].to_parts());
                assert_eq!((a.timestamp, a.random), (1_700_000_000, seed.random));
                // Later blocks come later from the shared counter: the distance is positive
                // (mod 2^24) and small.
                let step = b.counter.wrapping_sub(a.counter) & 0xff_ffff;
                assert!((1..1 << 20).contains(&step), "step {step}");
            }
            LOCAL.with(|l| assert_eq!(l.size.get(), MAX_BLOCK));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_new_second_starts_a_new_small_block() {
        std::thread::spawn(|| {
            for _ in 0..600 {
                lenient(Some(1_800_000_000));
            }
            LOCAL.with(|l| assert_eq!(l.size.get(), MAX_BLOCK));
            let id = lenient(Some(1_800_000_001));
            assert_eq!(id.timestamp(), 1_800_000_001);
            LOCAL.with(|l| assert_eq!((l.size.get(), l.left.get()), (1, 0)));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn clock_failure_errors_in_strict_mode_and_reuses_the_last_reading_otherwise() {
        std::thread::spawn(|| {
            assert_eq!(next::<Strict>(None), Err(Error::CLOCK));
            let before = lenient(Some(1_750_000_000));
            assert_eq!(before.timestamp(), 1_750_000_000);
            let id = lenient(None);
            assert_eq!(
                id.timestamp(),
                1_750_000_000,
                "this thread's last good reading"
            );
            assert_ne!(id, before);
            assert_eq!(next::<Strict>(None), Err(Error::CLOCK));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn timestamps_past_2106_wrap_like_the_field() {
        let id = lenient(Some((1 << 32) + 5));
        assert_eq!(id.timestamp(), 5);
        assert_eq!(
            next::<Strict>(Some(u64::from(u32::MAX))).map(|id| id.timestamp()),
            Ok(u32::MAX)
        );
    }

    #[test]
    fn make_matches_from_parts() {
        let random = [0x3f, 0x2a, 0x91, 0xc8, 0xd4];
        let (hi, lo) = pack(random);
        for counter in [0, 12345, 0xff_ffff, 0x1ff_ffff, u32::MAX] {
            for secs in [0, 1_700_000_000, u32::MAX] {
                assert_eq!(
                    make(secs, hi, lo, counter),
                    ObjectId::from_parts(secs, random, counter)
                );
            }
        }
        assert_eq!(
            make(1_700_000_000, hi, lo, 12345).to_hex(),
            "6553f1003f2a91c8d4003039"
        );
    }

    #[test]
    fn fallback_fill_differs_between_calls() {
        let mut a = [0u8; 11];
        let mut b = [0u8; 11];
        fallback_fill(&mut a);
        std::thread::sleep(std::time::Duration::from_millis(1));
        fallback_fill(&mut b);
        assert_ne!(a, b);
        assert_ne!(a, [0; 11]);
    }

    struct Failing;
    impl Entropy for Failing {
        fn fill(&mut self, _: &mut [u8]) -> Result<(), EntropyError> {
            Err(EntropyError::with_code("test source", 5))
        }
    }

    /// A `Shared` of its own, with the fork handler taken as registered (or not), so tests do
    /// not touch the process's generator.
    fn shared(hook: u8) -> Shared {
        let s = Shared::new();
        s.hook.store(hook, Relaxed);
        s
    }

    #[test]
    fn entropy_failure_is_an_error_in_strict_mode_and_a_weak_seed_otherwise() {
        let s = shared(HOOK_OK);
        let err = s.seed::<Strict>(0, &mut Failing).unwrap_err();
        assert_eq!(err, Error::from(EntropyError::with_code("test source", 5)));
        assert_eq!(s.seeded.load(Relaxed), NEVER, "a failed try seeds nothing");
        let weak = match s.seed::<Lenient>(0, &mut Failing) {
            Ok(seed) => seed,
            Err(never) => match never {},
        };
        assert!(weak.weak);
        // The weak seed stays for this epoch; strict callers refuse it, even with a working
        // source now.
        assert_eq!(
            s.seed::<Strict>(0, &mut OsEntropy).unwrap_err(),
            Error::WEAK_SEED
        );
        // A new epoch (a forked child) draws a proper seed again.
        let good = s.seed::<Strict>(1, &mut OsEntropy).unwrap();
        assert!(!good.weak);
        assert_ne!(good.random, weak.random);
    }

    #[test]
    fn without_the_fork_handler_the_pid_decides() {
        let s = shared(HOOK_FAILED);
        let _ = s.seed::<Strict>(0, &mut OsEntropy).unwrap();
        let seeded = s.seeded.load(Relaxed);
        assert!(s.is_current(seeded, 0));
        // The same epoch but another process id: stale, as in a child whose fork ran no handler.
        let other_pid = (seeded & !0xffff_ffff) | u64::from(std::process::id().wrapping_add(1));
        assert!(!s.is_current(other_pid, 0));
        let with_hook = shared(HOOK_OK);
        assert!(
            with_hook.is_current(other_pid, 0),
            "with the handler the epoch decides"
        );
        assert!(!with_hook.is_current(other_pid, 1));
    }

    #[test]
    fn the_fork_handler_is_registered_with_the_first_seed() {
        let _ = current_seed();
        assert_eq!(SHARED.0.hook.load(Relaxed), HOOK_OK);
        assert!(!current_seed().weak);
    }
}
