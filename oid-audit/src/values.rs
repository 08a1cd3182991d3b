//! Random values that look made, not drawn, and the legacy layout, judged over all values.
//!
//! Every test here asks how many values like these `V` values drawn at random would hold
//! (`expected_by_chance`), and reports only what chance would give less than [`CHANCE`] times:
//! - `zero`: the value 0 (always reported: the value of a generator that drew nothing);
//! - `repeated-byte`: five equal bytes, `V * 255 / 2^40`;
//! - `small`: the `k` smallest values all at most `m` (a process id, a counter),
//!   `(V * (m + 1) / 2^40)^k / k!`;
//! - `time`: the value is within `d` of the value's first second in seconds, milliseconds,
//!   microseconds or nanoseconds (mod 2^40), `V * 8 * (d + 1) / 2^40`;
//! - `consecutive`: `k` values within a width `w`, each within [`CLUSTER_GAP`] of the next (seeds
//!   from a counter or from close times), `V * (V * (w + 1) / 2^40)^(k - 1) / (k - 1)!`;
//! - legacy layout: `k` values with one 3-byte machine id, `2^24 * V^k / k! / 2^(24 k)`.
//!
//! The values arrive sorted, so clusters and machine groups are runs of neighbours, and only
//! candidates are kept (those that pass with the values seen so far: more values only make a
//! pattern likelier by chance).

use crate::report::value_hex;
use crate::sources::SrcSet;

/// Findings expected by chance below which a pattern is reported.
pub(crate) const CHANCE: f64 = 1e-6;

/// The largest gap between neighbours of a `consecutive` cluster.
pub(crate) const CLUSTER_GAP: u64 = 1024;

const LN2: f64 = core::f64::consts::LN_2;
const MAX_MEMBERS: usize = 4096;
const MAX_CANDIDATES: usize = 10_000;
const SMALLEST: usize = 64;
/// Time units per second tried for `time`.
const UNITS: [u64; 4] = [1, 1_000, 1_000_000, 1_000_000_000];
const VALUES: u64 = 1 << 40;

/// One random value, as the audit saw it.
#[derive(Clone, Debug)]
pub(crate) struct ValueRec {
    pub(crate) r: u64,
    pub(crate) ids: u64,
    pub(crate) first_t: u32,
    pub(crate) last_t: u32,
    pub(crate) first_c: u32,
    pub(crate) srcs: SrcSet,
}

/// Why a value looks made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Weak {
    Zero,
    RepeatedByte,
    Small,
    Time,
    Consecutive,
}

impl Weak {
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Weak::Zero => "zero",
            Weak::RepeatedByte => "repeated-byte",
            Weak::Small => "small",
            Weak::Time => "time",
            Weak::Consecutive => "consecutive",
        }
    }
}

/// A group of values reported together.
#[derive(Clone, Debug)]
pub(crate) struct Flagged {
    pub(crate) reason: Weak,
    pub(crate) values: Vec<ValueRec>,
    pub(crate) more: u64,
    pub(crate) expected: f64,
}

/// Legacy machines found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Legacy {
    pub(crate) groups: Vec<(Vec<ValueRec>, u64)>,
    pub(crate) expected: f64,
}

#[derive(Debug, Default)]
struct Group {
    members: Vec<ValueRec>,
    more: u64,
}

impl Group {
    fn push(&mut self, v: &ValueRec) {
        if self.members.len() < MAX_MEMBERS {
            self.members.push(v.clone());
        } else {
            self.more += 1;
        }
    }

    fn k(&self) -> u64 {
        self.members.len() as u64 + self.more
    }
}

/// Watches values as they pass in sorted order.
#[derive(Debug, Default)]
pub(crate) struct Values {
    seen: u64,
    smallest: Vec<ValueRec>,
    singles: Vec<(Weak, ValueRec, u64)>,
    cluster: Group,
    clusters: Vec<Group>,
    machine: Group,
    machines: Vec<Group>,
}

fn ln_factorial(k: u64) -> f64 {
    (2..=k.min(100_000)).map(|i| (i as f64).ln()).sum()
}

/// `ln` of the expected count of `consecutive` clusters of `k` values within width `w`.
fn ln_cluster(v: u64, k: u64, w: u64) -> f64 {
    let v = v as f64;
    v.ln() + (k - 1) as f64 * (v.ln() + ((w + 1) as f64).ln() - 40.0 * LN2) - ln_factorial(k - 1)
}

