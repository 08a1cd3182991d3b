//! Parquet and Arrow IPC files of ids: telling them from files of lines, finding the column,
//! reading it batch by batch, and writing an ObjectId column `_id`.
//!
//! The column type is pymongoarrow's, `pymongoarrow.objectid` over `fixed_size_binary[12]`
//! (oid-arrow's [`field`](oid_arrow::field)); a plain `fixed_size_binary[12]` column (DuckDB,
//! DataFusion, Polars without pymongoarrow) is read as ids too, and a column of text (or binary)
//! holding ids in any form the lines hold is read row by row. Files are streamed: one batch of
//! [`BATCH`] rows at a time, only the chosen column decoded.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, Write};
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_buffer::{Buffer, NullBufferBuilder};
use arrow_ipc::reader::{FileReader, StreamReader};
use arrow_ipc::writer::{FileWriter, StreamWriter};
use arrow_schema::extension::ExtensionType as _;
use arrow_schema::{ArrowError, DataType, Schema, SchemaRef};
use oid_arrow::{Accept, ObjectIdArray};
use oid_std::ObjectId;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::{ArrowWriter, ProjectionMask};
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;

use crate::error::Error;
use crate::input::{Invalid, Item, Position, Row, item};
use crate::progress::{Progress, Unit};

/// What the column readers hand their rows to: a callback of one row at a time (any
/// `FnMut(Row)`), or a sink that takes a batch of ids at once ([`RowSink::ids`]).
pub(crate) trait RowSink {
    /// One row.
    fn row(&mut self, row: Row<'_>) -> Result<(), Error>;

    /// The rows of `ids`, numbered from `first`, of the file at `path` (standard input when
    /// `None`): by default each handed to [`row`](RowSink::row).
    fn ids(&mut self, ids: &ObjectIdArray, path: Option<&Path>, first: u64) -> Result<(), Error> {
        for (i, id) in ids.iter().enumerate() {
            let position = Position::Row(path, first + i as u64);
            match id {
                Some(id) => self.row(Row::Item(Item {
                    position,
                    text: "",
                    id: Ok(id),
                }))?,
                None => self.row(Row::Null(position))?,
            }
        }
        Ok(())
    }
}

impl<F: FnMut(Row<'_>) -> Result<(), Error>> RowSink for F {
    fn row(&mut self, row: Row<'_>) -> Result<(), Error> {
        self(row)
    }
}

/// Rows per batch, read and written.
pub(crate) const BATCH: usize = 64 * 1024;

/// The column formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Parquet,
    /// The Arrow IPC file format (`.arrow`, Feather 2).
    ArrowFile,
    /// The Arrow IPC stream format (`.arrows`).
    ArrowStream,
}

impl Kind {
    /// The kind of a file that starts with `head`, if it is one.
    pub(crate) fn sniff(head: &[u8]) -> Option<Kind> {
        if head.starts_with(b"PAR1") {
            Some(Kind::Parquet)
        } else if head.starts_with(b"ARROW1") {
            Some(Kind::ArrowFile)
        } else if head.starts_with(&[0xff; 4]) {
            Some(Kind::ArrowStream)
        } else {
            None
        }
    }

    /// The kind an extension names: `.parquet`, `.pq`; `.arrow`, `.feather`, `.ipc`; `.arrows`.
    pub(crate) fn of_extension(path: &Path) -> Option<Kind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "parquet" | "pq" => Some(Kind::Parquet),
            "arrow" | "feather" | "ipc" => Some(Kind::ArrowFile),
            "arrows" => Some(Kind::ArrowStream),
            _ => None,
        }
    }

    const fn name(self) -> &'static str {
        match self {
            Kind::Parquet => "Parquet",
            Kind::ArrowFile => "an Arrow IPC file",
            Kind::ArrowStream => "an Arrow IPC stream",
        }
    }
}

/// Why a column file could not be read: said once, as `oid: {message}`, and the file counted as
/// unreadable (exit status 2).
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The file cannot be read (a message naming it).
    Unreadable(String),
    /// The command stopped (its callback returned an error).
    Stop(Error),
}

