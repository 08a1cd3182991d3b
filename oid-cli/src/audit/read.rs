//! Reading an audit's inputs, streamed: id lines, mongoexport JSON, CSV and mongodump BSON.
//!
//! Each reader hands every id to a callback and stops at the first input it cannot read, with a
//! message that names the file and the line, row or document ([`Failure`]).

use std::cell::Cell;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use oid_std::ObjectId;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::args::AuditInput;
use crate::progress::{Progress, Unit};

/// The read buffer: 256 KiB, in the L2 cache while the ids in it are decoded. Hex lines took
/// 3-5% less CPU time than with 1 MiB (`perf stat -r 20 oid audit` of 10 M ids, 6 runs of each
/// in turn, loaded machine).
const BUFFER: usize = 1 << 18;

/// The longest id line read, in bytes.
const MAX_LINE: usize = 4096;

/// The largest BSON document read (MongoDB's limit is 16 MiB; mongodump adds nothing).
const MAX_DOCUMENT: usize = 48 << 20;

/// An input that could not be read: the whole message, naming where.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Failure(pub(crate) String);

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What the callback of a reader is given (ids in the order read, a batch at a time), and can
/// stop with.
pub(crate) type Push<'a> = dyn FnMut(&[ObjectId]) -> Result<(), Failure> + 'a;

/// Ids handed on to the audit a batch at a time: 48 KiB of ids, in the L1 or L2 cache.
const BATCH: usize = 4096;

/// The ids a reader has read and not yet handed on.
pub(crate) struct Ids<'a, 'b> {
    batch: Vec<ObjectId>,
    push: &'a mut Push<'b>,
}

impl<'a, 'b> Ids<'a, 'b> {
    pub(crate) fn new(push: &'a mut Push<'b>) -> Self {
        Ids {
            batch: Vec::with_capacity(BATCH),
            push,
        }
    }

    /// Adds one id; hands on the batch when it is full.
    #[inline]
    pub(crate) fn push(&mut self, id: ObjectId) -> Result<(), Failure> {
        self.batch.push(id);
        if self.batch.len() >= BATCH {
            return self.flush();
        }
        Ok(())
    }

    /// Hands on the ids not yet handed on.
    pub(crate) fn flush(&mut self) -> Result<(), Failure> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let result = (self.push)(&self.batch);
        self.batch.clear();
        result
    }

    /// Hands on the ids read before a reader stopped with `result`: an error of theirs
    /// comes first, as when each id was handed on as soon as it was read.
    pub(crate) fn finish(mut self, result: Result<(), Failure>) -> Result<(), Failure> {
        self.flush()?;
        result
    }
}

/// How to find the id in a document or a row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Select<'a> {
    pub(crate) field: &'a str,
    pub(crate) column: &'a str,
}

/// The form of an input named `name` whose first bytes are `head`.
pub(crate) fn detect(name: &str, head: &[u8]) -> AuditInput {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "json" | "jsonl" | "ndjson" => return AuditInput::Json,
        "csv" => return AuditInput::Csv,
        "bson" => return AuditInput::Bson,
        "parquet" | "parq" => return AuditInput::Parquet,
        "arrow" | "arrows" | "ipc" | "feather" => return AuditInput::Arrow,
        "txt" | "hex" | "ids" => return AuditInput::Lines,
        _ => {}
    }
    if head.starts_with(b"PAR1") {
        return AuditInput::Parquet;
    }
    if head.starts_with(b"ARROW1") || head.starts_with(&[0xff, 0xff, 0xff, 0xff]) {
        return AuditInput::Arrow;
    }
    if looks_like_bson(head) {
        return AuditInput::Bson;
    }
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    if let Some(b'{' | b'[') = text.iter().find(|b| !b.is_ascii_whitespace()) {
        return AuditInput::Json;
    }
    let first_line = text.split(|&b| b == b'\n').next().unwrap_or_default();
    if first_line.contains(&b',') {
        AuditInput::Csv
    } else {
        AuditInput::Lines
    }
}

/// A document length, then a BSON element type and a key.
fn looks_like_bson(head: &[u8]) -> bool {
    let Some(len) = head.get(..4) else {
        return false;
    };
    let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
    let kind = head.get(4).copied().unwrap_or(0);
    (5..=MAX_DOCUMENT).contains(&len)
        && matches!(kind, 0x01..=0x13 | 0x7f | 0xff)
        && head.get(len - 1).is_none_or(|&b| b == 0)
}

