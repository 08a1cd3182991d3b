//! The two 64-bit cells of the generator's state (the window and the counter), per target:
//! native or `portable-atomic` atomics, a critical section where 64-bit atomics are missing, or
//! loom's atomics in the model.

#[cfg(all(not(loom), feature = "portable-atomic"))]
use portable_atomic as atomic;

#[cfg(all(not(loom), not(feature = "portable-atomic")))]
use core::sync::atomic;

/// The 64-bit cells of the window and the counter: a native (or `portable-atomic`) `AtomicU64`
/// where that is lock-free or interrupt-safe. On targets with 32-bit but no 64-bit atomics (thumbv7m/7em,
/// riscv32imac) `portable-atomic` would guard it with a spin lock, which an interrupt handler
/// that preempts the holder would wait on forever; with the `critical-section` feature it is a
/// critical section instead (those chips make thousands of ids per second, not millions).
#[cfg(not(any(loom, all(feature = "critical-section", not(target_has_atomic = "64")))))]
pub(super) type Cell64 = atomic::AtomicU64;

/// In the loom model (`RUSTFLAGS="--cfg loom"`, `tests/loom.rs`) the cells are loom's atomics, so
/// the model checker explores every interleaving of their operations.
#[cfg(loom)]
pub(super) type Cell64 = loom::sync::atomic::AtomicU64;

#[cfg(all(feature = "critical-section", not(target_has_atomic = "64")))]
pub(super) struct Cell64(critical_section::Mutex<core::cell::Cell<u64>>);

#[cfg(all(feature = "critical-section", not(target_has_atomic = "64")))]
impl Cell64 {
    pub(super) const fn new(value: u64) -> Cell64 {
        Cell64(critical_section::Mutex::new(core::cell::Cell::new(value)))
    }

    pub(super) fn load(&self, _: atomic::Ordering) -> u64 {
        critical_section::with(|cs| self.0.borrow(cs).get())
    }

    pub(super) fn store(&self, value: u64, _: atomic::Ordering) {
        critical_section::with(|cs| self.0.borrow(cs).set(value));
    }

    pub(super) fn fetch_add(&self, value: u64, _: atomic::Ordering) -> u64 {
        critical_section::with(|cs| {
            let cell = self.0.borrow(cs);
            let now = cell.get();
            cell.set(now.wrapping_add(value));
            now
        })
    }

    pub(super) fn compare_exchange_weak(
        &self,
        current: u64,
        new: u64,
        success: atomic::Ordering,
        failure: atomic::Ordering,
    ) -> Result<u64, u64> {
        self.compare_exchange(current, new, success, failure)
    }

    pub(super) fn compare_exchange(
        &self,
        current: u64,
        new: u64,
        _: atomic::Ordering,
        _: atomic::Ordering,
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

/// The window before the first id (and after a reseed).
pub(super) const UNOPENED: u64 = u64::MAX;

/// The counter's tag before the first window.
pub(super) const UNTAGGED: u32 = u32::MAX;

/// `(tag << 32) | value`.
pub(super) const fn tagged(tag: u32, value: u32) -> u64 {
    ((tag as u64) << 32) | value as u64
}

/// The halves of a window word.
pub(super) const fn halves(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
}

/// A counter word: `(value << 32) | tag`. The value is the *high* half, so that adding
/// [`ONE`] to the word (the fast path's `fetch_add`) wraps the value modulo 2^32 and can never
/// carry into the tag.
pub(super) const fn counted(tag: u32, value: u32) -> u64 {
    ((value as u64) << 32) | tag as u64
}

/// The tag and the value of a counter word.
pub(super) const fn uncounted(word: u64) -> (u32, u32) {
    (word as u32, (word >> 32) as u32)
}

/// One counter value, in a counter word.
pub(super) const ONE: u64 = 1 << 32;
