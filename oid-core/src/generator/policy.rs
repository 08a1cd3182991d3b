//! [`CapacityPolicy`]: when an id space draws a new random value, and how the next value is
//! derived without an entropy source.

/// What an [`IdSpace`](crate::IdSpace) (and the [`Generator`](crate::Generator) built on it)
/// does when it cannot stamp the clock's second: the second's 2^24 ids are spent, or the clock
/// reads a second well before the newest one stamped.
///
/// A new random value is a new id space: no id made after the change can equal one made
/// before it, whatever the timestamps, so the change never costs uniqueness within the
/// process. What it costs is one more random value in use; see
/// [the uniqueness notes](https://github.com/oid-rs/oid/blob/main/docs/uniqueness.md) for the
/// figure.
///
/// | | the second is spent | the clock steps back by more than [`STEP_BACK_TOLERANCE`](Self::STEP_BACK_TOLERANCE) |
/// |---|---|---|
/// | [`Wait`](Self::Wait) (default) | the clock reads it: wait once, to its end; else (it reads an earlier second, or still this one after the wait) a new value, same second | a new value, at the clock's second |
/// | [`Rotate`](Self::Rotate) | a new value, same second | a new value, at the clock's second |
/// | [`Fixed`](Self::Fixed) | wait for a later second | keep stamping the newest second until the clock catches up |
///
/// A reading up to [`STEP_BACK_TOLERANCE`](Self::STEP_BACK_TOLERANCE) second behind the
/// newest second stamped (two threads reading the clock across a second's edge) stamps the
/// newest second, so timestamps stay monotonic through it. If that second is spent, the id
/// space moves on to a new random value at once: waiting for a later second could take up to
/// two seconds (whole seconds hide sub-second steps: 1.5 s back reads as one second back).
///
/// **No call waits longer than the rest of a second.** `Generator::next` and `fill` (and
/// oid-std's `new`) wait only when the clock reads the spent newest second itself, at most
/// once per call, through one [`Clock::wait`](crate::Clock::wait), which ends at the clock's
/// next second; if the clock still reads a spent second after it (it was set back meanwhile),
/// the call moves on to a new random value. Only [`Fixed`](Self::Fixed) waits longer.
///
/// The new value is *derived* from the current one: `next = current + step` modulo 2^40, with
/// an odd `step` of the id space's own, computed from its seed (random value and counter
/// start) when it is made or reseeded. So the values follow one cycle through all 2^40 and an
/// id space never meets a value it used before (it would take 2^40 changes); and two id spaces
/// that ever stand on the same value go on to different ones at their next change (their steps
/// differ unless their seeds agree in all but the random value's first byte), so a rare meeting
/// repeats at most the ids of the second it happens in, never the ids that follow. No entropy
/// source is needed, so this works in `const` generators on any target.
///
/// # Examples
///
/// ```
/// use oid_core::{CapacityPolicy, FixedClock, Generator, IdSpace};
///
/// // Sustained generation at the machine's speed: a spent second moves on to a new random value.
/// let generator = Generator::from_ids(
///     FixedClock::at(1_700_000_000),
///     IdSpace::new([1; 5], 0).with_policy(CapacityPolicy::Rotate),
/// );
/// for _ in 0..1 << 24 {
///     generator.next(); // the whole second
/// }
/// let id = generator.try_next()?;
/// assert_eq!(id.timestamp(), 1_700_000_000);
/// assert_ne!(id.to_parts().random, [1; 5]);
/// # Ok::<(), oid_core::GenerateError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CapacityPolicy {
    /// One random value while the clock behaves: a spent second that the clock reads waits
    /// for the next one (one wait per call, to the end of that second), and the random value
    /// changes only where waiting could take longer: when the clock reads an earlier second
    /// than a spent newest one, or still reads it after the wait, the id space moves on to a
    /// new value in that second; when the clock reads further back than
    /// [`STEP_BACK_TOLERANCE`](Self::STEP_BACK_TOLERANCE) (a step back, the correction after a
    /// forward glitch, a VM resumed with a stale clock), to a new value at the clock's own
    /// second at once, spent or not. The default.
    #[default]
    Wait,
    /// A spent second changes the random value at once and goes on in the same second:
    /// sustained generation runs at the machine's speed (test and mock data, bulk loads).
    /// Clock steps are handled as with [`Wait`](Self::Wait).
    Rotate,
    /// The random value never changes on its own: a spent second waits for a later one, and
    /// a clock stepping back keeps stamping the newest second until it catches up, however
    /// long that takes (the behaviour of the seed documents). The default of the legacy
    /// layout, whose "random value" is a machine and process id.
    Fixed,
}

