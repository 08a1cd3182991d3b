#![doc = include_str!("../README.md")]
//!
//! ## Helpers
//!
//! Shared by the tests and the benchmark. The PostgreSQL tests read the server's URL from
//! `OID_TEST_POSTGRES_URL` (`cargo xtask sql` starts a throwaway server and sets it). Without
//! it they print that they skipped, unless `OID_REQUIRE_POSTGRES=1`, where a missing server
//! fails them.

use oid_core::{Generator, IdRange, ManualClock, ObjectId};
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
