//! Telling apart two copies of one process restored from one VM snapshot (or cloned by CRIU,
//! a VM template, ...): the VMClock page, a reseed that differs between copies, and the
//! process-wide [`SnapshotPolicy`].
//!
//! A copy has the parent's memory: its random value, counter and per-thread blocks; no fork
//! signal fires. What tells the copies apart:
//!
//! * **VMClock** (`/dev/vmclock0`, Linux 7.0+ guests and the cloud microVM kernels): a page the
//!   hypervisor updates, whose `vm_generation_counter` changes on every restore *before* the
//!   vCPUs resume. oid-std maps it, loads the counter's word beside the fork check on every id
//!   (a thread's copied block is dropped before its next id) and reads it under the page's
//!   sequence lock on every block refill. Nothing is decided once for good ([`PageWatch`]): a
//!   missing page is looked for again at refills, a read that does not settle counts as "maybe
//!   restored", and a page file replaced by a rename is mapped again.
//! * The wall clock against `CLOCK_BOOTTIME` on every block refill ([`Signals::check_jump`]),
//!   for VMs without VMClock whose clock is set after the restore.
//! * [`crate::reseed`], for runtimes that know they were restored.
//!
//! VMGenID's `NEW_VMGENID=1` uevent is not used: it arrives on a netlink socket, so seeing it
//! takes a thread of our own or a system call per id (a `recv` on a non-blocking socket). What
//! it causes, the kernel reseeding its random source, reaches the ids anyway: every new random
//! value mixes `getrandom` in.

use std::hash::{DefaultHasher, Hasher};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64};

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

/// A change of the wall clock against the boot-time clock, in seconds, above which a refill
/// takes it for a snapshot restore (or a clock set far) and rotates the random value. The two
/// whole-second readings disagree by up to a second on their own; an NTP step is usually well
/// under a second.
pub(crate) const JUMP_SECONDS: u32 = 4;

/// `Signals::offset` before the first comparison.
pub(crate) const NO_OFFSET: u64 = u64::MAX;

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

/// What a generator's block refills read to see a restore or a clone: the VMClock page's
/// generation and the wall clock's jump against the boot clock. A signal calls `rotate` (a
/// fresh clone-divergent random value) before it records what it saw, so that a thread that
/// sees the record also sees the rotation.
pub(crate) struct Signals {
    /// Where the VMClock page comes from: `None`, the process's (`/dev/vmclock0` or
    /// `OID_STD_VMCLOCK`); tests give their own.
    pub(crate) watch: Option<&'static PageWatch>,
    /// The raw VMClock generation word the ids' random value was drawn (or last checked) under:
    /// the last one read consistently (a torn read records nothing), once `vmgen_known`.
    vmgen: AtomicU64,
    vmgen_known: AtomicBool,
    /// The wall clock's second minus the elapsed clock's (wrapping, 32 bits) at the last
    /// refill that read both, or [`NO_OFFSET`].
    pub(crate) offset: AtomicU64,
}

impl Signals {
    pub(crate) const fn new() -> Signals {
        Signals {
            watch: None,
            vmgen: AtomicU64::new(0),
            vmgen_known: AtomicBool::new(false),
            offset: AtomicU64::new(NO_OFFSET),
        }
    }

