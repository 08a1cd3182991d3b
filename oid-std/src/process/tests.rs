use std::collections::HashSet;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};

use oid_core::{
    Clock, Entropy, EntropyError, ErrorKind, FixedClock, IdSpace, ManualClock, ObjectId,
};

use super::block::{Local, MAX_BLOCK, next_in};
use super::identity::fallback_fill;
use super::*;
use crate::entropy::OsEntropy;
use crate::fork::{Guard, GuardKind};
use crate::snapshot::{BootTime, Elapsed, JUMP_SECONDS, NO_OFFSET};
const CAPACITY: u32 = IdSpace::CAPACITY;

/// A generator of its own (not the process's), with a guard of `kind` on words of its own.
fn shared(kind: GuardKind) -> Shared {
    let words: &'static _ = Box::leak(Box::new([AtomicU32::new(0), AtomicU32::new(0)]));
    Shared::new(Some(Guard::new(words, kind)))
}

/// An elapsed clock that gives no reading: no snapshot detection.
struct NoElapsed;

impl Elapsed for NoElapsed {
    fn seconds(&self) -> Option<u64> {
        None
    }
}

/// An elapsed (boot-time) clock the test sets.
struct ManualElapsed(AtomicU64);

impl Elapsed for ManualElapsed {
    fn seconds(&self) -> Option<u64> {
        Some(self.0.load(Relaxed))
    }
}

fn lenient(s: &Shared, l: &Local, clock: &impl Clock) -> ObjectId {
    let Ok(id) = next_in::<Lenient, _>(s, l, clock, &NoElapsed);
    id
}

fn strict(s: &Shared, l: &Local, clock: &impl Clock) -> Result<ObjectId, Error> {
    next_in::<Strict, _>(s, l, clock, &NoElapsed)
}

/// A clock that fails the test if a generator waits on it: the proof that a call did not
/// wait, without timing anything.
struct NeverWait<C>(C);

impl<C: Clock> Clock for NeverWait<C> {
    fn unix_seconds(&self) -> Option<u64> {
        self.0.unix_seconds()
    }
    fn wait(&self) {
        panic!("the generator waited for the clock");
    }
}

/// A clock whose `wait` ends when its reading changes, as a real clock's ends at its next
/// second (`ManualClock`'s own returns at once).
struct NextSecond<'a>(&'a ManualClock);

impl Clock for NextSecond<'_> {
    fn unix_seconds(&self) -> Option<u64> {
        self.0.unix_seconds()
    }
    fn wait(&self) {
        let start = self.0.unix_seconds();
        while self.0.unix_seconds() == start {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

/// Which ids were seen: a bitset of the 2^24 counters per (second, random value), 2 MiB each
/// (the tests meet a handful of pairs, in runs: the last one is tried first).
#[derive(Default)]
struct Seen {
    sets: Vec<([u8; 9], Vec<u64>)>,
    last: usize,
}

impl Seen {
    /// Records `id`; false if it was seen before.
    fn insert(&mut self, id: ObjectId) -> bool {
        let b = id.bytes();
        let key = [b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8]];
        if self.sets.get(self.last).is_none_or(|(k, _)| *k != key) {
            self.last = match self.sets.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    self.sets.push((key, vec![0; (CAPACITY / 64) as usize]));
                    self.sets.len() - 1
                }
            };
        }
        let counter = u32::from_be_bytes([0, b[9], b[10], b[11]]);
        let (word, bit) = ((counter / 64) as usize, counter % 64);
        let bits = &mut self.sets[self.last].1;
        let new = bits[word] & (1 << bit) == 0;
        bits[word] |= 1 << bit;
        new
    }

    /// The random values seen.
    fn randoms(&self) -> HashSet<[u8; 5]> {
        let random = |k: &[u8; 9]| [k[4], k[5], k[6], k[7], k[8]];
        self.sets.iter().map(|(k, _)| random(k)).collect()
    }
}

