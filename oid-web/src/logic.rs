//! What the page asks of `oid-core`, as plain functions over byte slices: the exports in
//! `exports.rs` copy between the shared buffer and these, so everything here is tested on the
//! host without touching the shared statics.

use core::fmt::{self, Write as _};

use oid_core::{
    Clock, DateForm, Entropy, EntropyError, GenerateError, Generator, IdRange, ManualClock,
    ObjectId, PastedDate, PastedDateError, PastedError,
};

/// Bytes of one id in the generator's output: its 24 hex characters, no separator.
pub(crate) const HEX_LEN: usize = 24;

/// Layout of the record `oid_inspect` writes (all integers little-endian `u32`).
pub(crate) mod record {
    /// The canonical lowercase hex form, 24 ASCII bytes.
    pub(crate) const HEX: usize = 0;
    /// Seconds since the Unix epoch.
    pub(crate) const TIMESTAMP: usize = 24;
    /// The 24-bit counter.
    pub(crate) const COUNTER: usize = 28;
    /// Legacy reading: the 3-byte machine id.
    pub(crate) const MACHINE: usize = 32;
    /// Legacy reading: the 2-byte process id.
    pub(crate) const PROCESS_ID: usize = 36;
    /// The 5 bytes of the random value.
    pub(crate) const RANDOM: usize = 40;
    /// The length in bytes of the form's name (one byte).
    pub(crate) const FORM_LEN: usize = 45;
    /// The name of the form the id was pasted in (UTF-8, `oid_core::Form::as_str`).
    pub(crate) const FORM: usize = 46;
    /// Room for the form's name.
    pub(crate) const FORM_ROOM: usize = 32;
    /// Total length.
    pub(crate) const LEN: usize = FORM + FORM_ROOM;
}

/// Everything the page can be told went wrong; the message is what the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Error {
    /// `oid_generate` before `oid_seed`.
    NotSeeded,
    /// A second `oid_seed`: the random value is chosen once per page load.
    AlreadySeeded,
    /// The seed could not be read.
    Entropy(EntropyError),
    /// The generator could not make ids (no clock reading).
    Generate(GenerateError),
    /// The inspected text is not an ObjectId in any pasted form: oid-core's own message, and
    /// its "did you mean" hint on a second line.
    Parse(PastedError),
    /// A time field's paste is `ISODate(…)`, `new Date(…)` or `{"$date": …}` around a value
    /// that is not a time (oid-core's message).
    Date(PastedDateError),
    /// The inspected bytes are not UTF-8 (the page always sends UTF-8).
    NotUtf8,
    /// The inspected text is longer than the shared buffer (this many bytes).
    TooLong(usize),
    /// A range bound outside what the 4-byte timestamp can hold.
    TimeOutOfRange,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotSeeded => f.write_str("generator not seeded: call oid_seed first"),
            Error::AlreadySeeded => {
                f.write_str("generator already seeded: the random value is chosen once")
            }
            Error::Entropy(e) => e.fmt(f),
            Error::Generate(e) => e.fmt(f),
            Error::Parse(e) => {
                e.fmt(f)?;
                // Plain writes: formatting the id with `{}` would link `Formatter::pad`.
                match e.hint() {
                    Some(id) => {
                        f.write_str("\ndid you mean ")?;
                        f.write_str(id.to_hex().as_str())?;
                        f.write_str("?")
                    }
                    None => Ok(()),
                }
            }
            Error::Date(e) => e.fmt(f),
            Error::NotUtf8 => f.write_str("input is not valid utf-8"),
            Error::TooLong(max) => write!(
                f,
                "invalid length: expected 24 hex characters, found more than {max} bytes"
            ),
            Error::TimeOutOfRange => f.write_str(
                "time out of range: expected 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z",
            ),
        }
    }
}

/// Writes `message` to the start of `out` (cut short if it does not fit) and returns its length.
pub(crate) fn write_message(out: &mut [u8], message: &impl fmt::Display) -> usize {
    struct Cursor<'a> {
        out: &'a mut [u8],
        len: usize,
    }
    impl fmt::Write for Cursor<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let room = self.out.len() - self.len;
            let n = s.len().min(room);
            self.out[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
            self.len += n;
            if n == s.len() {
                Ok(())
            } else {
                Err(fmt::Error)
            }
        }
    }
    let mut cursor = Cursor { out, len: 0 };
    // A message cut short is still the best the page can show.
    let _ = write!(cursor, "{message}");
    cursor.len
}

