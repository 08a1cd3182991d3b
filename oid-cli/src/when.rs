//! Times on the command line (parsed with `jiff`), and RFC 3339 UTC out.
//!
//! Accepted: `now`; a relative time (`-1h`, `+30m`, `-7d`; units `s`, `m`, `h`, `d`, `w`);
//! Unix seconds (`1700000000`, `-0`); a date (`2024-01-01`, midnight UTC); RFC 3339 with an
//! offset (`2024-01-01T00:00:00+01:00`) or without one (then UTC); and what the web page's time
//! fields read, through `oid_core::PastedDate`: an ObjectId in any pasted form (the second it
//! was made in), `ISODate("…")`, `new Date(…)` and `{"$date": …}`. Fractions of a second are
//! kept, so a range can round its end up.
//!
//! An ObjectId holds an unsigned 32-bit count of seconds, so every time this tool accepts lies in
//! 1970-01-01T00:00:00Z..=2106-02-07T06:28:15.999999999Z; the check is `oid_std::UnixTime`'s.
//! Anything outside is an error, never a wrap.

use std::fmt;
use std::str::FromStr;

use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use oid_core::{PastedDate, PastedDateError};
use oid_std::{ObjectId, UnixTime};

/// The last second an ObjectId can hold, as RFC 3339.
pub(crate) const LAST: &str = "2106-02-07T06:28:15Z";

/// A time an ObjectId's timestamp can hold, to the nanosecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Time(Timestamp);

/// Why a command-line time was rejected. The messages are this tool's own.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum TimeError {
    /// Before 1970-01-01T00:00:00Z.
    BeforeEpoch,
    /// After 2106-02-07T06:28:15Z.
    AfterLast,
    /// A number of seconds that reads as milliseconds (13 digits for today's times).
    Milliseconds(u64),
    /// None of the accepted forms.
    Syntax,
    /// `ISODate(…)`, `new Date(…)` or `{"$date": …}` around a value that is not a time
    /// (oid-core's message).
    Pasted(PastedDateError),
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeError::BeforeEpoch => {
                f.write_str("before 1970-01-01T00:00:00Z, the first second an ObjectId can hold")
            }
            TimeError::AfterLast => write!(f, "after {LAST}, the last second an ObjectId can hold"),
            TimeError::Milliseconds(ms) => {
                write!(f, "{ms} looks like milliseconds; use {}", ms / 1000)
            }
            TimeError::Syntax => f.write_str(
                "not a time: use RFC 3339 (2024-01-01T00:00:00Z; without an offset it is UTC), \
                 a date (2024-01-01, midnight UTC), now, a relative time (-1h, +30m, -7d), \
                 Unix seconds (1700000000), an ObjectId (the second it was made in), \
                 ISODate(\"…\"), new Date(…) or {\"$date\": …}",
            ),
            TimeError::Pasted(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TimeError {}

/// Seconds from this many seconds on are taken for milliseconds: 10^11 seconds is the year
/// 5138, 10^11 milliseconds is 1973.
const MILLIS_FROM: u64 = 100_000_000_000;

impl Time {
    /// The first second an ObjectId can hold.
    pub(crate) const EPOCH: Time = Time(Timestamp::UNIX_EPOCH);

    /// Parses a command-line time, `now` and relative times against the system clock.
    pub(crate) fn parse(s: &str) -> Result<Time, TimeError> {
        Time::parse_at(s, Timestamp::now())
    }

    /// Parses a command-line time, `now` and relative times against `now`.
    pub(crate) fn parse_at(s: &str, now: Timestamp) -> Result<Time, TimeError> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("now") {
            return Time::new(now);
        }
        if let Some(offset) = relative(s)? {
            let t = now
                .checked_add(offset)
                .map_err(|_| out_of_range(offset.is_negative()))?;
            return Time::new(t);
        }
        // 24 hex digits are an id even when they are all decimal digits.
        if s.len() == 24 && ObjectId::is_valid(s) {
            return Time::pasted(s);
        }
        if let Some(digits) = s.strip_prefix('-')
            && is_digits(digits)
        {
            // `-0` is the epoch; any other negative count of seconds is before it.
            return if digits.bytes().all(|b| b == b'0') {
                Ok(Time::EPOCH)
            } else {
                Err(TimeError::BeforeEpoch)
            };
        }
        if is_digits(s) {
            return match s.parse::<u64>() {
                Ok(secs) if secs <= u64::from(u32::MAX) => {
                    Ok(Time::from_seconds(u32::try_from(secs).unwrap_or(u32::MAX)))
                }
                Ok(ms) if (MILLIS_FROM..=u64::from(u32::MAX) * 1000 + 999).contains(&ms) => {
                    Err(TimeError::Milliseconds(ms))
                }
                // Beyond u64 or far beyond 2106.
                _ => Err(TimeError::AfterLast),
            };
        }
        if let Ok(t) = Timestamp::from_str(s) {
            return Time::new(t);
        }
        if let Ok(dt) = DateTime::from_str(s) {
            return Time::new(utc(dt)?);
        }
        if let Ok(date) = Date::from_str(s) {
            return Time::new(utc(date.to_datetime(jiff::civil::Time::midnight()))?);
        }
        Time::pasted(s)
    }

    /// What the web page's time fields read (`oid_core::PastedDate`): an id, `ISODate(…)`,
    /// `new Date(…)`, `{"$date": …}`.
    fn pasted(s: &str) -> Result<Time, TimeError> {
        let date = PastedDate::parse(s).map_err(|e| match e.form() {
            Some(_) => TimeError::Pasted(e),
            None => TimeError::Syntax,
        })?;
        let seconds = date.unix_seconds();
        let t = Timestamp::new(seconds, date.subsec_nanos() as i32)
            .map_err(|_| out_of_range(seconds < 0))?;
        Time::new(t)
    }

    /// A time within what an ObjectId holds, or why not (the check of `oid_std::UnixTime`).
    fn new(t: Timestamp) -> Result<Time, TimeError> {
        match t.to_oid_timestamp() {
            Ok(_) => Ok(Time(t)),
            Err(_) => Err(out_of_range(t < Timestamp::UNIX_EPOCH)),
        }
    }

    /// The start of second `secs`.
    pub(crate) fn from_seconds(secs: u32) -> Time {
        Time(Timestamp::from_oid_timestamp(secs))
    }

    /// The second containing this time: an ObjectId timestamp.
    pub(crate) fn seconds(self) -> u32 {
        // In range by construction.
        self.0.to_oid_timestamp().unwrap_or(u32::MAX)
    }

    /// Nanoseconds since the Unix epoch.
    pub(crate) fn nanos(self) -> i128 {
        self.0.as_nanosecond()
    }
}

