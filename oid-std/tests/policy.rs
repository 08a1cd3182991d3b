//! The process-wide generator under `CapacityPolicy::Rotate`: past a second's 2^24 ids,
//! `try_new()` moves to a new random value instead of failing. A file of its own: the policy
//! is process-wide, and the other test files rely on the default.
//!
//! Heavy (2^24 + 1000 ids, sorted): `#[ignore]`d in debug builds, run in release by
//! `cargo xtask ci` (`cargo test -p oid-std --release --test capacity --test policy --
//! --include-ignored`).

use std::collections::{BTreeMap, BTreeSet};

use oid_std::{CapacityPolicy, Clock, CoarseClock, ObjectId};

const CAPACITY: usize = 1 << 24;

#[test]
#[ignore = "heavy: 2^24 + 1000 ids; run in release (cargo xtask ci does)"]
fn under_rotate_try_new_never_fails_past_a_seconds_capacity() {
    oid_std::set_capacity_policy(CapacityPolicy::Rotate);
    assert_eq!(oid_std::capacity_policy(), CapacityPolicy::Rotate);
    // Start at the beginning of a second: in release the ids take a fraction of it.
    let s0 = CoarseClock.unix_seconds();
    while CoarseClock.unix_seconds() == s0 {
        CoarseClock.wait();
    }
    let n = CAPACITY + 1000;
    let mut ids: Vec<ObjectId> = Vec::with_capacity(n);
    for i in 0..n {
        match oid_std::try_new() {
            Ok(id) => ids.push(id),
            Err(e) => panic!("call {i}: {e}"),
        }
    }
    let mut randoms: BTreeMap<u32, BTreeSet<[u8; 5]>> = BTreeMap::new();
    let mut per_pair: BTreeMap<(u32, [u8; 5]), usize> = BTreeMap::new();
    let mut changes = 0;
    for w in ids.windows(2) {
        if w[0].to_parts().random != w[1].to_parts().random {
            changes += 1;
        }
    }
    for id in &ids {
        let p = id.to_parts();
        randoms.entry(p.timestamp).or_default().insert(p.random);
        *per_pair.entry((p.timestamp, p.random)).or_default() += 1;
    }
    ids.sort_unstable();
    assert!(ids.windows(2).all(|w| w[0] != w[1]), "repeated ids");
    println!("random values per second: {randoms:?}; {changes} rotation(s)");
    assert!(per_pair.values().all(|&k| k <= CAPACITY), "{per_pair:?}");
    if randoms.len() == 1 {
        // All in one second (the usual case): exactly one rotation, at the capacity.
        assert_eq!(changes, 1);
        assert_eq!(randoms.values().next().map(BTreeSet::len), Some(2));
    }
}
