//! Telling apart two copies of one process restored from one VM snapshot (or cloned by CRIU,
//! a VM template, ...): the VMClock page, a reseed that differs between copies, and the
//! process-wide [`SnapshotPolicy`].
//!
//! A copy has the parent's memory: its random value, counter and per-thread blocks; no fork
//! signal fires. What tells the copies apart:
//!
//! * **VMClock** (`/dev/vmclock0`, Linux 7.0+ guests and the cloud microVM kernels): a page the
//!   hypervisor updates, whose `vm_generation_counter` changes on every restore *before* the
//!   vCPUs resume. oid-std maps it once, loads the counter's word beside the fork check on every
//!   id (a thread's copied block is dropped before its next id) and reads it under the page's
//!   sequence lock on every block refill.
//! * The wall clock against `CLOCK_BOOTTIME` on every block refill (see `process`), for VMs
//!   without VMClock whose clock is set after the restore.
//! * [`crate::reseed`], for runtimes that know they were restored.
//!
//! VMGenID's `NEW_VMGENID=1` uevent is not used: it arrives on a netlink socket, so seeing it
//! takes a thread of our own or a system call per id (a `recv` on a non-blocking socket). What
//! it causes, the kernel reseeding its random source, reaches the ids anyway: every new random
//! value mixes `getrandom` in.

use std::hash::{DefaultHasher, Hasher};
use std::sync::atomic::Ordering::{Acquire, Release};
use std::sync::atomic::{AtomicU8, AtomicU64};

use oid_core::EntropyError;

/// What the process-wide generator does about VM snapshots and clones, for the whole process
/// (see [`crate::set_snapshot_policy`]).
///
/// # Examples
///
/// ```
/// use oid_std::SnapshotPolicy;
///
/// assert_eq!(SnapshotPolicy::default(), SnapshotPolicy::Signals);
/// assert_eq!(SnapshotPolicy::EveryId.as_str(), "every-id");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SnapshotPolicy {
    /// The default: one random value per process, changed to a fresh clone-divergent one when
    /// a signal says the process was restored or cloned (the VMClock generation counter, a
    /// jump of the wall clock against the boot clock, [`crate::reseed`]). Two copies restored
    /// without any signal make the same ids.
    #[default]
    Signals,
    /// Every id gets its own clone-divergent random value (and its counter from the shared
    /// counter, so ids of one process stay distinct): two copies diverge from their first id
    /// after a restore with no signal at all. It costs a CPU random instruction per id (a
    /// `getrandom` call where the CPU has none), and every id is a new draw of 40 random bits
    /// (see the uniqueness notes for the odds).
    EveryId,
}

impl SnapshotPolicy {
    /// The policy's name, as `oid doctor` prints it.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_std::SnapshotPolicy::Signals.as_str(), "signals");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            SnapshotPolicy::Signals => "signals",
            SnapshotPolicy::EveryId => "every-id",
        }
    }

    pub(crate) const fn to_u8(self) -> u8 {
        match self {
            SnapshotPolicy::Signals => 0,
            SnapshotPolicy::EveryId => 1,
        }
    }

    pub(crate) const fn from_u8(v: u8) -> SnapshotPolicy {
        match v {
            1 => SnapshotPolicy::EveryId,
            _ => SnapshotPolicy::Signals,
        }
    }
}

/// The environment variable naming a file to use in place of `/dev/vmclock0` (a regular file
/// with the layout of `struct vmclock_abi`: how containers and tests provide the page). The
/// file is mapped: it must keep its size (at least 112 bytes) while the process runs.
pub(crate) const VMCLOCK_ENV: &str = "OID_STD_VMCLOCK";

/// The device Linux's VMClock driver creates for the first VMClock page.
pub(crate) const VMCLOCK_DEVICE: &str = "/dev/vmclock0";

/// `VMCLOCK_MAGIC`: "VCLK".
const VMCLOCK_MAGIC: u32 = 0x4b4c_4356;
/// `VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT`.
pub(crate) const FLAG_VM_GEN_COUNTER_PRESENT: u64 = 1 << 8;
/// Bytes up to the end of `vm_generation_counter` (the field is present when `size` reaches it).
const SIZE_WITH_GENERATION: u32 = 112;
/// Attempts to read the page between two updates of the hypervisor before giving up.
const SEQLOCK_TRIES: u32 = 1 << 12;

