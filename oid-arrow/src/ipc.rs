//! Arrow IPC streams and files of ObjectId columns (feature `ipc`).
//!
//! The IPC format carries field metadata, so arrow-ipc's own readers and writers keep the
//! `pymongoarrow.objectid` type as they are; this module adds the one-column conveniences.
//!
//! # Examples
//!
//! ```
//! use oid_arrow::{ipc, Accept, ObjectIdArray};
//! use oid_core::ObjectId;
//!
//! let ids: ObjectIdArray = [Some(ObjectId::MAX), None].into_iter().collect();
//! let mut stream = Vec::new();
//! ipc::write_stream(&mut stream, "_id", &ids)?;
//! assert_eq!(ipc::read_stream(stream.as_slice(), "_id", Accept::Extension)?, ids);
//! # Ok::<(), oid_arrow::Error>(())
//! ```

use std::io::{Read, Write};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_ipc::reader::StreamReader;
use arrow_ipc::writer::StreamWriter;
use arrow_schema::Schema;

use crate::{Accept, Error, ObjectIdArray, field};

/// Writes `ids` as an Arrow IPC stream of one column `name` of type `pymongoarrow.objectid`.
///
/// # Errors
///
/// [`Error::Arrow`] if writing fails (including I/O errors of `writer`).
pub fn write_stream<W: Write>(writer: W, name: &str, ids: &ObjectIdArray) -> Result<(), Error> {
    let schema = Arc::new(Schema::new(vec![field(name, ids.null_count() > 0)]));
    let batch = RecordBatch::try_new(schema.clone(), vec![ids.clone().into()])?;
    let mut writer = StreamWriter::try_new(writer, &schema)?;
    writer.write(&batch)?;
    writer.finish()?;
    Ok(())
}

/// Reads the ObjectId column `name` of an Arrow IPC stream, all batches joined.
///
/// # Errors
///
/// [`Error::Arrow`] for a stream that is not Arrow IPC or is corrupt (a panic of arrow-ipc on a
/// corrupt stream included, with `panic = "unwind"`), [`Error::MissingColumn`], or the column's
/// [`check_field`](crate::check_field) error.
pub fn read_stream<R: Read>(reader: R, name: &str, accept: Accept) -> Result<ObjectIdArray, Error> {
    let error = |msg| Error::Arrow(arrow_schema::ArrowError::IpcError(msg));
    crate::error::no_panic(
        "arrow ipc",
        error,
        AssertUnwindSafe(|| {
            let reader = StreamReader::try_new(reader, None)?;
            let (_, f) = reader
                .schema()
                .column_with_name(name)
                .map(|(i, f)| (i, f.clone()))
                .ok_or_else(|| Error::MissingColumn(name.to_owned()))?;
            crate::check_field(&f, accept)?;
            crate::array::concat(reader.map(|b| ObjectIdArray::from_batch(&b?, name, accept)))
        }),
    )
}
