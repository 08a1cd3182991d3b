//! `oid convert`: ids from lines into hex lines.
//!
//! The inputs are streamed: each id is written as it is read, so memory does not grow with the
//! input. A file output is written under a temporary name in its folder and renamed over OUT at
//! the end, so OUT is whole or untouched (and an input may be the output itself).

use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};

use oid_std::ObjectId;

use crate::cli::ConvertArgs;
use crate::error::{Error, Status};
use crate::format::ConvertFormat;
use crate::input::{self, Row, Sources};
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
    let progress = Progress::on_stderr();
    let result = if args.output.as_os_str() == "-" {
        convert(args, format, stdin, out, err, &progress)
    } else {
        let mut target = Target::create(&args.output)?;
        let mut w = BufWriter::with_capacity(WRITE_BUFFER, target.file());
        let result = convert(args, format, stdin, &mut w, err, &progress).and_then(|outcome| {
            w.flush()?;
            Ok(outcome)
        });
        drop(w);
        // The only writes are OUT's: name it.
        let result = result.map_err(|e| match e {
            Error::Write(source) => Error::Output {
                path: args.output.clone(),
                source,
            },
            e => e,
        });
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
    if outcome.unreadable > 0 && args.output.as_os_str() != "-" {
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

/// Converts every input into `w`. A failed write is [`Error::Write`].
fn convert<E: Messages>(
    args: &ConvertArgs,
    format: ConvertFormat,
    stdin: impl BufRead,
    w: &mut impl Write,
    err: &mut E,
    progress: &Progress,
) -> Result<Outcome, Error> {
    let mut ids = match format {
        ConvertFormat::Hex => HexLines { w },
    };
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
    ids.finish()?;
    outcome.unreadable = seen.unreadable;
    Ok(outcome)
}

/// Where converted ids go, one at a time; `None` is a null row.
trait Ids {
    fn push(&mut self, id: Option<ObjectId>) -> io::Result<()>;
    fn finish(&mut self) -> io::Result<()>;
}

/// 24 lowercase hex digits per line; a null row writes nothing.
struct HexLines<'w, W: Write> {
    w: &'w mut W,
}

impl<W: Write> Ids for HexLines<'_, W> {
    #[inline]
    fn push(&mut self, id: Option<ObjectId>) -> io::Result<()> {
        let Some(id) = id else { return Ok(()) };
        let mut line = [b'\n'; 25];
        if let Some(hex) = line.first_chunk_mut::<24>() {
            id.encode_hex(hex);
        }
        self.w.write_all(&line)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// A file output: a temporary file next to OUT, renamed over it by [`Target::keep`]; dropped
/// without it, the temporary file is removed. An OUT that exists and is not a regular file
/// (`/dev/null`, a named pipe) is written directly.
struct Target {
    path: PathBuf,
    file: TargetFile,
}

enum TargetFile {
    Temporary(tempfile::NamedTempFile),
    Direct(File),
}

impl Target {
    fn create(path: &Path) -> Result<Target, Error> {
        let output = |source| Error::Output {
            path: path.to_owned(),
            source,
        };
        let file = match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() && !meta.is_dir() => {
                TargetFile::Direct(File::create(path).map_err(output)?)
            }
            _ => {
                let dir = match path.parent() {
                    Some(dir) if !dir.as_os_str().is_empty() => dir,
                    _ => Path::new("."),
                };
                let mut builder = tempfile::Builder::new();
                builder.prefix(".oid-convert-");
                // The mode a plain `File::create` gives (0666 less the umask), not tempfile's 0600.
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    builder.permissions(std::fs::Permissions::from_mode(0o666));
                }
                TargetFile::Temporary(builder.tempfile_in(dir).map_err(output)?)
            }
        };
        Ok(Target {
            path: path.to_owned(),
            file,
        })
    }

    fn file(&mut self) -> &mut File {
        match &mut self.file {
            TargetFile::Temporary(t) => t.as_file_mut(),
            TargetFile::Direct(f) => f,
        }
    }

    /// Renames the temporary file over OUT.
    fn keep(self) -> Result<(), Error> {
        match self.file {
            TargetFile::Temporary(t) => {
                t.persist(&self.path).map_err(|e| Error::Output {
                    path: self.path.clone(),
                    source: e.error,
                })?;
            }
            TargetFile::Direct(_) => {}
        }
        Ok(())
    }
}