    pub(crate) fn watch(&self) -> &'static PageWatch {
        self.watch.unwrap_or_else(process_watch)
    }

    /// Records the page's generation as the one a random value is drawn under now (the
    /// process's first draw, again in a child).
    pub(crate) fn note_generation(&self) {
        let page = self.watch().look(NO_TIME);
        if let Some(r) = page.and_then(|p| p.read_tries(SEQLOCK_TRIES)) {
            if r.flags & FLAG_VM_GEN_COUNTER_PRESENT != 0 {
                self.vmgen.store(r.generation, Release);
                self.vmgen_known.store(true, Release);
            }
        }
    }

    /// Reads the VMClock page (under its sequence lock; the watch looks for a page that was
    /// missing, or replaced, first): when its generation differs from the one the random value
    /// was drawn under, or none was known (a page that appeared or settled since), `rotate`s
    /// first, then records the generation. A read that does not settle cannot tell whether a
    /// restore happened: `rotate` too, nothing recorded. Returns the generation word and the
    /// value the block is checked against per id: the one read, or after a torn read the word
    /// as it is now (a change drops the block).
    #[inline]
    pub(crate) fn check_vmclock(
        &self,
        reading: u64,
        rotate: impl Fn(),
    ) -> Option<(&'static AtomicU64, u64)> {
        let watch = self.watch();
        let page = watch.look(reading)?;
        let tries = if watch.torn.load(Relaxed) {
            TORN_TRIES
        } else {
            SEQLOCK_TRIES
        };
        let word = page.generation_word();
        match page.read_tries(tries) {
            Some(r) => {
                if watch.torn.load(Relaxed) {
                    watch.torn.store(false, Relaxed);
                }
                if r.flags & FLAG_VM_GEN_COUNTER_PRESENT == 0 {
                    return None;
                }
                if !self.vmgen_known.load(Acquire) || self.vmgen.load(Acquire) != r.generation {
                    rotate();
                    self.vmgen.store(r.generation, Release);
                    self.vmgen_known.store(true, Release);
                }
                Some((word, r.generation))
            }
            None => {
                watch.torn.store(true, Relaxed);
                rotate();
                Some((word, word.load(Acquire)))
            }
        }
    }

    /// Compares the wall clock's `reading` ([`NO_TIME`]: none) with `elapsed`: when their
    /// difference moved by more than [`JUMP_SECONDS`] since the last refill, `rotate`s (the
    /// thread that records the new difference first; one rotation per jump).
    #[inline]
    pub(crate) fn check_jump(&self, reading: u64, elapsed: &impl Elapsed, rotate: impl Fn()) {
        let Some(boot) = elapsed.seconds() else {
            return;
        };
        if reading == NO_TIME {
            return;
        }
        let offset = u64::from((reading as u32).wrapping_sub(boot as u32));
        let seen = self.offset.load(Acquire);
        if seen == offset {
            return;
        }
        let jump = seen != NO_OFFSET
            && ((offset as u32).wrapping_sub(seen as u32) as i32).unsigned_abs() > JUMP_SECONDS;
        // Rotate before recording the new difference: a thread that reads it recorded has
        // the new random value too (two threads that both see the jump both rotate, which
        // is safe: a new random value is a new id space).
        if jump {
            rotate();
        }
        self.offset.store(offset, Release);
    }
}

/// The environment variable naming a file to use in place of `/dev/vmclock0` (a regular file
/// with the layout of `struct vmclock_abi`: how containers and tests provide the page). The
/// file is mapped: it must keep its size (at least 112 bytes) while the process runs. Update it
/// in place; a replacement by a rename is seen at each thread's next block refill (the file's
/// device and inode are compared there), so the rest of each thread's block can still repeat.
pub(crate) const VMCLOCK_ENV: &str = "OID_STD_VMCLOCK";

/// The device Linux's VMClock driver creates for the first VMClock page.
pub(crate) const VMCLOCK_DEVICE: &str = "/dev/vmclock0";

/// `VMCLOCK_MAGIC`: "VCLK".
const VMCLOCK_MAGIC: u32 = 0x4b4c_4356;
/// `VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT`.
pub(crate) const FLAG_VM_GEN_COUNTER_PRESENT: u64 = 1 << 8;
/// Bytes up to the end of `vm_generation_counter` (the field is present when `size` reaches it).
const SIZE_WITH_GENERATION: u32 = 112;
/// Attempts to read the page between two updates of the hypervisor before a refill takes it
/// for "maybe restored" (a new random value). Each failed attempt is a load and a spin-loop
/// hint: the `vmclock read` group of `cargo bench -p oid-benches --bench std_generate` measures
/// the whole bound.
pub(crate) const SEQLOCK_TRIES: u32 = 64;
/// Attempts while the previous refill's read failed too (a page stuck mid-update), until one
/// succeeds again: every refill then pays this little and draws a new random value.
pub(crate) const TORN_TRIES: u32 = 4;
/// Wall-clock seconds after a process's first look during which every block refill looks
/// again for a page that is missing (or cannot be mapped); after them, at most once per
/// second.
pub(crate) const EAGER_SECONDS: u64 = 10;

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
        let mapped = crate::sys::map_vmclock(path, VmClock::valid_header).ok()?;
        Some(VmClock {
            words: mapped.words,
        })
    }

    /// Whether `words` start with a VMClock header: magic, version 1, a size that holds the
    /// generation counter.
    fn valid_header(words: &crate::sys::VmClockWords) -> bool {
        let head = u64::from_le(words[0].load(std::sync::atomic::Ordering::Relaxed));
        let version = u64::from_le(words[1].load(std::sync::atomic::Ordering::Relaxed)) as u16;
        let (magic, size) = (head as u32, (head >> 32) as u32);
        magic == VMCLOCK_MAGIC && version == 1 && size >= SIZE_WITH_GENERATION
    }

    /// The word of `vm_generation_counter`, for the one relaxed load per id. Its raw value
    /// (little-endian in memory) is only compared with an earlier raw load of itself.
    pub(crate) const fn generation_word(&self) -> &'static AtomicU64 {
        &self.words[13]
    }

    /// [`read_tries`](Self::read_tries) with [`SEQLOCK_TRIES`].
    #[cfg(test)]
    pub(crate) fn read(&self) -> Option<VmClockReading> {
        self.read_tries(SEQLOCK_TRIES)
    }

    /// The flags and generation counter, read under the page's sequence lock (`seq_count`, odd
    /// while the hypervisor updates the page); `None` if no quiet moment came in `tries`
    /// attempts. `generation` is the raw word (as [`generation_word`] loads it).
    ///
    /// [`generation_word`]: Self::generation_word
    pub(crate) fn read_tries(&self, tries: u32) -> Option<VmClockReading> {
        use std::sync::atomic::Ordering::{Acquire, Relaxed};
        use std::sync::atomic::fence;
        let seq = |w: u64| (u64::from_le(w) >> 32) as u32;
        for _ in 0..tries {
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
    pub(crate) fn generation_word(&self) -> &'static AtomicU64 {
        static NEVER: AtomicU64 = AtomicU64::new(0);
        &NEVER
    }
    #[cfg(test)]
    pub(crate) fn read(&self) -> Option<VmClockReading> {
        None
    }
    pub(crate) fn read_tries(&self, _tries: u32) -> Option<VmClockReading> {
        None
    }
}