/// `ln` of the expected count of machine ids holding `k` of `v` values.
fn ln_machine(v: u64, k: u64) -> f64 {
    24.0 * LN2 + k as f64 * (v as f64).ln() - ln_factorial(k) - 24.0 * k as f64 * LN2
}

/// `ln` of the expected count of `k` values all at most `m`.
fn ln_small(v: u64, k: u64, m: u64) -> f64 {
    k as f64 * ((v as f64).ln() + ((m + 1) as f64).ln() - 40.0 * LN2) - ln_factorial(k)
}

/// The distance of `r` from the value's first second in the nearest unit, mod 2^40.
fn time_distance(r: u64, t: u32) -> u64 {
    UNITS
        .iter()
        .map(|u| {
            let f = (u64::from(t).wrapping_mul(*u)) & (VALUES - 1);
            let a = r.wrapping_sub(f) & (VALUES - 1);
            let b = f.wrapping_sub(r) & (VALUES - 1);
            a.min(b)
        })
        .min()
        .unwrap_or(VALUES)
}

fn ln_time(v: u64, d: u64) -> f64 {
    (v as f64).ln() + (8.0 * (d + 1) as f64).ln() - 40.0 * LN2
}

const fn repeated_byte(r: u64) -> bool {
    let b = r & 0xff;
    r == b * 0x01_0101_0101
}

impl Values {
    /// The next value, larger than every earlier one.
    pub(crate) fn push(&mut self, v: ValueRec) {
        self.seen += 1;
        let ln_chance = CHANCE.ln();
        if self.smallest.len() < SMALLEST {
            self.smallest.push(v.clone());
        }
        if v.r == 0 {
            self.singles.push((Weak::Zero, v.clone(), 0));
        } else if repeated_byte(v.r) {
            self.singles.push((Weak::RepeatedByte, v.clone(), 0));
        } else {
            let d = time_distance(v.r, v.first_t);
            if ln_time(self.seen, d) <= ln_chance && self.singles.len() < MAX_CANDIDATES {
                self.singles.push((Weak::Time, v.clone(), d));
            }
        }
        // Neighbour clusters.
        let near = self
            .cluster
            .members
            .last()
            .is_some_and(|last| v.r - last.r <= CLUSTER_GAP);
        if !near {
            self.close_cluster();
        }
        self.cluster.push(&v);
        // Machine groups.
        let same = self
            .machine
            .members
            .first()
            .is_some_and(|m| m.r >> 16 == v.r >> 16);
        if !same {
            self.close_machine();
        }
        self.machine.push(&v);
    }

    fn close_cluster(&mut self) {
        let g = core::mem::take(&mut self.cluster);
        let k = g.k();
        if k >= 3 && self.clusters.len() < MAX_CANDIDATES {
            let w = g.members.last().map_or(0, |l| l.r) - g.members[0].r;
            if ln_cluster(self.seen, k, w) <= CHANCE.ln() {
                self.clusters.push(g);
            }
        }
    }

    fn close_machine(&mut self) {
        let g = core::mem::take(&mut self.machine);
        let k = g.k();
        if k >= 2
            && self.machines.len() < MAX_CANDIDATES
            && g.members[0].r >> 16 != 0
            && ln_machine(self.seen, k) <= CHANCE.ln()
        {
            self.machines.push(g);
        }
    }

