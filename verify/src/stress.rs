//! Stress checks of the generators: many threads, a counter wrap, and forks under load.
//!
//! Each check returns `Err` with what went wrong; the binary prints one line per check. Each
//! runs in its own process (`cargo xtask stress` starts one per check), so the ids of one
//! check never share a second with another check's in the process-wide counter.

use std::time::Instant;

use oid_core::{FixedClock, Generator, ObjectId};
use oid_std::Clock as _;

type Result<T = ()> = std::result::Result<T, String>;

/// Ids of one thread increase in (timestamp, counter distance from the thread's first counter,
/// mod 2^24), as long as fewer than 2^24 counter values pass during the check.
fn increasing(ids: &[[u8; 12]]) -> Result {
    let Some(first) = ids.first() else {
        return Ok(());
    };
    let first_counter = counter(first);
    let key = |b: &[u8; 12]| {
        (
            timestamp(b),
            counter(b).wrapping_sub(first_counter) & 0xff_ffff,
        )
    };
    for w in ids.windows(2) {
        if key(&w[0]) >= key(&w[1]) {
            return Err(format!(
                "not increasing within a thread: {} then {}",
                ObjectId::from_bytes(w[0]),
                ObjectId::from_bytes(w[1])
            ));
        }
    }
    Ok(())
}

/// Ids of one thread that may pass more than 2^24 counter values (past the capacity):
/// timestamps never decrease, and within each second the ids increase as in [`increasing`]
/// (one second holds fewer than 2^24 counter values).
fn increasing_per_second(ids: &[[u8; 12]]) -> Result {
    if let Some(w) = ids.windows(2).find(|w| timestamp(&w[0]) > timestamp(&w[1])) {
        return Err(format!(
            "timestamp went back within a thread: {} then {}",
            ObjectId::from_bytes(w[0]),
            ObjectId::from_bytes(w[1])
        ));
    }
    ids.chunk_by(|a, b| timestamp(a) == timestamp(b))
        .try_for_each(increasing)
}

const fn timestamp(b: &[u8; 12]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

const fn counter(b: &[u8; 12]) -> u32 {
    u32::from_be_bytes([0, b[9], b[10], b[11]])
}

const fn random(b: &[u8; 12]) -> [u8; 5] {
    [b[4], b[5], b[6], b[7], b[8]]
}

/// Sorts `all` and reports the first duplicate.
fn no_duplicates<T: Ord + Copy + std::fmt::Debug>(all: &mut [T]) -> Result {
    all.sort_unstable();
    match all.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(format!("duplicate id {:?}", w[0])),
        None => Ok(()),
    }
}

