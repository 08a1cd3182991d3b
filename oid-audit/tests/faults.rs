//! Each fault made on purpose is found with the right evidence, and many honest generators in
//! any order are no finding.

// Helpers outside #[test] functions: unwrap on test data, and plain fns.
#![allow(clippy::unwrap_used, clippy::missing_const_for_fn)]

use oid_audit::{Audit, Kind, Options, Report};
use oid_core::ObjectId;

mod common;
use common::{Gen, NOW, Rng, T0};

fn audit(ids: &[(ObjectId, usize)], sources: usize, opts: Options) -> Report {
    let mut a = Audit::new(opts);
    let srcs: Vec<_> = (0..sources).map(|i| a.source(format!("s{i}"))).collect();
    for (id, s) in ids {
        a.push(*id, srcs[*s]).unwrap();
    }
    a.finish().unwrap()
}

fn kinds(r: &Report) -> Vec<Kind> {
    r.counts.keys().copied().collect()
}

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
}

#[test]
fn a_thousand_honest_generators_in_any_order_are_no_finding() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut ids = Vec::new();
    for p in 0..1000 {
        // A process, restarted every 7 s with a new random value (and every 3rd one near the wrap).
        let mut t = T0 + (p % 13) as u32;
        for _restart in 0..3 {
            let start = if p % 3 == 0 {
                0xff_ff00
            } else {
                rng.next() as u32
            };
            let mut g = Gen::new(rng.next() >> 24, start);
            for _ in 0..7 {
                for _ in 0..(rng.next() % 60) {
                    ids.push((g.id(t), p % 3));
                }
                t += 1;
            }
        }
    }
    let n = ids.len();
    shuffle(&mut ids, &mut rng);
    for memory in [64 << 20, 1 << 16] {
        let r = audit(&ids, 3, Options::new(NOW).memory(memory));
        assert_eq!(kinds(&r), [], "{:#?}", r.findings.first());
        assert_eq!(r.summary.ids, n as u64);
        assert_eq!(r.summary.distinct_ids, n as u64);
        assert!(r.summary.random_values >= 2900);
    }
}

#[test]
fn threads_racing_at_second_boundaries_are_no_finding() {
    // Ids whose second is one lower than an id with a lower counter, a few per boundary.
    let mut g = Gen::new(0x3f_2a91_c8d4, 5000);
    let mut ids = Vec::new();
    for t in T0..T0 + 10 {
        for k in 0..1000 {
            let late = k < 3; // read the clock in the second before
            ids.push((g.id(if late { t - 1 } else { t }), 0));
        }
    }
    let r = audit(&ids, 1, Options::new(NOW));
    assert_eq!(kinds(&r), [], "{:#?}", r.findings);
}

#[test]
fn two_generators_on_one_value_interleaved() {
    let mut a = Gen::new(0xab_cdef_0123, 100);
    let mut b = Gen::new(0xab_cdef_0123, 9_000_000);
    let mut ids = Vec::new();
    for t in T0..T0 + 5 {
        for _ in 0..100 {
            ids.push((a.id(t), 0));
            ids.push((b.id(t), 1));
        }
    }
    let r = audit(&ids, 2, Options::new(NOW));
    assert_eq!(kinds(&r), [Kind::SharedRandomValue]);
    let f = &r.findings[0];
    assert_eq!(f.random_values, ["abcdef0123"]);
    assert_eq!(f.reason.as_deref(), Some("interleaved"));
    assert_eq!(f.runs.len(), 2);
    assert_eq!(
        (f.runs[0].first_counter, f.runs[0].last_counter),
        (100, 599)
    );
    assert_eq!(f.runs[1].first_counter, 9_000_000);
    assert_eq!(f.runs[0].sources, ["s0"]);
    assert_eq!(f.runs[1].sources, ["s1"]);
    assert_eq!(f.first.second, T0);
    assert_eq!(f.last.second, T0 + 4);
}

