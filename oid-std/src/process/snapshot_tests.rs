//! The clone harness: two byte-for-byte copies of one process, made the way a VM restored
//! twice from one snapshot is (a raw `fork` whose fork signals are defeated: the generator's
//! guard words are ordinary memory no handler clears), each applying one restore scenario to
//! a fake wall clock and boot clock; the copies' ids are compared.
//!
//! The counts asserted for "no signal" are the ones `docs/uniqueness.md` states.
#![cfg(any(target_os = "linux", target_os = "android"))]

use std::collections::HashSet;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};

use oid_core::{EntropyError, FixedClock, ManualClock, ObjectId};

use super::block::{Local, next_in};
use super::*;
use crate::fork::{Guard, GuardKind};
use crate::snapshot::{Elapsed, FLAG_VM_GEN_COUNTER_PRESENT, PageWatch, SnapshotPolicy, VmClock};
use crate::sys::test_fork;

/// The wall clock and boot clock at the snapshot.
const WALL: u64 = 1_700_000_000;
const BOOT: u64 = 5_000;
/// Ids each copy makes after the restore.
const IDS: usize = 3_000;

/// An elapsed (boot-time) clock the test sets.
struct ManualBoot(AtomicU64);

impl Elapsed for ManualBoot {
    fn seconds(&self) -> Option<u64> {
        Some(self.0.load(Relaxed))
    }
}

/// A restore: phases of (wall clock move, boot clock move, ids made), from the snapshot's
/// readings.
struct Scenario {
    name: &'static str,
    phases: &'static [(i64, i64, usize)],
    /// Common ids with no signal (no VMClock, no reseed, the default policy): what the table in
    /// docs/uniqueness.md says.
    common_without_signal: usize,
}

const SCENARIOS: [Scenario; 6] = [
    Scenario {
        name: "wall clock not set",
        phases: &[(0, 0, IDS)],
        common_without_signal: IDS,
    },
    Scenario {
        name: "wall clock set +3 s",
        phases: &[(3, 0, IDS)],
        common_without_signal: IDS,
    },
    Scenario {
        name: "wall clock set +10 s",
        phases: &[(10, 0, IDS)],
        common_without_signal: 0,
    },
    Scenario {
        name: "wall clock set +10 s after half the ids",
        phases: &[(0, 0, IDS / 2), (10, 0, IDS / 2)],
        common_without_signal: IDS / 2,
    },
    Scenario {
        name: "both clocks +60 s",
        phases: &[(60, 60, IDS)],
        common_without_signal: IDS,
    },
    Scenario {
        name: "wall clock set back 10 s",
        phases: &[(-10, 0, IDS)],
        common_without_signal: 0,
    },
];

/// What tells the copies apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Signal {
    None,
    /// A VMClock page (a file) whose generation counter the "hypervisor" bumps at the restore.
    VmClock,
    /// Each copy calls `reseed` (a runtime's restore hook) before its first id.
    Reseed,
    /// `SnapshotPolicy::EveryId`, set before the snapshot.
    EveryId,
}

/// `getrandom` that returns the same bytes in both copies (a kernel random state cloned with
/// the VM, no VMGenID): a counter in ordinary memory, hashed.
fn cloned_getrandom(buf: &mut [u8]) -> Result<(), EntropyError> {
    static STATE: AtomicU64 = AtomicU64::new(0x0123_4567_89ab_cdef);
    for b in buf.iter_mut() {
        let mut z = STATE.fetch_add(0x9e37_79b9_7f4a_7c15, Relaxed);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        *b = (z ^ (z >> 31)) as u8;
    }
    Ok(())
}

/// A generator of its own with a guard of `kind` on words of its own.
fn shared(kind: GuardKind) -> Shared {
    let words: &'static _ = Box::leak(Box::new([AtomicU32::new(0), AtomicU32::new(0)]));
    Shared::new(Some(Guard::new(words, kind)))
}

fn scratch(name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    std::env::temp_dir().join(format!(
        "oid-std-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Relaxed)
    ))
}

/// A file with the layout of `struct vmclock_abi` (version 1, one page), generation `generation`.
fn vmclock_file(flags: u64, generation: u64) -> PathBuf {
    let path = scratch("vmclock");
    let mut page = vec![0u8; 4096];
    page[0..4].copy_from_slice(&0x4b4c_4356u32.to_le_bytes()); // magic "VCLK"
    page[4..8].copy_from_slice(&4096u32.to_le_bytes()); // size
    page[8..10].copy_from_slice(&1u16.to_le_bytes()); // version
    page[10] = 0xff; // counter_id: none
    page[24..32].copy_from_slice(&flags.to_le_bytes());
    page[104..112].copy_from_slice(&generation.to_le_bytes());
    std::fs::write(&path, &page).expect("writing the fake VMClock page");
    path
}