    /// What the values hold, judged with the final count of values.
    pub(crate) fn finish(mut self) -> (Vec<Flagged>, Legacy) {
        self.close_cluster();
        self.close_machine();
        let v = self.seen;
        let ln_chance = CHANCE.ln();
        let mut weak = Vec::new();
        let mut flagged: Vec<u64> = Vec::new();
        for (reason, rec, d) in self.singles {
            let expected = match reason {
                Weak::Zero => v as f64 / VALUES as f64,
                Weak::RepeatedByte => v as f64 * 255.0 / VALUES as f64,
                _ => ln_time(v, d).exp(),
            };
            if reason == Weak::Zero || expected <= CHANCE {
                flagged.push(rec.r);
                weak.push(Flagged {
                    reason,
                    values: vec![rec],
                    more: 0,
                    expected,
                });
            }
        }
        // The smallest values: the prefix least likely by chance.
        let mut best: Option<(f64, usize)> = None;
        for (i, rec) in self.smallest.iter().enumerate() {
            if rec.r == 0 {
                continue;
            }
            let l = ln_small(v, i as u64 + 1, rec.r);
            if l <= ln_chance && best.is_none_or(|(b, _)| l < b) {
                best = Some((l, i));
            }
        }
        if let Some((l, i)) = best {
            let values: Vec<ValueRec> = self.smallest[..=i]
                .iter()
                .filter(|r| r.r != 0 && !flagged.contains(&r.r))
                .cloned()
                .collect();
            if !values.is_empty() {
                flagged.extend(values.iter().map(|r| r.r));
                weak.push(Flagged {
                    reason: Weak::Small,
                    values,
                    more: 0,
                    expected: l.exp(),
                });
            }
        }
        // Clusters: consecutive seeds, unless they are one legacy machine's processes.
        for g in self.clusters {
            let k = g.k();
            let w = g.members.last().map_or(0, |l| l.r) - g.members[0].r;
            let l = ln_cluster(v, k, w);
            if l > ln_chance {
                continue;
            }
            let exact = g.members.windows(2).all(|p| p[1].r - p[0].r == 1);
            let machines = g.members[0].r >> 16 != g.members[g.members.len() - 1].r >> 16;
            if !(exact || machines) {
                continue;
            }
            let values: Vec<ValueRec> = g
                .members
                .into_iter()
                .filter(|r| !flagged.contains(&r.r))
                .collect();
            if values.len() >= 3 {
                flagged.extend(values.iter().map(|r| r.r));
                weak.push(Flagged {
                    reason: Weak::Consecutive,
                    values,
                    more: g.more,
                    expected: l.exp(),
                });
            }
        }
        let mut legacy = Legacy::default();
        for g in self.machines {
            let k = g.k();
            let l = ln_machine(v, k);
            if l > ln_chance {
                continue;
            }
            let members: Vec<ValueRec> = g
                .members
                .into_iter()
                .filter(|r| !flagged.contains(&r.r))
                .collect();
            if members.len() >= 2 {
                legacy.expected += l.exp();
                legacy.groups.push((members, g.more));
            }
        }
        (weak, legacy)
    }
}

/// The machine id (6 hex digits) and process id of a legacy value.
pub(crate) fn machine_process(r: u64) -> (String, u16) {
    let hex = value_hex(r);
    (hex[..6].to_owned(), (r & 0xffff) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(r: u64, t: u32) -> ValueRec {
        ValueRec {
            r,
            ids: 1,
            first_t: t,
            last_t: t,
            first_c: 0,
            srcs: SrcSet::one(0),
        }
    }

    fn run(values: &mut [u64]) -> (Vec<Flagged>, Legacy) {
        values.sort_unstable();
        let mut w = Values::default();
        for &r in values.iter() {
            w.push(rec(r, 1_700_000_000));
        }
        w.finish()
    }

    /// Values from a fixed xorshift.
    fn random_values(n: usize) -> Vec<u64> {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x >> 24
            })
            .collect()
    }

    #[test]
    fn random_values_are_not_weak() {
        for n in [10, 1000, 100_000] {
            let (weak, legacy) = run(&mut random_values(n));
            assert!(weak.is_empty(), "{n}: {weak:?}");
            assert!(legacy.groups.is_empty(), "{n}");
        }
    }

    #[test]
    fn made_values_are_weak() {
        let mut values = random_values(1000);
        values.extend([0, 0x42_4242_4242, 17, 4242, 31_337]);
        values.extend([0x12_3456_0000, 0x12_3456_0001, 0x12_3456_0002]);
        values.push(1_700_000_000_000 & (VALUES - 1)); // milliseconds
        let (weak, _) = run(&mut values);
        let reasons: Vec<&str> = weak.iter().map(|f| f.reason.name()).collect();
        assert_eq!(
            reasons,
            ["zero", "repeated-byte", "time", "small", "consecutive"],
            "{weak:?}"
        );
        assert_eq!(weak[3].values.len(), 3);
    }

    #[test]
    fn machines_with_several_processes_are_legacy() {
        let mut values = random_values(1000);
        for machine in [0xa1b2c3_u64, 0x0d0e0f, 0x778899] {
            for pid in [4123_u64, 4187, 9001, 17] {
                values.push(machine << 16 | pid);
            }
        }
        let (weak, legacy) = run(&mut values);
        assert!(weak.is_empty(), "{weak:?}");
        assert_eq!(legacy.groups.len(), 3);
        assert_eq!(
            machine_process(0x00a1_b2c3_1023),
            ("a1b2c3".to_owned(), 0x1023)
        );
    }
}