/// Spends all but `keep` counter values of `secs` (the current window) outside any block.
fn spend(s: &Shared, secs: u32, keep: u32) {
    let n = s.ids.left(secs) - keep;
    let r = s.ids.reserve_exact(Some(secs), n).unwrap();
    assert_eq!((r.timestamp(), r.len()), (secs, n));
    assert_eq!(s.ids.left(secs), keep);
}

#[test]
fn a_thread_takes_consecutive_counters_from_growing_blocks() {
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = FixedClock::at(1_700_000_000);
    let ids: Vec<ObjectId> = (0..1000).map(|_| lenient(&s, &l, &clock)).collect();
    let first = ids[0].to_parts();
    for (k, id) in ids.iter().enumerate() {
        let p = id.to_parts();
        assert_eq!((p.timestamp, p.random), (1_700_000_000, first.random));
        // One thread alone: exactly consecutive counters.
        assert_eq!(p.counter, first.counter.wrapping_add(k as u32) & 0xff_ffff);
    }
    assert_eq!(l.size.get(), MAX_BLOCK);
}

#[test]
fn a_new_second_starts_a_new_small_block() {
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = ManualClock::at(1_800_000_000);
    for _ in 0..600 {
        lenient(&s, &l, &clock);
    }
    assert_eq!(l.size.get(), MAX_BLOCK);
    clock.advance(1);
    assert_eq!(lenient(&s, &l, &clock).timestamp(), 1_800_000_001);
    assert_eq!((l.size.get(), l.left.get()), (1, 0));
}

#[test]
fn clock_failure_errors_in_strict_mode_and_stamps_the_newest_second_otherwise() {
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = ManualClock::new();
    assert_eq!(strict(&s, &l, &clock), Err(crate::error::CLOCK_UNAVAILABLE));
    assert_eq!(
        lenient(&s, &l, &clock).timestamp(),
        0,
        "1970 before any reading"
    );
    clock.set(1_750_000_000);
    let before = lenient(&s, &l, &clock);
    assert_eq!(before.timestamp(), 1_750_000_000);
    clock.unset();
    let id = lenient(&s, &l, &clock);
    assert_eq!(id.timestamp(), 1_750_000_000, "the newest second stamped");
    assert!(id > before);
    assert_eq!(
        strict(&s, &l, &clock).unwrap_err().kind(),
        ErrorKind::ClockUnavailable
    );
}

#[test]
fn a_spent_second_is_an_error_for_try_and_a_wait_for_new() {
    let s = shared(GuardKind::WipeOnFork);
    let (a, b) = (Local::new(), Local::new());
    let clock = ManualClock::at(1_700_000_000);
    // Thread a takes blocks of 1, 2, ... 128 ids, then one of 256 and uses one id of it.
    let mut ids = HashSet::new();
    for _ in 0..256 {
        assert!(ids.insert(lenient(&s, &a, &clock)));
    }
    assert_eq!(a.left.get(), 255);
    spend(&s, 1_700_000_000, 300);
    // b gets what is left of the second, in blocks cut at the edge...
    while let Ok(id) = strict(&s, &b, &clock) {
        assert!(ids.insert(id));
    }
    assert_eq!(ids.len(), 256 + 300);
    // ... then the error, which uses up nothing; a's live block still serves a.
    let err = strict(&s, &b, &clock).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CapacityExhausted);
    assert_eq!(err.to_string(), "counter exhausted for this second");
    for _ in 0..255 {
        assert!(ids.insert(strict(&s, &a, &clock).unwrap()));
    }
    assert_eq!(
        strict(&s, &a, &clock).unwrap_err().kind(),
        ErrorKind::CapacityExhausted
    );
    // Every id of the second is distinct: the values reserved were exactly the capacity.
    assert_eq!(ids.len(), 256 + 300 + 255);
    // `new` waits (once) until the clock reads a later second.
    let later = std::thread::scope(|t| {
        let waiter = t.spawn(|| lenient(&s, &Local::new(), &NextSecond(&clock)));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            !waiter.is_finished(),
            "new() returned without a later second"
        );
        clock.advance(1);
        waiter.join().unwrap()
    });
    assert_eq!(later.timestamp(), 1_700_000_001);
    assert!(!ids.contains(&later));
}

