//! pymongoarrow's ObjectId extension type, and fields of it.

use arrow_schema::extension::ExtensionType;
use arrow_schema::{ArrowError, DataType, Field};

use crate::Error;

/// The storage type of an ObjectId column: `FixedSizeBinary(12)`.
pub const STORAGE: DataType = DataType::FixedSizeBinary(12);

/// The ObjectId extension type as pymongoarrow defines it: name `pymongoarrow.objectid`,
/// storage `FixedSizeBinary(12)`, empty metadata.
///
/// Arrow has no canonical ObjectId type; this is the one pyarrow, Polars (through pymongoarrow)
/// and Parquet files written by them use. The metadata may be absent or the empty string (both
/// occur: pyarrow writes `""`, and so does [`serialize_metadata`](ExtensionType::serialize_metadata)
/// here); anything else is an error, as for the canonical `arrow.uuid`.
///
/// # Examples
///
/// ```
/// use arrow_schema::{DataType, Field};
/// use oid_arrow::ObjectIdType;
///
/// let field = oid_arrow::field("_id", false);
/// assert_eq!(field.data_type(), &DataType::FixedSizeBinary(12));
/// assert_eq!(field.extension_type_name(), Some("pymongoarrow.objectid"));
/// assert!(field.try_extension_type::<ObjectIdType>().is_ok());
///
/// // Other metadata, or another storage type, is refused.
/// let mut other = field.clone().with_metadata(std::collections::HashMap::from([
///     ("ARROW:extension:name".to_owned(), "pymongoarrow.objectid".to_owned()),
///     ("ARROW:extension:metadata".to_owned(), "v2".to_owned()),
/// ]));
/// assert!(other.try_extension_type::<ObjectIdType>().is_err());
/// other = Field::new("_id", DataType::Binary, false);
/// assert!(other.try_with_extension_type(ObjectIdType).is_err());
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObjectIdType;

impl ExtensionType for ObjectIdType {
    const NAME: &'static str = "pymongoarrow.objectid";

    type Metadata = ();

    fn metadata(&self) -> &Self::Metadata {
        &()
    }

    /// The empty string, as pyarrow writes it for pymongoarrow's type.
    fn serialize_metadata(&self) -> Option<String> {
        Some(String::new())
    }

    fn deserialize_metadata(metadata: Option<&str>) -> Result<Self::Metadata, ArrowError> {
        match metadata {
            None | Some("") => Ok(()),
            Some(other) => Err(ArrowError::InvalidArgumentError(format!(
                "pymongoarrow.objectid takes no extension metadata, found {other:?}"
            ))),
        }
    }

    fn supports_data_type(&self, data_type: &DataType) -> Result<(), ArrowError> {
        match data_type {
            DataType::FixedSizeBinary(12) => Ok(()),
            other => Err(ArrowError::InvalidArgumentError(format!(
                "pymongoarrow.objectid is stored as FixedSizeBinary(12), found {other}"
            ))),
        }
    }

    fn try_new(data_type: &DataType, _metadata: Self::Metadata) -> Result<Self, ArrowError> {
        ObjectIdType
            .supports_data_type(data_type)
            .map(|()| ObjectIdType)
    }
}

/// A field of ObjectIds: `FixedSizeBinary(12)` with the `pymongoarrow.objectid` extension type.
///
/// # Examples
///
/// ```
/// let field = oid_arrow::field("_id", true);
/// assert!(field.is_nullable());
/// assert!(oid_arrow::check_field(&field, oid_arrow::Accept::Extension).is_ok());
/// ```
pub fn field(name: impl Into<String>, nullable: bool) -> Field {
    let mut field = Field::new(name, STORAGE, nullable);
    // Cannot fail: the storage type is the one the extension type supports.
    let _ = field.try_with_extension_type(ObjectIdType);
    field
}

/// Which fields [`check_field`] takes as ObjectId columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Accept {
    /// Only fields with the `pymongoarrow.objectid` extension type.
    Extension,
    /// Those, and plain `FixedSizeBinary(12)` fields without an extension name, as DuckDB,
    /// DataFusion and a Polars round trip write them.
    ExtensionOrPlain,
}

