//! Reading a time as people paste it: an id (the second it was made in), mongosh's
//! `ISODate("…")` and `new Date(…)`, and extended JSON's `{"$date": …}`. The `oid` command's
//! time arguments and the web page's time fields both read through [`PastedDate::parse`].

use core::fmt;

use super::{call_args, map_value, number, quoted, space_at_start, strip_prefix, trim};
use crate::{Form, ObjectId};

/// The form a pasted time was written in.
///
/// # Examples
///
/// ```
/// use oid_core::{DateForm, Form, PastedDate};
///
/// let date = PastedDate::parse("ISODate('2024-01-01T00:00:00Z')")?;
/// assert_eq!(date.form(), DateForm::IsoDate);
/// let id = PastedDate::parse("ObjectId('507f1f77bcf86cd799439011')")?;
/// assert_eq!(id.form(), DateForm::Id(Form::Shell));
/// # Ok::<(), oid_core::PastedDateError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DateForm {
    /// An ObjectId in any form [`ObjectId::parse_pasted`] reads: the second it was made in.
    Id(Form),
    /// `ISODate("…")` (mongosh's way of printing a date).
    IsoDate,
    /// `new Date("…")` or `new Date(milliseconds)`.
    NewDate,
    /// Extended JSON: `{"$date": "…"}`, `{"$date": milliseconds}` or
    /// `{"$date": {"$numberLong": "milliseconds"}}`.
    ExtendedJson,
}

/// A time read by [`PastedDate::parse`]: seconds and nanoseconds since 1970-01-01T00:00:00Z,
/// and the form it was written in. The range is the caller's to check (an ObjectId holds
/// 1970 to 2106).
///
/// # Examples
///
/// ```
/// use oid_core::PastedDate;
///
/// let t = PastedDate::parse(r#"{"$date": "2024-01-01T00:00:00.250+01:00"}"#)?;
/// assert_eq!((t.unix_seconds(), t.subsec_nanos()), (1_704_063_600, 250_000_000));
/// # Ok::<(), oid_core::PastedDateError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PastedDate {
    seconds: i64,
    nanos: u32,
    form: DateForm,
}

/// Why a pasted text is not a time.
///
/// # Examples
///
/// ```
/// use oid_core::PastedDate;
///
/// let err = PastedDate::parse("ISODate('2024-02-30')").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid date in ISODate(\"…\"): expected RFC 3339 such as 2024-01-01T00:00:00Z"
/// );
/// assert!(PastedDate::parse("yesterday").unwrap_err().form().is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PastedDateError {
    form: Option<DateForm>,
}

impl PastedDateError {
    /// The form recognised around a value that is not a time, or `None` when the text is none
    /// of the forms.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{DateForm, PastedDate};
    /// let err = PastedDate::parse("new Date('soon')").unwrap_err();
    /// assert_eq!(err.form(), Some(DateForm::NewDate));
    /// ```
    pub const fn form(&self) -> Option<DateForm> {
        self.form
    }
}

impl fmt::Display for PastedDateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.form {
            None => {
                return f.write_str(
                    "not a pasted time: expected an ObjectId (its second), ISODate(\"…\"), \
                     new Date(…) or {\"$date\": …}",
                );
            }
            Some(DateForm::IsoDate) => "ISODate(\"…\")",
            Some(DateForm::NewDate) => "new Date(…)",
            Some(DateForm::ExtendedJson | DateForm::Id(_)) => "{\"$date\": …}",
        };
        write!(
            f,
            "invalid date in {what}: expected RFC 3339 such as 2024-01-01T00:00:00Z"
        )?;
        if !matches!(self.form, Some(DateForm::IsoDate)) {
            f.write_str(" or milliseconds since 1970")?;
        }
        Ok(())
    }
}

impl core::error::Error for PastedDateError {}

