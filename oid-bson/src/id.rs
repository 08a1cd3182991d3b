//! The bson-aware `ObjectId` newtype and its bson-independent API.

use core::fmt;
use core::str::FromStr;

use crate::oid::Error;

/// A MongoDB ObjectId that is always stored as a native BSON ObjectId.
///
/// A `#[repr(transparent)]` newtype over [`oid_core::ObjectId`] with the API of
/// `bson::oid::ObjectId` (same names and signatures), so code written for bson's type compiles
/// after changing the import. Its serde impl writes an ObjectId element (`0x07`) through bson's
/// serializers at any depth (fields, `Option`, `Vec`, maps, nested structs, enums) with no
/// attribute, and the plain hex string in human-readable formats such as JSON; it reads every
/// form either type ever wrote (see the crate documentation).
///
/// [`Ord`] is the byte-wise (memcmp) order, which sorts by creation second first. Conversions to
/// and from [`oid_core::ObjectId`], `[u8; 12]` and `bson::oid::ObjectId` copy the 12 bytes.
///
/// # Examples
///
/// ```
/// use oid_bson::oid::ObjectId;
///
/// let id = ObjectId::parse_str("507f1f77bcf86cd799439011")?;
/// assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
/// assert_eq!(format!("{id:?}"), r#"ObjectId("507f1f77bcf86cd799439011")"#);
/// assert_eq!(id.bytes()[..4], 1_350_508_407_u32.to_be_bytes());
///
/// let fresh = ObjectId::new();
/// assert_ne!(fresh, id);
/// # Ok::<(), oid_bson::oid::Error>(())
/// ```
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
// juniper: oid-core's scalar `ObjectID` (the name, `@specifiedBy` URL and string form of
// juniper's own `bson` integration), delegated to whole; bad input is a GraphQL error with the
// parse error's message.
#[cfg_attr(
    feature = "juniper",
    derive(juniper::GraphQLScalar),
    graphql(
        transparent,
        name = "ObjectID",
        description = "A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in\nlowercase.",
        specified_by_url = "https://graphql-scalars.dev/docs/scalars/object-id",
    )
)]
#[repr(transparent)]
pub struct ObjectId(oid_core::ObjectId);

