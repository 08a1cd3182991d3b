//! The capacity rule for one counter: at most 2^24 counter values per (second, random value).
//!
//! The same rule and design as `oid_core::Generator` (see its module doc), for the counters of
//! the process-wide generator: a *window* holds the newest second stamped and the counter value
//! that second started at; counter values are handed out in ranges (a thread's block, or one
//! value) only while the whole range lies less than 2^24 past the window's start, cut to what
//! is left at the edge. A reading of a later second opens a new window at the current counter;
//! a reading of an earlier second (the clock stepped back) is stamped with the window's second,
//! so a second is never reopened and timestamps never go below the newest one stamped (per
//! process). A range taken under a window that has moved on meanwhile is thrown away, never
//! pulled into the new window.
//!
//! "Later" is serial-number arithmetic on the 32-bit field (a reading less than 2^31 seconds
//! ahead), so the timestamp wraps after 2106-02-07T06:28:15Z like the field itself, and a clock
//! set back (even to 1970) is seen as a step back.

use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU32, AtomicU64};

/// Ids per second and random value: the 3-byte counter's range.
pub(crate) const CAPACITY: u32 = 1 << 24;

/// The window before the first reservation (and after a reset).
const UNOPENED: u64 = u64::MAX;

/// The window's second is spent: nothing was reserved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spent;

/// A range of counter values for one second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Range {
    /// The timestamp the values belong to.
    pub(crate) secs: u32,
    /// The first value (only the low 24 bits are used).
    pub(crate) first: u32,
    /// How many (at least 1).
    pub(crate) len: u32,
}

/// A 24-bit counter with its capacity window.
pub(crate) struct Counter {
    /// The next free value; only the low 24 bits are used, so the natural wrap of the 32-bit
    /// atomic (a multiple of 2^24) is also the spec's wrap.
    next: AtomicU32,
    /// `(second << 32) | start`, or `UNOPENED`.
    window: AtomicU64,
}

/// Whether `now` is a later second than `secs` (serial-number arithmetic on 32 bits).
#[inline]
const fn later(now: u32, secs: u32) -> bool {
    (now.wrapping_sub(secs) as i32) > 0
}

impl Counter {
    pub(crate) const fn new() -> Counter {
        Counter {
            next: AtomicU32::new(0),
            window: AtomicU64::new(UNOPENED),
        }
    }

    /// Starts over at `start` with no window (a new random value: a new id space). Only
    /// while no other thread reserves (under the seeding lock, before the new seed is
    /// published with a release store).
    pub(crate) fn reset(&self, start: u32) {
        self.next.store(start, Relaxed);
        self.window.store(UNOPENED, Release);
    }

    /// Reserves up to `want` (1..=2^24) consecutive values for one second: `reading` is the
    /// clock's second (wrapped to 32 bits), or `None` when the clock failed (then the window's
    /// second, or 0 before the first reading).
    pub(crate) fn reserve(&self, reading: Option<u32>, want: u32) -> Result<Range, Spent> {
        debug_assert!((1..=CAPACITY).contains(&want));
        loop {
            let window = self.window.load(Acquire);
            let (secs, start) = ((window >> 32) as u32, window as u32);
            let secs = match reading {
                Some(now) if window == UNOPENED || later(now, secs) => {
                    self.open(window, now);
                    continue;
                }
                // The same second, or an earlier one (the clock stepped back): the newest.
                Some(_) => secs,
                None if window == UNOPENED => {
                    self.open(window, 0);
                    continue;
                }
                None => secs,
            };
            let mut c = self.next.load(Relaxed);
            let taken = loop {
                let left = CAPACITY.saturating_sub(c.wrapping_sub(start));
                if left == 0 {
                    // Spent, unless the window moved on meanwhile (then `c` is not its).
                    if self.window.load(Acquire) == window {
                        return Err(Spent);
                    }
                    break None;
                }
                let n = want.min(left);
                match self
                    .next
                    .compare_exchange_weak(c, c.wrapping_add(n), AcqRel, Relaxed)
                {
                    Ok(_) => break Some(n),
                    Err(now) => c = now,
                }
            };
            // `c` was checked against `window`; it counts only if that window was still the
            // current one after the take. Otherwise it is thrown away and we start over.
            if let Some(len) = taken {
                if self.window.load(Acquire) == window {
                    return Ok(Range {
                        secs,
                        first: c,
                        len,
                    });
                }
            }
        }
    }

    /// Replaces `seen` with a window for `secs` starting at the current counter (unless
    /// another caller replaced it first).
    #[cold]
    fn open(&self, seen: u64, secs: u32) {
        let start = self.next.load(Acquire);
        let mut window = (u64::from(secs) << 32) | u64::from(start);
        if window == UNOPENED {
            // A start one lower is still a valid (one value smaller) window.
            window -= 1;
        }
        let _ = self.window.compare_exchange(seen, window, AcqRel, Acquire);
    }

