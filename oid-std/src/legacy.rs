//! Ids in the legacy layout of older drivers (feature `legacy`): a 3-byte machine id and a
//! 2-byte process id in place of the 5-byte random value.
//!
//! The machine id is the first 3 bytes of the MD5 digest of the host name and the process id
//! the low 16 bits of the pid, as the older drivers (e.g. the Python and C drivers) computed
//! them. The current specification replaced this layout with a random value because two
//! machines or two processes can share these 5 bytes; use it only to match old ids.
//!
//! # Examples
//!
//! ```
//! let id = oid_std::legacy::new();
//! let parts = id.to_legacy_parts();
//! assert_eq!(parts.machine, oid_std::legacy::machine_id());
//! assert_eq!(parts.process_id, oid_std::legacy::process_id());
//! ```

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use md5::{Digest, Md5};
use oid_core::{Clock, ObjectId};

use crate::clock::CoarseClock;
use crate::entropy::OsEntropy;
use crate::error::Error;
use crate::process::{Lenient, Mode, Shared, Strict, read, reading_secs, shared};

/// The machine id, computed once (`u32::MAX` until then: machine ids are below 2^24).
static MACHINE: AtomicU32 = AtomicU32::new(u32::MAX);

/// The first 3 bytes of the MD5 digest of the host name, big-endian in the low 24 bits.
///
/// On Unix the host name comes from `gethostname`; on Windows from the `COMPUTERNAME`
/// environment variable. When it cannot be read, the digest of the empty name is used.
///
/// # Examples
///
/// ```
/// let machine = oid_std::legacy::machine_id();
/// assert!(machine < 1 << 24);
/// assert_eq!(machine, oid_std::legacy::machine_id()); // computed once
/// ```
pub fn machine_id() -> u32 {
    let cached = MACHINE.load(Relaxed);
    if cached != u32::MAX {
        return cached;
    }
    let name = crate::sys::host_name().unwrap_or_default();
    let id = machine_id_of(&name);
    MACHINE.store(id, Relaxed); // racing threads store the same value
    id
}

/// The legacy machine id of a host name.
pub(crate) fn machine_id_of(host_name: &[u8]) -> u32 {
    let digest = Md5::digest(host_name);
    u32::from_be_bytes([0, digest[0], digest[1], digest[2]])
}

/// The low 16 bits of this process's id.
///
/// # Examples
///
/// ```
/// assert_eq!(oid_std::legacy::process_id(), std::process::id() as u16);
/// ```
pub fn process_id() -> u16 {
    std::process::id() as u16
}

/// A new id in the legacy layout: the coarse clock's second, [`machine_id`], [`process_id`]
/// and a process-wide counter with a random start. Never fails, never panics and never
/// repeats an id (a failing clock or random source is handled as in [`crate::new`]).
///
/// Unlike [`crate::new`], all threads share one counter (one compare-and-swap per id), as in
/// the older drivers. The same capacity rule holds, for this counter on its own, under
/// [`CapacityPolicy::Fixed`](crate::CapacityPolicy::Fixed): past a second's capacity it sleeps
/// until the next second. A forked child (however it was
/// forked) gets its own process id and a new counter start.
///
/// # Examples
///
/// ```
/// let a = oid_std::legacy::new();
/// let b = oid_std::legacy::new();
/// assert_ne!(a, b);
/// assert_eq!(a.to_legacy_parts().machine, b.to_legacy_parts().machine);
/// ```
pub fn new() -> ObjectId {
    let Ok(id) = next_in::<Lenient, _>(shared(), &CoarseClock, machine_id());
    id
}

/// A new id in the legacy layout, or why there is none.
///
/// # Errors
///
/// As [`crate::try_new`]: this second's legacy ids are spent
/// ([`ErrorKind::CapacityExhausted`](crate::ErrorKind::CapacityExhausted)), the clock is before
/// 1970 or unreadable, or the OS random source failed (it draws the counter's start).
///
/// # Examples
///
/// ```
/// let id = oid_std::legacy::try_new()?;
/// assert_eq!(id.to_legacy_parts().machine, oid_std::legacy::machine_id());
/// # Ok::<(), oid_std::Error>(())
/// ```
pub fn try_new() -> Result<ObjectId, Error> {
    next_in::<Strict, _>(shared(), &CoarseClock, machine_id())
}

/// The next id in the legacy layout from `s`: this process's id, one shared counter (with its
/// own capacity window, in `s`), reading `clock`.
pub(crate) fn next_in<M: Mode, C: Clock>(
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
mod tests {
    use super::*;

    #[test]
    fn machine_id_is_the_first_three_md5_bytes() {
        // MD5("") = d41d8cd98f00b204e9800998ecf8427e, MD5("localhost") = 421aa90e079fa326b6494f812ad13e79
        assert_eq!(machine_id_of(b""), 0xd41d8c);
        assert_eq!(machine_id_of(b"localhost"), 0x421aa9);
    }

    #[test]
    fn legacy_ids_carry_machine_pid_and_a_running_counter() {
        let a = new().to_legacy_parts();
        let b = try_new().unwrap().to_legacy_parts();
        assert_eq!(
            a.machine,
            machine_id_of(&crate::sys::host_name().unwrap_or_default())
        );
        assert_eq!((a.process_id, b.process_id), (process_id(), process_id()));
        assert_ne!(a.counter, b.counter);
    }
}
