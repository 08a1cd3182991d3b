//! The ids a command reads: its arguments, the files given with `-f/--file` (`-` is standard
//! input), or standard input when there are neither; one id per line.
//!
//! Each line is read with a cap of [`MAX_LINE`](item::MAX_LINE) bytes: a longer line is reported as too long
//! and skipped by streaming through it, never stored, so memory stays bounded whatever the
//! input (a 1 GB line without a newline included). Surrounding whitespace (including the `\r` of
//! CRLF files) is ignored, blank lines are skipped but still counted, a UTF-8 byte order mark
//! at the start of a file is ignored, and a line that is not UTF-8 is reported rather than read
//! lossily. Ids are read as pasted, by `oid_core::ObjectId::parse_pasted`.

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use oid_std::ObjectId;

use crate::cli::ReadArgs;
use crate::columns::{self, Kind, ReadError, RowSink};
use crate::error::Error;
use crate::format::InputFormat;
use crate::progress::{Progress, Unit};
use crate::stderr::Messages;

mod item;
mod lines;

pub(crate) use self::lines::READ_BUFFER;
use self::lines::lines;

use self::item::LinesError;
pub(crate) use self::item::item;
pub(crate) use self::item::{Invalid, Item, Position, Row};

/// What a command reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sources<'a> {
    /// Ids given as arguments; one that is not UTF-8 is reported like such a line.
    pub(crate) args: &'a [OsString],
    /// Files given with `-f/--file`; `-` is standard input.
    pub(crate) files: &'a [PathBuf],
    /// How the files are read.
    pub(crate) read: &'a ReadArgs,
}

/// What [`for_each`] saw, for summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Seen {
    /// Inputs passed to the callback (blank lines are not inputs).
    pub(crate) items: u64,
    /// Files that could not be opened or read (each was reported).
    pub(crate) unreadable: u64,
    /// Whether standard input was read (given no arguments and no files, or `-f -`).
    pub(crate) read_stdin: bool,
}

/// Calls `f` for each argument, then each line of each file; for each line of `stdin` when
/// there are neither. Stops at the first error `f` returns. A file that cannot be opened or
/// read is reported on `err` and counted; the others are still read. Each file read is shown
/// on `progress`.
pub(crate) fn for_each<E: Messages>(
    sources: Sources<'_>,
    stdin: impl BufRead,
    err: &mut E,
    progress: &Progress,
    mut f: impl FnMut(Row<'_>, &mut E) -> Result<(), Error>,
) -> Result<Seen, Error> {
    let mut seen = Seen::default();
    let mut items = 0_u64;
    let mut count = |row: Row<'_>, err: &mut E| {
        items += 1;
        f(row, err)
    };
    for (i, arg) in sources.args.iter().enumerate() {
        let position = Position::Argument(i + 1);
        match arg.to_str() {
            Some(text) => count(Row::Item(item(position, text)), err)?,
            None => {
                let lossy = arg.to_string_lossy();
                let text = lossy.trim();
                let id = Err(Invalid::NotUtf8);
                count(Row::Item(Item { position, text, id }), err)?;
            }
        }
        if let Some(id) = i.checked_sub(1).and_then(|j| split(&sources.args[j..=i])) {
            let _ = writeln!(
                err,
                "oid: hint: arguments {i} and {} together are the id {id}: a space split it; \
                 join them, or quote the whole id",
                i + 1
            );
            err.end_message();
        }
    }
    let mut stdin = Some(stdin);
    let stdin_only = [PathBuf::from("-")];
    let files = if sources.args.is_empty() && sources.files.is_empty() {
        &stdin_only[..]
    } else {
        sources.files
    };
    let column = sources.read.column.as_deref();
    for path in files {
        let result = if path.as_os_str() == "-" {
            seen.read_stdin = true;
            // Standard input is read once; a second `-` finds it at its end.
            let Some(mut stdin) = stdin.take() else {
                continue;
            };
            progress.start("standard input", None, Unit::Bytes);
            let head = stdin.fill_buf().ok();
            match kind(sources.read.input_format, head, None) {
                None => lines(stdin, None, progress, |item| count(Row::Item(item), err))
                    .map_err(|e| ReadError::Stop(e.stdin())),
                Some(kind) => {
                    columns::read_stdin(stdin, kind, column, progress, &mut |row: Row<'_>| {
                        count(row, err)
                    })
                }
            }
        } else {
            read_path(path, sources.read, progress, &mut |row: Row<'_>| {
                count(row, err)
            })
        };
        match result {
            Ok(()) => {}
            Err(ReadError::Stop(e)) => return Err(e),
            Err(ReadError::Unreadable(message)) => {
                seen.unreadable += 1;
                progress.suspend(|| {
                    let _ = writeln!(err, "oid: {message}");
                    err.end_message();
                });
            }
        }
    }
    seen.items = items;
    Ok(seen)
}