/// The path oid-std looks at: `OID_STD_VMCLOCK` if set, else `/dev/vmclock0`.
pub(crate) fn vmclock_path() -> std::path::PathBuf {
    std::env::var_os(VMCLOCK_ENV).map_or_else(|| VMCLOCK_DEVICE.into(), Into::into)
}

/// What the last look at the VMClock path found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// Not looked yet.
    NotYet,
    /// Nothing at the path.
    Missing,
    /// There, but it cannot be opened or mapped.
    Unreadable,
    /// Not a VMClock page of version 1 holding the generation counter.
    Invalid,
    /// Not read on this system.
    Unsupported,
    /// A page with a valid header, in use.
    Mapped,
}

impl Found {
    const ALL: [Found; 6] = [
        Found::NotYet,
        Found::Missing,
        Found::Unreadable,
        Found::Invalid,
        Found::Unsupported,
        Found::Mapped,
    ];
}

/// `now` when a refill had no clock reading (the look is not paced then): the refill's own
/// "no reading" value, so a refill passes its reading as it is.
pub(crate) const NO_TIME: u64 = u64::MAX;

/// A generator's VMClock page: where it is looked for, the page in use, and when to look
/// again. No verdict is kept for good: while there is no working page, block refills look at
/// the path again ([`EAGER_SECONDS`], then once per second), and a regular file's identity is
/// compared at every refill, so a page that appears, settles or is replaced by a rename is
/// picked up. No lock (a child forked while another thread looks must not inherit a held
/// lock): one thread looks at a time, the others go on with the page published.
pub(crate) struct PageWatch {
    /// `None`: [`vmclock_path`], read at the first look.
    path: crate::sys::StaticSlot<std::path::PathBuf>,
    #[cfg(all(
        any(target_os = "linux", target_os = "android"),
        target_has_atomic = "64"
    ))]
    page: crate::sys::StaticSlot<crate::sys::VmClockWords>,
    /// A hash of the page file's (device, inode) when it is a regular file; 0 for the device
    /// (updated in place by the hypervisor) or no page.
    identity: AtomicU64,
    /// [`Found`], as its index.
    found: AtomicU8,
    /// The wall-clock second of the first look and of the last, or [`NO_TIME`].
    first: AtomicU64,
    last: AtomicU64,
    /// The process id of the thread looking now (0: none). A value copied from a parent is
    /// free in the child.
    looking: AtomicU32,
    /// The last refill's read of the page did not settle.
    pub(crate) torn: AtomicBool,
}

/// The process-wide generator's page: `/dev/vmclock0` or `OID_STD_VMCLOCK`.
static PROCESS_WATCH: PageWatch = PageWatch::new();

/// The process-wide generator's page watch.
pub(crate) fn process_watch() -> &'static PageWatch {
    &PROCESS_WATCH
}

