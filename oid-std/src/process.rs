//! The process-wide generator behind [`new`](crate::new) and [`try_new`](crate::try_new).
//!
//! # Layout of the state
//!
//! * [`SHARED`] (one cache line): the process's *identity* (its owner word: which epoch and
//!   process drew it, and whether it came from the fallback mix), and two
//!   [`IdSpace`]s (a random value, its counter and capacity window): the ids' and the legacy
//!   layout's (whose random value is unused: the machine and process ids take its place).
//! * A [`Guard`] (see [`crate::fork`]): the epoch word, zero in every child, on a
//!   `MADV_WIPEONFORK` page on Linux; and the lock held while an identity is drawn.
//! * Per thread ([`LOCAL`]): a block of counter values reserved from `SHARED` in one
//!   compare-and-swap, with the clock reading, second and epoch it was reserved for, and a
//!   reference to the epoch word. An id takes the next value of the block, so threads share no
//!   cache line that is written per id. Blocks start at 1 value and double while a thread uses
//!   them up within one clock second, up to [`MAX_BLOCK`].
//!
//! # Why the ids stay unique
//!
//! * **Within a process:** every counter value is reserved through oid-core's
//!   [`IdSpace::reserve`], the one capacity rule of the workspace: within one second at most
//!   2^24 values, each once, the unused rest of a block counting as used, a block at the edge
//!   of a second cut to what is left. What a spent second does is the id space's
//!   [`CapacityPolicy`] (process-wide, [`crate::set_capacity_policy`]): under `Wait` (the
//!   default) `new()` sleeps once, until the clock's next second ([`Clock::wait`]), and
//!   `try_new()` returns an error of kind `CapacityExhausted`, when the clock reads the spent
//!   second itself; in every other case (a reading behind it, or still it after the one
//!   wait) and under `Rotate`, the id space moves to a new random value and goes on at once.
//!   A reading up to a second behind the newest second stamps the newest one; a clock
//!   stepping further back moves the id space to a new random value at the clock's own
//!   second (a new value is a new id space: nothing made before can repeat).
//! * **After a fork:** a block is used only while the epoch word still holds the block's
//!   epoch: one relaxed load per id of a word every core keeps in its cache. In a child, the
//!   word reads 0 (wiped by the kernel, or by the `pthread_atfork` handler), so the forking
//!   thread's copied block is dropped before its first id, and the child draws a new random
//!   value and counter start. Epoch numbers continue from the parent's (they live in ordinary
//!   memory), so a child's epoch never equals one its copied blocks carry.
//!
//! * **After a snapshot restore or a clone** (see [`crate::snapshot`]): where the VMClock page
//!   exists, a block is used only while the page's generation word still holds the block's
//!   value (one more relaxed load per id, beside the epoch's), and every refill reads the page
//!   under its sequence lock: a new generation moves the id space to a fresh random value
//!   ([`IdSpace::rotate`]) that differs between copies. As a fallback (Linux, Android), every
//!   refill compares the wall clock's second with `CLOCK_BOOTTIME` (elapsed time, never set):
//!   their difference changes only when the wall clock is set, and a change of more than
//!   [`JUMP_SECONDS`] since the previous refill rotates likewise. [`crate::reseed`] rotates and
//!   moves to a new epoch, so every thread drops its block. Under
//!   [`SnapshotPolicy::EveryId`] every id is a block of one with a random value of its own.
//!   Restores without a signal are listed in docs/uniqueness.md.
//!
//! Within one thread, ids increase: the second first, then the counter, taken from ranges
//! reserved later and later (until the 24-bit counter wraps, as in the spec, or the random value
//! changes).

use std::cell::Cell;
use std::hash::{DefaultHasher, Hasher};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64};
use std::time::SystemTime;

use oid_core::{CapacityPolicy, Clock, Entropy, EntropyError, IdBlock, IdSpace, ObjectId};

