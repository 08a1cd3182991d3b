//! The capacity rule under the loom model checker: every interleaving of a few threads racing
//! over the edge of a second, over a clock that moves on (to the last second of the field and
//! across its wrap to 0), with a capacity of 4 ids per second (`CAPACITY` in the crate's loom
//! tests) so that the edge is reached in a few steps.
//!
//! `RUSTFLAGS="--cfg loom" cargo test -p oid-core --lib --release loom` (`cargo xtask loom`).

use loom::sync::Arc;
use loom::sync::atomic::{AtomicU64, Ordering};
use loom::thread;
use std::vec;
use std::vec::Vec;

use super::space::CAPACITY;
use crate::generator::IdBlock;
use crate::{CapacityPolicy, Clock, Generator, IdSpace, ObjectId};

/// A clock whose reading is a loom atomic, so that its changes are part of the explored
/// schedule.
struct ModelClock(AtomicU64);

impl Clock for ModelClock {
    fn unix_seconds(&self) -> Option<u64> {
        Some(self.0.load(Ordering::SeqCst))
    }
    fn wait(&self) {
        thread::yield_now();
    }
}

/// `Generator` owns its clock; the model shares it with the threads that move it.
struct SharedClock(Arc<ModelClock>);

impl Clock for SharedClock {
    fn unix_seconds(&self) -> Option<u64> {
        self.0.unix_seconds()
    }
    fn wait(&self) {
        self.0.wait();
    }
}

impl SharedClock {
    fn set(&self, secs: u64) {
        self.0.0.store(secs, Ordering::SeqCst);
    }
}

type ModelGenerator = Generator<SharedClock>;

/// A model clock reading `secs` and a generator on it with this seed, both shared.
fn setup(secs: u64, random: [u8; 5], counter: u32) -> (Arc<SharedClock>, Arc<ModelGenerator>) {
    let clock = Arc::new(ModelClock(AtomicU64::new(secs)));
    let generator = Generator::from_seed(SharedClock(clock.clone()), random, counter);
    (Arc::new(SharedClock(clock)), Arc::new(generator))
}

/// The slot an id takes in the model's capacity: ids of one second and random value must
/// differ in it.
fn slot(id: &ObjectId) -> (u32, [u8; 5], u32) {
    let p = id.to_parts();
    (p.timestamp, p.random, p.counter % CAPACITY)
}

/// No repeated slot, and no second (per random value) with more ids than the capacity.
fn assert_unique(ids: &[ObjectId]) {
    let mut slots: Vec<_> = ids.iter().map(slot).collect();
    slots.sort_unstable();
    let before = slots.len();
    slots.dedup();
    assert_eq!(
        slots.len(),
        before,
        "a repeated (second, random, counter) in {ids:?}"
    );
}

/// No (second, random value) with more ids than the capacity (a second may hold more under
/// two random values: a spent second moves on to a new one when the clock reads behind it, or
/// still reads it after a wait).
fn assert_within_capacity(ids: &[ObjectId]) {
    for id in ids {
        let p = id.to_parts();
        let n = ids
            .iter()
            .filter(|other| {
                let q = other.to_parts();
                (q.timestamp, q.random) == (p.timestamp, p.random)
            })
            .count();
        assert!(
            n <= CAPACITY as usize,
            "{n} ids in {id:?}'s second: {ids:?}"
        );
    }
}

fn block_ids(block: IdBlock) -> Vec<ObjectId> {
    block.ids().collect()
}

/// Every schedule with up to `PREEMPTIONS` preemptions (loom's bound; a bound of 2-3 finds
/// almost all real concurrency bugs and keeps the search to seconds).
const PREEMPTIONS: usize = 3;

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(PREEMPTIONS);
    // The retry loops of a reservation racing an opener take more steps than loom's default.
    builder.max_branches = 20_000;
    builder.check(f);
}

