use super::words::{counted, halves, uncounted, window as tagged};
use super::*;
use crate::loom::Ordering::{Acquire, Release};
use crate::{FixedClock, ManualClock};
use std::collections::HashSet;
use std::vec::Vec;

const RANDOM: [u8; 5] = [0x3f, 0x2a, 0x91, 0xc8, 0xd4];

/// The random value after `r` for an id space seeded with `RANDOM` and `counter`.
const fn next_of(r: [u8; 5], counter: u32) -> [u8; 5] {
    let step = policy::step_for(super::words::era(RANDOM, 0), counter);
    super::words::era_random(super::words::era_of(
        policy::next_random(super::words::era(r, 0) >> 24, step),
        0,
    ))
}

#[test]
fn worked_example() {
    let g = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, 12345);
    assert_eq!(g.next().to_hex(), "6553f1003f2a91c8d4003039");
    assert_eq!(g.next().to_hex(), "6553f1003f2a91c8d400303a");
}

#[test]
fn first_id_uses_seed_then_increments_and_wraps() {
    let g = Generator::from_seed(FixedClock::at(1), [0; 5], 0xfffffd);
    let counters: Vec<u32> = (0..5).map(|_| g.next().to_parts().counter).collect();
    assert_eq!(counters, [0xfffffd, 0xfffffe, 0xffffff, 0, 1]);
}

#[test]
fn seed_counter_above_24_bits_is_truncated() {
    let g = Generator::from_seed(FixedClock::at(1), [0; 5], 0xff00_0005);
    assert_eq!(g.next().to_parts().counter, 5);
}

#[test]
fn wrap_across_the_u32_boundary_of_the_atomic() {
    let g = Generator::from_seed(FixedClock::at(1), [0; 5], u32::MAX);
    assert_eq!(g.next().to_parts().counter, 0xffffff);
    assert_eq!(g.next().to_parts().counter, 0);
}

#[test]
fn clock_readings_wrap_modulo_2_pow_32() {
    let g = Generator::from_seed(FixedClock::at((1 << 32) + 1_700_000_000), [0; 5], 0);
    assert_eq!(g.next().timestamp(), 1_700_000_000);
    let clock = ManualClock::at(u64::from(u32::MAX));
    let g = Generator::from_seed(&clock, [0; 5], 0);
    assert_eq!(g.next().timestamp(), u32::MAX);
    // After 2106-02-07T06:28:15Z the field wraps to 0: serial-number arithmetic makes 0 the
    // later second, as it makes 2^32 + 5 later than 0.
    clock.set(1 << 32);
    assert_eq!(g.next().timestamp(), 0);
    clock.set((1 << 32) + 5);
    assert_eq!(g.next().timestamp(), 5);
    // A reading 2^31 or more seconds "ahead" is a step back: with `Fixed` the newest second
    // stays; by default a new random value at the clock's second.
    let fixed = Generator::from_ids(
        &clock,
        IdSpace::new([0; 5], 0).with_policy(CapacityPolicy::Fixed),
    );
    assert_eq!(fixed.next().timestamp(), 5);
    clock.set((1 << 32) + 5 + (1 << 31));
    assert_eq!(fixed.next().timestamp(), 5);
    let id = g.next();
    assert_eq!(id.timestamp(), 5 + (1 << 31));
    assert_ne!(id.to_parts().random, [0; 5]);
}

/// Every id of one second, taken with `try_fill` in blocks (the last cut to what is left):
/// exactly 2^24, all distinct, all in second `secs`.
fn spend_second_in_blocks(g: &Generator<&ManualClock>, secs: u32, seen: &mut Seen) {
    const BLOCK: usize = 1 << 16;
    let mut out = std::vec![ObjectId::MIN; BLOCK];
    let mut total = 0usize;
    while g.try_fill(&mut out).is_ok() {
        for id in &out {
            assert_eq!(id.timestamp(), secs);
            assert!(
                seen.insert(id.to_parts().counter),
                "repeat in second {secs}"
            );
        }
        total += BLOCK;
    }
    assert_eq!(total, CAPACITY as usize, "second {secs}");
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids per second")]
fn the_last_seconds_of_the_field_and_the_wrap_each_hold_their_full_capacity() {
    let clock = ManualClock::at(0xffff_fffe);
    let g = Generator::from_seed(&clock, RANDOM, 0xabcdef);
    for (reading, secs) in [
        (0xffff_fffe_u64, 0xffff_fffe_u32),
        (0xffff_ffff, 0xffff_ffff),
        ((1 << 32) + 1, 1),
    ] {
        clock.set(reading);
        let mut seen = Seen::new();
        spend_second_in_blocks(&g, secs, &mut seen);
    }
    // The id after the wrap carries timestamp 1, and second 1 is spent: `try_next` fails
    // until the clock moves on.
    clock.advance(1);
    assert_eq!(g.try_next().map(|id| id.timestamp()), Ok(2));
}

#[test]
fn unknown_time_errors_in_try_next_and_falls_back_in_next() {
    let clock = ManualClock::new();
    let g = Generator::from_seed(&clock, RANDOM, 7);
    assert_eq!(g.try_next(), Err(GenerateError::CLOCK_UNAVAILABLE));
    assert_eq!(
        g.try_next().map_err(|e| e.kind()),
        Err(crate::ErrorKind::ClockUnavailable)
    );
    let mut batch = [ObjectId::MIN; 2];
    assert_eq!(
        g.try_fill(&mut batch),
        Err(GenerateError::CLOCK_UNAVAILABLE)
    );
    assert_eq!(batch, [ObjectId::MIN; 2]);
    // No counter value was used by the failures; never a reading: timestamp 0.
    let id = g.next();
    assert_eq!((id.timestamp(), id.to_parts().counter), (0, 7));
    clock.set(1_700_000_000);
    assert_eq!(g.next().timestamp(), 1_700_000_000);
    clock.unset();
    assert_eq!(g.next().timestamp(), 1_700_000_000);
    g.fill(&mut batch);
    assert_eq!(batch[1].timestamp(), 1_700_000_000);
}

struct Failing;
impl Entropy for Failing {
    fn fill(&mut self, _: &mut [u8]) -> Result<(), EntropyError> {
        Err(EntropyError::with_code("device busy", 16))
    }
}

struct Counting(u8);
impl Entropy for Counting {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
        for b in dest {
            self.0 = self.0.wrapping_add(1);
            *b = self.0;
        }
        Ok(())
    }
}

