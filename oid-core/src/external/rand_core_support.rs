//! `rand_core` support (feature `rand_core`): [`RngEntropy`] makes any random number
//! generator of `rand_core` 0.9 — an infallible [`RngCore`](rand_core::RngCore) such as
//! `rand::rngs::StdRng`, or a fallible [`TryRngCore`] such as `rand::rngs::OsRng` — an
//! [`Entropy`] source for seeding a generator. `rand` stays out of every other signature.

use rand_core::TryRngCore;

use crate::{Entropy, EntropyError};

rng_entropy! {
    /// An [`Entropy`] source that draws from a `rand_core` RNG: any [`TryRngCore`], which
    /// includes every [`RngCore`](rand_core::RngCore). A failure of the RNG becomes an
    /// [`EntropyError`] ("entropy source failed: rand_core rng failed").
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Entropy, FixedClock, Generator, RngEntropy};
    /// use rand_core::{RngCore, impls};
    ///
    /// // A toy RNG; in an application use `rand::rngs::StdRng`, `rand::rngs::OsRng`, a hardware RNG …
    /// struct Counter(u64);
    /// impl RngCore for Counter {
    ///     fn next_u32(&mut self) -> u32 { self.next_u64() as u32 }
    ///     fn next_u64(&mut self) -> u64 { self.0 += 1; self.0 }
    ///     fn fill_bytes(&mut self, dst: &mut [u8]) { impls::fill_bytes_via_next(self, dst) }
    /// }
    ///
    /// let mut entropy = RngEntropy::new(Counter(0));
    /// let generator = Generator::from_entropy(FixedClock::at(1_700_000_000), &mut entropy)?;
    /// assert_eq!(generator.next().timestamp(), 1_700_000_000);
    /// # Ok::<(), oid_core::EntropyError>(())
    /// ```
    path: "oid_core::RngEntropy",
    trait: TryRngCore,
    fill: try_fill_bytes,
    error: "rand_core rng failed",
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    struct Failing;
    impl TryRngCore for Failing {
        type Error = core::fmt::Error;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Err(core::fmt::Error)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Err(core::fmt::Error)
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            Err(core::fmt::Error)
        }
    }

    #[test]
    fn a_failing_rng_is_an_entropy_error() {
        let err = RngEntropy::new(Failing).fill(&mut [0; 8]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::EntropyFailed);
        assert_eq!(
            std::string::ToString::to_string(&err),
            "entropy source failed: rand_core rng failed"
        );
    }
}
