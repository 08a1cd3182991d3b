//! [`ObjectIdExt`]: the `std` conveniences on [`ObjectId`] (generation, time).

use std::time::SystemTime;

use crate::error::Error;
use crate::sealed::Sealed;
use crate::unix_time::UnixTime;
use crate::unix_time::system_time_from;
use oid_core::ObjectId;

impl Sealed for ObjectId {}

/// `std` conveniences on [`ObjectId`]: generation and conversions to and from time.
///
/// Sealed: implemented for [`ObjectId`] only.
///
/// From a time to an id bound, use the timestamp: `ObjectId::min_for_timestamp(t.to_oid_timestamp()?)`
/// ([`UnixTime::to_oid_timestamp`] fails with [`TimeOutOfRange`](oid_core::TimeOutOfRange)
/// outside 1970-01-01T00:00:00Z..=2106-02-07T06:28:15Z rather than clamping silently: a clamped
/// bound would include ids of a second the caller did not ask for).
pub trait ObjectIdExt: Sealed + Sized {
    /// A new id from the process-wide generator: [`oid_std::new`](crate::new).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_std::prelude::*;
    /// let id = ObjectId::new();
    /// assert!(id.timestamp() > 1_600_000_000);
    /// ```
    fn new() -> Self;

    /// A new id, or why there is none: [`oid_std::try_new`](crate::try_new).
    ///
    /// # Errors
    ///
    /// See [`oid_std::try_new`](crate::try_new).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_std::prelude::*;
    /// let id = ObjectId::try_new()?;
    /// assert!(id.timestamp() > 1_600_000_000);
    /// # Ok::<(), oid_std::Error>(())
    /// ```
    fn try_new() -> Result<Self, Error>;

    /// The creation time: the timestamp as a [`SystemTime`] (whole seconds).
    ///
    /// Every timestamp (up to 2106-02-07T06:28:15Z) is exact where `SystemTime` reaches that
    /// far (64-bit Unix, Windows, macOS). Where it does not (32-bit `time_t`), later times
    /// saturate to 2038-01-19T03:14:07Z.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use oid_std::prelude::*;
    /// let id: ObjectId = "507f1f77bcf86cd799439011".parse()?;
    /// assert_eq!(id.generation_time(), UNIX_EPOCH + Duration::from_secs(1_350_508_407));
    /// # Ok::<(), oid_std::ParseError>(())
    /// ```
    fn generation_time(&self) -> SystemTime;

    /// The creation time as any [`UnixTime`]: [`SystemTime`], and with the features
    /// `chrono`, `time`, `jiff` those crates' types.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::SystemTime;
    /// use oid_std::prelude::*;
    /// let id: ObjectId = "507f1f77bcf86cd799439011".parse()?;
    /// assert_eq!(id.generation_time_as::<SystemTime>(), id.generation_time());
    /// # Ok::<(), oid_std::ParseError>(())
    /// ```
    fn generation_time_as<T: UnixTime>(&self) -> T;
}

impl ObjectIdExt for ObjectId {
    #[inline]
    fn new() -> ObjectId {
        crate::new()
    }

    #[inline]
    fn try_new() -> Result<ObjectId, Error> {
        crate::try_new()
    }

    fn generation_time(&self) -> SystemTime {
        system_time_from(self.timestamp())
    }

    fn generation_time_as<T: UnixTime>(&self) -> T {
        T::from_oid_timestamp(self.timestamp())
    }
}
