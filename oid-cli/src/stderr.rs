//! Standard error, buffered. Each message is written whole into the buffer; whether it is
//! flushed at once depends on who reads it:
//!
//! - **a person** (standard error is a terminal, or the same file as standard output, as with
//!   `2>&1`): standard output is flushed first and the message after it, one `write` per
//!   message, so messages appear in order with the output of the inputs before them;
//! - **a file or a pipe of its own**: messages stay in the buffer until it fills or the command
//!   ends, so a million invalid lines cost a few hundred writes, not a million.

use std::io::{self, BufWriter, IsTerminal, StderrLock, Write};

/// Where messages go: [`Stderr`], or a plain buffer in tests.
pub(crate) trait Messages: Write {
    /// Whether each message must reach its reader at once, in order with standard output.
    fn interleaved(&self) -> bool;

    /// Ends a message: flushes it when [`interleaved`](Messages::interleaved). A failure is
    /// ignored, as for any write to standard error: there is nowhere left to say it.
    fn end_message(&mut self) {
        if self.interleaved() {
            let _ = self.flush();
        }
    }
}

/// Tests read what was written; order with standard output is theirs to check.
impl Messages for Vec<u8> {
    fn interleaved(&self) -> bool {
        true
    }
}

/// Messages thrown away.
impl Messages for io::Sink {
    fn interleaved(&self) -> bool {
        false
    }
}

/// The process's standard error behind a 64 KiB buffer. Dropping it flushes it.
pub(crate) struct Stderr {
    inner: BufWriter<StderrLock<'static>>,
    interleaved: bool,
}

impl Stderr {
    /// Standard error, locked for the life of the process.
    pub(crate) fn new() -> Stderr {
        let stderr = io::stderr();
        let interleaved = stderr.is_terminal() || same_file_as_stdout();
        Stderr {
            inner: BufWriter::with_capacity(64 * 1024, stderr.lock()),
            interleaved,
        }
    }
}

impl Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl Messages for Stderr {
    fn interleaved(&self) -> bool {
        self.interleaved
    }
}

/// Whether descriptors 1 and 2 are the same file or pipe (`>log 2>&1`, `2>&1 | less`): then the
/// reader sees one stream, and messages must keep their place in it. Unix only; elsewhere
/// `true`, which keeps the order at the cost of a write per message.
fn same_file_as_stdout() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;

        use std::os::unix::fs::FileTypeExt;

        let id = |fd: std::os::fd::BorrowedFd<'_>| {
            let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
            let meta = file.metadata().ok()?;
            let kind = meta.file_type();
            // A file or a pipe keeps what it is given in order; `/dev/null` and other devices
            // do not show it to anyone.
            let ordered = kind.is_file() || kind.is_fifo() || kind.is_socket();
            Some((meta.dev(), meta.ino(), ordered))
        };
        match (id(io::stdout().as_fd()), id(io::stderr().as_fd())) {
            (Some(out), Some(err)) => out == err && out.2,
            // Unknown: keep the order.
            _ => true,
        }
    }
    #[cfg(not(unix))]
    {
        true
    }
}
