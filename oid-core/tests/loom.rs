//! The generator's capacity rule under the loom model checker: every interleaving of a few
//! threads racing over the edge of a second and over a clock that moves on, with a capacity of 4
//! ids per second (`CAPACITY` under `cfg(loom)`) so that the edge is reached in a few steps.
//!
//! `RUSTFLAGS="--cfg loom" cargo test -p oid-core --test loom --release` (`cargo xtask loom`).
#![cfg(loom)]

use loom::sync::Arc;
use loom::sync::atomic::{AtomicU64, Ordering};
use loom::thread;
use oid_core::{Clock, Generator, ObjectId};

/// The model's capacity (see `CAPACITY` in the generator).
const CAPACITY: u32 = 4;

/// A clock whose reading is a loom atomic, so that its changes are part of the explored schedule.
struct ModelClock(AtomicU64);

impl Clock for ModelClock {
    fn unix_seconds(&self) -> Option<u64> {
        Some(self.0.load(Ordering::SeqCst))
    }
    fn wait(&self) {
        thread::yield_now();
    }
}

/// The counter as the model's capacity sees it: ids of one second must differ in it.
fn slot(id: &ObjectId) -> (u32, u32) {
    let p = id.to_parts();
    (p.timestamp, p.counter % CAPACITY)
}

fn assert_unique(ids: &[ObjectId]) {
    let mut slots: Vec<(u32, u32)> = ids.iter().map(slot).collect();
    slots.sort_unstable();
    let before = slots.len();
    slots.dedup();
    assert_eq!(
        slots.len(),
        before,
        "a repeated (second, counter) in {ids:?}"
    );
}

/// No second among `seconds` holds more ids than the model's capacity.
fn assert_within_capacity(ids: &[ObjectId], seconds: &[u32]) {
    for &second in seconds {
        let n = ids.iter().filter(|id| id.timestamp() == second).count();
        assert!(n <= CAPACITY as usize, "{n} ids in second {second}");
    }
}

/// A model clock reading `secs` and a generator on it with this seed, both shared.
fn setup(
    secs: u64,
    random: [u8; 5],
    counter: u32,
) -> (Arc<ModelClock>, Arc<Generator<ModelClockRef>>) {
    let clock = Arc::new(ModelClock(AtomicU64::new(secs)));
    let generator = Arc::new(Generator::from_seed(
        ModelClockRef(clock.clone()),
        random,
        counter,
    ));
    (clock, generator)
}

/// Every schedule with up to `PREEMPTIONS` preemptions (loom's bound; a bound of 2-3 finds
/// almost all real concurrency bugs and keeps the search to seconds).
const PREEMPTIONS: usize = 3;

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(PREEMPTIONS);
    builder.check(f);
}

#[test]
fn racing_at_the_edge_of_a_second_never_repeats() {
    model(|| {
        // Counter start just below the 32-bit wrap of the counter word, one id already made.
        let (clock, generator) = setup(100, [7; 5], u32::MAX - 1);
        let mut ids = vec![generator.try_next().expect("first id")];
        let g1 = generator.clone();
        let t1 = thread::spawn(move || {
            let mut batch = [ObjectId::MIN; 2];
            let mut out = Vec::new();
            if g1.try_fill(&mut batch).is_ok() {
                out.extend_from_slice(&batch);
            }
            out
        });
        let g2 = generator.clone();
        let c2 = clock.clone();
        let t2 = thread::spawn(move || {
            let mut out: Vec<ObjectId> = g2.try_next().ok().into_iter().collect();
            c2.0.store(101, Ordering::SeqCst);
            out.extend(g2.try_next().ok());
            out
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        assert_within_capacity(&ids, &[100, 101]);
    });
}

#[test]
fn the_clock_stepping_back_never_reopens_a_second() {
    model(|| {
        let (clock, generator) = setup(200, [9; 5], 3);
        let g1 = generator.clone();
        let t1 = thread::spawn(move || {
            let mut batch = [ObjectId::MIN; 3];
            let mut out = Vec::new();
            if g1.try_fill(&mut batch).is_ok() {
                out.extend_from_slice(&batch);
            }
            out
        });
        let c2 = clock.clone();
        let g2 = generator.clone();
        let t2 = thread::spawn(move || {
            c2.0.store(201, Ordering::SeqCst);
            let first = g2.try_next().ok();
            c2.0.store(200, Ordering::SeqCst);
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

#[test]
fn next_racing_with_the_opening_of_a_second_never_repeats() {
    model(|| {
        // `next`'s fast path (`fetch_add`) against an opener and its re-tag, across the 32-bit
        // wrap of the counter's half of the word.
        let (clock, generator) = setup(100, [7; 5], u32::MAX - 1);
        let mut ids = vec![generator.try_next().expect("first id")];
        let g1 = generator.clone();
        let t1 = thread::spawn(move || vec![g1.next(), g1.next()]);
        let g2 = generator.clone();
        let c2 = clock.clone();
        let t2 = thread::spawn(move || {
            c2.0.store(101, Ordering::SeqCst);
            vec![g2.next()]
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        assert_eq!(ids.len(), 4);
        assert_within_capacity(&ids, &[100, 101]);
    });
}

#[test]
fn next_wasting_increments_on_a_spent_second_never_repeats() {
    model(|| {
        // Three of the second's four ids taken: `next` calls race for the last one, waste
        // increments on the spent second (and on a counter not yet re-tagged) and wait for the
        // clock, which the second thread moves on; a `try_next` on the spent second must fail.
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
            c2.0.store(101, Ordering::SeqCst);
            out.push(g2.next());
            out
        });
        ids.extend(t1.join().expect("thread 1"));
        ids.extend(t2.join().expect("thread 2"));
        assert_unique(&ids);
        assert_within_capacity(&ids, &[100, 101]);
    });
}

#[test]
fn next_racing_with_the_first_window_skips_no_counter() {
    model(|| {
        // A fresh generator: three `next` calls race to open the first window; the fast path's
        // increments on the still untagged counter are wasted, and the re-tag must take the
        // counter back so that the ids are exactly the seed and the two values after it.
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

/// `Generator` owns its clock; the model shares it with the threads that move it.
struct ModelClockRef(Arc<ModelClock>);

impl Clock for ModelClockRef {
    fn unix_seconds(&self) -> Option<u64> {
        self.0.unix_seconds()
    }
    fn wait(&self) {
        self.0.wait();
    }
}
