//! The `ObjectId` value type and its byte-level API.

use crate::error::FromSliceError;

/// A MongoDB/BSON ObjectId: 12 bytes.
///
/// The layout (MongoDB "ObjectId Specification"):
///
/// | bytes | field | encoding |
/// |-------|-------|----------|
/// | 0..4  | timestamp, seconds since the Unix epoch | big-endian, **unsigned** |
/// | 4..9  | random value, chosen once per process | raw bytes |
/// | 9..12 | counter, starting at a random value, wrapping at 2^24 | big-endian |
///
/// Older drivers stored a 3-byte machine id and a 2-byte process id in place of the random
/// value; see [`ObjectId::to_legacy_parts`].
///
/// `ObjectId` is `#[repr(transparent)]` over `[u8; 12]`, and its [`Ord`] is the byte-wise
/// (memcmp) order the specification uses, which sorts ids by creation second first.
///
/// # Examples
///
/// ```
/// use oid_core::ObjectId;
///
/// let id = ObjectId::from_parts(1_700_000_000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
/// assert_eq!(id.to_hex(), "6553f1003f2a91c8d4003039");
/// assert_eq!(id.timestamp(), 1_700_000_000);
/// assert_eq!("6553F1003F2A91C8D4003039".parse::<ObjectId>(), Ok(id));
/// ```
///
/// `Default` is [`ObjectId::MIN`] (all zeros), not a new id; see its impl for why.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "bytemuck",
    derive(bytemuck::Zeroable, bytemuck::Pod, bytemuck::TransparentWrapper)
)]
#[cfg_attr(
    feature = "zerocopy",
    derive(
        zerocopy::FromBytes,
        zerocopy::IntoBytes,
        zerocopy::Immutable,
        zerocopy::KnownLayout,
        zerocopy::Unaligned
    )
)]
#[cfg_attr(
    feature = "rkyv",
    derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize),
    rkyv(
        derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash),
        compare(PartialEq),
        attr(
            doc = "The 12 bytes of an id in an rkyv archive (feature `rkyv`), read in place after \
                    rkyv's checked access; see `oid_core::ObjectId`'s rkyv support. Compares with \
                    `ObjectId`, converts to it with `to_object_id` or `From`, and prints as it does."
        )
    )
)]
#[repr(transparent)]
pub struct ObjectId(pub(crate) [u8; 12]);

impl Default for ObjectId {
    /// [`ObjectId::MIN`], all zeros: the value type's zero, as `[u8; 12]::default()`, and not a
    /// new id. This crate has no clock or generator to make one (it is `no_std`; ids come from a
    /// [`Generator`](crate::Generator) you build), and a side-effect-free `Default` is what
    /// zeroed buffers, `bytemuck::Zeroable` and `#[derive(Default)]` on plain data expect.
    ///
    /// `bson::oid::ObjectId::default()` and `oid_bson::ObjectId::default()` make a **new** id
    /// instead. A MongoDB model that derives `Default` with this type (or `oid_std::ObjectId`,
    /// the same type) gets `_id` `000000000000000000000000`, and its second insert is a duplicate
    /// key: use `oid_bson::ObjectId` in such models, or write `Default` with `oid_std::new()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert_eq!(ObjectId::default(), ObjectId::MIN);
    /// assert_eq!(ObjectId::default().to_hex(), "000000000000000000000000");
    /// ```
    #[inline]
    fn default() -> Self {
        ObjectId::MIN
    }
}

/// The legacy layout's 5 bytes in the random value's place: the machine id's low 3 bytes and
/// the process id's 2, big-endian. The one builder of them ([`ObjectId::from_legacy_parts`],
/// `Generator::from_legacy`).
pub(crate) const fn legacy_random(machine: u32, process_id: u16) -> [u8; 5] {
    let m = machine.to_be_bytes();
    let p = process_id.to_be_bytes();
    [m[1], m[2], m[3], p[0], p[1]]
}

impl ObjectId {
    /// The number of bytes in an ObjectId.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::ObjectId::BYTES, 12);
    /// ```
    pub const BYTES: usize = 12;

    /// The smallest ObjectId: all twelve bytes zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert_eq!(ObjectId::MIN.to_hex(), "000000000000000000000000");
    /// assert!(ObjectId::MIN <= ObjectId::from_bytes([7; 12]));
    /// ```
    pub const MIN: ObjectId = ObjectId([0; 12]);

    /// The largest ObjectId: all twelve bytes `0xff`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert_eq!(ObjectId::MAX.to_hex(), "ffffffffffffffffffffffff");
    /// assert!(ObjectId::MAX >= ObjectId::from_bytes([7; 12]));
    /// ```
    pub const MAX: ObjectId = ObjectId([0xff; 12]);

    /// Wraps 12 raw bytes, as stored in BSON.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// const ID: ObjectId = ObjectId::from_bytes([0x50, 0x7f, 0x1f, 0x77, 0xbc, 0xf8, 0x6c, 0xd7, 0x99, 0x43, 0x90, 0x11]);
    /// assert_eq!(ID.to_hex(), "507f1f77bcf86cd799439011");
    /// ```
    #[inline]
    pub const fn from_bytes(bytes: [u8; 12]) -> ObjectId {
        ObjectId(bytes)
    }

    /// The 12 raw bytes, by value.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::from_bytes([1; 12]);
    /// assert_eq!(id.bytes(), [1; 12]);
    /// ```
    #[inline]
    pub const fn bytes(&self) -> [u8; 12] {
        self.0
    }

