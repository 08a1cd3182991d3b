//! What the process-wide generator uses on this machine, for `oid doctor` and for logs: how it
//! sees a fork, which snapshot signals it has, its entropy sources and its policies.
//!
//! # Examples
//!
//! ```
//! use oid_std::diagnostics::{self, ForkDetection};
//!
//! let report = diagnostics::report();
//! assert!(report.entropy_error.is_none());
//! # #[cfg(target_os = "linux")]
//! assert_eq!(report.fork_detection, ForkDetection::WipeOnFork);
//! println!("{}", report.vmclock.status.as_str());
//! ```

use std::path::PathBuf;

use oid_core::{CapacityPolicy, EntropyError};

use crate::fork::GuardKind;
use crate::snapshot::{Elapsed, FLAG_VM_GEN_COUNTER_PRESENT, Found, SnapshotPolicy};

/// What oid-std will use in this process (see [`report`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// How a forked child is told apart from its parent.
    pub fork_detection: ForkDetection,
    /// The VMClock page: a restore signal checked on every id.
    pub vmclock: VmClockReport,
    /// Whether `CLOCK_BOOTTIME` can be read: the wall clock is compared with it on every block
    /// of ids (a jump of more than a few seconds is taken for a restore).
    pub boot_clock: bool,
    /// `Some`: the OS random source (`getrandom`) failed just now; new random values then come
    /// from a fallback mix of time, process id and addresses.
    pub entropy_error: Option<EntropyError>,
    /// The CPU random instruction mixed into every new random value, if the CPU has one.
    pub cpu_random: Option<CpuRandom>,
    /// Whether a cycle counter is read into every new random value (x86-64, AArch64).
    pub cycle_counter: bool,
    /// Whether `CLOCK_MONOTONIC_RAW` is read into every new random value (Linux).
    pub monotonic_raw: bool,
    /// The process-wide [`CapacityPolicy`] ([`crate::capacity_policy`]).
    pub capacity_policy: CapacityPolicy,
    /// The process-wide [`SnapshotPolicy`] ([`crate::snapshot_policy`]).
    pub snapshot_policy: SnapshotPolicy,
}

/// How a forked child is told apart from its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ForkDetection {
    /// A `MADV_WIPEONFORK` page (Linux 4.14+, Android): every child, however made.
    WipeOnFork,
    /// A `pthread_atfork` handler: children of the C library's `fork()` (not a raw system call).
    AtFork,
    /// The process id, compared on every id (no handler could be registered).
    ProcessId,
    /// Nothing needed: this system cannot copy a process (Windows, ...).
    NoFork,
}

impl ForkDetection {
    /// A short name (`"wipe-on-fork"`, `"atfork"`, `"process-id"`, `"no-fork"`).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_std::diagnostics::ForkDetection::AtFork.as_str(), "atfork");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ForkDetection::WipeOnFork => "wipe-on-fork",
            ForkDetection::AtFork => "atfork",
            ForkDetection::ProcessId => "process-id",
            ForkDetection::NoFork => "no-fork",
        }
    }
}

/// The VMClock page oid-std looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct VmClockReport {
    /// `/dev/vmclock0`, or the file named by the `OID_STD_VMCLOCK` environment variable.
    pub path: PathBuf,
    /// What was found there.
    pub status: VmClockStatus,
    /// The page's `flags` (0 unless the page was read).
    pub flags: u64,
    /// The page's `vm_generation_counter` (0 unless the page was read).
    pub generation: u64,
    /// Whether the process-wide generator checks it now: the page is valid, reads
    /// consistently and its flag `VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT` is set.
    pub in_use: bool,
    /// Whether a running process that has no working page keeps looking: at its block refills
    /// (every one during its first 10 seconds, then at most once per second of the wall clock)
    /// it looks at the path again, and a page that appears or settles is used from then on,
    /// with a new random value (a restore in between cannot be ruled out). True wherever
    /// VMClock is read.
    pub rechecked: bool,
    /// Whether a replacement of the page file by a rename is seen: the page is a regular file
    /// (`OID_STD_VMCLOCK`), whose device and inode a running process compares at every block
    /// refill, so each thread moves to the new file at its next refill (the ids left in its
    /// current block can still repeat in two copies). False for the device, which the
    /// hypervisor updates in place, and when no page is mapped.
    pub replacement_seen: bool,
}

