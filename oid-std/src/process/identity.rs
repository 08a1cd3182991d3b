//! The process's identity and shared state: who drew the random value (epoch, process id),
//! the two id spaces, the restore signals ([`Signals`]), and seeding from the OS random source
//! or the fallback mix.

use std::hash::{DefaultHasher, Hasher};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64};
use std::time::SystemTime;

use oid_core::{CapacityPolicy, Entropy, IdSpace};

use super::{Mode, SHARED};
use crate::fork::{Guard, GuardKind};
use crate::snapshot::{Getrandom, Signals, SnapshotPolicy};

/// The process's identity: drawn once per process (again in a child); its random value is in
/// `Shared::ids`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Identity {
    /// Drawn from the fallback mix, not from the OS random source.
    pub(crate) weak: bool,
    /// The process id when it was drawn (the legacy layout's process id).
    #[cfg_attr(not(feature = "legacy"), allow(dead_code, reason = "used by `legacy`"))]
    pub(crate) pid: u32,
    /// The epoch it belongs to (never 0).
    pub(crate) epoch: u32,
    pub(crate) guard: Guard,
}

pub(crate) struct Shared {
    /// `(epoch << 32) | pid` of the identity below; 0 before the first.
    pub(super) owner: AtomicU64,
    /// The identity's random value came from the fallback mix.
    pub(super) weak: AtomicBool,
    /// The ids' random value, counter and capacity window.
    pub(super) ids: IdSpace,
    /// The legacy layout's counter and capacity window.
    pub(crate) legacy_ids: IdSpace,
    /// The last epoch number handed out. In ordinary memory: a child continues from its
    /// parent's number.
    pub(super) last_epoch: AtomicU32,
    /// `None`: the process's guard ([`crate::fork::process_guard`]); tests give their own.
    pub(super) guard: Option<Guard>,
    /// What block refills read to see a restore or a clone.
    pub(super) signals: Signals,
    /// The [`SnapshotPolicy`] as a number.
    pub(super) snapshot_policy: AtomicU8,
    /// The OS random source for new random values (a test double in the clone harness).
    pub(super) getrandom: Getrandom,
}

impl Shared {
    pub(super) const fn new(guard: Option<Guard>) -> Shared {
        Shared {
            owner: AtomicU64::new(0),
            weak: AtomicBool::new(false),
            ids: IdSpace::new([0; 5], 0),
            // Its random value is not in the ids (the machine and process ids are), so a new
            // one would not be a new id space: never change it.
            legacy_ids: IdSpace::new([0; 5], 0).with_policy(CapacityPolicy::Fixed),
            last_epoch: AtomicU32::new(0),
            guard,
            signals: Signals::new(),
            snapshot_policy: AtomicU8::new(0),
            getrandom: crate::snapshot::os_getrandom,
        }
    }

    /// With a VMClock page watch of the test's own, not the process's.
    #[cfg(test)]
    pub(crate) const fn with_watch(mut self, watch: &'static crate::snapshot::PageWatch) -> Shared {
        self.signals.watch = Some(watch);
        self
    }

    /// With an OS random source of the test's own.
    #[cfg(test)]
    pub(crate) const fn with_getrandom(mut self, getrandom: Getrandom) -> Shared {
        self.getrandom = getrandom;
        self
    }

    pub(crate) fn snapshot_policy(&self) -> SnapshotPolicy {
        SnapshotPolicy::from_u8(self.snapshot_policy.load(Relaxed))
    }

    pub(crate) fn set_snapshot_policy(&self, policy: SnapshotPolicy) {
        self.snapshot_policy.store(policy.to_u8(), Relaxed);
    }

    /// A new clone-divergent random value for the ids, and a new epoch, so that every thread
    /// drops its block before its next id: what [`crate::reseed`] does. Safe while other
    /// threads generate; nothing to do before the process's first id (that draw is
    /// clone-divergent already).
    pub(crate) fn reseed_now(&self) {
        let g = self.guard();
        let me = std::process::id();
        loop {
            let holder = g.lock.load(Relaxed);
            if holder != me
                && g.lock
                    .compare_exchange(holder, me, Acquire, Relaxed)
                    .is_ok()
            {
                break;
            }
            std::thread::yield_now();
        }
        if let Some(owner) = self.current_owner(&g) {
            self.rotate_fresh();
            let epoch = self.next_epoch();
            // The owner word first: a thread that sees the new epoch word then finds its
            // owner (and one that sees the owner word first waits for the lock).
            self.owner
                .store((u64::from(epoch) << 32) | (owner & 0xffff_ffff), Release);
            g.epoch.store(epoch, Release);
        }
        g.lock.store(0, Release);
    }