/// Where a file's rows are said to be, for messages.
#[derive(Clone, Copy)]
struct Name<'a>(Option<&'a Path>);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(path) => path.display().fmt(f),
            None => f.write_str("standard input"),
        }
    }
}

/// What the chosen column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    /// 12-byte ids: pymongoarrow's type, or plain `fixed_size_binary[12]`.
    Ids,
    /// Text (or binary) read as the lines are.
    Text,
}

/// The column of `schema` to read: `wanted` by name, else the one ObjectId column.
fn pick(schema: &Schema, wanted: Option<&str>, name: Name<'_>) -> Result<(usize, Holds), String> {
    let columns = || {
        let list: Vec<String> = schema
            .fields()
            .iter()
            .map(|f| format!("{} ({})", f.name(), type_name(f)))
            .collect();
        if list.is_empty() {
            "it has no columns".to_owned()
        } else {
            format!("its columns: {}", list.join(", "))
        }
    };
    if let Some(wanted) = wanted {
        let Some((index, field)) = schema.column_with_name(wanted) else {
            return Err(format!("{name} has no column {wanted:?}; {}", columns()));
        };
        if field.data_type() == &oid_arrow::STORAGE {
            return match oid_arrow::check_field(field, Accept::ExtensionOrPlain) {
                Ok(()) => Ok((index, Holds::Ids)),
                Err(e) => Err(format!("column {wanted:?} of {name}: {e}")),
            };
        }
        return match field.data_type() {
            DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView => Ok((index, Holds::Text)),
            other => Err(format!(
                "column {wanted:?} of {name} is {other}: expected ObjectIds \
                 (pymongoarrow.objectid or fixed_size_binary[12]) or text"
            )),
        };
    }
    let fields = schema.fields();
    let typed: Vec<usize> = (0..fields.len())
        .filter(|&i| oid_arrow::check_field(&fields[i], Accept::Extension).is_ok())
        .collect();
    let plain: Vec<usize> = (0..fields.len())
        .filter(|&i| {
            fields[i].extension_type_name().is_none()
                && fields[i].data_type() == &oid_arrow::STORAGE
        })
        .collect();
    let several = |found: &[usize]| {
        let names: Vec<&str> = found.iter().map(|&i| fields[i].name().as_str()).collect();
        format!(
            "{name} has {} ObjectId columns ({}): choose one with --column",
            names.len(),
            names.join(", ")
        )
    };
    match (typed.as_slice(), plain.as_slice()) {
        ([one], _) | ([], [one]) => Ok((*one, Holds::Ids)),
        ([], []) => Err(format!(
            "{name} has no ObjectId column (pymongoarrow.objectid or fixed_size_binary[12]); \
             {}; name one with --column",
            columns()
        )),
        ([], found) | (found, _) => Err(several(found)),
    }
}

/// A field's type as messages show it: `ObjectId` for pymongoarrow's.
fn type_name(field: &arrow_schema::Field) -> String {
    match field.extension_type_name() {
        Some(oid_arrow::ObjectIdType::NAME) => "ObjectId".to_owned(),
        Some(other) => other.to_owned(),
        None => field.data_type().to_string(),
    }
}

