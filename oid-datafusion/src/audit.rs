//! `oid audit`'s three most common findings as SQL over this crate's functions, for collections
//! too large for one machine (they run unchanged on a Ballista cluster).
//!
//! Each query reads a table or view named `ids` with the ObjectId column `_id` (pymongoarrow's
//! column, `FixedSizeBinary(12)`, or `objectid(text)` of hex text) and a text column `source`
//! (a file, a shard, a collection: the evidence names it). Every query returns one row per
//! finding, with the audit's JSON field names first: `random_value` (10 hex digits),
//! `first_second` and `last_second` (`Timestamp(Second, UTC)`), `ids`, `sources` (sorted); then
//! evidence of its own. No row: no finding of that kind.
//!
//! On the audit's fault scenarios (`oid-audit`'s `fixtures`) they find the same random values,
//! seconds, id counts and sources as `oid audit` (`tests/audit.rs`, on one node and Ballista's
//! standalone cluster; `tests/cluster.rs`, on a scheduler and two `oid-ballista` executor processes).
//! The audit's own walk of each value's counters tells more generators apart than the
//! [`SHARED_RANDOM_VALUES`] query: two generators on one value that never share a second and
//! never reuse each other's counters (a restart on a fresh counter) are one to the query.
//!
//! The text is also in the crate's `sql/` folder.

/// `duplicate-id`: one row per random value whose ids are found more than once; `ids` counts
/// the extra copies (an id found three times counts 2); `example` is one repeated id.
pub const DUPLICATE_IDS: &str = include_str!("../sql/duplicate-ids.sql");

/// `shared-random-value`: one row per random value used by more than one generator, over all
/// its ids: one second holds two runs of its counters more than 2^20 apart
/// (`interleaved_seconds`), or one counter is found in two seconds (`reused_counters`: a
/// forked child, or a process seeded alike, started over on counters already used).
pub const SHARED_RANDOM_VALUES: &str = include_str!("../sql/shared-random-values.sql");

/// `over-capacity`: one row per random value and second with more than 2^24 ids
/// (`first_second` and `last_second` are that second; `over_capacity` is how many more).
pub const OVER_CAPACITY: &str = include_str!("../sql/over-capacity.sql");

/// The three queries with the audit's JSON `kind` of their findings.
pub const QUERIES: [(&str, &str); 3] = [
    ("duplicate-id", DUPLICATE_IDS),
    ("shared-random-value", SHARED_RANDOM_VALUES),
    ("over-capacity", OVER_CAPACITY),
];