#[test]
fn failing_entropy_is_an_error() {
    let err = Generator::from_entropy(FixedClock::at(0), &mut Failing).err();
    assert_eq!(err, Some(EntropyError::with_code("device busy", 16)));
    let g = Generator::from_seed(FixedClock::at(0), RANDOM, 1);
    assert!(g.ids().reseed_from(&mut Failing).is_err());
    assert_eq!(
        g.ids().random(),
        RANDOM,
        "a failed reseed leaves the generator unchanged"
    );
}

#[test]
fn entropy_seeds_random_and_counter() {
    let g = Generator::from_entropy(FixedClock::at(0), &mut Counting(0)).ok();
    let parts = g.map(|g| g.next().to_parts());
    assert_eq!(
        parts.map(|p| (p.random, p.counter)),
        Some(([1, 2, 3, 4, 5], 0x060708))
    );
}

#[test]
fn reseed_changes_random_and_counter() {
    let g = Generator::from_seed(FixedClock::at(0), RANDOM, 1);
    g.ids().reseed([1, 2, 3, 4, 5], 0xabcdef);
    let p = g.next().to_parts();
    assert_eq!((p.random, p.counter), ([1, 2, 3, 4, 5], 0xabcdef));
}

#[test]
fn fill_is_one_consecutive_batch() {
    let g = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, 0xffff00);
    let mut ids = std::vec![ObjectId::MIN; 1000];
    g.fill(&mut ids);
    for (i, id) in ids.iter().enumerate() {
        let p = id.to_parts();
        assert_eq!(p.timestamp, 1_700_000_000);
        assert_eq!(p.random, RANDOM);
        assert_eq!(p.counter, (0xffff00 + i as u32) & 0xffffff);
    }
    assert_eq!(g.next().to_parts().counter, (0xffff00 + 1000) & 0xffffff);
    g.fill(&mut []);
    assert_eq!(g.next().to_parts().counter, (0xffff00 + 1001) & 0xffffff);
}

#[test]
fn legacy_generator_layout() {
    let g = Generator::from_legacy(FixedClock::at(0x507f1f77), 0xffbcf86c, 0xd799, 0x439011);
    let id = g.next();
    assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
    let p = id.to_legacy_parts();
    assert_eq!(
        (p.machine, p.process_id, p.counter),
        (0xbcf86c, 0xd799, 0x439011)
    );
}

#[test]
fn threads_share_one_generator_without_duplicates() {
    const THREADS: usize = 4;
    const PER_THREAD: usize = if cfg!(miri) { 500 } else { 250_000 };
    let g = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, 0);
    let results: Vec<Vec<ObjectId>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| s.spawn(|| (0..PER_THREAD).map(|_| g.next()).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread panicked"))
            .collect()
    });
    let mut all = HashSet::with_capacity(THREADS * PER_THREAD);
    for ids in &results {
        // Strictly increasing within a thread (same second, counter far from the wrap).
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        for id in ids {
            assert!(all.insert(*id), "duplicate id {id}");
        }
    }
    assert_eq!(all.len(), THREADS * PER_THREAD);
}

#[test]
fn generator_is_sync_and_send() {
    fn assert_sync<T: Sync + Send>() {}
    assert_sync::<Generator<FixedClock>>();
    assert_sync::<Generator<&'static ManualClock>>();
}

/// A bitset over the 2^24 counter values.
struct Seen(Vec<u64>);