/// Reads the ids of the column file at `path`, opened as `reader` (its first bytes possibly in
/// its buffer; `kind` its format), calling `f` for each row. `column` is `--column`.
pub(crate) fn read_file(
    reader: io::BufReader<File>,
    path: &Path,
    kind: Kind,
    column: Option<&str>,
    progress: &Progress,
    f: &mut dyn RowSink,
) -> Result<(), ReadError> {
    let name = Name(Some(path));
    let unreadable = |e: io::Error| ReadError::Unreadable(format!("cannot read {name}: {e}"));
    let seekable = reader.get_ref().metadata().is_ok_and(|m| m.is_file());
    if !seekable {
        // A pipe (`-f <(...)`): an Arrow stream is read as it comes; Parquet and IPC files are
        // read from their end, so the whole input is read first.
        if kind == Kind::ArrowStream {
            return read_stream(reader, None, name, column, progress, f);
        }
        let mut bytes = Vec::new();
        let mut reader = reader;
        reader.read_to_end(&mut bytes).map_err(unreadable)?;
        return read_bytes(bytes, Some(path), kind, column, progress, f);
    }
    // Only peeked at: start again from the first byte.
    let mut file = reader.into_inner();
    file.rewind().map_err(unreadable)?;
    match kind {
        Kind::Parquet => read_parquet(file, name, column, progress, f),
        Kind::ArrowFile => {
            let schema = FileReader::try_new(&file, None)
                .map_err(|e| bad(name, kind, &e))?
                .schema();
            let (index, holds) = pick(&schema, column, name).map_err(ReadError::Unreadable)?;
            file.rewind().map_err(unreadable)?;
            let reader = FileReader::try_new(io::BufReader::new(&file), Some(vec![index]))
                .map_err(|e| bad(name, kind, &e))?;
            progress.start(&name.to_string(), None, Unit::Rows);
            batches(reader, holds, name, kind, progress, f)
        }
        Kind::ArrowStream => {
            let schema = StreamReader::try_new(io::BufReader::new(&file), None)
                .map_err(|e| bad(name, kind, &e))?
                .schema();
            let (index, _) = pick(&schema, column, name).map_err(ReadError::Unreadable)?;
            file.rewind().map_err(unreadable)?;
            read_stream(
                io::BufReader::new(file),
                Some(index),
                name,
                column,
                progress,
                f,
            )
        }
    }
}

/// Reads standard input, whose first bytes say it is a column file of `kind`.
pub(crate) fn read_stdin(
    mut stdin: impl BufRead,
    kind: Kind,
    column: Option<&str>,
    progress: &Progress,
    f: &mut dyn RowSink,
) -> Result<(), ReadError> {
    if kind == Kind::ArrowStream {
        return read_stream(stdin, None, Name(None), column, progress, f);
    }
    let mut bytes = Vec::new();
    stdin
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Stop(Error::Read(e)))?;
    read_bytes(bytes, None, kind, column, progress, f)
}

/// Reads a whole column file held in memory.
fn read_bytes(
    bytes: Vec<u8>,
    path: Option<&Path>,
    kind: Kind,
    column: Option<&str>,
    progress: &Progress,
    f: &mut dyn RowSink,
) -> Result<(), ReadError> {
    let name = Name(path);
    match kind {
        Kind::Parquet => read_parquet(bytes::Bytes::from(bytes), name, column, progress, f),
        Kind::ArrowFile => {
            let schema = FileReader::try_new(io::Cursor::new(&bytes), None)
                .map_err(|e| bad(name, kind, &e))?
                .schema();
            let (index, holds) = pick(&schema, column, name).map_err(ReadError::Unreadable)?;
            let reader = FileReader::try_new(io::Cursor::new(&bytes), Some(vec![index]))
                .map_err(|e| bad(name, kind, &e))?;
            progress.start(&name.to_string(), None, Unit::Rows);
            batches(reader, holds, name, kind, progress, f)
        }
        Kind::ArrowStream => read_stream(bytes.as_slice(), None, name, column, progress, f),
    }
}

/// Reads an Arrow IPC stream; `projection` is the column's index when known before.
fn read_stream(
    reader: impl Read,
    projection: Option<usize>,
    name: Name<'_>,
    column: Option<&str>,
    progress: &Progress,
    f: &mut dyn RowSink,
) -> Result<(), ReadError> {
    let kind = Kind::ArrowStream;
    let reader = StreamReader::try_new(reader, projection.map(|i| vec![i]))
        .map_err(|e| bad(name, kind, &e))?;
    // With a projection the reader's schema has that one column.
    let wanted = if projection.is_some() {
        reader.schema().fields().first().map(|f| f.name().clone())
    } else {
        column.map(str::to_owned)
    };
    let (index, holds) =
        pick(&reader.schema(), wanted.as_deref(), name).map_err(ReadError::Unreadable)?;
    progress.start(&name.to_string(), None, Unit::Rows);
    let batches_of_column = reader.map(move |b| b.map(|b| b.project(&[index])).and_then(|b| b));
    batches(batches_of_column, holds, name, kind, progress, f)
}