use crate::entropy::OsEntropy;
use crate::error::Error;
use crate::fork::{Guard, GuardKind};
use crate::snapshot::{Getrandom, SnapshotPolicy, VmClock};

/// The largest counter block a thread reserves at once.
pub(crate) const MAX_BLOCK: u32 = 256;

/// Keeps the wrapped value on a cache line (two, against adjacent-line prefetch) of its own.
#[repr(align(128))]
struct CacheLine<T>(T);

/// A block's clock reading when the clock gave none.
const NO_READING: u64 = u64::MAX;

/// A change of the wall clock against the boot-time clock, in seconds, above which a refill
/// takes it for a snapshot restore (or a clock set far) and rotates the random value. The two
/// whole-second readings disagree by up to a second on their own; an NTP step is usually well
/// under a second.
pub(crate) const JUMP_SECONDS: u32 = 4;

/// `Shared::offset` before the first comparison.
const NO_OFFSET: u64 = u64::MAX;

/// Elapsed seconds from a clock that is never set (the comparison for snapshot detection).
pub(crate) trait Elapsed {
    fn seconds(&self) -> Option<u64>;
}

/// `CLOCK_BOOTTIME` on Linux and Android; nothing elsewhere (no detection).
pub(crate) struct BootTime;

impl Elapsed for BootTime {
    #[inline]
    fn seconds(&self) -> Option<u64> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return crate::sys::boot_seconds();
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        return None;
    }
}

/// The process-wide generator's shared state.
static SHARED: CacheLine<Shared> = CacheLine(Shared::new(None));

/// What a generating call does when something fails: [`Strict`] reports it, [`Lenient`]
/// carries on (the newest second, the fallback seed, waiting for the next second).
pub(crate) trait Mode {
    type Error;
    const STRICT: bool;
    /// The clock failed: an error, or `Ok` to go on with the newest second stamped.
    fn no_clock() -> Result<(), Self::Error>;
    fn no_entropy(e: EntropyError) -> Result<(), Self::Error>;
    fn weak_seed() -> Result<(), Self::Error>;
    /// The second's capacity is spent: an error, or `Ok` to wait for the next second.
    fn spent() -> Result<(), Self::Error>;
}

/// `try_new`: every failure is an error.
pub(crate) enum Strict {}

impl Mode for Strict {
    type Error = Error;
    const STRICT: bool = true;
    fn no_clock() -> Result<(), Error> {
        Err(crate::error::CLOCK_UNAVAILABLE)
    }
    fn no_entropy(e: EntropyError) -> Result<(), Error> {
        Err(e.into())
    }
    fn weak_seed() -> Result<(), Error> {
        Err(Error::WEAK_SEED)
    }
    fn spent() -> Result<(), Error> {
        Err(Error::CAPACITY_EXHAUSTED)
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
    fn spent() -> Result<(), Self::Error> {
        Ok(())
    }
}

/// The process's identity: drawn once per process (again in a child); its random value is in
/// `Shared::ids`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Identity {
    /// Drawn from the fallback mix, not from the OS random source.
    pub(crate) weak: bool,
    /// The process id when it was drawn (the legacy layout's process id).
    #[cfg_attr(not(feature = "legacy"), allow(dead_code, reason = "used by `legacy`"))]
    pub(crate) pid: u32,
    /// The epoch it belongs to (never 0).
    pub(crate) epoch: u32,
    pub(crate) guard: Guard,
}