/// The last second of the field: two threads take single ids while the clock moves from
/// `0xFFFFFFFE` to `0xFFFFFFFF`, and each second still holds ids (the old `u32::MAX` "untagged"
/// tag made the last second re-tag the counter back to the previous window).
#[test]
fn the_last_second_of_the_field_never_repeats() {
    model(|| {
        let (clock, generator) = setup(0xffff_fffe, [7; 5], 1);
        let mut ids = vec![generator.try_next().expect("first id")];
        let g1 = generator.clone();
        let t1 = thread::spawn(move || {
            let mut out: Vec<ObjectId> = Vec::new();
            out.extend(g1.try_next().ok());
            out.extend(g1.try_next().ok());
            out
        });
        let g2 = generator.clone();
        let c2 = clock.clone();
        let t2 = thread::spawn(move || {
            c2.set(0xffff_ffff);
            let mut out: Vec<ObjectId> = g2.try_next().ok().into_iter().collect();
            out.extend(g2.try_next().ok());
            out
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        // Four single ids, never more than a second holds: none may fail for capacity.
        assert_eq!(ids.len(), 5, "{ids:?}");
    });
}

/// The wrap of the field: `0xFFFFFFFF` → `2^32` (timestamp 0) is a later second, with its own
/// capacity, raced by `next`'s fast path.
#[test]
fn the_wrap_to_zero_opens_a_new_second() {
    model(|| {
        let (clock, generator) = setup(0xffff_ffff, [8; 5], CAPACITY - 2);
        let mut ids = vec![generator.next()];
        let g1 = generator.clone();
        let t1 = thread::spawn(move || vec![g1.next(), g1.next()]);
        let g2 = generator.clone();
        let c2 = clock.clone();
        let t2 = thread::spawn(move || {
            c2.set(1 << 32);
            vec![g2.next()]
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        let last = ids
            .iter()
            .map(|id| id.timestamp())
            .filter(|&t| t == 0)
            .count();
        assert!(
            ids.iter()
                .all(|id| matches!(id.timestamp(), 0 | 0xffff_ffff))
        );
        // Thread 2's id comes after the clock moved: it carries the new second.
        assert!(last >= 1, "{ids:?}");
    });
}

/// `next`'s fast path (`fetch_add`) against an opener of the last second and its re-tag.
#[test]
fn the_fast_path_racing_an_opener_of_the_last_second_never_repeats() {
    model(|| {
        let (clock, generator) = setup(0xffff_fffe, [7; 5], u32::MAX - 1);
        let mut ids = vec![generator.next()];
        let g1 = generator.clone();
        let t1 = thread::spawn(move || vec![g1.next(), g1.next()]);
        let g2 = generator.clone();
        let c2 = clock.clone();
        let t2 = thread::spawn(move || {
            c2.set(0xffff_ffff);
            vec![g2.next()]
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        assert_eq!(ids.len(), 4);
    });
}

/// Batches at the edge of the last second: `try_fill` all-or-nothing, and `fill` continuing
/// in the next second when the clock moves on.
#[test]
fn batches_at_the_edge_of_the_last_second_never_repeat() {
    model(|| {
        let (clock, generator) = setup(0xffff_fffe, [5; 5], 0);
        let mut first = [ObjectId::MIN; 2];
        generator.try_fill(&mut first).expect("two ids");
        let mut ids = first.to_vec();
        let g1 = generator.clone();
        let c1 = clock.clone();
        let t1 = thread::spawn(move || {
            let mut batch = [ObjectId::MIN; 2];
            let mut out = Vec::new();
            if g1.try_fill(&mut batch).is_ok() {
                out.extend_from_slice(&batch);
            }
            c1.set(0xffff_ffff);
            out.extend(g1.try_next().ok());
            out
        });
        let g2 = generator.clone();
        let t2 = thread::spawn(move || {
            let mut batch = [ObjectId::MIN; 3];
            g2.fill(&mut batch);
            batch.to_vec()
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        assert_within_capacity(&ids);
    });
}

/// The block reservation oid-std's per-thread blocks use: two threads reserve blocks (cut at
/// the edge) while one of them reads the next second, the last of the field.
#[test]
fn block_reservations_at_the_edge_never_repeat() {
    model(|| {
        let ids = Arc::new(IdSpace::new([3; 5], 0));
        let mut out = block_ids(ids.reserve(Some(0xffff_fffe), 1).expect("one"));
        let s1 = ids.clone();
        let t1 = thread::spawn(move || {
            let mut out = Vec::new();
            for _ in 0..2 {
                if let Ok(b) = s1.reserve(Some(0xffff_fffe), 2) {
                    out.extend(block_ids(b));
                }
            }
            out
        });
        let s2 = ids.clone();
        let t2 = thread::spawn(move || {
            let mut out = Vec::new();
            for reading in [0xffff_fffe, 0xffff_ffff] {
                if let Ok(b) = s2.reserve(Some(reading), 3) {
                    out.extend(block_ids(b));
                }
            }
            out
        });
        out.extend(t1.join().expect("thread 1"));
        out.extend(t2.join().expect("thread 2"));
        assert_unique(&out);
        assert_within_capacity(&out);
        // Thread 2's second block asks for the last second, which nobody else uses.
        assert!(
            out.iter().any(|id| id.timestamp() == 0xffff_ffff),
            "{out:?}"
        );
    });
}

/// The clock stepping back never reopens a second (a window of an earlier second is never
/// opened again).
#[test]
fn the_clock_stepping_back_never_reopens_a_second() {
    model(|| {
        let (clock, generator) = setup(200, [9; 5], 3);
        let g1 = generator.clone();
        let t1 = thread::spawn(move || {
            let mut batch = [ObjectId::MIN; 3];
            if g1.try_fill(&mut batch).is_ok() {
                batch.to_vec()
            } else {
                Vec::new()
            }
        });
        let c2 = clock.clone();
        let g2 = generator.clone();
        let t2 = thread::spawn(move || {
            c2.set(201);
            let first = g2.try_next().ok();
            c2.set(200);
            first
                .into_iter()
                .chain(g2.try_next().ok())
                .collect::<Vec<_>>()
        });
        let mut ids: Vec<ObjectId> = generator.try_next().ok().into_iter().collect();
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
    });
}

/// `next` wasting increments on a spent second while the clock moves on.
#[test]
fn next_wasting_increments_on_a_spent_second_never_repeats() {
    model(|| {
        let (clock, generator) = setup(100, [5; 5], 1);
        let mut first = [ObjectId::MIN; 3];
        generator.try_fill(&mut first).expect("three ids");
        let mut ids = first.to_vec();
        let g1 = generator.clone();
        let t1 = thread::spawn(move || vec![g1.next(), g1.next()]);
        let g2 = generator.clone();
        let c2 = clock.clone();
        let t2 = thread::spawn(move || {
            let mut out: Vec<ObjectId> = g2.try_next().ok().into_iter().collect();
            c2.set(101);
            out.push(g2.next());
            out
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
    });
}

/// A fresh generator: `next` calls race to open the first window; the re-tag takes the counter
/// back, so the ids are exactly the seed and the two values after it.
#[test]
fn next_racing_with_the_first_window_skips_no_counter() {
    model(|| {
        let (_clock, generator) = setup(300, [3; 5], 10);
        let g1 = generator.clone();
        let t1 = thread::spawn(move || g1.next());
        let g2 = generator.clone();
        let t2 = thread::spawn(move || g2.next());
        let mut ids = vec![generator.next()];
        ids.push(t1.join().expect("thread 1"));
        ids.push(t2.join().expect("thread 2"));
        let mut counters: Vec<u32> = ids.iter().map(|id| id.to_parts().counter).collect();
        counters.sort_unstable();
        assert_eq!(counters, [10, 11, 12], "{ids:?}");
    });
}

/// A change of the random value racing reservations: ids of two random values, none repeated.
fn setup_with(
    secs: u64,
    random: [u8; 5],
    counter: u32,
    policy: CapacityPolicy,
) -> (Arc<SharedClock>, Arc<ModelGenerator>) {
    let clock = Arc::new(ModelClock(AtomicU64::new(secs)));
    let generator = Generator::from_ids(
        SharedClock(clock.clone()),
        IdSpace::new(random, counter).with_policy(policy),
    );
    (Arc::new(SharedClock(clock)), Arc::new(generator))
}

/// `Rotate`: the last id of a second and the ones after it, taken by two threads at once (one
/// through `next`'s fast path, one through `try_next`); whoever finds the second spent moves
/// to the next random value, and every call gets an id.
#[test]
fn rotation_of_a_spent_second_racing_takers_never_repeats() {
    model(|| {
        let (_clock, generator) = setup_with(400, [1; 5], 0, CapacityPolicy::Rotate);
        let mut first = [ObjectId::MIN; 3];
        generator.try_fill(&mut first).expect("three ids");
        let mut ids = first.to_vec();
        let g1 = generator.clone();
        let t1 = thread::spawn(move || vec![g1.next(), g1.next()]);
        let g2 = generator.clone();
        let t2 = thread::spawn(move || {
            [g2.try_next(), g2.try_next()]
                .into_iter()
                .map(|r| r.expect("rotate never fails with a clock"))
                .collect::<Vec<_>>()
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        assert_eq!(ids.len(), 7);
        assert!(ids.iter().all(|id| id.timestamp() == 400), "{ids:?}");
    });
}

/// `Rotate` with block reservations (oid-std's per-thread blocks): two blocks that do not fit
/// the second's rest, at once.
#[test]
fn rotation_racing_block_reservations_never_repeats() {
    model(|| {
        let ids = Arc::new(IdSpace::new([2; 5], 1).with_policy(CapacityPolicy::Rotate));
        let mut out = block_ids(ids.reserve(Some(500), 2).expect("two ids"));
        let i1 = ids.clone();
        let t1 = thread::spawn(move || block_ids(i1.reserve_exact(Some(500), 3).expect("three")));
        let i2 = ids.clone();
        let t2 = thread::spawn(move || block_ids(i2.reserve(Some(500), 4).expect("a block")));
        out.extend(t1.join().expect("thread 1"));
        out.extend(t2.join().expect("thread 2"));
        assert_unique(&out);
    });
}

/// `rotate` (the snapshot path: a fresh random value while other threads generate) racing
/// `next`'s fast path.
#[test]
fn an_explicit_rotate_racing_next_never_repeats() {
    model(|| {
        let (_clock, generator) = setup(600, [3; 5], 2);
        let mut ids = vec![generator.next()];
        let g1 = generator.clone();
        let t1 = thread::spawn(move || {
            g1.ids().rotate([4; 5]);
        });
        let g2 = generator.clone();
        let t2 = thread::spawn(move || vec![g2.next(), g2.next()]);
        t1.join().expect("thread 1");
        ids.extend(t2.join().expect("thread 2"));
        ids.push(generator.next());
        assert_unique(&ids);
        assert_eq!(generator.ids().random(), [4; 5]);
    });
}

/// `rotate` right after the first window opened: nothing was taken under the first value's
/// window: the rotation skips one counter value, so a reservation that read the old era's
/// counter fails its swap and tries again (one that swapped first keeps its values of the old
/// era, which the new one continues after); one that read a window the rotation replaced looks
/// again before cutting its block. Every reservation gets its two ids, none with the wrong
/// random value.
#[test]
fn a_rotate_right_after_the_first_window_never_repeats() {
    model(|| {
        let ids = Arc::new(IdSpace::new([5; 5], 0).with_policy(CapacityPolicy::Rotate));
        let i1 = ids.clone();
        let t1 = thread::spawn(move || {
            i1.rotate([6; 5]);
            block_ids(i1.reserve(Some(700), 2).expect("two ids"))
        });
        let i2 = ids.clone();
        let t2 = thread::spawn(move || block_ids(i2.reserve(Some(700), 2).expect("two ids")));
        let mut out = t1.join().expect("thread 1");
        out.extend(t2.join().expect("thread 2"));
        assert_unique(&out);
        assert_eq!(out.len(), 4);
    });
}

/// The clock stepping back further than the tolerance (default policy) while another thread
/// takes ids through the fast path: a new random value at the clock's second, no repeat, and
/// nothing waits.
#[test]
fn a_step_back_racing_the_fast_path_never_repeats() {
    model(|| {
        let (clock, generator) = setup(800, [7; 5], 3);
        let mut ids = vec![generator.next(), generator.next()];
        let g1 = generator.clone();
        let c1 = clock.clone();
        let t1 = thread::spawn(move || {
            c1.set(700);
            vec![g1.next()]
        });
        let g2 = generator.clone();
        let t2 = thread::spawn(move || vec![g2.next(), g2.next()]);
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        assert_eq!(ids[2].timestamp(), 700, "{ids:?}");
    });
}

/// `rotate` under `Wait` racing block reservations (a snapshot detected while threads refill
/// their blocks): every value a reservation takes from the counter is handed out, in whichever
/// era (the rotation skips one value, so a reservation that read the counter before it fails
/// its swap and tries again; one whose swap came first keeps its values of the old era); so
/// the counter moved on by exactly the ids handed out plus the one skipped value. Before, a
/// reservation whose swap met the rotation's unchanged word threw its block away.
#[test]
fn an_explicit_rotate_racing_block_reservations_keeps_their_values() {
    model(|| {
        let ids = Arc::new(IdSpace::new([5; 5], 0));
        let mut out = block_ids(ids.reserve(Some(900), 1).expect("one id"));
        let i1 = ids.clone();
        let t1 = thread::spawn(move || {
            i1.rotate([6; 5]);
        });
        let i2 = ids.clone();
        let t2 = thread::spawn(move || {
            let mut v = Vec::new();
            for _ in 0..2 {
                v.extend(block_ids(i2.reserve(Some(900), 2).expect("a block")));
            }
            v
        });
        t1.join().expect("thread 1");
        out.extend(t2.join().expect("thread 2"));
        assert_unique(&out);
        assert!(out.iter().all(|id| id.timestamp() == 900), "{out:?}");
        let (_, value) = super::words::uncounted(ids.counter.load(Ordering::SeqCst));
        assert_eq!(value as usize, out.len() + 1, "values lost: {out:?}");
        assert_eq!(ids.random(), [6; 5]);
    });
}
