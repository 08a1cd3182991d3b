//! Times on the command line: RFC 3339 or Unix seconds in, RFC 3339 UTC out.
//!
//! An ObjectId holds an unsigned 32-bit count of seconds, so every time this tool accepts lies in
//! 1970-01-01T00:00:00Z..=2106-02-07T06:28:15Z. Anything outside is an error, never a wrap.

use std::fmt;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The last second an ObjectId can hold, as RFC 3339.
pub(crate) const LAST: &str = "2106-02-07T06:28:15Z";

/// A time that fits an ObjectId's timestamp field: whole seconds since the Unix epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct UnixTime(pub(crate) u32);

/// Why a command-line time was rejected.
#[derive(Debug)]
pub(crate) enum TimeError {
    /// Before 1970-01-01T00:00:00Z.
    BeforeEpoch,
    /// After 2106-02-07T06:28:15Z.
    AfterLast,
    /// Neither digits nor RFC 3339.
    Syntax(time::error::Parse),
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeError::BeforeEpoch => {
                f.write_str("before 1970-01-01T00:00:00Z, the first second an ObjectId can hold")
            }
            TimeError::AfterLast => write!(f, "after {LAST}, the last second an ObjectId can hold"),
            TimeError::Syntax(e) => write!(
                f,
                "not Unix seconds or an RFC 3339 time such as 2023-11-14T22:13:20Z ({})",
                lowercase_first(&e.to_string())
            ),
        }
    }
}

impl std::error::Error for TimeError {}

/// `time`'s messages start with a capital letter ("The year component..."); ours are lowercase.
fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl UnixTime {
    /// Parses Unix seconds (`1700000000`, `-5` is rejected as before 1970) or an RFC 3339 time
    /// with any offset (`2023-11-14T22:13:20Z`, `2023-11-14T23:13:20+01:00`). Fractional seconds
    /// are accepted and dropped (rounded toward the earlier second): an ObjectId holds whole seconds.
    pub(crate) fn parse(s: &str) -> Result<UnixTime, TimeError> {
        if let Some(digits) = s.strip_prefix('-') {
            if is_digits(digits) {
                return Err(TimeError::BeforeEpoch);
            }
        }
        if is_digits(s) {
            // Only digits: any failure is an overflow, i.e. far beyond 2106.
            return match s.parse::<u64>().map(u32::try_from) {
                Ok(Ok(secs)) => Ok(UnixTime(secs)),
                _ => Err(TimeError::AfterLast),
            };
        }
        let dt = OffsetDateTime::parse(s, &Rfc3339).map_err(TimeError::Syntax)?;
        // `unix_timestamp` rounds toward the earlier second (the nanoseconds are never negative).
        let secs = dt.unix_timestamp();
        if secs < 0 {
            Err(TimeError::BeforeEpoch)
        } else {
            u32::try_from(secs)
                .map(UnixTime)
                .map_err(|_| TimeError::AfterLast)
        }
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// RFC 3339 in UTC with a `Z`, e.g. `2012-10-17T21:13:27Z`.
impl fmt::Display for UnixTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every u32 second is a valid date for `time`, so the error branch is never taken.
        let dt = OffsetDateTime::from_unix_timestamp(i64::from(self.0)).map_err(|_| fmt::Error)?;
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            dt.year(),
            u8::from(dt.month()),
            dt.day(),
            dt.hour(),
            dt.minute(),
            dt.second()
        )
    }
}

/// clap's value parser for time arguments.
pub(crate) fn parse_arg(s: &str) -> Result<UnixTime, TimeError> {
    UnixTime::parse(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> u32 {
        UnixTime::parse(s).unwrap().0
    }

    fn err(s: &str) -> String {
        UnixTime::parse(s).unwrap_err().to_string()
    }

    #[test]
    fn unix_seconds() {
        assert_eq!(ok("0"), 0);
        assert_eq!(ok("1700000000"), 1_700_000_000);
        assert_eq!(ok("4294967295"), u32::MAX);
        assert_eq!(ok("0001700000000"), 1_700_000_000);
    }

    #[test]
    fn rfc3339_any_offset() {
        assert_eq!(ok("2012-10-17T21:13:27Z"), 1_350_508_407);
        assert_eq!(ok("2012-10-17T23:13:27+02:00"), 1_350_508_407);
        assert_eq!(ok("2012-10-17T21:13:27.999Z"), 1_350_508_407);
        assert_eq!(ok("1970-01-01T00:00:00Z"), 0);
        assert_eq!(ok("2106-02-07T06:28:15Z"), u32::MAX);
    }

    #[test]
    fn out_of_range_is_an_error_not_a_wrap() {
        assert!(err("4294967296").starts_with("after 2106-02-07T06:28:15Z"));
        assert!(err("99999999999999999999999").starts_with("after 2106"));
        assert!(err("2106-02-07T06:28:16Z").starts_with("after 2106"));
        assert!(err("-1").starts_with("before 1970"));
        assert!(err("1969-12-31T23:59:59Z").starts_with("before 1970"));
        assert!(err("1969-12-31T23:59:59.5Z").starts_with("before 1970"));
    }

    #[test]
    fn syntax_errors_are_lowercase_and_say_what_is_accepted() {
        for bad in [
            "",
            "yesterday",
            "2012-10-17",
            "2012-10-17T21:13:27",
            "12.5",
            "+5",
            "0x10",
        ] {
            let msg = err(bad);
            assert!(
                msg.starts_with("not Unix seconds or an RFC 3339 time"),
                "{bad}: {msg}"
            );
        }
    }

    #[test]
    fn formats_rfc3339_utc() {
        assert_eq!(UnixTime(0).to_string(), "1970-01-01T00:00:00Z");
        assert_eq!(UnixTime(1_350_508_407).to_string(), "2012-10-17T21:13:27Z");
        assert_eq!(UnixTime(0x8000_0000).to_string(), "2038-01-19T03:14:08Z");
        assert_eq!(UnixTime(u32::MAX).to_string(), LAST);
    }

    #[test]
    fn round_trip() {
        for secs in [
            0,
            1,
            59,
            86_399,
            951_782_400,
            1_700_000_000,
            u32::MAX - 1,
            u32::MAX,
        ] {
            assert_eq!(ok(&UnixTime(secs).to_string()), secs);
        }
    }
}
