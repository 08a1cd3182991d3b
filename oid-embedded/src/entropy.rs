//! Entropy adapters: a hardware RNG, or the chip's unique id mixed with a boot counter.

use core::fmt;

use oid_core::{Entropy, EntropyError};

use crate::siphash::SipHash24;

/// Entropy from a hardware random number generator: a closure that fills the buffer with
/// random bytes (a HAL's `Rng::fill_bytes`, a loop over an RNG data register) and returns
/// either `()` or `Result<(), EntropyError>`, so that an RNG that reports a failure (a seed or
/// clock error flag, a timeout) makes [`init`](crate::SharedGenerator::init) fail instead of
/// seeding the generator.
///
/// The best choice where the part has an RNG: each boot draws an independent random value.
/// The closure is called once per seeding, for 8 bytes (5 for the random value, 3 for the
/// counter's start).
///
/// # A stuck RNG
///
/// An RNG that is not clocked, not enabled or broken typically reads all zeros or all ones, or
/// repeats one value. Seeding every device of a fleet from such output would give them all the
/// same random value, and so colliding ids. `HardwareRng` therefore checks what it gets:
///
/// * the buffer is zeroed before the closure runs, so a closure that writes nothing gives zeros;
/// * a fill of 8 bytes or more that is all `0x00` or all `0xff` is rejected ("hardware rng
///   stuck at all zeros or all ones"); a healthy RNG does that once in 2^63 fills;
/// * a fill whose first 8 bytes equal those of the previous fill through the same
///   `HardwareRng` is rejected ("hardware rng repeated its output").
///
/// These catch the common failures, not subtle bias. Where the part documents its own health
/// tests (STM32's SECS/CECS flags, nRF's bias correction, ESP32's entropy source), check those
/// flags in the closure and return an [`EntropyError`]. To spot a register stuck at another
/// constant, read twice in the closure and compare (see the second example).
///
/// # Examples
///
/// ```
/// use oid_core::FixedClock;
/// use oid_embedded::{HardwareRng, SharedGenerator};
///
/// # struct Rng(u8); impl Rng { fn fill_bytes(&mut self, b: &mut [u8]) { for x in b { self.0 = self.0.wrapping_mul(37).wrapping_add(11); *x = self.0 } } }
/// let mut rng = Rng(1); // e.g. `hal::rng::Rng::new(peripherals.RNG)`
/// let generator = SharedGenerator::new(FixedClock::at(1_700_000_000));
/// generator.init(&mut HardwareRng::new(|buf: &mut [u8]| rng.fill_bytes(buf)))?;
/// assert!(generator.try_next().is_ok());
/// # Ok::<(), oid_embedded::Error>(())
/// ```
///
/// A fallible RNG, and a closure that rejects a register stuck at any constant:
///
/// ```
/// use oid_core::{EntropyError, FixedClock};
/// use oid_embedded::{HardwareRng, SharedGenerator};
///
/// // A data register whose reads never change: stuck.
/// let read_register = || -> Result<u32, EntropyError> { Ok(0x5a5a_5a5a) };
/// let mut rng = HardwareRng::new(|buf: &mut [u8]| -> Result<(), EntropyError> {
///     for chunk in buf.chunks_mut(4) {
///         let (a, b) = (read_register()?, read_register()?);
///         if a == b {
///             return Err(EntropyError::new("rng register stuck"));
///         }
///         chunk.copy_from_slice(&b.to_le_bytes()[..chunk.len()]);
///     }
///     Ok(())
/// });
/// let generator = SharedGenerator::new(FixedClock::at(1_700_000_000));
/// let err = generator.init(&mut rng).unwrap_err();
/// assert_eq!(err.entropy(), Some(EntropyError::new("rng register stuck")));
/// assert!(!generator.is_initialized()); // `init` may be tried again
/// ```
pub struct HardwareRng<F> {
    fill: F,
    /// The first 8 bytes of the previous fill of 8 bytes or more.
    last: Option<[u8; 8]>,
}

impl<F> HardwareRng<F> {
    /// Wraps a function that fills a buffer with random bytes and returns `()` or
    /// `Result<(), EntropyError>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{Entropy, EntropyError, HardwareRng};
    ///
    /// let mut rng = HardwareRng::new(|buf: &mut [u8]| {
    ///     for (i, b) in buf.iter_mut().enumerate() {
    ///         *b = i as u8 * 29 + 3;
    ///     }
    /// });
    /// let mut out = [0u8; 3];
    /// rng.fill(&mut out)?;
    /// assert_eq!(out, [3, 32, 61]);
    ///
    /// let mut failing = HardwareRng::new(|_: &mut [u8]| Err(EntropyError::new("seed error")));
    /// assert_eq!(failing.fill(&mut out), Err(EntropyError::new("seed error")));
    /// # Ok::<(), EntropyError>(())
    /// ```
    pub const fn new(fill: F) -> Self {
        HardwareRng { fill, last: None }
    }
}

