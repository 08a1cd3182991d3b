//! `UnixTime` for `chrono::DateTime<Utc>` (feature `chrono`).
//!
//! # Examples
//!
//! ```
//! use chrono::{DateTime, TimeZone, Utc};
//! use oid_std::prelude::*;
//!
//! let id: ObjectId = "6553f1003f2a91c8d4003039".parse()?;
//! let t: DateTime<Utc> = id.generation_time_as();
//! assert_eq!(t, Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap());
//! assert_eq!(ObjectId::min_for_timestamp(t.to_oid_timestamp()?).to_hex(), "6553f1000000000000000000");
//! assert!(Utc.with_ymd_and_hms(1969, 12, 31, 23, 59, 59).unwrap().to_oid_timestamp().is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use chrono::{DateTime, Utc};

use crate::sealed::Sealed;
use crate::unix_time::UnixTime;
use crate::unix_time::checked_timestamp;
use oid_core::TimeOutOfRange;

impl Sealed for DateTime<Utc> {}

impl UnixTime for DateTime<Utc> {
    fn to_oid_timestamp(&self) -> Result<u32, TimeOutOfRange> {
        // `timestamp()` is floored: the sub-second part of a `DateTime` is never negative.
        checked_timestamp(self.timestamp())
    }

    fn from_oid_timestamp(timestamp: u32) -> Self {
        // Every u32 second is within chrono's range; the default (the epoch) is unreachable.
        DateTime::from_timestamp(i64::from(timestamp), 0).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeDelta, TimeZone};

    #[test]
    fn edges() {
        let epoch = DateTime::<Utc>::from_timestamp(0, 0).unwrap();
        assert_eq!(epoch.to_oid_timestamp(), Ok(0));
        assert_eq!(
            (epoch - TimeDelta::nanoseconds(1)).to_oid_timestamp(),
            Err(TimeOutOfRange::new())
        );
        let last = DateTime::<Utc>::from_timestamp(i64::from(u32::MAX), 999_999_999).unwrap();
        assert_eq!(last.to_oid_timestamp(), Ok(u32::MAX));
        assert_eq!(
            (last + TimeDelta::nanoseconds(1)).to_oid_timestamp(),
            Err(TimeOutOfRange::new())
        );
        assert_eq!(
            <DateTime<Utc>>::from_oid_timestamp(u32::MAX),
            Utc.with_ymd_and_hms(2106, 2, 7, 6, 28, 15).unwrap()
        );
        assert_eq!(<DateTime<Utc>>::from_oid_timestamp(0), epoch);
    }
}
