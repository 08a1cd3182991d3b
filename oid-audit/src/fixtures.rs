//! Faults made on purpose, as drivers' generators would make them, for tests of readers and of
//! other implementations of the audit (feature `fixtures`).
//!
//! Each [`Scenario`] is ids in two sources and what an audit of them must find.

use oid_core::ObjectId;

use crate::Kind;

/// The present the scenarios are dated against (2026-05-28T20:26:40Z).
pub const NOW: u32 = 1_780_000_000;

/// The first second of most scenarios (2026-05-17T06:40:00Z).
pub const T0: u32 = 1_779_000_000;

/// A generator as drivers make them: one random value, a counter that rises by one and wraps.
#[derive(Clone, Debug)]
pub struct Gen {
    r: [u8; 5],
    c: u32,
}

impl Gen {
    /// A generator of random value `r` (its low 40 bits) whose counter starts at `c` (its low 24).
    pub const fn new(r: u64, c: u32) -> Gen {
        let b = r.to_be_bytes();
        Gen {
            r: [b[3], b[4], b[5], b[6], b[7]],
            c: c & 0xff_ffff,
        }
    }

    /// The next id, dated `t`.
    pub const fn id(&mut self, t: u32) -> ObjectId {
        let id = ObjectId::from_parts(t, self.r, self.c);
        self.c = (self.c + 1) & 0xff_ffff;
        id
    }

    /// The next counter.
    pub const fn counter(&self) -> u32 {
        self.c
    }
}

/// A fixed xorshift, for reproducible values.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeded with `seed` (not 0).
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 bits.
    #[allow(clippy::should_implement_trait)]
    pub const fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Ids made on purpose, and what an audit of them finds.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// A short name (a file name stem).
    pub name: &'static str,
    /// `(id, source)`: the source is 0 or 1.
    pub ids: Vec<(ObjectId, usize)>,
    /// The kinds found, in report order (empty: no finding).
    pub kinds: Vec<Kind>,
    /// The random value (10 hex digits) of the first finding, if one.
    pub random_value: Option<&'static str>,
    /// The first second of the first finding.
    pub first_second: Option<u32>,
    /// The sources (0, 1) named by the first finding.
    pub sources: Vec<usize>,
}

fn honest(rng: &mut Rng, processes: usize, out: &mut Vec<(ObjectId, usize)>) {
    for p in 0..processes {
        let mut t = T0 + (p % 13) as u32;
        for _restart in 0..2 {
            let start = if p % 3 == 0 {
                0xff_ff80
            } else {
                rng.next() as u32
            };
            let mut g = Gen::new(rng.next() >> 24, start);
            for _ in 0..5 {
                for _ in 0..(rng.next() % 40) {
                    out.push((g.id(t), p % 2));
                }
                t += 1;
            }
        }
    }
}

