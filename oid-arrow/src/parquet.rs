//! Parquet files of ObjectId columns (feature `parquet`).
//!
//! An ObjectId column is stored as Parquet's `FIXED_LEN_BYTE_ARRAY(12)`; its extension type
//! travels in the Arrow schema that arrow-rs, pyarrow and Polars write under the `ARROW:schema`
//! key, so every reader that reads that key (arrow-rs, pyarrow with pymongoarrow imported) gets
//! `pymongoarrow.objectid` back, and the others (DuckDB, Spark) see 12-byte binary values.
//!
//! Bytes sort in creation order (the timestamp is big-endian and comes first), so the
//! minimum and maximum that writers keep for each row group bound the creation times of its ids:
//! [`row_groups_in_range`] picks the row groups that can hold a time range and
//! [`select_range`] makes a reader skip the others.
//!
//! # Examples
//!
//! ```
//! use oid_arrow::{parquet, Accept, ObjectIdArray};
//! use oid_core::ObjectId;
//!
//! let ids: ObjectIdArray = [Some(ObjectId::MIN), None].into_iter().collect();
//! let mut file = Vec::new();
//! parquet::write_ids(&mut file, "_id", &ids, None)?;
//! let back = parquet::read_ids(bytes::Bytes::from(file), "_id", Accept::Extension)?;
//! assert_eq!(back, ids);
//! # Ok::<(), oid_arrow::Error>(())
//! ```

use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::Schema;
use oid_core::{IdRange, Upper};
use parquet::arrow::ArrowWriter;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ArrowReaderBuilder, ParquetRecordBatchReaderBuilder};
use parquet::basic::{ColumnOrder, SortOrder, Type as PhysicalType};
use parquet::file::metadata::ParquetMetaData;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::ChunkReader;

use crate::{Accept, Error, ObjectIdArray, check_field, field};

/// Writes `ids` as a one-column Parquet file, the column named `name` with the
/// `pymongoarrow.objectid` type, and returns the file's metadata.
///
/// `props` are arrow-rs's writer properties (row group size, compression, ...); `None` takes its
/// defaults (no compression, statistics on). For files of many columns, use arrow-rs's
/// `ArrowWriter` with a schema holding [`field`]: the type is kept the same way.
///
/// # Errors
///
/// [`Error::Parquet`] if writing fails (including I/O errors of `writer`).
pub fn write_ids<W: Write + Send>(
    writer: W,
    name: &str,
    ids: &ObjectIdArray,
    props: Option<WriterProperties>,
) -> Result<ParquetMetaData, Error> {
    let schema = Arc::new(Schema::new(vec![field(name, ids.null_count() > 0)]));
    let batch = RecordBatch::try_new(schema.clone(), vec![ids.clone().into()])?;
    let mut writer = ArrowWriter::try_new(writer, schema, props)?;
    writer.write(&batch)?;
    Ok(writer.close()?)
}

/// Reads the ObjectId column `name` of a Parquet file (only that column is decoded).
///
/// # Errors
///
/// [`Error::Parquet`] for a file that is not Parquet or is corrupt, [`Error::MissingColumn`],
/// or the column's [`check_field`] error. parquet-rs 60 panics on some corrupt pages (an offset
/// past a page's end); this function returns such a panic as an [`Error::Parquet`] (with
/// `panic = "unwind"`, the default; the panic hook still prints it).
pub fn read_ids<R: ChunkReader + 'static>(
    reader: R,
    name: &str,
    accept: Accept,
) -> Result<ObjectIdArray, Error> {
    let error = |msg| Error::Parquet(parquet::errors::ParquetError::General(msg));
    crate::error::no_panic(
        "parquet",
        error,
        AssertUnwindSafe(|| {
            let len = reader.len();
            let builder = ParquetRecordBatchReaderBuilder::try_new(reader)?;
            check_chunks(builder.metadata(), Some(len))?;
            let builder = project(builder, name, accept)?;
            crate::array::concat(builder.build()?.map(|b| {
                let b = b?;
                ObjectIdArray::from_batch(&b, name, accept)
            }))
        }),
    )
}

/// Checks that every column chunk lies in the file: parquet-rs asserts it (a panic) when it reads
/// a chunk whose offset or length is negative, which a corrupt footer can say.
fn check_chunks(metadata: &ParquetMetaData, file_len: Option<u64>) -> Result<(), Error> {
    for (g, group) in metadata.row_groups().iter().enumerate() {
        for (c, chunk) in group.columns().iter().enumerate() {
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or(chunk.data_page_offset());
            let len = chunk.compressed_size();
            let fits = match (u64::try_from(start), u64::try_from(len)) {
                (Ok(start), Ok(len)) => file_len.is_none_or(|f| start.saturating_add(len) <= f),
                _ => false,
            };
            if !fits {
                return Err(Error::Parquet(parquet::errors::ParquetError::General(
                    format!(
                        "corrupt file: row group {g}, column {c}: a chunk of {len} bytes at {start}"
                    ),
                )));
            }
        }
    }
    Ok(())
}

/// Keeps only the top-level column `name` after checking it holds ids.
fn project<T>(
    builder: ArrowReaderBuilder<T>,
    name: &str,
    accept: Accept,
) -> Result<ArrowReaderBuilder<T>, Error> {
    let (index, field) = builder
        .schema()
        .column_with_name(name)
        .ok_or_else(|| Error::MissingColumn(name.to_owned()))?;
    check_field(field, accept)?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [index]);
    Ok(builder.with_projection(mask))
}