impl PageWatch {
    pub(crate) const fn new() -> PageWatch {
        PageWatch {
            path: crate::sys::StaticSlot::new(),
            #[cfg(all(
                any(target_os = "linux", target_os = "android"),
                target_has_atomic = "64"
            ))]
            page: crate::sys::StaticSlot::new(),
            identity: AtomicU64::new(0),
            found: AtomicU8::new(0),
            first: AtomicU64::new(NO_TIME),
            last: AtomicU64::new(NO_TIME),
            looking: AtomicU32::new(0),
            torn: AtomicBool::new(false),
        }
    }

    /// A watch of a test's own path.
    #[cfg(test)]
    pub(crate) fn at(path: std::path::PathBuf) -> &'static PageWatch {
        let watch: &'static PageWatch = Box::leak(Box::new(PageWatch::new()));
        watch.path.get_or_leak(|| path);
        watch
    }

    /// The path looked at.
    pub(crate) fn path(&self) -> &'static std::path::Path {
        self.path.get_or_leak(vmclock_path)
    }

    /// What the last look found.
    pub(crate) fn found(&self) -> Found {
        Found::ALL
            .get(usize::from(self.found.load(Relaxed)))
            .copied()
            .unwrap_or(Found::NotYet)
    }

    /// Whether the page in use is a regular file whose identity refills compare.
    pub(crate) fn identity_checked(&self) -> bool {
        self.identity.load(Relaxed) != 0
    }

    /// The page to read at a block refill whose wall-clock second is `now` ([`NO_TIME`]: none),
    /// looking at the path again where needed: no page yet and a look is due, or a regular
    /// file whose identity changed (replaced by a rename, or removed).
    #[cfg(all(
        any(target_os = "linux", target_os = "android"),
        target_has_atomic = "64"
    ))]
    pub(crate) fn look(&self, now: u64) -> Option<VmClock> {
        let page = self.page.load();
        let identity = self.identity.load(Acquire);
        match page {
            // The device: updated in place, nothing to compare (no system call).
            Some(words) if identity == 0 => return Some(VmClock { words }),
            // A regular file: still the same file? One `statx` per refill.
            Some(words) => {
                let now_there = crate::sys::file_identity(self.path()).map(identity_hash);
                if now_there == Some(identity) {
                    return Some(VmClock { words });
                }
            }
            None if !self.due(now) => return None,
            None => {}
        }
        self.look_now(now)
    }

    #[cfg(not(all(
        any(target_os = "linux", target_os = "android"),
        target_has_atomic = "64"
    )))]
    pub(crate) fn look(&self, _now: u64) -> Option<VmClock> {
        self.found.store(Found::Unsupported as u8, Relaxed);
        None
    }

    /// Whether a refill at `now` looks for a missing page: always in the first
    /// [`EAGER_SECONDS`] after the first look, then when the second changed since the last.
    fn due(&self, now: u64) -> bool {
        let first = self.first.load(Relaxed);
        now == NO_TIME
            || first == NO_TIME
            || now.wrapping_sub(first) < EAGER_SECONDS
            || self.last.load(Relaxed) != now
    }

    /// Looks at the path now and publishes what it found (one thread at a time: the others
    /// return the page published).
    #[cfg(all(
        any(target_os = "linux", target_os = "android"),
        target_has_atomic = "64"
    ))]
    #[cold]
    fn look_now(&self, now: u64) -> Option<VmClock> {
        let me = std::process::id();
        let holder = self.looking.load(Relaxed);
        if holder == me
            || self
                .looking
                .compare_exchange(holder, me, Acquire, Relaxed)
                .is_err()
        {
            return self.page.load().map(|words| VmClock { words });
        }
        if now != NO_TIME {
            let _ = self.first.compare_exchange(NO_TIME, now, Relaxed, Relaxed);
            self.last.store(now, Relaxed);
        }
        let found = match crate::sys::map_vmclock(self.path(), VmClock::valid_header) {
            Ok(mapped) => {
                // The identity first: a thread that sees the new page compares with its file.
                self.identity
                    .store(mapped.identity.map_or(0, identity_hash), Release);
                self.page.store(Some(mapped.words));
                Found::Mapped
            }
            Err(e) => {
                self.page.store(None);
                self.identity.store(0, Release);
                match e {
                    crate::sys::MapError::Missing => Found::Missing,
                    crate::sys::MapError::Unreadable => Found::Unreadable,
                    crate::sys::MapError::Invalid => Found::Invalid,
                }
            }
        };
        self.found.store(found as u8, Relaxed);
        self.looking.store(0, Release);
        self.page.load().map(|words| VmClock { words })
    }
}

/// A file identity as one nonzero word.
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    target_has_atomic = "64"
))]
fn identity_hash((dev, ino): (u64, u64)) -> u64 {
    let mut h = DefaultHasher::new();
    h.write_u64(dev);
    h.write_u64(ino);
    h.finish() | 1
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
