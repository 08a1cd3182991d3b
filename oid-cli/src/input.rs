//! The ids a command reads: its arguments, or standard input one per line when there are none.
//!
//! Surrounding whitespace (including the `\r` of CRLF files) is ignored, blank lines are skipped
//! but still counted, and a line that is not UTF-8 is reported rather than read lossily.

use std::fmt;
use std::io::{BufRead, Write};

use oid_core::{ObjectId, ParseError};

use crate::error::Error;

/// Where an input came from, for messages: `argument 2` or `line 7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Position {
    /// The n-th id argument (1-based).
    Argument(usize),
    /// The n-th line of standard input (1-based).
    Line(usize),
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Argument(n) => write!(f, "argument {n}"),
            Position::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Why an input is not an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Invalid {
    /// The text is not 24 hex digits.
    Parse(ParseError),
    /// The line is not UTF-8.
    NotUtf8,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Parse(e) => e.fmt(f),
            Invalid::NotUtf8 => f.write_str("not valid UTF-8"),
        }
    }
}

/// One input: where it was, its text (trimmed) and what it parsed to.
#[derive(Debug)]
pub(crate) struct Item<'a> {
    pub(crate) position: Position,
    pub(crate) text: &'a str,
    pub(crate) id: Result<ObjectId, Invalid>,
}

fn item(position: Position, text: &str) -> Item<'_> {
    let text = text.trim();
    Item {
        position,
        text,
        id: ObjectId::parse_str(text).map_err(Invalid::Parse),
    }
}

/// Calls `f` for each argument, or, when there are none, for each non-blank line of `stdin`.
/// Stops at the first error `f` returns. One line buffer is reused for the whole input.
pub(crate) fn for_each(
    args: &[String],
    mut stdin: impl BufRead,
    mut f: impl FnMut(Item<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    if !args.is_empty() {
        for (i, arg) in args.iter().enumerate() {
            f(item(Position::Argument(i + 1), arg))?;
        }
        return Ok(());
    }
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        if stdin.read_until(b'\n', &mut buf).map_err(Error::Read)? == 0 {
            return Ok(());
        }
        line += 1;
        let position = Position::Line(line);
        match std::str::from_utf8(&buf) {
            Ok(text) if text.trim().is_empty() => {}
            Ok(text) => f(item(position, text))?,
            Err(_) => {
                let lossy = String::from_utf8_lossy(&buf);
                f(Item {
                    position,
                    text: lossy.trim(),
                    id: Err(Invalid::NotUtf8),
                })?;
            }
        }
    }
}

/// Reports an invalid input on `err` as one line, `oid: line 7: "xyz": <reason>`. `out` is
/// flushed first, so that on a terminal the message follows the output of the inputs before it.
///
/// # Errors
///
/// Flushing `out` failed. A failure to write `err` is ignored: there is nowhere left to say it.
pub(crate) fn report(
    out: &mut impl Write,
    err: &mut impl Write,
    item: &Item<'_>,
    reason: &Invalid,
) -> Result<(), Error> {
    out.flush()?;
    let _ = writeln!(
        err,
        "oid: {}: {}: {reason}",
        item.position,
        Shown(item.text)
    );
    Ok(())
}

/// An input as shown in a message: quoted and escaped, and cut short when long, so a message
/// stays on one line whatever was read.
pub(crate) struct Shown<'a>(pub(crate) &'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX_CHARS: usize = 40;
        match self.0.char_indices().nth(MAX_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((cut, _)) => write!(f, "{:?}...", &self.0[..cut]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(args: &[&str], stdin: &[u8]) -> Vec<(Position, String, Result<ObjectId, Invalid>)> {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        let mut seen = Vec::new();
        for_each(&args, stdin, |item| {
            seen.push((item.position, item.text.to_owned(), item.id));
            Ok(())
        })
        .unwrap();
        seen
    }

    const ID: &str = "507f1f77bcf86cd799439011";

    #[test]
    fn arguments_win_over_stdin() {
        let seen = collect(&[ID, "nope"], b"ignored\n");
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0].0, Position::Argument(1));
        assert_eq!(seen[0].2.unwrap().to_hex(), ID);
        assert_eq!(seen[1].0, Position::Argument(2));
        assert!(matches!(seen[1].2, Err(Invalid::Parse(_))));
    }

    #[test]
    fn stdin_lines_are_trimmed_blank_lines_skipped_but_counted() {
        let seen = collect(
            &[],
            b"  507F1F77BCF86CD799439011\r\n\n   \nxyz\n507f1f77bcf86cd799439011",
        );
        let positions: Vec<Position> = seen.iter().map(|s| s.0).collect();
        assert_eq!(
            positions,
            [Position::Line(1), Position::Line(4), Position::Line(5)]
        );
        assert_eq!(seen[0].1, "507F1F77BCF86CD799439011");
        assert!(seen[0].2.is_ok());
        assert_eq!(seen[1].1, "xyz");
        assert_eq!(
            seen[1].2.unwrap_err().to_string(),
            "invalid length: expected 24 hex characters, found 3"
        );
        assert!(seen[2].2.is_ok(), "a last line without a newline is read");
    }

    #[test]
    fn non_utf8_line_is_reported_not_read_lossily() {
        let seen = collect(&[], b"\xff\xfe0000\n507f1f77bcf86cd799439011\n");
        assert_eq!(seen[0].0, Position::Line(1));
        assert_eq!(seen[0].2, Err(Invalid::NotUtf8));
        assert_eq!(Invalid::NotUtf8.to_string(), "not valid UTF-8");
        assert!(seen[1].2.is_ok());
    }

    #[test]
    fn empty_stdin_yields_nothing() {
        assert!(collect(&[], b"").is_empty());
    }

    #[test]
    fn errors_from_the_callback_stop_the_loop() {
        let mut calls = 0;
        let result = for_each(&[], &b"a\nb\nc\n"[..], |_| {
            calls += 1;
            Err(Error::Read(std::io::Error::other("stop")))
        });
        assert!(result.is_err());
        assert_eq!(calls, 1);
    }

    #[test]
    fn shown_quotes_escapes_and_truncates() {
        assert_eq!(Shown("xyz").to_string(), r#""xyz""#);
        assert_eq!(Shown("a\tb").to_string(), r#""a\tb""#);
        let long = "é".repeat(50);
        let shown = Shown(&long).to_string();
        assert_eq!(shown, format!("{:?}...", "é".repeat(40)));
    }
}
