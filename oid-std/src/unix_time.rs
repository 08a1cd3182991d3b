//! Time types that convert to and from an ObjectId timestamp.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::sealed::Sealed;
use oid_core::TimeOutOfRange;

/// A point in time that converts to and from an ObjectId timestamp (whole seconds since the
/// Unix epoch, unsigned 32-bit).
///
/// Implemented for [`SystemTime`]; with the feature `chrono` for `chrono::DateTime<Utc>`, with
/// `time` for `time::OffsetDateTime` and `time::UtcDateTime`, with `jiff` for
/// `jiff::Timestamp`. Used by [`ObjectIdExt`](crate::prelude::ObjectIdExt)'s
/// `generation_time_as`, and feeds `ObjectId::min_for_timestamp`/`max_for_timestamp`. Sealed.
///
/// # Examples
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use oid_std::UnixTime;
///
/// let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_500);
/// assert_eq!(t.to_oid_timestamp()?, 1_700_000_000);
/// assert_eq!(std::time::SystemTime::from_oid_timestamp(5), UNIX_EPOCH + Duration::from_secs(5));
/// assert!((UNIX_EPOCH - Duration::from_secs(1)).to_oid_timestamp().is_err());
/// # Ok::<(), oid_std::TimeOutOfRange>(())
/// ```
///
/// With the feature `chrono` (`time` and `jiff` work the same way):
///
/// ```
/// # #[cfg(feature = "chrono")] {
/// use chrono::{DateTime, Utc};
/// use oid_std::prelude::*;
///
/// let id: ObjectId = "6553f1003f2a91c8d4003039".parse().unwrap();
/// let created: DateTime<Utc> = id.generation_time_as();
/// assert_eq!(created.timestamp(), 1_700_000_000);
/// assert_eq!(created.to_oid_timestamp(), Ok(1_700_000_000));
/// # }
/// ```
pub trait UnixTime: Sealed + Sized {
    /// The whole second containing this time, as an ObjectId timestamp.
    ///
    /// # Errors
    ///
    /// [`TimeOutOfRange`] (kind [`TimeOutOfRange`](crate::ErrorKind::TimeOutOfRange)) before 1970-01-01T00:00:00Z or after 2106-02-07T06:28:15Z
    /// (after `u32::MAX` seconds plus 999,999,999 nanoseconds).
    fn to_oid_timestamp(&self) -> Result<u32, TimeOutOfRange>;

    /// The time `timestamp` seconds after the Unix epoch.
    ///
    /// Exact for every timestamp, except for a [`SystemTime`] on platforms with a 32-bit
    /// `time_t`, which saturates at 2038-01-19T03:14:07Z.
    fn from_oid_timestamp(timestamp: u32) -> Self;
}

/// Whole seconds (floored) to a timestamp, or out of range.
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff", test))]
pub(crate) fn checked_timestamp(floor_secs: i64) -> Result<u32, TimeOutOfRange> {
    u32::try_from(floor_secs).map_err(|_| TimeOutOfRange::new())
}

impl Sealed for SystemTime {}

impl UnixTime for SystemTime {
    fn to_oid_timestamp(&self) -> Result<u32, TimeOutOfRange> {
        match self.duration_since(UNIX_EPOCH) {
            Ok(d) => u32::try_from(d.as_secs()).map_err(|_| TimeOutOfRange::new()),
            Err(_) => Err(TimeOutOfRange::new()), // strictly before the epoch
        }
    }

    fn from_oid_timestamp(timestamp: u32) -> Self {
        system_time_from(timestamp)
    }
}

/// `UNIX_EPOCH + secs`, saturating where `SystemTime` cannot represent it.
pub(crate) fn system_time_from(secs: u32) -> SystemTime {
    UNIX_EPOCH
        .checked_add(Duration::from_secs(u64::from(secs)))
        .or_else(|| UNIX_EPOCH.checked_add(Duration::from_secs(i32::MAX as u64)))
        .unwrap_or(UNIX_EPOCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_time_edges() {
        assert_eq!(UNIX_EPOCH.to_oid_timestamp(), Ok(0));
        assert_eq!(
            (UNIX_EPOCH - Duration::from_nanos(1)).to_oid_timestamp(),
            Err(TimeOutOfRange::new())
        );
        let last = UNIX_EPOCH + Duration::new(u64::from(u32::MAX), 999_999_999);
        assert_eq!(last.to_oid_timestamp(), Ok(u32::MAX));
        assert_eq!(
            (last + Duration::from_nanos(1)).to_oid_timestamp(),
            Err(TimeOutOfRange::new())
        );
        assert_eq!(
            SystemTime::from_oid_timestamp(u32::MAX),
            UNIX_EPOCH + Duration::from_secs(u64::from(u32::MAX))
        );
        assert_eq!(checked_timestamp(-1), Err(TimeOutOfRange::new()));
        assert_eq!(checked_timestamp(1 << 32), Err(TimeOutOfRange::new()));
        assert_eq!(checked_timestamp(7), Ok(7));
    }
}