#[test]
fn a_clock_stepping_back_keeps_the_newest_second_within_the_tolerance() {
    const T: u64 = 1_700_003_600;
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = ManualClock::at(T);
    let newest = lenient(&s, &l, &clock);
    // Edge 1: a second back (two readings across a second's edge), ids keep the newest second
    // and go on from its capacity.
    clock.set(T - u64::from(oid_core::CapacityPolicy::STEP_BACK_TOLERANCE));
    let mut ids = vec![newest];
    for _ in 0..1000 {
        ids.push(lenient(&s, &l, &clock));
    }
    assert!(ids.iter().all(|id| id.timestamp() == T as u32));
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "still increasing");
    // Edge 2: once that second is spent, a reading behind it (up to 2 s of real time behind:
    // waiting for it could take that long) moves on at once to a new random value, still at
    // the newest second; try_new too.
    spend(&s, T as u32, 0);
    let never = NeverWait(&clock);
    let moved = strict(&s, &Local::new(), &never).unwrap();
    assert_eq!(moved.timestamp(), T as u32);
    assert_ne!(moved.to_parts().random, newest.to_parts().random);
    assert_eq!(lenient(&s, &Local::new(), &never).timestamp(), T as u32);
    // Edge 3: spent again, read by the clock itself: try_new fails, and new waits (once) for a
    // reading past the newest second.
    clock.set(T);
    spend(&s, T as u32, 0);
    assert_eq!(
        strict(&s, &Local::new(), &clock).unwrap_err().kind(),
        ErrorKind::CapacityExhausted
    );
    let later = std::thread::scope(|t| {
        let waiter = t.spawn(|| lenient(&s, &Local::new(), &NextSecond(&clock)));
        std::thread::sleep(std::time::Duration::from_millis(30));
        assert!(!waiter.is_finished());
        clock.set(T + 1);
        waiter.join().unwrap()
    });
    assert_eq!(later.timestamp(), T as u32 + 1);
    assert_eq!(later.to_parts().random, moved.to_parts().random);
}

