//! Parquet and Arrow IPC inputs, through the readers `oid convert` and `oid validate` use
//! (`crate::columns`): batch by batch, only the id column decoded.

use std::io;

use super::read::{Failure, Ids, Push};
use crate::columns::ReadError;
use crate::error::Error;
use crate::input::Row;

/// Runs a column reader, handing each id to `push`; a row that is not an id, or a file that is
/// not a readable column file, is a [`Failure`] naming the file and the row.
pub(super) fn read(
    name: &str,
    reader: impl FnOnce(&mut dyn FnMut(Row<'_>) -> Result<(), Error>) -> Result<(), ReadError>,
    push: &mut Push<'_>,
) -> Result<(), Failure> {
    let mut ids = Ids::new(push);
    let mut failed: Option<Failure> = None;
    let mut each = |row: Row<'_>| -> Result<(), Error> {
        let Row::Item(item) = row else {
            // A null row holds no id.
            return Ok(());
        };
        let result = match item.id {
            Ok(id) => ids.push(id),
            Err(reason) => Err(Failure(format!(
                "{}: {:?}: {reason}",
                item.position, item.text
            ))),
        };
        result.map_err(|f| {
            failed = Some(f);
            // Only stops the reader; the failure above is what is said.
            Error::Read(io::ErrorKind::Interrupted.into())
        })
    };
    let result = match reader(&mut each) {
        Ok(()) => Ok(()),
        Err(ReadError::Unreadable(message)) => Err(Failure(message)),
        Err(ReadError::Stop(e)) => {
            Err(failed.unwrap_or_else(|| Failure(format!("cannot read {name}: {e}"))))
        }
    };
    ids.finish(result)
}
