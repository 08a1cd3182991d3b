//! `UnixTime` for `jiff::Timestamp` (feature `jiff`).
//!
//! # Examples
//!
//! ```
//! use oid_std::prelude::*;
//!
//! let id: ObjectId = "6553f1003f2a91c8d4003039".parse()?;
//! let t: jiff::Timestamp = id.generation_time_as();
//! assert_eq!(t.to_string(), "2023-11-14T22:13:20Z");
//! assert_eq!(ObjectId::min_for_timestamp(t.to_oid_timestamp()?).to_hex(), "6553f1000000000000000000");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use jiff::Timestamp;

use crate::sealed::Sealed;
use crate::unix_time::UnixTime;
use crate::unix_time::checked_timestamp;
use oid_core::TimeOutOfRange;

impl Sealed for Timestamp {}

impl UnixTime for Timestamp {
    fn to_oid_timestamp(&self) -> Result<u32, TimeOutOfRange> {
        // `as_second()` truncates toward zero; floor it for times before the epoch.
        let secs = self.as_second();
        let floor = if self.subsec_nanosecond() < 0 {
            secs - 1
        } else {
            secs
        };
        checked_timestamp(floor)
    }

    fn from_oid_timestamp(timestamp: u32) -> Self {
        // Every u32 second is within jiff's range; the fallback is unreachable.
        Timestamp::from_second(i64::from(timestamp)).unwrap_or(Timestamp::UNIX_EPOCH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges() {
        let epoch = Timestamp::UNIX_EPOCH;
        assert_eq!(epoch.to_oid_timestamp(), Ok(0));
        let just_before = Timestamp::new(0, -1).unwrap();
        assert_eq!(just_before.to_oid_timestamp(), Err(TimeOutOfRange::new()));
        let last = Timestamp::new(i64::from(u32::MAX), 999_999_999).unwrap();
        assert_eq!(last.to_oid_timestamp(), Ok(u32::MAX));
        let after = Timestamp::new(i64::from(u32::MAX) + 1, 0).unwrap();
        assert_eq!(after.to_oid_timestamp(), Err(TimeOutOfRange::new()));
        assert_eq!(
            Timestamp::from_oid_timestamp(u32::MAX).to_string(),
            "2106-02-07T06:28:15Z"
        );
        assert_eq!(
            Timestamp::new(5, 500_000_000).unwrap().to_oid_timestamp(),
            Ok(5)
        );
    }
}
