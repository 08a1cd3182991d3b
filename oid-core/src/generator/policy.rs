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
/// | [`Wait`](Self::Wait) (default) | wait for the next second (at most 2 s) | a new value, at the clock's second |
/// | [`Rotate`](Self::Rotate) | a new value, same second | a new value, at the clock's second |
/// | [`Fixed`](Self::Fixed) | wait for a later second | keep stamping the newest second until the clock catches up |
///
/// A reading up to [`STEP_BACK_TOLERANCE`](Self::STEP_BACK_TOLERANCE) second behind the
/// newest second stamped (two threads reading the clock across a second's edge) stamps the
/// newest second, so timestamps stay monotonic through it; a spent second then waits at most
/// until the clock reads a later one, about two seconds.
///
/// The new value is *derived* from the current one: `next = current + STEP` modulo 2^40 with
/// an odd `STEP`, so the values follow one cycle through all 2^40 and a process never meets a
/// value it used before (it would take 2^40 changes). Every
/// process starts at its own random point of the cycle (its seed), and no entropy source is
/// needed, so this works in `const` generators on any target.
///
/// # Examples
///
/// ```
/// use oid_core::{CapacityPolicy, FixedClock, Generator};
///
/// // Sustained generation at the machine's speed: a spent second moves on to a new random value.
/// let generator = Generator::from_seed(FixedClock::at(1_700_000_000), [1; 5], 0)
///     .with_policy(CapacityPolicy::Rotate);
/// generator.ids().reserve(Some(1_700_000_000), 1 << 24)?; // the whole second
/// let id = generator.try_next()?;
/// assert_eq!(id.timestamp(), 1_700_000_000);
/// assert_ne!(id.to_parts().random, [1; 5]);
/// # Ok::<(), oid_core::GenerateError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CapacityPolicy {
    /// One random value while the clock behaves: a spent second waits for the next one (at
    /// most about two seconds, see [`STEP_BACK_TOLERANCE`](Self::STEP_BACK_TOLERANCE)), and
    /// the random value changes only where waiting could take longer: when the clock reads
    /// further back than the tolerance (a step back, the correction after a forward glitch, a
    /// VM resumed with a stale clock), the id space moves to a new value at the clock's own
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
    /// as the same time (the newest second is stamped): 1, the disagreement of two threads
    /// reading the clock across a second's edge. A reading further back is a step of the
    /// clock, and under [`Wait`](Self::Wait) and [`Rotate`](Self::Rotate) the id space moves
    /// to a new random value at the clock's own second.
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

/// The step between two random values: odd, so that adding it modulo 2^40 visits all 2^40
/// values before any comes back (it generates the additive group), and from the golden ratio,
/// so that consecutive values differ in most bytes.
const STEP: u64 = 0x9e_3779_b97f & MASK | 1;

// Odd, hence a generator of the integers modulo 2^40: k steps return to the start only when
// 2^40 divides k.
const _: () = assert!(STEP % 2 == 1 && STEP <= MASK);

/// The random value after `random` on the cycle (see [`CapacityPolicy`]): one addition, a few
/// instructions even on a Cortex-M0 (the generator's flash budget).
pub(super) const fn next_random(random: [u8; 5]) -> [u8; 5] {
    let [a, b, c, d, e] = random;
    let x = u64::from_be_bytes([0, 0, 0, a, b, c, d, e]);
    let y = (x.wrapping_add(STEP) & MASK).to_be_bytes();
    [y[3], y[4], y[5], y[6], y[7]]
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    const fn value(r: [u8; 5]) -> u64 {
        u64::from_be_bytes([0, 0, 0, r[0], r[1], r[2], r[3], r[4]])
    }

    #[test]
    fn next_random_steps_along_one_cycle() {
        let mut r = [0x3f, 0x2a, 0x91, 0xc8, 0xd4];
        let start = r;
        let mut seen = std::collections::HashSet::new();
        let steps = if cfg!(miri) { 100 } else { 10_000 };
        for k in 0..steps {
            assert!(seen.insert(r), "a value came back");
            assert_eq!(value(r), (value(start) + k * STEP) & MASK);
            r = next_random(r);
        }
        // Consecutive values differ in most bytes.
        let a = next_random(start);
        assert!(start.iter().zip(a).filter(|(x, y)| **x != *y).count() >= 4);
        // The top of the range wraps to the bottom.
        assert_eq!(value(next_random([0xff; 5])), STEP - 1);
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