impl PastedDate {
    /// Reads a time as people paste it, with any whitespace around and between the parts:
    ///
    /// - an ObjectId in any form [`ObjectId::parse_pasted`] reads (`507f…`, `ObjectId("…")`,
    ///   `{"$oid": "…"}`, …): the second it was made in;
    /// - `ISODate("…")` or `ISODate('…')`;
    /// - `new Date("…")` or `new Date(1700000000000)` (milliseconds);
    /// - `{"$date": "…"}`, `{"$date": 1700000000000}` or `{"$date": {"$numberLong": "…"}}`.
    ///
    /// A date inside is RFC 3339, `2024-01-01T00:00:00Z`, with an offset (`+01:00`), a `Z`, or
    /// neither (then UTC, as `ISODate` reads it), a `T` or a space between date and time, up to
    /// nine digits of fraction; or a date alone, `2024-01-01`, midnight UTC.
    ///
    /// # Errors
    ///
    /// A [`PastedDateError`]: none of the forms, or a form around a value that is not a time.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::PastedDate;
    ///
    /// for text in [
    ///     "507f1f77bcf86cd799439011",
    ///     "ISODate(\"2012-10-17T21:13:27Z\")",
    ///     "new Date('2012-10-17T23:13:27.000+02:00')",
    ///     "new Date(1350508407000)",
    ///     r#"{"$date": {"$numberLong": "1350508407000"}}"#,
    /// ] {
    ///     assert_eq!(PastedDate::parse(text)?.unix_seconds(), 1_350_508_407, "{text}");
    /// }
    /// # Ok::<(), oid_core::PastedDateError>(())
    /// ```
    pub fn parse(s: &str) -> Result<PastedDate, PastedDateError> {
        if let Ok(pasted) = ObjectId::parse_pasted(s) {
            return Ok(PastedDate {
                seconds: pasted.id().timestamp() as i64,
                nanos: 0,
                form: DateForm::Id(pasted.form()),
            });
        }
        let b = trim(s.as_bytes());
        let (form, value) = if let Some(args) = call_args(b, b"ISODate") {
            (DateForm::IsoDate, args)
        } else if let Some(args) = new_date(b) {
            (DateForm::NewDate, args)
        } else if let Some(value) = map_value(b, b"$date") {
            // `{"$numberLong": "…"}` inside: the canonical form of milliseconds.
            let value = match map_value(value, b"$numberLong") {
                Some(long) => match quoted(long) {
                    Some(digits) => digits,
                    None => long,
                },
                None => value,
            };
            (DateForm::ExtendedJson, value)
        } else {
            return Err(PastedDateError { form: None });
        };
        let err = PastedDateError { form: Some(form) };
        let (seconds, nanos) = match quoted(value) {
            Some(text) => rfc3339(text).ok_or(err)?,
            None if matches!(form, DateForm::IsoDate) => return Err(err),
            None => millis(value).ok_or(err)?,
        };
        Ok(PastedDate {
            seconds,
            nanos,
            form,
        })
    }

    /// Whole seconds since 1970-01-01T00:00:00Z (negative before it), rounded down.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::PastedDate;
    /// assert_eq!(PastedDate::parse("new Date(-1)")?.unix_seconds(), -1);
    /// # Ok::<(), oid_core::PastedDateError>(())
    /// ```
    pub const fn unix_seconds(&self) -> i64 {
        self.seconds
    }

    /// The nanoseconds past [`unix_seconds`](PastedDate::unix_seconds), below 10^9.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::PastedDate;
    /// assert_eq!(PastedDate::parse("new Date(-1)")?.subsec_nanos(), 999_000_000);
    /// # Ok::<(), oid_core::PastedDateError>(())
    /// ```
    pub const fn subsec_nanos(&self) -> u32 {
        self.nanos
    }

    /// The form the time was written in.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{DateForm, PastedDate};
    /// assert_eq!(PastedDate::parse("{$date: 0}")?.form(), DateForm::ExtendedJson);
    /// # Ok::<(), oid_core::PastedDateError>(())
    /// ```
    pub const fn form(&self) -> DateForm {
        self.form
    }
}

/// `new Date(…)`: the text between the parentheses.
fn new_date(b: &[u8]) -> Option<&[u8]> {
    let rest = strip_prefix(b, b"new")?;
    if space_at_start(rest) == 0 {
        return None; // `newDate(…)`
    }
    call_args(trim(rest), b"Date")
}

