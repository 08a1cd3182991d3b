//! Decoded views of an id's fields.
//!
//! The specification asks drivers not to put accessors for the random value and the counter on
//! the id itself (they carry no meaning for applications), so they are read through these
//! views instead.

use crate::ObjectId;

/// The fields of an id in the current layout (timestamp, 5-byte random value, counter).
///
/// # Examples
///
/// ```
/// use oid_core::{oid, Parts};
/// let parts = oid!("6553f1003f2a91c8d4003039").to_parts();
/// assert_eq!(parts, Parts { timestamp: 1_700_000_000, random: [0x3f, 0x2a, 0x91, 0xc8, 0xd4], counter: 12345 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Parts {
    /// Seconds since the Unix epoch (unsigned).
    pub timestamp: u32,
    /// The per-process random value.
    pub random: [u8; 5],
    /// The 24-bit counter.
    pub counter: u32,
}

/// The fields of an id read in the legacy layout of older drivers (timestamp, 3-byte machine id,
/// 2-byte process id, counter).
///
/// # Examples
///
/// ```
/// use oid_core::{oid, LegacyParts};
/// let parts = oid!("507f1f77bcf86cd799439011").to_legacy_parts();
/// assert_eq!(parts, LegacyParts { timestamp: 1_350_508_407, machine: 0xbcf86c, process_id: 0xd799, counter: 0x439011 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LegacyParts {
    /// Seconds since the Unix epoch (unsigned).
    pub timestamp: u32,
    /// The 3-byte machine id, big-endian (always below 2^24).
    pub machine: u32,
    /// The 2-byte process id, big-endian.
    pub process_id: u16,
    /// The 24-bit counter.
    pub counter: u32,
}

impl ObjectId {
    /// Splits the id into its fields in the current layout.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::from_parts(1_700_000_000, [1, 2, 3, 4, 5], 0xabcdef);
    /// let parts = id.to_parts();
    /// assert_eq!((parts.timestamp, parts.random, parts.counter), (1_700_000_000, [1, 2, 3, 4, 5], 0xabcdef));
    /// ```
    #[inline]
    pub const fn to_parts(&self) -> Parts {
        let b = self.as_bytes();
        Parts {
            timestamp: self.timestamp(),
            random: [b[4], b[5], b[6], b[7], b[8]],
            counter: u32::from_be_bytes([0, b[9], b[10], b[11]]),
        }
    }

    /// Splits the id into its fields in the legacy layout.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::from_legacy_parts(1, 0xabcdef, 0x1234, 7);
    /// let parts = id.to_legacy_parts();
    /// assert_eq!((parts.machine, parts.process_id, parts.counter), (0xabcdef, 0x1234, 7));
    /// ```
    #[inline]
    pub const fn to_legacy_parts(&self) -> LegacyParts {
        let b = self.as_bytes();
        LegacyParts {
            timestamp: self.timestamp(),
            machine: u32::from_be_bytes([0, b[4], b[5], b[6]]),
            process_id: u16::from_be_bytes([b[7], b[8]]),
            counter: u32::from_be_bytes([0, b[9], b[10], b[11]]),
        }
    }
}
