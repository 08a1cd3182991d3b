//! `oid_core::Generator` against hand-written floors (a relaxed `fetch_add` counter, and the
//! same with the clock read a generator does per id), measured in the same run.
//!
//! Generation is timed **below the capacity**: one second and one random value hold 2^24 ids,
//! and past that `Generator::next` waits for the clock. So every case here runs in bursts of at
//! most [`BURST`] (2^20) ids, and a [`ManualClock`] is advanced by one second before each burst
//! (untimed): the generator never reaches its capacity and never waits. The floors run in the
//! same bursts, so the loop structure is the same on both sides.
//!
//! `cargo bench -p oid-benches --bench core_generate -- --warm-up-time 1 --measurement-time 3`

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;
use std::sync::Barrier;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oid_core::{Clock, Generator, ManualClock, ObjectId};

/// The most ids timed in one burst, all within one second of the clock: 1/16 of the capacity.
const BURST: u64 = 1 << 20;

/// A fresh generator on its own manual clock (a 'static pair, so threads can share it).
fn generator() -> &'static Generator<&'static ManualClock> {
    let clock: &'static ManualClock = Box::leak(Box::new(ManualClock::at(1_700_000_000)));
    Box::leak(Box::new(Generator::from_seed(clock, [1, 2, 3, 4, 5], 0)))
}

/// Runs `f` `iters` times in bursts of at most [`BURST`], moving `clock` one second forward
/// before each burst; returns the time spent in the bursts alone.
fn bursts(clock: &ManualClock, iters: u64, mut f: impl FnMut()) -> Duration {
    let mut left = iters;
    let mut timed = Duration::ZERO;
    while left > 0 {
        let n = left.min(BURST);
        clock.advance(1);
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        timed += start.elapsed();
        left -= n;
    }
    timed
}

fn single(c: &mut Criterion) {
    let mut g = c.benchmark_group("core, 1 thread, bursts under capacity");
    g.throughput(Throughput::Elements(1));

    let floor_clock = ManualClock::at(1_700_000_000);
    let counter = AtomicU32::new(0);
    g.bench_function("floor: relaxed fetch_add", |b| {
        b.iter_custom(|iters| {
            bursts(&floor_clock, iters, || {
                black_box(counter.fetch_add(1, Ordering::Relaxed));
            })
        })
    });
    g.bench_function("floor: clock read + relaxed fetch_add", |b| {
        b.iter_custom(|iters| {
            bursts(&floor_clock, iters, || {
                black_box(floor_clock.unix_seconds());
                black_box(counter.fetch_add(1, Ordering::Relaxed));
            })
        })
    });

    let gen_next = generator();
    g.bench_function("Generator::next", |b| {
        b.iter_custom(|iters| {
            bursts(gen_next.clock(), iters, || {
                black_box(gen_next.next());
            })
        })
    });
    let gen_try = generator();
    g.bench_function("Generator::try_next", |b| {
        b.iter_custom(|iters| {
            bursts(gen_try.clock(), iters, || {
                let _ = black_box(gen_try.try_next());
            })
        })
    });
    g.finish();

    // `fill` of 1,000 ids: one iteration is 1,000 ids, so bursts of BURST / 1,000 iterations.
    let mut g = c.benchmark_group("core, fill, bursts under capacity");
    g.throughput(Throughput::Elements(1000));
    let gen_fill = generator();
    let mut out = vec![ObjectId::MIN; 1000];
    g.bench_function("Generator::fill 1000 ids", |b| {
        b.iter_custom(|iters| {
            let mut left = iters;
            let mut timed = Duration::ZERO;
            while left > 0 {
                let n = left.min(BURST / 1000);
                gen_fill.clock().advance(1);
                let start = Instant::now();
                for _ in 0..n {
                    gen_fill.fill(black_box(&mut out));
                    black_box(&out);
                }
                timed += start.elapsed();
                left -= n;
            }
            timed
        })
    });
    g.finish();
}

/// `threads` threads make `iters` ids each through `f`, in rounds of at most [`BURST`] ids in
/// all: the clock moves one second forward before each round, the threads start together and
/// the wall time from start to the last thread's end is timed.
fn run_threads(clock: &ManualClock, threads: usize, iters: u64, f: &(dyn Fn() + Sync)) -> Duration {
    let per_round = BURST / threads as u64;
    let rounds = iters.div_ceil(per_round);
    let start_line = Barrier::new(threads + 1);
    let finish_line = Barrier::new(threads + 1);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut left = iters;
                while left > 0 {
                    let n = left.min(per_round);
                    start_line.wait();
                    for _ in 0..n {
                        f();
                    }
                    finish_line.wait();
                    left -= n;
                }
            });
        }
        let mut timed = Duration::ZERO;
        for _ in 0..rounds {
            clock.advance(1);
            start_line.wait();
            let start = Instant::now();
            finish_line.wait();
            timed += start.elapsed();
        }
        timed
    })
}

fn threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("core, threads sharing one generator, bursts under capacity");
    // One iteration is one id per thread: criterion's throughput is the total ids per second.
    let floor_clock = ManualClock::at(1_700_000_000);
    let counter = AtomicU32::new(0);
    let generator = generator();
    for threads in [1usize, 2] {
        g.throughput(Throughput::Elements(threads as u64));
        g.bench_function(
            format!("floor: shared relaxed fetch_add, {threads} thread(s)"),
            |b| {
                b.iter_custom(|iters| {
                    run_threads(&floor_clock, threads, iters, &|| {
                        black_box(counter.fetch_add(1, Ordering::Relaxed));
                    })
                })
            },
        );
        g.bench_function(format!("Generator::next, {threads} thread(s)"), |b| {
            b.iter_custom(|iters| {
                run_threads(generator.clock(), threads, iters, &|| {
                    black_box(generator.next());
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, single, threads);
criterion_main!(benches);