/// One consistent reading of the VMClock page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VmClockReading {
    pub(crate) flags: u64,
    pub(crate) generation: u64,
}

/// A mapped VMClock page (or a file of its layout) with a valid header.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VmClock {
    #[cfg(all(
        any(target_os = "linux", target_os = "android"),
        target_has_atomic = "64"
    ))]
    words: &'static crate::sys::VmClockWords,
}

#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_has_atomic = "64"
))]
impl VmClock {
    /// Maps `path` (a test's own page) and checks its header; `None` if anything is missing or
    /// wrong.
    #[cfg(test)]
    pub(crate) fn map(path: &std::path::Path) -> Option<VmClock> {
        VmClock::checked(crate::sys::map_vmclock(path)?)
    }

    /// The process's page at [`vmclock_path`] (mapped once per process), if its header is
    /// valid.
    pub(crate) fn process() -> Option<VmClock> {
        VmClock::checked(crate::sys::process_vmclock_words(vmclock_path)?)
    }

    /// `words` if they start with a VMClock header: magic, version 1, a size that holds the
    /// generation counter.
    fn checked(words: &'static crate::sys::VmClockWords) -> Option<VmClock> {
        let head = u64::from_le(words[0].load(std::sync::atomic::Ordering::Relaxed));
        let version = u64::from_le(words[1].load(std::sync::atomic::Ordering::Relaxed)) as u16;
        let (magic, size) = (head as u32, (head >> 32) as u32);
        (magic == VMCLOCK_MAGIC && version == 1 && size >= SIZE_WITH_GENERATION)
            .then_some(VmClock { words })
    }

    /// The word of `vm_generation_counter`, for the one relaxed load per id. Its raw value
    /// (little-endian in memory) is only compared with an earlier raw load of itself.
    pub(crate) const fn generation_word(&self) -> &'static AtomicU64 {
        &self.words[13]
    }

    /// The flags and generation counter, read under the page's sequence lock (`seq_count`, odd
    /// while the hypervisor updates the page); `None` if no quiet moment came in
    /// [`SEQLOCK_TRIES`] attempts. `generation` is the raw word (as [`generation_word`] loads
    /// it).
    ///
    /// [`generation_word`]: Self::generation_word
    pub(crate) fn read(&self) -> Option<VmClockReading> {
        use std::sync::atomic::Ordering::{Acquire, Relaxed};
        use std::sync::atomic::fence;
        let seq = |w: u64| (u64::from_le(w) >> 32) as u32;
        for _ in 0..SEQLOCK_TRIES {
            let before = seq(self.words[1].load(Acquire));
            if before & 1 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let flags = u64::from_le(self.words[3].load(Relaxed));
            let generation = self.words[13].load(Relaxed);
            fence(Acquire);
            if seq(self.words[1].load(Relaxed)) == before {
                return Some(VmClockReading { flags, generation });
            }
        }
        None
    }
}

#[cfg(not(all(
    any(target_os = "linux", target_os = "android"),
    target_has_atomic = "64"
)))]
impl VmClock {
    #[cfg(test)]
    pub(crate) fn map(_path: &std::path::Path) -> Option<VmClock> {
        None
    }
    pub(crate) fn process() -> Option<VmClock> {
        None
    }
    pub(crate) fn generation_word(&self) -> &'static AtomicU64 {
        static NEVER: AtomicU64 = AtomicU64::new(0);
        &NEVER
    }
    pub(crate) fn read(&self) -> Option<VmClockReading> {
        None
    }
}

/// The path oid-std looks at: `OID_STD_VMCLOCK` if set, else `/dev/vmclock0`.
pub(crate) fn vmclock_path() -> std::path::PathBuf {
    std::env::var_os(VMCLOCK_ENV).map_or_else(|| VMCLOCK_DEVICE.into(), Into::into)
}

/// What was found at [`vmclock_path`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Probe {
    /// Nothing at the path.
    Missing,
    /// There, but it cannot be opened, mapped or read consistently.
    Unreadable,
    /// Not a VMClock page of version 1 holding the generation counter.
    Invalid,
    /// Not read on this system.
    Unsupported,
    /// A valid page.
    Mapped(VmClock),
}

