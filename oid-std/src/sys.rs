//! The few calls into the C library (`unsafe`, each with its reason).
//!
//! * `pthread_atfork`: std has no fork hook, and checking `getpid()` per id would cost a system
//!   call per id (see the `fork check` group of `cargo bench -p oid-std`).
//! * `time(NULL)` on 64-bit Linux: a seconds clock that costs a fraction of `SystemTime::now()`
//!   and of `clock_gettime(CLOCK_REALTIME_COARSE)` (the `clock and fork check` group of the
//!   same bench).
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

/// Seconds since the Unix epoch from `time(2)`, or `None` before 1970.
///
/// On Linux, `time()` answers from the vDSO without a system call: on x86-64 it is one load of
/// the kernel's current real-time second, elsewhere glibc reads `CLOCK_REALTIME_COARSE`. Either
/// way it is the coarse wall clock (updated once per scheduler tick, so at most a few
/// milliseconds behind `CLOCK_REALTIME`). Measured in the `clock and fork check` group of
/// `cargo bench -p oid-std`: several times cheaper than `clock_gettime(CLOCK_REALTIME_COARSE)`,
/// which in turn is cheaper than `SystemTime::now()`. Only where `time_t` is 64 bits.
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_pointer_width = "64"
))]
#[inline]
pub(crate) fn coarse_unix_seconds() -> Option<u64> {
    // SAFETY: `time` accepts a null pointer (then it only returns the value), has no other
    // preconditions and is thread-safe.
    let secs = unsafe { libc::time(core::ptr::null_mut()) };
    // Negative: before 1970 (or the error value -1, which is also "not a time after 1970").
    u64::try_from(secs).ok()
}

/// Seconds since the Unix epoch, or `None` before 1970 (no cheap clock known on this target:
/// the system clock).
#[cfg(not(all(
    any(target_os = "linux", target_os = "android"),
    target_pointer_width = "64"
)))]
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