/// `+N<unit>` or `-N<unit>`: the offset, `None` for another form.
fn relative(s: &str) -> Result<Option<SignedDuration>, TimeError> {
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => return Ok(None),
    };
    let Some(unit) = rest.chars().last() else {
        return Ok(None);
    };
    let digits = &rest[..rest.len() - unit.len_utf8()];
    let per = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3_600,
        'd' => 86_400,
        'w' => 604_800,
        _ => return Ok(None),
    };
    if !is_digits(digits) {
        return Ok(None);
    }
    let secs = digits
        .parse::<i64>()
        .ok()
        .and_then(|n| n.checked_mul(per))
        .ok_or(out_of_range(negative))?;
    Ok(Some(SignedDuration::from_secs(if negative {
        -secs
    } else {
        secs
    })))
}

const fn out_of_range(before: bool) -> TimeError {
    if before {
        TimeError::BeforeEpoch
    } else {
        TimeError::AfterLast
    }
}

/// A civil time read as UTC.
fn utc(dt: DateTime) -> Result<Timestamp, TimeError> {
    TimeZone::UTC
        .to_timestamp(dt)
        .map_err(|_| out_of_range(dt.year() < 1970))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// RFC 3339 in UTC with a `Z`, with the fraction when there is one: `2012-10-17T21:13:27Z`.
impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// clap's value parser for time arguments.
pub(crate) fn parse_arg(s: &str) -> Result<Time, TimeError> {
    Time::parse(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2023-11-14T22:13:20Z.
    fn now() -> Timestamp {
        Timestamp::from_second(1_700_000_000).unwrap()
    }

    fn ok(s: &str) -> u32 {
        Time::parse_at(s, now()).unwrap().seconds()
    }

    fn err(s: &str) -> String {
        Time::parse_at(s, now()).unwrap_err().to_string()
    }

    #[test]
    fn unix_seconds() {
        assert_eq!(ok("0"), 0);
        assert_eq!(ok("-0"), 0);
        assert_eq!(ok("-000"), 0);
        assert_eq!(ok("1700000000"), 1_700_000_000);
        assert_eq!(ok("4294967295"), u32::MAX);
        assert_eq!(ok("0001700000000"), 1_700_000_000);
    }

    #[test]
    fn milliseconds_get_a_hint() {
        assert_eq!(
            err("1700000000123"),
            "1700000000123 looks like milliseconds; use 1700000000"
        );
        assert_eq!(
            err("4294967295999"),
            "4294967295999 looks like milliseconds; use 4294967295"
        );
        // Seconds after 2106 but too small for today's milliseconds; and too large for them.
        assert!(err("4294967296").starts_with("after 2106"));
        assert!(err("4294967296000").starts_with("after 2106"));
        assert!(err("99999999999999999999999").starts_with("after 2106"));
    }

    #[test]
    fn rfc3339_with_and_without_offset() {
        assert_eq!(ok("2012-10-17T21:13:27Z"), 1_350_508_407);
        assert_eq!(ok("2012-10-17T23:13:27+02:00"), 1_350_508_407);
        assert_eq!(ok("2012-10-17T21:13:27"), 1_350_508_407, "no offset: UTC");
        assert_eq!(ok("2012-10-17 21:13:27"), 1_350_508_407);
        assert_eq!(ok("2012-10-17T21:13:27.999Z"), 1_350_508_407);
        assert_eq!(ok("1970-01-01T00:00:00Z"), 0);
        assert_eq!(ok("2106-02-07T06:28:15Z"), u32::MAX);
        assert_eq!(ok("2106-02-07T06:28:15.999999999Z"), u32::MAX);
    }

    #[test]
    fn fractions_are_kept() {
        let t = Time::parse_at("2023-11-14T22:13:21.5Z", now()).unwrap();
        assert_eq!(t.seconds(), 1_700_000_001);
        assert_eq!(t.nanos(), 1_700_000_001_500_000_000);
        assert_eq!(t.to_string(), "2023-11-14T22:13:21.5Z");
    }

    #[test]
    fn date_only_is_midnight_utc() {
        assert_eq!(ok("2024-01-01"), 1_704_067_200);
        assert_eq!(ok("1970-01-01"), 0);
        assert_eq!(ok("2106-02-07"), 4_294_944_000);
        assert!(err("2106-02-08").starts_with("after 2106"));
        assert!(err("1969-12-31").starts_with("before 1970"));
    }

    #[test]
    fn now_and_relative() {
        assert_eq!(ok("now"), 1_700_000_000);
        assert_eq!(ok("NOW"), 1_700_000_000);
        assert_eq!(ok("-1h"), 1_700_000_000 - 3_600);
        assert_eq!(ok("-7d"), 1_700_000_000 - 7 * 86_400);
        assert_eq!(ok("+30m"), 1_700_000_000 + 1_800);
        assert_eq!(ok("-90s"), 1_700_000_000 - 90);
        assert_eq!(ok("+2w"), 1_700_000_000 + 2 * 604_800);
        assert!(err("-100000d").starts_with("before 1970"));
        assert!(err("+100000d").starts_with("after 2106"));
        assert!(err("+9999999999999999999d").starts_with("after 2106"));
        assert!(err("-9999999999999999999d").starts_with("before 1970"));
    }

    #[test]
    fn out_of_range_is_an_error_not_a_wrap() {
        assert!(err("2106-02-07T06:28:16Z").starts_with("after 2106"));
        assert!(err("-1").starts_with("before 1970"));
        assert!(err("1969-12-31T23:59:59Z").starts_with("before 1970"));
        assert!(err("1969-12-31T23:59:59.5Z").starts_with("before 1970"));
    }

    #[test]
    fn syntax_errors_are_ours_and_say_what_is_accepted() {
        for bad in [
            "",
            "yesterday",
            "12.5",
            "+5",
            "0x10",
            "-1y",
            "1h",
            "2024-13-01",
            "2024-02-30",
            "--1h",
        ] {
            assert_eq!(Time::parse_at(bad, now()), Err(TimeError::Syntax), "{bad}");
        }
        assert!(
            TimeError::Syntax
                .to_string()
                .starts_with("not a time: use RFC 3339")
        );
    }

    #[test]
    fn pasted_ids_and_dates_as_the_web_page_reads_them() {
        for text in [
            "507f1f77bcf86cd799439011",
            "ObjectId(\"507f1f77bcf86cd799439011\")",
            "new ObjectId('507F1F77BCF86CD799439011')",
            "{\"$oid\": \"507f1f77bcf86cd799439011\"}",
            "ISODate(\"2012-10-17T21:13:27Z\")",
            "ISODate('2012-10-17T21:13:27.500Z')",
            "new Date(\"2012-10-17T23:13:27+02:00\")",
            "new Date(1350508407000)",
            "{\"$date\": \"2012-10-17T21:13:27Z\"}",
            "{\"$date\": {\"$numberLong\": \"1350508407999\"}}",
        ] {
            assert_eq!(ok(text), 1_350_508_407, "{text}");
        }
        // An id of decimal digits only is an id, not seconds.
        assert_eq!(ok("507123456789012345678901"), 0x5071_2345);
        // The fraction is kept: a range's end rounds up.
        let t = Time::parse_at("ISODate('2012-10-17T21:13:27.500Z')", now()).unwrap();
        assert_eq!(t.nanos(), 1_350_508_407_500_000_000);
        assert_eq!(
            err("ISODate('2024-02-30')"),
            "invalid date in ISODate(\"…\"): expected RFC 3339 such as 2024-01-01T00:00:00Z"
        );
        assert!(err("new Date(-1000)").starts_with("before 1970"));
        assert!(err("ISODate('2106-02-07T06:28:16Z')").starts_with("after 2106"));
        assert!(err("{\"$date\": 99999999999999999}").starts_with("after 2106"));
        assert_eq!(
            Time::parse_at("ObjectID('507f1f77bcf86cd799439011')", now()),
            Err(TimeError::Syntax)
        );
    }

    #[test]
    fn formats_rfc3339_utc() {
        assert_eq!(Time::from_seconds(0).to_string(), "1970-01-01T00:00:00Z");
        assert_eq!(
            Time::from_seconds(1_350_508_407).to_string(),
            "2012-10-17T21:13:27Z"
        );
        assert_eq!(
            Time::from_seconds(0x8000_0000).to_string(),
            "2038-01-19T03:14:08Z"
        );
        assert_eq!(Time::from_seconds(u32::MAX).to_string(), LAST);
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
            assert_eq!(ok(&Time::from_seconds(secs).to_string()), secs);
        }
    }
}