/// The column format of an input, `None` for lines: `format` when it says, else by the first
/// bytes `head` (Parquet's and Arrow's magic numbers), else by the `path`'s extension.
fn kind(format: InputFormat, head: Option<&[u8]>, path: Option<&Path>) -> Option<Kind> {
    let sniffed = head.and_then(Kind::sniff);
    match format {
        InputFormat::Lines => None,
        InputFormat::Parquet => Some(Kind::Parquet),
        InputFormat::Arrow => match sniffed {
            Some(Kind::ArrowFile) => Some(Kind::ArrowFile),
            _ => Some(Kind::ArrowStream),
        },
        InputFormat::Auto => sniffed.or_else(|| path.and_then(Kind::of_extension)),
    }
}

/// Reads the file at `path`: lines, or a column file.
fn read_path(
    path: &Path,
    read: &ReadArgs,
    progress: &Progress,
    f: &mut dyn RowSink,
) -> Result<(), ReadError> {
    let unreadable =
        |e: io::Error| ReadError::Unreadable(format!("cannot read {}: {e}", path.display()));
    let file = File::open(path).map_err(unreadable)?;
    let size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let mut reader = BufReader::with_capacity(READ_BUFFER, file);
    let head = reader.fill_buf().ok();
    let by_name = read.input_format == InputFormat::Auto && head.and_then(Kind::sniff).is_none();
    match kind(read.input_format, head, Some(path)) {
        Some(kind) => columns::read_file(reader, path, kind, read.column.as_deref(), progress, f)
            .map_err(|e| match e {
                // Taken for a column file by its name alone.
                ReadError::Unreadable(message) if by_name => ReadError::Unreadable(format!(
                    "{message} (taken for one by its name; for a file of lines give \
                     --input-format lines)"
                )),
                e => e,
            }),
        None => {
            progress.start(&path.display().to_string(), size, Unit::Bytes);
            lines(reader, Some(path), progress, |item| f.row(Row::Item(item))).map_err(
                |e| match e {
                    LinesError::Read(e) => unreadable(e),
                    LinesError::Stop(e) => ReadError::Stop(e),
                },
            )
        }
    }
}

/// The id that two adjacent arguments make together when neither is an id alone
/// (`oid inspect 507f1f77bcf8 6cd799439011`: a space in an unquoted id split it).
fn split(pair: &[OsString]) -> Option<ObjectId> {
    let [a, b] = pair else { return None };
    let (a, b) = (a.to_str()?.trim(), b.to_str()?.trim());
    if ObjectId::parse_pasted(a).is_ok() || ObjectId::parse_pasted(b).is_ok() {
        return None;
    }
    ObjectId::parse_str(&format!("{a}{b}")).ok()
}