/// Checks that `field` is an ObjectId field.
///
/// # Errors
///
/// [`Error::DataType`] if the storage is not `FixedSizeBinary(12)`; [`Error::Extension`] if the
/// field names another extension type, carries metadata other than none or `""`, or (with
/// [`Accept::Extension`]) names no extension type.
///
/// # Examples
///
/// ```
/// use arrow_schema::{DataType, Field};
/// use oid_arrow::{check_field, Accept};
///
/// let plain = Field::new("_id", DataType::FixedSizeBinary(12), false);
/// assert!(check_field(&plain, Accept::ExtensionOrPlain).is_ok());
/// let err = check_field(&plain, Accept::Extension).unwrap_err();
/// assert_eq!(err.to_string(), "field \"_id\" has no extension type, expected pymongoarrow.objectid");
///
/// let text = Field::new("_id", DataType::Utf8, false);
/// let err = check_field(&text, Accept::ExtensionOrPlain).unwrap_err();
/// assert_eq!(err.to_string(), "unsupported data type: expected FixedSizeBinary(12), found Utf8");
/// ```
pub fn check_field(field: &Field, accept: Accept) -> Result<(), Error> {
    if field.data_type() != &STORAGE {
        return Err(Error::DataType {
            expected: "FixedSizeBinary(12)",
            found: field.data_type().clone(),
        });
    }
    match field.extension_type_name() {
        None if accept == Accept::ExtensionOrPlain => Ok(()),
        None => Err(Error::Extension(format!(
            "field {:?} has no extension type, expected {}",
            field.name(),
            ObjectIdType::NAME
        ))),
        Some(ObjectIdType::NAME) => field
            .try_extension_type::<ObjectIdType>()
            .map(|_| ())
            .map_err(|e| match e {
                ArrowError::InvalidArgumentError(msg) => Error::Extension(msg),
                e => Error::Arrow(e),
            }),
        Some(other) => Err(Error::Extension(format!(
            "field {:?} has extension type {other}, expected {}",
            field.name(),
            ObjectIdType::NAME
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::extension::{EXTENSION_TYPE_METADATA_KEY, EXTENSION_TYPE_NAME_KEY};
    use std::collections::HashMap;

    fn with_meta(meta: Option<&str>) -> Field {
        let mut m = HashMap::from([(
            EXTENSION_TYPE_NAME_KEY.to_owned(),
            ObjectIdType::NAME.to_owned(),
        )]);
        if let Some(v) = meta {
            m.insert(EXTENSION_TYPE_METADATA_KEY.to_owned(), v.to_owned());
        }
        Field::new("_id", STORAGE, true).with_metadata(m)
    }

    #[test]
    fn metadata_absent_or_empty_is_accepted_anything_else_is_refused() {
        for meta in [None, Some("")] {
            let f = with_meta(meta);
            assert_eq!(
                f.try_extension_type::<ObjectIdType>().ok(),
                Some(ObjectIdType)
            );
            assert!(check_field(&f, Accept::Extension).is_ok());
        }
        for meta in ["x", " ", "{}", "\0"] {
            let f = with_meta(Some(meta));
            let err = check_field(&f, Accept::ExtensionOrPlain).unwrap_err();
            assert!(matches!(err, Error::Extension(_)), "{err:?}");
            assert_eq!(
                err.to_string(),
                format!("pymongoarrow.objectid takes no extension metadata, found {meta:?}")
            );
        }
    }

    #[test]
    fn wrong_storage_and_wrong_names_are_refused() {
        for dt in [
            DataType::FixedSizeBinary(16),
            DataType::FixedSizeBinary(24),
            DataType::Binary,
            DataType::Utf8,
        ] {
            let mut f = Field::new("_id", dt.clone(), true);
            assert!(f.try_with_extension_type(ObjectIdType).is_err());
            let err = check_field(&f, Accept::ExtensionOrPlain).unwrap_err();
            assert!(matches!(err, Error::DataType { ref found, .. } if *found == dt));
            // Named as ours but stored otherwise: still the storage error.
            let named = f.with_metadata(with_meta(None).metadata().clone());
            assert!(named.try_extension_type::<ObjectIdType>().is_err());
            assert!(check_field(&named, Accept::Extension).is_err());
        }
        let uuid = Field::new("_id", STORAGE, true).with_metadata(HashMap::from([(
            EXTENSION_TYPE_NAME_KEY.to_owned(),
            "arrow.uuid".to_owned(),
        )]));
        let err = check_field(&uuid, Accept::ExtensionOrPlain).unwrap_err();
        assert_eq!(
            err.to_string(),
            "field \"_id\" has extension type arrow.uuid, expected pymongoarrow.objectid"
        );
    }

    #[test]
    fn field_writes_the_name_and_empty_metadata_as_pyarrow_does() {
        let f = field("x", false);
        assert_eq!(
            f.metadata()
                .get(EXTENSION_TYPE_NAME_KEY)
                .map(String::as_str),
            Some(ObjectIdType::NAME)
        );
        assert_eq!(
            f.metadata()
                .get(EXTENSION_TYPE_METADATA_KEY)
                .map(String::as_str),
            Some("")
        );
        assert!(!f.is_nullable());
    }
}
