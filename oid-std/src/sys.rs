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
//! * `mmap` of the VMClock page (`/dev/vmclock0`, Linux 7.0+ guests): the hypervisor changes
//!   its `vm_generation_counter` on every snapshot restore; one load of the mapped word per id
//!   is the only way to see a restore before the next id without a system call per id.
//! * RDRAND/RDSEED (x86-64), RNDR (AArch64), the cycle counter and `CLOCK_MONOTONIC_RAW`:
//!   sources outside a VM's memory, which differ between two clones of one snapshot (std has
//!   none of them).
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

/// The `vmclock_abi` structure of Linux's `include/uapi/linux/vmclock-abi.h` (version 1), as
/// the little-endian 64-bit words it is made of (112 bytes). Every field the crate reads lies
/// inside one naturally aligned word: `seq_count` is the high half of word 1, `flags` word 3,
/// `vm_generation_counter` word 13.
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_has_atomic = "64"
))]
pub(crate) type VmClockWords = [core::sync::atomic::AtomicU64; 14];

/// Why [`map_vmclock`] found no page.
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_has_atomic = "64"
))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MapError {
    /// Nothing at the path.
    Missing,
    /// There, but it cannot be opened or mapped.
    Unreadable,
    /// Mapped, but shorter than the structure or refused by the caller's check.
    Invalid,
}

/// A VMClock page mapped by [`map_vmclock`].
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_has_atomic = "64"
))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct MappedPage {
    pub(crate) words: &'static VmClockWords,
    /// The file's identity (device, inode) when it is a regular file, which a rename can
    /// replace; `None` for the device, which the hypervisor updates in place.
    pub(crate) identity: Option<(u64, u64)>,
}

/// The identity (device, inode) of the regular file at `path`, or `None` (missing, or not a
/// regular file). One `statx` system call.
#[cfg(unix)]
pub(crate) fn file_identity(path: &std::path::Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    meta.is_file().then(|| (meta.dev(), meta.ino()))
}

/// Maps the first page of `path` (the VMClock device `/dev/vmclock0`, or a regular file of the
/// same layout) read-only and shared, so that the hypervisor's (or a test's) later writes show
/// through, and keeps it if `accept` takes its words: for the rest of the program (never
/// unmapped, since threads keep references to it; a process replaces its page only when the
/// file at its path is replaced, one page each time). A refused page is unmapped at once.
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_has_atomic = "64"
))]
pub(crate) fn map_vmclock(
    path: &std::path::Path,
    accept: impl FnOnce(&VmClockWords) -> bool,
) -> Result<MappedPage, MapError> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;

    let file = std::fs::File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => MapError::Missing,
        _ => MapError::Unreadable,
    })?;
    let meta = file.metadata().map_err(|_| MapError::Unreadable)?;
    // A regular file shorter than the structure would fault (SIGBUS) past its end; the device
    // is a character device whose size reads 0 and whose page is a whole page.
    if meta.is_file() && meta.len() < core::mem::size_of::<VmClockWords>() as u64 {
        return Err(MapError::Invalid);
    }
    // SAFETY: sysconf has no preconditions.
    let len = match usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }) {
        Ok(n) if n >= core::mem::size_of::<VmClockWords>() => n,
        _ => return Err(MapError::Unreadable),
    };
    // SAFETY: a new read-only shared mapping of the file's first page (the device accepts
    // exactly one page at offset 0, read-only), at an address of the kernel's choosing: no
    // existing memory is affected. The descriptor may be closed afterwards; the mapping stays.
    let page = unsafe {
        libc::mmap(
            core::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_SHARED,
            file.as_raw_fd(),
            0,
        )
    };
    if page == libc::MAP_FAILED {
        return Err(MapError::Unreadable);
    }
    // SAFETY: `page` is the mapping made above: page-aligned (so 8-byte aligned), at least 112
    // bytes long and readable. Unless refused below, it is never unmapped, so it lives for the
    // rest of the program. It is only read, with atomic loads: a hypervisor (or a test's writes
    // to the file) may change it at any time, which atomics allow and plain references would
    // not. `[AtomicU64; 14]` has the layout of `[u64; 14]`. A regular file truncated below 112
    // bytes later would fault: the documentation of `OID_STD_VMCLOCK` says the file must keep
    // its size (replacing it by a rename is fine: the old mapping keeps the old file).
    let words: &'static VmClockWords = unsafe { &*page.cast::<VmClockWords>() };
    if !accept(words) {
        // SAFETY: our own mapping of `len` bytes; `accept` returned and kept no reference (its
        // argument's lifetime is the call's), and it was never published.
        unsafe { libc::munmap(page, len) };
        return Err(MapError::Invalid);
    }
    let identity = meta.is_file().then(|| (meta.dev(), meta.ino()));
    Ok(MappedPage { words, identity })
}

