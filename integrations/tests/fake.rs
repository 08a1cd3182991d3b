//! fake: `Dummy<Faker>` ids (oid-core's, also through oid-std, and oid-bson's) from real RNGs, the thread RNG fake
//! uses by default and a seeded `StdRng`: 10,000 valid and distinct, and a seed repeats them.

#![allow(
    clippy::expect_used,
    reason = "test helpers outside #[test] fns: a failure there is a test failure"
)]

use std::collections::HashSet;

use fake::rand::SeedableRng;
use fake::rand::rngs::StdRng;
use fake::{Fake, Faker};
use oid_core::ObjectId;

/// 2009-02-13T23:31:30Z to 2038-01-19T03:14:07Z, the window the dummies' seconds are drawn from.
const WINDOW: std::ops::RangeInclusive<u32> = 1_234_567_890..=0x7FFF_FFFF;

/// Valid: the hex round trip through this crate and through bson's own `ObjectId` (2.x, the
/// one fake's `bson_oid` feature fakes), and a creation time in the window.
fn assert_valid(id: ObjectId) {
    let hex = id.to_hex();
    assert_eq!(ObjectId::parse_str(hex.as_str()), Ok(id));
    let theirs = bson2::oid::ObjectId::parse_str(hex.as_str()).expect("bson reads it");
    assert_eq!(theirs.bytes(), id.bytes());
    assert_eq!(
        theirs.timestamp().timestamp_millis() / 1000,
        i64::from(id.timestamp())
    );
    assert!(WINDOW.contains(&id.timestamp()), "{id}");
}

#[test]
fn ten_thousand_valid_distinct_dummies_from_the_thread_rng() {
    let ids: Vec<ObjectId> = (0..10_000).map(|_| Faker.fake()).collect();
    ids.iter().copied().for_each(assert_valid);
    let distinct: HashSet<ObjectId> = ids.iter().copied().collect();
    assert_eq!(distinct.len(), 10_000);
    // Drawn, not constant: the fields vary (each would be one value for a constant).
    let seconds: HashSet<u32> = ids.iter().map(|id| id.timestamp()).collect();
    let randoms: HashSet<[u8; 5]> = ids.iter().map(|id| id.to_parts().random).collect();
    let counters: HashSet<u32> = ids.iter().map(|id| id.to_parts().counter).collect();
    assert!(seconds.len() > 9_900 && randoms.len() > 9_900 && counters.len() > 9_000);
}

#[test]
fn a_seeded_rng_repeats_its_dummies_and_another_seed_does_not() {
    let run = |seed| {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..10_000)
            .map(|_| Faker.fake_with_rng::<oid_std::ObjectId, _>(&mut rng))
            .collect::<Vec<_>>()
    };
    let a = run(2026);
    a.iter().copied().for_each(assert_valid);
    assert_eq!(a.iter().collect::<HashSet<_>>().len(), 10_000);
    assert_eq!(a, run(2026));
    let b = run(2027);
    assert!(a.iter().zip(&b).all(|(x, y)| x != y));
}

#[test]
fn oid_bson_dummies_are_oid_cores_for_the_same_rng() {
    let mut a = StdRng::seed_from_u64(5);
    let mut b = StdRng::seed_from_u64(5);
    let ids: Vec<oid_bson::ObjectId> = (0..10_000).map(|_| Faker.fake_with_rng(&mut a)).collect();
    for id in &ids {
        let core: ObjectId = Faker.fake_with_rng(&mut b);
        assert_eq!(ObjectId::from(*id), core);
        assert_valid(core);
    }
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 10_000);
    let fresh: oid_bson::ObjectId = Faker.fake();
    assert_valid(ObjectId::from(fresh));
}