mod sealed {
    #[allow(
        unreachable_pub,
        reason = "sealed trait pattern: nameable only inside this crate"
    )]
    pub trait FillOutcome {
        fn into_result(self) -> Result<(), oid_core::EntropyError>;
    }

    impl FillOutcome for () {
        fn into_result(self) -> Result<(), oid_core::EntropyError> {
            Ok(())
        }
    }

    impl FillOutcome for Result<(), oid_core::EntropyError> {
        fn into_result(self) -> Result<(), oid_core::EntropyError> {
            self
        }
    }
}

/// The stuck-output checks apply to fills of at least this many bytes.
const CHECKED_LEN: usize = 8;

impl<F, R> Entropy for HardwareRng<F>
where
    F: FnMut(&mut [u8]) -> R,
    R: sealed::FillOutcome,
{
    /// Fills `dest` through the closure and checks the output (see the type's docs).
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
        dest.fill(0);
        (self.fill)(dest).into_result()?;
        if dest.len() < CHECKED_LEN {
            return Ok(());
        }
        if dest.iter().all(|&b| b == 0) || dest.iter().all(|&b| b == 0xff) {
            return Err(EntropyError::new(
                "hardware rng stuck at all zeros or all ones",
            ));
        }
        let mut head = [0u8; CHECKED_LEN];
        head.copy_from_slice(&dest[..CHECKED_LEN]);
        if self.last.replace(head) == Some(head) {
            return Err(EntropyError::new("hardware rng repeated its output"));
        }
        Ok(())
    }
}

impl<F> fmt::Debug for HardwareRng<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HardwareRng").finish_non_exhaustive()
    }
}

/// Entropy for parts without an RNG: the chip's factory-programmed unique device id mixed with
/// a boot counter that the firmware keeps in non-volatile memory and increments on every boot.
///
/// **Mixing function.** Each 8-byte block of output is
/// `SipHash-2-4(key, boot_count as 4 bytes LE ‖ block index as 4 bytes LE ‖ device id)`,
/// little-endian. SipHash-2-4 is the keyed hash of Aumasson and Bernstein (checked here
/// against the paper's test vector and the standard library's implementation): distinct
/// inputs give outputs that behave like independent uniform random values, however similar the
/// inputs (consecutive serial numbers, consecutive boot counts). The encoding is unambiguous
/// (fixed-width fields first), so distinct `(device id, boot count)` pairs are distinct inputs.
/// The default key is a fixed public constant (domain separation, not a secret); a fleet may
/// use its own with [`with_key`](Self::with_key).
///
/// **What it guarantees.** Two boots of one device get independent random values as long as
/// the boot count differs (persist it *before* generating ids; a count that is reset or not
/// saved repeats the previous boot's value). Two devices get independent values because their
/// ids differ. Independent is not distinct: like a hardware RNG, the odds that any two of `n`
/// boots share a 5-byte random value follow the birthday bound (see the crate docs' table).
/// The values are predictable to anyone who knows the device id and the key: use it for
/// uniqueness, not secrecy.
///
/// Fails with "empty device id" for an empty id.
///
/// # Examples
///
/// ```
/// use oid_core::FixedClock;
/// use oid_embedded::{DeviceIdEntropy, SharedGenerator};
///
/// let uid = [0x30, 0x52, 0x4b, 0x51, 0x0a, 0x36, 0x30, 0x33, 0x00, 0x2d, 0x00, 0x48]; // e.g. STM32 UID
/// let boot_count = 41; // read from flash/EEPROM and stored back as 42 before this
/// let generator = SharedGenerator::new(FixedClock::at(1_700_000_000));
/// generator.init(&mut DeviceIdEntropy::new(&uid, boot_count))?;
///
/// let other_boot = SharedGenerator::new(FixedClock::at(1_700_000_000));
/// other_boot.init(&mut DeviceIdEntropy::new(&uid, boot_count + 1))?;
/// assert_ne!(generator.try_next()?.to_parts().random, other_boot.try_next()?.to_parts().random);
/// # Ok::<(), oid_embedded::Error>(())
/// ```
#[derive(Clone)]
pub struct DeviceIdEntropy<'a> {
    key: [u8; 16],
    device_id: &'a [u8],
    boot_count: u32,
    block: u32,
}

impl<'a> DeviceIdEntropy<'a> {
    /// The default key: ASCII `oid-embedded/v1` and a zero byte. Public by design.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{DeviceIdEntropy, Entropy};
    /// let (mut a, mut b) = ([0u8; 8], [0u8; 8]);
    /// DeviceIdEntropy::new(b"id", 1).fill(&mut a)?;
    /// DeviceIdEntropy::new(b"id", 1).with_key(DeviceIdEntropy::DEFAULT_KEY).fill(&mut b)?;
    /// assert_eq!(a, b);
    /// # Ok::<(), oid_embedded::EntropyError>(())
    /// ```
    pub const DEFAULT_KEY: [u8; 16] = *b"oid-embedded/v1\0";

