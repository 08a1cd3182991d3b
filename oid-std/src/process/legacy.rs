//! The legacy layout's shared counter (feature `legacy`).

#[allow(
    clippy::wildcard_imports,
    reason = "one module split by concern: the parent's names"
)]
use super::*;

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
pub(super) fn next_legacy_in<M: Mode, C: Clock>(
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
