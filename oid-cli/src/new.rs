//! `oid new`: generate ids.
//!
//! One [`Generator`] serves the whole run, and [`Generator::try_fill`] fills a fixed chunk of
//! ids that is reused until the count is reached; each id is encoded into a line buffer on the
//! stack and written through the caller's `BufWriter`. So the memory used does not grow with the
//! count, and no allocation is made per id (in the hex format).
//!
//! The ids of a run share the random value (except after the clock is set back during the run,
//! or with `--rotate`: see the README) and have consecutive counters (modulo 2^24). One
//! second holds 2^24 ids of one random value, so a run never prints a repeat: when the second's
//! ids are spent, it waits for the next second (and says so once on standard error, unless
//! `--quiet`). With `--time` every id has the same second, so a count above 2^24 is refused
//! before anything is written. With `--rotate` ([`CapacityPolicy::Rotate`]) a spent second moves
//! on to a new random value at once instead: no wait, and no limit with `--time`.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use oid_std::{CapacityPolicy, Clock, Entropy, ErrorKind, Generator, ObjectId};
use oid_std::{OsEntropy, SystemClock};

use crate::cli::NewArgs;
use crate::columns::ColumnWriter;
use crate::error::{Error, Status};
use crate::format::{Line, NewFormat};
use crate::output::Target;

/// Ids one second holds for one random value: the 3-byte counter's range.
pub(crate) const PER_SECOND: u64 = 1 << 24;

/// The clock of a run: the system clock, or the time given with `--time`.
#[derive(Debug)]
enum RunClock {
    System(SystemClock),
    Fixed(u32),
}

impl Clock for RunClock {
    /// A system time an ObjectId cannot hold (after 2106-02-07T06:28:15Z) reads as `None`, so
    /// that it is an error rather than a wrapped timestamp.
    fn unix_seconds(&self) -> Option<u64> {
        match self {
            RunClock::System(clock) => holdable(clock.unix_seconds()),
            RunClock::Fixed(secs) => Some(u64::from(*secs)),
        }
    }

    /// Sleeps until the next second of the system clock (at least a millisecond).
    fn wait(&self) {
        std::thread::sleep(until_next_second(SystemTime::now()));
    }
}

/// How long from `now` to the start of the next second of the system clock, at least 1 ms.
fn until_next_second(now: SystemTime) -> Duration {
    let into = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    Duration::from_nanos(u64::from(1_000_000_000 - into)).max(Duration::from_millis(1))
}

/// A clock reading an ObjectId can hold, or `None`.
fn holdable(secs: Option<u64>) -> Option<u64> {
    secs.filter(|&secs| secs <= u64::from(u32::MAX))
}

/// The one generator of a run, seeded from the operating system.
fn generator(args: &NewArgs) -> Result<Generator<RunClock>, Error> {
    let clock = match args.time {
        Some(time) => RunClock::Fixed(time.seconds()),
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
        let policy = if args.rotate {
            CapacityPolicy::Rotate
        } else {
            CapacityPolicy::Wait
        };
        let generator = Generator::from_entropy(clock, &mut OsEntropy).map_err(Error::Entropy)?;
        generator.ids().set_policy(policy);
        Ok(generator)
    }
}

