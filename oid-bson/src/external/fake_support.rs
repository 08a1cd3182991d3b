//! `fake` (feature `fake`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl: a
//! `Dummy<Faker>` laid out as a generator lays an id out (a second between 2009 and 2038, a 5-byte
//! random value, a counter), every field drawn from fake's RNG, so a seeded RNG repeats them.
//! fake's own `bson_oid` feature does the same for `bson::oid::ObjectId` (12 random bytes).

use fake::rand::RngExt;
use fake::{Dummy, Faker};

use crate::ObjectId;

impl Dummy<Faker> for ObjectId {
    fn dummy_with_rng<R: RngExt + ?Sized>(config: &Faker, rng: &mut R) -> ObjectId {
        ObjectId::from(oid_core::ObjectId::dummy_with_rng(config, rng))
    }
}
