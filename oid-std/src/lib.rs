#![doc = include_str!("../README.md")]
#![deny(unsafe_code)] // allowed only in `sys`, each block with its reason
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod clock;
pub mod diagnostics;
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
mod snapshot;
mod sys;
mod unix_time;

pub use crate::clock::{CoarseClock, SystemClock};
pub use crate::entropy::OsEntropy;
pub use crate::error::Error;
pub use crate::snapshot::SnapshotPolicy;
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
/// * **Capacity and clock steps:** the process follows its [`CapacityPolicy`] (see
///   [`set_capacity_policy`]), the one rule of every generator here: by default a spent second
///   makes `new()` sleep until the clock's next second ([`CoarseClock`]'s [`Clock::wait`]), and
///   a clock stepping back moves the process to a new random value at once. When the clock is
///   before 1970 or unreadable, ids carry the newest second (1970-01-01 if there never was one).
/// * **Snapshots and clones:** a VM restored from a snapshot (twice, or cloned) is seen by the
///   VMClock page's generation counter, loaded on every id where `/dev/vmclock0` exists (looked
///   for again at block refills while it is missing or mid-update), and,
///   on Linux and Android, by a jump of more than a few seconds of the wall clock against
///   `CLOCK_BOOTTIME` between two blocks of ids; either moves the process to a fresh random value
///   that differs between the copies. Restores without such a signal (a clock not set yet, or
///   moved with the boot clock) need [`reseed`] or [`SnapshotPolicy::EveryId`]: see the
///   [uniqueness notes](https://github.com/oid-rs/oid/blob/main/docs/uniqueness.md).
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
/// * [`ErrorKind::CapacityExhausted`]: this second's ids are spent and the
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
/// what it does when a second's ids are spent or the clock steps back. [`CapacityPolicy`] says
/// what each policy does ([`Wait`](CapacityPolicy::Wait) is the default,
/// [`Rotate`](CapacityPolicy::Rotate) goes on at the machine's speed on a new random value); the
/// [uniqueness notes](https://github.com/oid-rs/oid/blob/main/docs/uniqueness.md) give what
/// rotation costs.
///
/// The setting is for the whole process (and a forked child inherits it); threads generating
/// meanwhile follow it from their next block of ids. The legacy layout (feature `legacy`) keeps
/// its own counter under `Fixed`: its machine and process ids take the random value's place.
///
/// # Examples
///
/// ```
/// use oid_std::CapacityPolicy;
///
/// assert_eq!(oid_std::capacity_policy(), CapacityPolicy::Wait);
/// oid_std::set_capacity_policy(CapacityPolicy::Rotate);
/// assert_eq!(oid_std::capacity_policy(), CapacityPolicy::Rotate);
/// // try_new() no longer fails when a second's ids are spent.
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

/// Moves the process-wide generator to a fresh random value that differs between copies of
/// this process, and makes every thread drop its block of ids before its next id: the hook for
/// runtimes that know the process was just restored from a snapshot or cloned (a restore hook,
/// a CRaC-like `afterRestore`, a Firecracker or Lambda SnapStart runtime hook).
///
/// The new value mixes `getrandom` with sources that are not in a VM's memory (the CPU's random
/// instruction where it has one, the cycle counter, `CLOCK_MONOTONIC_RAW`), so it differs
/// between two copies even when their kernels' random state was cloned too. Safe to call while
/// other threads make ids (they go on with the new value); ids made before the call keep
/// theirs (so within a second, later ids of a thread may sort before earlier ones). Calling it when nothing was restored costs one random value of the 2^40 (see the
/// [uniqueness notes](https://github.com/oid-rs/oid/blob/main/docs/uniqueness.md)).
///
/// # Examples
///
/// ```
/// let before = oid_std::new();
/// oid_std::reseed(); // e.g. in the runtime's after-restore hook
/// let after = oid_std::new();
/// assert_ne!(before.to_parts().random, after.to_parts().random);
/// ```
pub fn reseed() {
    process::reseed();
}

/// Sets the [`SnapshotPolicy`] of the process-wide generator: what makes two copies of a process
/// restored from one VM snapshot diverge.
///
/// * [`Signals`](SnapshotPolicy::Signals), the default: a fresh clone-divergent random value
///   when the process sees a restore (the VMClock generation counter, checked on every id; the
///   wall clock jumping against the boot clock, checked per block; [`reseed`]). Where none of
///   these exists (no VMClock device, both clocks moved together, no runtime hook), copies
///   make the same ids: the uniqueness notes list the environments.
/// * [`EveryId`](SnapshotPolicy::EveryId): every id its own clone-divergent random value, so
///   copies diverge from their first id with no signal at all. Turn it on where processes run
///   from snapshots that nothing reports (a Firecracker restore without VMClock, a VM template
///   whose clones keep the template's clock). It costs a CPU random instruction per id (21x
///   the default, 4.5x bson's `ObjectId::new()` in one run of `cargo bench -p oid-benches
///   --bench std_generate` on x86-64), plus a `getrandom` call per id where the CPU has no
///   such instruction; ids no longer share one random value per process.
///
/// The setting is for the whole process; threads follow it from their next block of ids, so
/// set it at startup.
///
/// # Examples
///
/// ```
/// use oid_std::SnapshotPolicy;
///
/// oid_std::set_snapshot_policy(SnapshotPolicy::EveryId);
/// let (a, b) = (oid_std::new(), oid_std::new());
/// assert_ne!(a.to_parts().random, b.to_parts().random);
/// assert!(a.to_parts().counter != b.to_parts().counter || a.timestamp() != b.timestamp());
/// oid_std::set_snapshot_policy(SnapshotPolicy::Signals);
/// ```
pub fn set_snapshot_policy(policy: SnapshotPolicy) {
    process::set_snapshot_policy(policy);
}

/// The [`SnapshotPolicy`] of the process-wide generator (see [`set_snapshot_policy`]).
///
/// # Examples
///
/// ```
/// assert_eq!(oid_std::snapshot_policy(), oid_std::SnapshotPolicy::Signals);
/// ```
pub fn snapshot_policy() -> SnapshotPolicy {
    process::snapshot_policy()
}