/// A value from the CPU's random number instruction: RDRAND (RDSEED where only it exists) on
/// x86-64, RNDR on AArch64; `None` where there is none or it failed (after a few retries).
#[cfg(target_arch = "x86_64")]
pub(crate) fn cpu_random() -> Option<u64> {
    #[target_feature(enable = "rdrand")]
    #[allow(unused_unsafe, reason = "the intrinsic is `unsafe` before Rust 1.87")]
    unsafe fn rdrand() -> Option<u64> {
        let mut v = 0u64;
        for _ in 0..10 {
            // SAFETY: this function is only called where the CPU has RDRAND (checked below).
            if unsafe { core::arch::x86_64::_rdrand64_step(&mut v) } == 1 {
                return Some(v);
            }
        }
        None
    }
    #[target_feature(enable = "rdseed")]
    #[allow(unused_unsafe, reason = "the intrinsic is `unsafe` before Rust 1.87")]
    unsafe fn rdseed() -> Option<u64> {
        let mut v = 0u64;
        for _ in 0..10 {
            // SAFETY: this function is only called where the CPU has RDSEED (checked below).
            if unsafe { core::arch::x86_64::_rdseed64_step(&mut v) } == 1 {
                return Some(v);
            }
        }
        None
    }
    match cpu_random_kind() {
        // SAFETY: the CPU has RDRAND (cpu_random_kind checked it at run time).
        Some("rdrand") => unsafe { rdrand() },
        // SAFETY: the CPU has RDSEED (checked likewise).
        Some("rdseed") => unsafe { rdseed() },
        _ => None,
    }
}

/// A value from the CPU's random number instruction (see the x86-64 version).
#[cfg(target_arch = "aarch64")]
pub(crate) fn cpu_random() -> Option<u64> {
    cpu_random_kind()?;
    for _ in 0..10 {
        let v: u64;
        let failed: u64;
        // SAFETY: RNDR (the system register s3_3_c2_c4_0) exists: the CPU has FEAT_RNG
        // (checked at run time above). It only writes the two output registers and the flags
        // (NZCV = 0b0100 on failure, which `cset` turns into `failed`).
        unsafe {
            core::arch::asm!(
                "mrs {v}, s3_3_c2_c4_0",
                "cset {f}, eq",
                v = out(reg) v,
                f = out(reg) failed,
                options(nomem, nostack),
            );
        }
        if failed == 0 {
            return Some(v);
        }
    }
    None
}

/// No CPU random instruction on this architecture.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) fn cpu_random() -> Option<u64> {
    None
}

/// The CPU random instruction [`cpu_random`] uses, by name, if the CPU has one.
pub(crate) fn cpu_random_kind() -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("rdrand") {
            return Some("rdrand");
        }
        if std::arch::is_x86_feature_detected!("rdseed") {
            return Some("rdseed");
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("rand") {
            return Some("rndr");
        }
    }
    None
}

/// The CPU's cycle counter (the TSC).
#[cfg(target_arch = "x86_64")]
pub(crate) fn cycle_counter() -> Option<u64> {
    // SAFETY: RDTSC exists on every x86-64 CPU and has no preconditions.
    Some(unsafe { core::arch::x86_64::_rdtsc() })
}