    /// The next epoch number (never 0).
    pub(super) fn next_epoch(&self) -> u32 {
        loop {
            let e = self.last_epoch.fetch_add(1, Relaxed).wrapping_add(1);
            if e != 0 {
                return e;
            }
        }
    }

    pub(super) fn guard(&self) -> Guard {
        match self.guard {
            Some(g) => g,
            None => crate::fork::process_guard(),
        }
    }

    /// The owner word, if it describes an identity of this process.
    #[inline]
    pub(super) fn current_owner(&self, g: &Guard) -> Option<u64> {
        let epoch = g.epoch.load(Acquire);
        let owner = self.owner.load(Acquire);
        let ok = epoch != 0
            && (owner >> 32) as u32 == epoch
            && (g.kind != GuardKind::Pid || owner as u32 == std::process::id());
        ok.then_some(owner)
    }

    /// Moves the ids to a fresh, clone-divergent random value.
    #[cold]
    pub(super) fn rotate_fresh(&self) {
        self.ids.rotate(self.fresh_random());
    }

    /// A fresh random value that differs between clones: `getrandom` (the fallback mix if it
    /// fails) mixed with what is not in a VM's memory ([`crate::snapshot::mix_divergent`]).
    pub(super) fn fresh_random(&self) -> [u8; 5] {
        let mut fresh = [0u8; 5];
        if (self.getrandom)(&mut fresh).is_err() {
            fallback_fill(&mut fresh);
        }
        crate::snapshot::mix_divergent(&mut fresh);
        fresh
    }

    /// This process's identity, drawing it from `entropy` first if needed.
    pub(crate) fn identity<M: Mode>(
        &self,
        entropy: &mut impl Entropy,
    ) -> Result<Identity, M::Error> {
        let g = self.guard();
        loop {
            if let Some(owner) = self.current_owner(&g) {
                let weak = self.weak.load(Relaxed);
                if weak {
                    M::weak_seed()?;
                }
                return Ok(Identity {
                    weak,
                    pid: owner as u32,
                    epoch: (owner >> 32) as u32,
                    guard: g,
                });
            }
            // The lock holds the holder's process id: a value copied from a parent (possible
            // only with `GuardKind::Pid`, where nothing clears it in the child) is free.
            let me = std::process::id();
            let holder = g.lock.load(Relaxed);
            if holder != me
                && g.lock
                    .compare_exchange(holder, me, Acquire, Relaxed)
                    .is_ok()
            {
                let outcome = self.draw_identity::<M>(&g, entropy);
                g.lock.store(0, Release);
                outcome?;
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Draws this process's identity while holding the guard's lock.
    #[cold]
    pub(super) fn draw_identity<M: Mode>(
        &self,
        g: &Guard,
        entropy: &mut impl Entropy,
    ) -> Result<(), M::Error> {
        if self.current_owner(g).is_some() {
            return Ok(()); // someone else was quicker
        }
        let mut buf = [0u8; 11];
        let weak = match entropy.fill(&mut buf) {
            Ok(()) => false,
            Err(e) => {
                M::no_entropy(e)?;
                fallback_fill(&mut buf);
                true
            }
        };
        // A process restored from a snapshot taken before its first id draws here, maybe from
        // the same kernel random state as its other copies: mix in what differs between them.
        crate::snapshot::mix_divergent(&mut buf);
        self.weak.store(weak, Relaxed);
        self.signals.note_generation();
        self.ids.reseed(
            [buf[0], buf[1], buf[2], buf[3], buf[4]],
            u32::from_be_bytes([0, buf[5], buf[6], buf[7]]),
        );
        self.legacy_ids
            .reseed([0; 5], u32::from_be_bytes([0, buf[8], buf[9], buf[10]]));
        let epoch = self.next_epoch();
        self.owner.store(
            (u64::from(epoch) << 32) | u64::from(std::process::id()),
            Release,
        );
        g.epoch.store(epoch, Release);
        Ok(())
    }
}

/// The last resort when the OS random source fails and `new()` must still answer: a hash of
/// the time in nanoseconds, the process id and a few addresses (which differ per run where the
/// OS randomises them). Unique enough to keep processes apart; not unpredictable.
pub(super) fn fallback_fill(buf: &mut [u8]) {
    let mut h = DefaultHasher::new();
    if let Ok(d) = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH) {
        h.write_u128(d.as_nanos());
    }
    h.write_u32(std::process::id());
    h.write_usize(buf.as_ptr() as usize);
    h.write_usize(fallback_fill as fn(&mut [u8]) as usize);
    h.write_usize(&SHARED as *const _ as usize);
    for (i, chunk) in buf.chunks_mut(8).enumerate() {
        h.write_usize(i);
        let v = h.finish().to_be_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}
