//! One input and why it may not be an id: what the argument loop of [`super`] and the line
//! reader of [`super::lines()`] share.

use std::fmt;
use std::io;
use std::path::Path;

use oid_core::PastedError;
use oid_std::ObjectId;

use crate::error::Error;

/// The longest line read, in bytes, without its line ending.
pub(crate) const MAX_LINE: usize = 4096;

/// Where an input came from, for messages: `argument 2`, `line 7` (standard input) or
/// `ids.txt:7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Position<'a> {
    /// The n-th id argument (1-based).
    Argument(usize),
    /// The n-th line (1-based) of a file, or of standard input when the name is `None`.
    Line(Option<&'a Path>, usize),
    /// The row at this index (0-based, as Arrow, pyarrow and Polars count them) of a column
    /// file, or of standard input when the name is `None`.
    Row(Option<&'a Path>, u64),
}

impl fmt::Display for Position<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Argument(n) => write!(f, "argument {n}"),
            Position::Line(None, n) => write!(f, "line {n}"),
            Position::Line(Some(path), n) => write!(f, "{}:{n}", path.display()),
            Position::Row(None, n) => write!(f, "row {n}"),
            Position::Row(Some(path), n) => write!(f, "{}: row {n}", path.display()),
        }
    }
}

/// Why an input is not an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Invalid {
    /// The text is not an id in any accepted form.
    Parse(PastedError),
    /// The line or argument is not UTF-8.
    NotUtf8,
    /// The line is longer than [`MAX_LINE`] bytes.
    TooLong,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Parse(e) => e.fmt(f),
            Invalid::NotUtf8 => f.write_str("not valid UTF-8"),
            Invalid::TooLong => write!(f, "line too long: more than {MAX_LINE} bytes, skipped"),
        }
    }
}

/// What a command is given for each input: an id or an input that is not one, or a null row of
/// a column (no id, but not an invalid one either).
#[derive(Debug)]
pub(crate) enum Row<'a> {
    Item(Item<'a>),
    #[expect(
        dead_code,
        reason = "null rows come from columns, whose readers land next"
    )]
    Null(Position<'a>),
}

/// One input: where it was, its text (trimmed; the start of it for a long line) and what it
/// read as.
#[derive(Debug)]
pub(crate) struct Item<'a> {
    pub(crate) position: Position<'a>,
    pub(crate) text: &'a str,
    pub(crate) id: Result<ObjectId, Invalid>,
}

/// The input `text` at `position`: an id in any pasted form, or why it is not one.
pub(crate) fn item<'a>(position: Position<'a>, text: &'a str) -> Item<'a> {
    // The common case first: exactly an id, nothing around it (what `parse_pasted` reads as
    // bare hex, without the trimming and the look for other forms).
    if text.len() == 24
        && let Ok(id) = ObjectId::parse_str(text)
    {
        return Item {
            position,
            text,
            id: Ok(id),
        };
    }
    let text = text.trim();
    Item {
        position,
        text,
        id: ObjectId::parse_pasted(text)
            .map(|pasted| pasted.id())
            .map_err(Invalid::Parse),
    }
}

/// Why reading one source stopped early.
pub(super) enum LinesError {
    /// The source could not be read.
    Read(io::Error),
    /// The callback stopped.
    Stop(Error),
}

impl LinesError {
    /// For standard input, a read error ends the command.
    pub(super) fn stdin(self) -> Error {
        match self {
            LinesError::Read(e) => Error::Read(e),
            LinesError::Stop(e) => e,
        }
    }
}
