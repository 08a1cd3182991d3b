//! `oid new`: generate ids.
//!
//! One [`Generator`] serves the whole run, and [`Generator::fill`] fills a fixed chunk of ids
//! that is reused until the count is reached; each id is encoded into a line buffer on the stack
//! and written through the caller's `BufWriter`. So the memory used does not grow with the count,
//! and no allocation is made per id.
//!
//! All ids of a run share the random value and have consecutive counters (modulo 2^24). The
//! counter has 24 bits: a run of more than 16,777,216 ids within one second repeats earlier ids,
//! as the ObjectId specification implies; with `--time` every id has the same second, so that
//! happens for any run longer than 2^24.

use std::io::{self, Write};

use oid_core::{Clock, Entropy, Generator, ObjectId};
use oid_std::{OsEntropy, SystemClock};

use crate::cli::NewArgs;
use crate::error::{Error, Status};
use crate::when::UnixTime;

/// The clock of a run: the system clock, or the time given with `--time`.
#[derive(Debug)]
enum RunClock {
    System(SystemClock),
    Fixed(UnixTime),
}

impl Clock for RunClock {
    /// A system time an ObjectId cannot hold (after 2106-02-07T06:28:15Z) reads as `None`, so
    /// that it is an error rather than a wrapped timestamp.
    fn unix_seconds(&self) -> Option<u64> {
        match self {
            RunClock::System(clock) => holdable(clock.unix_seconds()),
            RunClock::Fixed(time) => Some(u64::from(time.0)),
        }
    }
}

/// A clock reading an ObjectId can hold, or `None`.
fn holdable(secs: Option<u64>) -> Option<u64> {
    secs.filter(|&secs| secs <= u64::from(u32::MAX))
}

/// The one generator of a run, seeded from the operating system.
fn generator(args: &NewArgs) -> Result<Generator<RunClock>, Error> {
    let clock = match args.time {
        Some(time) => RunClock::Fixed(time),
        None => RunClock::System(SystemClock),
    };
    if args.legacy {
        let mut start = [0_u8; 3];
        OsEntropy.fill(&mut start).map_err(Error::Entropy)?;
        Ok(Generator::from_legacy(
            clock,
            oid_std::legacy::machine_id(),
            oid_std::legacy::process_id(),
            u32::from_be_bytes([0, start[0], start[1], start[2]]),
        ))
    } else {
        Generator::from_entropy(clock, &mut OsEntropy).map_err(Error::Entropy)
    }
}

/// Runs `oid new`.
pub(crate) fn run(args: &NewArgs, out: &mut impl Write) -> Result<Status, Error> {
    let generator = generator(args)?;
    if args.time.is_some() && args.count > 1 << 24 {
        let _ = writeln!(
            io::stderr(),
            "oid: warning: ids after the first 16777216 repeat earlier ones: with --time they \
             share one second, and the counter has 24 bits"
        );
    }
    let style = Style {
        json: args.json,
        upper: args.upper,
    };
    write_ids(&generator, args.count, style, out)?;
    Ok(Status::Ok)
}

/// Ids generated per `fill` (48 KiB of ids, on the stack).
const CHUNK: usize = 4096;

/// How the ids are written.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Style {
    /// One JSON array of strings instead of one id per line.
    pub(crate) json: bool,
    /// Upper-case hex.
    pub(crate) upper: bool,
}