/// What a hypervisor does at a restore: the sequence count odd, the generation counter set,
/// the sequence count even again.
fn bump_generation(path: &PathBuf, generation: u64) {
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("opening the fake VMClock page");
    f.write_all_at(&1u32.to_le_bytes(), 12).expect("seq_count");
    f.write_all_at(&generation.to_le_bytes(), 104)
        .expect("vm_generation_counter");
    f.write_all_at(&2u32.to_le_bytes(), 12).expect("seq_count");
}

/// One snapshot, two copies restored from it: the ids the copies have in common.
fn common_ids(scenario: &Scenario, signal: Signal, cloned_random: bool) -> usize {
    // Fork signals defeated: an atfork guard whose words no handler clears.
    let mut shared = shared(GuardKind::AtFork);
    let page = (signal == Signal::VmClock).then(|| vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 7));
    // No page: a watch of a path where none ever appears.
    shared = shared.with_watch(PageWatch::at(
        page.clone().unwrap_or_else(|| scratch("no-page")),
    ));
    if cloned_random {
        shared = shared.with_getrandom(cloned_getrandom);
    }
    let s: &'static Shared = Box::leak(Box::new(shared));
    if signal == Signal::EveryId {
        s.set_snapshot_policy(SnapshotPolicy::EveryId);
    }
    let l = Local::new();
    let clock = ManualClock::at(WALL);
    let boot = ManualBoot(AtomicU64::new(BOOT));
    // The process before the snapshot: ids made, a thread's block half used.
    for _ in 0..1_000 {
        let Ok(_) = next_in::<Lenient, _>(s, &l, &clock, &boot);
    }
    assert!(
        signal == Signal::EveryId || l.left.get() > 0,
        "a live block at the snapshot"
    );
    if let Some(p) = &page {
        bump_generation(p, 8); // before the copies run, as a hypervisor does
    }
    let outputs = [scratch("a"), scratch("b")];
    let mut pids = Vec::new();
    for out in &outputs {
        let mut file = std::fs::File::create(out).expect("creating the copy's output");
        let mut bytes: Vec<u8> = Vec::with_capacity(IDS * 12);
        match test_fork::fork().expect("fork") {
            0 => {
                // The copy: restore, make the ids, write them, leave (no allocation).
                if signal == Signal::Reseed {
                    s.reseed_now();
                }
                for &(wall, up, n) in scenario.phases {
                    clock.set(WALL.wrapping_add_signed(wall));
                    boot.0.store(BOOT.wrapping_add_signed(up), Relaxed);
                    for _ in 0..n {
                        let Ok(id) = next_in::<Lenient, _>(s, &l, &clock, &boot);
                        bytes.extend_from_slice(&id.bytes());
                    }
                }
                let code = i32::from(file.write_all(&bytes).is_err());
                test_fork::exit_now(code);
            }
            pid => pids.push(pid),
        }
    }
    for pid in pids {
        assert!(test_fork::wait_ok(pid), "a copy failed");
    }
    let mut sets = outputs.iter().map(|out| {
        let mut bytes = Vec::new();
        std::fs::File::open(out)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .expect("reading a copy's ids");
        let _ = std::fs::remove_file(out);
        assert_eq!(bytes.len(), IDS * 12, "{}: a copy's ids", scenario.name);
        bytes
            .chunks_exact(12)
            .map(|c| c.to_vec())
            .collect::<HashSet<_>>()
    });
    let (a, b) = (
        sets.next().unwrap_or_default(),
        sets.next().unwrap_or_default(),
    );
    assert_eq!(a.len(), IDS, "{}: no repeat within a copy", scenario.name);
    assert_eq!(b.len(), IDS, "{}: no repeat within a copy", scenario.name);
    if let Some(p) = page {
        let _ = std::fs::remove_file(p);
    }
    a.intersection(&b).count()
}

fn check(signal: Signal) {
    for cloned_random in [false, true] {
        for scenario in &SCENARIOS {
            let common = common_ids(scenario, signal, cloned_random);
            let expected = match signal {
                Signal::None => scenario.common_without_signal,
                _ => 0,
            };
            assert_eq!(
                common, expected,
                "{} under {signal:?}, getrandom cloned: {cloned_random}",
                scenario.name
            );
        }
    }
}