/// The row groups of a file whose ObjectId column `column` (a top-level column) can hold an id
/// of `range`, judged by the minimum and maximum the writer kept for each row group.
///
/// A row group without statistics, or a file whose writer did not order the column's bytes
/// unsigned (files from before Parquet format 2.4), is always kept: the result can hold row
/// groups without a match, never miss one with a match.
///
/// # Errors
///
/// [`Error::MissingColumn`] if the file has no top-level column `column`; [`Error::DataType`] if
/// it is not 12-byte binary.
///
/// # Examples
///
/// ```
/// use oid_arrow::{parquet, ObjectIdArray};
/// use oid_core::{IdRange, ObjectId};
/// use ::parquet::file::properties::WriterProperties;
///
/// // Four row groups of ids made at seconds 0..4, 4..8, 8..12 and 12..16.
/// let ids: ObjectIdArray = (0..16).map(|s| ObjectId::from_parts(s, [0; 5], 0)).collect();
/// let props = WriterProperties::builder().set_max_row_group_row_count(Some(4)).build();
/// let metadata = parquet::write_ids(Vec::new(), "_id", &ids, Some(props))?;
/// let groups = parquet::row_groups_in_range(&metadata, "_id", &IdRange::from_secs(Some(5), Some(9)))?;
/// assert_eq!(groups, [1, 2]);
/// # Ok::<(), oid_arrow::Error>(())
/// ```
pub fn row_groups_in_range(
    metadata: &ParquetMetaData,
    column: &str,
    range: &IdRange,
) -> Result<Vec<usize>, Error> {
    let schema = metadata.file_metadata().schema_descr();
    let index = schema
        .columns()
        .iter()
        .position(|c| c.path().parts() == [column])
        .ok_or_else(|| Error::MissingColumn(column.to_owned()))?;
    let descr = schema.column(index);
    if descr.physical_type() != PhysicalType::FIXED_LEN_BYTE_ARRAY || descr.type_length() != 12 {
        return Err(Error::DataType {
            expected: "FixedSizeBinary(12)",
            found: arrow_schema::DataType::Binary,
        });
    }
    let unsigned = matches!(
        metadata.file_metadata().column_order(index),
        ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::UNSIGNED)
    );
    if range.is_empty() {
        return Ok(Vec::new());
    }
    let lower = range.lower();
    Ok(metadata
        .row_groups()
        .iter()
        .enumerate()
        .filter(|(_, group)| {
            let stats = group.column(index).statistics();
            let (Some(min), Some(max)) = (
                stats.and_then(|s| s.min_bytes_opt()),
                stats.and_then(|s| s.max_bytes_opt()),
            ) else {
                return true;
            };
            if !unsigned {
                return true;
            }
            max >= &lower.as_bytes()[..]
                && match range.upper() {
                    Upper::Lt(u) => min < &u.as_bytes()[..],
                    Upper::Lte(u) => min <= &u.as_bytes()[..],
                }
        })
        .map(|(i, _)| i)
        .collect())
}

/// Makes a Parquet reader read only the row groups whose ObjectId column `column` can hold an
/// id of `range` (see [`row_groups_in_range`]); the other columns are read as the builder says.
/// Works for the synchronous and the asynchronous builder of arrow-rs.
///
/// Rows of the kept row groups outside the range are still returned: filter them with
/// [`IdRange::contains`] or a row filter.
///
/// # Errors
///
/// As [`row_groups_in_range`], the column's [`check_field`] error (plain
/// `FixedSizeBinary(12)` columns are accepted), and [`Error::Parquet`] for a column chunk at a
/// negative offset or of a negative length (a corrupt footer).
///
/// # Examples
///
/// ```
/// use oid_arrow::{parquet, ObjectIdArray};
/// use oid_core::{IdRange, ObjectId};
/// use ::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
/// use ::parquet::file::properties::WriterProperties;
///
/// let ids: ObjectIdArray = (0..1000).map(|s| ObjectId::from_parts(s, [0; 5], 0)).collect();
/// let props = WriterProperties::builder().set_max_row_group_row_count(Some(100)).build();
/// let mut file = Vec::new();
/// parquet::write_ids(&mut file, "_id", &ids, Some(props))?;
///
/// let builder = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(file))?;
/// let range = IdRange::from_secs(Some(250), Some(260));
/// let reader = parquet::select_range(builder, "_id", &range)?.build()?;
/// let rows: usize = reader.map(|b| b.map(|b| b.num_rows())).sum::<Result<_, _>>()?;
/// assert_eq!(rows, 100); // one row group of ten
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn select_range<T>(
    builder: ArrowReaderBuilder<T>,
    column: &str,
    range: &IdRange,
) -> Result<ArrowReaderBuilder<T>, Error> {
    let (_, field) = builder
        .schema()
        .column_with_name(column)
        .ok_or_else(|| Error::MissingColumn(column.to_owned()))?;
    check_field(field, Accept::ExtensionOrPlain)?;
    check_chunks(builder.metadata(), None)?;
    let groups = row_groups_in_range(builder.metadata(), column, range)?;
    Ok(builder.with_row_groups(groups))
}