/// Milliseconds since 1970 as written in JSON or JavaScript: an optional `-` and digits.
fn millis(b: &[u8]) -> Option<(i64, u32)> {
    let ms = number(b)?;
    Some((
        ms.div_euclid(1000),
        (ms.rem_euclid(1000) as u32) * 1_000_000,
    ))
}

/// RFC 3339 (offset optional: UTC without one; `T`, `t` or a space between date and time) or a
/// date alone: seconds since 1970 and nanoseconds.
fn rfc3339(b: &[u8]) -> Option<(i64, u32)> {
    let b = trim(b);
    let (year, month, day) = (digits(b, 0, 4)?, digits(b, 5, 2)?, digits(b, 8, 2)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    if b.len() == 10 {
        return Some((days * 86_400, 0));
    }
    if !matches!(b[10], b'T' | b't' | b' ') || b.get(13) != Some(&b':') || b.get(16) != Some(&b':')
    {
        return None;
    }
    let (hour, minute, second) = (digits(b, 11, 2)?, digits(b, 14, 2)?, digits(b, 17, 2)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut rest = &b[19..];
    let mut nanos = 0u32;
    if let [b'.', frac @ ..] = rest {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 || n > 9 {
            return None;
        }
        for (k, &c) in frac[..n].iter().enumerate() {
            nanos += u32::from(c - b'0') * 10u32.pow(8 - k as u32);
        }
        rest = &frac[n..];
    }
    let offset = match rest {
        [] | [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), ..] if rest.len() == 6 && rest[3] == b':' => {
            let (h, m) = (digits(rest, 1, 2)?, digits(rest, 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let offset = h * 3_600 + m * 60;
            if *sign == b'-' { -offset } else { offset }
        }
        _ => return None,
    };
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset;
    Some((seconds, nanos))
}

/// `len` ASCII digits at `at` as a number.
fn digits(b: &[u8], at: usize, len: usize) -> Option<i64> {
    let field = b.get(at..at + len)?;
    field.iter().try_fold(0i64, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
    })
}

const fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
/// `days_from_civil`).
const fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    fn secs(s: &str) -> (i64, u32) {
        let t = PastedDate::parse(s).unwrap();
        (t.unix_seconds(), t.subsec_nanos())
    }

    #[test]
    fn every_form() {
        const T: i64 = 1_350_508_407; // 2012-10-17T21:13:27Z
        for (text, form) in [
            ("507f1f77bcf86cd799439011", DateForm::Id(Form::Hex)),
            (
                " {\"$oid\": \"507f1f77bcf86cd799439011\"} ",
                DateForm::Id(Form::ExtendedJson),
            ),
            ("ISODate(\"2012-10-17T21:13:27Z\")", DateForm::IsoDate),
            ("ISODate('2012-10-17T21:13:27.000Z')", DateForm::IsoDate),
            ("ISODate( \"2012-10-17 21:13:27\" )", DateForm::IsoDate),
            ("new Date(\"2012-10-17T16:13:27-05:00\")", DateForm::NewDate),
            ("new  Date (1350508407000)", DateForm::NewDate),
            (
                "{\"$date\": \"2012-10-17T21:13:27Z\"}",
                DateForm::ExtendedJson,
            ),
            ("{$date: 1350508407000}", DateForm::ExtendedJson),
            ("{'$date': 1350508407999}", DateForm::ExtendedJson),
            (
                "{\"$date\": {\"$numberLong\": \"1350508407000\"}}",
                DateForm::ExtendedJson,
            ),
        ] {
            let t = PastedDate::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!((t.unix_seconds(), t.form()), (T, form), "{text}");
        }
    }

    #[test]
    fn fractions_offsets_and_dates_alone() {
        assert_eq!(secs("ISODate('1970-01-01')"), (0, 0));
        assert_eq!(secs("ISODate('2024-02-29')"), (1_709_164_800, 0));
        assert_eq!(secs("ISODate('2000-03-01T00:00:00Z')"), (951_868_800, 0));
        assert_eq!(secs("ISODate('2106-02-07T06:28:15Z')"), (4_294_967_295, 0));
        assert_eq!(
            secs("ISODate('2024-01-01T00:00:00.123456789z')"),
            (1_704_067_200, 123_456_789)
        );
        assert_eq!(
            secs("ISODate('2024-01-01t00:00:00.5+00:30')"),
            (1_704_065_400, 500_000_000)
        );
        assert_eq!(secs("ISODate('1969-12-31T23:59:59Z')"), (-1, 0));
        assert_eq!(secs("new Date(-1)"), (-1, 999_000_000));
        assert_eq!(secs("new Date(0)"), (0, 0));
        assert_eq!(secs("{\"$date\": 1500}"), (1, 500_000_000));
    }

    #[test]
    fn days_agree_with_a_day_by_day_count() {
        // Every day from 1900 to 2200 against a running count.
        let mut expected = days_from_civil(1900, 1, 1);
        for year in 1900..2200 {
            for month in 1..=12 {
                for day in 1..=days_in_month(year, month) {
                    assert_eq!(days_from_civil(year, month, day), expected);
                    expected += 1;
                }
            }
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
    }

    #[test]
    fn every_day_formats_and_reads_back() {
        // `ObjectId::rfc3339` (civil_from_days) against this reader (days_from_civil), two
        // algorithms, at every day's first and last second up to the field's last second
        // (under Miri every 397th day, a prime, so the days still fall on every month and
        // kind of year, and the field's last second).
        let days = if cfg!(miri) { 397 } else { 1 };
        let check = |s: u64| {
            let id = ObjectId::min_for_timestamp(s as u32);
            let text = id.rfc3339();
            let back = PastedDate::parse(&std::format!("ISODate('{}')", text.as_str()));
            assert_eq!(back.map(|d| d.unix_seconds()), Ok(s as i64), "{text:?}");
        };
        let mut secs: u64 = 0;
        while secs <= u64::from(u32::MAX) {
            check(secs);
            check((secs + 86_399).min(u64::from(u32::MAX)));
            secs += 86_400 * days;
        }
        check(u64::from(u32::MAX));
    }

    #[test]
    fn bad_values_name_the_form() {
        for (text, form) in [
            ("ISODate('2024-02-30')", DateForm::IsoDate),
            ("ISODate('2023-02-29T00:00:00Z')", DateForm::IsoDate),
            ("ISODate('2024-01-01T24:00:00Z')", DateForm::IsoDate),
            ("ISODate('2024-01-01T00:60:00Z')", DateForm::IsoDate),
            ("ISODate('2024-01-01T00:00:60Z')", DateForm::IsoDate),
            ("ISODate('2024-01-01T00:00:00.Z')", DateForm::IsoDate),
            (
                "ISODate('2024-01-01T00:00:00.1234567890Z')",
                DateForm::IsoDate,
            ),
            ("ISODate('2024-01-01T00:00:00+0100')", DateForm::IsoDate),
            ("ISODate('2024-01-01T00:00:00+24:00')", DateForm::IsoDate),
            ("ISODate('2024-1-01')", DateForm::IsoDate),
            ("ISODate(1700000000000)", DateForm::IsoDate),
            ("ISODate()", DateForm::IsoDate),
            ("new Date()", DateForm::NewDate),
            ("new Date('soon')", DateForm::NewDate),
            ("new Date(1.5)", DateForm::NewDate),
            ("new Date(99999999999999999999999)", DateForm::NewDate),
            ("{\"$date\": \"x\"}", DateForm::ExtendedJson),
            (
                "{\"$date\": {\"$numberLong\": \"2024-01-01\"}}",
                DateForm::ExtendedJson,
            ),
        ] {
            let err = PastedDate::parse(text).unwrap_err();
            assert_eq!(err.form(), Some(form), "{text}");
            assert!(err.to_string().starts_with("invalid date in "), "{text}");
        }
        for text in [
            "",
            "yesterday",
            "2024-01-01",
            "newDate(0)",
            "Date(0)",
            "ISODATE('2024-01-01')",
            "{\"$dates\": 0}",
            "{\"$date: 0}",
            "ObjectID('507f1f77bcf86cd799439011')",
        ] {
            let err = PastedDate::parse(text).unwrap_err();
            assert_eq!(err.form(), None, "{text}");
            assert!(err.to_string().starts_with("not a pasted time: "), "{text}");
        }
    }
}
