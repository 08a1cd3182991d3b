//! `rand_core` support (feature `rand_core`): [`RngEntropy`] makes any random number
//! generator of `rand_core` 0.9 — an infallible [`RngCore`](rand_core::RngCore) such as
//! `rand::rngs::StdRng`, or a fallible [`TryRngCore`] such as `rand::rngs::OsRng` — an
//! [`Entropy`] source for seeding a generator. `rand` stays out of every other signature.

use rand_core::TryRngCore;

use crate::{Entropy, EntropyError};

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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RngEntropy<R>(R);

impl<R> RngEntropy<R> {
    /// Wraps `rng`.
    ///
    /// # Examples
    ///
    /// ```
    /// # use rand_core::{RngCore, impls};
    /// # struct Zero;
    /// # impl RngCore for Zero {
    /// #     fn next_u32(&mut self) -> u32 { 0 }
    /// #     fn next_u64(&mut self) -> u64 { 0 }
    /// #     fn fill_bytes(&mut self, dst: &mut [u8]) { dst.fill(0) }
    /// # }
    /// use oid_core::{Entropy, RngEntropy};
    /// let mut buf = [1u8; 8];
    /// RngEntropy::new(Zero).fill(&mut buf)?;
    /// assert_eq!(buf, [0; 8]);
    /// # Ok::<(), oid_core::EntropyError>(())
    /// ```
    pub const fn new(rng: R) -> RngEntropy<R> {
        RngEntropy(rng)
    }

    /// The wrapped RNG.
    ///
    /// # Examples
    ///
    /// ```
    /// let entropy = oid_core::RngEntropy::new(7u8);
    /// assert_eq!(entropy.into_inner(), 7);
    /// ```
    pub fn into_inner(self) -> R {
        self.0
    }

    /// A mutable reference to the wrapped RNG.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut entropy = oid_core::RngEntropy::new(7u8);
    /// *entropy.get_mut() += 1;
    /// assert_eq!(entropy.into_inner(), 8);
    /// ```
    pub const fn get_mut(&mut self) -> &mut R {
        &mut self.0
    }
}

impl<R: TryRngCore> Entropy for RngEntropy<R> {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
        self.0
            .try_fill_bytes(dest)
            .map_err(|_| EntropyError::new("rand_core rng failed"))
    }
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