impl ObjectId {
    /// A new id from oid-std's process-wide generator ([`oid_std::new`]): never a duplicate
    /// within the process (past a second's capacity it follows oid-core's
    /// [`CapacityPolicy`](oid_core::CapacityPolicy)), fork-safe, increasing within a thread.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// let (a, b) = (ObjectId::new(), ObjectId::new());
    /// assert!(a < b);
    /// ```
    #[inline]
    #[allow(
        clippy::new_without_default,
        reason = "Default is implemented, as new()"
    )]
    pub fn new() -> ObjectId {
        ObjectId(oid_std::new())
    }

    /// Wraps 12 raw bytes, as stored in BSON.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// const ID: ObjectId = ObjectId::from_bytes([0x50, 0x7f, 0x1f, 0x77, 0xbc, 0xf8, 0x6c, 0xd7, 0x99, 0x43, 0x90, 0x11]);
    /// assert_eq!(ID.to_hex(), "507f1f77bcf86cd799439011");
    /// ```
    #[inline]
    pub const fn from_bytes(bytes: [u8; 12]) -> ObjectId {
        ObjectId(oid_core::ObjectId::from_bytes(bytes))
    }

    /// Builds an id from its fields, as `bson::oid::ObjectId::from_parts` does: the seconds since
    /// the Unix epoch, the 5-byte per-process value and the 3-byte counter (big-endian).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// let id = ObjectId::from_parts(1_700_000_000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], [0x00, 0x30, 0x39]);
    /// assert_eq!(id.to_hex(), "6553f1003f2a91c8d4003039");
    /// ```
    #[inline]
    pub const fn from_parts(
        seconds_since_epoch: u32,
        process_id: [u8; 5],
        counter: [u8; 3],
    ) -> Self {
        let counter = u32::from_be_bytes([0, counter[0], counter[1], counter[2]]);
        ObjectId(oid_core::ObjectId::from_parts(
            seconds_since_epoch,
            process_id,
            counter,
        ))
    }

    /// Parses 24 hex digits (any case).
    ///
    /// # Errors
    ///
    /// [`oid::Error`](crate::oid::Error), the error type of the bson this crate's unversioned
    /// API uses, as `bson::oid::ObjectId::parse_str` returns it:
    ///
    /// - with the feature `bson-3`: `bson::error::Error`, exactly what bson 3's `parse_str`
    ///   returns (kind `ObjectId`, so `?` converts it into the `mongodb` driver's error), with
    ///   this crate's message naming the wrong length or the first character that is not a hex
    ///   digit in its `message`;
    /// - else: oid-core's [`ParseError`](oid_core::ParseError), with that message and `len()`
    ///   / `invalid_char()` (bson 2's `oid::Error` enum cannot be built outside bson; the
    ///   migration guide shows the two-line replacement for a `match` on its variants).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// let id = ObjectId::parse_str("507F1F77BCF86CD799439011")?;
    /// assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
    ///
    /// let err = ObjectId::parse_str(String::from("abc")).unwrap_err();
    /// assert!(err.to_string().contains("invalid length: expected 24 hex characters, found 3"));
    /// # Ok::<(), oid_bson::oid::Error>(())
    /// ```
    #[inline]
    pub fn parse_str(s: impl AsRef<str>) -> Result<ObjectId, Error> {
        let s = s.as_ref();
        oid_core::ObjectId::parse_str(s)
            .map(ObjectId)
            .map_err(|e| crate::error::parse_error(e, s))
    }

    /// The 12 raw bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// assert_eq!(ObjectId::from_bytes([3; 12]).bytes(), [3; 12]);
    /// ```
    #[inline]
    pub const fn bytes(&self) -> [u8; 12] {
        self.0.bytes()
    }

    /// The 24 lowercase hex digits.
    ///
    /// Takes `self` by value like `bson::oid::ObjectId::to_hex` (the id is `Copy`).
    /// [`oid_core::ObjectId::to_hex`] (through [`as_core`](ObjectId::as_core)) formats on the
    /// stack instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// assert_eq!(ObjectId::from_bytes([0xab; 12]).to_hex(), "abababababababababababab");
    /// ```
    #[inline]
    #[allow(
        clippy::wrong_self_convention,
        reason = "same signature as bson::oid::ObjectId::to_hex"
    )]
    pub fn to_hex(self) -> String {
        String::from(self.0.to_hex().as_str())
    }

    /// Wraps oid-core's id; `const`, for `const` items (the [`oid!`](crate::oid!) macro uses it).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// const ID: ObjectId = ObjectId::from_core(oid_core::ObjectId::MAX);
    /// assert_eq!(ID.bytes(), [0xff; 12]);
    /// ```
    #[inline]
    pub const fn from_core(id: oid_core::ObjectId) -> ObjectId {
        ObjectId(id)
    }

    /// The smallest id of second `secs` (all other bytes zero): the inclusive lower bound of
    /// "created at or after" that second, as oid-core's
    /// [`min_for_timestamp`](oid_core::ObjectId::min_for_timestamp). From a `DateTime`:
    /// [`BsonDateTime::to_oid_timestamp`](crate::BsonDateTime::to_oid_timestamp).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// assert_eq!(ObjectId::min_for_timestamp(1_700_000_000).to_hex(), "6553f1000000000000000000");
    /// ```
    #[inline]
    pub const fn min_for_timestamp(secs: u32) -> ObjectId {
        ObjectId(oid_core::ObjectId::min_for_timestamp(secs))
    }

    /// The largest id of second `secs` (all other bytes `0xff`): the inclusive upper bound of
    /// "created at or before" that second.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// assert_eq!(ObjectId::max_for_timestamp(1_700_000_000).to_hex(), "6553f100ffffffffffffffff");
    /// ```
    #[inline]
    pub const fn max_for_timestamp(secs: u32) -> ObjectId {
        ObjectId(oid_core::ObjectId::max_for_timestamp(secs))
    }

    /// The same id as oid-core's type (for its allocation-free formatting, parts, ranges…).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// let id = oid_bson::oid!("6553f1003f2a91c8d4003039");
    /// assert_eq!(id.as_core().to_parts().counter, 12345);
    /// ```
    #[inline]
    pub const fn as_core(&self) -> oid_core::ObjectId {
        self.0
    }
}

impl Default for ObjectId {
    /// A **new** id, as `bson::oid::ObjectId::default()` gives: not a fixed value. Deriving
    /// `Default` on a model therefore makes a fresh `_id` each time, as it did with bson's type,
    /// so a migrated model behaves the same. (`oid_core::ObjectId::default()`, also
    /// `oid_std::ObjectId`'s, is all zeros: the value type's zero, see its docs.)
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// assert_ne!(ObjectId::default(), ObjectId::default());
    /// ```
    #[inline]
    fn default() -> Self {
        ObjectId::new()
    }
}