impl Seen {
    fn new() -> Seen {
        Seen(std::vec![0; (CAPACITY / 64) as usize])
    }
    /// Marks `counter`; false if it was marked before.
    fn insert(&mut self, counter: u32) -> bool {
        let (word, bit) = ((counter / 64) as usize, counter % 64);
        let fresh = self.0[word] & (1 << bit) == 0;
        self.0[word] |= 1 << bit;
        fresh
    }
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn one_second_holds_exactly_2_pow_24_ids_across_the_wrap() {
    let clock = ManualClock::at(1_700_000_000);
    let g = Generator::from_ids(
        &clock,
        IdSpace::new(RANDOM, 0xffff00).with_policy(CapacityPolicy::Fixed),
    );
    let mut ids = std::vec![ObjectId::MIN; CAPACITY as usize];
    assert_eq!(g.try_fill(&mut ids), Ok(()));
    let mut seen = Seen::new();
    for id in &ids {
        let p = id.to_parts();
        assert_eq!((p.timestamp, p.random), (1_700_000_000, RANDOM));
        assert!(seen.insert(p.counter), "repeated counter {:#x}", p.counter);
    }
    assert_eq!(ids[0].to_parts().counter, 0xffff00);
    assert_eq!(ids[0x100].to_parts().counter, 0, "the spec's wrap");
    // Spent: every fallible call fails and uses up nothing.
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
    let mut one = [ObjectId::MIN; 1];
    assert_eq!(g.try_fill(&mut one), Err(GenerateError::CAPACITY_EXHAUSTED));
    assert_eq!(one, [ObjectId::MIN]);
    assert_eq!(g.try_fill(&mut []), Ok(()));
    // The clock stepping back does not reopen anything either (`Fixed`: one random value).
    clock.set(1_699_999_999);
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
    clock.set(1_600_000_000);
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
    // A later second gives the capacity back; the counter goes on where it stopped.
    clock.set(1_700_000_000);
    clock.advance(1);
    let next = g.try_next().map(|id| id.to_parts());
    assert_eq!(
        next.map(|p| (p.timestamp, p.counter)),
        Ok((1_700_000_001, 0xffff00))
    );
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn a_second_is_spent_by_single_ids_and_batches_alike() {
    let clock = ManualClock::at(10);
    let g = Generator::from_seed(&clock, RANDOM, 5);
    let mut big = std::vec![ObjectId::MIN; CAPACITY as usize - 2];
    assert_eq!(g.try_fill(&mut big), Ok(()));
    let mut three = [ObjectId::MIN; 3];
    assert_eq!(
        g.try_fill(&mut three),
        Err(GenerateError::CAPACITY_EXHAUSTED)
    );
    assert!(g.try_next().is_ok());
    assert!(g.try_next().is_ok());
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
    clock.advance(1);
    assert_eq!(g.try_fill(&mut three), Ok(()));
    assert_eq!(three[0].timestamp(), 11);
}

#[test]
fn the_clock_stepping_back_within_the_tolerance_keeps_the_newest_second() {
    for policy in [
        CapacityPolicy::Wait,
        CapacityPolicy::Rotate,
        CapacityPolicy::Fixed,
    ] {
        let clock = ManualClock::at(1_000);
        let g = Generator::from_ids(&clock, IdSpace::new(RANDOM, 0).with_policy(policy));
        assert_eq!(g.next().timestamp(), 1_000);
        clock.set(1_000 - u64::from(CapacityPolicy::STEP_BACK_TOLERANCE));
        let id = g.next();
        assert_eq!((id.timestamp(), id.to_parts().counter), (1_000, 1));
        assert_eq!(id.to_parts().random, RANDOM, "{policy:?}");
        clock.set(1_001);
        assert_eq!(g.next().timestamp(), 1_001);
        clock.unset();
        assert_eq!(g.next().timestamp(), 1_001, "no reading: the newest second");
        assert_eq!(g.ids().random(), RANDOM);
    }
}

#[test]
fn fixed_keeps_the_newest_second_through_any_step_back() {
    let clock = ManualClock::at(1_000);
    let g = Generator::from_ids(
        &clock,
        IdSpace::new(RANDOM, 0).with_policy(CapacityPolicy::Fixed),
    );
    assert_eq!(g.next().timestamp(), 1_000);
    clock.set(900);
    let id = g.next();
    assert_eq!((id.timestamp(), id.to_parts().counter), (1_000, 1));
    assert_eq!(id.to_parts().random, RANDOM);
    // The legacy layout's bytes never change: `Fixed` is its default.
    let legacy = Generator::from_legacy(&clock, 0xbcf86c, 0xd799, 0);
    assert_eq!(legacy.ids().policy(), CapacityPolicy::Fixed);
}

#[test]
fn a_step_back_moves_to_a_new_random_value_at_the_clocks_second() {
    for policy in [CapacityPolicy::Wait, CapacityPolicy::Rotate] {
        let clock = ManualClock::at(1_000);
        let g = Generator::from_ids(&clock, IdSpace::new(RANDOM, 7).with_policy(policy));
        let before: Vec<ObjectId> = (0..3).map(|_| g.next()).collect();
        clock.set(1_000 - u64::from(CapacityPolicy::STEP_BACK_TOLERANCE) - 1);
        let after = g.next();
        let p = after.to_parts();
        assert_eq!(p.timestamp, 998, "{policy:?}: the clock's own second");
        assert_eq!(p.random, next_of(RANDOM, 7), "{policy:?}");
        // The counter goes on where it stood, one value skipped (the one the fast path wasted).
        assert_eq!(p.counter, 11);
        assert!(!before.contains(&after));
        // The new random value's second 998 holds its full capacity, monotonic again.
        assert_eq!(g.ids.left(998), CAPACITY - 1);
        assert_eq!(g.next().to_parts().counter, 12);
        clock.set(999);
        assert_eq!(g.next().timestamp(), 999);
        assert_eq!(g.ids().random(), next_of(RANDOM, 7));
    }
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn rotate_continues_a_spent_second_with_a_new_random_value() {
    let g = Generator::from_ids(
        FixedClock::at(1_700_000_000),
        IdSpace::new(RANDOM, 0xffff00).with_policy(CapacityPolicy::Rotate),
    );
    let n = CAPACITY as usize + 1_000;
    // One second: ids are distinct iff their (random value, counter) pairs are.
    let mut seen = [Seen::new(), Seen::new()];
    let mut randoms = Vec::new();
    for _ in 0..n {
        let id = g.try_next().expect("rotate never fails on a fixed clock");
        let p = id.to_parts();
        assert_eq!(p.timestamp, 1_700_000_000);
        if randoms.last() != Some(&p.random) {
            randoms.push(p.random);
        }
        let k = randoms.len().min(2) - 1;
        assert!(seen[k].insert(p.counter), "repeated {id}");
    }
    assert_eq!(randoms, [RANDOM, next_of(RANDOM, 0xffff00)], "one rotation");
    // The counter went on: the second value's first id is the first value's 2^24-th + 1.
    assert_eq!(g.ids.left(1_700_000_000), CAPACITY - 1_000);
    // `try_fill` of a whole second after part of one: one more rotation, all of it.
    let mut all = std::vec![ObjectId::MIN; CAPACITY as usize];
    assert_eq!(g.try_fill(&mut all), Ok(()));
    assert!(
        all.iter()
            .all(|id| id.to_parts().random == next_of(next_of(RANDOM, 0xffff00), 0xffff00))
    );
    // Under `Wait` the same second is spent: an error, nothing used up.
    g.ids.set_policy(CapacityPolicy::Wait);
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
    // Without a clock reading, `Rotate` keeps the newest second.
    let unset = Generator::from_ids(
        FixedClock::UNSET,
        IdSpace::new(RANDOM, 0).with_policy(CapacityPolicy::Rotate),
    );
    let mut first = std::vec![ObjectId::MIN; CAPACITY as usize];
    unset.fill(&mut first);
    let id = unset.next();
    assert_eq!(
        (id.timestamp(), id.to_parts().random),
        (0, next_of(RANDOM, 0))
    );
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn a_forward_glitch_then_its_correction_never_blocks_or_repeats() {
    const NOW: u64 = 1_700_000_000;
    const YEAR: u64 = 365 * 24 * 3600;
    let clock = ManualClock::at(NOW);
    let g = Generator::from_seed(&clock, RANDOM, 0);
    let before = g.try_next().unwrap();
    clock.set(NOW + YEAR);
    let glitch = g.try_next().unwrap();
    assert_eq!(u64::from(glitch.timestamp()), NOW + YEAR);
    clock.set(NOW + 1);
    // Every id after the correction: the real second, the next random value (so none can equal
    // the two above), and per second distinct counters.
    let mut seen = [Seen::new(), Seen::new()];
    for i in 0..(1u32 << 24) + 1_000 {
        let id = g.try_next().unwrap_or_else(|e| panic!("call {i}: {e}"));
        let p = id.to_parts();
        let k = i >> 24;
        assert_eq!(u64::from(p.timestamp), NOW + 1 + u64::from(k), "call {i}");
        assert_eq!(p.random, next_of(RANDOM, 0), "call {i}");
        assert!(seen[k as usize].insert(p.counter), "repeated {id}");
        if i + 1 == 1 << 24 {
            clock.advance(1); // the real second is spent: the clock moves on, as real ones do
        }
    }
    assert_eq!(
        (before.to_parts().random, glitch.to_parts().random),
        (RANDOM, RANDOM)
    );
}

#[test]
fn an_hour_back_after_a_spent_second_returns_at_once() {
    // The clock never moves on its own; `wait` counts. The old rule waited here for an hour.
    struct Counting<'a>(&'a ManualClock, core::cell::Cell<u32>);
    impl Clock for Counting<'_> {
        fn unix_seconds(&self) -> Option<u64> {
            self.0.unix_seconds()
        }
        fn wait(&self) {
            self.1.set(self.1.get() + 1);
            assert!(self.1.get() < 1_000, "waited for the clock");
        }
    }
    let clock = ManualClock::at(5_000);
    let g = Generator::from_seed(Counting(&clock, core::cell::Cell::new(0)), RANDOM, 0);
    g.ids.reserve(Some(5_000), CAPACITY).unwrap();
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
    clock.set(5_000 - 3_600);
    let id = g.next();
    assert_eq!(id.timestamp(), 5_000 - 3_600);
    assert_eq!(g.clock().1.get(), 0);
    assert_ne!(id.to_parts().random, RANDOM);
}

/// A clock whose `wait` ends when the reading changes (as a real clock's wait ends at its next
/// second), and counts its calls.
struct NextSecond<'a> {
    clock: &'a ManualClock,
    waits: core::cell::Cell<u32>,
}

impl<'a> NextSecond<'a> {
    const fn new(clock: &'a ManualClock) -> Self {
        NextSecond {
            clock,
            waits: core::cell::Cell::new(0),
        }
    }
}

impl Clock for NextSecond<'_> {
    fn unix_seconds(&self) -> Option<u64> {
        self.clock.unix_seconds()
    }
    fn wait(&self) {
        self.waits.set(self.waits.get() + 1);
        let start = self.clock.unix_seconds();
        while self.clock.unix_seconds() == start {
            std::thread::yield_now();
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn next_waits_once_for_a_later_second_when_one_is_spent() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let manual = ManualClock::at(50);
    let clock = NextSecond::new(&manual);
    let g = Generator::from_seed(&clock, RANDOM, 0);
    let mut all = std::vec![ObjectId::MIN; CAPACITY as usize];
    g.fill(&mut all);
    assert_eq!(clock.waits.get(), 0);
    let moved = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            moved.store(true, Ordering::SeqCst);
            manual.advance(1);
        });
        let id = g.next();
        assert!(
            moved.load(Ordering::SeqCst),
            "returned before the clock moved"
        );
        assert_eq!(id.timestamp(), 51);
        // The fast path's increment on the spent second was wasted, but the new second opens
        // where the ids stopped: nothing skipped.
        assert_eq!(id.to_parts().counter, 0);
        assert_eq!(id.to_parts().random, RANDOM);
    });
    assert_eq!(clock.waits.get(), 1, "one wait, through Clock::wait");
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn after_its_one_wait_next_moves_on_instead_of_waiting_again() {
    // The wait ends, but the clock reads the spent second again (it was set back during the
    // wait, or its wait returns early): a new random value in the same second, no second wait.
    struct SetBack<'a>(&'a ManualClock, core::cell::Cell<u32>);
    impl Clock for SetBack<'_> {
        fn unix_seconds(&self) -> Option<u64> {
            self.0.unix_seconds()
        }
        fn wait(&self) {
            self.1.set(self.1.get() + 1);
            assert_eq!(self.1.get(), 1, "a second wait");
        }
    }
    for (policy, waits) in [(CapacityPolicy::Wait, 1), (CapacityPolicy::Rotate, 0)] {
        let manual = ManualClock::at(60);
        let g = Generator::from_ids(
            SetBack(&manual, core::cell::Cell::new(0)),
            IdSpace::new(RANDOM, 5).with_policy(policy),
        );
        g.ids.reserve(Some(60), CAPACITY).unwrap();
        let id = g.next();
        let p = id.to_parts();
        assert_eq!(
            (p.timestamp, p.random),
            (60, next_of(RANDOM, 5)),
            "{policy:?}"
        );
        assert_eq!(g.clock().1.get(), waits, "{policy:?}");
        // `fill` too: one wait per call.
        g.ids.reserve(Some(60), g.ids.left(60)).unwrap();
        g.clock().1.set(0);
        let mut batch = [ObjectId::MIN; 3];
        g.fill(&mut batch);
        assert!(batch.iter().all(|id| id.timestamp() == 60));
        assert_eq!(g.clock().1.get(), waits, "{policy:?}");
    }
    // A clock that reads a second behind the spent newest one (within the tolerance): a new
    // value at once, at the newest second (monotonic), for `try_next` too.
    let manual = ManualClock::at(70);
    let g = Generator::from_seed(SetBack(&manual, core::cell::Cell::new(0)), RANDOM, 5);
    g.ids.reserve(Some(70), CAPACITY).unwrap();
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
    manual.set(69);
    let id = g.try_next().unwrap();
    assert_eq!(
        (id.timestamp(), id.to_parts().random),
        (70, next_of(RANDOM, 5))
    );
    assert_eq!(g.clock().1.get(), 0);
    // Under `Fixed` nothing changes the random value: the wait goes on.
    let fixed = Generator::from_ids(
        FixedClock::at(80),
        IdSpace::new(RANDOM, 5).with_policy(CapacityPolicy::Fixed),
    );
    fixed.ids.reserve(Some(80), CAPACITY).unwrap();
    assert_eq!(
        fixed.ids.reserve_after_wait(Some(80), 1),
        Err(GenerateError::CAPACITY_EXHAUSTED)
    );
}