/// Every scenario: no fault, then one per fault.
pub fn scenarios() -> Vec<Scenario> {
    let mut all = Vec::new();
    let mut rng = Rng::new(0x1234_5678_9abc_def1);

    let mut ids = Vec::new();
    honest(&mut rng, 300, &mut ids);
    all.push(Scenario {
        name: "honest",
        ids,
        kinds: vec![],
        random_value: None,
        first_second: None,
        sources: vec![],
    });

    let (mut a, mut b) = (
        Gen::new(0xab_cdef_0123, 100),
        Gen::new(0xab_cdef_0123, 9_000_000),
    );
    let mut ids = Vec::new();
    for t in T0..T0 + 5 {
        for _ in 0..100 {
            ids.push((a.id(t), 0));
            ids.push((b.id(t), 1));
        }
    }
    all.push(Scenario {
        name: "interleaved",
        ids,
        kinds: vec![Kind::SharedRandomValue],
        random_value: Some("abcdef0123"),
        first_second: Some(T0),
        sources: vec![0, 1],
    });

    let mut ids = Vec::new();
    for (k, start) in [(0, T0), (1, T0 + 6)] {
        let mut g = Gen::new(0x11_2233_4455, 777);
        for t in start..start + 5 {
            for _ in 0..100 {
                ids.push((g.id(t), k));
            }
        }
    }
    all.push(Scenario {
        name: "back-to-back",
        ids,
        kinds: vec![Kind::SharedRandomValue],
        random_value: Some("1122334455"),
        first_second: Some(T0),
        sources: vec![0, 1],
    });

    let mut parent = Gen::new(0x55_6677_8899, 42);
    let mut ids = Vec::new();
    for _ in 0..500 {
        ids.push((parent.id(T0), 0));
    }
    let mut child = parent.clone();
    for t in T0 + 1..T0 + 4 {
        for _ in 0..300 {
            ids.push((parent.id(t), 0));
        }
        for _ in 0..200 {
            ids.push((child.id(t), 1));
        }
    }
    all.push(Scenario {
        name: "fork",
        ids,
        kinds: vec![Kind::DuplicateId, Kind::SharedRandomValue],
        random_value: Some("5566778899"),
        first_second: Some(T0 + 1),
        sources: vec![0, 1],
    });

    for (name, step) in [("clock-1s", 1_u32), ("clock-1h", 3600)] {
        let mut g = Gen::new(0x99_8877_6655, 1_000);
        let mut ids = Vec::new();
        // 2 ids per millisecond for 4.5 s; then the clock reads `step` s earlier and goes on.
        let mut ms = u64::from(T0) * 1000;
        for half in 0..2 {
            for _ in 0..4500 {
                for _ in 0..2 {
                    ids.push((g.id((ms / 1000) as u32), half));
                }
                ms += 1;
            }
            if half == 0 {
                ms -= u64::from(step) * 1000;
            }
        }
        all.push(Scenario {
            name,
            ids,
            kinds: vec![Kind::ClockStepBack],
            random_value: Some("9988776655"),
            first_second: Some(T0 + 4 - step),
            sources: vec![0, 1],
        });
    }

    let mut ids = Vec::new();
    honest(&mut rng, 20, &mut ids);
    ids.push((Gen::new(0x12_3456_789a, 5).id(1_900_000_000), 1)); // 2030-03-17
    ids.push((Gen::new(0x6b_a5e1_0c37, 5).id(1_120_000_000), 0)); // 2005-06-28
    all.push(Scenario {
        name: "dates",
        ids,
        kinds: vec![Kind::ImplausibleTime],
        random_value: Some("123456789a"),
        first_second: Some(1_900_000_000),
        sources: vec![1],
    });

    let mut ids = Vec::new();
    honest(&mut rng, 20, &mut ids);
    for (m, machine) in [0xa1_b2c3_u64, 0x0d_0e0f, 0x77_8899]
        .into_iter()
        .enumerate()
    {
        for pid in [4123_u64, 4187, 9001, 1] {
            let mut g = Gen::new(machine << 16 | pid, rng.next() as u32);
            for _ in 0..10 {
                ids.push((g.id(T0 + m as u32), m % 2));
            }
        }
    }
    all.push(Scenario {
        name: "legacy",
        ids,
        kinds: vec![Kind::LegacyLayout],
        random_value: Some("0d0e0f0001"),
        first_second: Some(T0),
        sources: vec![0, 1],
    });

    let mut ids = Vec::new();
    honest(&mut rng, 20, &mut ids);
    let ms = u64::from(T0) * 1000 + 250;
    for r in [
        0,
        0x42_4242_4242,
        ms & 0xff_ffff_ffff,
        31_337,
        0x50_0000_0000,
        0x50_0000_0001,
        0x50_0000_0002,
    ] {
        let mut g = Gen::new(r, 10);
        for _ in 0..3 {
            ids.push((g.id(T0), 1));
        }
    }
    all.push(Scenario {
        name: "weak",
        ids,
        kinds: vec![Kind::WeakRandomValue],
        random_value: Some("0000000000"),
        first_second: Some(T0),
        sources: vec![1],
    });
    all
}
