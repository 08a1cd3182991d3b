#![doc = include_str!("../README.md")]
//!
//! ## Helpers
//!
//! Shared by the tests and the benchmark. The PostgreSQL tests read the server's URL from
//! `OID_TEST_POSTGRES_URL` (`cargo xtask sql` starts a throwaway server and sets it). Without
//! it they print that they skipped, unless `OID_REQUIRE_POSTGRES=1`, where a missing server
//! fails them.

use std::collections::HashMap;

use oid_core::fmt::Hex;
use oid_core::{Generator, IdRange, ManualClock, ObjectId, Upper};
use oid_std::OsEntropy;

/// The number of ids each test inserts.
pub const ROWS: usize = 10_000;

/// The first second of the generated ids (2023-11-14T22:13:20Z).
pub const BASE_SECS: u32 = 1_700_000_000;

/// Ids made by a seeded generator whose clock moves one second every 100 ids, so `n` ids span
/// `n / 100` seconds from [`BASE_SECS`]; returned in creation order.
///
/// # Panics
///
/// When the OS has no entropy (test helper).
#[allow(clippy::expect_used, reason = "test helper")]
pub fn generated_ids(n: usize) -> Vec<ObjectId> {
    let clock = ManualClock::at(u64::from(BASE_SECS));
    let generator = Generator::from_entropy(&clock, &mut OsEntropy).expect("OS entropy");
    (0..n)
        .map(|i| {
            if i > 0 && i % 100 == 0 {
                clock.advance(1);
            }
            generator.next()
        })
        .collect()
}

/// A fixed permutation of `0..n` (a stride coprime with `n` when `n` is a power of ten), so
/// rows are not inserted in creation order and `ORDER BY` has work to do.
pub fn shuffled(n: usize) -> impl Iterator<Item = usize> {
    (0..n).map(move |i| (i * 7919) % n)
}

/// The range the time-range tests query: the ids created in seconds 20 to 49 of the run.
pub const fn test_range() -> IdRange {
    IdRange::from_secs(Some(BASE_SECS as i64 + 20), Some(BASE_SECS as i64 + 50))
}

/// The ids of a round-trip test and the checks of what a database gives back, shared by the
/// four integrations so each test keeps only its driver's SQL.
///
/// The table is `items (id, hex, parent)`: [`ROWS`] ids from [`generated_ids`], their hex text
/// (lowercase for even rows, uppercase for odd ones: reading accepts any case) and, for every
/// third row, a parent id (the next id in creation order).
#[derive(Debug)]
pub struct Fixture {
    /// In creation order.
    ids: Vec<ObjectId>,
    /// In byte (memcmp) order: what `ORDER BY id` must give. With one generator this is also
    /// creation order unless its counter wraps past `0xffffff` during the run (the ids share the
    /// random value), so the order check rests on the shuffled inserts, not on this sort.
    sorted: Vec<ObjectId>,
    /// The creation index of each id.
    index: HashMap<ObjectId, usize>,
}

impl Fixture {
    /// [`ROWS`] fresh ids from [`generated_ids`].
    ///
    /// # Panics
    ///
    /// When the OS has no entropy or the generator repeats an id (test helper).
    pub fn generate() -> Self {
        let ids = generated_ids(ROWS);
        let mut sorted = ids.clone();
        sorted.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        let index: HashMap<ObjectId, usize> =
            ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        assert_eq!(index.len(), ids.len(), "the generated ids are unique");
        Self { ids, sorted, index }
    }

    /// The ids in creation order.
    pub fn ids(&self) -> &[ObjectId] {
        &self.ids
    }

    /// The parent of the row created `i`-th: the next id for every third row, else `NULL`.
    fn parent(&self, i: usize) -> Option<ObjectId> {
        (i % 3 == 0).then(|| self.ids[(i + 1) % ROWS])
    }

    /// The `(id, hex, parent)` values of the row created `i`-th. Odd rows keep the uppercase
    /// hex form: reading accepts any case.
    pub fn row_to_insert(&self, i: usize) -> (ObjectId, Hex, Option<ObjectId>) {
        let id = self.ids[i];
        let hex = if i % 2 == 0 {
            id.to_hex()
        } else {
            id.to_hex_upper()
        };
        (id, hex, self.parent(i))
    }