impl fmt::Display for ObjectId {
    /// The 24 lowercase hex digits.
    ///
    /// # Examples
    ///
    /// ```
    /// let id = oid_bson::oid!("507f1f77bcf86cd799439011");
    /// assert_eq!(id.to_string(), "507f1f77bcf86cd799439011");
    /// ```
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.to_hex().as_str())
    }
}

impl fmt::Debug for ObjectId {
    /// `ObjectId("<hex>")`, as `bson::oid::ObjectId` prints.
    ///
    /// # Examples
    ///
    /// ```
    /// let id = oid_bson::oid!("507f1f77bcf86cd799439011");
    /// assert_eq!(format!("{id:?}"), r#"ObjectId("507f1f77bcf86cd799439011")"#);
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ObjectId")
            .field(&self.0.to_hex().as_str())
            .finish()
    }
}

impl FromStr for ObjectId {
    type Err = Error;

    /// As [`ObjectId::parse_str`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// let id: ObjectId = "507f1f77bcf86cd799439011".parse()?;
    /// assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
    /// assert!("nope".parse::<ObjectId>().is_err());
    /// # Ok::<(), oid_bson::oid::Error>(())
    /// ```
    #[inline]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ObjectId::parse_str(s)
    }
}

impl From<[u8; 12]> for ObjectId {
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// assert_eq!(ObjectId::from([1; 12]).bytes(), [1; 12]);
    /// ```
    #[inline]
    fn from(bytes: [u8; 12]) -> Self {
        ObjectId::from_bytes(bytes)
    }
}

impl From<ObjectId> for [u8; 12] {
    /// # Examples
    ///
    /// ```
    /// let bytes: [u8; 12] = oid_bson::ObjectId::from_bytes([9; 12]).into();
    /// assert_eq!(bytes, [9; 12]);
    /// ```
    #[inline]
    fn from(id: ObjectId) -> Self {
        id.bytes()
    }
}

impl From<oid_core::ObjectId> for ObjectId {
    /// # Examples
    ///
    /// ```
    /// let ours = oid_bson::ObjectId::from(oid_core::ObjectId::MAX);
    /// assert_eq!(ours.bytes(), [0xff; 12]);
    /// ```
    #[inline]
    fn from(id: oid_core::ObjectId) -> Self {
        ObjectId(id)
    }
}

impl From<ObjectId> for oid_core::ObjectId {
    /// # Examples
    ///
    /// ```
    /// let core = oid_core::ObjectId::from(oid_bson::ObjectId::from_bytes([4; 12]));
    /// assert_eq!(core.bytes(), [4; 12]);
    /// ```
    #[inline]
    fn from(id: ObjectId) -> Self {
        id.0
    }
}

impl PartialEq<oid_core::ObjectId> for ObjectId {
    #[inline]
    fn eq(&self, other: &oid_core::ObjectId) -> bool {
        self.0 == *other
    }
}

impl PartialEq<ObjectId> for oid_core::ObjectId {
    #[inline]
    fn eq(&self, other: &ObjectId) -> bool {
        *self == other.0
    }
}

impl AsRef<[u8]> for ObjectId {
    /// # Examples
    ///
    /// ```
    /// let id = oid_bson::ObjectId::from_bytes([5; 12]);
    /// assert_eq!(AsRef::<[u8]>::as_ref(&id), &[5; 12]);
    /// ```
    #[inline]
    fn as_ref(&self) -> &[u8] {
        self.0.as_ref()
    }
}

impl TryFrom<&str> for ObjectId {
    type Error = Error;

    /// As [`ObjectId::parse_str`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// assert!(ObjectId::try_from("507f1f77bcf86cd799439011").is_ok());
    /// ```
    #[inline]
    fn try_from(s: &str) -> Result<Self, Error> {
        ObjectId::parse_str(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_transparent_size() {
        assert_eq!(size_of::<ObjectId>(), 12);
        assert_eq!(align_of::<ObjectId>(), 1);
    }

    #[test]
    fn order_is_bytewise() {
        let a = ObjectId::from_bytes([0; 12]);
        let mut b = [0; 12];
        b[11] = 1;
        assert!(a < ObjectId::from_bytes(b));
        assert!(
            ObjectId::from_parts(2, [0; 5], [0; 3]) > ObjectId::from_parts(1, [0xff; 5], [0xff; 3])
        );
    }

    #[test]
    fn alternate_debug_matches_debug_tuple() {
        let id = ObjectId::from_bytes([0x11; 12]);
        assert_eq!(
            format!("{id:#?}"),
            "ObjectId(\n    \"111111111111111111111111\",\n)"
        );
    }
}
