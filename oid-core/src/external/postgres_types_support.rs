//! postgres-types 0.2 support (feature `postgres-types`), for `tokio-postgres` and `postgres`.
//!
//! * [`ObjectId`] implements `ToSql` as `BYTEA`: its 12 bytes in the spec's (big-endian)
//!   order, so `ORDER BY` on the column is creation order and the bounds of an [`IdRange`] work
//!   in `WHERE id >= $1 AND id < $2`.
//! * `FromSql` reads `BYTEA` (exactly 12 bytes) and, for ids kept as text, `TEXT`, `VARCHAR`,
//!   `CHAR(n)` (trailing blanks ignored), `NAME` and `unknown` holding 24 hex digits of any
//!   case. A wrong length is a [`FromSliceError`], bad hex a [`ParseError`]: the client
//!   reports either as the source of its conversion error.
//! * [`Hex`] (from [`ObjectId::to_hex`]) implements `ToSql` for the text types, for a column
//!   that stores the readable form, and `FromSql` for everything an [`ObjectId`] reads.
//!
//! [`IdRange`]: crate::IdRange
//! [`FromSliceError`]: crate::FromSliceError
//! [`ParseError`]: crate::ParseError

extern crate alloc;

use alloc::boxed::Box;
use core::error::Error;

use bytes::BytesMut;
use postgres_types::{FromSql, IsNull, ToSql, Type, WrongType};

use super::sql_text::parse_text;
use crate::ObjectId;
use crate::fmt::Hex;

type BoxError = Box<dyn Error + Sync + Send>;

fn is_text(ty: &Type) -> bool {
    <&str as FromSql<'_>>::accepts(ty)
}

/// What `postgres_types::to_sql_checked!` expands to (the macro names `::std`, and this crate
/// is `no_std`).
fn checked<T: ToSql>(value: &T, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
    if !T::accepts(ty) {
        return Err(Box::new(WrongType::new::<T>(ty.clone())));
    }
    value.to_sql(ty, out)
}

impl ToSql for ObjectId {
    #[inline]
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        out.extend_from_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    #[inline]
    fn accepts(ty: &Type) -> bool {
        *ty == Type::BYTEA
    }

    #[inline]
    fn to_sql_checked(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        checked(self, ty, out)
    }
}

impl<'a> FromSql<'a> for ObjectId {
    #[inline]
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        if *ty == Type::BYTEA {
            Ok(ObjectId::try_from(raw)?)
        } else {
            let mut text = raw;
            if *ty == Type::BPCHAR {
                while let [rest @ .., b' '] = text {
                    text = rest;
                }
            }
            Ok(parse_text(text)?)
        }
    }

    #[inline]
    fn accepts(ty: &Type) -> bool {
        *ty == Type::BYTEA || is_text(ty)
    }
}

impl ToSql for Hex {
    #[inline]
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        <&str as ToSql>::to_sql(&self.as_str(), ty, out)
    }

    #[inline]
    fn accepts(ty: &Type) -> bool {
        <&str as ToSql>::accepts(ty)
    }

    #[inline]
    fn to_sql_checked(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        checked(self, ty, out)
    }
}

/// Reads any column an [`ObjectId`] reads and gives its lowercase hex form.
impl<'a> FromSql<'a> for Hex {
    #[inline]
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        <ObjectId as FromSql<'a>>::from_sql(ty, raw).map(|id| id.to_hex())
    }

    #[inline]
    fn accepts(ty: &Type) -> bool {
        <ObjectId as FromSql<'a>>::accepts(ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn round_trip_and_errors() {
        let id = ObjectId::parse_str("507f1f77bcf86cd799439011").unwrap();
        let mut buf = BytesMut::new();
        id.to_sql(&Type::BYTEA, &mut buf).unwrap();
        assert_eq!(&buf[..], id.as_bytes());
        assert_eq!(ObjectId::from_sql(&Type::BYTEA, &buf).unwrap(), id);
        assert_eq!(
            ObjectId::from_sql(&Type::BPCHAR, b"507F1F77BCF86CD799439011  ").unwrap(),
            id
        );
        assert!(!<ObjectId as ToSql>::accepts(&Type::TEXT));
        assert!(<Hex as ToSql>::accepts(&Type::TEXT));

        let err = ObjectId::from_sql(&Type::BYTEA, &[0; 11]).unwrap_err();
        assert_eq!(
            err.downcast_ref::<crate::FromSliceError>().unwrap().len(),
            11
        );
        let err = ObjectId::from_sql(&Type::TEXT, b"507f1f77bcf86cd79943901g").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid character 'g' at index 23: expected a hex digit"
        );
    }
}