#[test]
#[cfg_attr(miri, ignore = "2^24 ids")]
fn fill_past_capacity_continues_in_the_next_second() {
    let manual = ManualClock::at(7);
    let clock = NextSecond::new(&manual);
    let g = Generator::from_seed(&clock, RANDOM, 0);
    let mut first = std::vec![ObjectId::MIN; CAPACITY as usize - 10];
    g.fill(&mut first);
    let mut batch = [ObjectId::MIN; 25];
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            manual.advance(1);
        });
        g.fill(&mut batch);
    });
    assert!(batch[..10].iter().all(|id| id.timestamp() == 7));
    assert!(batch[10..].iter().all(|id| id.timestamp() == 8));
    let counters: Vec<u32> = batch.iter().map(|id| id.to_parts().counter).collect();
    let expected: Vec<u32> = (CAPACITY - 10..CAPACITY + 15)
        .map(|c| c & 0xff_ffff)
        .collect();
    assert_eq!(counters, expected);
    assert_eq!(clock.waits.get(), 1);
}

#[test]
#[cfg_attr(miri, ignore = "millions of ids")]
fn threads_racing_at_the_capacity_edge_never_repeat() {
    const THREADS: usize = 4;
    // Start 200,000 values before the end of the second, so every thread hits the edge.
    let clock = ManualClock::at(1_700_000_000);
    let g = Generator::from_seed(&clock, RANDOM, 0x123456);
    let mut skip = std::vec![ObjectId::MIN; CAPACITY as usize - 200_000];
    assert_eq!(g.try_fill(&mut skip), Ok(()));
    drop(skip);
    let results: Vec<(Vec<ObjectId>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|i| {
                let g = &g;
                s.spawn(move || {
                    let mut ids = Vec::new();
                    let mut refused = 0;
                    let mut batch = [ObjectId::MIN; 3];
                    // Mixed single ids and batches, until every attempt is refused 1,000 times.
                    while refused < 1_000 {
                        let ok = if i % 2 == 0 {
                            g.try_next().map(|id| ids.push(id)).is_ok()
                        } else {
                            g.try_fill(&mut batch)
                                .map(|()| ids.extend_from_slice(&batch))
                                .is_ok()
                        };
                        if !ok {
                            refused += 1;
                        }
                    }
                    (ids, refused)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread panicked"))
            .collect()
    });
    let mut seen = HashSet::new();
    for (ids, _) in &results {
        for id in ids {
            assert_eq!(id.timestamp(), 1_700_000_000);
            assert!(seen.insert(*id), "duplicate id {id}");
        }
    }
    // Every value of the second was handed out once, except at most the last partial batch (2).
    assert!(
        (199_998..=200_000).contains(&seen.len()),
        "{} ids",
        seen.len()
    );
}

#[test]
fn a_window_opened_at_a_stale_counter_still_bounds_the_second() {
    let clock = ManualClock::at(20);
    let g = Generator::from_seed(&clock, RANDOM, 0);
    assert_eq!(g.next().to_parts().counter, 0);
    // A window whose start lies behind the counter (an opener that read the counter and was
    // preempted) lowers the capacity but never admits a counter twice.
    g.ids.window.store(tagged(20, 1_000), Release);
    g.ids
        .counter
        .store(counted(20, 1_000 + CAPACITY - 2), Release);
    assert!(g.try_next().is_ok());
    assert!(g.try_next().is_ok());
    assert_eq!(g.try_next(), Err(GenerateError::CAPACITY_EXHAUSTED));
}

#[test]
fn a_counter_tagged_with_an_older_window_is_retagged_by_the_next_caller() {
    let clock = ManualClock::at(30);
    let g = Generator::from_seed(&clock, RANDOM, 0);
    assert_eq!(g.next().to_parts().counter, 0);
    // An opener published second 31 and stopped before re-tagging the counter: the next caller
    // tags it and takes from the new window.
    g.ids.window.store(tagged(31, 1), Release);
    clock.set(31);
    let id = g
        .try_next()
        .map(|id| (id.timestamp(), id.to_parts().counter));
    assert_eq!(id, Ok((31, 1)));
    assert_eq!(uncounted(g.ids.counter.load(Acquire)), (Some(31), 2));
}

#[test]
fn next_on_a_counter_tagged_with_an_older_window_wastes_one_value_and_never_repeats() {
    let clock = ManualClock::at(30);
    let g = Generator::from_seed(&clock, RANDOM, 0);
    assert_eq!(g.next().to_parts().counter, 0);
    // As above, but `next`: its fast path adds to the counter still tagged 30, sees the tag
    // differ from the window's second and wastes the value; the slow path re-tags and takes
    // the next one.
    g.ids.window.store(tagged(31, 1), Release);
    clock.set(31);
    let id = g.next();
    assert_eq!((id.timestamp(), id.to_parts().counter), (31, 2));
    assert_eq!(uncounted(g.ids.counter.load(Acquire)), (Some(31), 3));
    // Within a second, `next` is +1 with nothing wasted.
    assert_eq!(g.next().to_parts().counter, 3);
    assert_eq!(uncounted(g.ids.counter.load(Acquire)), (Some(31), 4));
}

#[test]
fn next_racing_with_the_first_window_skips_nothing() {
    let clock = ManualClock::at(40);
    let g = Generator::from_seed(&clock, RANDOM, 5);
    // The first opener published its window and stopped before tagging the counter: `next`'s
    // fast path adds to the untagged counter and wastes the value, but the re-tag puts the
    // counter back at the window's start (nothing was ever handed out untagged).
    g.ids.window.store(tagged(40, 5), Release);
    let id = g.next();
    assert_eq!((id.timestamp(), id.to_parts().counter), (40, 5));
    assert_eq!(g.next().to_parts().counter, 6);
    assert_eq!(uncounted(g.ids.counter.load(Acquire)), (Some(40), 7));
}

#[test]
fn the_fast_path_wraps_the_counter_without_touching_its_tag() {
    let g = Generator::from_seed(FixedClock::at(9), [0; 5], u32::MAX - 1);
    // The first id opens the window (slow path); the next ones are `fetch_add`s across the
    // 32-bit wrap of the counter's half of the word.
    let counters: Vec<u32> = (0..4).map(|_| g.next().to_parts().counter).collect();
    assert_eq!(counters, [0xfffffe, 0xffffff, 0, 1]);
    assert_eq!(uncounted(g.ids.counter.load(Acquire)), (Some(9), 2));
    // The window's start is the counter's 31-bit value.
    assert_eq!(
        halves(g.ids.window.load(Acquire)),
        (9, (u32::MAX - 1) & 0x7fff_ffff)
    );
}

#[test]
#[cfg_attr(miri, ignore = "threads waiting on a clock")]
fn threads_calling_next_across_spent_seconds_never_repeat() {
    const THREADS: usize = 4;
    const ROUNDS: u32 = 12;
    // Each round leaves 2,000 values in the second and asks for 4 x 1,500 ids, so every
    // round's threads waste increments on the spent second and race with the opening of the
    // next one (a helper thread moves the clock on).
    const LEFT: u32 = 2_000;
    const PER_THREAD: usize = 1_500;
    let clock = ManualClock::at(1_000);
    let g = Generator::from_seed(&clock, RANDOM, 0xfff000);
    let mut seen = HashSet::new();
    for _ in 0..ROUNDS {
        clock.advance(1);
        let first = g.next();
        seen.insert(first);
        let secs = first.timestamp();
        // Use up the second but `LEFT` values, as if 2^24 - LEFT ids had been taken.
        let (_, start) = halves(g.ids.window.load(Acquire));
        g.ids
            .counter
            .store(counted(secs, start.wrapping_add(CAPACITY - LEFT)), Release);
        let done = core::sync::atomic::AtomicUsize::new(0);
        let ids: Vec<Vec<ObjectId>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|_| {
                    s.spawn(|| {
                        let ids: Vec<ObjectId> = (0..PER_THREAD).map(|_| g.next()).collect();
                        done.fetch_add(1, core::sync::atomic::Ordering::SeqCst);
                        ids
                    })
                })
                .collect();
            s.spawn(|| {
                while done.load(core::sync::atomic::Ordering::SeqCst) < THREADS {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                    clock.advance(1);
                }
            });
            handles
                .into_iter()
                .map(|h| h.join().expect("thread panicked"))
                .collect()
        });
        for ids in &ids {
            // A thread whose reading went stale by more than the tolerance moves the id space
            // to a new random value (the helper moves the clock a second per millisecond); per
            // random value, a thread's timestamps never go back.
            for w in ids.windows(2) {
                if w[0].to_parts().random == w[1].to_parts().random {
                    assert!(w[0].timestamp() <= w[1].timestamp());
                }
            }
            for id in ids {
                assert!(seen.insert(*id), "duplicate id {id}");
            }
        }
        let random = first.to_parts().random;
        let in_first = ids
            .iter()
            .flatten()
            .filter(|id| id.timestamp() == secs && id.to_parts().random == random)
            .count();
        assert!(
            in_first <= LEFT as usize,
            "{in_first} ids in a second with {LEFT} left"
        );
    }
    assert_eq!(seen.len(), ROUNDS as usize * (1 + THREADS * PER_THREAD));
}