    /// Entropy from a unique device id and this boot's count, with the default key.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{DeviceIdEntropy, Entropy};
    /// let mut a = [0u8; 8];
    /// let mut b = [0u8; 8];
    /// DeviceIdEntropy::new(&[1, 2, 3, 4, 5, 6, 7, 8], 1).fill(&mut a)?;
    /// DeviceIdEntropy::new(&[1, 2, 3, 4, 5, 6, 7, 8], 2).fill(&mut b)?;
    /// assert_ne!(a, b);
    /// # Ok::<(), oid_embedded::EntropyError>(())
    /// ```
    pub const fn new(device_id: &'a [u8], boot_count: u32) -> Self {
        DeviceIdEntropy {
            key: Self::DEFAULT_KEY,
            device_id,
            boot_count,
            block: 0,
        }
    }

    /// The same with a key of the fleet's own (outputs then differ from the default key's).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::{DeviceIdEntropy, Entropy};
    /// let mut a = [0u8; 8];
    /// let mut b = [0u8; 8];
    /// DeviceIdEntropy::new(b"device-1", 7).fill(&mut a)?;
    /// DeviceIdEntropy::new(b"device-1", 7).with_key([9; 16]).fill(&mut b)?;
    /// assert_ne!(a, b);
    /// # Ok::<(), oid_embedded::EntropyError>(())
    /// ```
    pub const fn with_key(mut self, key: [u8; 16]) -> Self {
        self.key = key;
        self
    }
}

impl Entropy for DeviceIdEntropy<'_> {
    /// Fills `dest` with the next blocks of the stream (a second call continues it).
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
        if self.device_id.is_empty() {
            return Err(EntropyError::new("empty device id"));
        }
        for chunk in dest.chunks_mut(8) {
            let mut h = SipHash24::new(&self.key);
            h.write(&self.boot_count.to_le_bytes());
            h.write(&self.block.to_le_bytes());
            h.write(self.device_id);
            let out = h.finish().to_le_bytes();
            chunk.copy_from_slice(&out[..chunk.len()]);
            self.block = self.block.wrapping_add(1);
        }
        Ok(())
    }
}