    /// How many values the current window has left (for tests).
    #[cfg(test)]
    pub(crate) fn left(&self) -> u32 {
        let start = self.window.load(Acquire) as u32;
        CAPACITY.saturating_sub(self.next.load(Acquire).wrapping_sub(start))
    }

    /// The newest second stamped, if any (for tests).
    #[cfg(test)]
    pub(crate) fn newest(&self) -> Option<u32> {
        let w = self.window.load(Acquire);
        (w != UNOPENED).then_some((w >> 32) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_second_holds_exactly_2_pow_24_values_across_the_wrap() {
        let c = Counter::new();
        c.reset(0xff_ff00);
        let mut total = 0u64;
        let mut expected = 0xff_ff00u32;
        while let Ok(r) = c.reserve(Some(100), 256) {
            assert_eq!((r.secs, r.first), (100, expected));
            expected = expected.wrapping_add(r.len);
            total += u64::from(r.len);
        }
        assert_eq!(total, u64::from(CAPACITY));
        assert_eq!(c.reserve(Some(100), 1), Err(Spent));
        // A later second gives capacity back, starting where the counter stands.
        let r = c.reserve(Some(101), 1).unwrap();
        assert_eq!((r.secs, r.first & 0xff_ffff), (101, 0xff_ff00));
    }

    #[test]
    fn a_block_at_the_edge_is_cut_to_what_is_left() {
        let c = Counter::new();
        c.reset(5);
        let big = c.reserve(Some(7), CAPACITY - 10).unwrap();
        assert_eq!(big.len, CAPACITY - 10);
        let cut = c.reserve(Some(7), 256).unwrap();
        assert_eq!((cut.first, cut.len), (5 + CAPACITY - 10, 10));
        assert_eq!(c.reserve(Some(7), 1), Err(Spent));
    }

    #[test]
    fn a_clock_stepping_back_stamps_the_newest_second_and_spends_its_capacity() {
        let c = Counter::new();
        c.reset(0);
        assert_eq!(
            c.reserve(Some(100_000), CAPACITY - 1).unwrap().secs,
            100_000
        );
        // An hour back: still second 100,000, and only one value left in it.
        let r = c.reserve(Some(100_000 - 3600), 256).unwrap();
        assert_eq!((r.secs, r.first, r.len), (100_000, CAPACITY - 1, 1));
        assert_eq!(c.reserve(Some(100_000 - 3600), 1), Err(Spent));
        assert_eq!(c.reserve(None, 1), Err(Spent));
        // Only a reading past the newest second opens capacity again.
        assert_eq!(c.reserve(Some(100_000), 1), Err(Spent));
        assert_eq!(c.reserve(Some(100_001), 1).unwrap().secs, 100_001);
        assert_eq!(c.newest(), Some(100_001));
    }

    #[test]
    fn no_reading_uses_the_newest_second_or_1970() {
        let c = Counter::new();
        assert_eq!(c.reserve(None, 1).unwrap().secs, 0);
        assert_eq!(c.reserve(Some(50), 1).unwrap().secs, 50);
        assert_eq!(c.reserve(None, 1).unwrap().secs, 50);
    }

    #[test]
    fn seconds_wrap_after_2106_like_the_field() {
        let c = Counter::new();
        assert_eq!(c.reserve(Some(u32::MAX), 1).unwrap().secs, u32::MAX);
        assert_eq!(c.reserve(Some(5), 1).unwrap().secs, 5, "2^32 + 5 is later");
        assert_eq!(
            c.reserve(Some(u32::MAX), 1).unwrap().secs,
            5,
            "and that is back"
        );
    }

    #[test]
    fn threads_racing_at_the_edge_never_share_a_value() {
        const THREADS: usize = 4;
        let c = Counter::new();
        c.reset(0xff_0000);
        // Leave 100,000 values in second 9; then threads race for them and the next second's.
        c.reserve(Some(9), CAPACITY - 100_000).unwrap();
        let got: Vec<Vec<(u32, u32)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    let c = &c;
                    s.spawn(move || {
                        let mut mine = Vec::new();
                        for i in 0..200_000u32 {
                            let secs = if i > 50_000 && t % 2 == 0 { 10 } else { 9 };
                            if let Ok(r) = c.reserve(Some(secs), 1 + (i % 7)) {
                                for k in 0..r.len {
                                    mine.push((r.secs, r.first.wrapping_add(k) & 0xff_ffff));
                                }
                            }
                        }
                        mine
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut all: Vec<(u32, u32)> = got.into_iter().flatten().collect();
        let n9 = all.iter().filter(|(s, _)| *s == 9).count();
        assert!(n9 <= 100_000, "{n9} values in second 9");
        let total = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), total, "a value repeated within a second");
    }
}