/// Reads one input of form `form` (not `Auto`) named `name` from `r`.
pub(crate) fn read(
    form: AuditInput,
    name: &str,
    r: &mut dyn BufRead,
    select: Select<'_>,
    progress: &Progress,
    push: &mut Push<'_>,
) -> Result<(), Failure> {
    let mut ids = Ids::new(push);
    let result = match form {
        AuditInput::Lines | AuditInput::Auto => lines(name, r, progress, &mut ids),
        AuditInput::Json => json(name, r, select.field, progress, &mut ids),
        AuditInput::Csv => csv(name, r, select.column, progress, &mut ids),
        AuditInput::Bson => bson(name, r, select.field, progress, &mut ids),
        AuditInput::Parquet | AuditInput::Arrow => Err(Failure(format!(
            "{name}: Parquet and Arrow inputs need a path to a file"
        ))),
    };
    ids.finish(result)
}

/// Opens `path` for reading.
pub(crate) fn open(path: &Path) -> Result<(BufReader<File>, Option<u64>), Failure> {
    let file =
        File::open(path).map_err(|e| Failure(format!("cannot read {}: {e}", path.display())))?;
    let len = file.metadata().ok().map(|m| m.len());
    Ok((BufReader::with_capacity(BUFFER, file), len))
}

/// Counts bytes read for the progress bar, and notes a byte other than whitespace in `seen`.
struct Counted<'a, R> {
    inner: R,
    progress: &'a Progress,
    seen: Option<&'a Cell<bool>>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n as u64);
        if let Some(seen) = self.seen
            && !seen.get()
            && buf[..n].iter().any(|b| !b.is_ascii_whitespace())
        {
            seen.set(true);
        }
        Ok(n)
    }
}

fn read_failure(name: &str, e: &io::Error) -> Failure {
    Failure(format!("cannot read {name}: {e}"))
}

/// One id per line, in any form `oid inspect` reads.
fn lines(
    name: &str,
    r: &mut dyn BufRead,
    progress: &Progress,
    ids: &mut Ids<'_, '_>,
) -> Result<(), Failure> {
    // More than the reader's own buffer: reads bypass it (no copy from it) once it is empty.
    let mut buf = vec![0_u8; BUFFER + MAX_LINE + 1];
    let (mut start, mut end, mut line) = (0_usize, 0_usize, 0_usize);
    let hex = &mut [0_u8; BLOCK * 24];
    let out = &mut [[0_u8; 12]; BLOCK];
    // The first line that may start a block of common lines (not the first: a BOM).
    let mut bulk_from = 1;
    loop {
        if start > 0 {
            buf.copy_within(start..end, 0);
            end -= start;
            start = 0;
        }
        let n = loop {
            match r.read(&mut buf[end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(read_failure(name, &e)),
            }
        };
        progress.advance(n as u64);
        end += n;
        let eof = n == 0;
        let data = &buf[..end];
        let mut pos = start;
        loop {
            // The common lines: 24 hex digits and a newline, a block of them at once.
            if line >= bulk_from
                && let Some(rows) = data.get(pos..pos + BLOCK * 25)
            {
                if block(rows, hex, out) {
                    for bytes in out.iter() {
                        ids.push(ObjectId::from_bytes(*bytes))?;
                    }
                    line += BLOCK;
                    pos += BLOCK * 25;
                    continue;
                }
                // Some line of the block is another: the block's lines one at a time.
                bulk_from = line + BLOCK;
            }
            // The common line: 24 hex digits and a newline.
            if let Some(row) = data.get(pos..pos + 25)
                && row[24] == b'\n'
                && let Ok(id) = ObjectId::try_parse_ascii(&row[..24])
            {
                line += 1;
                ids.push(id)?;
                pos += 25;
                continue;
            }
            let rest = &data[pos..];
            let (text, next) = match memchr::memchr(b'\n', rest) {
                Some(at) => (&rest[..at], pos + at + 1),
                None if eof && !rest.is_empty() => (rest, end),
                None => break,
            };
            line += 1;
            one_line(name, line, text, ids)?;
            pos = next;
        }
        start = pos;
        if eof {
            return Ok(());
        }
        if start == 0 && end == buf.len() {
            return Err(Failure(format!(
                "{name}:{}: line too long: more than {MAX_LINE} bytes (is it a file of ids? see \
                 --input-format)",
                line + 1
            )));
        }
    }
}

/// Lines per block of the bulk path of [`lines`]: 6 KiB of hex.
const BLOCK: usize = 256;

/// Decodes `rows`, [`BLOCK`] lines of 25 bytes, into `out` if each is 24 hex digits and a
/// newline: their digits gathered end to end in `hex`, then one call of const-hex's SIMD decode
/// (which fails on anything but hex digits).
fn block(rows: &[u8], hex: &mut [u8; BLOCK * 24], out: &mut [[u8; 12]; BLOCK]) -> bool {
    let mut newlines = true;
    for (row, digits) in rows.chunks_exact(25).zip(hex.chunks_exact_mut(24)) {
        newlines &= row[24] == b'\n';
        digits.copy_from_slice(&row[..24]);
    }
    newlines && const_hex::decode_to_slice(&hex[..], out.as_flattened_mut()).is_ok()
}

fn one_line(name: &str, line: usize, bytes: &[u8], ids: &mut Ids<'_, '_>) -> Result<(), Failure> {
    let bytes = if line == 1 {
        bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)
    } else {
        bytes
    };
    if bytes.len() > MAX_LINE {
        return Err(Failure(format!(
            "{name}:{line}: line too long: more than {MAX_LINE} bytes (is it a file of ids? see \
             --input-format)"
        )));
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(Failure(format!(
            "{name}:{line}: not valid UTF-8 (a binary file? name its form with --input-format)"
        )));
    };
    let text = text.trim();
    if text.is_empty() {
        return Ok(());
    }
    match ObjectId::parse_pasted(text) {
        Ok(p) => ids.push(p.id()),
        Err(e) => Err(Failure(format!("{name}:{line}: {:?}: {e}", shorten(text)))),
    }
}

