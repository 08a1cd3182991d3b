//! `rand_core` 0.6 support (feature `rand_core-0_6`): [`RngEntropy`] makes any random number
//! generator of `rand_core` **0.6** an [`Entropy`](crate::Entropy) source, next to the crate
//! root's [`RngEntropy`](crate::RngEntropy) for `rand_core` 0.9 (feature `rand_core`).
//!
//! Many hardware RNG drivers still implement 0.6 (the embassy HALs for nRF, RP and STM32 implement
//! 0.6 and 0.9 side by side, `esp-hal`'s `Rng` and `rand_chacha` 0.3 are 0.6), so a board can seed
//! a [`Generator`](crate::Generator) from whichever version its HAL has. Both wrappers can be
//! enabled at once; they are two types because one type cannot implement
//! [`Entropy`](crate::Entropy) for both traits. `no_std`, no allocation.

use rand_core_0_6::RngCore;

use crate::{Entropy, EntropyError};

rng_entropy! {
    /// An [`Entropy`] source that draws from a `rand_core` 0.6 [`RngCore`] (including `&mut R`, so a
    /// HAL's RNG can be lent rather than moved). A failure of the RNG's
    /// [`try_fill_bytes`](RngCore::try_fill_bytes) becomes an [`EntropyError`] ("entropy source
    /// failed: rand_core 0.6 rng failed").
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::rand_core_0_6::RngEntropy;
    /// use oid_core::{FixedClock, Generator};
    /// use rand_core_0_6::{Error, RngCore, impls};
    ///
    /// // A toy RNG; on a board use the HAL's (embassy_nrf::rng::Rng, esp_hal::rng::Rng, …).
    /// struct Counter(u64);
    /// impl RngCore for Counter {
    ///     fn next_u32(&mut self) -> u32 { self.next_u64() as u32 }
    ///     fn next_u64(&mut self) -> u64 { self.0 += 1; self.0 }
    ///     fn fill_bytes(&mut self, dst: &mut [u8]) { impls::fill_bytes_via_next(self, dst) }
    ///     fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Error> {
    ///         self.fill_bytes(dst);
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mut rng = Counter(0);
    /// let generator = Generator::from_entropy(FixedClock::at(1_700_000_000), &mut RngEntropy::new(&mut rng))?;
    /// assert_eq!(generator.next().timestamp(), 1_700_000_000);
    /// # Ok::<(), oid_core::EntropyError>(())
    /// ```
    path: "oid_core::rand_core_0_6::RngEntropy",
    trait: RngCore,
    fill: try_fill_bytes,
    error: "rand_core 0.6 rng failed",
}

#[cfg(test)]
mod tests {
    use core::num::NonZeroU32;

    use rand_core_0_6::{Error, impls};

    use super::*;
    use crate::ErrorKind;

    /// Fails `try_fill_bytes` (a hardware RNG whose self-test failed), counts the others.
    struct Failing(u64);
    impl RngCore for Failing {
        fn next_u32(&mut self) -> u32 {
            self.next_u64() as u32
        }
        fn next_u64(&mut self) -> u64 {
            self.0 += 1;
            self.0
        }
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            impls::fill_bytes_via_next(self, dst);
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Error> {
            Err(Error::from(
                NonZeroU32::MIN.saturating_add(Error::CUSTOM_START),
            ))
        }
    }

    #[test]
    fn a_failing_rng_is_an_entropy_error() {
        let err = RngEntropy::new(Failing(0)).fill(&mut [0; 8]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::EntropyFailed);
        assert_eq!(
            std::string::ToString::to_string(&err),
            "entropy source failed: rand_core 0.6 rng failed"
        );
    }

    #[test]
    fn fills_through_try_fill_bytes_and_through_a_borrow() {
        struct Bytes(u8);
        impl RngCore for Bytes {
            fn next_u32(&mut self) -> u32 {
                impls::next_u32_via_fill(self)
            }
            fn next_u64(&mut self) -> u64 {
                impls::next_u64_via_fill(self)
            }
            fn fill_bytes(&mut self, _: &mut [u8]) {
                unreachable!("RngEntropy goes through try_fill_bytes")
            }
            fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Error> {
                for b in dst {
                    self.0 += 1;
                    *b = self.0;
                }
                Ok(())
            }
        }
        let mut rng = Bytes(0);
        let mut buf = [0u8; 5];
        RngEntropy::new(&mut rng).fill(&mut buf).unwrap();
        assert_eq!(buf, [1, 2, 3, 4, 5]);
        RngEntropy::new(&mut rng).fill(&mut buf).unwrap();
        assert_eq!(buf, [6, 7, 8, 9, 10]);
        assert_eq!(rng.0, 10);
    }
}