    /// The 12 raw bytes, by reference.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::from_bytes([2; 12]);
    /// assert_eq!(id.as_bytes(), &[2; 12]);
    /// ```
    #[inline]
    pub const fn as_bytes(&self) -> &[u8; 12] {
        &self.0
    }

    /// Builds an id from its three fields: a 4-byte timestamp, the 5-byte random value and
    /// the counter.
    ///
    /// The counter is 24 bits wide; higher bits are ignored, exactly as the generator's
    /// counter wraps from `0xFFFFFF` to `0`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::from_parts(1_700_000_000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
    /// assert_eq!(id.to_hex(), "6553f1003f2a91c8d4003039");
    ///
    /// // Only the low 24 bits of the counter are kept.
    /// assert_eq!(ObjectId::from_parts(0, [0; 5], 0x0100_0001), ObjectId::from_parts(0, [0; 5], 1));
    /// ```
    #[inline(always)]
    pub const fn from_parts(timestamp: u32, random: [u8; 5], counter: u32) -> ObjectId {
        // Every generator builds its ids here (`IdSpace`'s `next` path, `IdBlock::write`,
        // oid-std's per-thread blocks). From two big-endian words, not twelve single bytes: an
        // id stored byte by byte and then read back as wider words (to return it in registers,
        // or copy it) waits on store forwarding, several nanoseconds per id.
        let random_hi = u32::from_be_bytes([random[0], random[1], random[2], random[3]]);
        let head = ((timestamp as u64) << 32 | random_hi as u64).to_be_bytes();
        let tail = ((random[4] as u32) << 24 | (counter & 0x00ff_ffff)).to_be_bytes();
        ObjectId([
            head[0], head[1], head[2], head[3], head[4], head[5], head[6], head[7], tail[0],
            tail[1], tail[2], tail[3],
        ])
    }

    /// Builds an id in the legacy layout of older drivers: a 3-byte machine id (the low 24 bits
    /// of `machine`, big-endian) and a 2-byte process id in place of the random value.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::from_legacy_parts(0x507f1f77, 0xbcf86c, 0xd799, 0x439011);
    /// assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
    /// ```
    #[inline]
    pub const fn from_legacy_parts(
        timestamp: u32,
        machine: u32,
        process_id: u16,
        counter: u32,
    ) -> ObjectId {
        ObjectId::from_parts(timestamp, legacy_random(machine, process_id), counter)
    }

    /// The creation time: seconds since the Unix epoch, **unsigned** as the specification
    /// requires (`0x80000000` is 2038-01-19T03:14:08Z, `0xFFFFFFFF` is 2106-02-07T06:28:15Z).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{oid, ObjectId};
    /// assert_eq!(oid!("507f1f77bcf86cd799439011").timestamp(), 1_350_508_407);
    /// assert_eq!(ObjectId::MAX.timestamp(), u32::MAX);
    /// ```
    #[inline]
    pub const fn timestamp(&self) -> u32 {
        u32::from_be_bytes([self.0[0], self.0[1], self.0[2], self.0[3]])
    }

    /// The smallest id with this creation second (all other bytes zero): the inclusive lower
    /// bound of a "created at or after `secs`" range query.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let lo = ObjectId::min_for_timestamp(1_700_000_000);
    /// assert_eq!(lo.to_hex(), "6553f1000000000000000000");
    /// ```
    #[inline]
    pub const fn min_for_timestamp(secs: u32) -> ObjectId {
        let t = secs.to_be_bytes();
        ObjectId([t[0], t[1], t[2], t[3], 0, 0, 0, 0, 0, 0, 0, 0])
    }

    /// The largest id with this creation second (all other bytes `0xff`): the inclusive upper
    /// bound of a "created at or before `secs`" range query.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let hi = ObjectId::max_for_timestamp(1_700_000_000);
    /// assert_eq!(hi.to_hex(), "6553f100ffffffffffffffff");
    /// let id = ObjectId::from_parts(1_700_000_000, [9; 5], 77);
    /// assert!(ObjectId::min_for_timestamp(1_700_000_000) <= id && id <= hi);
    /// ```
    #[inline]
    pub const fn max_for_timestamp(secs: u32) -> ObjectId {
        let t = secs.to_be_bytes();
        ObjectId([
            t[0], t[1], t[2], t[3], 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ])
    }
}

impl From<[u8; 12]> for ObjectId {
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id: ObjectId = [0u8; 12].into();
    /// assert_eq!(id, ObjectId::MIN);
    /// ```
    #[inline]
    fn from(bytes: [u8; 12]) -> Self {
        ObjectId(bytes)
    }
}

impl From<ObjectId> for [u8; 12] {
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let bytes: [u8; 12] = ObjectId::MAX.into();
    /// assert_eq!(bytes, [0xff; 12]);
    /// ```
    #[inline]
    fn from(id: ObjectId) -> Self {
        id.0
    }
}

impl AsRef<[u8]> for ObjectId {
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::MIN;
    /// let slice: &[u8] = id.as_ref();
    /// assert_eq!(slice.len(), 12);
    /// ```
    #[inline]
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl TryFrom<&[u8]> for ObjectId {
    type Error = FromSliceError;

    /// Exactly 12 bytes; any other length is an error.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert_eq!(ObjectId::try_from(&[0u8; 12][..]), Ok(ObjectId::MIN));
    /// let err = ObjectId::try_from(&[0u8; 3][..]).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid length: expected 12 bytes, found 3");
    /// ```
    #[inline]
    fn try_from(slice: &[u8]) -> Result<Self, Self::Error> {
        match <[u8; 12]>::try_from(slice) {
            Ok(bytes) => Ok(ObjectId(bytes)),
            Err(_) => Err(FromSliceError::new(slice.len())),
        }
    }
}
