//! `use oid_std::prelude::*;` brings [`ObjectId`] and the [`ObjectIdExt`] extension trait, so
//! that `ObjectId::new()` and friends work.
//!
//! # Examples
//!
//! ```
//! use std::time::{Duration, SystemTime};
//! use oid_std::prelude::*;
//!
//! let id = ObjectId::new();
//! let now = SystemTime::now();
//! assert!(now.duration_since(id.generation_time()).unwrap() < Duration::from_secs(2));
//!
//! let yesterday = now - Duration::from_secs(86_400);
//! let lo = ObjectId::min_for_time(yesterday)?;
//! let hi = ObjectId::max_for_time(now)?;
//! assert!(lo <= id && id <= hi);
//! # Ok::<(), oid_std::Error>(())
//! ```

use std::time::SystemTime;

pub use crate::error::Error;
use crate::sealed::Sealed;
pub use crate::unix_time::UnixTime;
use crate::unix_time::system_time_from;
pub use oid_core::ObjectId;

impl Sealed for ObjectId {}

/// `std` conveniences on [`ObjectId`]: generation and conversions to and from time.
///
/// Sealed: implemented for [`ObjectId`] only.
///
/// # Times outside the timestamp's range
///
/// The 4-byte unsigned timestamp covers 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z.
/// [`min_for_time`](ObjectIdExt::min_for_time) and [`max_for_time`](ObjectIdExt::max_for_time)
/// return an error (kind [`ClockOutOfRange`](crate::ErrorKind::ClockOutOfRange)) for a time outside that range rather than
/// clamping it silently: a clamped bound would include ids of a second the caller did not ask
/// for. Clamp yourself when that is what you want (e.g. `ObjectId::MIN` as the lower bound for
/// times before 1970). Fractions of a second are dropped: the second containing the time is
/// used. Nothing here panics.
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

    /// The smallest id of the second containing `time` (all other bytes zero): the inclusive
    /// lower bound of "created at or after `time`" (to the second).
    ///
    /// # Errors
    ///
    /// An [`Error`] of kind [`ClockOutOfRange`](crate::ErrorKind::ClockOutOfRange) for a time before 1970 or after 2106-02-07T06:28:15Z.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use oid_std::prelude::*;
    /// let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_999);
    /// assert_eq!(ObjectId::min_for_time(t)?.to_hex(), "6553f1000000000000000000");
    /// assert!(ObjectId::min_for_time(UNIX_EPOCH - Duration::from_nanos(1)).is_err());
    /// # Ok::<(), oid_std::Error>(())
    /// ```
    fn min_for_time<T: UnixTime>(time: T) -> Result<Self, Error>;

    /// The largest id of the second containing `time` (all other bytes `0xff`): the inclusive
    /// upper bound of "created at or before `time`" (to the second).
    ///
    /// # Errors
    ///
    /// An [`Error`] of kind [`ClockOutOfRange`](crate::ErrorKind::ClockOutOfRange) for a time before 1970 or after 2106-02-07T06:28:15Z.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use oid_std::prelude::*;
    /// let t = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    /// assert_eq!(ObjectId::max_for_time(t)?.to_hex(), "6553f100ffffffffffffffff");
    /// let last = UNIX_EPOCH + Duration::from_secs(u64::from(u32::MAX)) + Duration::from_millis(999);
    /// assert_eq!(ObjectId::max_for_time(last)?, ObjectId::MAX);
    /// # Ok::<(), oid_std::Error>(())
    /// ```
    fn max_for_time<T: UnixTime>(time: T) -> Result<Self, Error>;
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

    fn min_for_time<T: UnixTime>(time: T) -> Result<ObjectId, Error> {
        time.to_oid_timestamp().map(ObjectId::min_for_timestamp)
    }

    fn max_for_time<T: UnixTime>(time: T) -> Result<ObjectId, Error> {
        time.to_oid_timestamp().map(ObjectId::max_for_timestamp)
    }
}