#[test]
fn with_a_vmclock_page_copies_share_no_id_in_any_scenario() {
    check(Signal::VmClock);
}

#[test]
fn after_reseed_copies_share_no_id_in_any_scenario() {
    check(Signal::Reseed);
}

#[test]
fn under_every_id_copies_share_no_id_in_any_scenario() {
    check(Signal::EveryId);
}

#[test]
fn without_a_signal_copies_share_what_the_docs_table_says() {
    check(Signal::None);
}

#[test]
fn a_vmclock_bump_drops_a_live_block_before_the_next_id() {
    let path = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 1);
    let s = shared(GuardKind::WipeOnFork).with_watch(PageWatch::at(path.clone()));
    let l = Local::new();
    let clock = FixedClock::at(WALL);
    let boot = ManualBoot(AtomicU64::new(BOOT));
    let before: Vec<ObjectId> = (0..100)
        .map(|_| {
            let Ok(id) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
            id
        })
        .collect();
    assert!(l.left.get() > 0, "a live block");
    bump_generation(&path, 2);
    let Ok(after) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    assert_ne!(after.to_parts().random, before[99].to_parts().random);
    // No bump, no change.
    let Ok(next) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    assert_eq!(next.to_parts().random, after.to_parts().random);
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_vmclock_page_is_read_under_its_sequence_lock_and_checked() {
    let path = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 41);
    let page = VmClock::map(&path).expect("a valid page maps");
    let r = page.read().expect("a quiet page reads");
    assert_eq!((r.flags, u64::from_le(r.generation)), (1 << 8, 41));
    // An update in progress (odd sequence count): no reading.
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .expect("open");
    f.write_all_at(&3u32.to_le_bytes(), 12).expect("seq_count");
    assert_eq!(page.read(), None);
    // Wrong magic, version or size, a short file, a missing file: not a page.
    for (at, bytes) in [
        (0, &[0u8; 4][..]),
        (8, &[2, 0][..]),
        (4, &[100, 0, 0, 0][..]),
    ] {
        let bad = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 1);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&bad)
            .and_then(|f| f.write_all_at(bytes, at))
            .expect("corrupting the page");
        assert!(VmClock::map(&bad).is_none(), "offset {at}");
        let _ = std::fs::remove_file(bad);
    }
    let short = scratch("short");
    std::fs::write(&short, [0u8; 100]).expect("write");
    assert!(VmClock::map(&short).is_none());
    assert!(VmClock::map(&scratch("missing")).is_none());
    let _ = std::fs::remove_file(short);
    let _ = std::fs::remove_file(path);
}

#[test]
fn fresh_random_values_differ_even_when_getrandom_repeats_itself() {
    // Two copies whose getrandom returns the same bytes: what the mix adds differs.
    fn same(buf: &mut [u8]) -> Result<(), EntropyError> {
        buf.fill(7);
        Ok(())
    }
    let s = shared(GuardKind::WipeOnFork).with_getrandom(same);
    let values: HashSet<[u8; 5]> = (0..1_000).map(|_| s.fresh_random()).collect();
    assert_eq!(values.len(), 1_000);
}

/// A boot clock that plays the hypervisor once: its first reading restores a snapshot (bumps
/// the VMClock generation), which a refill reads between its check of the page and its
/// reservation.
struct RestoreOnRead {
    page: PathBuf,
    done: std::sync::atomic::AtomicBool,
}

impl Elapsed for RestoreOnRead {
    fn seconds(&self) -> Option<u64> {
        if !self.done.swap(true, Relaxed) {
            bump_generation(&self.page, 2);
        }
        Some(BOOT)
    }
}

#[test]
fn a_restore_between_the_page_check_and_the_reservation_drops_that_block() {
    let path = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 1);
    let s = shared(GuardKind::WipeOnFork).with_watch(PageWatch::at(path.clone()));
    let l = Local::new();
    let clock = FixedClock::at(WALL);
    let quiet = ManualBoot(AtomicU64::new(BOOT));
    let Ok(first) = next_in::<Lenient, _>(&s, &l, &clock, &quiet);
    let old = first.to_parts().random;
    // Use the block up, so the next id refills; the restore lands inside that refill.
    while l.left.get() > 0 {
        let Ok(_) = next_in::<Lenient, _>(&s, &l, &clock, &quiet);
    }
    let restore = RestoreOnRead {
        page: path.clone(),
        done: std::sync::atomic::AtomicBool::new(false),
    };
    let Ok(id) = next_in::<Lenient, _>(&s, &l, &clock, &restore);
    assert!(restore.done.load(Relaxed), "the refill read the boot clock");
    assert_ne!(
        id.to_parts().random,
        old,
        "an id from a block reserved across the restore"
    );
    let _ = std::fs::remove_file(path);
}

