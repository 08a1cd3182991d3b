//! Earlier generators, kept for before/after runs in one criterion run (never use them outside a
//! benchmark):
//!
//! * [`GeneratorV01`]: oid-core 0.1's `Generator::next` (commit `5d6c66e`): one clock read, one
//!   relaxed `fetch_add` on a 32-bit counter, no bound per second (so it repeats ids past 2^24 a
//!   second).
//! * [`GeneratorA179`]: the generator of commit `a179c62`, before the capacity rule moved into
//!   `oid_core::IdSpace` (it repeats ids at second `0xFFFFFFFF` in a rare race).

use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed};
use std::sync::atomic::{AtomicU32, AtomicU64};

use oid_core::{Clock, ManualClock, ObjectId};

/// oid-core 0.1's generator, `next` only.
pub struct GeneratorV01<'a> {
    clock: &'a ManualClock,
    counter: AtomicU32,
    random_hi: AtomicU32,
    random_lo: AtomicU32,
    last_secs: AtomicU32,
}

impl<'a> GeneratorV01<'a> {
    /// A generator with this random value and counter start.
    pub fn from_seed(clock: &'a ManualClock, random: [u8; 5], counter: u32) -> Self {
        GeneratorV01 {
            clock,
            counter: AtomicU32::new(counter),
            random_hi: AtomicU32::new(u32::from_be_bytes([
                random[0], random[1], random[2], random[3],
            ])),
            random_lo: AtomicU32::new(u32::from(random[4])),
            last_secs: AtomicU32::new(0),
        }
    }

    /// The clock this generator reads.
    pub const fn clock(&self) -> &'a ManualClock {
        self.clock
    }

    /// 0.1's `next`: the last good reading when the clock fails, counter by `fetch_add`.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&self) -> ObjectId {
        let secs = match self.clock.unix_seconds() {
            Some(s) => {
                let s = s as u32;
                if self.last_secs.load(Relaxed) != s {
                    self.last_secs.store(s, Relaxed);
                }
                s
            }
            None => self.last_secs.load(Relaxed),
        };
        let hi = self.random_hi.load(Relaxed).to_be_bytes();
        let lo = self.random_lo.load(Relaxed) as u8;
        let random = [hi[0], hi[1], hi[2], hi[3], lo];
        ObjectId::from_parts(secs, random, self.counter.fetch_add(1, Relaxed))
    }
}

/// oid-core's `Generator` before the capacity rule moved into `IdSpace` (commit `a179c62`),
/// reduced to `next` on a `&ManualClock`: the window and the tagged counter (`u32::MAX` as the
/// "untagged" tag), the fast path's `fetch_add`, the slow path's compare-and-swap. For the
/// side-by-side runs of `core_generate` only: it has the last-second repeat the current code
/// fixed.
pub struct GeneratorA179<'a> {
    clock: &'a ManualClock,
    counter: AtomicU64,
    window: AtomicU64,
    random_hi: AtomicU32,
    random_lo: AtomicU32,
}

const CAPACITY: u32 = 1 << 24;
const UNOPENED: u64 = u64::MAX;
const UNTAGGED: u32 = u32::MAX;
const ONE: u64 = 1 << 32;

const fn tagged(tag: u32, value: u32) -> u64 {
    ((tag as u64) << 32) | value as u64
}
const fn halves(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
}
const fn counted(tag: u32, value: u32) -> u64 {
    ((value as u64) << 32) | tag as u64
}
const fn uncounted(word: u64) -> (u32, u32) {
    (word as u32, (word >> 32) as u32)
}

impl<'a> GeneratorA179<'a> {
    /// A generator with this random value and counter start.
    pub fn from_seed(clock: &'a ManualClock, random: [u8; 5], counter: u32) -> Self {
        GeneratorA179 {
            clock,
            counter: AtomicU64::new(counted(UNTAGGED, counter)),
            window: AtomicU64::new(UNOPENED),
            random_hi: AtomicU32::new(u32::from_be_bytes([
                random[0], random[1], random[2], random[3],
            ])),
            random_lo: AtomicU32::new(u32::from(random[4])),
        }
    }

