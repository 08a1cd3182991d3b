//! The per-thread block of counter values ([`LOCAL`]): the fast path that takes the next id from
//! it ([`next`], [`take`]) and, when the block is spent or no longer live, its refill from the
//! shared id space ([`refill`]).

use std::cell::Cell;
use std::sync::atomic::Ordering::{Acquire, Relaxed};
use std::sync::atomic::{AtomicU32, AtomicU64};

use oid_core::__private::IdBlock;
use oid_core::{Clock, ObjectId};

use super::identity::Shared;
use super::{Mode, SHARED};
use crate::entropy::OsEntropy;
use crate::fork::GuardKind;
use crate::snapshot::{BootTime, Elapsed, SnapshotPolicy};

/// The largest counter block a thread reserves at once.
pub(crate) const MAX_BLOCK: u32 = 256;

/// A block's clock reading when the clock gave none.
const NO_READING: u64 = crate::snapshot::NO_TIME;

/// A thread's block of counter values.
pub(crate) struct Local {
    /// The epoch word the block is checked against (`None` before the first block: a `const`
    /// initializer may not hold a reference to a static with interior mutability before Rust
    /// 1.87 or so, and the MSRV is older), and the epoch it belongs to.
    pub(super) guard: Cell<Option<&'static AtomicU32>>,
    pub(super) epoch: Cell<u32>,
    /// The VMClock generation word (`None`: no VMClock page) and its value when the block was
    /// reserved: a restore changes it before the copy runs again.
    pub(super) vm_word: Cell<Option<&'static AtomicU64>>,
    pub(super) vm_generation: Cell<u64>,
    /// The clock reading the block was reserved at (`NO_READING`: none).
    pub(super) reading: Cell<u64>,
    /// The second the block's ids carry.
    pub(super) secs: Cell<u32>,
    /// The random value the block was reserved under.
    pub(super) random: Cell<[u8; 5]>,
    pub(super) weak: Cell<bool>,
    /// The next counter value and how many are left.
    pub(super) next: Cell<u32>,
    pub(super) left: Cell<u32>,
    /// The size asked for the current block.
    pub(super) size: Cell<u32>,
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
pub(crate) fn read<M: Mode>(clock: &impl Clock) -> Result<u64, M::Error> {
    match clock.unix_seconds() {
        // Wraps modulo 2^32, as the timestamp field does.
        Some(secs) => Ok(u64::from(secs as u32)),
        None => M::no_clock().map(|()| NO_READING),
    }
}

/// `reading` as the window takes it.
#[inline]
pub(crate) const fn reading_secs(reading: u64) -> Option<u32> {
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
        let vm = s.signals.check_vmclock(reading, || s.rotate_fresh());
        s.signals.check_jump(reading, elapsed, || s.rotate_fresh());
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
