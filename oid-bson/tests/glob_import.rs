//! An application that glob-imports oid-std's prelude and oid-bson
//! compiles, and `oid_core::ObjectId::new()` still resolves to oid-std's extension method (the two
//! crates used to export traits of the same name, which made it ambiguous: E0599).

use oid_bson::*;
use oid_std::prelude::*;

#[test]
fn both_globs_compile_and_new_works() {
    let id = oid_core::ObjectId::new();
    let ours = oid_bson::ObjectId::from(id);
    assert_eq!(ours.as_core(), id);
    // Names from both globs stay usable.
    // `new()` reads oid-std's coarse clock, which may lag the system clock by a tick: right
    // after a second starts, the id still carries the second before (1 run in 400 failed).
    let now = std::time::SystemTime::now().to_oid_timestamp();
    let floor = now.unwrap_or(0).saturating_sub(1);
    assert!(oid_core::ObjectId::min_for_timestamp(floor) <= oid_core::ObjectId::new());
    let range = IdRange::from_secs(Some(i64::from(id.timestamp())), None);
    assert!(range.contains(&id));
    assert_eq!(oid_core::ObjectId::from(ours), id);
    #[cfg(any(feature = "bson-3", feature = "bson-2"))]
    assert_eq!(bson::oid::ObjectId::from(ours), ours);
}