    /// Every row's `(id, hex, parent)` values, in the order of [`shuffled`] (not creation
    /// order, so `ORDER BY` has work to do).
    pub fn rows_to_insert(&self) -> impl Iterator<Item = (ObjectId, Hex, Option<ObjectId>)> + '_ {
        shuffled(ROWS).map(|i| self.row_to_insert(i))
    }

    /// Checks the rows of `SELECT id, hex, hex, parent FROM items ORDER BY id`: one per
    /// inserted id, in byte order; the hex column read as an `ObjectId` equal to the id and read
    /// as a [`Hex`] equal to its lowercase form; the parent that was inserted with the id.
    ///
    /// # Panics
    ///
    /// When any of these differs (it is the test's assertion).
    #[allow(clippy::expect_used, reason = "test helper: fails the test")]
    pub fn check_rows(&self, rows: &[(ObjectId, ObjectId, Hex, Option<ObjectId>)]) {
        assert_eq!(rows.len(), ROWS);
        let ordered: Vec<ObjectId> = rows.iter().map(|r| r.0).collect();
        assert_eq!(ordered, self.sorted);
        for (id, from_text, hex, parent) in rows {
            assert_eq!(from_text, id);
            assert_eq!(*hex, id.to_hex());
            let i = *self.index.get(id).expect("a row read back was inserted");
            assert_eq!(*parent, self.parent(i));
        }
    }

    /// The bounds of [`test_range`] for `WHERE id >= lower AND id < upper`: its lower bound and
    /// its exclusive upper bound.
    ///
    /// # Panics
    ///
    /// When the range's upper bound is not exclusive (a closed range's always is).
    #[allow(clippy::panic, reason = "test helper: fails the test")]
    pub fn range_bounds(&self) -> (ObjectId, ObjectId) {
        let range = test_range();
        let Upper::Lt(upper) = range.upper() else {
            panic!("a closed range has an exclusive end")
        };
        (range.lower(), upper)
    }

    /// Checks the ids a query of [`Fixture::range_bounds`] found, `ORDER BY id`: exactly the
    /// 3,000 inserted ids [`test_range`] contains, in byte order.
    ///
    /// # Panics
    ///
    /// When they differ (it is the test's assertion).
    pub fn check_range(&self, found: &[ObjectId]) {
        let range = test_range();
        let expected: Vec<ObjectId> = self
            .sorted
            .iter()
            .copied()
            .filter(|id| range.contains(id))
            .collect();
        assert_eq!(expected.len(), 3000);
        assert_eq!(found, expected);
    }
}

/// The URL of the test PostgreSQL server, or `None` (after printing that the test skipped)
/// when `OID_TEST_POSTGRES_URL` is not set.
///
/// # Panics
///
/// When no URL is set and `OID_REQUIRE_POSTGRES=1`: CI must not pass by skipping.
#[allow(clippy::panic, reason = "test helper: fails the test")]
pub fn postgres_url(test: &str) -> Option<String> {
    match std::env::var("OID_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            if std::env::var("OID_REQUIRE_POSTGRES").as_deref() == Ok("1") {
                panic!("{test}: OID_TEST_POSTGRES_URL is not set but OID_REQUIRE_POSTGRES=1");
            }
            eprintln!(
                "{test}: skipped, no PostgreSQL server (set OID_TEST_POSTGRES_URL or run `cargo xtask sql`)"
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_span_seconds_in_order() {
        let ids = generated_ids(ROWS);
        assert!(ids.windows(2).all(|w| w[0].timestamp() <= w[1].timestamp()));
        assert_eq!(ids[0].timestamp(), BASE_SECS);
        assert_eq!(ids[ROWS - 1].timestamp(), BASE_SECS + 99);
        let in_range = ids.iter().filter(|id| test_range().contains(id)).count();
        assert_eq!(in_range, 3000);
    }

    /// The rows a correct database gives back for a fixture, `ORDER BY id`.
    fn expected_rows(fixture: &Fixture) -> Vec<(ObjectId, ObjectId, Hex, Option<ObjectId>)> {
        let mut rows: Vec<_> = fixture
            .rows_to_insert()
            .map(|(id, _, parent)| (id, id, id.to_hex(), parent))
            .collect();
        rows.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        rows
    }

    /// What a correct database finds between the fixture's range bounds, `ORDER BY id`.
    fn ids_in_bounds(fixture: &Fixture) -> Vec<ObjectId> {
        let (lower, upper) = fixture.range_bounds();
        let mut found: Vec<ObjectId> = fixture
            .ids()
            .iter()
            .copied()
            .filter(|id| lower.as_bytes() <= id.as_bytes() && id.as_bytes() < upper.as_bytes())
            .collect();
        found.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        found
    }

    #[test]
    fn fixture_accepts_the_rows_it_inserted() {
        let fixture = Fixture::generate();
        fixture.check_rows(&expected_rows(&fixture));
        fixture.check_range(&ids_in_bounds(&fixture));
    }

    #[test]
    #[should_panic(expected = "assertion `left == right` failed")]
    fn fixture_rejects_a_wrong_parent() {
        let fixture = Fixture::generate();
        let mut rows = expected_rows(&fixture);
        let row = rows.iter_mut().find(|r| r.3.is_some()).unwrap();
        row.3 = None;
        fixture.check_rows(&rows);
    }

    #[test]
    #[should_panic(expected = "assertion `left == right` failed")]
    fn fixture_rejects_rows_out_of_order() {
        let fixture = Fixture::generate();
        let mut rows = expected_rows(&fixture);
        rows.swap(10, 11);
        fixture.check_rows(&rows);
    }

    #[test]
    #[should_panic(expected = "assertion `left == right` failed")]
    fn fixture_rejects_a_missing_range_id() {
        let fixture = Fixture::generate();
        let mut found = ids_in_bounds(&fixture);
        found.pop();
        fixture.check_range(&found);
    }

    #[test]
    fn shuffled_is_a_permutation() {
        let mut seen = vec![false; ROWS];
        for i in shuffled(ROWS) {
            assert!(!seen[i]);
            seen[i] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