/// Writes `count` ids from `generator` to `out`. The clock is read once per chunk; when it
/// answers `None`, nothing more is written and [`Error::Clock`] is returned.
pub(crate) fn write_ids<C: Clock>(
    generator: &Generator<C>,
    count: u64,
    style: Style,
    out: &mut impl Write,
) -> Result<(), Error> {
    let mut ids = [ObjectId::MIN; CHUNK];
    // `  "<24 hex digits>",\n` for JSON, `<24 hex digits>\n` otherwise; the hex goes at `at`.
    let mut line = *b"  \"000000000000000000000000\",\n";
    let (at, end) = if style.json { (3, line.len()) } else { (0, 25) };
    if !style.json {
        line[24] = b'\n';
    }
    let mut hex = [0_u8; 24];

    if style.json {
        out.write_all(if count == 0 { b"[" } else { b"[\n" })?;
    }
    let mut remaining = count;
    while remaining > 0 {
        let n = usize::try_from(remaining).map_or(CHUNK, |r| r.min(CHUNK));
        let chunk = &mut ids[..n];
        generator.try_fill(chunk).map_err(|_| Error::Clock)?;
        remaining -= n as u64;
        for (i, id) in chunk.iter().enumerate() {
            let text = if style.upper {
                id.encode_hex_upper(&mut hex)
            } else {
                id.encode_hex(&mut hex)
            };
            line[at..at + 24].copy_from_slice(text.as_bytes());
            if style.json && remaining == 0 && i + 1 == n {
                // The last element: no comma.
                out.write_all(&line[..at + 25])?;
                out.write_all(b"\n")?;
            } else {
                out.write_all(&line[..end])?;
            }
        }
    }
    if style.json {
        out.write_all(b"]\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use oid_core::{FixedClock, ManualClock};

    use super::*;

    const RANDOM: [u8; 5] = [0x3f, 0x2a, 0x91, 0xc8, 0xd4];

    fn generate(count: u64, style: Style, counter: u32) -> String {
        let generator = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, counter);
        let mut out = Vec::new();
        write_ids(&generator, count, style, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn worked_example() {
        assert_eq!(
            generate(2, Style::default(), 12345),
            "6553f1003f2a91c8d4003039\n6553f1003f2a91c8d400303a\n"
        );
    }

    #[test]
    fn upper_and_json() {
        let style = Style {
            json: true,
            upper: true,
        };
        assert_eq!(
            generate(2, style, 12345),
            "[\n  \"6553F1003F2A91C8D4003039\",\n  \"6553F1003F2A91C8D400303A\"\n]\n"
        );
        assert_eq!(
            generate(
                0,
                Style {
                    json: true,
                    upper: false
                },
                0
            ),
            "[]\n"
        );
        assert_eq!(generate(0, Style::default(), 0), "");
    }

    #[test]
    fn chunks_join_seamlessly_and_counters_wrap() {
        // Three chunks and a bit, starting just before the 24-bit wrap.
        let count = 3 * CHUNK as u64 + 7;
        let start = 0xff_ffff - 100;
        for json in [false, true] {
            let text = generate(count, Style { json, upper: false }, start);
            let ids: Vec<ObjectId> = if json {
                serde_json::from_str::<Vec<String>>(&text)
                    .unwrap()
                    .iter()
                    .map(|s| ObjectId::parse_str(s).unwrap())
                    .collect()
            } else {
                text.lines()
                    .map(|s| ObjectId::parse_str(s).unwrap())
                    .collect()
            };
            assert_eq!(ids.len() as u64, count);
            for (i, id) in ids.iter().enumerate() {
                let parts = id.to_parts();
                assert_eq!(parts.random, RANDOM);
                assert_eq!(parts.timestamp, 1_700_000_000);
                assert_eq!(parts.counter, (start + i as u32) & 0xff_ffff);
            }
        }
    }

    #[test]
    fn system_times_after_2106_are_not_wrapped() {
        assert_eq!(holdable(Some(0)), Some(0));
        assert_eq!(
            holdable(Some(u64::from(u32::MAX))),
            Some(u64::from(u32::MAX))
        );
        assert_eq!(holdable(Some(1 << 32)), None);
        assert_eq!(holdable(None), None);
        assert_eq!(RunClock::Fixed(UnixTime(7)).unix_seconds(), Some(7));
        let now = RunClock::System(SystemClock).unix_seconds().unwrap();
        assert!(now > 1_600_000_000);
    }

    #[test]
    fn unavailable_clock_is_an_error_and_stops_output() {
        let clock = ManualClock::new();
        let generator = Generator::from_seed(&clock, RANDOM, 0);
        let mut out = Vec::new();
        let result = write_ids(&generator, 3, Style::default(), &mut out);
        assert!(matches!(result, Err(Error::Clock)));
        assert!(out.is_empty());
    }
}