/// The CPU's virtual counter (CNTVCT_EL0).
#[cfg(target_arch = "aarch64")]
pub(crate) fn cycle_counter() -> Option<u64> {
    let v: u64;
    // SAFETY: CNTVCT_EL0 is readable at EL0 on every AArch64 Linux system (the kernel enables
    // it for the vDSO's clocks); reading it only writes the output register.
    unsafe {
        core::arch::asm!("mrs {v}, cntvct_el0", v = out(reg) v, options(nomem, nostack));
    }
    Some(v)
}

/// No cycle counter read on this architecture.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) fn cycle_counter() -> Option<u64> {
    None
}

/// `CLOCK_MONOTONIC_RAW` in nanoseconds (the hardware counter, not slewed by NTP), or `None`.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn monotonic_raw_nanos() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the whole call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC_RAW, &mut ts) };
    if rc != 0 {
        return None;
    }
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u64::try_from(ts.tv_nsec).ok()?;
    Some(secs.wrapping_mul(1_000_000_000).wrapping_add(nanos))
}

/// No raw monotonic clock outside Linux.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn monotonic_raw_nanos() -> Option<u64> {
    None
}

/// Test scaffolding for the clone harness: a raw copy of this process, its end, and waiting
/// for it (the `unsafe` stays in this module).
#[cfg(all(test, unix))]
pub(crate) mod test_fork {
    /// `fork()`: `Some(0)` in the child, `Some(pid)` in the parent, `None` if it failed.
    pub(crate) fn fork() -> Option<libc::pid_t> {
        // SAFETY: fork has no preconditions; the child only runs code that allocates nothing
        // (its buffers are made before) and leaves with `exit_now`.
        let pid = unsafe { libc::fork() };
        (pid >= 0).then_some(pid)
    }

    /// Ends the child at once with `code`, running no exit handler of the test harness.
    pub(crate) fn exit_now(code: i32) -> ! {
        // SAFETY: `_exit` has no preconditions and never returns.
        unsafe { libc::_exit(code) }
    }

    /// Waits for child `pid`; whether it exited with status 0.
    pub(crate) fn wait_ok(pid: libc::pid_t) -> bool {
        let mut status = 0;
        // SAFETY: `status` is a valid int for the whole call; `pid` is a child of ours.
        let rc = unsafe { libc::waitpid(pid, &mut status, 0) };
        rc == pid && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
    }
}

/// A slot holding a `&'static T` (or nothing) that threads replace atomically: for the
/// VMClock page in use and the path it came from.
pub(crate) struct StaticSlot<T: 'static>(core::sync::atomic::AtomicPtr<T>);

impl<T: 'static> StaticSlot<T> {
    pub(crate) const fn new() -> Self {
        StaticSlot(core::sync::atomic::AtomicPtr::new(core::ptr::null_mut()))
    }

    /// What the slot holds.
    pub(crate) fn load(&self) -> Option<&'static T> {
        let p = self.0.load(core::sync::atomic::Ordering::Acquire);
        // SAFETY: the slot only ever holds null or a pointer made from a `&'static T` (`store`,
        // `get_or_leak`), valid for the rest of the program; only shared references are made.
        (!p.is_null()).then(|| unsafe { &*p })
    }

    /// Replaces what the slot holds.
    pub(crate) fn store(&self, value: Option<&'static T>) {
        let p = value.map_or(core::ptr::null_mut(), |v| core::ptr::from_ref(v).cast_mut());
        self.0.store(p, core::sync::atomic::Ordering::Release);
    }

    /// What the slot holds, or `make()`'s value leaked into it if it holds nothing (a thread
    /// that loses a race leaks its own value once).
    pub(crate) fn get_or_leak(&self, make: impl FnOnce() -> T) -> &'static T {
        if let Some(v) = self.load() {
            return v;
        }
        let fresh: &'static T = Box::leak(Box::new(make()));
        let p = core::ptr::from_ref(fresh).cast_mut();
        match self.0.compare_exchange(
            core::ptr::null_mut(),
            p,
            core::sync::atomic::Ordering::AcqRel,
            core::sync::atomic::Ordering::Acquire,
        ) {
            Ok(_) => fresh,
            // SAFETY: as in `load`: a published pointer comes from a `&'static T`.
            Err(winner) => unsafe { &*winner },
        }
    }
}
