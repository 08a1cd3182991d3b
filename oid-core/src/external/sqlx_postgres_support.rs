//! sqlx 0.8 support for PostgreSQL (feature `sqlx-postgres`).
//!
//! * [`ObjectId`] is bound as `BYTEA`: its 12 bytes in the spec's (big-endian) order, so
//!   `ORDER BY` on the column is creation order and the bounds of an [`IdRange`] work in
//!   `WHERE id >= $1 AND id < $2`.
//! * Decoding reads `BYTEA` (exactly 12 bytes) and, for ids kept as text, `TEXT`, `VARCHAR`,
//!   `CHAR(n)` (trailing blanks ignored), `NAME` and `citext` holding 24 hex digits of any case.
//!   A wrong length is a [`FromSliceError`], bad hex a [`ParseError`]: sqlx reports either as
//!   the source of its `Error::ColumnDecode`.
//! * [`Hex`] (from [`ObjectId::to_hex`]) is bound as `TEXT`, for a column that stores the
//!   readable form.
//! * `Vec<ObjectId>` and `&[ObjectId]` bind as `BYTEA[]` (for `id = ANY($1)`).
//!
//! [`IdRange`]: crate::IdRange
//! [`FromSliceError`]: crate::FromSliceError
//! [`ParseError`]: crate::ParseError

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{
    PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueFormat, PgValueRef, Postgres,
};
use sqlx::{Decode, Encode, Type, ValueRef};

use super::sql_text::parse_text;
use crate::ObjectId;
use crate::fmt::Hex;

impl Type<Postgres> for ObjectId {
    #[inline]
    fn type_info() -> PgTypeInfo {
        <[u8] as Type<Postgres>>::type_info()
    }

    #[inline]
    fn compatible(ty: &PgTypeInfo) -> bool {
        <[u8] as Type<Postgres>>::compatible(ty) || <str as Type<Postgres>>::compatible(ty)
    }
}

impl PgHasArrayType for ObjectId {
    #[inline]
    fn array_type_info() -> PgTypeInfo {
        <&[u8] as PgHasArrayType>::array_type_info()
    }
}

impl Encode<'_, Postgres> for ObjectId {
    #[inline]
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    #[inline]
    fn size_hint(&self) -> usize {
        12
    }
}

impl Decode<'_, Postgres> for ObjectId {
    #[inline]
    fn decode(value: PgValueRef<'_>) -> Result<Self, BoxDynError> {
        let is_bytea = *value.type_info() == <[u8] as Type<Postgres>>::type_info();
        let raw = value.as_bytes()?;
        match (is_bytea, value.format()) {
            (true, PgValueFormat::Binary) => Ok(ObjectId::try_from(raw)?),
            // A simple (unprepared) query sends BYTEA as text: `\x` and two hex digits a byte.
            (true, PgValueFormat::Text) => match raw.strip_prefix(b"\\x") {
                Some(hex) if hex.len() == 24 => Ok(parse_text(hex)?),
                Some(hex) => Err(crate::FromSliceError::new(hex.len() / 2).into()),
                None => Err("invalid BYTEA text: expected a leading \\x".into()),
            },
            // TEXT, VARCHAR, NAME, citext and CHAR(n); CHAR pads with blanks.
            (false, _) => Ok(parse_text(trim_blanks(raw))?),
        }
    }
}

/// Drops the blanks `CHAR(n)` pads with (no id ends in a blank, so this changes no valid id).
fn trim_blanks(mut b: &[u8]) -> &[u8] {
    while let [rest @ .., b' '] = b {
        b = rest;
    }
    b
}

impl Type<Postgres> for Hex {
    #[inline]
    fn type_info() -> PgTypeInfo {
        <str as Type<Postgres>>::type_info()
    }

    #[inline]
    fn compatible(ty: &PgTypeInfo) -> bool {
        <ObjectId as Type<Postgres>>::compatible(ty)
    }
}

impl PgHasArrayType for Hex {
    #[inline]
    fn array_type_info() -> PgTypeInfo {
        <&str as PgHasArrayType>::array_type_info()
    }
}

impl Encode<'_, Postgres> for Hex {
    #[inline]
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    #[inline]
    fn size_hint(&self) -> usize {
        Hex::LENGTH
    }
}

/// Reads any column an [`ObjectId`] reads and gives its lowercase hex form.
impl Decode<'_, Postgres> for Hex {
    #[inline]
    fn decode(value: PgValueRef<'_>) -> Result<Self, BoxDynError> {
        <ObjectId as Decode<'_, Postgres>>::decode(value).map(|id| id.to_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types() {
        use sqlx::TypeInfo;
        assert_eq!(<ObjectId as Type<Postgres>>::type_info().name(), "BYTEA");
        assert_eq!(<Hex as Type<Postgres>>::type_info().name(), "TEXT");
        for name in ["bytea", "text", "varchar", "bpchar"] {
            assert!(<ObjectId as Type<Postgres>>::compatible(
                &PgTypeInfo::with_name(name)
            ));
        }
        assert!(!<ObjectId as Type<Postgres>>::compatible(
            &PgTypeInfo::with_name("int8")
        ));
    }

    #[test]
    fn blanks() {
        assert_eq!(trim_blanks(b"ab  "), b"ab");
        assert_eq!(trim_blanks(b"  "), b"");
        assert_eq!(trim_blanks(b"a b"), b"a b");
    }
}
