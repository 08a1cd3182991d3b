//! Parquet and Arrow IPC inputs, through the readers `oid convert` and `oid validate` use
//! (`crate::columns`): batch by batch, only the id column decoded.

use std::io;
use std::path::Path;

use oid_arrow::ObjectIdArray;
use oid_std::ObjectId;

use super::read::{Failure, Ids, Push};
use crate::columns::{ReadError, RowSink};
use crate::error::Error;
use crate::input::Row;

/// Runs a column reader, handing each id to `push`; a row that is not an id, or a file that is
/// not a readable column file, is a [`Failure`] naming the file and the row.
pub(super) fn read(
    name: &str,
    reader: impl FnOnce(&mut dyn RowSink) -> Result<(), ReadError>,
    push: &mut Push<'_>,
) -> Result<(), Failure> {
    let mut sink = Sink {
        ids: Ids::new(push),
        failed: None,
    };
    let result = match reader(&mut sink) {
        Ok(()) => Ok(()),
        Err(ReadError::Unreadable(message)) => Err(Failure(message)),
        Err(ReadError::Stop(e)) => Err(sink
            .failed
            .take()
            .unwrap_or_else(|| Failure(format!("cannot read {name}: {e}")))),
    };
    sink.ids.finish(result)
}

/// The audit's rows: ids, null rows skipped (they hold no id), any other row a failure.
struct Sink<'a, 'b> {
    ids: Ids<'a, 'b>,
    failed: Option<Failure>,
}

impl Sink<'_, '_> {
    /// Keeps `failed` for the message, and stops the reader.
    fn stop(&mut self, failed: Failure) -> Error {
        self.failed = Some(failed);
        // Only stops the reader; the failure kept is what is said.
        Error::Read(io::ErrorKind::Interrupted.into())
    }
}

impl RowSink for Sink<'_, '_> {
    fn row(&mut self, row: Row<'_>) -> Result<(), Error> {
        let Row::Item(item) = row else {
            return Ok(());
        };
        let result = match item.id {
            Ok(id) => self.ids.push(id),
            Err(reason) => Err(Failure(format!(
                "{}: {:?}: {reason}",
                item.position, item.text
            ))),
        };
        result.map_err(|f| self.stop(f))
    }

    fn ids(&mut self, ids: &ObjectIdArray, _: Option<&Path>, _: u64) -> Result<(), Error> {
        let result = if ids.null_count() == 0 {
            ids.values()
                .iter()
                .try_for_each(|bytes| self.ids.push(ObjectId::from_bytes(*bytes)))
        } else {
            ids.iter().flatten().try_for_each(|id| self.ids.push(id))
        };
        result.map_err(|f| self.stop(f))
    }
}
