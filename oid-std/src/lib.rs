#![doc = include_str!("../README.md")]
#![deny(unsafe_code)] // allowed only in `sys`, each block with its reason
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod clock;
mod entropy;
mod error;
mod ext;
mod external;
mod fork;
#[cfg(feature = "legacy")]
pub mod legacy;
pub mod prelude;
mod process;
mod sealed;
mod sys;
mod unix_time;

pub use crate::clock::{CoarseClock, SystemClock};
pub use crate::entropy::OsEntropy;
pub use crate::error::Error;
pub use crate::unix_time::UnixTime;

/// All of oid-core's public API (the value type, parsing and formatting, `IdRange`, the
/// `Generator` with its `Clock` and `Entropy` traits, the shared errors, and each integration
/// that oid-core's features enable), so that an std application depends on oid-std alone.
pub use oid_core::*;

/// A new id from the process-wide generator. Never fails, never panics, never repeats an id.
///
/// Equivalent to `ObjectId::new()` after `use oid_std::prelude::*;`. The timestamp comes from
/// [`CoarseClock`]; the random value is drawn once per process (again in a forked child,
/// however it was forked) from [`OsEntropy`].
///
/// * **Capacity:** one second and one random value hold 2^24 (16,777,216) ids. When the
///   current second's are spent, the process's [`CapacityPolicy`] decides (see
///   [`set_capacity_policy`]): by default ([`Wait`](CapacityPolicy::Wait)) `new()` sleeps until
///   the clock's next second ([`CoarseClock`]'s [`Clock::wait`]) and goes on there, so sustained
///   generation is capped at 2^24 ids per second; under [`Rotate`](CapacityPolicy::Rotate) the
///   process moves to a new random value and goes on at once.
/// * **Clock:** a reading up to [`CapacityPolicy::STEP_BACK_TOLERANCE`] behind the newest second
///   stamped stamps the newest second (timestamps stay monotonic across two threads' readings);
///   a clock stepping further back (an NTP step, the correction after a forward glitch) moves
///   the process to a new random value at the clock's own second, so no id repeats and nothing
///   waits for the clock to catch up. When the clock is before 1970 or unreadable, ids carry
///   the newest second (1970-01-01 if there never was a reading).
/// * **Snapshots:** on Linux and Android, a jump of more than a few seconds of the wall clock
///   against `CLOCK_BOOTTIME` between two blocks of ids (a VM resumed from a snapshot or a clone,
///   once its clock is set right) moves the process to a fresh random value from [`OsEntropy`].
///   It cannot see a restore that lands in the snapshot's wall-clock second (a clock not set
///   yet): see the [uniqueness notes](https://github.com/oid-rs/oid/blob/main/docs/uniqueness.md).
/// * **Entropy:** when the OS random source fails, the process's random value comes from a
///   fallback mix of time, process id and addresses.
///
/// [`try_new`] reports these conditions as errors instead.
///
/// # Examples
///
/// ```
/// let a = oid_std::new();
/// let b = oid_std::new();
/// assert!(a < b); // same thread: increasing
/// assert_eq!(a.to_parts().random, b.to_parts().random); // one random value per process
/// ```
#[inline]
pub fn new() -> ObjectId {
    let Ok(id) = process::next::<process::Lenient, _>(&CoarseClock);
    id
}

/// A new id from the process-wide generator, or why there is none.
///
/// Same generator as [`new`]; a failure uses up no counter value.
///
/// # Errors
///
/// [`Error`] of kind:
///
/// * [`ErrorKind::CapacityExhausted`]: this second's 2^24 ids are spent and the
///   [`capacity_policy`] is [`Wait`](CapacityPolicy::Wait) or [`Fixed`](CapacityPolicy::Fixed)
///   (try again in the next second, or call [`new`], which waits for it; under
///   [`Rotate`](CapacityPolicy::Rotate) this never happens);
/// * [`ErrorKind::ClockUnavailable`]: the clock is before 1970 or cannot be read;
/// * [`ErrorKind::EntropyFailed`]: the OS random source failed when the process had to draw
///   its random value ([`Error::entropy`] has the source's error);
/// * [`ErrorKind::WeakSeed`]: an earlier [`new`] drew it from the fallback mix instead.
///
/// # Examples
///
/// ```
/// use oid_std::ErrorKind;
///
/// let id = oid_std::try_new()?;
/// assert!(id.timestamp() > 1_600_000_000);
///
/// match oid_std::try_new() {
///     Ok(id) => assert!(id > oid_std::ObjectId::MIN),
///     Err(e) if e.kind() == ErrorKind::CapacityExhausted => { /* try again next second */ }
///     Err(e) => return Err(e),
/// }
/// # Ok::<(), oid_std::Error>(())
/// ```
#[inline]
pub fn try_new() -> Result<ObjectId, Error> {
    process::next::<process::Strict, _>(&CoarseClock)
}

/// Sets the [`CapacityPolicy`] of the process-wide generator behind [`new`] and [`try_new`]:
/// what it does when a second's 2^24 ids are spent.
///
/// * [`Wait`](CapacityPolicy::Wait), the default: one random value for the process while the
///   clock behaves (what the ObjectId specification describes); a spent second waits for the
///   next one ([`new`]) or is an error ([`try_new`]). Sustained generation is capped at 2^24
///   ids per second.
/// * [`Rotate`](CapacityPolicy::Rotate): a spent second moves the process to a new random value
///   and generation goes on at once, at the machine's speed (test and mock data, bulk loads).
///   Each rotation puts one more random value in use, which raises the (small) chance that
///   another process draws the same one; the
///   [uniqueness notes](https://github.com/oid-rs/oid/blob/main/docs/uniqueness.md) give the
///   figure.
/// * [`Fixed`](CapacityPolicy::Fixed): one random value whatever happens; a clock stepping back
///   keeps stamping the newest second until the clock catches up, waiting as long as that
///   takes once the second is spent.
///
/// A clock stepping back by more than [`CapacityPolicy::STEP_BACK_TOLERANCE`] moves to a new
/// random value under `Wait` and `Rotate` alike. The setting is for the whole process (and a
/// forked child inherits it); threads generating meanwhile follow it from their next block of
/// ids. The legacy layout (feature `legacy`) keeps its own counter under `Fixed`: its machine
/// and process ids take the random value's place and cannot change.
///
/// # Examples
///
/// ```
/// use oid_std::CapacityPolicy;
///
/// assert_eq!(oid_std::capacity_policy(), CapacityPolicy::Wait);
/// oid_std::set_capacity_policy(CapacityPolicy::Rotate);
/// assert_eq!(oid_std::capacity_policy(), CapacityPolicy::Rotate);
/// // try_new() no longer fails when a second's 2^24 ids are spent.
/// let a = oid_std::try_new()?;
/// let b = oid_std::try_new()?;
/// assert!(a < b);
/// # Ok::<(), oid_std::Error>(())
/// ```
pub fn set_capacity_policy(policy: CapacityPolicy) {
    process::set_policy(policy);
}

/// The [`CapacityPolicy`] of the process-wide generator (see [`set_capacity_policy`]).
///
/// # Examples
///
/// ```
/// use oid_std::CapacityPolicy;
///
/// assert_eq!(oid_std::capacity_policy(), CapacityPolicy::default());
/// ```
pub fn capacity_policy() -> CapacityPolicy {
    process::policy()
}