/// Reads the column of a Parquet file (only that column is decoded).
fn read_parquet<R: parquet::file::reader::ChunkReader + 'static>(
    reader: R,
    name: Name<'_>,
    column: Option<&str>,
    progress: &Progress,
    f: &mut dyn RowSink,
) -> Result<(), ReadError> {
    let kind = Kind::Parquet;
    let parquet_error = |e: ParquetError| bad(name, kind, &e);
    let builder = ParquetRecordBatchReaderBuilder::try_new(reader).map_err(parquet_error)?;
    let (index, holds) = pick(builder.schema(), column, name).map_err(ReadError::Unreadable)?;
    let rows = u64::try_from(builder.metadata().file_metadata().num_rows()).ok();
    let mask = ProjectionMask::roots(builder.parquet_schema(), [index]);
    let reader = builder
        .with_projection(mask)
        .with_batch_size(BATCH)
        .build()
        .map_err(parquet_error)?;
    progress.start(&name.to_string(), rows, Unit::Rows);
    batches(reader, holds, name, kind, progress, f)
}

/// The message of a file that is not what it was taken for, or is corrupt.
fn bad(name: Name<'_>, kind: Kind, e: &dyn fmt::Display) -> ReadError {
    ReadError::Unreadable(format!("cannot read {name} as {}: {e}", kind.name()))
}

/// Calls `f` for each row of the one-column batches of `reader`.
fn batches(
    reader: impl Iterator<Item = Result<RecordBatch, ArrowError>>,
    holds: Holds,
    name: Name<'_>,
    kind: Kind,
    progress: &Progress,
    f: &mut dyn RowSink,
) -> Result<(), ReadError> {
    let mut row = 0_u64;
    for batch in reader {
        let batch = batch.map_err(|e| bad(name, kind, &e))?;
        let Some(array) = batch.columns().first() else {
            continue;
        };
        let rows = rows(array.as_ref(), holds, name.0, row, f)?.ok_or_else(|| {
            // The readers check each batch against the schema, which `pick` checked.
            bad(
                name,
                kind,
                &format!("a batch of the column is {}", array.data_type()),
            )
        })?;
        row += rows;
        progress.advance(rows);
    }
    Ok(())
}

/// Hands the rows of `array`, numbered from `first`, to `sink`; returns the number of rows, or
/// `None` when `array` is not of a type `holds` takes.
fn rows(
    array: &dyn Array,
    holds: Holds,
    path: Option<&Path>,
    first: u64,
    sink: &mut dyn RowSink,
) -> Result<Option<u64>, ReadError> {
    match holds {
        Holds::Ids => {
            let Ok(ids) = ObjectIdArray::try_from(array) else {
                return Ok(None);
            };
            sink.ids(&ids, path, first).map_err(ReadError::Stop)?;
        }
        Holds::Text => {
            let mut f = |row: Row<'_>| sink.row(row).map_err(ReadError::Stop);
            let position = |i: usize| Position::Row(path, first + i as u64);
            macro_rules! text_rows {
                ($rows:expr) => {
                    for (i, text) in $rows.enumerate() {
                        match text {
                            Some(text) => f(Row::Item(item(position(i), text)))?,
                            None => f(Row::Null(position(i)))?,
                        }
                    }
                };
            }
            macro_rules! binary_rows {
                ($rows:expr) => {
                    for (i, bytes) in $rows.enumerate() {
                        let Some(bytes) = bytes else {
                            f(Row::Null(position(i)))?;
                            continue;
                        };
                        match std::str::from_utf8(bytes) {
                            Ok(text) => f(Row::Item(item(position(i), text)))?,
                            Err(_) => {
                                let lossy = String::from_utf8_lossy(bytes);
                                f(Row::Item(Item {
                                    position: position(i),
                                    text: lossy.trim(),
                                    id: Err(Invalid::NotUtf8),
                                }))?
                            }
                        }
                    }
                };
            }
            match array.data_type() {
                DataType::Utf8 => text_rows!(array.as_string::<i32>().iter()),
                DataType::LargeUtf8 => text_rows!(array.as_string::<i64>().iter()),
                DataType::Utf8View => text_rows!(array.as_string_view().iter()),
                DataType::Binary => binary_rows!(array.as_binary::<i32>().iter()),
                DataType::LargeBinary => binary_rows!(array.as_binary::<i64>().iter()),
                DataType::BinaryView => binary_rows!(array.as_binary_view().iter()),
                _ => return Ok(None),
            }
        }
    }
    Ok(Some(array.len() as u64))
}