/// Runs `oid new`.
pub(crate) fn run(args: &NewArgs, out: &mut impl Write) -> Result<Status, Error> {
    if let Some(time) = args.time
        && args.count > PER_SECOND
        && !args.rotate
    {
        return Err(Error::FixedTimeCapacity {
            count: args.count,
            time,
        });
    }
    let format = args.format();
    if args.upper && format != NewFormat::Hex {
        return Err(Error::UpperNeedsHex(format));
    }
    let to_stdout = args.output.as_ref().is_none_or(|o| o.as_os_str() == "-");
    if to_stdout && format.kind().is_some() && io::stdout().is_terminal() {
        return Err(Error::BinaryToTerminal(format.name()));
    }
    let generator = generator(args)?;
    let quiet = args.quiet;
    let on_first_wait = || {
        if !quiet {
            let _ = writeln!(
                io::stderr(),
                "oid: waiting for the next second: this one's 16777216 ids are spent \
                 (one second holds 2^24 ids of one random value)"
            );
        }
    };
    let line = match format {
        NewFormat::Hex => Line::Hex(args.upper),
        // The legacy reading is real for ids made with --legacy, so it is shown for them.
        NewFormat::Json => Line::Json(args.legacy),
        NewFormat::Ejson => Line::Ejson,
        NewFormat::Mongosh => Line::Mongosh,
        NewFormat::Parquet | NewFormat::Arrow | NewFormat::ArrowStream => Line::Hex(false),
    };
    let write = |w: &mut dyn WriteSend| -> Result<(), Error> {
        match format.kind() {
            None => write_ids(&generator, args.count, line, w, on_first_wait),
            Some(kind) => {
                let mut column = ColumnWriter::new(w, kind, false)?;
                fill(&generator, args.count, on_first_wait, |ids| {
                    Ok(column.extend(ids)?)
                })?;
                column.finish()?.flush()?;
                Ok(())
            }
        }
    };
    match args.output.as_deref().filter(|_| !to_stdout) {
        None if format.kind().is_none() => {
            write_ids(&generator, args.count, line, out, on_first_wait)?;
        }
        // A column goes through its own writer of standard output (the locked one is not
        // `Send`, as arrow's writers need); nothing was written to `out`.
        None => write(&mut BufWriter::with_capacity(WRITE_BUFFER, io::stdout()))?,
        Some(path) => {
            let mut target = Target::create(path)?;
            let mut w = BufWriter::with_capacity(WRITE_BUFFER, target.file());
            write(&mut w)
                .and_then(|()| Ok(w.flush()?))
                .map_err(|e| e.written_to(path))?;
            drop(w);
            target.keep()?;
        }
    }
    Ok(Status::Ok)
}

/// A writer arrow's writers take.
trait WriteSend: Write + Send {}

impl<W: Write + Send> WriteSend for W {}

/// The write buffer of a file or column output.
const WRITE_BUFFER: usize = 256 * 1024;

/// Ids generated per `try_fill` (48 KiB of ids, on the stack). It divides 2^24, so the chunks
/// of a second use its capacity exactly.
const CHUNK: usize = 4096;

/// Writes `count` ids from `generator` to `out`, one line each in `format`, never a repeat:
/// see [`fill`].
pub(crate) fn write_ids<C: Clock>(
    generator: &Generator<C>,
    count: u64,
    format: Line,
    out: &mut (impl Write + ?Sized),
    on_first_wait: impl FnMut(),
) -> Result<(), Error> {
    // `<24 hex digits>\n`, the hex at 0..24.
    let mut line = [b'\n'; 25];
    fill(generator, count, on_first_wait, |chunk| {
        match format {
            Line::Hex(upper) => {
                for id in chunk {
                    let mut hex = [0_u8; 24];
                    let text = if upper {
                        id.encode_hex_upper(&mut hex)
                    } else {
                        id.encode_hex(&mut hex)
                    };
                    line[..24].copy_from_slice(text.as_bytes());
                    out.write_all(&line)?;
                }
            }
            _ => {
                for id in chunk {
                    format.write(out, *id)?;
                }
            }
        }
        Ok(())
    })
}

