//! Operating-system entropy.

use oid_core::{Entropy, EntropyError};

/// Random bytes from the operating system, through the `getrandom` crate (`getrandom(2)` on
/// Linux, `getentropy` on macOS, `ProcessPrng` on Windows, ...). A failure is an
/// [`EntropyError`], never a panic.
///
/// # Examples
///
/// ```
/// use oid_std::{Entropy, Generator};
/// use oid_std::{OsEntropy, SystemClock};
///
/// let mut a = [0u8; 16];
/// let mut b = [0u8; 16];
/// OsEntropy.fill(&mut a)?;
/// OsEntropy.fill(&mut b)?;
/// assert_ne!(a, b);
///
/// let generator = Generator::from_entropy(SystemClock, &mut OsEntropy)?;
/// let _id = generator.next();
/// # Ok::<(), oid_std::EntropyError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OsEntropy;

impl Entropy for OsEntropy {
    /// # Errors
    ///
    /// [`EntropyError`] with the OS error code when the operating system's random source
    /// fails (e.g. a sandbox that forbids `getrandom(2)`).
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
        getrandom::fill(dest).map_err(|e| match e.raw_os_error() {
            Some(code) => EntropyError::with_code("os random source (getrandom)", code),
            None => EntropyError::new("os random source unavailable (getrandom)"),
        })
    }
}
