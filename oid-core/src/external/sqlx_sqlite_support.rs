//! sqlx 0.8 support for SQLite (feature `sqlx-sqlite`).
//!
//! * [`ObjectId`] is bound as a `BLOB` of its 12 bytes in the spec's (big-endian) order, so
//!   `ORDER BY` on the column (SQLite compares blobs with `memcmp`) is creation order and the
//!   bounds of an [`IdRange`] work in `WHERE id >= ?1 AND id < ?2`.
//! * Decoding reads a `BLOB` of exactly 12 bytes and, for ids kept as text, a `TEXT` value of
//!   24 hex digits of any case (the value's own storage class decides, not the declared
//!   column type). A wrong length is a [`FromSliceError`], bad hex a [`ParseError`]: sqlx
//!   reports either as the source of its `Error::ColumnDecode`.
//! * [`Hex`] (from [`ObjectId::to_hex`]) is bound as `TEXT`, for a column that stores the
//!   readable form.
//!
//! [`IdRange`]: crate::IdRange
//! [`FromSliceError`]: crate::FromSliceError
//! [`ParseError`]: crate::ParseError

extern crate alloc;

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::sqlite::{Sqlite, SqliteArgumentValue, SqliteTypeInfo, SqliteValueRef};
use sqlx::{Decode, Encode, Type, TypeInfo, ValueRef};

use super::sql_text::parse_text;
use crate::ObjectId;
use crate::fmt::Hex;

impl Type<Sqlite> for ObjectId {
    #[inline]
    fn type_info() -> SqliteTypeInfo {
        <[u8] as Type<Sqlite>>::type_info()
    }

    #[inline]
    fn compatible(ty: &SqliteTypeInfo) -> bool {
        <[u8] as Type<Sqlite>>::compatible(ty) || <str as Type<Sqlite>>::compatible(ty)
    }
}

impl<'q> Encode<'q, Sqlite> for ObjectId {
    #[inline]
    fn encode_by_ref(
        &self,
        args: &mut Vec<SqliteArgumentValue<'q>>,
    ) -> Result<IsNull, BoxDynError> {
        args.push(SqliteArgumentValue::Blob(Cow::Owned(
            self.as_bytes().to_vec(),
        )));
        Ok(IsNull::No)
    }

    #[inline]
    fn size_hint(&self) -> usize {
        12
    }
}

impl<'r> Decode<'r, Sqlite> for ObjectId {
    #[inline]
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        let is_text = value.type_info().name() == "TEXT";
        // For a TEXT value, SQLite hands over its (UTF-8) bytes.
        let raw = <&[u8] as Decode<'r, Sqlite>>::decode(value)?;
        if is_text {
            Ok(parse_text(raw)?)
        } else {
            Ok(ObjectId::try_from(raw)?)
        }
    }
}

impl Type<Sqlite> for Hex {
    #[inline]
    fn type_info() -> SqliteTypeInfo {
        <str as Type<Sqlite>>::type_info()
    }

    #[inline]
    fn compatible(ty: &SqliteTypeInfo) -> bool {
        <ObjectId as Type<Sqlite>>::compatible(ty)
    }
}

impl<'q> Encode<'q, Sqlite> for Hex {
    #[inline]
    fn encode_by_ref(
        &self,
        args: &mut Vec<SqliteArgumentValue<'q>>,
    ) -> Result<IsNull, BoxDynError> {
        args.push(SqliteArgumentValue::Text(Cow::Owned(String::from(
            self.as_str(),
        ))));
        Ok(IsNull::No)
    }

    #[inline]
    fn size_hint(&self) -> usize {
        Hex::LENGTH
    }
}

/// Reads any value an [`ObjectId`] reads and gives its lowercase hex form.
impl<'r> Decode<'r, Sqlite> for Hex {
    #[inline]
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        <ObjectId as Decode<'r, Sqlite>>::decode(value).map(|id| id.to_hex())
    }
}