/// An ObjectId column `_id` being written, [`BATCH`] rows at a time.
pub(crate) struct ColumnWriter<W: Write + Send> {
    writer: Writer<W>,
    schema: SchemaRef,
    values: Vec<u8>,
    nulls: NullBufferBuilder,
}

enum Writer<W: Write + Send> {
    Parquet(ArrowWriter<W>),
    File(FileWriter<W>),
    Stream(StreamWriter<W>),
}

impl<W: Write + Send> ColumnWriter<W> {
    /// A column `_id` of `kind` written to `w`; `nullable` says whether nulls may come.
    pub(crate) fn new(w: W, kind: Kind, nullable: bool) -> io::Result<Self> {
        let schema = Arc::new(Schema::new(vec![oid_arrow::field("_id", nullable)]));
        let writer = match kind {
            Kind::Parquet => Writer::Parquet(
                ArrowWriter::try_new(w, schema.clone(), Some(parquet_properties()))
                    .map_err(parquet_io)?,
            ),
            Kind::ArrowFile => Writer::File(FileWriter::try_new(w, &schema).map_err(arrow_io)?),
            Kind::ArrowStream => {
                Writer::Stream(StreamWriter::try_new(w, &schema).map_err(arrow_io)?)
            }
        };
        Ok(ColumnWriter {
            writer,
            schema,
            values: Vec::with_capacity(BATCH * ObjectId::BYTES),
            nulls: NullBufferBuilder::new(BATCH),
        })
    }

    /// Adds a row: an id, or a null.
    #[inline]
    pub(crate) fn push(&mut self, id: Option<ObjectId>) -> io::Result<()> {
        match id {
            Some(id) => {
                self.values.extend_from_slice(id.as_bytes());
                self.nulls.append_non_null();
            }
            None => {
                self.values.extend_from_slice(&[0; ObjectId::BYTES]);
                self.nulls.append_null();
            }
        }
        if self.values.len() >= BATCH * ObjectId::BYTES {
            self.write_batch()?;
        }
        Ok(())
    }

    /// Adds ids, none of them null.
    pub(crate) fn extend(&mut self, ids: &[ObjectId]) -> io::Result<()> {
        for id in ids {
            self.push(Some(*id))?;
        }
        Ok(())
    }

    fn write_batch(&mut self) -> io::Result<()> {
        if self.values.is_empty() {
            return Ok(());
        }
        let values = std::mem::replace(
            &mut self.values,
            Vec::with_capacity(BATCH * ObjectId::BYTES),
        );
        let ids = ObjectIdArray::try_new(Buffer::from_vec(values), self.nulls.finish())
            .map_err(io::Error::other)?;
        let batch =
            RecordBatch::try_new(self.schema.clone(), vec![ids.into()]).map_err(arrow_io)?;
        match &mut self.writer {
            Writer::Parquet(w) => w.write(&batch).map_err(parquet_io),
            Writer::File(w) => w.write(&batch).map_err(arrow_io),
            Writer::Stream(w) => w.write(&batch).map_err(arrow_io),
        }
    }

    /// Writes what is left and the file's end; returns the writer.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        self.write_batch()?;
        match self.writer {
            Writer::Parquet(w) => w.into_inner().map_err(parquet_io),
            Writer::File(mut w) => {
                w.finish().map_err(arrow_io)?;
                w.into_inner().map_err(arrow_io)
            }
            Writer::Stream(mut w) => {
                w.finish().map_err(arrow_io)?;
                w.into_inner().map_err(arrow_io)
            }
        }
    }
}

/// How the Parquet files are written: Snappy (pyarrow's default), no dictionary (ids do not
/// repeat), statistics (arrow-rs's default) that bound each row group's creation times.
fn parquet_properties() -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_dictionary_enabled(false)
        .build()
}