/// A state of the VMClock page that is not clean (docs/uniqueness.md, "Snapshots and clones").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PageState {
    /// Absent at the first id (the driver loaded later); there before the snapshot.
    AppearsAfterFirstId,
    /// Absent until the restore: it appears in the copies only.
    AppearsAtRestore,
    /// Mid-update (sequence count odd) for 50 ms from the first id, then settled.
    OddAtFirstId,
    /// Mid-update from the first id on, for good; the restore changes the generation anyway.
    StuckOdd,
    /// Replaced by a rename at the restore (a new file with the new generation).
    Renamed,
}

/// Sets the page's sequence count (odd: an update in progress).
fn set_seq(path: &PathBuf, seq: u32) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.write_all_at(&seq.to_le_bytes(), 12))
        .expect("seq_count");
}

/// One snapshot of a process whose page is in `state`, two copies restored from it with the
/// wall clock not set (no other signal): the ids the copies have in common, and the ids left in
/// the thread's block at the snapshot.
fn common_ids_with_page(state: PageState, cloned_random: bool) -> (usize, usize) {
    let path = scratch("page");
    match state {
        PageState::AppearsAfterFirstId | PageState::AppearsAtRestore => {}
        _ => {
            let made = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 7);
            std::fs::rename(made, &path).expect("placing the page");
        }
    }
    if matches!(state, PageState::OddAtFirstId | PageState::StuckOdd) {
        set_seq(&path, 3);
    }
    let mut shared = shared(GuardKind::AtFork).with_watch(PageWatch::at(path.clone()));
    if cloned_random {
        shared = shared.with_getrandom(cloned_getrandom);
    }
    let s: &'static Shared = Box::leak(Box::new(shared));
    let l = Local::new();
    let clock = ManualClock::at(WALL);
    let boot = ManualBoot(AtomicU64::new(BOOT));
    let Ok(_) = next_in::<Lenient, _>(s, &l, &clock, &boot);
    let settle = match state {
        PageState::AppearsAfterFirstId => {
            let made = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 7);
            std::fs::rename(made, &path).expect("the page appears");
            None
        }
        PageState::OddAtFirstId => {
            let p = path.clone();
            Some(std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(50));
                set_seq(&p, 4);
            }))
        }
        _ => None,
    };
    for _ in 0..500 {
        let Ok(_) = next_in::<Lenient, _>(s, &l, &clock, &boot);
    }
    if let Some(t) = settle {
        t.join().expect("the page settles");
    }
    for _ in 0..500 {
        let Ok(_) = next_in::<Lenient, _>(s, &l, &clock, &boot);
    }
    let residue = l.left.get() as usize;
    assert!(residue > 0, "{state:?}: a live block at the snapshot");
    // The restore, before the copies run.
    match state {
        PageState::AppearsAtRestore => {
            let made = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 8);
            std::fs::rename(made, &path).expect("the page appears");
        }
        PageState::StuckOdd => {
            std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .and_then(|f| f.write_all_at(&8u64.to_le_bytes(), 104))
                .expect("vm_generation_counter");
        }
        PageState::Renamed => {
            let made = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 8);
            std::fs::rename(made, &path).expect("the page replaced");
        }
        PageState::AppearsAfterFirstId | PageState::OddAtFirstId => bump_generation(&path, 8),
    }
    let outputs = [scratch("a"), scratch("b")];
    let mut pids = Vec::new();
    for out in &outputs {
        let mut file = std::fs::File::create(out).expect("creating the copy's output");
        let mut bytes: Vec<u8> = Vec::with_capacity(IDS * 12);
        match test_fork::fork().expect("fork") {
            0 => {
                for _ in 0..IDS {
                    let Ok(id) = next_in::<Lenient, _>(s, &l, &clock, &boot);
                    bytes.extend_from_slice(&id.bytes());
                }
                let code = i32::from(file.write_all(&bytes).is_err());
                test_fork::exit_now(code);
            }
            pid => pids.push(pid),
        }
    }
    for pid in pids {
        assert!(test_fork::wait_ok(pid), "a copy failed");
    }
    let sets: Vec<HashSet<Vec<u8>>> = outputs
        .iter()
        .map(|out| {
            let mut bytes = Vec::new();
            std::fs::File::open(out)
                .and_then(|mut f| f.read_to_end(&mut bytes))
                .expect("reading a copy's ids");
            let _ = std::fs::remove_file(out);
            assert_eq!(bytes.len(), IDS * 12, "{state:?}: a copy's ids");
            bytes.chunks_exact(12).map(<[u8]>::to_vec).collect()
        })
        .collect();
    let _ = std::fs::remove_file(path);
    for set in &sets {
        assert_eq!(set.len(), IDS, "{state:?}: no repeat within a copy");
    }
    (sets[0].intersection(&sets[1]).count(), residue)
}

