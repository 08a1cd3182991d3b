//! What a VMClock page that is not clean costs the process-wide generator, in one run: ids under
//! `SnapshotPolicy::EveryId` (every id a block refill, so every id reads the page) with the page
//! settled and with it stuck mid-update (its sequence count odd: each refill then reads it a
//! bounded 4 times and draws a new random value); the same for the default policy (a refill per
//! block of up to 256 ids), and both with no page at all; and the pieces: the 64 tries a refill spends on a page that has just
//! gone mid-update, and the `statx` of a missing path that a refill pays while it looks for a
//! page that is not there yet (every refill in a process's first 10 s, then once a second).
//!
//! The page is a file of the `vmclock_abi` layout named by `OID_STD_VMCLOCK` (the bench runs
//! itself again with the variable set, before its first id), toggled between the cases.
//!
//! `cargo bench -p oid-benches --bench vmclock -- --warm-up-time 1 --measurement-time 3`

#![allow(missing_docs)]

use std::hint::black_box;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use oid_core::Clock;
use oid_std::{CoarseClock, SnapshotPolicy};

const VARIABLE: &str = "OID_STD_VMCLOCK";

/// Ids per second of the coarse clock the default-policy bursts may take (below the 2^24
/// capacity, so no burst waits for the next second).
const PER_SECOND: u64 = 12_000_000;

fn write_page(path: &Path) -> std::io::Result<()> {
    let mut page = vec![0u8; 4096];
    page[0..4].copy_from_slice(&0x4b4c_4356u32.to_le_bytes()); // "VCLK"
    page[4..8].copy_from_slice(&4096u32.to_le_bytes());
    page[8..10].copy_from_slice(&1u16.to_le_bytes());
    page[24..32].copy_from_slice(&(1u64 << 8).to_le_bytes()); // VM_GEN_COUNTER_PRESENT
    page[104..112].copy_from_slice(&1u64.to_le_bytes());
    std::fs::write(path, page)
}

/// Sets the page's sequence count: odd is "mid-update".
fn set_seq(path: &Path, seq: u32) -> std::io::Result<()> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)?
        .write_all_at(&seq.to_le_bytes(), 12)
}

/// `n` ids of the process-wide generator, staying below the capacity of a second.
fn burst(n: u64) -> Duration {
    static SECOND: AtomicU64 = AtomicU64::new(0);
    static TAKEN: AtomicU64 = AtomicU64::new(0);
    let mut left = n;
    let mut spent = Duration::ZERO;
    while left > 0 {
        let now = CoarseClock.unix_seconds().unwrap_or(0);
        if SECOND.swap(now, Ordering::Relaxed) != now {
            TAKEN.store(0, Ordering::Relaxed);
        }
        let room = PER_SECOND.saturating_sub(TAKEN.load(Ordering::Relaxed));
        if room == 0 {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        let chunk = left.min(room).min(1_000_000);
        TAKEN.fetch_add(chunk, Ordering::Relaxed);
        let start = Instant::now();
        for _ in 0..chunk {
            black_box(oid_std::new());
        }
        spent += start.elapsed();
        left -= chunk;
    }
    spent
}

fn benches(c: &mut Criterion, page: &Path) -> std::io::Result<()> {
    let mut g = c.benchmark_group("vmclock page");
    g.throughput(Throughput::Elements(1));
    for (policy, name) in [
        (SnapshotPolicy::EveryId, "every-id"),
        (SnapshotPolicy::Signals, "signals"),
    ] {
        oid_std::set_snapshot_policy(policy);
        for (seq, state) in [(2, "settled"), (3, "mid-update")] {
            set_seq(page, seq)?;
            g.bench_function(format!("oid_std::new, {name}, page {state}"), |b| {
                b.iter_custom(burst);
            });
        }
    }
    set_seq(page, 2)?;
    // No page any more (removed; more than 10 s after the process's first look, so refills
    // look again at most once a second: the stat-free path of a process without a page).
    let kept = std::fs::read(page)?;
    std::fs::remove_file(page)?;
    for (policy, name) in [
        (SnapshotPolicy::EveryId, "every-id"),
        (SnapshotPolicy::Signals, "signals"),
    ] {
        oid_std::set_snapshot_policy(policy);
        g.bench_function(format!("oid_std::new, {name}, no page"), |b| {
            b.iter_custom(burst);
        });
    }
    std::fs::write(page, kept)?;
    oid_std::set_snapshot_policy(SnapshotPolicy::Signals);
    g.finish();

    let mut g = c.benchmark_group("vmclock pieces");
    // What a refill spends on a page that has just gone mid-update: 64 tries, each a load of
    // the sequence word and a spin-loop hint (the loop of oid-std's `VmClock::read_tries`).
    let word = AtomicU64::new(3u64 << 32);
    g.bench_function("64 tries on an odd sequence count", |b| {
        b.iter(|| {
            let mut settled = false;
            for _ in 0..64 {
                if (black_box(&word).load(Ordering::Acquire) >> 32) & 1 == 1 {
                    std::hint::spin_loop();
                    continue;
                }
                settled = true;
                break;
            }
            black_box(settled)
        });
    });
    let missing = std::env::temp_dir().join("oid-bench-no-vmclock-here");
    g.bench_function("statx of a missing path (a look for a page)", |b| {
        b.iter(|| black_box(std::fs::metadata(black_box(&missing)).is_ok()));
    });
    g.bench_function("statx of the page file (a refill's rename check)", |b| {
        b.iter(|| black_box(std::fs::metadata(black_box(page)).is_ok()));
    });
    g.finish();
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(page) = std::env::var_os(VARIABLE) else {
        // Run again with the page named before the first id (the process reads the variable at
        // its first look).
        let page = std::env::temp_dir().join(format!("oid-bench-vmclock-{}", std::process::id()));
        write_page(&page)?;
        let status = std::env::current_exe().and_then(|exe| {
            std::process::Command::new(exe)
                .args(std::env::args_os().skip(1))
                .env(VARIABLE, &page)
                .status()
        });
        let _ = std::fs::remove_file(&page);
        std::process::exit(status?.code().unwrap_or(1));
    };
    let page = std::path::PathBuf::from(page);
    assert_eq!(
        oid_std::diagnostics::report().vmclock.status,
        oid_std::diagnostics::VmClockStatus::Active,
        "the page at {}",
        page.display()
    );
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c, &page)?;
    c.final_summary();
    Ok(())
}
