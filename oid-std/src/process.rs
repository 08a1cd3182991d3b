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
//!   under its sequence lock: a new generation, a page first seen, or a read that does not
//!   settle moves the id space to a fresh random value ([`IdSpace::rotate`]) that differs
//!   between copies. As a fallback (Linux, Android), every
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
use crate::snapshot::{FLAG_VM_GEN_COUNTER_PRESENT, Getrandom, PageWatch, SnapshotPolicy};

mod block;
mod identity;
#[cfg(any(feature = "legacy", test))]
mod legacy;
mod restore;

pub(crate) use self::block::*;
pub(crate) use self::identity::*;
#[cfg(feature = "legacy")]
pub(crate) use self::legacy::next_legacy;
#[cfg(test)]
use self::legacy::next_legacy_in;
pub(crate) use self::restore::*;

/// The largest counter block a thread reserves at once.
pub(crate) const MAX_BLOCK: u32 = 256;

/// Keeps the wrapped value on a cache line (two, against adjacent-line prefetch) of its own.
#[repr(align(128))]
struct CacheLine<T>(T);

/// A block's clock reading when the clock gave none.
const NO_READING: u64 = u64::MAX;

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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod snapshot_tests;
