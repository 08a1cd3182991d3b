//! `oid_std::reseed()` racing generation on other threads: no id repeats, the threads move to
//! the new random values, and the caller's next id has a new random value.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use oid_std::ObjectId;

const PER_THREAD: usize = 300_000;

#[test]
fn reseed_racing_two_generating_threads_repeats_no_id() {
    let done = AtomicBool::new(false);
    let (mut ids, reseeds) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    (0..PER_THREAD)
                        .map(|_| oid_std::new())
                        .collect::<Vec<ObjectId>>()
                })
            })
            .collect();
        let reseeder = scope.spawn(|| {
            let mut n = 0u32;
            while !done.load(Ordering::Relaxed) {
                let before = oid_std::new();
                oid_std::reseed();
                let after = oid_std::new();
                assert_ne!(before.to_parts().random, after.to_parts().random);
                n += 1;
                std::thread::yield_now();
            }
            n
        });
        let mut all: Vec<ObjectId> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("a generating thread panicked"))
            .collect();
        done.store(true, Ordering::Relaxed);
        let n = reseeder.join().expect("the reseeding thread panicked");
        all.push(oid_std::new());
        (all, n)
    });
    let total = ids.len();
    let randoms: HashSet<[u8; 5]> = ids.iter().map(|id| id.to_parts().random).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), total, "a repeated id");
    assert!(reseeds > 0, "the reseeding thread never ran");
    // The generating threads followed the reseeds (not every one: a thread may make no id
    // between two of them).
    assert!(
        randoms.len() > 2,
        "{} random values after {reseeds} reseeds",
        randoms.len()
    );
}
