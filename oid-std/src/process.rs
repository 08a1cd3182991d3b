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
//! * Per thread ([`block`]): a block of counter values reserved from `SHARED` in one
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
//!   between copies. As a fallback (Linux, Android), every refill compares the wall clock's
//!   second with `CLOCK_BOOTTIME` (elapsed time, never set): their difference changes only when
//!   the wall clock is set, and a change of more than [`JUMP_SECONDS`] since the previous
//!   refill rotates likewise ([`Signals`] reads both signals). [`crate::reseed`] rotates and
//!   moves to a new epoch, so every thread drops its block. Under
//!   [`SnapshotPolicy::EveryId`] every id is a block of one with a random value of its own.
//!   Restores without a signal are listed in docs/uniqueness.md.
//!
//! Within one thread, ids increase: the second first, then the counter, taken from ranges
//! reserved later and later (until the 24-bit counter wraps, as in the spec, or the random value
//! changes).
//!
//! [`Clock::wait`]: oid_core::Clock::wait
//! [`Guard`]: crate::fork::Guard
//! [`IdSpace`]: oid_core::IdSpace
//! [`IdSpace::reserve`]: oid_core::IdSpace::reserve
//! [`IdSpace::rotate`]: oid_core::IdSpace::rotate
//! [`JUMP_SECONDS`]: crate::snapshot::JUMP_SECONDS
//! [`MAX_BLOCK`]: block::MAX_BLOCK
//! [`Signals`]: crate::snapshot::Signals

use oid_core::{CapacityPolicy, EntropyError};

use crate::error::Error;
use crate::snapshot::SnapshotPolicy;

mod block;
mod identity;

pub(crate) use self::block::next;
#[cfg(feature = "legacy")]
pub(crate) use self::block::{read, reading_secs};
pub(crate) use self::identity::Shared;

/// Keeps the wrapped value on a cache line (two, against adjacent-line prefetch) of its own.
#[repr(align(128))]
struct CacheLine<T>(T);

/// The process-wide generator's shared state.
static SHARED: CacheLine<Shared> = CacheLine(Shared::new(None));

/// The process-wide generator's shared state (for the legacy layout's counter).
#[cfg(feature = "legacy")]
pub(crate) fn shared() -> &'static Shared {
    &SHARED.0
}

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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod snapshot_tests;
