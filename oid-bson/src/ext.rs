//! Extension traits, named by role: on bson's `Document`/`Bson` ([`DocumentExt`], [`BsonExt`])
//! and on bson's `DateTime` ([`BsonDateTime`]). None is named like oid-std's prelude trait, so
//! `use oid_std::prelude::*; use oid_bson::*;` works together.

use crate::ObjectId;
use crate::error::NotAnObjectId;
use crate::sealed::Sealed;
use oid_core::TimeOutOfRange;

/// bson's `DateTime`, of bson 3 and of bson 2: to and from an ObjectId timestamp. Sealed.
///
/// The way from a `DateTime` to an id bound is the same as for every time type in the
/// workspace: [`to_oid_timestamp`](Self::to_oid_timestamp) (the same name as `oid_std::UnixTime`'s)
/// feeding [`ObjectId::min_for_timestamp`] / [`ObjectId::max_for_timestamp`]; for a MongoDB
/// filter over a time range, [`created_between`](crate::created_between).
///
/// # Examples
///
/// ```
/// # #[cfg(any(feature = "bson-2", feature = "bson-3"))] {
/// use oid_bson::{BsonDateTime, ObjectId};
/// use oid_bson::bson::DateTime;
///
/// let id = oid_bson::oid!("6553f1003f2a91c8d4003039");
/// let t: DateTime = id.timestamp_as();
/// assert_eq!(t.timestamp_millis(), 1_700_000_000_000);
/// let lo = ObjectId::min_for_timestamp(t.to_oid_timestamp().unwrap());
/// assert_eq!(lo.to_hex(), "6553f1000000000000000000");
/// assert!(DateTime::from_millis(-1).to_oid_timestamp().is_err());
/// # }
/// ```
pub trait BsonDateTime: Sealed + Copy {
    /// The date-time `millis` milliseconds after the Unix epoch.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use oid_bson::BsonDateTime;
    /// let t = <bson::DateTime as BsonDateTime>::from_millis(5);
    /// assert_eq!(t, bson::DateTime::from_millis(5));
    /// # }
    /// ```
    fn from_millis(millis: i64) -> Self;

    /// Milliseconds since the Unix epoch.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use oid_bson::BsonDateTime;
    /// assert_eq!(BsonDateTime::timestamp_millis(&bson::DateTime::from_millis(5)), 5);
    /// # }
    /// ```
    fn timestamp_millis(&self) -> i64;

    /// The whole second containing this time, as an ObjectId timestamp.
    ///
    /// # Errors
    ///
    /// [`TimeOutOfRange`] before 1970 or after 2106-02-07T06:28:15.999Z.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(any(feature = "bson-2", feature = "bson-3"))] {
    /// use oid_bson::BsonDateTime;
    /// use oid_bson::bson::DateTime;
    /// assert_eq!(DateTime::from_millis(1_700_000_000_999).to_oid_timestamp(), Ok(1_700_000_000));
    /// assert!(DateTime::from_millis(4_294_967_296_000).to_oid_timestamp().is_err());
    /// assert_eq!(DateTime::from_millis(4_294_967_295_999).to_oid_timestamp(), Ok(u32::MAX));
    /// # }
    /// ```
    fn to_oid_timestamp(&self) -> Result<u32, TimeOutOfRange> {
        u32::try_from(self.timestamp_millis().div_euclid(1000)).map_err(|_| TimeOutOfRange::new())
    }
}

impl ObjectId {
    /// The creation time as bson's `DateTime` (whole seconds), as
    /// `bson::oid::ObjectId::timestamp` returns.
    ///
    /// The type is `oid_bson::bson::DateTime`: bson 2's with the default feature `bson-2`,
    /// bson 3's when `bson-3` is on, exactly as the `mongodb` driver picks its `bson`. [`timestamp_as`](ObjectId::timestamp_as) names the version explicitly.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_bson::ObjectId;
    /// let id = ObjectId::from_parts(1_700_000_000, [0; 5], [0; 3]);
    /// assert_eq!(id.timestamp().timestamp_millis(), 1_700_000_000_000);
    /// ```
    #[cfg(any(feature = "bson-3", feature = "bson-2"))]
    #[inline]
    pub fn timestamp(&self) -> crate::bson::DateTime {
        self.timestamp_as()
    }

    /// The creation time as the `DateTime` of either bson version.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-2")] {
    /// let id = oid_bson::oid!("ffffffff0000000000000000");
    /// let t: bson2::DateTime = id.timestamp_as();
    /// assert_eq!(t.timestamp_millis(), 4_294_967_295_000);
    /// # }
    /// ```
    #[inline]
    pub fn timestamp_as<D: BsonDateTime>(&self) -> D {
        D::from_millis(i64::from(self.as_core().timestamp()) * 1000)
    }
}

/// Reading ids as [`ObjectId`] (this crate's type) from bson's `Document`, of bson 3 and bson 2.
/// Sealed.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "bson-3")] {
/// use bson::doc;
/// use oid_bson::{DocumentExt, ObjectId};
///
/// let id = ObjectId::new();
/// let doc = doc! { "_id": id, "name": "ada" };
/// assert_eq!(doc.get_oid("_id"), Ok(id));
/// assert_eq!(doc.get_oid("name").unwrap_err().to_string(), "expected a BSON ObjectId, found a string");
/// # }
/// ```
pub trait DocumentExt: Sealed {
    /// The id stored under `key` (as `Document::get_object_id`, returning this crate's type).
    ///
    /// # Errors
    ///
    /// [`NotAnObjectId`] when the key is missing or holds another type (a hex string is not
    /// parsed: a string and an ObjectId are different BSON values).
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-2")] {
    /// use oid_bson::DocumentExt;
    /// let doc = bson2::doc! { "_id": oid_bson::oid!("507f1f77bcf86cd799439011") };
    /// assert_eq!(doc.get_oid("_id").map(|id| id.to_hex()), Ok("507f1f77bcf86cd799439011".to_owned()));
    /// assert!(doc.get_oid("missing").is_err());
    /// # }
    /// ```
    fn get_oid(&self, key: impl AsRef<str>) -> Result<ObjectId, NotAnObjectId>;
}

/// Reading an id as [`ObjectId`] (this crate's type) from bson's `Bson`, of bson 3 and bson 2.
/// Sealed.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "bson-3")] {
/// use bson::Bson;
/// use oid_bson::{BsonExt, ObjectId};
///
/// let id = ObjectId::new();
/// assert_eq!(Bson::from(id).as_oid(), Some(id));
/// assert_eq!(Bson::Null.as_oid(), None);
/// # }
/// ```
pub trait BsonExt: Sealed {
    /// The id of a `Bson::ObjectId`, as `Bson::as_object_id` returning this crate's type.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use oid_bson::BsonExt;
    /// assert_eq!(bson::Bson::Int32(1).as_oid(), None);
    /// # }
    /// ```
    fn as_oid(&self) -> Option<ObjectId>;
}