#[test]
fn two_generators_seeded_alike_back_to_back() {
    let mut ids = Vec::new();
    for (k, start) in [(0, T0), (1, T0 + 6)] {
        let mut g = Gen::new(0x11_2233_4455, 777);
        for t in start..start + 5 {
            for _ in 0..100 {
                ids.push((g.id(t), k));
            }
        }
    }
    let r = audit(&ids, 2, Options::new(NOW));
    assert_eq!(kinds(&r), [Kind::SharedRandomValue]);
    let f = &r.findings[0];
    assert_eq!(f.reason.as_deref(), Some("restarted"));
    assert_eq!(f.runs[0].first_counter, 777);
    assert_eq!(f.runs[1].first_counter, 777);
    assert_eq!(f.runs[1].first.second, T0 + 6);
}

#[test]
fn a_forked_child_without_a_reseed() {
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
    let r = audit(&ids, 2, Options::new(NOW));
    assert_eq!(kinds(&r), [Kind::DuplicateId, Kind::SharedRandomValue]);
    let dup = r.of_kind(Kind::DuplicateId).next().unwrap();
    // The child's first second repeats 200 of the parent's counters, its second 100.
    assert_eq!(dup.ids, 300);
    assert_eq!(dup.sources, ["s0", "s1"]);
    assert_eq!(dup.first.second, T0 + 1);
}

#[test]
fn clocks_stepped_back() {
    for step in [1_u32, 3600] {
        let mut g = Gen::new(0x99_8877_6655, 1_000);
        let mut ids = Vec::new();
        // 2 ids per millisecond for 4.5 s; then the clock reads `step` s earlier and goes on.
        let mut ms = u64::from(T0) * 1000;
        for _ in 0..4500 {
            ids.push((g.id((ms / 1000) as u32), 0));
            ids.push((g.id((ms / 1000) as u32), 0));
            ms += 1;
        }
        ms -= u64::from(step) * 1000;
        let stepped = (ms / 1000) as u32;
        let first_after = g.c;
        for _ in 0..4500 {
            ids.push((g.id((ms / 1000) as u32), 0));
            ids.push((g.id((ms / 1000) as u32), 0));
            ms += 1;
        }
        let r = audit(&ids, 1, Options::new(NOW));
        assert_eq!(
            kinds(&r),
            [Kind::ClockStepBack],
            "step {step}: {:#?}",
            r.findings
        );
        let f = &r.findings[0];
        assert_eq!(f.step_seconds, Some(u64::from(step)), "{f:#?}");
        assert_eq!(f.first.second, stepped);
        assert_eq!(
            f.examples[1],
            ObjectId::from_parts(stepped, g.r, first_after).to_string()
        );
    }
}

#[test]
fn more_ids_in_a_second_than_a_value_holds() {
    let mut g = Gen::new(0x01_0203_0405, 0);
    let mut a = Audit::new(Options::new(NOW));
    let s = a.source("flood");
    for _ in 0..(1 << 24) + 1 {
        a.push(g.id(T0), s).unwrap();
    }
    let r = a.finish().unwrap();
    assert_eq!(kinds(&r), [Kind::DuplicateId, Kind::OverCapacity]);
    let f = r.of_kind(Kind::OverCapacity).next().unwrap();
    assert_eq!(f.ids, (1 << 24) + 1);
    assert_eq!(f.first.second, T0);
    assert_eq!(r.summary.distinct_ids, 1 << 24);
}

#[test]
fn ids_dated_2030_and_2005() {
    let mut ids = Vec::new();
    let mut g = Gen::new(0x12_3456_789a, 5);
    ids.push((g.id(1_900_000_000), 0)); // 2030-03-17
    let mut g = Gen::new(0x6b_a5e1_0c37, 5);
    ids.push((g.id(1_120_000_000), 0)); // 2005-06-28
    let mut honest = Gen::new(0xfe_dcba_9876, 5);
    ids.push((honest.id(NOW - 10), 0));
    let r = audit(&ids, 1, Options::new(NOW));
    assert_eq!(kinds(&r), [Kind::ImplausibleTime]);
    let reasons: Vec<_> = r
        .findings
        .iter()
        .map(|f| f.reason.clone().unwrap())
        .collect();
    assert_eq!(reasons, ["future", "before-mongodb"]);
    assert_eq!(r.findings[0].first.second, 1_900_000_000);
    assert_eq!(r.findings[0].first.time, "2030-03-17T17:46:40Z");
}