/// [`probe_vmclock`]'s answer, as a number (0: not probed yet).
static PROBE: AtomicU8 = AtomicU8::new(0);
/// [`process_vmclock`]'s answer: 0 not asked yet, 1 none, 2 the page.
static ACTIVE: AtomicU8 = AtomicU8::new(0);

/// Looks at the VMClock path once per process and keeps what it found (the page stays
/// mapped). No lock (a `OnceLock` included): a child forked while another thread probes must
/// not inherit a lock held by a thread it does not have; racing first calls each probe.
pub(crate) fn probe_vmclock() -> Probe {
    let code = match PROBE.load(Acquire) {
        0 => {
            let code = probe_now();
            PROBE.store(code, Release);
            code
        }
        code => code,
    };
    match code {
        1 => Probe::Missing,
        2 => Probe::Unreadable,
        3 => Probe::Invalid,
        5 => VmClock::process().map_or(Probe::Invalid, Probe::Mapped),
        _ => Probe::Unsupported,
    }
}

/// What is at [`vmclock_path`] now, as [`PROBE`] stores it.
fn probe_now() -> u8 {
    if !cfg!(all(
        any(target_os = "linux", target_os = "android"),
        target_has_atomic = "64"
    )) {
        return 4;
    }
    let path = vmclock_path();
    if !path.exists() {
        return 1;
    }
    if std::fs::File::open(&path).is_err() {
        return 2;
    }
    match VmClock::process() {
        Some(_) => 5,
        None => 3,
    }
}

/// The process's VMClock page, if it has one whose generation counter is present (the flag
/// [`FLAG_VM_GEN_COUNTER_PRESENT`], read once).
pub(crate) fn process_vmclock() -> Option<VmClock> {
    let active = match ACTIVE.load(Acquire) {
        0 => {
            let active = match probe_vmclock() {
                Probe::Mapped(page) => page
                    .read()
                    .is_some_and(|r| r.flags & FLAG_VM_GEN_COUNTER_PRESENT != 0),
                _ => false,
            };
            let code = if active { 2 } else { 1 };
            ACTIVE.store(code, Release);
            code
        }
        code => code,
    };
    if active == 2 {
        // Mapped once already: this returns the published page (two loads of its header).
        VmClock::process()
    } else {
        None
    }
}

/// The OS random source as the generator calls it (a function, so tests can give a double).
pub(crate) type Getrandom = fn(&mut [u8]) -> Result<(), EntropyError>;

/// `getrandom`, through [`crate::OsEntropy`].
pub(crate) fn os_getrandom(buf: &mut [u8]) -> Result<(), EntropyError> {
    oid_core::Entropy::fill(&mut crate::OsEntropy, buf)
}

/// XORs into `buf` a hash of what differs between two clones of one VM snapshot.
///
/// Why: a clone has its parent's memory, and without VMGenID also its parent's kernel random
/// state, so `getrandom` may return the very same bytes in both copies. The CPU's random
/// instruction (RDRAND/RDSEED, RNDR), the cycle counter and `CLOCK_MONOTONIC_RAW` read now are
/// not in the VM's memory and differ between the copies; XOR keeps all of `getrandom`'s
/// strength where they do not (a machine without them, two reads that happen to agree).
///
/// Returns whether the CPU's random instruction gave a value.
pub(crate) fn mix_divergent(buf: &mut [u8]) -> bool {
    let mut h = DefaultHasher::new(); // SipHash with fixed keys: a mixer here, not a secret
    let cpu = crate::sys::cpu_random();
    h.write_u64(cpu.unwrap_or(0));
    h.write_u64(crate::sys::cycle_counter().unwrap_or(0));
    h.write_u64(crate::sys::monotonic_raw_nanos().unwrap_or(0));
    h.write_usize(buf.len());
    for (i, chunk) in buf.chunks_mut(8).enumerate() {
        h.write_usize(i);
        for (b, m) in chunk.iter_mut().zip(h.finish().to_be_bytes()) {
            *b ^= m;
        }
    }
    cpu.is_some()
}