/// `threads` threads each make `per_thread` ids with `oid_std::new()`.
fn generate(threads: usize, per_thread: usize) -> Vec<Vec<[u8; 12]>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(move || {
                    let mut v = Vec::with_capacity(per_thread);
                    for _ in 0..per_thread {
                        v.push(oid_std::new().bytes());
                    }
                    v
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// 8 threads x 1,000,000 ids from `oid_std::new()`: no duplicate, one random value, and
/// increasing within each thread.
pub(crate) fn threads(threads: usize, per_thread: usize) -> Result<String> {
    let start = Instant::now();
    let per = generate(threads, per_thread);
    let made = start.elapsed();
    let mut all: Vec<[u8; 12]> = Vec::with_capacity(threads * per_thread);
    for ids in &per {
        if ids.len() != per_thread {
            return Err("a generating thread panicked".to_owned());
        }
        increasing(ids)?;
        all.extend_from_slice(ids);
    }
    let r = random(&all[0]);
    if let Some(other) = all.iter().find(|b| random(b) != r) {
        return Err(format!(
            "two random values in one process: {} and {}",
            ObjectId::from_bytes(all[0]),
            ObjectId::from_bytes(*other)
        ));
    }
    no_duplicates(&mut all)?;
    Ok(format!(
        "{} ids from {threads} threads, no duplicate, one random value, increasing per thread \
         (generated in {:.2}s, checked in {:.2}s)",
        all.len(),
        made.as_secs_f64(),
        start.elapsed().as_secs_f64() - made.as_secs_f64()
    ))
}

/// Past the capacity: `threads` threads make `total` ids with `oid_std::new()` as fast as they
/// can, far beyond the 2^24 ids that one second and one random value hold. No id may repeat,
/// no second may carry more than 2^24 ids of one random value, and while they keep one random
/// value the run must take as long as the capacity demands: it starts at a second boundary, so
/// 40 M ids (more than two seconds' 33.5 M) reach a third second, 2 s after the start. (A call
/// whose reading went stale, a second behind a spent newest one, moves on to a new random value
/// instead of waiting: `CapacityPolicy`'s rule.)
pub(crate) fn past_capacity(threads: usize, total: usize) -> Result<String> {
    const CAPACITY: usize = 1 << 24;
    // Start right after the coarse clock (the generator's) turns to a new second.
    let s0 = oid_std::new().timestamp();
    while oid_std::CoarseClock.unix_seconds() == Some(u64::from(s0)) {
        oid_std::CoarseClock.wait();
    }
    let start = Instant::now();
    let per = generate(threads, total / threads);
    let took = start.elapsed();
    let mut all: Vec<[u8; 12]> = Vec::with_capacity(total);
    for ids in &per {
        if ids.len() != total / threads {
            return Err("a generating thread panicked".to_owned());
        }
        increasing_per_second(ids)?;
        all.extend_from_slice(ids);
    }
    no_duplicates(&mut all)?;
    // Sorted: the ids of one second and random value are adjacent.
    let mut seconds = Vec::new();
    let key = |a: &[u8; 12]| (timestamp(a), random(a));
    for chunk in all.chunk_by(|a, b| key(a) == key(b)) {
        if chunk.len() > CAPACITY {
            return Err(format!(
                "{} ids in second {} of one random value: more than 2^24",
                chunk.len(),
                timestamp(&chunk[0])
            ));
        }
        seconds.push(chunk.len());
    }
    let randoms: std::collections::HashSet<[u8; 5]> = all.iter().map(random).collect();
    let full_seconds = all.len().div_ceil(CAPACITY);
    let least = (full_seconds - 1) as f64 - 0.1; // less the clock's tick and the wake-up
    if randoms.len() == 1 && took.as_secs_f64() < least {
        return Err(format!(
            "{} ids took {:.2}s: faster than 2^24 per second allows ({least:.1}s)",
            all.len(),
            took.as_secs_f64()
        ));
    }
    Ok(format!(
        "past capacity: {} ids from {threads} threads in {:.2}s (at least {least:.1}s), no \
         duplicate, ids per second and random value {seconds:?} (each <= 2^24), {} random \
         value(s)",
        all.len(),
        took.as_secs_f64(),
        randoms.len()
    ))
}

/// Forced wraps of the 24-bit counter.
///
/// 1. `oid_core::Generator` seeded 1,000,000 below the wrap, shared by 8 threads (mixing `next`
///    and `fill`), makes 2,000,000 ids: exactly the counters `start..start + 2,000,000` mod
///    2^24, each once, half of them after the wrap to 0.
/// 2. `oid_std::new()` from 8 threads, 16,768,000 ids in all, after moving the process counter
///    into its upper half: the run must pass 0xffffff -> 0, and stay unique, since it stays
///    within the documented bound (ids per second plus 255 per thread below 2^24).
pub(crate) fn wrap() -> Result<String> {
    // Part 1: the core generator, wrap forced by the seed.
    const START: u32 = 0x100_0000 - 1_000_000;
    const THREADS: usize = 8;
    const PER: usize = 250_000;
    let generator = Generator::from_seed(FixedClock::at(1_700_000_000), [1, 2, 3, 4, 5], START);
    let per: Vec<Vec<ObjectId>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let g = &generator;
                s.spawn(move || {
                    let mut v = vec![ObjectId::MIN; PER];
                    if t % 2 == 0 {
                        for chunk in v.chunks_mut(1000) {
                            g.fill(chunk);
                        }
                    } else {
                        for slot in &mut v {
                            *slot = g.next();
                        }
                    }
                    v
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut offsets: Vec<u32> = Vec::with_capacity(THREADS * PER);
    let mut wrapped = 0usize;
    for ids in &per {
        if ids.len() != PER {
            return Err("a generating thread panicked".to_owned());
        }
        let bytes: Vec<[u8; 12]> = ids.iter().map(ObjectId::bytes).collect();
        increasing(&bytes)?;
        for b in &bytes {
            if timestamp(b) != 1_700_000_000 || random(b) != [1, 2, 3, 4, 5] {
                return Err(format!(
                    "wrong time or random value in {}",
                    ObjectId::from_bytes(*b)
                ));
            }
            let c = counter(b);
            if c < START {
                wrapped += 1;
            }
            offsets.push(c.wrapping_sub(START) & 0xff_ffff);
        }
    }
    offsets.sort_unstable();
    if offsets.iter().enumerate().any(|(k, &o)| o != k as u32) {
        return Err(
            "core generator: counters are not exactly start..start+2,000,000 mod 2^24".into(),
        );
    }
    if wrapped != THREADS * PER - 1_000_000 {
        return Err(format!(
            "core generator: {wrapped} ids after the wrap, expected 1,000,000"
        ));
    }

    // Part 2: the process-wide generator. Move its counter into the upper half of its range.
    let c = counter(&oid_std::new().bytes());
    let burn = (0x80_0000u32.saturating_sub(c)) as usize;
    for _ in 0..burn {
        let _ = oid_std::new();
    }
    // Start in a fresh second, so the burnt counters do not count against the run's second.
    let s0 = oid_std::new().timestamp();
    while oid_std::new().timestamp() == s0 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    const STD_PER: usize = 2_096_000; // 8 x 2,096,000 + 8 x 255 < 2^24
    let start_counter = counter(&oid_std::new().bytes());
    let per = generate(THREADS, STD_PER);
    let mut keys: Vec<u64> = Vec::with_capacity(THREADS * STD_PER);
    let r = random(&oid_std::new().bytes());
    for ids in &per {
        if ids.len() != STD_PER {
            return Err("a generating thread panicked".to_owned());
        }
        increasing(ids)?;
        for b in ids {
            if random(b) != r {
                return Err("two random values in one process".to_owned());
            }
            keys.push((u64::from(timestamp(b)) << 24) | u64::from(counter(b)));
        }
    }
    // Fewer than 2^24 counter values were reserved since `start_counter` (the bound above),
    // so a counter below it was reserved after 0xffffff -> 0; at least 0x800000 - 1 of them
    // must be, since the run started in the upper half.
    let wrapped = keys
        .iter()
        .filter(|k| ((*k & 0xff_ffff) as u32) < start_counter)
        .count();
    if wrapped < THREADS * STD_PER - (0x100_0000 - start_counter as usize) {
        return Err(format!(
            "oid_std: the counter did not wrap (started at {start_counter:#08x})"
        ));
    }
    no_duplicates(&mut keys)?;
    Ok(format!(
        "core Generator: 2,000,000 ids from 8 threads across 0xffffff -> 0, every counter once; \
         oid_std::new(): {} ids from 8 threads across the wrap (counter started at {start_counter:#08x}, \
         {wrapped} ids after the wrap), no duplicate",
        keys.len()
    ))
}

/// Forks under load: worker threads keep making ids while the main thread forks `children`
/// children, each making `per_child` ids. Every child must get its own random value, and no id
/// may repeat across the parent and all children.
#[cfg(unix)]
pub(crate) fn fork_under_load(children: usize, per_child: usize) -> Result<String> {
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Ids per second per worker thread.
    const WORKER_RATE: f64 = 1_000_000.0;

    let parent_random = random(&oid_std::new().bytes());
    let stop = AtomicBool::new(false);
    // Workers count themselves in after their first burst, so the forks happen under load even
    // when forking is quick (small runs) and the threads are slow to be scheduled.
    let started_workers = std::sync::atomic::AtomicUsize::new(0);
    let mut all: Vec<[u8; 12]> = Vec::new();
    let mut randoms: Vec<[u8; 5]> = vec![parent_random];
    let mut main_ids: Vec<[u8; 12]> = Vec::new();
    let mut forking = std::time::Duration::ZERO;
    let workers: Vec<Vec<[u8; 12]>> = std::thread::scope(|s| -> Result<_> {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let stop = &stop;
                let started_workers = &started_workers;
                s.spawn(move || {
                    // Paced to WORKER_RATE ids per second in bursts of 16, spinning in
                    // between: the threads stay busy, and the process stays far below the
                    // format's 2^24 ids per second (beyond which repeats are expected).
                    let start = Instant::now();
                    let mut v = Vec::with_capacity(1 << 20);
                    loop {
                        for _ in 0..16 {
                            v.push(oid_std::new().bytes());
                        }
                        if v.len() == 16 {
                            started_workers.fetch_add(1, Ordering::Relaxed);
                        }
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let due = v.len() as f64 / WORKER_RATE;
                        while start.elapsed().as_secs_f64() < due {
                            std::hint::spin_loop();
                        }
                    }
                    v
                })
            })
            .collect();
        let waiting = Instant::now();
        while started_workers.load(Ordering::Relaxed) < 4
            && waiting.elapsed() < std::time::Duration::from_secs(10)
        {
            std::thread::yield_now();
        }
        let started = Instant::now();
        let result = (|| -> Result {
            for _ in 0..children {
                main_ids.push(oid_std::new().bytes());
                let ids = in_child(per_child)?;
                main_ids.push(oid_std::new().bytes());
                let r = random(&ids[0]);
                if ids.iter().any(|b| random(b) != r) {
                    return Err("a child made ids with two random values".to_owned());
                }
                increasing(&ids)?;
                randoms.push(r);
                all.extend_from_slice(&ids);
            }
            Ok(())
        })();
        forking = started.elapsed();
        stop.store(true, Ordering::Relaxed);
        let workers = handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect();
        result.map(|()| workers)
    })?;
    increasing(&main_ids)?;
    let mut under_load = 0;
    for ids in &workers {
        if ids.is_empty() {
            return Err("a worker thread made no id (or panicked)".to_owned());
        }
        increasing(ids)?;
        under_load += ids.len();
        all.extend_from_slice(ids);
    }
    all.extend_from_slice(&main_ids);
    if all.iter().any(|b| {
        let r = random(b);
        r != parent_random && !randoms[1..].contains(&r)
    }) {
        return Err("an id with a random value of no known process".to_owned());
    }
    let mut sorted = randoms.clone();
    no_duplicates(&mut sorted).map_err(|_| "two processes share a random value".to_owned())?;
    no_duplicates(&mut all)?;
    Ok(format!(
        "{children} children x {per_child} ids forked in {:.2}s while 4 threads made {under_load} ids \
         (paced at 1,000,000/s each): {} random values all distinct, {} ids, no duplicate",
        forking.as_secs_f64(),
        randoms.len(),
        all.len()
    ))
}

/// Forks a child that makes `n` ids and sends them back through a pipe.
#[cfg(unix)]
#[allow(unsafe_code)] // fork, pipe, write, waitpid, _exit: scaffolding for a real fork
fn in_child(n: usize) -> Result<Vec<[u8; 12]>> {
    use std::io::Read;
    use std::os::fd::FromRawFd;

    // Allocated before the fork: the child touches no allocator while other threads of the
    // parent may have held its locks at the moment of the fork.
    let mut buf: Vec<u8> = Vec::with_capacity(n * 12);
    let mut fds = [0; 2];
    // SAFETY: `fds` is an array of two ints for pipe(2) to fill.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err("pipe failed".to_owned());
    }
    // SAFETY: the child only makes ids, writes them to the pipe with write(2) from a buffer
    // allocated before the fork, and leaves with `_exit`; it never returns into our caller.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err("fork failed".to_owned());
    }
    if pid == 0 {
        // SAFETY: alarm(2) is async-signal-safe: a hung child is killed after 20 s instead
        // of hanging the check.
        unsafe { libc::alarm(20) };
        let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for _ in 0..n {
                buf.extend_from_slice(&oid_std::new().bytes());
            }
        })) {
            Ok(()) => {
                let mut off = 0;
                let mut code = 0;
                while off < buf.len() {
                    // SAFETY: writes the initialised bytes `buf[off..]` to the pipe's write end.
                    let w =
                        unsafe { libc::write(fds[1], buf[off..].as_ptr().cast(), buf.len() - off) };
                    if w <= 0 {
                        code = 102;
                        break;
                    }
                    off += w as usize;
                }
                code
            }
            Err(_) => 101,
        };
        // SAFETY: ends the child at once, running none of the parent's exit handlers.
        unsafe { libc::_exit(code) };
    }
    // SAFETY: the parent does not use the write end; closing it lets the read see EOF.
    unsafe { libc::close(fds[1]) };
    // SAFETY: the read end is ours alone from here on; the File closes it.
    let mut r = unsafe { std::fs::File::from_raw_fd(fds[0]) };
    let mut out = Vec::new();
    let read = r.read_to_end(&mut out);
    let mut status = 0;
    // SAFETY: `pid` is our child and `status` a valid int.
    let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
    read.map_err(|e| format!("reading from the child: {e}"))?;
    if waited != pid || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(format!("child failed with status {status:#x}"));
    }
    if out.len() != n * 12 {
        return Err(format!(
            "child sent {} bytes, expected {}",
            out.len(),
            n * 12
        ));
    }
    Ok(out
        .chunks_exact(12)
        .map(|c| {
            let mut b = [0u8; 12];
            b.copy_from_slice(c);
            b
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_helpers_catch_what_they_should() {
        let a = ObjectId::from_parts(10, [1; 5], 0xff_fffe).bytes();
        let b = ObjectId::from_parts(10, [1; 5], 0xff_ffff).bytes();
        let c = ObjectId::from_parts(10, [1; 5], 0).bytes();
        assert!(
            increasing(&[a, b, c]).is_ok(),
            "a wrap within a second is fine"
        );
        assert!(increasing(&[a, c, b]).is_err());
        let earlier = ObjectId::from_parts(9, [1; 5], 0xff_ffff).bytes();
        assert!(increasing(&[a, earlier]).is_err());
        assert!(increasing(&[a, a]).is_err());
        assert!(no_duplicates(&mut [c, a, b]).is_ok());
        // Past the capacity a thread passes more than 2^24 counter values: checked per second.
        // (Two seconds later the thread's counters pass its first one, 0xfffffe, again.)
        let later = [
            ObjectId::from_parts(12, [1; 5], 0xff_fffc).bytes(),
            ObjectId::from_parts(12, [1; 5], 0xff_ffff).bytes(),
        ];
        let run = [a, b, c, later[0], later[1]];
        assert!(
            increasing(&run).is_err(),
            "the distance from the first counter wraps"
        );
        assert!(increasing_per_second(&run).is_ok());
        assert!(increasing_per_second(&[later[0], a]).is_err());
        assert!(increasing_per_second(&[later[0], later[0]]).is_err());
        assert!(no_duplicates(&mut [c, a, b, a]).is_err());
    }

    #[test]
    fn small_runs_pass() {
        assert!(threads(3, 2000).is_ok());
        // Below the capacity: no wait needed, and the time check asks for nothing.
        let r = past_capacity(2, 20_000);
        assert!(r.is_ok(), "{r:?}");
        #[cfg(unix)]
        let r = fork_under_load(2, 100);
        assert!(r.is_ok(), "{r:?}");
    }
}