/// What was found at the VMClock path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VmClockStatus {
    /// Nothing there (not a VM with VMClock, or the driver is not loaded).
    Missing,
    /// There, but it cannot be opened or mapped (permissions: the device is usually root-only
    /// unless the image grants access).
    Unreadable,
    /// A valid page whose sequence count stayed odd through every attempt to read it (the
    /// hypervisor mid-update, or an updater stuck): a running process takes each such refill
    /// for a possible restore and draws a new random value, until the page settles.
    MidUpdate,
    /// Mapped, but not a VMClock page of version 1 holding the generation counter.
    Invalid,
    /// A valid page whose hypervisor does not maintain the generation counter.
    NoGenerationCounter,
    /// A valid page with the generation counter: every restore is seen before the next id.
    Active,
    /// VMClock is not read on this system (not Linux, or no 64-bit atomics).
    Unsupported,
}

impl VmClockStatus {
    /// A short name (`"missing"`, `"active"`, ...).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_std::diagnostics::VmClockStatus::Active.as_str(), "active");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            VmClockStatus::Missing => "missing",
            VmClockStatus::Unreadable => "unreadable",
            VmClockStatus::MidUpdate => "mid-update",
            VmClockStatus::Invalid => "invalid",
            VmClockStatus::NoGenerationCounter => "no-generation-counter",
            VmClockStatus::Active => "active",
            VmClockStatus::Unsupported => "unsupported",
        }
    }
}

/// A CPU random number instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CpuRandom {
    /// x86-64 RDRAND.
    Rdrand,
    /// x86-64 RDSEED (used where RDRAND is missing).
    Rdseed,
    /// AArch64 RNDR (FEAT_RNG).
    Rndr,
}

impl CpuRandom {
    /// The instruction's name in lower case.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_std::diagnostics::CpuRandom::Rndr.as_str(), "rndr");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            CpuRandom::Rdrand => "rdrand",
            CpuRandom::Rdseed => "rdseed",
            CpuRandom::Rndr => "rndr",
        }
    }
}

/// Looks at this machine and process: what [`crate::new`] uses. Maps the VMClock page and the
/// wipe-on-fork page if the generator has not yet; draws one byte from `getrandom`.
///
/// # Examples
///
/// ```
/// let report = oid_std::diagnostics::report();
/// assert_eq!(report.capacity_policy, oid_std::capacity_policy());
/// ```
pub fn report() -> Report {
    let mut probe = [0u8; 1];
    Report {
        fork_detection: fork_detection(),
        vmclock: vmclock_report(),
        boot_clock: crate::snapshot::BootTime.seconds().is_some(),
        entropy_error: crate::snapshot::os_getrandom(&mut probe).err(),
        cpu_random: match crate::sys::cpu_random_kind() {
            Some("rdrand") => Some(CpuRandom::Rdrand),
            Some("rdseed") => Some(CpuRandom::Rdseed),
            Some("rndr") => Some(CpuRandom::Rndr),
            _ => None,
        },
        cycle_counter: crate::sys::cycle_counter().is_some(),
        monotonic_raw: crate::sys::monotonic_raw_nanos().is_some(),
        capacity_policy: crate::capacity_policy(),
        snapshot_policy: crate::snapshot_policy(),
    }
}

fn fork_detection() -> ForkDetection {
    if cfg!(not(unix)) {
        return ForkDetection::NoFork;
    }
    match crate::fork::process_guard().kind {
        GuardKind::WipeOnFork => ForkDetection::WipeOnFork,
        GuardKind::AtFork => ForkDetection::AtFork,
        GuardKind::Pid => ForkDetection::ProcessId,
    }
}

fn vmclock_report() -> VmClockReport {
    let watch = crate::snapshot::process_watch();
    // A look now, as a refill does (the page mapped, or the path looked at again).
    let page = watch.look(crate::snapshot::NO_TIME);
    let supported = cfg!(all(
        any(target_os = "linux", target_os = "android"),
        target_has_atomic = "64"
    ));
    let mut report = VmClockReport {
        path: watch.path().to_path_buf(),
        status: VmClockStatus::Unsupported,
        flags: 0,
        generation: 0,
        in_use: false,
        rechecked: supported,
        replacement_seen: page.is_some() && watch.identity_checked(),
    };
    report.status = match (page, watch.found()) {
        (Some(page), _) => match page.read_tries(crate::snapshot::SEQLOCK_TRIES) {
            None => VmClockStatus::MidUpdate,
            Some(reading) => {
                report.flags = reading.flags;
                report.generation = u64::from_le(reading.generation);
                if reading.flags & FLAG_VM_GEN_COUNTER_PRESENT == 0 {
                    VmClockStatus::NoGenerationCounter
                } else {
                    report.in_use = true;
                    VmClockStatus::Active
                }
            }
        },
        (None, Found::Missing) => VmClockStatus::Missing,
        (None, Found::Unreadable) => VmClockStatus::Unreadable,
        (None, Found::Invalid | Found::Mapped) => VmClockStatus::Invalid,
        (None, Found::Unsupported | Found::NotYet) => VmClockStatus::Unsupported,
    };
    report
}
