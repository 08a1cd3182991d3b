//! The process's identity and shared state: who drew the random value (epoch, process id),
//! the two id spaces, seeding from the OS random source or the fallback mix, and the snapshot
//! signals read at a refill.

#[allow(
    clippy::wildcard_imports,
    reason = "one module split by concern: the parent's names"
)]
use super::*;

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
    pub(super) legacy_ids: IdSpace,
    /// The last epoch number handed out. In ordinary memory: a child continues from its
    /// parent's number.
    pub(super) last_epoch: AtomicU32,
    /// `None`: the process's guard ([`crate::fork::process_guard`]); tests give their own.
    pub(super) guard: Option<Guard>,
    /// The wall clock's second minus the elapsed clock's (wrapping, 32 bits) at the last
    /// refill that read both, or `NO_OFFSET`.
    pub(super) offset: AtomicU64,
    /// Where the VMClock page comes from: `None`, the process's (`/dev/vmclock0` or
    /// `OID_STD_VMCLOCK`); tests give their own.
    pub(super) watch: Option<&'static PageWatch>,
    /// The raw VMClock generation word the ids' random value was drawn (or last checked) under:
    /// the last one read consistently (a torn read records nothing), once `vmgen_known`.
    pub(super) vmgen: AtomicU64,
    pub(super) vmgen_known: AtomicBool,
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
            offset: AtomicU64::new(NO_OFFSET),
            watch: None,
            vmgen: AtomicU64::new(0),
            vmgen_known: AtomicBool::new(false),
            snapshot_policy: AtomicU8::new(0),
            getrandom: crate::snapshot::os_getrandom,
        }
    }

    /// With a VMClock page watch of the test's own, not the process's.
    #[cfg(test)]
    pub(crate) const fn with_watch(mut self, watch: &'static PageWatch) -> Shared {
        self.watch = Some(watch);
        self
    }

    /// With an OS random source of the test's own.
    #[cfg(test)]
    pub(crate) const fn with_getrandom(mut self, getrandom: Getrandom) -> Shared {
        self.getrandom = getrandom;
        self
    }

    pub(super) fn watch(&self) -> &'static PageWatch {
        match self.watch {
            Some(watch) => watch,
            None => crate::snapshot::process_watch(),
        }
    }

    pub(crate) fn snapshot_policy(&self) -> SnapshotPolicy {
        SnapshotPolicy::from_u8(self.snapshot_policy.load(Relaxed))
    }

    pub(crate) fn set_snapshot_policy(&self, policy: SnapshotPolicy) {
        self.snapshot_policy.store(policy.to_u8(), Relaxed);
    }

    /// Reads the VMClock page (under its sequence lock; the watch looks for a page that was
    /// missing, or replaced, first): when its generation differs from the one the random value
    /// was drawn under, or none was known (a page that appeared or settled since), moves to a
    /// fresh clone-divergent random value first, then records the generation (a thread that
    /// sees the new generation recorded also sees the rotation). A read that does not settle
    /// cannot tell whether a restore happened: a fresh random value too, nothing recorded.
    /// Returns the generation word and the value the block is checked against per id: the one
    /// read, or after a torn read the word as it is now (a change drops the block).
    #[inline]
    pub(super) fn check_vmclock(&self, reading: u64) -> Option<(&'static AtomicU64, u64)> {
        let watch = self.watch();
        let page = watch.look(reading)?;
        let tries = if watch.torn.load(Relaxed) {
            crate::snapshot::TORN_TRIES
        } else {
            crate::snapshot::SEQLOCK_TRIES
        };
        let word = page.generation_word();
        match page.read_tries(tries) {
            Some(r) => {
                if watch.torn.load(Relaxed) {
                    watch.torn.store(false, Relaxed);
                }
                if r.flags & FLAG_VM_GEN_COUNTER_PRESENT == 0 {
                    return None;
                }
                if !self.vmgen_known.load(Acquire) || self.vmgen.load(Acquire) != r.generation {
                    self.rotate_fresh();
                    self.vmgen.store(r.generation, Release);
                    self.vmgen_known.store(true, Release);
                }
                Some((word, r.generation))
            }
            None => {
                watch.torn.store(true, Relaxed);
                self.rotate_fresh();
                Some((word, word.load(Acquire)))
            }
        }
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

    /// Compares the wall clock's `reading` with `elapsed`: when their difference moved by more
    /// than [`JUMP_SECONDS`] since the last refill, a fresh random value from the OS (the
    /// thread that records the new difference first; one rotation per jump).
    #[inline]
    pub(super) fn check_jump(&self, reading: u64, elapsed: &impl Elapsed) {
        let Some(boot) = elapsed.seconds() else {
            return;
        };
        if reading == NO_READING {
            return;
        }
        let offset = u64::from((reading as u32).wrapping_sub(boot as u32));
        let seen = self.offset.load(Acquire);
        if seen == offset {
            return;
        }
        let jump = seen != NO_OFFSET
            && ((offset as u32).wrapping_sub(seen as u32) as i32).unsigned_abs() > JUMP_SECONDS;
        // Rotate before recording the new difference: a thread that reads it recorded has
        // the new random value too (two threads that both see the jump both rotate, which
        // is safe: a new random value is a new id space).
        if jump {
            self.rotate_fresh();
        }
        self.offset.store(offset, Release);
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
    pub(super) fn identity<M: Mode>(
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
        let page = self.watch().look(crate::snapshot::NO_TIME);
        if let Some(r) = page.and_then(|p| p.read_tries(crate::snapshot::SEQLOCK_TRIES)) {
            if r.flags & FLAG_VM_GEN_COUNTER_PRESENT != 0 {
                self.vmgen.store(r.generation, Release);
                self.vmgen_known.store(true, Release);
            }
        }
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
