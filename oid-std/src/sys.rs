//! The few calls into the C library (`unsafe`, each with its reason). A leaf: nothing here
//! uses the rest of the crate.
//!
//! * `mmap` + `madvise(MADV_WIPEONFORK)` (Linux, Android): a page the kernel zeroes in every
//!   child, however it was made (`fork()`, `_Fork()`, `clone()` without `CLONE_VM`, the raw
//!   system calls). std has no such thing.
//! * `pthread_atfork` (other Unixes, and Linux kernels before 4.14): a fork hook, which only
//!   the C library's `fork()` runs.
//! * `time(NULL)` on 64-bit Linux: a seconds clock that costs a fraction of `SystemTime::now()`
//!   and of `clock_gettime(CLOCK_REALTIME_COARSE)` (the `clock and fork check` group of
//!   `cargo bench -p oid-benches --bench std_generate`).
//! * `clock_gettime(CLOCK_REALTIME_COARSE)` on Linux: the coarse clock's fraction of a second,
//!   to sleep until its next second when a second's ids are spent.
//! * `gethostname` for the legacy machine id (feature `legacy`): std cannot read the host name.
#![allow(unsafe_code)]

use core::sync::atomic::AtomicU32;

/// Words that read zero in every child process (see [`wipe_on_fork_words`]).
pub(crate) type WipeWords = [AtomicU32; 2];

/// Two words on a page of their own marked `MADV_WIPEONFORK`: the kernel gives every child
/// (whatever system call made it) a zeroed copy of the page, at the same address. Mapped once
/// per address space; `None` where the kernel refuses (before Linux 4.14) or on other systems.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn wipe_on_fork_words() -> Option<&'static WipeWords> {
    use core::ptr::null_mut;
    use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed};
    use core::sync::atomic::{AtomicBool, AtomicPtr};

    static PAGE: AtomicPtr<WipeWords> = AtomicPtr::new(null_mut());
    static REFUSED: AtomicBool = AtomicBool::new(false);

    let page = PAGE.load(Acquire);
    if !page.is_null() {
        // SAFETY: a non-null `PAGE` points to a mapping made below that is never unmapped,
        // readable and writable, page-aligned and zero-initialised (a valid `[AtomicU32; 2]`,
        // which has the layout of `[u32; 2]`); only atomics ever access it.
        return Some(unsafe { &*page });
    }
    if REFUSED.load(Relaxed) {
        return None;
    }
    // SAFETY: sysconf has no preconditions.
    let len = match usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }) {
        Ok(n) if n >= core::mem::size_of::<WipeWords>() => n,
        _ => 4096,
    };
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing: no
    // existing memory is affected.
    let fresh = unsafe {
        libc::mmap(
            null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if fresh == libc::MAP_FAILED {
        REFUSED.store(true, Relaxed);
        return None;
    }
    // SAFETY: `fresh` is the start of the `len`-byte mapping just made (page-aligned).
    if unsafe { libc::madvise(fresh, len, libc::MADV_WIPEONFORK) } != 0 {
        // SAFETY: unmaps exactly the mapping made above, which nothing else has seen.
        unsafe { libc::munmap(fresh, len) };
        REFUSED.store(true, Relaxed);
        return None;
    }
    let fresh = fresh.cast::<WipeWords>();
    match PAGE.compare_exchange(null_mut(), fresh, AcqRel, Acquire) {
        // SAFETY: as for the load above: the mapping lives for the rest of the program.
        Ok(_) => Some(unsafe { &*fresh }),
        Err(winner) => {
            // Another thread mapped its page first: use that one, drop ours (never shared).
            // SAFETY: `fresh` is our own mapping of `len` bytes, never published.
            unsafe { libc::munmap(fresh.cast(), len) };
            // SAFETY: `winner` is the published page, as for the load above.
            Some(unsafe { &*winner })
        }
    }
}

/// No wipe-on-fork memory on this system.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn wipe_on_fork_words() -> Option<&'static WipeWords> {
    None
}

/// Registers `child` to run in the child process after every `fork()` of the C library.
/// Returns `false` when the C library refused (out of memory).
#[cfg(unix)]
pub(crate) fn register_fork_handler(child: extern "C" fn()) -> bool {
    // SAFETY: `pthread_atfork` has no preconditions; `None` is allowed for the prepare and
    // parent handlers, and `child` is a plain `extern "C"` function that lives for the whole
    // program (a function item, never unloaded).
    unsafe { libc::pthread_atfork(None, None, Some(child)) == 0 }
}

/// Registers `child` to run in the child process after every `fork()`: on targets without
/// `fork`, nothing to do.
#[cfg(not(unix))]
pub(crate) fn register_fork_handler(_child: extern "C" fn()) -> bool {
    true
}

/// Seconds since the Unix epoch from `time(2)`, or `None` before 1970.
///
/// On Linux, `time()` answers from the vDSO without a system call: on x86-64 it is one load of
/// the kernel's current real-time second, elsewhere glibc reads `CLOCK_REALTIME_COARSE`. Either
/// way it is the coarse wall clock (updated once per scheduler tick, so at most a few
/// milliseconds behind `CLOCK_REALTIME`). Only where `time_t` is 64 bits.
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_pointer_width = "64"
))]
#[inline]
pub(crate) fn time_seconds() -> Option<u64> {
    // SAFETY: `time` accepts a null pointer (then it only returns the value), has no other
    // preconditions and is thread-safe.
    let secs = unsafe { libc::time(core::ptr::null_mut()) };
    // Negative: before 1970 (or the error value -1, which is also "not a time after 1970").
    u64::try_from(secs).ok()
}

/// The nanoseconds part of `CLOCK_REALTIME_COARSE` (the clock `time(2)` follows), or `None`.
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_pointer_width = "64"
))]
pub(crate) fn coarse_subsec_nanos() -> Option<u32> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the whole call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_REALTIME_COARSE, &mut ts) };
    if rc != 0 || ts.tv_sec < 0 {
        return None;
    }
    u32::try_from(ts.tv_nsec).ok()
}

/// Whole seconds of `CLOCK_BOOTTIME` (time since boot, suspend included; never set), or `None`.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn boot_seconds() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the whole call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_BOOTTIME, &mut ts) };
    if rc != 0 {
        return None;
    }
    u64::try_from(ts.tv_sec).ok()
}

/// The host name as bytes (without the terminating NUL), or `None` if it cannot be read.
#[cfg(all(feature = "legacy", unix))]
pub(crate) fn host_name() -> Option<Vec<u8>> {
    // POSIX host names are at most HOST_NAME_MAX (255 on Linux) bytes; leave room for the NUL.
    let mut buf = [0u8; 256];
    // SAFETY: `buf` is valid and writable for `buf.len()` bytes for the whole call.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return None;
    }
    // A truncated name may lack the NUL; then the whole buffer is the name.
    let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Some(buf[..len].to_vec())
}

/// The host name as bytes: the `COMPUTERNAME` environment variable (Windows), or `None`.
#[cfg(all(feature = "legacy", not(unix)))]
pub(crate) fn host_name() -> Option<Vec<u8>> {
    std::env::var_os("COMPUTERNAME").map(|s| s.to_string_lossy().into_owned().into_bytes())
}
