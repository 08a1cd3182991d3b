//! Errors that end a command, and how each one exits.

use std::fmt;
use std::io;
use std::path::PathBuf;

use oid_std::EntropyError;

use crate::format::NewFormat;
use crate::when::{LAST, Time};

/// Something that stops a command. Invalid ids do not: they are reported one by one and only
/// change the exit status (see [`Status`]).
#[derive(Debug)]
pub(crate) enum Error {
    /// Writing standard output failed. A closed pipe (`oid new 1000000 | head -1`) is not
    /// reported: the reader has all it wanted.
    Write(io::Error),
    /// Standard output was closed when the command started (`oid new >&-`).
    StdoutClosed,
    /// Reading standard input failed.
    Read(io::Error),
    /// The output file of `convert` or `new -o` could not be created, written or renamed.
    Output { path: PathBuf, source: io::Error },
    /// A Parquet or Arrow output to standard output that is a terminal (the format's name).
    BinaryToTerminal(&'static str),
    /// `oid sql`: no `oid-sql` next to `oid` nor on PATH.
    SqlMissing,
    /// `oid sql`: `oid-sql` was found but could not be started.
    SqlStart { path: PathBuf, source: io::Error },
    /// The operating system gave no random bytes to seed the generator.
    Entropy(EntropyError),
    /// The system clock reads a time an ObjectId cannot hold.
    Clock,
    /// `new COUNT --time T` with more ids than one second holds.
    FixedTimeCapacity { count: u64, time: Time },
    /// `range FROM TO` with FROM not earlier than TO.
    EmptyWindow { from: Time, to: Time },
    /// `new --upper` with a format other than hex.
    UpperNeedsHex(NewFormat),
}

impl Error {
    /// A closed standard output: end quietly and successfully.
    pub(crate) fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Write(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }

    /// A failed write, [`Error::Write`], as a failed write of the file at `path`.
    pub(crate) fn written_to(self, path: &std::path::Path) -> Error {
        match self {
            Error::Write(source) => Error::Output {
                path: path.to_owned(),
                source,
            },
            e => e,
        }
    }

    /// 2 for a command line that cannot work (as clap uses for its own usage errors) or an
    /// input that cannot be read, 1 for everything else.
    pub(crate) const fn exit_code(&self) -> u8 {
        match self {
            Error::EmptyWindow { .. }
            | Error::FixedTimeCapacity { .. }
            | Error::UpperNeedsHex(_)
            | Error::Read(_)
            | Error::SqlMissing
            | Error::BinaryToTerminal(_)
            | Error::SqlStart { .. } => 2,
            Error::Write(_)
            | Error::StdoutClosed
            | Error::Output { .. }
            | Error::Entropy(_)
            | Error::Clock => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Write(e) => write!(f, "cannot write to standard output: {e}"),
            Error::StdoutClosed => f.write_str("cannot write to standard output: it is closed"),
            Error::Read(e) => write!(f, "cannot read standard input: {e}"),
            Error::Output { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
            Error::BinaryToTerminal(format) => write!(
                f,
                "--format {format} is binary: not written to a terminal; give -o FILE, or \
                 redirect standard output"
            ),
            Error::SqlMissing => f.write_str(
                "`oid sql` runs the oid-sql command, which is not installed: it is neither next \
                 to oid nor on PATH; install it from a checkout of oid with `cargo install --path \
                 oid-datafusion`",
            ),
            Error::SqlStart { path, source } => {
                write!(f, "cannot run {}: {source}", path.display())
            }
            Error::Entropy(e) => write!(f, "cannot seed the generator: {e}"),
            Error::Clock => write!(
                f,
                "the system clock reads a time outside 1970-01-01T00:00:00Z..={LAST}; pass --time"
            ),
            Error::FixedTimeCapacity { count, time } => write!(
                f,
                "cannot make {count} distinct ids as of {time}: one second holds at most \
                 16777216 ids of a random value; make at most 16777216, or leave out --time"
            ),
            Error::EmptyWindow { from, to } if from == to => write!(
                f,
                "FROM and TO are both {from}: the range [FROM, TO) is empty"
            ),
            Error::EmptyWindow { from, to } => {
                write!(f, "FROM {from} is later than TO {to}")
            }
            Error::UpperNeedsHex(format) => write!(
                f,
                "--upper is for --format hex only: --format {} writes ids in lower case, as \
                 MongoDB does",
                format.name()
            ),
        }
    }
}

impl From<io::Error> for Error {
    /// I/O errors inside a command come from writing its output; reads map explicitly.
    fn from(e: io::Error) -> Self {
        Error::Write(e)
    }
}

/// How a command that ran to the end went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Everything was valid.
    Ok,
    /// Some inputs were invalid (each one was reported).
    Invalid,
    /// Some input files could not be read (each one was reported); exit status 2.
    Unreadable,
}

impl Status {
    /// The status of a run that saw `invalid` invalid ids and `unreadable` files it could not
    /// read: an unreadable file outweighs invalid ids.
    pub(crate) const fn of(invalid: u64, unreadable: u64) -> Status {
        if unreadable > 0 {
            Status::Unreadable
        } else if invalid > 0 {
            Status::Invalid
        } else {
            Status::Ok
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_pipe_is_quiet_other_write_errors_are_not() {
        assert!(Error::Write(io::ErrorKind::BrokenPipe.into()).is_broken_pipe());
        assert!(!Error::Write(io::ErrorKind::StorageFull.into()).is_broken_pipe());
        assert!(!Error::Read(io::ErrorKind::BrokenPipe.into()).is_broken_pipe());
        assert!(!Error::StdoutClosed.is_broken_pipe());
        assert_eq!(Error::StdoutClosed.exit_code(), 1);
    }

    #[test]
    fn messages_and_exit_codes() {
        let same = Error::EmptyWindow {
            from: Time::from_seconds(0),
            to: Time::from_seconds(0),
        };
        assert_eq!(
            same.to_string(),
            "FROM and TO are both 1970-01-01T00:00:00Z: the range [FROM, TO) is empty"
        );
        assert_eq!(same.exit_code(), 2);
        let reversed = Error::EmptyWindow {
            from: Time::from_seconds(1),
            to: Time::from_seconds(0),
        };
        assert_eq!(
            reversed.to_string(),
            "FROM 1970-01-01T00:00:01Z is later than TO 1970-01-01T00:00:00Z"
        );
        assert_eq!(Error::Clock.exit_code(), 1);
        assert!(Error::Clock.to_string().contains("2106-02-07T06:28:15Z"));
        let entropy = Error::Entropy(EntropyError::new("no rng"));
        assert_eq!(
            entropy.to_string(),
            "cannot seed the generator: entropy source failed: no rng"
        );
        let capacity = Error::FixedTimeCapacity {
            count: 16_777_217,
            time: Time::from_seconds(1_700_000_000),
        };
        assert_eq!(capacity.exit_code(), 2);
        assert_eq!(
            capacity.to_string(),
            "cannot make 16777217 distinct ids as of 2023-11-14T22:13:20Z: one second holds at \
             most 16777216 ids of a random value; make at most 16777216, or leave out --time"
        );
    }

    #[test]
    fn status_from_counts() {
        assert_eq!(Status::of(0, 0), Status::Ok);
        assert_eq!(Status::of(3, 0), Status::Invalid);
        assert_eq!(Status::of(3, 1), Status::Unreadable);
        assert_eq!(Status::of(0, 1), Status::Unreadable);
    }
}