/// Reports an invalid input on `err`: `oid: line 7: "xyz": <reason>`, then, when the input
/// holds an id in another shape, `oid: hint: did you mean <id>?`, and, when an argument names
/// an existing file, a hint to use `-f`. When messages are [interleaved](Messages::interleaved)
/// with the output, `out` is flushed first, so that on a terminal the message follows the output
/// of the inputs before it, and the message is flushed after it: one write.
///
/// # Errors
///
/// Flushing `out` failed. A failure to write `err` is ignored: there is nowhere left to say it.
pub(crate) fn report(
    out: &mut impl Write,
    err: &mut impl Messages,
    item: &Item<'_>,
    reason: &Invalid,
) -> Result<(), Error> {
    if err.interleaved() {
        out.flush()?;
    }
    // `oid: {position}: {shown}: {reason}`, with the two common parts written without the
    // formatting machinery (an invalid line in bulk is mostly this message).
    let _ = match item.position {
        Position::Line(None, n) => {
            let mut digits = [0u8; 20];
            err.write_all(b"oid: line ")
                .and_then(|()| err.write_all(crate::format::decimal(n as u64, &mut digits)))
        }
        position => write!(err, "oid: {position}"),
    };
    let _ = match Shown(item.text).plain() {
        Some(text) => err
            .write_all(b": \"")
            .and_then(|()| err.write_all(text.as_bytes()))
            .and_then(|()| err.write_all(b"\": ")),
        None => write!(err, ": {}: ", Shown(item.text)),
    };
    let _ = writeln!(err, "{reason}");
    let hint = match reason {
        Invalid::Parse(e) => e.hint(),
        // A line's text is shown lossily or cut short; an id in it is still worth offering.
        Invalid::NotUtf8 | Invalid::TooLong => ObjectId::parse_pasted(item.text)
            .err()
            .and_then(|e| e.hint()),
    };
    if let Some(id) = hint {
        let _ = writeln!(err, "oid: hint: did you mean {id}?");
    }
    if matches!(item.position, Position::Argument(_)) && Path::new(item.text).is_file() {
        let _ = writeln!(
            err,
            "oid: hint: {} is a file; to read ids from it use -f {}",
            Shown(item.text),
            item.text
        );
    }
    err.end_message();
    Ok(())
}

/// An input as shown in a message: quoted and escaped, and cut short when long, so a message
/// stays on one line whatever was read.
pub(crate) struct Shown<'a>(pub(crate) &'a str);

