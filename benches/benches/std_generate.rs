//! `oid_std::new()` against its peers, all in the same run: `bson::oid::ObjectId::new()`,
//! `uuid` v4 and v7, `ulid`. Single thread, two threads at once (total ids per second), the
//! clocks and fork checks the design rests on, and `serde_json` of a struct holding an id.
//!
//! Generation is timed **below the capacity**: one second holds 2^24 ids per process, and
//! past that `oid_std::new()` sleeps until the next second. So every generator (the peers too,
//! for the same measurement) runs in bursts of at most [`BURST`] ids, at most [`PER_SECOND`]
//! ids per second of the coarse clock in all, and only the bursts are timed; between bursts
//! that would pass the budget, the benchmark sleeps until the next second.
//!
//! `cargo bench -p oid-benches --bench std_generate -- --warm-up-time 1 --measurement-time 3`

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oid_core::Clock;
use oid_std::{CoarseClock, ObjectId, SystemClock};
use serde::{Deserialize, Serialize};

/// The largest burst timed at once.
const BURST: u64 = 1_000_000;
/// Ids per second (of the coarse clock) that the timed bursts may take, in all threads:
/// below the capacity with room for the unused rests of the threads' blocks and for a burst
/// that runs into the next second.
const PER_SECOND: u64 = 12_000_000;

/// The ids the timed bursts of this process took in one second of the coarse clock.
static BUDGET: Mutex<(Option<u64>, u64)> = Mutex::new((None, 0));

/// Takes `n` ids from the current second's budget (shared by every call and thread of the
/// process), sleeping until the next second when it has fewer left.
fn take_budget(n: u64) {
    loop {
        let now = CoarseClock.unix_seconds();
        {
            let mut b = BUDGET.lock().unwrap_or_else(|e| e.into_inner());
            if b.0 != now {
                *b = (now, 0);
            }
            if b.1 + n <= PER_SECOND {
                b.1 += n;
                return;
            }
        }
        while CoarseClock.unix_seconds() == now {
            CoarseClock.wait();
        }
    }
}

/// Runs `f` `iters` times in bursts of at most [`BURST`], within [`PER_SECOND`] per second of
/// the coarse clock for the whole process, and returns the time spent in the bursts alone.
fn bursts(f: fn(), iters: u64) -> Duration {
    let mut left = iters;
    let mut timed = Duration::ZERO;
    while left > 0 {
        let n = left.min(BURST);
        take_budget(n);
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        timed += start.elapsed();
        left -= n;
    }
    timed
}

/// The generators compared, by name.
fn peers() -> Vec<(&'static str, fn())> {
    vec![
        ("oid_std::new", || {
            black_box(oid_std::new());
        }),
        ("bson ObjectId::new", || {
            black_box(bson::oid::ObjectId::new());
        }),
        ("uuid new_v4", || {
            black_box(uuid::Uuid::new_v4());
        }),
        ("uuid now_v7", || {
            black_box(uuid::Uuid::now_v7());
        }),
        ("ulid Ulid::new", || {
            black_box(ulid::Ulid::new());
        }),
    ]
}

fn clocks(c: &mut Criterion) {
    let mut g = c.benchmark_group("clock and fork check");
    g.throughput(Throughput::Elements(1));
    g.bench_function("SystemTime::now", |b| {
        b.iter(|| black_box(SystemTime::now()))
    });
    g.bench_function("SystemClock (SystemTime seconds)", |b| {
        b.iter(|| black_box(SystemClock.unix_seconds()))
    });
    #[cfg(target_os = "linux")]
    g.bench_function("clock_gettime(CLOCK_REALTIME_COARSE)", |b| {
        b.iter(|| {
            let mut ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `ts` is a valid, writable timespec for the call.
            black_box(unsafe { libc::clock_gettime(libc::CLOCK_REALTIME_COARSE, &mut ts) });
            black_box(ts.tv_sec)
        })
    });
    g.bench_function("CoarseClock (time(NULL) on Linux)", |b| {
        b.iter(|| black_box(CoarseClock.unix_seconds()))
    });
    // A fork check by process id: one getpid() per id.
    g.bench_function("std::process::id (getpid)", |b| {
        b.iter(|| black_box(std::process::id()))
    });
    // A fork check by epoch (what oid_std does per id): one relaxed load of an atomic that only
    // changes in a forked child.
    static EPOCH: AtomicU32 = AtomicU32::new(0);
    g.bench_function("relaxed load (epoch check)", |b| {
        b.iter(|| black_box(EPOCH.load(Ordering::Relaxed)))
    });
    // What oid_std does per id since the wipe-on-fork page: the thread's block holds an
    // optional reference to the epoch word (on a page of its own; `None` before the first
    // block, so the thread-local initializer stays `const` on Rust 1.85), loaded and compared
    // with the block's epoch.
    static PAGE_WORD: AtomicU32 = AtomicU32::new(7);
    thread_local! {
        static BLOCK: (std::cell::Cell<Option<&'static AtomicU32>>, std::cell::Cell<u32>) =
            const { (std::cell::Cell::new(None), std::cell::Cell::new(7)) };
    }
    BLOCK.with(|(word, _)| word.set(Some(&PAGE_WORD)));
    g.bench_function(
        "thread-local word reference, load and compare (epoch check per id)",
        |b| {
            b.iter(|| {
                black_box(BLOCK.with(|(word, epoch)| {
                    word.get()
                        .is_some_and(|w| w.load(Ordering::Relaxed) == epoch.get())
                }))
            })
        },
    );
    g.finish();
}

fn single(c: &mut Criterion) {
    let mut g = c.benchmark_group("new, 1 thread, bursts under capacity");
    g.throughput(Throughput::Elements(1));
    g.sample_size(20);
    let mut all = peers();
    all.push(("oid_std::try_new", || {
        let _ = black_box(oid_std::try_new());
    }));
    all.push(("oid_std::legacy::new", || {
        black_box(oid_std::legacy::new());
    }));
    for (name, f) in all {
        g.bench_function(name, |b| b.iter_custom(|iters| bursts(f, iters)));
    }
    // Every id its own clone-divergent random value (getrandom, the CPU's random instruction,
    // the cycle counter and CLOCK_MONOTONIC_RAW per id): the cost against the default above.
    oid_std::set_snapshot_policy(oid_std::SnapshotPolicy::EveryId);
    g.bench_function("oid_std::new, SnapshotPolicy::EveryId", |b| {
        b.iter_custom(|iters| {
            bursts(
                || {
                    black_box(oid_std::new());
                },
                iters,
            )
        })
    });
    oid_std::set_snapshot_policy(oid_std::SnapshotPolicy::Signals);
    g.finish();
}

/// `threads` threads each run `f` `iters` times in bursts (sharing the per-second budget),
/// released together; the longest one's time in bursts.
fn run_threads(f: fn(), threads: usize, iters: u64) -> Duration {
    let barrier = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                bursts(f, iters)
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().unwrap_or_default())
        .max()
        .unwrap_or_default()
}

