//! The process-wide generator under many threads: unique ids, increasing within a thread, one
//! random value.

use std::collections::HashSet;

use oid_std::ObjectId;
use oid_std::prelude::*;

/// Sort key that takes the 24-bit counter's wrap into account: ids of one thread increase in
/// (timestamp, counter distance from the thread's first counter mod 2^24), as long as fewer
/// than 2^24 counter values are used during the test.
const fn key(id: ObjectId, first_counter: u32) -> (u32, u32) {
    let p = id.to_parts();
    (
        p.timestamp,
        p.counter.wrapping_sub(first_counter) & 0xff_ffff,
    )
}

fn assert_increasing(ids: &[ObjectId]) {
    let first = ids[0].to_parts().counter;
    for w in ids.windows(2) {
        assert!(
            key(w[0], first) < key(w[1], first),
            "not increasing: {} then {}",
            w[0],
            w[1]
        );
    }
}

#[test]
fn threads_make_unique_increasing_ids_with_one_random_value() {
    const THREADS: usize = 4;
    const PER_THREAD: usize = 100_000;
    let per_thread: Vec<Vec<ObjectId>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    (0..PER_THREAD)
                        .map(|i| {
                            // Mix the entry points: all share one generator.
                            if (i + t) % 3 == 0 {
                                ObjectId::try_new().unwrap()
                            } else {
                                ObjectId::new()
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let random = per_thread[0][0].to_parts().random;
    let mut all = HashSet::with_capacity(THREADS * PER_THREAD);
    for ids in &per_thread {
        assert_increasing(ids);
        for id in ids {
            assert_eq!(id.to_parts().random, random);
            assert!(all.insert(*id), "duplicate {id}");
        }
    }
    assert_eq!(all.len(), THREADS * PER_THREAD);
}

#[test]
fn many_short_lived_threads_make_unique_ids() {
    let ids: Vec<ObjectId> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..200)
            .map(|_| s.spawn(|| (0..20).map(|_| oid_std::new()).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let unique: HashSet<ObjectId> = ids.iter().copied().collect();
    assert_eq!(unique.len(), 200 * 20);
}

#[test]
fn ids_carry_the_current_time() {
    let before = std::time::SystemTime::now();
    let id = ObjectId::new();
    let after = std::time::SystemTime::now();
    // The coarse clock may lag the system clock by a tick: allow one second below.
    let lo = ObjectId::min_for_timestamp(
        (before - std::time::Duration::from_secs(1))
            .to_oid_timestamp()
            .unwrap(),
    );
    let hi = ObjectId::max_for_timestamp(after.to_oid_timestamp().unwrap());
    assert!(lo <= id && id <= hi, "{id} outside [{lo}, {hi}]");
}
