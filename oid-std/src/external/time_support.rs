//! `UnixTime` for `time::OffsetDateTime` and `time::UtcDateTime` (feature `time`).
//!
//! # Examples
//!
//! ```
//! use time::{OffsetDateTime, UtcDateTime};
//! use oid_std::prelude::*;
//!
//! let id: ObjectId = "6553f1003f2a91c8d4003039".parse()?;
//! let t: OffsetDateTime = id.generation_time_as();
//! assert_eq!(t.unix_timestamp(), 1_700_000_000);
//! assert_eq!(ObjectId::min_for_timestamp(t.to_oid_timestamp()?).to_hex(), "6553f1000000000000000000");
//! let u: UtcDateTime = id.generation_time_as();
//! assert_eq!(ObjectId::max_for_timestamp(u.to_oid_timestamp()?).to_hex(), "6553f100ffffffffffffffff");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use time::{OffsetDateTime, UtcDateTime};

use crate::sealed::Sealed;
use crate::unix_time::UnixTime;
use crate::unix_time::checked_timestamp;
use oid_core::TimeOutOfRange;

impl Sealed for OffsetDateTime {}

impl UnixTime for OffsetDateTime {
    fn to_oid_timestamp(&self) -> Result<u32, TimeOutOfRange> {
        // `unix_timestamp()` is floored (the time of day is never negative), any offset.
        checked_timestamp(self.unix_timestamp())
    }

    fn from_oid_timestamp(timestamp: u32) -> Self {
        // Every u32 second is within time's range; the fallback is unreachable.
        OffsetDateTime::from_unix_timestamp(i64::from(timestamp))
            .unwrap_or(OffsetDateTime::UNIX_EPOCH)
    }
}

impl Sealed for UtcDateTime {}

impl UnixTime for UtcDateTime {
    fn to_oid_timestamp(&self) -> Result<u32, TimeOutOfRange> {
        checked_timestamp(self.unix_timestamp())
    }

    fn from_oid_timestamp(timestamp: u32) -> Self {
        UtcDateTime::from_unix_timestamp(i64::from(timestamp)).unwrap_or(UtcDateTime::UNIX_EPOCH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::{Duration, UtcOffset};

    #[test]
    fn edges() {
        let epoch = OffsetDateTime::UNIX_EPOCH;
        assert_eq!(epoch.to_oid_timestamp(), Ok(0));
        assert_eq!(
            (epoch - Duration::nanoseconds(1)).to_oid_timestamp(),
            Err(TimeOutOfRange::new())
        );
        let last = OffsetDateTime::from_unix_timestamp(i64::from(u32::MAX)).unwrap()
            + Duration::nanoseconds(999_999_999);
        assert_eq!(last.to_oid_timestamp(), Ok(u32::MAX));
        // Another offset, same instant.
        let offset = UtcOffset::from_hms(-5, 0, 0).unwrap();
        assert_eq!(last.to_offset(offset).to_oid_timestamp(), Ok(u32::MAX));
        assert_eq!(
            (last + Duration::nanoseconds(1)).to_oid_timestamp(),
            Err(TimeOutOfRange::new())
        );
        assert_eq!(
            OffsetDateTime::from_oid_timestamp(u32::MAX).unix_timestamp(),
            i64::from(u32::MAX)
        );
        let u = UtcDateTime::UNIX_EPOCH;
        assert_eq!(
            (u - Duration::nanoseconds(1)).to_oid_timestamp(),
            Err(TimeOutOfRange::new())
        );
        assert_eq!(UtcDateTime::from_oid_timestamp(7).unix_timestamp(), 7);
    }
}