#[test]
fn a_clock_stepping_back_an_hour_moves_to_a_new_random_value() {
    const T: u64 = 1_700_003_600;
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = ManualClock::at(T);
    let mut ids: Vec<ObjectId> = (0..10).map(|_| lenient(&s, &l, &clock)).collect();
    let random = ids[0].to_parts().random;
    // Spent, then an hour back: neither an error nor a wait for the hour.
    spend(&s, T as u32, 0);
    clock.set(T - 3_600);
    let after: Vec<ObjectId> = (0..1000)
        .map(|_| strict(&s, &Local::new(), &clock).expect("a new random value, no error"))
        .collect();
    for id in &after {
        let p = id.to_parts();
        assert_eq!(p.timestamp, (T - 3_600) as u32, "the clock's own second");
        assert_ne!(p.random, random);
    }
    ids.extend(after);
    let distinct: HashSet<ObjectId> = ids.iter().copied().collect();
    assert_eq!(distinct.len(), ids.len());
    // `new()` neither: spent again, then another hour back, it returns without waiting (the
    // clock fails the test if it is waited on) and repeats nothing.
    spend(&s, (T - 3_600) as u32, 0);
    clock.set(T - 7_200);
    let never = NeverWait(&clock);
    for _ in 0..1000 {
        let id = lenient(&s, &l, &never);
        assert_eq!(id.timestamp(), (T - 7_200) as u32);
        assert!(!ids.contains(&id));
        ids.push(id);
    }
    let randoms: HashSet<[u8; 5]> = ids.iter().map(|id| id.to_parts().random).collect();
    assert_eq!(randoms.len(), 3, "one value per step back");
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn a_year_ahead_and_back_costs_no_wait_and_no_repeat() {
    const T: u64 = 1_700_000_000;
    const YEAR: u64 = 365 * 86_400;
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = ManualClock::at(T);
    let never = NeverWait(&clock);
    let mut seen = Seen::default();
    for _ in 0..100 {
        assert!(seen.insert(strict(&s, &l, &never).unwrap()));
    }
    // One reading a year ahead (a bad RTC read, an NTP step undone), then the real time again.
    clock.set(T + YEAR);
    let glitch = strict(&s, &l, &never).unwrap();
    assert_eq!(u64::from(glitch.timestamp()), T + YEAR);
    assert!(seen.insert(glitch));
    clock.set(T);
    // More than a second's capacity, with real time moving on by a second every 2^22 ids:
    // every call succeeds (the old rule stamped the future second and failed after its 2^24),
    // carries the real second, and repeats nothing.
    let n = CAPACITY + 1000;
    for i in 0..n {
        if i > 0 && i % (1 << 22) == 0 {
            clock.advance(1);
        }
        let id = strict(&s, &l, &never).unwrap_or_else(|e| panic!("call {i}: {e}"));
        assert_eq!(u64::from(id.timestamp()), clock.unix_seconds().unwrap());
        assert!(seen.insert(id), "call {i} repeated an id");
    }
    assert_eq!(clock.unix_seconds(), Some(T + 4));
    // The glitch's value and the one the correction moved to.
    assert_eq!(seen.randoms().len(), 2);
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn under_rotate_a_spent_second_moves_to_a_new_random_value_at_once() {
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    s.ids.set_policy(CapacityPolicy::Rotate);
    let clock = NeverWait(FixedClock::at(1_700_000_000));
    let mut seen = Seen::default();
    let mut previous = [0; 5];
    let mut changes = 0;
    for i in 0..CAPACITY + 1000 {
        let id = strict(&s, &l, &clock).unwrap_or_else(|e| panic!("call {i}: {e}"));
        assert!(seen.insert(id), "call {i} repeated an id");
        let b = id.bytes();
        if b[4..9] != previous {
            previous = [b[4], b[5], b[6], b[7], b[8]];
            changes += 1;
        }
    }
    assert_eq!(changes, 2, "the first value and one rotation");
    assert_eq!(seen.randoms().len(), 2);
    assert_eq!(seen.sets.len(), 2, "all in the clock's second");
    // `new()` as well, with the second spent again by someone else.
    spend(&s, 1_700_000_000, 0);
    let id = lenient(&s, &Local::new(), &clock);
    assert!(seen.insert(id));
    assert_eq!(seen.randoms().len(), 3);
}

#[test]
fn the_policy_is_the_id_spaces_and_wait_by_default() {
    let s = shared(GuardKind::WipeOnFork);
    assert_eq!(s.ids.policy(), CapacityPolicy::Wait);
    assert_eq!(s.legacy_ids.policy(), CapacityPolicy::Fixed);
    // The process generator's, through the crate's functions.
    assert_eq!(crate::capacity_policy(), SHARED.0.ids.policy());
    assert_eq!(SHARED.0.legacy_ids.policy(), CapacityPolicy::Fixed);
    // Under Wait, a spent second is still an error for try and a wait for new (the test above
    // has the wait); under Fixed as well.
    let clock = FixedClock::at(1_700_000_000);
    for policy in [CapacityPolicy::Wait, CapacityPolicy::Fixed] {
        let s = shared(GuardKind::WipeOnFork);
        s.ids.set_policy(policy);
        strict(&s, &Local::new(), &clock).unwrap();
        spend(&s, 1_700_000_000, 0);
        assert_eq!(
            strict(&s, &Local::new(), &clock).unwrap_err().kind(),
            ErrorKind::CapacityExhausted,
            "{policy:?}"
        );
    }
}

#[test]
fn timestamps_past_2106_wrap_like_the_field() {
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = ManualClock::at(u64::from(u32::MAX));
    assert_eq!(strict(&s, &l, &clock).unwrap().timestamp(), u32::MAX);
    clock.set((1 << 32) + 5);
    assert_eq!(lenient(&s, &l, &clock).timestamp(), 5);
}

#[test]
fn a_child_drops_the_copied_block_and_draws_a_new_identity() {
    for kind in [GuardKind::WipeOnFork, GuardKind::AtFork] {
        let (s, l) = (shared(kind), Local::new());
        let clock = FixedClock::at(1_700_000_000);
        let parent: Vec<ObjectId> = (0..100).map(|_| lenient(&s, &l, &clock)).collect();
        assert!(l.left.get() > 0, "a live block");
        let parent_epoch = l.epoch.get();
        let g = s.guard();
        // What the kernel (or the atfork handler) does in a child: both words read 0; the
        // lock is dropped even if a parent thread held it at the fork.
        g.lock.store(12345, Relaxed);
        g.epoch.store(0, Relaxed);
        g.lock.store(0, Relaxed);
        let child = lenient(&s, &l, &clock);
        let p = parent[99].to_parts();
        assert_ne!(child.to_parts().random, p.random, "{kind:?}");
        assert_ne!(
            child.to_parts().counter,
            p.counter.wrapping_add(1) & 0xff_ffff
        );
        assert!(l.epoch.get() > parent_epoch);
    }
}

#[test]
fn without_a_fork_signal_the_process_id_decides_for_every_id() {
    let (s, l) = (shared(GuardKind::Pid), Local::new());
    let clock = FixedClock::at(1_700_000_000);
    let a = lenient(&s, &l, &clock);
    let b = lenient(&s, &l, &clock);
    assert_eq!(l.left.get(), 0, "blocks of one id");
    assert_eq!(a.to_parts().random, b.to_parts().random);
    // Another process id in the owner word, the epoch word unchanged: a child whose fork
    // nothing reported. Its lock may even be held by the parent's pid.
    let owner = s.owner.load(Relaxed);
    s.owner.store(
        (owner & !0xffff_ffff) | u64::from(std::process::id() + 1),
        Relaxed,
    );
    s.guard().lock.store(std::process::id() + 1, Relaxed);
    let c = lenient(&s, &l, &clock);
    assert_ne!(c.to_parts().random, a.to_parts().random);
    assert_eq!(s.owner.load(Relaxed) as u32, std::process::id());
}

#[test]
fn fallback_fill_differs_between_calls() {
    let mut a = [0u8; 11];
    let mut b = [0u8; 11];
    fallback_fill(&mut a);
    std::thread::sleep(std::time::Duration::from_millis(1));
    fallback_fill(&mut b);
    assert_ne!(a, b);
    assert_ne!(a, [0; 11]);
}

struct Failing;
impl Entropy for Failing {
    fn fill(&mut self, _: &mut [u8]) -> Result<(), EntropyError> {
        Err(EntropyError::with_code("test source", 5))
    }
}

#[test]
fn entropy_failure_is_an_error_in_strict_mode_and_a_weak_seed_otherwise() {
    let s = shared(GuardKind::WipeOnFork);
    let err = s.identity::<Strict>(&mut Failing).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EntropyFailed);
    assert_eq!(
        err.entropy(),
        Some(EntropyError::with_code("test source", 5))
    );
    assert_eq!(s.owner.load(Relaxed), 0, "a failed try draws nothing");
    let Ok(weak) = s.identity::<Lenient>(&mut Failing);
    assert!(weak.weak);
    let weak_random = s.ids.random();
    // The weak identity stays for this process; strict callers refuse it, even with a
    // working source now.
    let err = s.identity::<Strict>(&mut OsEntropy).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::WeakSeed);
    // A child draws a proper one again.
    s.guard().epoch.store(0, Relaxed);
    let good = s.identity::<Strict>(&mut OsEntropy).unwrap();
    assert!(!good.weak);
    assert_ne!(s.ids.random(), weak_random);
}