/// The examples of the reservation API (`IdSpace::reserve` and its kin, `IdBlock`), which
/// serves oid-std's per-thread blocks and is not in the docs.
#[test]
fn reservations_and_blocks() -> Result<(), GenerateError> {
    // struct IdBlock {
    {
        use crate::IdSpace;
        let ids = IdSpace::new([9; 5], 7);
        let block = ids.reserve(None, 2)?;
        assert_eq!(
            (block.timestamp(), block.random(), block.first()),
            (0, [9; 5], 7)
        );
        assert_eq!(block.id(1).map(|id| id.to_parts().counter), Some(8));
        assert_eq!(block.id(2), None);
    }
    // const fn timestamp
    {
        let block = crate::IdSpace::new([0; 5], 0).reserve(Some(42), 1)?;
        assert_eq!(block.timestamp(), 42);
    }
    // const fn random
    {
        let block = crate::IdSpace::new([3; 5], 0).reserve(Some(42), 1)?;
        assert_eq!(block.random(), [3; 5]);
    }
    // const fn first
    {
        let block = crate::IdSpace::new([0; 5], 0xabcdef).reserve(Some(42), 1)?;
        assert_eq!(block.first() & 0xff_ffff, 0xabcdef);
    }
    // const fn len
    {
        let block = crate::IdSpace::new([0; 5], 0).reserve(Some(42), 300)?;
        assert_eq!(block.len(), 300);
    }
    // const fn id
    {
        let block = crate::IdSpace::new([0; 5], 0xffffff).reserve(Some(42), 2)?;
        assert_eq!(block.id(1).map(|id| id.to_parts().counter), Some(0));
    }
    // fn ids
    {
        let block = crate::IdSpace::new([0; 5], 0).reserve(Some(42), 3)?;
        assert_eq!(block.ids().count(), 3);
    }
    // fn reserve
    {
        use crate::{ErrorKind, IdSpace};
        let ids = IdSpace::new([1; 5], 0);
        ids.reserve(Some(10), IdSpace::CAPACITY - 5)?;
        assert_eq!(ids.reserve(Some(10), 256)?.len(), 5); // what the second has left
        assert_eq!(
            ids.reserve(Some(10), 1).unwrap_err().kind(),
            ErrorKind::CapacityExhausted
        );
        // A reading a second back (within the tolerance) keeps the newest second; spent, it
        // moves on to a new random value at once: waiting could take up to two seconds.
        let block = ids.reserve(Some(9), 1)?;
        assert_eq!(block.timestamp(), 10);
        assert_ne!(block.random(), [1; 5]);
        assert_eq!(ids.reserve(Some(11), 256)?.timestamp(), 11);
    }
    // fn reserve_after_wait
    {
        use crate::IdSpace;
        let ids = IdSpace::new([1; 5], 0);
        ids.reserve(Some(10), IdSpace::CAPACITY)?;
        assert!(ids.reserve(Some(10), 1).is_err()); // wait (once) for the next second
        // ... the wait ended, and the clock still reads 10 (it was set back meanwhile):
        let block = ids.reserve_after_wait(Some(10), 1)?;
        assert_eq!(block.timestamp(), 10);
        assert_ne!(block.random(), [1; 5]);
    }
    // fn reserve_exact
    {
        use crate::IdSpace;
        let ids = IdSpace::new([0; 5], 0);
        ids.reserve(Some(10), IdSpace::CAPACITY - 5)?;
        assert!(ids.reserve_exact(Some(10), 6).is_err());
        assert_eq!(ids.reserve_exact(Some(10), 5)?.len(), 5);
    }
    // fn left
    {
        let ids = crate::IdSpace::new([0; 5], 0);
        assert_eq!(ids.left(5), 1 << 24);
        ids.reserve(Some(5), 10)?;
        assert_eq!(
            (ids.left(4), ids.left(5), ids.left(6)),
            (0, (1 << 24) - 10, 1 << 24)
        );
    }
    // set_policy
    {
        use crate::{CapacityPolicy, IdSpace};
        static IDS: IdSpace = IdSpace::new([1; 5], 0);
        IDS.set_policy(CapacityPolicy::Rotate);
        IDS.reserve(Some(7), IdSpace::CAPACITY)?;
        let block = IDS.reserve(Some(7), 10)?; // a new random value instead of an error
        assert_eq!((block.timestamp(), block.len()), (7, 10));
        assert_ne!(block.random(), [1; 5]);
    }
    // rotate
    {
        let ids = crate::IdSpace::new([1; 5], 0);
        ids.reserve(Some(5), 1 << 24)?;
        assert_eq!(ids.rotate([2; 5]), [1; 5]);
        let block = ids.reserve(Some(5), 1)?;
        assert_eq!((block.timestamp(), block.random()), (5, [2; 5]));
    }
    // reseed
    {
        let ids = crate::IdSpace::new([0; 5], 0);
        ids.reserve(Some(5), 1 << 24)?;
        ids.reseed([1; 5], 100);
        let block = ids.reserve(Some(5), 1)?;
        assert_eq!((block.random(), block.first()), ([1; 5], 100));
    }
    // Generator::ids
    {
        use crate::{FixedClock, Generator};
        let generator = Generator::from_seed(FixedClock::at(9), [0; 5], 0);
        let block = generator.ids().reserve(Some(9), 100)?;
        assert_eq!(block.len(), 100);
        assert_eq!(generator.next().to_parts().counter, 100);
    }
    Ok(())
}
