//! The generator against one relaxed `fetch_add`, measured in the same run.
//!
//! `cargo bench -p oid-core --bench generate`

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oid_core::{Clock, Generator, ObjectId};

/// A trivial clock: a constant the optimiser cannot see through.
struct Trivial(u64);
impl Clock for Trivial {
    #[inline]
    fn unix_seconds(&self) -> Option<u64> {
        Some(black_box(self.0))
    }
}

fn single(c: &mut Criterion) {
    let mut g = c.benchmark_group("single");
    g.throughput(Throughput::Elements(1));
    let counter = AtomicU32::new(0);
    g.bench_function("relaxed fetch_add (baseline)", |b| {
        b.iter(|| black_box(counter.fetch_add(1, Ordering::Relaxed)))
    });
    let generator = Generator::from_seed(Trivial(1_700_000_000), [1, 2, 3, 4, 5], 0);
    g.bench_function("Generator::next", |b| {
        b.iter(|| black_box(generator.next()))
    });
    g.bench_function("Generator::try_next", |b| {
        b.iter(|| black_box(generator.try_next()))
    });
    g.finish();

    let mut g = c.benchmark_group("fill");
    g.throughput(Throughput::Elements(1000));
    let mut out = vec![ObjectId::MIN; 1000];
    g.bench_function("Generator::fill 1000 ids", |b| {
        b.iter(|| {
            generator.fill(black_box(&mut out));
            black_box(&out);
        })
    });
    g.finish();
}

/// `threads` threads each make `per_thread` ids with one shared generator; the wall time.
fn run_threads(generator: &Generator<Trivial>, threads: usize, per_thread: u64) -> Duration {
    std::thread::scope(|s| {
        let start = Instant::now();
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(move || {
                    for _ in 0..per_thread {
                        black_box(generator.next());
                    }
                })
            })
            .collect();
        for h in handles {
            let _ = h.join();
        }
        start.elapsed()
    })
}

fn threads(c: &mut Criterion) {
    let generator = Generator::from_seed(Trivial(1_700_000_000), [1, 2, 3, 4, 5], 0);
    let mut g = c.benchmark_group("shared");
    // Each iteration is one id per thread, so time/iteration is the wall time for `threads` ids;
    // criterion's throughput is then total ids per second.
    for threads in [1usize, 2] {
        g.throughput(Throughput::Elements(threads as u64));
        g.bench_function(format!("Generator::next, {threads} thread(s)"), |b| {
            b.iter_custom(|iters| run_threads(&generator, threads, iters))
        });
    }
    g.finish();
}

criterion_group!(benches, single, threads);
criterion_main!(benches);
