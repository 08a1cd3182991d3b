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
/// * **Capacity:** one second holds 2^24 (16,777,216) ids per process. When the current
///   second's are spent, `new()` sleeps until the clock's next second ([`CoarseClock`]'s
///   [`Clock::wait`]) and goes on there: sustained generation is capped at 2^24 ids per second.
/// * **Clock:** timestamps never go below the newest second the process has stamped: if the
///   clock steps back, ids keep that second (and its capacity) until the clock catches up; when
///   the clock is before 1970 or unreadable, ids carry that newest second (1970-01-01 if there
///   never was a reading).
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
/// * [`ErrorKind::CapacityExhausted`]: this second's 2^24 ids are spent (try again in the next
///   second, or call [`new`], which waits for it);
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