#[test]
fn the_process_generator_uses_the_process_guard() {
    let Ok(id) = SHARED.0.identity::<Lenient>(&mut OsEntropy);
    assert_eq!(id.guard.kind, crate::fork::process_guard().kind);
    assert!(id.epoch != 0);
    assert_eq!(SHARED.0.ids.random(), crate::new().to_parts().random);
}

#[cfg(feature = "legacy")]
#[test]
fn legacy_counter_has_its_own_capacity() {
    use crate::legacy::next_in as next_legacy_in;
    let s = shared(GuardKind::WipeOnFork);
    let clock = ManualClock::at(1_700_000_000);
    let a = next_legacy_in::<Strict, _>(&s, &clock, 0x123456).unwrap();
    let r = s
        .legacy_ids
        .reserve(Some(1_700_000_000), CAPACITY - 2)
        .unwrap();
    assert_eq!(r.len(), CAPACITY - 2);
    let b = next_legacy_in::<Strict, _>(&s, &clock, 0x123456).unwrap();
    assert_ne!(a, b);
    let err = next_legacy_in::<Strict, _>(&s, &clock, 0x123456).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CapacityExhausted);
    // The ids' own counter is untouched.
    assert!(strict(&s, &Local::new(), &clock).is_ok());
    clock.advance(1);
    let Ok(c) = next_legacy_in::<Lenient, _>(&s, &clock, 0x123456);
    assert_eq!(c.timestamp(), 1_700_000_001);
    assert_eq!(c.to_legacy_parts().process_id, std::process::id() as u16);
    // A clock set back an hour: the legacy counter keeps its second (its random value is not
    // in the ids, so a new one would not make a new id space) and never repeats an id.
    clock.set(1_700_000_001 - 3_600);
    let d = next_legacy_in::<Strict, _>(&s, &clock, 0x123456).unwrap();
    assert_eq!(d.timestamp(), 1_700_000_001);
    assert_ne!(c, d);
    assert_eq!(s.legacy_ids.policy(), oid_core::CapacityPolicy::Fixed);
    // Not under the ids' Rotate either: a spent second is an error, and an hour back after
    // it still stamps the newest second.
    s.ids.set_policy(CapacityPolicy::Rotate);
    clock.set(1_700_000_001);
    s.legacy_ids.reserve(Some(1_700_000_001), CAPACITY).unwrap();
    assert_eq!(
        next_legacy_in::<Strict, _>(&s, &clock, 0x123456)
            .unwrap_err()
            .kind(),
        ErrorKind::CapacityExhausted
    );
    clock.advance(1);
    next_legacy_in::<Strict, _>(&s, &clock, 0x123456).unwrap();
    clock.set(1_700_000_002 - 3_600);
    let d = next_legacy_in::<Strict, _>(&s, &clock, 0x123456).unwrap();
    assert_eq!(d.timestamp(), 1_700_000_002, "the newest second");
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids per second")]
fn the_last_seconds_of_the_field_and_the_wrap_each_hold_their_full_capacity() {
    // The process generator under an injected clock: each of 0xFFFFFFFE, 0xFFFFFFFF and
    // 2^32 + 1 (timestamp 1) gives exactly its 2^24 ids through a thread's blocks, none twice.
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = ManualClock::at(0xffff_fffe);
    for (reading, secs) in [
        (0xffff_fffe_u64, 0xffff_fffe_u32),
        (0xffff_ffff, 0xffff_ffff),
        ((1 << 32) + 1, 1),
    ] {
        clock.set(reading);
        let mut seen = vec![0u64; (CAPACITY / 64) as usize];
        let mut n = 0u32;
        while let Ok(id) = strict(&s, &l, &clock) {
            let p = id.to_parts();
            assert_eq!(p.timestamp, secs);
            let (word, bit) = ((p.counter / 64) as usize, p.counter % 64);
            assert_eq!(seen[word] & (1 << bit), 0, "repeat in second {secs:#x}");
            seen[word] |= 1 << bit;
            n += 1;
        }
        assert_eq!(n, CAPACITY, "second {secs:#x}");
        assert_eq!(
            strict(&s, &Local::new(), &clock).unwrap_err().kind(),
            ErrorKind::CapacityExhausted
        );
    }
    clock.advance(1);
    assert_eq!(lenient(&s, &l, &clock).timestamp(), 2);
}