/// The 8 seed bytes the page draws from `crypto.getRandomValues`, handed out as an [`Entropy`]
/// source: the generator takes 5 for the random value and 3 for the counter's start.
pub(crate) struct Seed(pub(crate) [u8; 8]);

impl Seed {
    /// The seed from two 32-bit words, as JavaScript's `Uint32Array` delivers them.
    pub(crate) const fn from_words(a: u32, b: u32) -> Seed {
        let a = a.to_be_bytes();
        let b = b.to_be_bytes();
        Seed([a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]])
    }
}

impl Entropy for Seed {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
        let src = self
            .0
            .get(..dest.len())
            .ok_or(EntropyError::new("the page's seed has only 8 bytes"))?;
        dest.copy_from_slice(src);
        Ok(())
    }
}

/// Sets the clock from the seconds the page read from `Date.now()`; anything that is not a
/// time on or after the epoch (NaN, negative, infinite) leaves the clock without a time.
pub(crate) fn set_clock(clock: &ManualClock, secs: f64) {
    if secs.is_finite() && secs >= 0.0 {
        clock.set(secs as u64); // truncates the fraction; saturates far beyond 2106 (then wraps like the field)
    } else {
        clock.unset();
    }
}

/// Most ids one call can make: what fits in `out`, at most `count`, at most [`BATCH`].
const fn batch_len(count: u32, out_len: usize) -> usize {
    let fits = out_len / HEX_LEN;
    let n = if (count as usize) < fits {
        count as usize
    } else {
        fits
    };
    if n < BATCH { n } else { BATCH }
}

/// Ids made per call at most (the ids are built on the stack, 12 bytes each).
pub(crate) const BATCH: usize = 4096;

/// Makes up to `count` ids with one clock reading and one counter reservation
/// ([`Generator::try_fill`]) and writes their hex forms back to back into `out`. Returns how
/// many it wrote: fewer than `count` when `out` or [`BATCH`] is smaller, in which case the
/// page calls again for the rest (with the same clock reading, so a click's ids share it).
pub(crate) fn generate<C: Clock>(
    generator: &Generator<C>,
    count: u32,
    out: &mut [u8],
) -> Result<usize, Error> {
    let n = batch_len(count, out.len());
    let mut ids = [ObjectId::MIN; BATCH];
    let ids = &mut ids[..n];
    generator.try_fill(ids).map_err(Error::Generate)?;
    for (id, slot) in ids.iter().zip(out.chunks_exact_mut(HEX_LEN)) {
        slot.copy_from_slice(id.to_hex().as_bytes());
    }
    Ok(n)
}