fn shorten(text: &str) -> &str {
    match text.char_indices().nth(64) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// An id as JSON holds it: `{"$oid": "…"}` (canonical and relaxed Extended JSON) or a string in
/// any pasted form.
fn id_of_text(text: &str) -> Option<ObjectId> {
    ObjectId::parse_pasted(text).ok().map(|p| p.id())
}

/// The value found at a path, if any.
enum Found {
    Missing,
    Null,
    Id(ObjectId),
    Other(&'static str),
}

/// Finds `path` in one JSON document, ignoring everything else.
struct PathSeed<'p>(&'p [&'p str]);

impl<'de> DeserializeSeed<'de> for PathSeed<'_> {
    type Value = Found;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Found, D::Error> {
        d.deserialize_any(PathVisitor(self.0))
    }
}

struct PathVisitor<'p>(&'p [&'p str]);

impl<'de> Visitor<'de> for PathVisitor<'_> {
    type Value = Found;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON document")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Found, A::Error> {
        let mut found = Found::Missing;
        while let Some(key) = map.next_key_seed(KeySeed(self.0.first().copied()))? {
            match key {
                Key::Ours => {
                    found = if self.0.len() == 1 {
                        map.next_value_seed(IdSeed)?
                    } else {
                        map.next_value_seed(PathSeed(&self.0[1..]))?
                    };
                }
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Found, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Found::Other("an array"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Found, E> {
        Ok(Found::Other("null"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Found, E> {
        Ok(Found::Other("a string"))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Found, E> {
        Ok(Found::Other("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Found, E> {
        Ok(Found::Other("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Found, E> {
        Ok(Found::Other("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Found, E> {
        Ok(Found::Other("a number"))
    }
}

enum Key {
    Ours,
    Other,
}

struct KeySeed<'p>(Option<&'p str>);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, k: &str) -> Result<Key, E> {
        Ok(if Some(k) == self.0 {
            Key::Ours
        } else {
            Key::Other
        })
    }
}

/// The id value: `{"$oid": "…"}`, a string, or null.
struct IdSeed;

impl<'de> DeserializeSeed<'de> for IdSeed {
    type Value = Found;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Found, D::Error> {
        d.deserialize_any(IdVisitor)
    }
}

struct IdVisitor;

impl<'de> Visitor<'de> for IdVisitor {
    type Value = Found;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ObjectId")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Found, E> {
        Ok(id_of_text(s).map_or(Found::Other("a string that is not an ObjectId"), Found::Id))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Found, E> {
        Ok(Found::Null)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Found, A::Error> {
        let mut found = Found::Other("a document without $oid");
        while let Some(key) = map.next_key_seed(KeySeed(Some("$oid")))? {
            match key {
                Key::Ours => {
                    let s: String = map.next_value()?;
                    found = id_of_text(&s)
                        .map_or(Found::Other("an $oid that is not 24 hex digits"), Found::Id);
                }
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                    found = Found::Other("a document that is not {\"$oid\": …}");
                }
            }
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Found, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Found::Other("an array"))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Found, E> {
        Ok(Found::Other("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Found, E> {
        Ok(Found::Other("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Found, E> {
        Ok(Found::Other("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Found, E> {
        Ok(Found::Other("a number"))
    }
}

/// What one document gave.
fn take(
    name: &str,
    n: u64,
    field: &str,
    found: Found,
    ids: &mut Ids<'_, '_>,
) -> Result<(), Failure> {
    match found {
        Found::Id(id) => ids.push(id),
        // A document without the field, or with null there, holds no id: nothing to audit.
        Found::Null => Ok(()),
        Found::Missing => Err(Failure(format!(
            "{name}: document {n} has no field {field:?} (name the id's field with --field)"
        ))),
        Found::Other(what) => Err(Failure(format!(
            "{name}: document {n}: {field:?} is {what}, not an ObjectId"
        ))),
    }
}

/// mongoexport JSON: JSON Lines (or documents one after another), or one array of documents.
fn json(
    name: &str,
    r: &mut dyn BufRead,
    field: &str,
    progress: &Progress,
    ids: &mut Ids<'_, '_>,
) -> Result<(), Failure> {
    let path: Vec<&str> = field.split('.').collect();
    let array = loop {
        let head = r.fill_buf().map_err(|e| read_failure(name, &e))?;
        let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
        match head.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(at) => break head[at] == b'[',
            None if head.is_empty() => return Ok(()),
            None => {
                let n = head.len();
                r.consume(n);
            }
        }
    };
    // serde_json reads the stream a byte at a time (from `r`'s buffer): whether a byte other than
    // whitespace came after the last whole document tells a clean end from a cut one.
    let seen = Cell::new(false);
    let counted = Counted {
        inner: r,
        progress,
        seen: Some(&seen),
    };
    let mut de = serde_json::Deserializer::from_reader(counted);
    let json_failure = |e: serde_json::Error, n: u64| {
        if e.is_io() {
            Failure(format!("cannot read {name}: {e}"))
        } else {
            let what = e.to_string();
            let what = what.split(" at line ").next().unwrap_or(&what).to_owned();
            Failure(format!(
                "{name}:{}:{}: document {n}: {what}",
                e.line(),
                e.column()
            ))
        }
    };
    if array {
        let mut n = 0_u64;
        let mut failed: Option<Failure> = None;
        let result = de.deserialize_seq(ArrayVisitor {
            path: &path,
            n: &mut n,
            field,
            name,
            ids,
            failed: &mut failed,
        });
        if let Some(f) = failed {
            return Err(f);
        }
        result.map_err(|e| json_failure(e, n + 1))?;
        de.end().map_err(|e| json_failure(e, n + 1))
    } else {
        let mut n = 0_u64;
        loop {
            seen.set(false);
            let found = PathSeed(&path).deserialize(&mut de);
            match found {
                Ok(found) => {
                    n += 1;
                    take(name, n, field, found, ids)?;
                }
                Err(e) if e.is_eof() && !seen.get() => return Ok(()),
                Err(e) => return Err(json_failure(e, n + 1)),
            }
        }
    }
}

struct ArrayVisitor<'a, 'b, 'c, 'd> {
    path: &'a [&'a str],
    n: &'a mut u64,
    field: &'a str,
    name: &'a str,
    ids: &'b mut Ids<'c, 'd>,
    failed: &'a mut Option<Failure>,
}

impl<'de> Visitor<'de> for ArrayVisitor<'_, '_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of documents")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(found) = seq.next_element_seed(PathSeed(self.path))? {
            *self.n += 1;
            if let Err(f) = take(self.name, *self.n, self.field, found, self.ids) {
                *self.failed = Some(f);
                return Err(de::Error::custom("stopped"));
            }
        }
        Ok(())
    }
}

/// CSV with a header row; the id in column `column`.
fn csv(
    name: &str,
    r: &mut dyn BufRead,
    column: &str,
    progress: &Progress,
    ids: &mut Ids<'_, '_>,
) -> Result<(), Failure> {
    let counted = Counted {
        inner: r,
        progress,
        seen: None,
    };
    let mut rdr = ::csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(counted);
    let headers = rdr
        .headers()
        .map_err(|e| Failure(format!("{name}: cannot read the CSV header: {e}")))?
        .clone();
    let Some(index) = headers
        .iter()
        .position(|h| h.trim().trim_start_matches('\u{feff}') == column)
    else {
        let names: Vec<&str> = headers.iter().take(20).collect();
        return Err(Failure(format!(
            "{name}: no column {column:?} in the CSV header (columns: {}); name it with --column",
            names.join(", ")
        )));
    };
    let mut record = ::csv::ByteRecord::new();
    loop {
        match rdr.read_byte_record(&mut record) {
            Ok(false) => return Ok(()),
            Ok(true) => {}
            Err(e) => return Err(Failure(format!("{name}: {e}"))),
        }
        let line = record.position().map_or(0, ::csv::Position::line);
        let cell = record.get(index).unwrap_or_default();
        let Ok(text) = std::str::from_utf8(cell) else {
            return Err(Failure(format!(
                "{name}:{line}: column {column:?} is not valid UTF-8"
            )));
        };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        // mongoexport's CSV writes `ObjectId(…)` without quotes inside.
        let bare = text
            .strip_prefix("ObjectId(")
            .and_then(|t| t.strip_suffix(')'))
            .filter(|t| t.len() == 24);
        let id = match bare {
            Some(hex) => ObjectId::parse_str(hex).ok(),
            None => id_of_text(text),
        };
        match id {
            Some(id) => ids.push(id)?,
            None => {
                return Err(Failure(format!(
                    "{name}:{line}: column {column:?}: {:?} is not an ObjectId",
                    shorten(text)
                )));
            }
        }
    }
}

/// mongodump BSON: documents one after another; the id at `field`.
fn bson(
    name: &str,
    r: &mut dyn BufRead,
    field: &str,
    progress: &Progress,
    ids: &mut Ids<'_, '_>,
) -> Result<(), Failure> {
    let path: Vec<&str> = field.split('.').collect();
    let mut doc = Vec::new();
    let mut offset = 0_u64;
    let mut n = 0_u64;
    loop {
        let mut len = [0_u8; 4];
        match read_full(r, &mut len).map_err(|e| read_failure(name, &e))? {
            0 => return Ok(()),
            4 => {}
            got => {
                return Err(Failure(format!(
                    "{name}: document {} at byte {offset}: cut short ({got} of its 4 length bytes)",
                    n + 1
                )));
            }
        }
        let size = u32::from_le_bytes(len) as usize;
        if !(5..=MAX_DOCUMENT).contains(&size) {
            return Err(Failure(format!(
                "{name}: document {} at byte {offset}: length {size} is not a BSON document's (not a \
                 mongodump .bson file?)",
                n + 1
            )));
        }
        doc.clear();
        doc.extend_from_slice(&len);
        doc.resize(size, 0);
        let got = read_full(r, &mut doc[4..]).map_err(|e| read_failure(name, &e))?;
        progress.advance(4 + got as u64);
        if got < size - 4 {
            return Err(Failure(format!(
                "{name}: document {} at byte {offset}: cut short ({} of its {size} bytes)",
                n + 1,
                got + 4
            )));
        }
        n += 1;
        let found = bson_path(&doc, &path).map_err(|e| {
            Failure(format!(
                "{name}: document {n} at byte {offset}: not valid BSON: {e}"
            ))
        })?;
        take(name, n, field, found, ids)?;
        offset += size as u64;
    }
}

fn bson_path(doc: &[u8], path: &[&str]) -> Result<Found, bson::error::Error> {
    let mut d = bson::RawDocument::from_bytes(doc)?;
    for (i, key) in path.iter().enumerate() {
        let last = i + 1 == path.len();
        match d.get(key)? {
            None => return Ok(Found::Missing),
            Some(bson::RawBsonRef::Null) => return Ok(Found::Null),
            Some(bson::RawBsonRef::ObjectId(id)) if last => {
                return Ok(Found::Id(ObjectId::from_bytes(id.bytes())));
            }
            Some(bson::RawBsonRef::String(s)) if last => {
                return Ok(id_of_text(s)
                    .map_or(Found::Other("a string that is not an ObjectId"), Found::Id));
            }
            Some(bson::RawBsonRef::Document(inner)) if !last => d = inner,
            Some(_) => {
                return Ok(Found::Other(if last {
                    "another BSON type"
                } else {
                    "not a document"
                }));
            }
        }
    }
    Ok(Found::Missing)
}

/// Reads until `buf` is full or the input ends; how many bytes were read.
fn read_full(r: &mut dyn BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// The progress unit of a form.
pub(crate) const fn unit(_form: AuditInput) -> Unit {
    Unit::Bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "507f1f77bcf86cd799439011";

    fn ids(form: AuditInput, input: &[u8], field: &str) -> Result<Vec<String>, Failure> {
        let mut out = Vec::new();
        let mut r: &[u8] = input;
        let select = Select {
            field,
            column: field,
        };
        read(form, "in", &mut r, select, &Progress::none(), &mut |ids| {
            out.extend(ids.iter().map(ToString::to_string));
            Ok(())
        })?;
        Ok(out)
    }

    #[test]
    fn lines_in_every_form() {
        let input = format!(
            "\u{feff}{ID}\r\n\n ObjectId(\"{ID}\") \n{{\"$oid\": \"{ID}\"}}\n{}",
            ID.to_uppercase()
        );
        assert_eq!(
            ids(AuditInput::Lines, input.as_bytes(), "_id").unwrap(),
            [ID; 4]
        );
        let bad = format!("{ID}\nnope\n");
        assert_eq!(
            ids(AuditInput::Lines, bad.as_bytes(), "_id").unwrap_err().0,
            "in:2: \"nope\": invalid length: expected 24 hex characters, found 4"
        );
        let binary = b"\x00\xff\xfe\x01binary\n";
        assert!(
            ids(AuditInput::Lines, binary, "_id")
                .unwrap_err()
                .0
                .starts_with("in:1: not valid UTF-8")
        );
    }

    #[test]
    fn json_lines_and_arrays() {
        let lines = format!(
            "{{\"_id\":{{\"$oid\":\"{ID}\"}},\"a\":[1,{{\"b\":2}}]}}\n{{\"x\":1,\"_id\":\"{ID}\"}}\n"
        );
        assert_eq!(
            ids(AuditInput::Json, lines.as_bytes(), "_id").unwrap(),
            [ID; 2]
        );
        let array =
            format!("[{{\"_id\":{{\"$oid\":\"{ID}\"}}}},\n {{\"_id\":{{\"$oid\":\"{ID}\"}}}}]");
        assert_eq!(
            ids(AuditInput::Json, array.as_bytes(), "_id").unwrap(),
            [ID; 2]
        );
        let nested = format!("{{\"user\":{{\"id\":{{\"$oid\":\"{ID}\"}}}}}}");
        assert_eq!(
            ids(AuditInput::Json, nested.as_bytes(), "user.id").unwrap(),
            [ID]
        );
        let truncated = format!("{{\"_id\":{{\"$oid\":\"{ID}\"}}}}\n{{\"_id\":{{\"$oid\":");
        assert_eq!(
            ids(AuditInput::Json, truncated.as_bytes(), "_id")
                .unwrap_err()
                .0,
            "in:2:15: document 2: EOF while parsing a value"
        );
        let truncated = format!("[{{\"_id\":{{\"$oid\":\"{ID}\"}}}},");
        assert!(
            ids(AuditInput::Json, truncated.as_bytes(), "_id")
                .unwrap_err()
                .0
                .contains("document 2: EOF")
        );
        let missing = "{\"a\":1}";
        assert_eq!(
            ids(AuditInput::Json, missing.as_bytes(), "_id")
                .unwrap_err()
                .0,
            "in: document 1 has no field \"_id\" (name the id's field with --field)"
        );
    }

    #[test]
    fn csv_with_a_named_column() {
        let input = format!("name,_id\na,{ID}\nb,ObjectId({ID})\nc,\n");
        assert_eq!(
            ids(AuditInput::Csv, input.as_bytes(), "_id").unwrap(),
            [ID; 2]
        );
        let err = ids(AuditInput::Csv, input.as_bytes(), "id").unwrap_err().0;
        assert_eq!(
            err,
            "in: no column \"id\" in the CSV header (columns: name, _id); name it with --column"
        );
        let bad = "_id\nxyz\n";
        assert_eq!(
            ids(AuditInput::Csv, bad.as_bytes(), "_id").unwrap_err().0,
            "in:2: column \"_id\": \"xyz\" is not an ObjectId"
        );
    }

    #[test]
    fn bson_documents() {
        let id = bson::oid::ObjectId::parse_str(ID).unwrap();
        let mut input = Vec::new();
        for doc in [
            bson::doc! {"_id": id, "a": 1},
            bson::doc! {"x": "y", "_id": id},
        ] {
            doc.to_writer(&mut input).unwrap();
        }
        assert_eq!(ids(AuditInput::Bson, &input, "_id").unwrap(), [ID; 2]);
        assert_eq!(detect("dump", &input), AuditInput::Bson);
        let cut = &input[..input.len() - 3];
        let first = u32::from_le_bytes([input[0], input[1], input[2], input[3]]) as usize;
        let second = input.len() - first;
        assert_eq!(
            ids(AuditInput::Bson, cut, "_id").unwrap_err().0,
            format!(
                "in: document 2 at byte {first}: cut short ({} of its {second} bytes)",
                second - 3
            )
        );
    }

    #[test]
    fn blocks_of_hex_lines_and_the_lines_among_them() {
        // Ids 0, 1, 2, … of one generator, in 5,000 lines: most bare hex, some in other forms
        // or around blank lines, at a block's start, middle and end.
        let hex = |i: u32| oid_std::ObjectId::from_parts(1_700_000_000, [1, 2, 3, 4, 5], i);
        let mut input = String::new();
        let mut expected = Vec::new();
        for i in 0..5000_u32 {
            let id = hex(i).to_string();
            let line = match i {
                300 | 511 | 512 | 767 => id.to_uppercase(),
                1000 => format!("{id}\r"),
                1300 => format!("  {id}"),
                2047 => format!("ObjectId(\"{id}\")"),
                _ => id.clone(),
            };
            if i == 2600 || i == 4095 {
                input.push('\n');
            }
            input.push_str(&line);
            input.push('\n');
            expected.push(id);
        }
        let mut r: &[u8] = input.as_bytes();
        let mut got = Vec::new();
        lines(
            "in",
            &mut r,
            &Progress::none(),
            &mut Ids::new(&mut |ids| {
                got.extend(ids.iter().map(ToString::to_string));
                Ok(())
            }),
        )
        .unwrap();
        // `lines` alone leaves the last batch to the caller: `read` hands it on.
        assert!(got.len() < expected.len());
        assert_eq!(
            ids(AuditInput::Lines, input.as_bytes(), "_id").unwrap(),
            expected
        );

        // A bad line inside a block, at a block's start, and after many blocks: named.
        let lines_of = |n: u32| (0..n).map(|i| format!("{}\n", hex(i))).collect::<String>();
        for (before, bad) in [
            (1000, "507f1f77bcf86cd79943901x"),
            (256, "0x507f1f77bcf86cd7994390"),
            (4999, "507f1f77bcf86cd79943901"),
            (300, "507f1f77bcf86cd799439011a"),
            // Two rows of 25 bytes, all hex but the last: a newline ends each row, not each id.
            (700, "507f1f77bcf86cd799439011a507f1f77bcf86cd799439011"),
        ] {
            let input = format!("{}{bad}\n{}", lines_of(before), lines_of(600));
            let err = ids(AuditInput::Lines, input.as_bytes(), "_id")
                .unwrap_err()
                .0;
            let at = format!("in:{}: {bad:?}: ", before + 1);
            assert!(err.starts_with(&at), "{err}");
        }
    }

    #[test]
    fn forms_are_told_apart() {
        assert_eq!(detect("a.JSON", b""), AuditInput::Json);
        assert_eq!(detect("-", b"  [{"), AuditInput::Json);
        assert_eq!(detect("-", b"{\"_id\""), AuditInput::Json);
        assert_eq!(detect("-", b"name,_id\n"), AuditInput::Csv);
        assert_eq!(detect("-", ID.as_bytes()), AuditInput::Lines);
        assert_eq!(detect("-", b"PAR1...."), AuditInput::Parquet);
        assert_eq!(detect("x.csv", b""), AuditInput::Csv);
    }
}
