#![doc = include_str!("../README.md")]
#![deny(unsafe_code)] // allowed only in `sys`, each block with its reason
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod clock;
mod entropy;
mod error;
mod external;
#[cfg(feature = "legacy")]
pub mod legacy;
pub mod prelude;
mod process;
mod sys;
mod unix_time;

pub use crate::clock::{CoarseClock, SystemClock};
pub use crate::entropy::OsEntropy;
pub use crate::error::Error;
pub use crate::unix_time::UnixTime;
pub use oid_core::ObjectId;

/// A new id from the process-wide generator. Never fails and never panics.
///
/// Equivalent to `ObjectId::new()` after `use oid_std::prelude::*;`. The timestamp comes from
/// [`CoarseClock`]; the random value is drawn once per process (again in a forked child) from
/// [`OsEntropy`]. When the clock is before 1970 or unreadable, the last good reading is used
/// (1970-01-01 if there never was one); when the OS random source fails, the process is seeded
/// from a fallback mix of time, process id and addresses. [`try_new`] reports both instead.
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
    match process::next::<process::Lenient>(sys::coarse_unix_seconds()) {
        Ok(id) => id,
        Err(never) => match never {},
    }
}

/// A new id from the process-wide generator, or why there is none.
///
/// Same generator as [`new`]; no counter value is used up by a failure.
///
/// # Errors
///
/// * The clock is before 1970 or cannot be read ([`Error::is_clock`]).
/// * The OS random source failed when the process had to be seeded, or the process was seeded
///   from the fallback mix by an earlier [`new`] ([`Error::is_entropy`]).
///
/// # Examples
///
/// ```
/// let id = oid_std::try_new()?;
/// assert!(id.timestamp() > 1_600_000_000);
/// # Ok::<(), oid_std::Error>(())
/// ```
#[inline]
pub fn try_new() -> Result<ObjectId, Error> {
    process::next::<process::Strict>(sys::coarse_unix_seconds())
}
