//! Reading the lines of a file or of standard input, with bounded memory: the lines already
//! whole in the reader's buffer in place, a line that continues past it through a capped copy.

use std::io::{self, BufRead, Read};
use std::path::Path;

use oid_std::ObjectId;

use super::item::{Invalid, Item, LinesError, MAX_LINE, Position, item};
use crate::error::Error;
use crate::progress::Progress;

/// The read buffer of files and standard input: 64 KiB, so a read brings about 2,600 ids.
pub(crate) const READ_BUFFER: usize = 64 * 1024;

/// Calls `f` for each non-blank line of `reader`, with bounded memory.
///
/// The lines already whole in `reader`'s buffer are read in place: one UTF-8 check and one
/// newline search for all of them, no copy. A line that continues past the buffer is read by
/// [`next_line`], which stores at most [`MAX_LINE`] + 1 bytes of it. The bytes read are
/// counted on `progress`.
pub(super) fn lines(
    mut reader: impl BufRead,
    path: Option<&Path>,
    progress: &Progress,
    mut f: impl FnMut(Item<'_>) -> Result<(), Error>,
) -> Result<(), LinesError> {
    let mut buf = Vec::with_capacity(MAX_LINE + 1);
    let mut line = 0;
    loop {
        let buffered = match reader.fill_buf() {
            Ok(buffered) => buffered,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(LinesError::Read(e)),
        };
        if let Some(last) = buffered.iter().rposition(|&b| b == b'\n') {
            whole_lines(&buffered[..last], path, &mut line, &mut f).map_err(LinesError::Stop)?;
            reader.consume(last + 1);
            progress.advance(last as u64 + 1);
            continue;
        }
        let (status, read) = next_line(&mut reader, &mut buf).map_err(LinesError::Read)?;
        progress.advance(read);
        if status == LineRead::Eof {
            return Ok(());
        }
        line += 1;
        one_line(&buf, status, Position::Line(path, line), &mut f).map_err(LinesError::Stop)?;
    }
}

/// Calls `f` for each non-blank line of `text`, lines that end with a newline (the last one's is
/// not in `text`); `line` is the number of the line before them, and is moved on.
fn whole_lines(
    text: &[u8],
    path: Option<&Path>,
    line: &mut usize,
    f: &mut impl FnMut(Item<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    match std::str::from_utf8(text) {
        Ok(mut rest) => loop {
            // `rest.split('\n')`, with the common line first: an id and its newline, taken
            // without searching for the newline.
            *line += 1;
            let position = Position::Line(path, *line);
            if let (Some(b'\n'), Some(head)) = (rest.as_bytes().get(24), rest.get(..24))
                && let Ok(id) = ObjectId::parse_str(head)
            {
                f(Item {
                    position,
                    text: head,
                    id: Ok(id),
                })?;
                rest = &rest[25..];
                continue;
            }
            let (l, next) = match rest.split_once('\n') {
                Some((l, next)) => (l, Some(next)),
                None => (rest, None),
            };
            if l.len() > MAX_LINE || *line == 1 {
                one_line(l.as_bytes(), LineRead::Line, position, f)?;
            } else if !l.trim().is_empty() {
                f(item(position, l))?;
            }
            match next {
                Some(next) => rest = next,
                None => break,
            }
        },
        // Some line is not UTF-8: each is checked on its own, to name it.
        Err(_) => {
            for l in text.split(|&b| b == b'\n') {
                *line += 1;
                one_line(l, LineRead::Line, Position::Line(path, *line), f)?;
            }
        }
    }
    Ok(())
}

/// Calls `f` for one line (without its newline), unless it is blank. `status` is
/// [`LineRead::TooLong`] when only the start of the line is in `bytes`; a line in `bytes` longer
/// than [`MAX_LINE`] is taken for too long too, and shown by its start.
fn one_line(
    bytes: &[u8],
    mut status: LineRead,
    position: Position<'_>,
    f: &mut impl FnMut(Item<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut bytes = bytes;
    if bytes.len() > MAX_LINE {
        status = LineRead::TooLong;
        bytes = &bytes[..SHOWN_OF_LONG_LINE];
    }
    if matches!(position, Position::Line(_, 1)) {
        bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    }
    match (status, std::str::from_utf8(bytes)) {
        (LineRead::Line, Ok(text)) if text.trim().is_empty() => Ok(()),
        (LineRead::Line, Ok(text)) => f(item(position, text)),
        (status, _) => {
            let lossy = String::from_utf8_lossy(bytes);
            f(Item {
                position,
                text: lossy.trim(),
                id: Err(if status == LineRead::TooLong {
                    Invalid::TooLong
                } else {
                    Invalid::NotUtf8
                }),
            })
        }
    }
}

/// What [`next_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineRead {
    /// A whole line (without its `\n`) is in the buffer.
    Line,
    /// A line longer than [`MAX_LINE`]: its first bytes are in the buffer, the rest was
    /// skipped.
    TooLong,
    /// The end of the input.
    Eof,
}

/// How much of a long line is kept for the message.
pub(super) const SHOWN_OF_LONG_LINE: usize = 64;

/// Reads the next line into `buf` (cleared first), storing at most [`MAX_LINE`] + 1 bytes;
/// also returns how many bytes it read, the line ending and a skipped rest included.
fn next_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<(LineRead, u64)> {
    buf.clear();
    let cap = MAX_LINE as u64 + 1;
    let n = reader.by_ref().take(cap).read_until(b'\n', buf)? as u64;
    if n == 0 {
        return Ok((LineRead::Eof, 0));
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok((LineRead::Line, n));
    }
    if buf.len() <= MAX_LINE {
        return Ok((LineRead::Line, n)); // the last line, without a newline
    }
    // Stream through the rest of the line without storing it.
    let rest = reader.skip_until(b'\n')? as u64;
    buf.truncate(SHOWN_OF_LONG_LINE);
    Ok((LineRead::TooLong, n + rest))
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use super::*;

    type Seen3 = (String, String, Result<ObjectId, Invalid>);

    const ID: &str = "507f1f77bcf86cd799439011";

    /// What `lines` gives for `input` read through a buffer of `capacity` bytes.
    fn through_lines(input: &[u8], capacity: usize) -> Vec<Seen3> {
        let mut items = Vec::new();
        lines(
            BufReader::with_capacity(capacity, input),
            None,
            &Progress::none(),
            |item| {
                items.push((item.position.to_string(), item.text.to_owned(), item.id));
                Ok(())
            },
        )
        .ok()
        .unwrap();
        items
    }

    /// The reference: every line read by `next_line` alone, one at a time.
    fn line_by_line(mut input: &[u8]) -> Vec<Seen3> {
        let mut items = Vec::new();
        let mut buf = Vec::new();
        let mut line = 0;
        loop {
            let (status, _) = next_line(&mut input, &mut buf).unwrap();
            if status == LineRead::Eof {
                return items;
            }
            line += 1;
            one_line(&buf, status, Position::Line(None, line), &mut |item| {
                items.push((item.position.to_string(), item.text.to_owned(), item.id));
                Ok(())
            })
            .unwrap();
        }
    }

    #[test]
    fn lines_read_in_place_agree_with_line_by_line_for_any_buffer_size() {
        let mut input = Vec::new();
        input.extend_from_slice(b"\xef\xbb\xbf507f1f77bcf86cd799439011\r\n");
        input.extend_from_slice(format!("{ID}\n\n   \n\u{a0}\u{3000}\n").as_bytes());
        input.extend_from_slice(format!(" {ID} \nObjectId(\"{ID}\")\n{ID}x\nnope\n").as_bytes());
        input.extend_from_slice(b"\xff\xfe bad utf-8\n");
        input.extend_from_slice(&[b'a'; MAX_LINE]);
        input.push(b'\n');
        input.extend_from_slice(&[b'b'; MAX_LINE + 1]);
        input.push(b'\n');
        input.extend_from_slice(format!("{ID}\n").repeat(300).as_bytes());
        input.extend_from_slice(&[b'c'; 3 * MAX_LINE]);
        input.extend_from_slice(format!("{ID}\n").as_bytes());
        input.extend_from_slice("é\u{1F600}\n".as_bytes());
        input.extend_from_slice(ID.as_bytes());
        let expected = line_by_line(&input);
        assert_eq!(expected.len(), 312);
        assert!(expected.iter().any(|s| s.2 == Err(Invalid::TooLong)));
        assert!(expected.iter().any(|s| s.2 == Err(Invalid::NotUtf8)));
        for capacity in [
            1,
            2,
            3,
            24,
            25,
            26,
            100,
            MAX_LINE,
            MAX_LINE + 2,
            10_000,
            READ_BUFFER,
        ] {
            assert_eq!(
                through_lines(&input, capacity),
                expected,
                "capacity {capacity}"
            );
        }
        // The same with the BOM and the invalid UTF-8 in a later buffer, and without either.
        let mut later = format!("{ID}\n").repeat(5).into_bytes();
        later.extend_from_slice(&input);
        let expected = line_by_line(&later);
        for capacity in [7, 130, 200, READ_BUFFER] {
            assert_eq!(
                through_lines(&later, capacity),
                expected,
                "capacity {capacity}"
            );
        }
    }
}