pub(crate) struct Shared {
    /// `(epoch << 32) | pid` of the identity below; 0 before the first.
    owner: AtomicU64,
    /// The identity's random value came from the fallback mix.
    weak: AtomicBool,
    /// The ids' random value, counter and capacity window.
    ids: IdSpace,
    /// The legacy layout's counter and capacity window.
    legacy_ids: IdSpace,
    /// The last epoch number handed out. In ordinary memory: a child continues from its
    /// parent's number.
    last_epoch: AtomicU32,
    /// `None`: the process's guard ([`crate::fork::process_guard`]); tests give their own.
    guard: Option<Guard>,
    /// The wall clock's second minus the elapsed clock's (wrapping, 32 bits) at the last
    /// refill that read both, or `NO_OFFSET`.
    offset: AtomicU64,
    /// Where the VMClock page comes from: `None`, the process's (`/dev/vmclock0` or
    /// `OID_STD_VMCLOCK`); tests give their own.
    vmclock: Option<Option<VmClock>>,
    /// The raw VMClock generation word the ids' random value was drawn (or last checked) under.
    vmgen: AtomicU64,
    /// The [`SnapshotPolicy`] as a number.
    snapshot_policy: AtomicU8,
    /// The OS random source for new random values (a test double in the clone harness).
    getrandom: Getrandom,
}

impl Shared {
    const fn new(guard: Option<Guard>) -> Shared {
        Shared {
            owner: AtomicU64::new(0),
            weak: AtomicBool::new(false),
            ids: IdSpace::new([0; 5], 0),
            // Its random value is not in the ids (the machine and process ids are), so a new
            // one would not be a new id space: never change it.
            legacy_ids: IdSpace::new([0; 5], 0).with_policy(CapacityPolicy::Fixed),
            last_epoch: AtomicU32::new(0),
            guard,
            offset: AtomicU64::new(NO_OFFSET),
            vmclock: None,
            vmgen: AtomicU64::new(0),
            snapshot_policy: AtomicU8::new(0),
            getrandom: crate::snapshot::os_getrandom,
        }
    }

    /// With a VMClock page of the test's own (`None`: none), not the process's.
    #[cfg(test)]
    pub(crate) const fn with_vmclock(mut self, page: Option<VmClock>) -> Shared {
        self.vmclock = Some(page);
        self
    }

    /// With an OS random source of the test's own.
    #[cfg(test)]
    pub(crate) const fn with_getrandom(mut self, getrandom: Getrandom) -> Shared {
        self.getrandom = getrandom;
        self
    }

    fn vmclock(&self) -> Option<VmClock> {
        match self.vmclock {
            Some(page) => page,
            None => crate::snapshot::process_vmclock(),
        }
    }

    pub(crate) fn snapshot_policy(&self) -> SnapshotPolicy {
        SnapshotPolicy::from_u8(self.snapshot_policy.load(Relaxed))
    }

    pub(crate) fn set_snapshot_policy(&self, policy: SnapshotPolicy) {
        self.snapshot_policy.store(policy.to_u8(), Relaxed);
    }

    /// Reads the VMClock page (under its sequence lock): when its generation differs from the
    /// one the random value was drawn under, moves to a fresh clone-divergent random value
    /// first, then records the generation (a thread that sees the new generation recorded also
    /// sees the rotation). Returns the generation word and the value read, for the block.
    #[inline]
    fn check_vmclock(&self) -> Option<(&'static AtomicU64, u64)> {
        let page = self.vmclock()?;
        let reading = page.read()?;
        if self.vmgen.load(Acquire) != reading.generation {
            self.rotate_fresh();
            self.vmgen.store(reading.generation, Release);
        }
        Some((page.generation_word(), reading.generation))
    }

    /// A new clone-divergent random value for the ids, and a new epoch, so that every thread
    /// drops its block before its next id: what [`crate::reseed`] does. Safe while other
    /// threads generate; nothing to do before the process's first id (that draw is
    /// clone-divergent already).
    pub(crate) fn reseed_now(&self) {
        let g = self.guard();
        let me = std::process::id();
        loop {
            let holder = g.lock.load(Relaxed);
            if holder != me
                && g.lock
                    .compare_exchange(holder, me, Acquire, Relaxed)
                    .is_ok()
            {
                break;
            }
            std::thread::yield_now();
        }
        if let Some(owner) = self.current_owner(&g) {
            self.rotate_fresh();
            let epoch = self.next_epoch();
            // The owner word first: a thread that sees the new epoch word then finds its
            // owner (and one that sees the owner word first waits for the lock).
            self.owner
                .store((u64::from(epoch) << 32) | (owner & 0xffff_ffff), Release);
            g.epoch.store(epoch, Release);
        }
        g.lock.store(0, Release);
    }

