//! The process generator's `new()` path (`next_in` with a thread's own block, as `new()` runs
//! it) under a faked wall clock that steps while 8 threads generate: no call waits longer than
//! the rest of the second it found spent (plus scheduling slack), and nothing repeats.
//!
//! The clock is real time plus an offset in nanoseconds, so sub-second steps are real: a step
//! of 1.5 s back reads as "1 s back" in whole seconds. Its `wait` sleeps until its own next
//! second, as `CoarseClock::wait` does. A controller thread plays a burst: every 100 ms (and
//! right before each step) it reserves all that is left of the second the clock reads, so
//! the threads keep meeting spent seconds, before and after the steps.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering::SeqCst};
use std::time::{Duration, Instant};

use oid_core::__private::IdBlock;

use super::*;

const T: i64 = 1_700_000_000;
const SEC: i64 = 1_000_000_000;
const MS: i64 = 1_000_000;
const THREADS: usize = 8;
/// The longest a single call may take: the rest of a second, plus scheduling slack.
const BOUND: Duration = Duration::from_millis(1_200);

/// A wall clock that follows real time from `start` (Unix nanoseconds), plus the steps made.
struct Stepped {
    base: Instant,
    start: i64,
    offset: AtomicI64,
}

impl Stepped {
    fn at(start: i64) -> Stepped {
        Stepped {
            base: Instant::now(),
            start,
            offset: AtomicI64::new(0),
        }
    }

    fn nanos(&self) -> i64 {
        self.start + self.base.elapsed().as_nanos() as i64 + self.offset.load(SeqCst)
    }

    fn step(&self, nanos: i64) {
        self.offset.fetch_add(nanos, SeqCst);
    }
}

impl Clock for Stepped {
    fn unix_seconds(&self) -> Option<u64> {
        u64::try_from(self.nanos().div_euclid(SEC)).ok()
    }

    /// Until this clock's next second, as `SystemClock`'s and `CoarseClock`'s waits.
    fn wait(&self) {
        let left = SEC - self.nanos().rem_euclid(SEC);
        std::thread::sleep(Duration::from_nanos(left as u64));
    }
}

/// What one scenario saw.
struct Outcome {
    ids: usize,
    longest: Duration,
    /// Calls that took more than 100 ms (they waited).
    waited: usize,
    randoms: usize,
}