#[test]
fn legacy_ids_of_several_machines() {
    let mut rng = Rng(0x7777_1234_abcd_9876);
    let mut ids = Vec::new();
    for _ in 0..200 {
        let mut g = Gen::new(rng.next() >> 24, rng.next() as u32);
        ids.push((g.id(T0), 0));
    }
    for (m, machine) in [0xa1_b2c3_u64, 0x0d_0e0f, 0x77_8899]
        .into_iter()
        .enumerate()
    {
        for pid in [4123_u64, 4187, 9001, 1] {
            let mut g = Gen::new(machine << 16 | pid, rng.next() as u32);
            for _ in 0..10 {
                ids.push((g.id(T0 + m as u32), m));
            }
        }
    }
    let r = audit(&ids, 3, Options::new(NOW));
    assert_eq!(kinds(&r), [Kind::LegacyLayout], "{:#?}", r.findings);
    let f = &r.findings[0];
    assert_eq!(f.machines.len(), 3);
    assert_eq!(f.machines[0].machine, "0d0e0f");
    assert_eq!(f.machines[0].processes, [1, 4123, 4187, 9001]);
    assert_eq!(f.shared_processes.len(), 4);
    assert_eq!(f.ids, 120);
}

#[test]
fn weak_values() {
    let mut rng = Rng(0x9999_5678_dcba_1234);
    let mut ids = Vec::new();
    for _ in 0..200 {
        let mut g = Gen::new(rng.next() >> 24, rng.next() as u32);
        ids.push((g.id(T0), 0));
    }
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
        ids.push((g.id(T0), 1));
    }
    let r = audit(&ids, 2, Options::new(NOW));
    assert_eq!(kinds(&r), [Kind::WeakRandomValue], "{:#?}", r.findings);
    let reasons: Vec<_> = r
        .findings
        .iter()
        .map(|f| f.reason.clone().unwrap())
        .collect();
    assert_eq!(
        reasons,
        ["zero", "repeated-byte", "time", "small", "consecutive"]
    );
    assert_eq!(
        r.findings[4].random_values,
        ["5000000000", "5000000001", "5000000002"]
    );
    assert_eq!(r.findings[4].sources, ["s1"]);
}

#[test]
fn the_json_report_has_the_documented_field_names() {
    let mut a = Gen::new(0xab_cdef_0123, 100);
    let again = ObjectId::from_parts(T0, a.r, 100);
    let mut ids: Vec<_> = (0..3).map(|_| (a.id(T0), 0)).collect();
    ids.push((again, 1));
    let r = audit(&ids, 2, Options::new(NOW));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["summary"]["ids"], 4);
    assert_eq!(json["summary"]["distinct_ids"], 3);
    assert_eq!(json["summary"]["duplicate_ids"], 1);
    assert_eq!(json["summary"]["random_values"], 1);
    assert_eq!(json["summary"]["ids_per_value"]["max"], 4);
    assert_eq!(json["summary"]["busiest_second"]["second"], T0);
    assert_eq!(json["summary"]["first"]["time"], "2026-05-17T06:40:00Z");
    assert_eq!(json["counts"]["duplicate-id"], 1);
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "duplicate-id");
    assert_eq!(f["random_values"][0], "abcdef0123");
    assert_eq!(
        f["examples"][0],
        ObjectId::from_parts(T0, a.r, 100).to_string()
    );
    assert_eq!(f["sources"], serde_json::json!(["s0", "s1"]));
    assert_eq!(f["runs"][0]["first_counter"], 100);
    assert!(f.get("step_seconds").is_none());
    assert_eq!(json["sources"][1]["ids"], 1);
    let back: Report = serde_json::from_value(json).unwrap();
    assert_eq!(back, r);
}

#[cfg(feature = "fixtures")]
#[test]
fn the_fixtures_find_what_they_say() {
    for s in oid_audit::fixtures::scenarios() {
        let r = audit(&s.ids, 2, Options::new(oid_audit::fixtures::NOW));
        assert_eq!(kinds(&r), s.kinds, "{}: {:#?}", s.name, r.findings);
        if let Some(f) = r.findings.first() {
            assert_eq!(f.random_values[0], s.random_value.unwrap(), "{}", s.name);
            assert_eq!(Some(f.first.second), s.first_second, "{}", s.name);
            let sources: Vec<String> = s.sources.iter().map(|i| format!("s{i}")).collect();
            assert_eq!(f.sources, sources, "{}", s.name);
        }
    }
}