    /// The next epoch number (never 0).
    fn next_epoch(&self) -> u32 {
        loop {
            let e = self.last_epoch.fetch_add(1, Relaxed).wrapping_add(1);
            if e != 0 {
                return e;
            }
        }
    }

    fn guard(&self) -> Guard {
        match self.guard {
            Some(g) => g,
            None => crate::fork::process_guard(),
        }
    }

    /// The owner word, if it describes an identity of this process.
    #[inline]
    fn current_owner(&self, g: &Guard) -> Option<u64> {
        let epoch = g.epoch.load(Acquire);
        let owner = self.owner.load(Acquire);
        let ok = epoch != 0
            && (owner >> 32) as u32 == epoch
            && (g.kind != GuardKind::Pid || owner as u32 == std::process::id());
        ok.then_some(owner)
    }

    /// Compares the wall clock's `reading` with `elapsed`: when their difference moved by more
    /// than [`JUMP_SECONDS`] since the last refill, a fresh random value from the OS (the
    /// thread that records the new difference first; one rotation per jump).
    #[inline]
    fn check_jump(&self, reading: u64, elapsed: &impl Elapsed) {
        let Some(boot) = elapsed.seconds() else {
            return;
        };
        if reading == NO_READING {
            return;
        }
        let offset = u64::from((reading as u32).wrapping_sub(boot as u32));
        let seen = self.offset.load(Acquire);
        if seen == offset {
            return;
        }
        let jump = seen != NO_OFFSET
            && ((offset as u32).wrapping_sub(seen as u32) as i32).unsigned_abs() > JUMP_SECONDS;
        // Rotate before recording the new difference: a thread that reads it recorded has
        // the new random value too (two threads that both see the jump both rotate, which
        // is safe: a new random value is a new id space).
        if jump {
            self.rotate_fresh();
        }
        self.offset.store(offset, Release);
    }

    /// Moves the ids to a fresh, clone-divergent random value.
    #[cold]
    fn rotate_fresh(&self) {
        self.ids.rotate(self.fresh_random());
    }

    /// A fresh random value that differs between clones: `getrandom` (the fallback mix if it
    /// fails) mixed with what is not in a VM's memory ([`crate::snapshot::mix_divergent`]).
    fn fresh_random(&self) -> [u8; 5] {
        let mut fresh = [0u8; 5];
        if (self.getrandom)(&mut fresh).is_err() {
            fallback_fill(&mut fresh);
        }
        crate::snapshot::mix_divergent(&mut fresh);
        fresh
    }

