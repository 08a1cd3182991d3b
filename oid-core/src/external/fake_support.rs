//! `fake` support (feature `fake`): [`ObjectId`] is fake 5's `Dummy<Faker>`, so
//! `Faker.fake::<ObjectId>()` and `#[derive(Dummy)]` structs holding ids work as with fake's own
//! `bson_oid` feature for `bson::oid::ObjectId`.
//!
//! A dummy id is laid out as a driver's generator lays one out, every field drawn from the RNG
//! fake passes in (its thread RNG, or the seeded one of `fake_with_rng`, so a seed gives the same
//! ids): a creation second between 2009-02-13 (`1_234_567_890`) and 2038-01-19 (`i32::MAX`, so
//! readers that take the time as a signed 32-bit number agree), a 5-byte random value and a
//! 24-bit counter. That is 88 random bits per id: two dummies are equal with probability about
//! 2^-88, so in practice every id of a test data set is distinct.
//!
//! # Examples
//!
//! ```
//! use fake::{Fake, Faker};
//! use fake::rand::SeedableRng;
//! use fake::rand::rngs::StdRng;
//! use oid_core::ObjectId;
//!
//! // With fake's `derive` feature, `#[derive(Dummy)]` structs holding ids work too.
//! let id: ObjectId = Faker.fake();
//! assert!((1_234_567_890..=i32::MAX as u32).contains(&id.timestamp()));
//!
//! // The same seed, the same ids.
//! let a: Vec<ObjectId> = (0..3).map(|_| Faker.fake_with_rng(&mut StdRng::seed_from_u64(1))).collect();
//! assert!(a.iter().all(|id| *id == a[0]));
//! ```

use fake::rand::RngExt;
use fake::{Dummy, Faker};

use crate::ObjectId;

/// The earliest creation second of a dummy id: 2009-02-13T23:31:30Z.
const FIRST: u32 = 1_234_567_890;

/// The latest creation second of a dummy id: 2038-01-19T03:14:07Z.
const LAST: u32 = i32::MAX as u32;

impl Dummy<Faker> for ObjectId {
    fn dummy_with_rng<R: RngExt + ?Sized>(_: &Faker, rng: &mut R) -> ObjectId {
        let timestamp = rng.random_range(FIRST..=LAST);
        let mut random = [0u8; 5];
        rng.fill(&mut random[..]);
        let counter = rng.random_range(0..=0x00FF_FFFF);
        ObjectId::from_parts(timestamp, random, counter)
    }
}

#[cfg(test)]
mod tests {
    use fake::Fake;
    use fake::rand::SeedableRng;
    use fake::rand::rngs::StdRng;

    use super::*;

    #[test]
    fn in_the_window_and_the_same_for_a_seed() {
        let mut a = StdRng::seed_from_u64(7);
        let mut b = StdRng::seed_from_u64(7);
        let mut c = StdRng::seed_from_u64(8);
        for _ in 0..1000 {
            let id: ObjectId = Faker.fake_with_rng(&mut a);
            assert!((FIRST..=LAST).contains(&id.timestamp()), "{id}");
            assert_eq!(id, Faker.fake_with_rng::<ObjectId, _>(&mut b));
            assert_ne!(id, Faker.fake_with_rng::<ObjectId, _>(&mut c));
        }
    }
}