thread_local! {
    static LOCAL_COUNTER: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

static SHARED_COUNTER: AtomicU32 = AtomicU32::new(0);

fn threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("new, threads at once, bursts under capacity");
    g.sample_size(20);
    // Baselines: a thread-local counter shows how far two threads can scale on this
    // machine at this moment (2.0x on two idle cores, less when other work takes a core); a
    // shared relaxed fetch_add shows the collapse of one cache line bouncing between cores.
    let baselines: [(&str, fn()); 3] = [
        ("baseline: thread-local counter", || {
            LOCAL_COUNTER.with(|c| c.set(black_box(c.get() + 1)));
        }),
        ("baseline: shared fetch_add", || {
            black_box(SHARED_COUNTER.fetch_add(1, Ordering::Relaxed));
        }),
        // The clock oid_std::new reads per id, alone.
        ("baseline: CoarseClock", || {
            black_box(CoarseClock.unix_seconds());
        }),
    ];
    // One iteration is one id per thread: criterion's throughput is the total ids per second.
    for (name, f) in baselines.into_iter().chain(peers()) {
        for threads in [1usize, 2] {
            g.throughput(Throughput::Elements(threads as u64));
            g.bench_function(format!("{name}, {threads} thread(s)"), |b| {
                b.iter_custom(|iters| run_threads(f, threads, iters))
            });
        }
    }
    g.finish();
}

#[derive(Serialize, Deserialize)]
struct WithOid {
    id: ObjectId,
}

/// The same id written as the hex string without asking which serializer it is (what the
/// impl did before it followed `oid_core::serde::is_bson_serializer`): the floor for the rule's
/// cost.
#[derive(Serialize)]
struct WithHexOnly {
    #[serde(serialize_with = "hex_only")]
    id: ObjectId,
}

fn hex_only<S: serde::Serializer>(id: &ObjectId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(id.to_hex().as_str())
}

#[derive(Serialize, Deserialize)]
struct WithUuid {
    id: uuid::Uuid,
}

fn serde(c: &mut Criterion) {
    let mut g = c.benchmark_group("serde_json");
    g.throughput(Throughput::Elements(1));
    let ours = WithOid { id: oid_std::new() };
    let theirs = WithUuid {
        id: uuid::Uuid::new_v4(),
    };
    g.bench_function("to_string, oid_std ObjectId", |b| {
        b.iter(|| black_box(serde_json::to_string(black_box(&ours))))
    });
    g.bench_function("to_string, uuid Uuid", |b| {
        b.iter(|| black_box(serde_json::to_string(black_box(&theirs))))
    });
    let hex = WithHexOnly { id: ours.id };
    g.bench_function(
        "to_string, oid_std ObjectId as hex without the bson rule",
        |b| b.iter(|| black_box(serde_json::to_string(black_box(&hex)))),
    );
    g.bench_function("is_bson_serializer alone, serde_json's serializer", |b| {
        b.iter(|| {
            black_box(oid_core::serde::is_bson_serializer::<
                &mut serde_json::Serializer<&mut Vec<u8>>,
            >())
        })
    });
    let ours_json = serde_json::to_string(&ours).unwrap_or_default();
    let theirs_json = serde_json::to_string(&theirs).unwrap_or_default();
    g.bench_function("from_str, oid_std ObjectId", |b| {
        b.iter(|| black_box(serde_json::from_str::<WithOid>(black_box(&ours_json)).is_ok()))
    });
    g.bench_function("from_str, uuid Uuid", |b| {
        b.iter(|| black_box(serde_json::from_str::<WithUuid>(black_box(&theirs_json)).is_ok()))
    });
    g.finish();
}

criterion_group!(benches, clocks, single, threads, serde);
criterion_main!(benches);
