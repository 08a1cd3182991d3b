//! Where the generator gets its seed: the [`Entropy`] trait.

use crate::EntropyError;

/// A source of random bytes, used only to seed a generator (the 5-byte random value and the
/// counter's random start).
///
/// # Examples
///
/// ```
/// use oid_core::{Entropy, EntropyError};
///
/// struct Hwrng;
/// impl Entropy for Hwrng {
///     fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
///         dest.fill(0x42); // read the peripheral here
///         Ok(())
///     }
/// }
/// let mut buf = [0u8; 4];
/// Hwrng.fill(&mut buf)?;
/// assert_eq!(buf, [0x42; 4]);
/// # Ok::<(), EntropyError>(())
/// ```
pub trait Entropy {
    /// Fills `dest` with random bytes.
    ///
    /// # Errors
    ///
    /// An [`EntropyError`] when the source cannot deliver.
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError>;
}

impl<T: Entropy + ?Sized> Entropy for &mut T {
    #[inline]
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
        (**self).fill(dest)
    }
}

/// Draws 5 random bytes and a 24-bit counter start from `entropy` (for the generator, which
/// needs 64-bit atomics or `portable-atomic`).
#[cfg(any(feature = "portable-atomic", target_has_atomic = "64"))]
pub(crate) fn seed_from(entropy: &mut impl Entropy) -> Result<([u8; 5], u32), EntropyError> {
    let mut buf = [0u8; 8];
    entropy.fill(&mut buf)?;
    let random = [buf[0], buf[1], buf[2], buf[3], buf[4]];
    let counter = u32::from_be_bytes([0, buf[5], buf[6], buf[7]]);
    Ok((random, counter))
}