/// Generates `count` ids from `generator` and hands them to `emit` a chunk of at most
/// [`CHUNK`] at a time, never a repeat. When the current second's ids are spent, calls
/// `on_first_wait` (once per run) and waits for a later second through [`Clock::wait`]. When
/// the clock answers `None`, nothing more is made and [`Error::Clock`] is returned.
pub(crate) fn fill<C: Clock>(
    generator: &Generator<C>,
    count: u64,
    mut on_first_wait: impl FnMut(),
    mut emit: impl FnMut(&[ObjectId]) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut ids = [ObjectId::MIN; CHUNK];
    let mut waited = false;
    let mut remaining = count;
    while remaining > 0 {
        let n = usize::try_from(remaining).map_or(CHUNK, |r| r.min(CHUNK));
        let chunk = &mut ids[..n];
        if let Err(e) = generator.try_fill(chunk) {
            if e.kind() != ErrorKind::CapacityExhausted {
                return Err(Error::Clock);
            }
            if !waited {
                waited = true;
                on_first_wait();
            }
            generator.clock().wait();
            continue;
        }
        remaining -= n as u64;
        emit(chunk)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use oid_std::{FixedClock, IdSpace, ManualClock};

    use super::*;

    const RANDOM: [u8; 5] = [0x3f, 0x2a, 0x91, 0xc8, 0xd4];

    fn generate(count: u64, format: Line, counter: u32) -> String {
        let generator = Generator::from_seed(FixedClock::at(1_700_000_000), RANDOM, counter);
        let mut out = Vec::new();
        write_ids(&generator, count, format, &mut out, || panic!("no wait")).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rotate_goes_past_a_spent_second_without_waiting() {
        // A clock that never moves: the default policy would wait (`on_first_wait` panics).
        let generator = Generator::from_ids(
            FixedClock::at(1_700_000_000),
            IdSpace::new(RANDOM, 0).with_policy(CapacityPolicy::Rotate),
        );
        // The second's last chunk, then the next random value.
        let spent = PER_SECOND as u32 - CHUNK as u32;
        generator.ids().reserve(Some(1_700_000_000), spent).unwrap();
        let mut out = Vec::new();
        write_ids(&generator, 5_000, Line::Hex(false), &mut out, || {
            panic!("rotate never waits")
        })
        .unwrap();
        let ids: Vec<ObjectId> = std::str::from_utf8(&out)
            .unwrap()
            .lines()
            .map(|l| ObjectId::parse_str(l).unwrap())
            .collect();
        let distinct: std::collections::HashSet<ObjectId> = ids.iter().copied().collect();
        assert_eq!(distinct.len(), 5_000);
        let randoms: std::collections::HashSet<[u8; 5]> =
            ids.iter().map(|id| id.to_parts().random).collect();
        assert_eq!(
            randoms.len(),
            2,
            "the second's last 1,000 ids, then a new value"
        );
        assert!(ids.iter().all(|id| id.timestamp() == 1_700_000_000));
    }

    #[test]
    fn worked_example() {
        assert_eq!(
            generate(2, Line::Hex(false), 12345),
            "6553f1003f2a91c8d4003039\n6553f1003f2a91c8d400303a\n"
        );
        assert_eq!(
            generate(1, Line::Hex(true), 12345),
            "6553F1003F2A91C8D4003039\n"
        );
        assert_eq!(generate(0, Line::Hex(false), 0), "");
    }

    #[test]
    fn other_formats_one_line_per_id() {
        assert_eq!(
            generate(2, Line::Mongosh, 12345),
            "ObjectId(\"6553f1003f2a91c8d4003039\")\nObjectId(\"6553f1003f2a91c8d400303a\")\n"
        );
        assert_eq!(
            generate(1, Line::Ejson, 12345),
            "{\"$oid\":\"6553f1003f2a91c8d4003039\"}\n"
        );
        let json = generate(3, Line::Json(false), 12345);
        let objects: Vec<serde_json::Value> = json
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(objects.len(), 3);
        assert_eq!(objects[2]["counter"], 12347);
    }

    #[test]
    fn chunks_join_seamlessly_and_counters_wrap() {
        // Three chunks and a bit, starting just before the 24-bit wrap.
        let count = 3 * CHUNK as u64 + 7;
        let start = 0xff_ffff - 100;
        let text = generate(count, Line::Hex(false), start);
        let ids: Vec<ObjectId> = text
            .lines()
            .map(|s| ObjectId::parse_str(s).unwrap())
            .collect();
        assert_eq!(ids.len() as u64, count);
        for (i, id) in ids.iter().enumerate() {
            let parts = id.to_parts();
            assert_eq!(parts.random, RANDOM);
            assert_eq!(parts.timestamp, 1_700_000_000);
            assert_eq!(parts.counter, (start + i as u32) & 0xff_ffff);
        }
    }

    /// A clock at a fixed second whose `wait` moves it one second on.
    struct Ticking {
        secs: Cell<u64>,
        waits: Cell<u32>,
    }

    impl Clock for Ticking {
        fn unix_seconds(&self) -> Option<u64> {
            Some(self.secs.get())
        }
        fn wait(&self) {
            self.waits.set(self.waits.get() + 1);
            self.secs.set(self.secs.get() + 1);
        }
    }

    /// Keeps the ids at a few line indices; each `write` is one line (the hex format writes
    /// a whole line at a time), so no parsing is needed for the others.
    struct Sampled {
        lines: u64,
        keep: [u64; 4],
        kept: Vec<ObjectId>,
    }

    impl Write for Sampled {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            assert_eq!(buf.len(), 25);
            if self.keep.contains(&self.lines) {
                let hex = std::str::from_utf8(&buf[..24]).unwrap();
                self.kept.push(ObjectId::parse_str(hex).unwrap());
            }
            self.lines += 1;
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn past_a_seconds_capacity_it_waits_once_and_never_repeats() {
        let clock = Ticking {
            secs: Cell::new(1_700_000_000),
            waits: Cell::new(0),
        };
        let start = 0xff_ff00;
        let generator = Generator::from_seed(&clock, RANDOM, start);
        let count = PER_SECOND + 5000;
        let mut out = Sampled {
            lines: 0,
            keep: [0, PER_SECOND - 1, PER_SECOND, count - 1],
            kept: Vec::new(),
        };
        let mut said = 0;
        write_ids(&generator, count, Line::Hex(false), &mut out, || said += 1).unwrap();
        assert_eq!(out.lines, count);
        assert_eq!(said, 1, "said once");
        assert_eq!(clock.waits.get(), 1);
        // Counters run on consecutively; the id 2^24 places on, which has the first one's
        // counter, is of the next second: no repeat.
        let at = |i: usize| out.kept[i].to_parts();
        let t = 1_700_000_000;
        assert_eq!((at(0).timestamp, at(0).counter), (t, start));
        assert_eq!((at(1).timestamp, at(1).counter), (t, start - 1));
        assert_eq!((at(2).timestamp, at(2).counter), (t + 1, start));
        assert_eq!(
            (at(3).timestamp, at(3).counter),
            (t + 1, (start + 4999) & 0xff_ffff)
        );
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
        assert_eq!(RunClock::Fixed(7).unix_seconds(), Some(7));
        let now = RunClock::System(SystemClock).unix_seconds().unwrap();
        assert!(now > 1_600_000_000);
    }

    #[test]
    fn waits_until_the_next_second() {
        let at = |ms: u64| UNIX_EPOCH + Duration::from_millis(ms);
        assert_eq!(
            until_next_second(at(1_700_000_000_250)),
            Duration::from_millis(750)
        );
        assert_eq!(
            until_next_second(at(1_700_000_000_000)),
            Duration::from_secs(1)
        );
        assert_eq!(
            until_next_second(UNIX_EPOCH + Duration::new(5, 999_999_999)),
            Duration::from_millis(1)
        );
    }

    #[test]
    fn unavailable_clock_is_an_error_and_stops_output() {
        let clock = ManualClock::new();
        let generator = Generator::from_seed(&clock, RANDOM, 0);
        let mut out = Vec::new();
        let result = write_ids(&generator, 3, Line::Hex(false), &mut out, || {});
        assert!(matches!(result, Err(Error::Clock)));
        assert!(out.is_empty());
    }
}