/// Both clocks move on by `secs`, the wall clock `extra` seconds more (a step, a jump).
fn tick(clock: &ManualClock, boot: &ManualElapsed, secs: u64, extra: i64) {
    boot.0.fetch_add(secs, Relaxed);
    clock.set(
        clock
            .unix_seconds()
            .unwrap()
            .wrapping_add(secs)
            .wrapping_add_signed(extra),
    );
}

#[test]
fn a_wall_clock_jump_against_the_boot_clock_draws_a_fresh_random_value() {
    const T: u64 = 1_700_000_000;
    let (s, l, other) = (shared(GuardKind::WipeOnFork), Local::new(), Local::new());
    let (clock, boot) = (ManualClock::at(T), ManualElapsed(AtomicU64::new(500)));
    let id = |l: &Local| next_in::<Strict, _>(&s, l, &clock, &boot).unwrap();
    let first = id(&l);
    let random = first.to_parts().random;
    // Without a jump the random value stays, second after second.
    for _ in 0..10 {
        tick(&clock, &boot, 1, 0);
        assert_eq!(id(&l).to_parts().random, random);
    }
    // A VM resumed from a snapshot an hour old, its clock set right: the wall clock an hour on,
    // the boot-time clock a second. The next block has a fresh value; one rotation for both
    // threads.
    tick(&clock, &boot, 1, 3_600);
    let resumed = id(&l);
    assert_ne!(resumed.to_parts().random, random);
    assert_eq!(u64::from(resumed.timestamp()), T + 11 + 3_600);
    assert_eq!(id(&other).to_parts().random, resumed.to_parts().random);
    // And the value stays again without a jump.
    tick(&clock, &boot, 1, 0);
    assert_eq!(id(&l).to_parts().random, resumed.to_parts().random);
    // A jump back (a clone whose clock is set back) draws another fresh value too; it is
    // more than the step-back tolerance, so the id space moves to the clock's second.
    tick(&clock, &boot, 0, -60);
    let back = id(&l);
    assert_ne!(back.to_parts().random, resumed.to_parts().random);
    assert_ne!(back.to_parts().random, random);
    assert_eq!(u64::from(back.timestamp()), T + 12 + 3_600 - 60);
}