    /// The clock this generator reads.
    pub const fn clock(&self) -> &'a ManualClock {
        self.clock
    }

    fn read(&self) -> Option<u32> {
        self.clock.unix_seconds().map(|secs| secs as u32)
    }

    /// The `next` of commit `a179c62`.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&self) -> ObjectId {
        let reading = self.read();
        let (secs, counter) = self
            .next_fast(reading)
            .unwrap_or_else(|| self.next_slow(reading));
        let hi = self.random_hi.load(Relaxed).to_be_bytes();
        let lo = self.random_lo.load(Relaxed) as u8;
        ObjectId::from_parts(secs, [hi[0], hi[1], hi[2], hi[3], lo], counter)
    }

    #[inline(always)]
    fn next_fast(&self, reading: Option<u32>) -> Option<(u32, u32)> {
        let now = reading?;
        let window = self.window.load(Relaxed);
        let (secs, start) = halves(window);
        if now != secs || window == UNOPENED {
            return None;
        }
        let (tag, next) = uncounted(self.counter.fetch_add(ONE, Relaxed));
        (tag == secs && next.wrapping_sub(start) < CAPACITY).then_some((secs, next))
    }

    #[cold]
    #[inline(never)]
    fn next_slow(&self, mut reading: Option<u32>) -> (u32, u32) {
        loop {
            if let Some(r) = self.reserve(reading) {
                return r;
            }
            self.clock.wait();
            reading = self.read();
        }
    }

    fn reserve(&self, reading: Option<u32>) -> Option<(u32, u32)> {
        loop {
            let window = self.window.load(Acquire);
            let counter = self.counter.load(Acquire);
            let (secs, start) = halves(window);
            let (tag, next) = uncounted(counter);
            let open = match reading {
                Some(now) if window == UNOPENED || now > secs => Some(now),
                None if window == UNOPENED => Some(0),
                _ => None,
            };
            if window != UNOPENED && tag != secs {
                if tag != UNTAGGED && tag > secs {
                    continue;
                }
                let value = if tag == UNTAGGED { start } else { next };
                let _ =
                    self.counter
                        .compare_exchange(counter, counted(secs, value), AcqRel, Acquire);
                continue;
            }
            if let Some(now) = open {
                self.open(window, counter, now);
                continue;
            }
            let left = CAPACITY - next.wrapping_sub(start).min(CAPACITY);
            if left == 0 {
                return None;
            }
            if self
                .counter
                .compare_exchange_weak(
                    counter,
                    counted(secs, next.wrapping_add(1)),
                    AcqRel,
                    Acquire,
                )
                .is_ok()
            {
                return Some((secs, next));
            }
        }
    }

    #[cold]
    fn open(&self, seen: u64, counter: u64, secs: u32) {
        let (_, mut next) = uncounted(counter);
        if seen != UNOPENED {
            let (_, start) = halves(seen);
            next = start.wrapping_add(next.wrapping_sub(start).min(CAPACITY));
        }
        let mut window = tagged(secs, next);
        if window == UNOPENED {
            window -= 1;
        }
        if self
            .window
            .compare_exchange(seen, window, AcqRel, Acquire)
            .is_ok()
        {
            let _ = self
                .counter
                .compare_exchange(counter, counted(secs, next), AcqRel, Acquire);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_the_worked_example() {
        let clock = ManualClock::at(1_700_000_000);
        let g = GeneratorV01::from_seed(&clock, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
        assert_eq!(g.next().to_hex(), "6553f1003f2a91c8d4003039");
        assert_eq!(g.next().to_hex(), "6553f1003f2a91c8d400303a");
    }

    #[test]
    fn a179_matches_the_current_generator_below_capacity() {
        let clock = ManualClock::at(1_700_000_000);
        let before = GeneratorA179::from_seed(&clock, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 0xfffffe);
        let now = oid_core::Generator::from_seed(&clock, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 0xfffffe);
        for _ in 0..1000 {
            assert_eq!(before.next(), now.next());
        }
        clock.advance(1);
        assert_eq!(before.next(), now.next());
    }
}
