//! rusqlite support (feature `rusqlite`).
//!
//! * [`ObjectId`] implements `ToSql` as a `BLOB` of its 12 bytes in the spec's (big-endian)
//!   order, borrowed, without allocating. SQLite compares blobs with `memcmp`, so `ORDER BY` on
//!   the column is creation order and the bounds of an [`IdRange`] work in
//!   `WHERE id >= ?1 AND id < ?2`.
//! * `FromSql` reads a `BLOB` of exactly 12 bytes and, for ids kept as text, a `TEXT` value of
//!   24 hex digits of any case. A wrong length is a [`FromSliceError`], bad hex a
//!   [`ParseError`], both in `FromSqlError::Other` (rusqlite reports them as
//!   `Error::FromSqlConversionFailure`); an integer or real value is `FromSqlError::InvalidType`.
//! * [`Hex`] (from [`ObjectId::to_hex`]) implements `ToSql` as `TEXT`, for a column that stores
//!   the readable form, and `FromSql` for everything an [`ObjectId`] reads.
//!
//! [`IdRange`]: crate::IdRange
//! [`FromSliceError`]: crate::FromSliceError
//! [`ParseError`]: crate::ParseError

extern crate alloc;

use alloc::boxed::Box;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use super::sql_text::parse_text;
use crate::ObjectId;
use crate::fmt::Hex;

impl ToSql for ObjectId {
    #[inline]
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Blob(self.as_bytes())))
    }
}

impl FromSql for ObjectId {
    #[inline]
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Blob(b) => {
                ObjectId::try_from(b).map_err(|e| FromSqlError::Other(Box::new(e)))
            }
            ValueRef::Text(t) => parse_text(t).map_err(|e| FromSqlError::Other(Box::new(e))),
            ValueRef::Null | ValueRef::Integer(_) | ValueRef::Real(_) => {
                Err(FromSqlError::InvalidType)
            }
        }
    }
}

impl ToSql for Hex {
    #[inline]
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Text(self.as_bytes())))
    }
}

/// Reads any value an [`ObjectId`] reads and gives its lowercase hex form.
impl FromSql for Hex {
    #[inline]
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        ObjectId::column_result(value).map(|id| id.to_hex())
    }
}
