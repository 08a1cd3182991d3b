//! The few calls into the C library (`unsafe`, each with its reason).
//!
//! * `pthread_atfork`: std has no fork hook, and checking `getpid()` per id would cost a system
//!   call per id (see the `fork check` group of `cargo bench -p oid-std`).
//! * `clock_gettime(CLOCK_REALTIME_COARSE)` on Linux: a seconds clock that costs a fraction of
//!   `SystemTime::now()` (see the `clock` group of the same bench).
//! * `gethostname` for the legacy machine id (feature `legacy`): std cannot read the host name.
#![allow(unsafe_code)]

/// Registers `child` to run in the child process after every `fork()`. Returns `false` when
/// the C library refused (out of memory), or on targets without `fork`.
#[cfg(unix)]
pub(crate) fn register_fork_handler(child: extern "C" fn()) -> bool {
    // SAFETY: `pthread_atfork` has no preconditions; `None` is allowed for the prepare and
    // parent handlers, and `child` is a plain `extern "C"` function that lives for the whole
    // program (a function item, never unloaded).
    unsafe { libc::pthread_atfork(None, None, Some(child)) == 0 }
}

/// Registers `child` to run in the child process after every `fork()`. Returns `false` when
/// the C library refused (out of memory), or on targets without `fork`.
#[cfg(not(unix))]
pub(crate) fn register_fork_handler(_child: extern "C" fn()) -> bool {
    // No fork: nothing can copy this process's state into another one.
    true
}

/// Seconds since the Unix epoch from the kernel's coarse real-time clock (updated once per
/// scheduler tick, a few milliseconds at most behind `CLOCK_REALTIME`), or `None` before 1970.
#[cfg(any(target_os = "linux", target_os = "android"))]
#[inline]
pub(crate) fn coarse_unix_seconds() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec` for the duration of the call, and
    // `CLOCK_REALTIME_COARSE` is a clock id every Linux since 2.6.32 knows (on an older kernel
    // the call fails with EINVAL and we fall back below).
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_REALTIME_COARSE, &mut ts) };
    if rc == 0 {
        u64::try_from(ts.tv_sec).ok()
    } else {
        crate::clock::system_unix_seconds()
    }
}

/// Seconds since the Unix epoch, or `None` before 1970 (no coarse clock on this target: the
/// system clock).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
#[inline]
pub(crate) fn coarse_unix_seconds() -> Option<u64> {
    crate::clock::system_unix_seconds()
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
