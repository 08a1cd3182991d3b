//! What the audit's test files share: the dates they audit at, drivers' generators and a fixed
//! random source. Each file uses part of it.
#![allow(dead_code)]

use oid_core::ObjectId;

/// The present the tests are dated against (2026-05-28).
pub(crate) const NOW: u32 = 1_780_000_000;

/// The first second of most tests.
pub(crate) const T0: u32 = 1_779_000_000;

/// The id of second `t`, random value `r` (its low 40 bits) and counter `c` (its low 24).
pub(crate) fn id(t: u32, r: u64, c: u32) -> ObjectId {
    Gen::new(r, c).id(t)
}

/// A generator as drivers make them: one random value, a counter that rises by one and wraps.
#[derive(Clone)]
pub(crate) struct Gen {
    pub(crate) r: [u8; 5],
    pub(crate) c: u32,
}

impl Gen {
    /// A generator of random value `r` (its low 40 bits) whose counter starts at `c` (its low 24).
    pub(crate) fn new(r: u64, c: u32) -> Gen {
        let b = r.to_be_bytes();
        Gen {
            r: [b[3], b[4], b[5], b[6], b[7]],
            c: c & 0xff_ffff,
        }
    }

    /// The next id, dated `t`.
    pub(crate) fn id(&mut self, t: u32) -> ObjectId {
        let id = ObjectId::from_parts(t, self.r, self.c);
        self.c = (self.c + 1) & 0xff_ffff;
        id
    }
}

/// A fixed xorshift, for reproducible values (seeded with anything but 0).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next 64 bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
