//! oid-core 0.1's `Generator::next`, kept for before/after runs of the capacity rule: one clock
//! read, one relaxed `fetch_add` on a 32-bit counter, no bound per second (so it repeats ids past
//! 2^24 a second; never use it outside a benchmark). The code of commit `5d6c66e`, reduced to
//! `next` on a `ManualClock`.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

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
}