/// Runs 8 generating threads for `total_ms` on a clock starting at `T + start_ms`; at each
/// `(at_ms, step_ms)` the controller spends the second the clock reads, then steps the clock.
fn scenario(name: &str, start_ms: i64, steps: &[(u64, i64)], total_ms: u64) -> Outcome {
    let s = shared(GuardKind::WipeOnFork);
    let clock = Stepped::at(T * SEC + start_ms * MS);
    let stop = AtomicBool::new(false);
    let began = Instant::now();
    let mut blocks: Vec<IdBlock> = Vec::new();
    let spend = |blocks: &mut Vec<IdBlock>| {
        let reading = clock.unix_seconds().map(|secs| secs as u32);
        if let Ok(b) = s.ids.reserve(reading, CAPACITY) {
            blocks.push(b);
        }
    };
    let per_thread: Vec<(Vec<ObjectId>, Duration, usize)> = std::thread::scope(|t| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                t.spawn(|| {
                    let l = Local::new();
                    let (mut ids, mut longest, mut waited) = (Vec::new(), Duration::ZERO, 0);
                    while !stop.load(SeqCst) {
                        let t0 = Instant::now();
                        let id = lenient(&s, &l, &clock);
                        let took = t0.elapsed();
                        longest = longest.max(took);
                        waited += usize::from(took > Duration::from_millis(100));
                        ids.push(id);
                        std::thread::sleep(Duration::from_micros(20));
                    }
                    (ids, longest, waited)
                })
            })
            .collect();
        let mut next_step = 0;
        let mut next_burst = 100;
        loop {
            let now = began.elapsed().as_millis() as u64;
            if now >= total_ms {
                break;
            }
            if let Some(&(at, step)) = steps.get(next_step) {
                if now >= at {
                    spend(&mut blocks);
                    clock.step(step * MS);
                    next_step += 1;
                }
            }
            if now >= next_burst {
                spend(&mut blocks);
                next_burst += 100;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        stop.store(true, SeqCst);
        assert_eq!(next_step, steps.len(), "{name}: every step made");
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let end = clock.unix_seconds().unwrap() as u32;
    let mut all: Vec<ObjectId> = Vec::new();
    let (mut longest, mut waited) = (Duration::ZERO, 0);
    for (ids, l, w) in per_thread {
        // Ids carry the clock's time again by the end (none stuck at a stale second).
        let last = ids.last().expect("every thread made ids").timestamp();
        assert!(
            last.abs_diff(end) <= 1,
            "{name}: a thread's last id is at {last}, the clock at {end}"
        );
        all.extend(ids);
        longest = longest.max(l);
        waited += w;
    }
    let randoms: HashSet<[u8; 5]> = all.iter().map(|id| id.to_parts().random).collect();
    let n = all.len();
    all.sort_unstable();
    assert!(
        all.windows(2).all(|w| w[0] != w[1]),
        "{name}: a repeated id"
    );
    // Nor any id of the controller's blocks.
    for id in &all {
        let p = id.to_parts();
        for b in &blocks {
            let inside = (p.timestamp, p.random) == (b.timestamp(), b.random())
                && (p.counter.wrapping_sub(b.first()) & 0xff_ffff) < b.len();
            assert!(!inside, "{name}: {id} is also in a block of the burst");
        }
    }
    assert!(
        longest <= BOUND,
        "{name}: a call took {longest:?} (at most the rest of a second, plus slack)"
    );
    println!(
        "{name}: {n} ids, {} random values, {waited} calls waited, longest {longest:?}",
        randoms.len()
    );
    Outcome {
        ids: n,
        longest,
        waited,
        randoms: randoms.len(),
    }
}

#[test]
#[cfg_attr(miri, ignore = "threads and real time")]
fn no_call_waits_past_its_second_whatever_the_clock_steps() {
    // Steps back right after the burst spent the clock's second, at the phase (fraction of
    // that second) where the old rule waited longest. Landing in the spent second itself
    // (0.5 s back at 0.9): the one wait, to that second's end (0.6 s). Landing in the second
    // before it (0.5 s back at 0.2, 1 s at 0.1, 1.5 s at 0.6: "1 s back" in whole seconds):
    // the old rule waited for the spent second to come round again, 1.3 s to 1.9 s here; now
    // a new random value at once. 2.5 s and an hour back: a new value at the clock's second.
    for (name, phase_ms, back_ms) in [
        ("0.5 s back at 0.9", 900, 500),
        ("0.5 s back at 0.2", 200, 500),
        ("1 s back at 0.1", 100, 1_000),
        ("1.5 s back at 0.6", 600, 1_500),
        ("2.5 s back at 0.1", 100, 2_500),
        ("1 h back at 0.5", 500, 3_600_000),
    ] {
        let o = scenario(name, phase_ms - 100, &[(100, -back_ms)], 1_400);
        assert!(o.ids > 0 && o.longest <= BOUND);
        if phase_ms >= back_ms {
            // The spent second read by the clock itself: calls did wait, to its end only.
            assert!(o.waited > 0, "{name}: nothing waited");
        } else {
            // The step left the spent second behind: a new value at once.
            assert!(o.randoms >= 2, "{name}: no new random value");
        }
    }
    // Forward 1.5 s (the threads open that second, the burst spends it), then back.
    scenario(
        "1.5 s forward, then back",
        800,
        &[(100, 1_500), (400, -1_500)],
        1_400,
    );
    // Oscillation of 0.6 s around a second's boundary, every 60 ms, the burst spending
    // whichever second the clock reads.
    let swings: Vec<(u64, i64)> = (1..20)
        .map(|k| (k * 60, if k % 2 == 1 { 600 } else { -600 }))
        .collect();
    scenario("+-0.6 s around a boundary", 700, &swings, 1_400);
}