impl CapacityPolicy {
    /// How many seconds the clock may read behind the newest second stamped and still count
    /// as the same time (the newest second is stamped, and if it is spent, a new random value
    /// in it at once): 1, the disagreement of two threads reading the clock across a second's
    /// edge. A reading further back is a step of the clock, and under [`Wait`](Self::Wait) and
    /// [`Rotate`](Self::Rotate) the id space moves to a new random value at the clock's own
    /// second.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{CapacityPolicy, Generator, ManualClock};
    /// let clock = ManualClock::at(10_000);
    /// let generator = Generator::from_seed(&clock, [1; 5], 0);
    /// generator.next();
    /// clock.set(10_000 - u64::from(CapacityPolicy::STEP_BACK_TOLERANCE));
    /// assert_eq!(generator.next().timestamp(), 10_000); // within the tolerance: monotonic
    /// clock.set(10_000 - 3_600);
    /// let id = generator.next(); // an hour back: a new random value, the clock's second
    /// assert_eq!((id.timestamp(), id.to_parts().random == [1; 5]), (10_000 - 3_600, false));
    /// ```
    pub const STEP_BACK_TOLERANCE: u32 = 1;

    pub(super) const fn to_byte(self) -> u8 {
        match self {
            CapacityPolicy::Wait => 0,
            CapacityPolicy::Rotate => 1,
            CapacityPolicy::Fixed => 2,
        }
    }

    pub(super) const fn from_byte(byte: u8) -> CapacityPolicy {
        match byte {
            1 => CapacityPolicy::Rotate,
            2 => CapacityPolicy::Fixed,
            _ => CapacityPolicy::Wait,
        }
    }
}

/// The 40-bit values.
const MASK: u64 = (1 << 40) - 1;

/// The step of an id space seeded with `random` (in its era word `era`) and `counter` (its bits
/// but the lowest, which
/// [`next_random`] sets): odd, so that adding it modulo
/// 2^40 visits all 2^40 values before any comes back (an odd number generates the additive
/// group), and different in two processes unless their seeds are close to equal: the random
/// value's last four bytes, combined with the counter's start (24 bits) moved up a byte. The
/// seed is random, so the step is too: a few instructions (the flash budget).
pub(super) const fn step_for(era: u64, counter: u32) -> u32 {
    // Made odd where it is used ([`next_random`]): a zero seed gives a zero word, so a
    // `static` generator with a zero seed (seeded at run time) stays in `.bss`, costing no
    // flash for its initial value.
    (era >> 24) as u32 ^ (counter << 8)
}

/// The random value after `random` (as a 40-bit number) on the cycle of `step` (see
/// [`CapacityPolicy`]): one addition, a few instructions even on a Cortex-M0 (the generator's
/// flash budget). The step is made odd: k steps return to the start only when 2^40 divides k.
pub(super) const fn next_random(random: u64, step: u32) -> u64 {
    random.wrapping_add(step as u64 | 1) & MASK
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    use super::super::words::era;

    const fn value(r: [u8; 5]) -> u64 {
        u64::from_be_bytes([0, 0, 0, r[0], r[1], r[2], r[3], r[4]])
    }

    /// `step_for` of a seed given as bytes.
    const fn step(random: [u8; 5], counter: u32) -> u32 {
        step_for(era(random, 0), counter)
    }

    #[test]
    fn next_random_steps_along_one_cycle() {
        let start = value([0x3f, 0x2a, 0x91, 0xc8, 0xd4]);
        let mut r = start;
        let step = step([0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345) | 1;
        let mut seen = std::collections::HashSet::new();
        let steps = if cfg!(miri) { 100 } else { 10_000 };
        for k in 0..steps {
            assert!(seen.insert(r), "a value came back");
            assert_eq!(r, (start + k * u64::from(step)) & MASK);
            r = next_random(r, step);
        }
        // The top of the range wraps to the bottom.
        assert_eq!(next_random(MASK, step), u64::from(step) - 1);
        // An even step is made odd.
        assert_eq!(next_random(0, 2), 3);
    }

    #[test]
    fn steps_differ_between_seeds() {
        // The random value's last four bytes and the counter's start move the step.
        let base = step([1, 2, 3, 4, 5], 6) | 1;
        let mut steps = std::collections::HashSet::new();
        for byte in 1..5 {
            let mut r = [1, 2, 3, 4, 5];
            r[byte] ^= 0x40;
            assert!(steps.insert(step(r, 6) | 1));
        }
        for counter in [0, 7, 0x80_0000, 0xff_ffff] {
            assert!(steps.insert(step([1, 2, 3, 4, 5], counter) | 1));
        }
        assert!(!steps.contains(&base));
        // Over many seeds: no two equal once made odd.
        let many: std::collections::HashSet<u32> = (0..10_000u32)
            .map(|i| step([0, 0, 0, (i >> 8) as u8, i as u8], i.wrapping_mul(7)) | 1)
            .collect();
        assert_eq!(many.len(), 10_000);
        // The zero seed's step is a zero word (a `static` stays in `.bss`).
        assert_eq!(step([0; 5], 0), 0);
    }

    #[test]
    fn policy_bytes_round_trip() {
        for p in [
            CapacityPolicy::Wait,
            CapacityPolicy::Rotate,
            CapacityPolicy::Fixed,
        ] {
            assert_eq!(CapacityPolicy::from_byte(p.to_byte()), p);
        }
        assert_eq!(CapacityPolicy::default(), CapacityPolicy::Wait);
    }
}