impl Shown<'_> {
    /// The most characters shown.
    const MAX_CHARS: usize = 40;

    /// The text, when it is shown as it is between the quotes: short printable ASCII that needs
    /// no escape (most invalid lines; `Debug` gives the same, one character at a time).
    fn plain(&self) -> Option<&str> {
        let plain = |b: u8| b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ';
        (self.0.len() <= Self::MAX_CHARS && self.0.bytes().all(plain)).then_some(self.0)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX_CHARS: usize = Shown::MAX_CHARS;
        if let Some(text) = self.plain() {
            f.write_str("\"")?;
            f.write_str(text)?;
            return f.write_str("\"");
        }
        match self.0.char_indices().nth(MAX_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((cut, _)) => write!(f, "{:?}...", &self.0[..cut]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::item::MAX_LINE;
    use super::lines::SHOWN_OF_LONG_LINE;
    use super::*;
    use std::io;

    type Seen3 = (String, String, Result<ObjectId, Invalid>);

    fn collect_from(args: &[&str], files: &[PathBuf], stdin: &[u8]) -> (Vec<Seen3>, Seen, String) {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let mut items = Vec::new();
        let mut err = Vec::new();
        let seen = for_each(
            Sources {
                args: &args,
                files,
                read: &ReadArgs::default(),
            },
            stdin,
            &mut err,
            &Progress::none(),
            |row, _| {
                let Row::Item(item) = row else {
                    unreachable!("lines have no nulls")
                };
                items.push((item.position.to_string(), item.text.to_owned(), item.id));
                Ok(())
            },
        )
        .unwrap();
        (items, seen, String::from_utf8(err).unwrap())
    }

    fn collect(args: &[&str], stdin: &[u8]) -> Vec<Seen3> {
        collect_from(args, &[], stdin).0
    }

    const ID: &str = "507f1f77bcf86cd799439011";

    #[test]
    fn arguments_win_over_stdin() {
        let seen = collect(&[ID, "nope"], b"ignored\n");
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0].0, "argument 1");
        assert_eq!(seen[0].2.unwrap().to_hex(), ID);
        assert_eq!(seen[1].0, "argument 2");
        assert!(matches!(seen[1].2, Err(Invalid::Parse(_))));
    }

    #[test]
    fn stdin_lines_are_trimmed_blank_lines_skipped_but_counted() {
        let seen = collect(
            &[],
            b"  507F1F77BCF86CD799439011\r\n\n   \nxyz\n507f1f77bcf86cd799439011",
        );
        let positions: Vec<&str> = seen.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(positions, ["line 1", "line 4", "line 5"]);
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
    fn lenient_forms_are_read() {
        let seen = collect(
            &[],
            b"ObjectId(\"507f1f77bcf86cd799439011\")\n{\"$oid\": \"507f1f77bcf86cd799439011\"}\n",
        );
        assert!(
            seen.iter()
                .all(|s| s.2.map(|id| id.to_hex().to_string()) == Ok(ID.to_owned()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_non_utf8_argument_is_reported_like_such_a_line_and_the_others_read() {
        use std::os::unix::ffi::OsStringExt;
        let args = [
            OsString::from_vec(b"\xff\xfe".to_vec()),
            OsString::from(ID),
            OsString::from_vec(b" id=507f1f77bcf86cd799439011\xff ".to_vec()),
        ];
        let mut seen = Vec::new();
        for_each(
            Sources {
                args: &args,
                files: &[],
                read: &ReadArgs::default(),
            },
            &b"ignored\n"[..],
            &mut io::sink(),
            &Progress::none(),
            |row, _| {
                let Row::Item(item) = row else {
                    unreachable!("arguments are never null")
                };
                seen.push((item.position.to_string(), item.text.to_owned(), item.id));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen.len(), 3);
        assert_eq!(
            (seen[0].0.as_str(), seen[0].1.as_str(), seen[0].2),
            ("argument 1", "\u{fffd}\u{fffd}", Err(Invalid::NotUtf8))
        );
        assert!(seen[1].2.is_ok());
        assert_eq!(seen[2].1, "id=507f1f77bcf86cd799439011\u{fffd}");
        assert_eq!(seen[2].2, Err(Invalid::NotUtf8));
    }

    #[test]
    fn non_utf8_line_is_reported_not_read_lossily() {
        let seen = collect(&[], b"\xff\xfe0000\n507f1f77bcf86cd799439011\n");
        assert_eq!(seen[0].0, "line 1");
        assert_eq!(seen[0].2, Err(Invalid::NotUtf8));
        assert_eq!(Invalid::NotUtf8.to_string(), "not valid UTF-8");
        assert!(seen[1].2.is_ok());
    }

    #[test]
    fn a_leading_bom_is_ignored_on_the_first_line_only() {
        let seen = collect(
            &[],
            b"\xef\xbb\xbf507f1f77bcf86cd799439011\n\xef\xbb\xbf507f1f77bcf86cd799439011\n",
        );
        assert!(seen[0].2.is_ok());
        assert!(seen[1].2.is_err());
    }

    #[test]
    fn lines_up_to_the_cap_are_read_longer_ones_skipped() {
        let mut input = Vec::new();
        // Exactly MAX_LINE bytes: read (and invalid as an id, but not too long).
        input.extend(std::iter::repeat_n(b' ', MAX_LINE - 24));
        input.extend_from_slice(ID.as_bytes());
        input.push(b'\n');
        // One byte more: too long, skipped to its end.
        input.extend(std::iter::repeat_n(b'a', MAX_LINE + 1));
        input.push(b'\n');
        // Far longer, then a good line.
        input.extend(std::iter::repeat_n(b'\0', 10 * MAX_LINE));
        input.push(b'\n');
        input.extend_from_slice(ID.as_bytes());
        // A long last line without a newline.
        input.push(b'\n');
        input.extend(std::iter::repeat_n(b'b', 3 * MAX_LINE));
        let seen = collect(&[], &input);
        let got: Vec<(&str, Result<(), Invalid>)> = seen
            .iter()
            .map(|s| (s.0.as_str(), s.2.map(|_| ())))
            .collect();
        assert_eq!(
            got,
            [
                ("line 1", Ok(())),
                ("line 2", Err(Invalid::TooLong)),
                ("line 3", Err(Invalid::TooLong)),
                ("line 4", Ok(())),
                ("line 5", Err(Invalid::TooLong)),
            ]
        );
        assert_eq!(seen[1].1.len(), SHOWN_OF_LONG_LINE);
        assert_eq!(
            Invalid::TooLong.to_string(),
            "line too long: more than 4096 bytes, skipped"
        );
    }

    #[test]
    fn empty_stdin_yields_nothing() {
        let (items, seen, _) = collect_from(&[], &[], b"");
        assert!(items.is_empty());
        assert_eq!(
            seen,
            Seen {
                items: 0,
                unreadable: 0,
                read_stdin: true
            }
        );
    }

    #[test]
    fn files_are_named_in_positions_and_dash_is_stdin() {
        let dir = std::env::temp_dir().join(format!("oid-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ids.txt");
        std::fs::write(&path, format!("{ID}\nxyz\n")).unwrap();
        let missing = dir.join("missing.txt");
        let files = [path.clone(), PathBuf::from("-"), missing.clone()];
        let (items, seen, err) = collect_from(&[ID], &files, b"abc\n");
        let positions: Vec<&str> = items.iter().map(|s| s.0.as_str()).collect();
        let name = path.display().to_string();
        assert_eq!(
            positions,
            [
                "argument 1",
                &format!("{name}:1"),
                &format!("{name}:2"),
                "line 1"
            ]
        );
        assert_eq!(seen.items, 4);
        assert_eq!(seen.unreadable, 1);
        assert!(seen.read_stdin);
        assert!(
            err.starts_with(&format!("oid: cannot read {}: ", missing.display())),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn errors_from_the_callback_stop_the_loop() {
        let mut calls = 0;
        let result = for_each(
            Sources {
                args: &[],
                files: &[],
                read: &ReadArgs::default(),
            },
            &b"a\nb\nc\n"[..],
            &mut io::sink(),
            &Progress::none(),
            |_, _| {
                calls += 1;
                Err(Error::Read(io::Error::other("stop")))
            },
        );
        assert!(result.is_err());
        assert_eq!(calls, 1);
    }

    #[test]
    fn report_adds_hints() {
        let mut err = Vec::new();
        let item = item(Position::Argument(1), "id=507f1f77bcf86cd799439011");
        let reason = item.id.unwrap_err();
        report(&mut io::sink(), &mut err, &item, &reason).unwrap();
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "oid: argument 1: \"id=507f1f77bcf86cd799439011\": invalid length: expected 24 hex characters, found 27\n\
             oid: hint: did you mean 507f1f77bcf86cd799439011?\n"
        );
    }

    #[test]
    fn shown_is_debug_for_every_short_input() {
        // The plain fast path and `Debug` agree: every ASCII character alone, between others,
        // and some non-ASCII.
        for c in (0u8..0x80)
            .map(char::from)
            .chain(['é', '\u{a0}', '\u{200b}', '😀'])
        {
            for s in [
                c.to_string(),
                format!("ab{c}cd"),
                format!("{c}{}", "x".repeat(39)),
            ] {
                assert_eq!(Shown(&s).to_string(), format!("{s:?}"), "{s:?}");
            }
        }
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