impl fmt::Debug for DeviceIdEntropy<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The key may be a fleet secret: not printed.
        f.debug_struct("DeviceIdEntropy")
            .field("device_id", &self.device_id)
            .field("boot_count", &self.boot_count)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::vec;

    fn block0(id: &[u8], boot: u32) -> [u8; 8] {
        let mut out = [0u8; 8];
        DeviceIdEntropy::new(id, boot).fill(&mut out).unwrap();
        out
    }

    #[test]
    fn output_is_siphash_of_the_documented_encoding() {
        let id = [0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8];
        let mut h = SipHash24::new(b"oid-embedded/v1\0");
        h.write(&[0x2a, 0, 0, 0]); // boot count 42, LE
        h.write(&[1, 0, 0, 0]); // block 1
        h.write(&id);
        let want_block1 = h.finish().to_le_bytes();
        let mut e = DeviceIdEntropy::new(&id, 42);
        let mut out = [0u8; 11];
        e.fill(&mut out).unwrap();
        assert_eq!(out[..8], block0(&id, 42));
        assert_eq!(out[8..], want_block1[..3]);
        // The stream continues across calls: block 2 next.
        let mut next = [0u8; 8];
        e.fill(&mut next).unwrap();
        assert_ne!(next[..], block0(&id, 42)[..]);
    }

    #[test]
    fn empty_id_is_an_error() {
        let err = DeviceIdEntropy::new(&[], 1).fill(&mut [0; 8]).unwrap_err();
        assert_eq!(err.reason(), "empty device id");
    }

    /// Structured inputs (consecutive serials, consecutive boots) give no repeated value among
    /// 200,000 outputs: 40-bit values would repeat with probability about 1.8 % by chance, the
    /// full 64-bit blocks far less (about 1e-9), so any repeat here means a broken mix.
    #[test]
    fn consecutive_devices_and_boots_give_distinct_blocks() {
        let mut seen = HashSet::new();
        for serial in 0u32..2_000 {
            let mut id = vec![0u8; 12];
            id[8..].copy_from_slice(&serial.to_be_bytes());
            for boot in 0..100 {
                assert!(seen.insert(block0(&id, boot)), "repeat at {serial}/{boot}");
            }
        }
    }

    /// A single flipped input bit changes about half of the 64 output bits on average.
    #[test]
    fn one_bit_of_input_flips_about_half_the_output() {
        let id = *b"unique-id-12";
        let base = u64::from_le_bytes(block0(&id, 1000));
        let mut total = 0;
        let mut n = 0;
        for bit in 0..96 {
            let mut flipped = id;
            flipped[bit / 8] ^= 1 << (bit % 8);
            total += (base ^ u64::from_le_bytes(block0(&flipped, 1000))).count_ones();
            n += 1;
        }
        for bit in 0..32 {
            total += (base ^ u64::from_le_bytes(block0(&id, 1000 ^ (1 << bit)))).count_ones();
            n += 1;
        }
        let mean = f64::from(total) / f64::from(n);
        assert!((28.0..36.0).contains(&mean), "mean flipped bits {mean}");
    }

    /// A small deterministic stand-in for an RNG peripheral.
    fn lcg(state: &mut u8, buf: &mut [u8]) {
        for b in buf {
            *state = state.wrapping_mul(37).wrapping_add(11);
            *b = *state;
        }
    }

    fn init_with(
        entropy: &mut impl Entropy,
    ) -> Result<crate::SharedGenerator<oid_core::FixedClock>, crate::Error> {
        let generator = crate::SharedGenerator::new(oid_core::FixedClock::at(1_700_000_000));
        generator.init(entropy).map(|()| generator)
    }

    #[test]
    fn a_healthy_rng_seeds() {
        let mut state = 1;
        let generator =
            init_with(&mut HardwareRng::new(|b: &mut [u8]| lcg(&mut state, b))).unwrap();
        assert!(generator.try_next().is_ok());
        // A fallible closure that succeeds.
        let mut state = 2;
        let mut rng = HardwareRng::new(|b: &mut [u8]| -> Result<(), EntropyError> {
            lcg(&mut state, b);
            Ok(())
        });
        assert!(init_with(&mut rng).is_ok());
    }

    #[test]
    fn a_failing_rng_reaches_init_as_an_error() {
        let err = init_with(&mut HardwareRng::new(|_: &mut [u8]| {
            Err(EntropyError::with_code("rng seed error", 2))
        }))
        .unwrap_err();
        assert_eq!(
            err.entropy(),
            Some(EntropyError::with_code("rng seed error", 2))
        );
    }

    #[test]
    fn a_closure_that_writes_nothing_is_not_a_seed() {
        let mut garbage = [0xa5u8; 8];
        // Even into a buffer that held something: it is zeroed first.
        let err = HardwareRng::new(|_: &mut [u8]| {})
            .fill(&mut garbage)
            .unwrap_err();
        assert_eq!(err.reason(), "hardware rng stuck at all zeros or all ones");
        let err = init_with(&mut HardwareRng::new(|_: &mut [u8]| {})).unwrap_err();
        assert_eq!(
            err.entropy().map(|e| e.reason()),
            Some("hardware rng stuck at all zeros or all ones")
        );
    }

    #[test]
    fn stuck_high_and_repeated_output_are_errors() {
        let err = init_with(&mut HardwareRng::new(|b: &mut [u8]| b.fill(0xff))).unwrap_err();
        assert_eq!(
            err.entropy().map(|e| e.reason()),
            Some("hardware rng stuck at all zeros or all ones")
        );
        // The same 8 bytes twice through one HardwareRng.
        let mut rng = HardwareRng::new(|b: &mut [u8]| {
            for (i, x) in b.iter_mut().enumerate() {
                *x = i as u8 + 1;
            }
        });
        let mut out = [0u8; 8];
        assert!(rng.fill(&mut out).is_ok());
        assert_eq!(
            rng.fill(&mut out).unwrap_err().reason(),
            "hardware rng repeated its output"
        );
        // Short fills are not checked (all-equal is too likely by chance there).
        let mut short = HardwareRng::new(|_: &mut [u8]| {});
        assert!(short.fill(&mut [0u8; 3]).is_ok());
    }

    #[test]
    fn hardware_rng_passes_bytes_through() {
        let mut calls = 0;
        let mut out = [0xffu8; 8];
        {
            let mut rng = HardwareRng::new(|b: &mut [u8]| {
                calls += 1;
                for (i, x) in b.iter_mut().enumerate() {
                    *x = i as u8;
                }
            });
            rng.fill(&mut out).unwrap();
        }
        assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(calls, 1);
    }

    #[test]
    fn debug_hides_the_key() {
        let e = DeviceIdEntropy::new(&[1, 2], 3).with_key([0xab; 16]);
        let s = std::format!("{e:?}");
        assert_eq!(
            s,
            "DeviceIdEntropy { device_id: [1, 2], boot_count: 3, .. }"
        );
        assert_eq!(
            std::format!("{:?}", HardwareRng::new(|_: &mut [u8]| {})),
            "HardwareRng { .. }"
        );
    }
}