/// Each unclean page state, with `getrandom` cloned and real: no common id where the page was
/// in use at the snapshot; where it was not (it appears only in the copies, or the copies read
/// a replaced file), the rest of the thread's block at most, which docs/uniqueness.md states.
#[test]
fn unclean_vmclock_pages_leave_no_common_id_beyond_the_documented_residue() {
    for cloned_random in [true, false] {
        for state in [
            PageState::AppearsAfterFirstId,
            PageState::OddAtFirstId,
            PageState::StuckOdd,
        ] {
            let (common, _) = common_ids_with_page(state, cloned_random);
            assert_eq!(common, 0, "{state:?}, getrandom cloned: {cloned_random}");
        }
        for state in [PageState::AppearsAtRestore, PageState::Renamed] {
            let (common, residue) = common_ids_with_page(state, cloned_random);
            assert!(
                common <= residue,
                "{state:?}, getrandom cloned: {cloned_random}: {common} common, {residue} left in the block"
            );
        }
    }
}

/// A page stuck mid-update costs a bounded read per refill and a new random value; it never
/// turns the per-id check off: a generation change drops the block before the next id.
#[test]
fn a_page_stuck_mid_update_rotates_at_each_refill_and_keeps_the_per_id_check() {
    let path = vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 1);
    set_seq(&path, 5);
    let s = shared(GuardKind::WipeOnFork).with_watch(PageWatch::at(path.clone()));
    let l = Local::new();
    let clock = FixedClock::at(WALL);
    let boot = ManualBoot(AtomicU64::new(BOOT));
    let Ok(a) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    assert!(
        s.signals.watch().torn.load(Relaxed),
        "the read did not settle"
    );
    assert!(l.vm_word.get().is_some(), "the block is checked per id");
    while l.left.get() > 0 {
        let Ok(_) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    }
    let Ok(b) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    assert_ne!(a.to_parts().random, b.to_parts().random, "a refill rotates");
    let Ok(c) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    assert_eq!(b.to_parts().random, c.to_parts().random, "within one block");
    // The "hypervisor" changes the generation, still mid-update: the block is dropped.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .and_then(|f| f.write_all_at(&2u64.to_le_bytes(), 104))
        .expect("vm_generation_counter");
    let Ok(d) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    assert_ne!(c.to_parts().random, d.to_parts().random);
    // Settled: read again, recorded, no rotation while it stays.
    set_seq(&path, 6);
    while l.left.get() > 0 {
        let Ok(_) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    }
    let Ok(e) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    assert!(!s.signals.watch().torn.load(Relaxed));
    while l.left.get() > 0 {
        let Ok(_) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    }
    let Ok(f) = next_in::<Lenient, _>(&s, &l, &clock, &boot);
    assert_eq!(e.to_parts().random, f.to_parts().random);
    let _ = std::fs::remove_file(path);
}

/// The watch picks up a page that appears and a file replaced by a rename, and lets a removed
/// one go.
#[test]
fn the_watch_follows_the_file_at_its_path() {
    let path = scratch("watched");
    let watch = PageWatch::at(path.clone());
    assert!(watch.look(WALL).is_none());
    assert_eq!(watch.found(), crate::snapshot::Found::Missing);
    std::fs::rename(vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 3), &path).expect("appears");
    let first = watch.look(WALL).expect("picked up");
    assert!(watch.identity_checked());
    let read = |p: VmClock| p.read().map(|r| u64::from_le(r.generation));
    assert_eq!(read(first), Some(3));
    std::fs::rename(vmclock_file(FLAG_VM_GEN_COUNTER_PRESENT, 4), &path).expect("replaced");
    assert_eq!(read(first), Some(3), "the old mapping keeps the old file");
    let second = watch.look(WALL).expect("the new file");
    assert_eq!(read(second), Some(4));
    std::fs::remove_file(&path).expect("removed");
    assert!(watch.look(WALL).is_none());
    assert_eq!(watch.found(), crate::snapshot::Found::Missing);
}
