//! `oid_std::new()` of commit `a179c62`, before its counter blocks were built on
//! `oid_core::IdSpace`: the thread-local block of the process generator (one relaxed epoch
//! load per id, the clock reading as the block's key), refilled from its own copy of the
//! capacity rule (`oid-std/src/window.rs` of that commit). The identity (random value, epoch)
//! is fixed at first use and never redrawn (no fork, no entropy failure in a benchmark): for the
//! side-by-side runs of `std_generate` only.

use std::cell::Cell;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed};
use std::sync::atomic::{AtomicU32, AtomicU64};

use oid_core::{Clock, ObjectId};
use oid_std::CoarseClock;

const CAPACITY: u32 = 1 << 24;
const UNOPENED: u64 = u64::MAX;
const MAX_BLOCK: u32 = 256;
const NO_READING: u64 = u64::MAX;

/// `window.rs`'s counter and window.
struct Counter {
    next: AtomicU32,
    window: AtomicU64,
}

const fn later(now: u32, secs: u32) -> bool {
    (now.wrapping_sub(secs) as i32) > 0
}

impl Counter {
    fn reserve(&self, reading: Option<u32>, want: u32) -> Option<(u32, u32, u32)> {
        loop {
            let window = self.window.load(Acquire);
            let (secs, start) = ((window >> 32) as u32, window as u32);
            let secs = match reading {
                Some(now) if window == UNOPENED || later(now, secs) => {
                    self.open(window, now);
                    continue;
                }
                Some(_) => secs,
                None if window == UNOPENED => {
                    self.open(window, 0);
                    continue;
                }
                None => secs,
            };
            let mut c = self.next.load(Relaxed);
            let taken = loop {
                let left = CAPACITY.saturating_sub(c.wrapping_sub(start));
                if left == 0 {
                    if self.window.load(Acquire) == window {
                        return None;
                    }
                    break None;
                }
                let n = want.min(left);
                match self
                    .next
                    .compare_exchange_weak(c, c.wrapping_add(n), AcqRel, Relaxed)
                {
                    Ok(_) => break Some(n),
                    Err(now) => c = now,
                }
            };
            if let Some(len) = taken {
                if self.window.load(Acquire) == window {
                    return Some((secs, c, len));
                }
            }
        }
    }

    #[cold]
    fn open(&self, seen: u64, secs: u32) {
        let start = self.next.load(Acquire);
        let mut window = (u64::from(secs) << 32) | u64::from(start);
        if window == UNOPENED {
            window -= 1;
        }
        let _ = self.window.compare_exchange(seen, window, AcqRel, Acquire);
    }
}

#[repr(align(128))]
struct Shared {
    owner: AtomicU64,
    random: AtomicU64,
    counter: Counter,
}

static SHARED: Shared = Shared {
    owner: AtomicU64::new((1 << 32) | 1),
    random: AtomicU64::new(0x0001_0203_0405),
    counter: Counter {
        next: AtomicU32::new(0),
        window: AtomicU64::new(UNOPENED),
    },
};
static EPOCH: AtomicU32 = AtomicU32::new(1);

struct Local {
    guard: Cell<Option<&'static AtomicU32>>,
    epoch: Cell<u32>,
    reading: Cell<u64>,
    secs: Cell<u32>,
    random_hi: Cell<u32>,
    random_lo: Cell<u32>,
    next: Cell<u32>,
    left: Cell<u32>,
    size: Cell<u32>,
}

thread_local! {
    static LOCAL: Local = const {
        Local {
            guard: Cell::new(None),
            epoch: Cell::new(0),
            reading: Cell::new(NO_READING),
            secs: Cell::new(0),
            random_hi: Cell::new(0),
            random_lo: Cell::new(0),
            next: Cell::new(0),
            left: Cell::new(0),
            size: Cell::new(0),
        }
    };
}

#[inline(always)]
fn make(secs: u32, random_hi: u32, random_lo: u32, counter: u32) -> ObjectId {
    let head = ((u64::from(secs) << 32) | u64::from(random_hi)).to_be_bytes();
    let tail = (random_lo | (counter & 0x00ff_ffff)).to_be_bytes();
    ObjectId::from_bytes([
        head[0], head[1], head[2], head[3], head[4], head[5], head[6], head[7], tail[0], tail[1],
        tail[2], tail[3],
    ])
}

/// The `oid_std::new()` of commit `a179c62` (see the module docs).
#[inline]
pub fn new() -> ObjectId {
    let reading = match CoarseClock.unix_seconds() {
        Some(secs) => u64::from(secs as u32),
        None => NO_READING,
    };
    if let Ok(Some(id)) = LOCAL.try_with(|l| take(l, reading)) {
        return id;
    }
    slow(reading)
}

#[inline(always)]
fn take(l: &Local, reading: u64) -> Option<ObjectId> {
    let left = l.left.get();
    if left != 0
        && l.guard
            .get()
            .is_some_and(|g| g.load(Relaxed) == l.epoch.get())
        && (l.reading.get() == reading || reading == NO_READING)
    {
        let c = l.next.get();
        l.next.set(c.wrapping_add(1));
        l.left.set(left - 1);
        Some(make(l.secs.get(), l.random_hi.get(), l.random_lo.get(), c))
    } else {
        None
    }
}

#[cold]
#[inline(never)]
fn slow(reading: u64) -> ObjectId {
    LOCAL
        .try_with(|l| refill(l, reading))
        .unwrap_or(ObjectId::MIN)
}

#[cold]
#[inline(never)]
fn refill(l: &Local, mut reading: u64) -> ObjectId {
    // The identity check of `Shared::identity` (epoch and owner words).
    let epoch = EPOCH.load(Acquire);
    let owner = SHARED.owner.load(Acquire);
    let v = SHARED.random.load(Relaxed).to_be_bytes();
    debug_assert_eq!((owner >> 32) as u32, epoch);
    let want = if l.left.get() == 0 && l.reading.get() == reading && l.epoch.get() == epoch {
        (l.size.get() * 2).clamp(1, MAX_BLOCK)
    } else {
        1
    };
    let (secs, first, len) = loop {
        let r = (reading != NO_READING).then_some(reading as u32);
        match SHARED.counter.reserve(r, want) {
            Some(r) => break r,
            None => {
                CoarseClock.wait();
                reading = CoarseClock
                    .unix_seconds()
                    .map_or(NO_READING, |s| u64::from(s as u32));
            }
        }
    };
    let hi = u32::from_be_bytes([v[3], v[4], v[5], v[6]]);
    let lo = u32::from(v[7]) << 24;
    l.guard.set(Some(&EPOCH));
    l.epoch.set(epoch);
    l.reading.set(reading);
    l.secs.set(secs);
    l.random_hi.set(hi);
    l.random_lo.set(lo);
    l.next.set(first.wrapping_add(1));
    l.left.set(len - 1);
    l.size.set(want);
    make(secs, hi, lo, first)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_thread_takes_consecutive_ids() {
        let ids: Vec<_> = (0..1000).map(|_| super::new()).collect();
        assert!(ids.windows(2).all(|w| w[0] != w[1]));
        assert_eq!(ids[0].to_parts().random, [1, 2, 3, 4, 5]);
    }
}
