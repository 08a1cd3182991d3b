//! `SnapshotPolicy::EveryId` through the process-wide generator (a process of its own: the
//! policy is process-wide): every id its own random value, no repeat across threads.

use std::collections::HashSet;

use oid_std::{ObjectId, SnapshotPolicy};

#[test]
fn every_id_has_its_own_random_value_and_none_repeats() {
    let warm = oid_std::new(); // a live block of the default policy, before the switch
    oid_std::set_snapshot_policy(SnapshotPolicy::EveryId);
    assert_eq!(oid_std::snapshot_policy(), SnapshotPolicy::EveryId);
    let mut ids: Vec<ObjectId> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| (0..50_000).map(|_| oid_std::new()).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a generating thread panicked"))
            .collect()
    });
    let randoms: HashSet<[u8; 5]> = ids.iter().map(|id| id.to_parts().random).collect();
    // 100,000 draws of 40 bits: a pair alike has odds of about 4.5e-3, so allow a handful.
    assert!(
        randoms.len() >= ids.len() - 5,
        "{} random values",
        randoms.len()
    );
    assert!(!randoms.contains(&warm.to_parts().random));
    let total = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), total, "a repeated id");
    oid_std::set_snapshot_policy(SnapshotPolicy::Signals);
    let (a, b) = (oid_std::new(), oid_std::new());
    assert_eq!(a.to_parts().random, b.to_parts().random, "one value again");
}
