//! What a VM snapshot restore looks like from the wall clock: its jump against the boot-time
//! clock (the fallback signal where no VMClock page exists).

/// A change of the wall clock against the boot-time clock, in seconds, above which a refill
/// takes it for a snapshot restore (or a clock set far) and rotates the random value. The two
/// whole-second readings disagree by up to a second on their own; an NTP step is usually well
/// under a second.
pub(crate) const JUMP_SECONDS: u32 = 4;

/// `Shared::offset` before the first comparison.
pub(super) const NO_OFFSET: u64 = u64::MAX;

/// Elapsed seconds from a clock that is never set (the comparison for snapshot detection).
pub(crate) trait Elapsed {
    fn seconds(&self) -> Option<u64>;
}

/// `CLOCK_BOOTTIME` on Linux and Android; nothing elsewhere (no detection).
pub(crate) struct BootTime;

impl Elapsed for BootTime {
    #[inline]
    fn seconds(&self) -> Option<u64> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return crate::sys::boot_seconds();
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        return None;
    }
}