#[test]
fn small_steps_of_the_wall_clock_do_not_rotate() {
    const T: u64 = 1_700_000_000;
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let (clock, boot) = (ManualClock::at(T), ManualElapsed(AtomicU64::new(500)));
    let id = || next_in::<Strict, _>(&s, &l, &clock, &boot).unwrap();
    let random = id().to_parts().random;
    // NTP-sized changes: whole-second readings disagree by a second now and then, a step
    // gains a second; up to the threshold itself at once. None is a jump. (Steps back of more
    // than the step-back tolerance move to a new value by the id space's own rule.)
    for extra in [1, 1, -1, 0, 1, -2, i64::from(JUMP_SECONDS)] {
        tick(&clock, &boot, 1, extra);
        assert_eq!(id().to_parts().random, random, "a change of {extra} s");
    }
    // Just over the threshold is.
    tick(&clock, &boot, 1, i64::from(JUMP_SECONDS) + 1);
    assert_ne!(id().to_parts().random, random);
}

#[test]
fn without_an_elapsed_clock_or_a_wall_reading_nothing_is_compared() {
    let (s, l) = (shared(GuardKind::WipeOnFork), Local::new());
    let clock = ManualClock::at(1_700_000_000);
    let random = lenient(&s, &l, &clock).to_parts().random;
    clock.set(1_700_000_000 + 86_400);
    assert_eq!(lenient(&s, &l, &clock).to_parts().random, random);
    assert_eq!(s.signals.offset.load(Relaxed), NO_OFFSET);
    // No wall reading: the boot clock alone says nothing.
    let boot = ManualElapsed(AtomicU64::new(7));
    clock.unset();
    let Ok(id) = next_in::<Lenient, _>(&s, &Local::new(), &clock, &boot);
    assert_eq!(id.to_parts().random, random);
    assert_eq!(s.signals.offset.load(Relaxed), NO_OFFSET);
}

mod steps;

#[cfg(any(target_os = "linux", target_os = "android"))]
#[test]
fn the_boot_clock_reads_on_linux() {
    let a = BootTime.seconds().unwrap();
    let b = BootTime.seconds().unwrap();
    assert!(a <= b);
}
