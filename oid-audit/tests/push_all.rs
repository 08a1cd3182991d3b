//! `Audit::push_all` (ids added a slice at a time, runs at once) gives the same report as
//! `Audit::push` of each id, whatever the slices, the order and the memory budget.

// Helpers outside #[test] functions: unwrap on test data, and plain fns.
#![allow(clippy::unwrap_used, clippy::missing_const_for_fn)]

use oid_audit::{Audit, Options, Report};
use oid_core::ObjectId;

mod common;
use common::{NOW, Rng, T0, id};

fn one_at_a_time(ids: &[(ObjectId, usize)], opts: &Options) -> Report {
    let mut a = Audit::new(opts.clone());
    let srcs = [a.source("a"), a.source("b")];
    for (id, s) in ids {
        a.push(*id, srcs[*s]).unwrap();
    }
    a.finish().unwrap()
}

/// The ids in slices of at most `size`, each of one source.
fn in_slices(ids: &[(ObjectId, usize)], size: usize, opts: &Options) -> Report {
    let mut a = Audit::new(opts.clone());
    let srcs = [a.source("a"), a.source("b")];
    for group in ids.chunk_by(|x, y| x.1 == y.1) {
        let only: Vec<ObjectId> = group.iter().map(|(id, _)| *id).collect();
        for slice in only.chunks(size) {
            a.push_all(slice, srcs[group[0].1]).unwrap();
        }
    }
    a.finish().unwrap()
}

fn same_reports(name: &str, ids: &[(ObjectId, usize)]) {
    for opts in [
        Options::new(NOW),
        // The smallest budget: 64 open runs, a buffer of 1,024, spilled.
        Options::new(NOW).memory(0),
    ] {
        let expected = one_at_a_time(ids, &opts);
        assert_eq!(expected.summary.ids, ids.len() as u64, "{name}");
        for size in [1, 2, 7, 1000, usize::MAX] {
            let got = in_slices(ids, size, &opts);
            assert_eq!(got, expected, "{name}, slices of {size}");
        }
    }
}

#[test]
fn runs_of_one_generator_counter_wraps_and_new_seconds() {
    let mut ids = Vec::new();
    // Runs across a counter wrap, a new second, a value differing only in its last byte (the
    // byte next to the counter), and a carry out of the counter into that byte.
    for c in 0xff_fff0..0x100_0010_u32 {
        ids.push((id(T0 + c / 0x100_0000, 0x3f_2a91_c8d4, c), 0));
    }
    ids.push((id(T0 + 1, 0x3f_2a91_c8d5, 0x10), 0));
    ids.push((id(T0 + 1, 0x3f_2a91_c8d4, 0xff_ffff), 0));
    ids.push((id(T0 + 1, 0x3f_2a91_c8d5, 0), 0));
    ids.push((id(T0 + 1, 0x3f_2a91_c8d5, 1), 0));
    // The same run again in the other source (duplicates), and a clock step back.
    for c in 100..200 {
        ids.push((id(T0 + 5, 7, c), 0));
    }
    for c in 150..300 {
        ids.push((id(T0 + 5, 7, c), 1));
    }
    for c in 300..400 {
        ids.push((id(T0 + 4, 7, c), 1));
    }
    same_reports("runs", &ids);
}

#[test]
fn many_generators_interleaved_and_shuffled() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut gens: Vec<(u64, u32)> = (0..500)
        .map(|_| (rng.next() >> 24, rng.next() as u32))
        .collect();
    let mut ids = Vec::new();
    for t in T0..T0 + 20 {
        for _ in 0..3000 {
            let g = (rng.next() % gens.len() as u64) as usize;
            // Bursts: one generator makes a few ids in a row.
            for _ in 0..rng.next() % 5 {
                let (r, c) = &mut gens[g];
                ids.push((id(t, *r, *c), g % 2));
                *c = (*c + 1) & 0xff_ffff;
            }
        }
    }
    same_reports("interleaved", &ids);
    for i in (1..ids.len()).rev() {
        ids.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    same_reports("shuffled", &ids);
}

#[cfg(feature = "fixtures")]
#[test]
fn the_fixtures_in_slices() {
    for s in oid_audit::fixtures::scenarios() {
        same_reports(s.name, &s.ids);
    }
}