    /// This process's identity, drawing it from `entropy` first if needed.
    fn identity<M: Mode>(&self, entropy: &mut impl Entropy) -> Result<Identity, M::Error> {
        let g = self.guard();
        loop {
            if let Some(owner) = self.current_owner(&g) {
                let weak = self.weak.load(Relaxed);
                if weak {
                    M::weak_seed()?;
                }
                return Ok(Identity {
                    weak,
                    pid: owner as u32,
                    epoch: (owner >> 32) as u32,
                    guard: g,
                });
            }
            // The lock holds the holder's process id: a value copied from a parent (possible
            // only with `GuardKind::Pid`, where nothing clears it in the child) is free.
            let me = std::process::id();
            let holder = g.lock.load(Relaxed);
            if holder != me
                && g.lock
                    .compare_exchange(holder, me, Acquire, Relaxed)
                    .is_ok()
            {
                let outcome = self.draw_identity::<M>(&g, entropy);
                g.lock.store(0, Release);
                outcome?;
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Draws this process's identity while holding the guard's lock.
    #[cold]
    fn draw_identity<M: Mode>(
        &self,
        g: &Guard,
        entropy: &mut impl Entropy,
    ) -> Result<(), M::Error> {
        if self.current_owner(g).is_some() {
            return Ok(()); // someone else was quicker
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
        // A process restored from a snapshot taken before its first id draws here, maybe from
        // the same kernel random state as its other copies: mix in what differs between them.
        crate::snapshot::mix_divergent(&mut buf);
        self.weak.store(weak, Relaxed);
        if let Some(reading) = self.vmclock().and_then(|p| p.read()) {
            self.vmgen.store(reading.generation, Release);
        }
        self.ids.reseed(
            [buf[0], buf[1], buf[2], buf[3], buf[4]],
            u32::from_be_bytes([0, buf[5], buf[6], buf[7]]),
        );
        self.legacy_ids
            .reseed([0; 5], u32::from_be_bytes([0, buf[8], buf[9], buf[10]]));
        let epoch = self.next_epoch();
        self.owner.store(
            (u64::from(epoch) << 32) | u64::from(std::process::id()),
            Release,
        );
        g.epoch.store(epoch, Release);
        Ok(())
    }
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
    h.write_usize(&SHARED as *const _ as usize);
    for (i, chunk) in buf.chunks_mut(8).enumerate() {
        h.write_usize(i);
        let v = h.finish().to_be_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}

/// A thread's block of counter values.
pub(crate) struct Local {
    /// The epoch word the block is checked against (`None` before the first block: a `const`
    /// initializer may not hold a reference to a static with interior mutability before Rust
    /// 1.87 or so, and the MSRV is older), and the epoch it belongs to.
    guard: Cell<Option<&'static AtomicU32>>,
    epoch: Cell<u32>,
    /// The VMClock generation word (`None`: no VMClock page) and its value when the block was
    /// reserved: a restore changes it before the copy runs again.
    vm_word: Cell<Option<&'static AtomicU64>>,
    vm_generation: Cell<u64>,
    /// The clock reading the block was reserved at (`NO_READING`: none).
    reading: Cell<u64>,
    /// The second the block's ids carry.
    secs: Cell<u32>,
    /// The random value the block was reserved under.
    random: Cell<[u8; 5]>,
    weak: Cell<bool>,
    /// The next counter value and how many are left.
    next: Cell<u32>,
    left: Cell<u32>,
    /// The size asked for the current block.
    size: Cell<u32>,
}

impl Local {
    pub(crate) const fn new() -> Local {
        Local {
            guard: Cell::new(None),
            epoch: Cell::new(0),
            vm_word: Cell::new(None),
            vm_generation: Cell::new(0),
            reading: Cell::new(NO_READING),
            secs: Cell::new(0),
            random: Cell::new([0; 5]),
            weak: Cell::new(false),
            next: Cell::new(0),
            left: Cell::new(0),
            size: Cell::new(0),
        }
    }
}

thread_local! {
    static LOCAL: Local = const { Local::new() };
}

/// The process-wide generator's [`CapacityPolicy`].
pub(crate) fn policy() -> CapacityPolicy {
    SHARED.0.ids.policy()
}

/// Sets the process-wide generator's [`CapacityPolicy`].
pub(crate) fn set_policy(policy: CapacityPolicy) {
    SHARED.0.ids.set_policy(policy);
}

/// The process-wide generator's [`SnapshotPolicy`].
pub(crate) fn snapshot_policy() -> SnapshotPolicy {
    SHARED.0.snapshot_policy()
}

/// Sets the process-wide generator's [`SnapshotPolicy`].
pub(crate) fn set_snapshot_policy(policy: SnapshotPolicy) {
    SHARED.0.set_snapshot_policy(policy);
}

/// A fresh clone-divergent random value for the process-wide generator, every thread's block
/// dropped.
pub(crate) fn reseed() {
    SHARED.0.reseed_now();
}

/// The next id of the process-wide generator, reading `clock`.
#[inline]
pub(crate) fn next<M: Mode, C: Clock>(clock: &C) -> Result<ObjectId, M::Error> {
    let reading = read::<M>(clock)?;
    // The fast path returns a small `Option`, and the `Result` is built once here: passing a
    // `Result<ObjectId, Error>` through `try_with` made the compiler copy it through the stack
    // with mismatched widths (a store-forwarding stall per id, 4x the cost of `try_new`).
    if let Ok(Some(id)) = LOCAL.try_with(|l| take::<M>(l, reading)) {
        return Ok(id);
    }
    next_slow::<M, C>(clock, reading)
}

/// Everything but the fast path: a new block, or a thread-local storage being torn down.
#[cold]
#[inline(never)]
fn next_slow<M: Mode, C: Clock>(clock: &C, reading: u64) -> Result<ObjectId, M::Error> {
    match LOCAL.try_with(|l| refill::<M, C>(&SHARED.0, l, clock, &BootTime, reading)) {
        Ok(r) => r,
        // Thread-local storage is being torn down: a one-id block of its own.
        Err(_) => refill::<M, C>(&SHARED.0, &Local::new(), clock, &BootTime, reading),
    }
}

/// The next id of `l`'s block, if it is live: same epoch (no fork, no reseed since), same
/// VMClock generation (no restore since), same clock reading.
#[inline(always)]
fn take<M: Mode>(l: &Local, reading: u64) -> Option<ObjectId> {
    let left = l.left.get();
    if left != 0
        && l.guard
            .get()
            .is_some_and(|g| g.load(Relaxed) == l.epoch.get())
        && l.vm_word
            .get()
            .is_none_or(|w| w.load(Relaxed) == l.vm_generation.get())
        && (l.reading.get() == reading || reading == NO_READING)
        && !(M::STRICT && l.weak.get())
    {
        let c = l.next.get();
        l.next.set(c.wrapping_add(1));
        l.left.set(left - 1);
        Some(ObjectId::from_parts(l.secs.get(), l.random.get(), c))
    } else {
        None
    }
}

/// The clock's reading as a block key, or `NO_READING` (an error in strict mode).
#[inline]
fn read<M: Mode>(clock: &impl Clock) -> Result<u64, M::Error> {
    match clock.unix_seconds() {
        // Wraps modulo 2^32, as the timestamp field does.
        Some(secs) => Ok(u64::from(secs as u32)),
        None => M::no_clock().map(|()| NO_READING),
    }
}

/// `reading` as the window takes it.
#[inline]
const fn reading_secs(reading: u64) -> Option<u32> {
    if reading == NO_READING {
        None
    } else {
        Some(reading as u32)
    }
}

/// The next id from `s`, with `l` as this thread's block (the tests' entry point; the process
/// generator's is [`next`]).
#[cfg(test)]
pub(crate) fn next_in<M: Mode, C: Clock>(
    s: &Shared,
    l: &Local,
    clock: &C,
    elapsed: &impl Elapsed,
) -> Result<ObjectId, M::Error> {
    let reading = read::<M>(clock)?;
    match take::<M>(l, reading) {
        Some(id) => Ok(id),
        None => refill::<M, C>(s, l, clock, elapsed, reading),
    }
}

/// Reserves a new block for this thread (waiting for the next second in lenient mode when
/// the current one is spent) and returns its first id.
#[cold]
#[inline(never)]
fn refill<M: Mode, C: Clock>(
    s: &Shared,
    l: &Local,
    clock: &C,
    elapsed: &impl Elapsed,
    mut reading: u64,
) -> Result<ObjectId, M::Error> {
    // One wait per call at most (it ends at the clock's next second); after it a spent second
    // moves on to a new random value (see `IdSpace::reserve_after_wait`).
    let mut waited = false;
    let (id, vm, want, block) = loop {
        let id = s.identity::<M>(&mut OsEntropy)?;
        let vm = s.check_vmclock();
        s.check_jump(reading, elapsed);
        let want =
            if id.guard.kind == GuardKind::Pid || s.snapshot_policy() != SnapshotPolicy::Signals {
                // No fork signal: every id goes through the process id check in `identity`. Or
                // every id has a random value of its own.
                1
            } else if l.left.get() == 0 && l.reading.get() == reading && l.epoch.get() == id.epoch {
                // Used up within the same clock second: this thread is busy, reserve more at once.
                (l.size.get() * 2).clamp(1, MAX_BLOCK)
            } else {
                1
            };
        let block: IdBlock = loop {
            let reserved = if waited {
                s.ids.reserve_after_wait(reading_secs(reading), want)
            } else {
                s.ids.reserve(reading_secs(reading), want)
            };
            match reserved {
                Ok(b) => break b,
                Err(_) => {
                    M::spent()?;
                    clock.wait();
                    waited = true;
                    reading = read::<M>(clock)?;
                }
            }
        };
        // A restore between the check above and the reservation: this block may be one
        // another copy reserves too. Drop it (its values count as used) and start over.
        match vm {
            Some((word, generation)) if word.load(Acquire) != generation => continue,
            _ => break (id, vm, want, block),
        }
    };
    let (secs, first, len) = (block.timestamp(), block.first(), block.len());
    if s.snapshot_policy() == SnapshotPolicy::EveryId {
        // Its own clone-divergent random value; the counter value comes from the shared
        // counter as always. A block of one: the next id comes here again. With the CPU's
        // random instruction, 64 fresh bits that differ between clones are mixed into the
        // value `getrandom` gave the process (no system call per id); without one, `getrandom`
        // per id as well (after a VMGenID reseed, the kernel's source differs between clones).
        let mut random = block.random();
        if !crate::snapshot::mix_divergent(&mut random) {
            random = s.fresh_random();
        }
        l.left.set(0);
        l.size.set(1);
        return Ok(ObjectId::from_parts(secs, random, first));
    }
    // The block's own random value: the one its counter values were reserved under.
    let random = block.random();
    l.guard.set(Some(id.guard.epoch));
    l.epoch.set(id.epoch);
    l.vm_word.set(vm.map(|(word, _)| word));
    l.vm_generation
        .set(vm.map_or(0, |(_, generation)| generation));
    l.reading.set(reading);
    l.secs.set(secs);
    l.random.set(random);
    l.weak.set(id.weak);
    l.next.set(first.wrapping_add(1));
    l.left.set(len - 1);
    l.size.set(want);
    Ok(ObjectId::from_parts(secs, random, first))
}

/// The next id in the legacy layout: this process's id, one shared counter (with its own
/// capacity window), reading `clock`.
#[cfg(feature = "legacy")]
pub(crate) fn next_legacy<M: Mode, C: Clock>(
    clock: &C,
    machine: u32,
) -> Result<ObjectId, M::Error> {
    next_legacy_in::<M, C>(&SHARED.0, clock, machine)
}

#[cfg(any(feature = "legacy", test))]
fn next_legacy_in<M: Mode, C: Clock>(
    s: &Shared,
    clock: &C,
    machine: u32,
) -> Result<ObjectId, M::Error> {
    let id = s.identity::<M>(&mut OsEntropy)?;
    let mut reading = read::<M>(clock)?;
    loop {
        match s.legacy_ids.reserve(reading_secs(reading), 1) {
            Ok(b) => {
                return Ok(ObjectId::from_legacy_parts(
                    b.timestamp(),
                    machine,
                    id.pid as u16,
                    b.first(),
                ));
            }
            Err(_) => {
                M::spent()?;
                clock.wait();
                reading = read::<M>(clock)?;
            }
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod snapshot_tests;
