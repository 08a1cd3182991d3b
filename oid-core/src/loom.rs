//! The atomics the generator is made of, chosen once for the whole crate (the shape of the
//! `bytes` crate's `src/loom.rs`):
//!
//! * `core::sync::atomic` by default;
//! * `portable-atomic` with the `portable-atomic` feature (targets without compare-and-swap);
//! * a critical section for the 64-bit words on targets without 64-bit atomics, with the
//!   `critical-section` feature: `portable-atomic` would guard them with a spin lock, which an
//!   interrupt handler that preempts the holder would wait on forever (those chips make
//!   thousands of ids per second, not millions);
//! * loom's atomics in this crate's own unit tests under `RUSTFLAGS="--cfg loom"`, so that the
//!   model checker explores every interleaving of their operations (`cargo xtask loom`). Only
//!   `cfg(all(test, loom))`, as in `bytes`: an application that runs its own loom tests sets
//!   `--cfg loom` for the whole graph, and must still get the plain atomics and `const`
//!   constructors (loom is a dev-dependency).

// The capacity policy's byte and the rotation step are read on the slow paths only and set
// before the models' threads start, so they stay plain atomics under loom (not part of the
// explored schedule). Targets without compare-and-swap still load and store them natively.
#[cfg(not(feature = "portable-atomic"))]
pub(crate) use core::sync::atomic::{AtomicU8, AtomicU32};
#[cfg(feature = "portable-atomic")]
pub(crate) use portable_atomic::{AtomicU8, AtomicU32};

#[cfg(all(test, loom))]
pub(crate) use loom::hint::spin_loop;
#[cfg(all(test, loom))]
pub(crate) use loom::sync::atomic::{AtomicU64, Ordering, fence};

#[cfg(not(all(test, loom)))]
pub(crate) use core::hint::spin_loop;

#[cfg(all(not(all(test, loom)), feature = "portable-atomic"))]
pub(crate) use portable_atomic::{Ordering, fence};

#[cfg(all(not(all(test, loom)), not(feature = "portable-atomic")))]
pub(crate) use core::sync::atomic::{Ordering, fence};

#[cfg(all(
    not(all(test, loom)),
    feature = "portable-atomic",
    not(all(feature = "critical-section", not(target_has_atomic = "64")))
))]
pub(crate) use portable_atomic::AtomicU64;

#[cfg(all(not(all(test, loom)), not(feature = "portable-atomic")))]
pub(crate) use core::sync::atomic::AtomicU64;

#[cfg(all(
    not(all(test, loom)),
    feature = "critical-section",
    not(target_has_atomic = "64")
))]
pub(crate) use self::critical::AtomicU64;

/// A 64-bit cell behind a critical section, with the atomics' interface the generator uses.
#[cfg(all(
    not(all(test, loom)),
    feature = "critical-section",
    not(target_has_atomic = "64")
))]
mod critical {
    use super::Ordering;
    use core::cell::Cell;
    use critical_section::Mutex;

    pub(crate) struct AtomicU64(Mutex<Cell<u64>>);

    impl AtomicU64 {
        pub(crate) const fn new(value: u64) -> AtomicU64 {
            AtomicU64(Mutex::new(Cell::new(value)))
        }

        pub(crate) fn load(&self, _: Ordering) -> u64 {
            critical_section::with(|cs| self.0.borrow(cs).get())
        }

        pub(crate) fn store(&self, value: u64, _: Ordering) {
            critical_section::with(|cs| self.0.borrow(cs).set(value));
        }

        pub(crate) fn fetch_add(&self, value: u64, _: Ordering) -> u64 {
            critical_section::with(|cs| {
                let cell = self.0.borrow(cs);
                let now = cell.get();
                cell.set(now.wrapping_add(value));
                now
            })
        }

        pub(crate) fn compare_exchange_weak(
            &self,
            current: u64,
            new: u64,
            success: Ordering,
            failure: Ordering,
        ) -> Result<u64, u64> {
            self.compare_exchange(current, new, success, failure)
        }

        pub(crate) fn compare_exchange(
            &self,
            current: u64,
            new: u64,
            _: Ordering,
            _: Ordering,
        ) -> Result<u64, u64> {
            critical_section::with(|cs| {
                let cell = self.0.borrow(cs);
                let now = cell.get();
                if now == current {
                    cell.set(new);
                    Ok(now)
                } else {
                    Err(now)
                }
            })
        }
    }
}