/// A Parquet error as an I/O error, the writer's own I/O error when it is one.
fn parquet_io(e: ParquetError) -> io::Error {
    match e {
        ParquetError::External(e) => match e.downcast::<io::Error>() {
            Ok(e) => *e,
            Err(e) => io::Error::other(e),
        },
        e => io::Error::other(e),
    }
}

/// An Arrow error as an I/O error, the writer's own I/O error when it is one.
fn arrow_io(e: ArrowError) -> io::Error {
    match e {
        ArrowError::IoError(_, e) => e,
        e => io::Error::other(e),
    }
}

#[cfg(test)]
mod tests {
    use arrow_schema::Field;

    use super::*;

    fn schema(fields: Vec<Field>) -> Schema {
        Schema::new(fields)
    }

    const NAME: Name<'static> = Name(None);

    #[test]
    fn kinds_by_magic_and_by_extension() {
        assert_eq!(Kind::sniff(b"PAR1\x15\x04"), Some(Kind::Parquet));
        assert_eq!(Kind::sniff(b"ARROW1\0\0"), Some(Kind::ArrowFile));
        assert_eq!(
            Kind::sniff(b"\xff\xff\xff\xff\x10\0"),
            Some(Kind::ArrowStream)
        );
        assert_eq!(Kind::sniff(b"507f1f77bcf86cd799439011\n"), None);
        assert_eq!(Kind::sniff(b"PAR"), None);
        for (name, kind) in [
            ("a.parquet", Some(Kind::Parquet)),
            ("a.PQ", Some(Kind::Parquet)),
            ("a.arrow", Some(Kind::ArrowFile)),
            ("a.feather", Some(Kind::ArrowFile)),
            ("a.ipc", Some(Kind::ArrowFile)),
            ("a.arrows", Some(Kind::ArrowStream)),
            ("a.txt", None),
            ("parquet", None),
        ] {
            assert_eq!(Kind::of_extension(Path::new(name)), kind, "{name}");
        }
    }

    #[test]
    fn the_column_picked() {
        let typed = || oid_arrow::field("_id", true);
        let plain = |name: &str| Field::new(name, DataType::FixedSizeBinary(12), true);
        let text = Field::new("hex", DataType::Utf8View, true);
        let n = Field::new("n", DataType::Int64, false);
        // pymongoarrow's type first, then the one plain 12-byte column.
        let s = schema(vec![n.clone(), plain("raw"), typed()]);
        assert_eq!(pick(&s, None, NAME), Ok((2, Holds::Ids)));
        let s = schema(vec![n.clone(), plain("raw"), text.clone()]);
        assert_eq!(pick(&s, None, NAME), Ok((1, Holds::Ids)));
        assert_eq!(pick(&s, Some("hex"), NAME), Ok((2, Holds::Text)));
        assert_eq!(pick(&s, Some("raw"), NAME), Ok((1, Holds::Ids)));
        assert_eq!(
            pick(&schema(vec![plain("a"), plain("b")]), None, NAME),
            Err("standard input has 2 ObjectId columns (a, b): choose one with --column".into())
        );
        assert_eq!(
            pick(&schema(vec![typed(), plain("b"), typed()]), None, NAME),
            Err(
                "standard input has 2 ObjectId columns (_id, _id): choose one with --column".into()
            )
        );
        assert_eq!(
            pick(&schema(vec![]), None, NAME),
            Err(
                "standard input has no ObjectId column (pymongoarrow.objectid or \
                 fixed_size_binary[12]); it has no columns; name one with --column"
                    .into()
            )
        );
        // Another extension type over the same storage is not ids.
        let uuid_like = plain("u")
            .with_metadata([("ARROW:extension:name".to_owned(), "other.type".to_owned())]);
        let s = schema(vec![uuid_like, n]);
        assert!(pick(&s, None, NAME).is_err());
        let err = pick(&s, Some("u"), NAME).unwrap_err();
        assert!(err.starts_with("column \"u\" of standard input: "), "{err}");
        assert_eq!(
            pick(&s, Some("n"), NAME),
            Err(
                "column \"n\" of standard input is Int64: expected ObjectIds \
                 (pymongoarrow.objectid or fixed_size_binary[12]) or text"
                    .into()
            )
        );
    }
}
