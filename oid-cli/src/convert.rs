//! `oid convert`: ids from lines or columns into hex lines or an ObjectId column.
//!
//! The inputs are streamed: each id is written as it is read (a column a batch of
//! [`BATCH`](crate::columns::BATCH) rows at a time), so memory does not grow with the input. A
//! file output is written under a temporary name in its folder and renamed over OUT at the end
//! ([`Target`]), so OUT is whole or untouched (and an input may be the output itself).

use std::io::{self, BufRead, BufWriter, IsTerminal, Write};

use oid_std::ObjectId;

use crate::cli::ConvertArgs;
use crate::columns::ColumnWriter;
use crate::error::{Error, Status};
use crate::format::ConvertFormat;
use crate::input::{self, Row, Sources};
use crate::output::Target;
use crate::progress::Progress;
use crate::stderr::Messages;

/// The write buffer of a file output.
const WRITE_BUFFER: usize = 256 * 1024;

/// Runs `oid convert`.
pub(crate) fn run(
    args: &ConvertArgs,
    stdin: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Messages,
) -> Result<Status, Error> {
    let format = args
        .format
        .unwrap_or_else(|| ConvertFormat::of_path(&args.output));
    let to_stdout = args.output.as_os_str() == "-";
    if to_stdout && format.kind().is_some() && io::stdout().is_terminal() {
        return Err(Error::BinaryToTerminal(format.name()));
    }
    let progress = Progress::on_stderr();
    let result = if to_stdout {
        match format.kind() {
            None => convert(args, stdin, &mut HexLines { w: out }, err, &progress),
            // A column goes through its own writer of standard output (the locked one is not
            // `Send`, as arrow's writers need); nothing was written to `out`.
            Some(_) => {
                let w = BufWriter::with_capacity(WRITE_BUFFER, io::stdout());
                write_to(w, format, args, stdin, err, &progress)
                    .and_then(|(outcome, mut w)| Ok(w.flush().map(|()| outcome)?))
            }
        }
    } else {
        let mut target = Target::create(&args.output)?;
        let w = BufWriter::with_capacity(WRITE_BUFFER, target.file());
        let result = write_to(w, format, args, stdin, err, &progress)
            .and_then(|(outcome, mut w)| Ok(w.flush().map(|()| outcome)?));
        // The only writes are OUT's: name it.
        let result = result.map_err(|e| e.written_to(&args.output));
        match result {
            Ok(outcome) if outcome.unreadable == 0 => {
                target.keep()?;
                Ok(outcome)
            }
            // An input could not be read: OUT would miss its ids, so it is left as it was.
            other => other,
        }
    };
    progress.finish();
    let outcome = result?;
    if outcome.unreadable > 0 && !to_stdout {
        let _ = writeln!(
            err,
            "oid: {} not written: an input could not be read",
            args.output.display()
        );
    } else if outcome.invalid > 0 {
        let _ = writeln!(
            err,
            "oid: {} ids written, {} invalid left out",
            outcome.written, outcome.invalid
        );
    }
    Ok(Status::of(outcome.invalid, outcome.unreadable))
}

/// What a conversion did.
#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    written: u64,
    invalid: u64,
    unreadable: u64,
}

/// Converts every input into `w` in `format`; returns `w` when done.
fn write_to<W: Write + Send>(
    w: W,
    format: ConvertFormat,
    args: &ConvertArgs,
    stdin: impl BufRead,
    err: &mut impl Messages,
    progress: &Progress,
) -> Result<(Outcome, W), Error> {
    match format.kind() {
        None => {
            let mut ids = HexLines { w };
            let outcome = convert(args, stdin, &mut ids, err, progress)?;
            Ok((outcome, ids.w))
        }
        Some(kind) => {
            let mut ids = ColumnWriter::new(w, kind, true)?;
            let outcome = convert(args, stdin, &mut ids, err, progress)?;
            Ok((outcome, ids.finish()?))
        }
    }
}

/// Converts every input into `ids`. A failed write is [`Error::Write`].
fn convert<E: Messages>(
    args: &ConvertArgs,
    stdin: impl BufRead,
    ids: &mut impl Ids,
    err: &mut E,
    progress: &Progress,
) -> Result<Outcome, Error> {
    let mut outcome = Outcome::default();
    let sources = Sources {
        args: &[],
        files: &args.inputs,
        read: &args.read,
    };
    let seen = input::for_each(sources, stdin, err, progress, |row, err| {
        match row {
            Row::Item(item) => match item.id {
                Ok(id) => {
                    outcome.written += 1;
                    ids.push(Some(id))?;
                }
                Err(reason) => {
                    outcome.invalid += 1;
                    progress.suspend(|| input::report(&mut io::sink(), err, &item, &reason))?;
                }
            },
            Row::Null(_) => ids.push(None)?,
        }
        Ok(())
    })?;
    outcome.unreadable = seen.unreadable;
    Ok(outcome)
}

/// Where converted ids go, one at a time; `None` is a null row.
trait Ids {
    fn push(&mut self, id: Option<ObjectId>) -> io::Result<()>;
}

/// 24 lowercase hex digits per line; a null row writes nothing (it holds no id).
struct HexLines<W: Write> {
    w: W,
}

impl<W: Write> Ids for HexLines<W> {
    #[inline]
    fn push(&mut self, id: Option<ObjectId>) -> io::Result<()> {
        let Some(id) = id else { return Ok(()) };
        let mut line = [b'\n'; 25];
        if let Some(hex) = line.first_chunk_mut::<24>() {
            id.encode_hex(hex);
        }
        self.w.write_all(&line)
    }
}

/// A null row stays a null.
impl<W: Write + Send> Ids for ColumnWriter<W> {
    #[inline]
    fn push(&mut self, id: Option<ObjectId>) -> io::Result<()> {
        ColumnWriter::push(self, id)
    }
}