/// Reads `input` as pasted ([`ObjectId::parse_pasted`]: hex, quoted, `ObjectId("…")`,
/// `{"$oid": "…"}`) and writes the decoded fields and the form's name into `out` in the
/// [`record`] layout.
pub(crate) fn inspect(input: &[u8], out: &mut [u8; record::LEN]) -> Result<(), Error> {
    let text = core::str::from_utf8(input).map_err(|_| Error::NotUtf8)?;
    let pasted = ObjectId::parse_pasted(text).map_err(Error::Parse)?;
    let id = pasted.id();
    let parts = id.to_parts();
    let legacy = id.to_legacy_parts();
    out[record::HEX..record::HEX + HEX_LEN].copy_from_slice(id.to_hex().as_bytes());
    for (at, value) in [
        (record::TIMESTAMP, parts.timestamp),
        (record::COUNTER, parts.counter),
        (record::MACHINE, legacy.machine),
        (record::PROCESS_ID, u32::from(legacy.process_id)),
    ] {
        out[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }
    out[record::RANDOM..record::RANDOM + 5].copy_from_slice(&parts.random);
    let name = pasted.form().as_str().as_bytes();
    let n = name.len().min(record::FORM_ROOM);
    out[record::FORM_LEN] = n as u8;
    out[record::FORM..record::FORM + n].copy_from_slice(&name[..n]);
    Ok(())
}

/// The record `oid_when` writes: the whole seconds since the epoch as a little-endian `u32`
/// at 0, the length of the form's name at 4, the name from 5.
pub(crate) mod when_record {
    /// The form's name's length (one byte).
    pub(crate) const FORM_LEN: usize = 4;
    /// The form's name.
    pub(crate) const FORM: usize = 5;
    /// Total length.
    pub(crate) const LEN: usize = FORM + 32;
}

/// Reads `input` as a pasted time ([`PastedDate::parse`], the reader of the `oid` command's
/// time arguments: an id in any pasted form, `ISODate("…")`, `new Date(…)`, `{"$date": …}`)
/// and writes its second (which must be one an id can hold) and the form's name into `out` in
/// the [`when_record`] layout. A text that is none of the forms is the id reader's error, with
/// its hint.
pub(crate) fn when(input: &[u8], out: &mut [u8; when_record::LEN]) -> Result<u32, Error> {
    let text = core::str::from_utf8(input).map_err(|_| Error::NotUtf8)?;
    let date =
        PastedDate::parse(text).map_err(|e| match (e.form(), ObjectId::parse_pasted(text)) {
            (None, Err(id)) => Error::Parse(id),
            _ => Error::Date(e),
        })?;
    let secs = u32::try_from(date.unix_seconds()).map_err(|_| Error::TimeOutOfRange)?;
    let name = match date.form() {
        DateForm::IsoDate => "ISODate(\"…\")",
        DateForm::NewDate => "new Date(…)",
        DateForm::ExtendedJson => "extended JSON {\"$date\": …}",
        _ => "ObjectId",
    }
    .as_bytes();
    out[..4].copy_from_slice(&secs.to_le_bytes());
    out[when_record::FORM_LEN] = name.len() as u8;
    out[when_record::FORM..when_record::FORM + name.len()].copy_from_slice(name);
    Ok(secs)
}

/// The ids created in `[from, to)`, times in milliseconds since the Unix epoch as JavaScript
/// gives them (`NaN`: an open end), through oid-core's [`IdRange`]: the rule the CLI's `range`
/// and oid-bson's filters use (a fractional end rounds up to the next second; an open end, or one
/// past 2106-02-07T06:28:15Z, is `$lte` the largest id).
pub(crate) fn range(from_ms: f64, to_ms: f64) -> Result<IdRange, Error> {
    Ok(IdRange::from_millis(millis(from_ms)?, millis(to_ms)?))
}

/// A JavaScript time value as whole milliseconds (`NaN`: none).
fn millis(ms: f64) -> Result<Option<i64>, Error> {
    if ms.is_nan() {
        Ok(None)
    } else if ms.is_finite() && ms.abs() < 9.0e15 {
        // Below 2^53 the cast is exact for whole values and truncates toward zero otherwise;
        // `f64::floor` is not in `core`, so a negative fraction steps down by hand.
        let whole = ms as i64;
        Ok(Some(if (whole as f64) > ms {
            whole - 1
        } else {
            whole
        }))
    } else {
        Err(Error::TimeOutOfRange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oid_core::{FixedClock, Form};
    use std::string::{String, ToString};
    use std::vec;

    const RANDOM: [u8; 5] = [0x3f, 0x2a, 0x91, 0xc8, 0xd4];

    #[test]
    fn millis_floors_like_math_floor() {
        for (ms, want) in [
            (0.0, 0),
            (1.5, 1),
            (-0.5, -1),
            (-1.0, -1),
            (-1.25, -2),
            (1_700_000_000_999.9, 1_700_000_000_999),
        ] {
            assert_eq!(millis(ms), Ok(Some(want)), "{ms}");
        }
        assert_eq!(millis(f64::NAN), Ok(None));
        assert_eq!(millis(f64::INFINITY), Err(Error::TimeOutOfRange));
    }

    #[test]
    fn when_reads_what_the_cli_reads() {
        let mut out = [0u8; when_record::LEN];
        for (text, form) in [
            ("507f1f77bcf86cd799439011", "ObjectId"),
            ("{\"$oid\": \"507f1f77bcf86cd799439011\"}", "ObjectId"),
            ("ISODate('2012-10-17T21:13:27Z')", "ISODate(\"…\")"),
            ("new Date(1350508407000)", "new Date(…)"),
            (
                "{\"$date\": \"2012-10-17T23:13:27+02:00\"}",
                "extended JSON {\"$date\": …}",
            ),
        ] {
            assert_eq!(when(text.as_bytes(), &mut out), Ok(1_350_508_407), "{text}");
            assert_eq!(out[..4], 1_350_508_407u32.to_le_bytes());
            let n = usize::from(out[when_record::FORM_LEN]);
            assert_eq!(
                &out[when_record::FORM..when_record::FORM + n],
                form.as_bytes()
            );
        }
        let mut err = |text: &str| message(&when(text.as_bytes(), &mut out).unwrap_err());
        assert_eq!(
            err("ISODate('2024-02-30')"),
            "invalid date in ISODate(\"…\"): expected RFC 3339 such as 2024-01-01T00:00:00Z"
        );
        assert_eq!(
            err("ObjectID('507f1f77bcf86cd799439011')"),
            "invalid length: expected 24 hex characters, found 36\ndid you mean 507f1f77bcf86cd799439011?"
        );
        assert!(err("new Date(-1000)").starts_with("time out of range"));
        assert!(err("ISODate('2106-02-07T06:28:16Z')").starts_with("time out of range"));
    }

    fn message(e: &Error) -> String {
        let mut buf = [0u8; 200];
        let n = write_message(&mut buf, e);
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }

    #[test]
    fn generate_worked_example_back_to_back() {
        let g = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, 12345);
        let mut out = [0u8; 100];
        assert_eq!(generate(&g, 2, &mut out), Ok(2));
        assert_eq!(
            &out[..48],
            b"6553f1003f2a91c8d40030396553f1003f2a91c8d400303a"
        );
        assert!(
            out[48..].iter().all(|&b| b == 0),
            "nothing written past the ids"
        );
        // The next call continues the counter.
        assert_eq!(generate(&g, 1, &mut out), Ok(1));
        assert_eq!(&out[..24], b"6553f1003f2a91c8d400303b");
    }

    #[test]
    fn generate_stops_at_the_buffer_and_the_batch_and_continues() {
        let g = Generator::from_seed(FixedClock::at(1), RANDOM, 0xfffffe);
        let mut out = [0u8; 24 * 3 + 23];
        assert_eq!(generate(&g, 10, &mut out), Ok(3));
        let counters: vec::Vec<&[u8]> = out[..72].chunks(24).map(|c| &c[18..]).collect();
        assert_eq!(counters, [&b"fffffe"[..], b"ffffff", b"000000"]);
        let mut big = vec![0u8; 24 * (BATCH + 10)];
        assert_eq!(generate(&g, u32::MAX, &mut big), Ok(BATCH));
        assert_eq!(
            &big[18..24],
            b"000001",
            "the counter goes on from the last call"
        );
        assert_eq!(generate(&g, 0, &mut big), Ok(0));
    }

    #[test]
    fn generate_without_a_time_is_an_error_and_uses_no_counter() {
        let clock = ManualClock::new();
        let g = Generator::from_seed(&clock, RANDOM, 7);
        let mut out = [0u8; 48];
        let err = generate(&g, 1, &mut out).unwrap_err();
        assert_eq!(message(&err), "clock time not available");
        set_clock(&clock, 1_700_000_000.9);
        assert_eq!(generate(&g, 1, &mut out), Ok(1));
        assert_eq!(&out[..24], b"6553f1003f2a91c8d4000007");
    }

    #[test]
    fn set_clock_accepts_only_times_after_the_epoch() {
        let clock = ManualClock::new();
        for bad in [f64::NAN, -1.0, -0.5, f64::INFINITY, f64::NEG_INFINITY] {
            set_clock(&clock, 5.0);
            set_clock(&clock, bad);
            assert_eq!(clock.unix_seconds(), None, "{bad}");
        }
        set_clock(&clock, 0.0);
        assert_eq!(clock.unix_seconds(), Some(0));
        set_clock(&clock, 4_294_967_296.0);
        assert_eq!(
            clock.unix_seconds(),
            Some(1 << 32),
            "the generator wraps it, as the field does"
        );
    }

    #[test]
    fn seed_fills_random_value_then_counter() {
        let g = Generator::from_seed(FixedClock::at(0), [0; 5], 0);
        g.ids()
            .reseed_from(&mut Seed::from_words(0x3f2a_91c8, 0xd400_3039))
            .unwrap();
        let p = g.next().to_parts();
        assert_eq!((p.random, p.counter), (RANDOM, 0x003039));
        let mut nine = [0u8; 9];
        let err = Seed([1; 8]).fill(&mut nine).unwrap_err();
        assert_eq!(
            message(&Error::Entropy(err)),
            "entropy source failed: the page's seed has only 8 bytes"
        );
    }

    #[test]
    fn inspect_the_documented_example() {
        let mut out = [0u8; record::LEN];
        inspect(b"507F1F77BCF86CD799439011", &mut out).unwrap();
        let word = |at: usize| u32::from_le_bytes(out[at..at + 4].try_into().unwrap());
        assert_eq!(&out[..24], b"507f1f77bcf86cd799439011");
        assert_eq!(word(record::TIMESTAMP), 1_350_508_407);
        assert_eq!(word(record::COUNTER), 0x439011);
        assert_eq!(word(record::MACHINE), 0xbcf86c);
        assert_eq!(word(record::PROCESS_ID), 0xd799);
        assert_eq!(
            out[record::RANDOM..record::RANDOM + 5],
            [0xbc, 0xf8, 0x6c, 0xd7, 0x99]
        );
        assert_eq!(form(&out), "hex");
    }

    fn form(out: &[u8; record::LEN]) -> &str {
        let n = usize::from(out[record::FORM_LEN]);
        core::str::from_utf8(&out[record::FORM..record::FORM + n]).unwrap()
    }

    #[test]
    fn inspect_reads_pasted_forms_and_names_them() {
        for (input, name) in [
            ("  '507f1f77bcf86cd799439011' ", "quoted hex"),
            (
                "ObjectId(\"507f1f77bcf86cd799439011\")",
                "mongosh ObjectId(\"…\")",
            ),
            (
                "ObjectId('507F1F77BCF86CD799439011')",
                "mongosh ObjectId(\"…\")",
            ),
            (
                "{\"$oid\": \"507f1f77bcf86cd799439011\"}",
                "extended JSON {\"$oid\": \"…\"}",
            ),
        ] {
            let mut out = [0u8; record::LEN];
            inspect(input.as_bytes(), &mut out).unwrap();
            assert_eq!(&out[..24], b"507f1f77bcf86cd799439011", "{input}");
            assert_eq!(form(&out), name, "{input}");
        }
        // Every form's name fits its room.
        for f in [Form::Hex, Form::Quoted, Form::Shell, Form::ExtendedJson] {
            assert!(f.as_str().len() <= record::FORM_ROOM, "{f}");
        }
    }

    #[test]
    fn a_near_miss_gets_the_clis_hint_on_a_second_line() {
        let mut out = [0u8; record::LEN];
        let err = inspect(b"ObjectID(\"507f1f77bcf86cd799439011\")", &mut out).unwrap_err();
        assert_eq!(
            message(&err),
            "invalid length: expected 24 hex characters, found 36\n\
             did you mean 507f1f77bcf86cd799439011?"
        );
        let err = inspect(b"ObjectId(\"xyz\")", &mut out).unwrap_err();
        assert_eq!(
            message(&err),
            "invalid length: expected 24 hex characters, found 3"
        );
        assert_eq!(out, [0; record::LEN], "nothing written on error");
    }

    #[test]
    fn inspect_errors_are_oid_core_messages() {
        let mut out = [0u8; record::LEN];
        for input in [
            "",
            "abc",
            "507f1f77bcf86cd79943901g",
            "507f1f77bcf86cd79943901é",
            " 507f1f77bcf86cd79943901 ",
        ] {
            let err = inspect(input.as_bytes(), &mut out).unwrap_err();
            let expected = ObjectId::parse_str(input.trim()).unwrap_err().to_string();
            assert_eq!(message(&err), expected, "{input:?}");
        }
        assert_eq!(
            message(&inspect(b"50\xff", &mut out).unwrap_err()),
            "input is not valid utf-8"
        );
        assert_eq!(out, [0; record::LEN], "nothing written on error");
    }

    #[test]
    fn ranges_follow_the_shared_rule() {
        use oid_core::Upper;
        let r = range(1_350_508_407_000.0, 1_350_508_408_000.0).unwrap();
        assert_eq!(r.lower().to_hex(), "507f1f770000000000000000");
        assert_eq!(
            r.upper(),
            Upper::Lt(ObjectId::min_for_timestamp(1_350_508_408))
        );
        // A fractional end rounds up, so ids made in its second are not missed.
        let r = range(1_350_508_407_000.0, 1_350_508_407_500.0).unwrap();
        assert_eq!(
            r.upper(),
            Upper::Lt(ObjectId::min_for_timestamp(1_350_508_408))
        );
        // Open ends, and an end past the last second, reach ObjectId::MAX inclusively.
        assert_eq!(
            range(0.0, f64::NAN).unwrap().upper(),
            Upper::Lte(ObjectId::MAX)
        );
        assert_eq!(
            range(0.0, 4_294_967_296_000.0).unwrap().upper(),
            Upper::Lte(ObjectId::MAX)
        );
        assert_eq!(range(f64::NAN, 1_000.0).unwrap().lower(), ObjectId::MIN);
        for bad in [f64::INFINITY, f64::NEG_INFINITY, 1e300] {
            let err = range(bad, f64::NAN).unwrap_err();
            assert_eq!(
                message(&err),
                "time out of range: expected 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z"
            );
        }
    }

    #[test]
    fn messages_are_cut_to_the_buffer() {
        let mut small = [0u8; 9];
        assert_eq!(write_message(&mut small, &Error::NotUtf8), 9);
        assert_eq!(&small, b"input is ");
    }
}
