//! The crate's one error type.

use core::fmt;

use arrow_schema::{ArrowError, DataType};
use oid_core::ParseError;

/// What went wrong in a conversion, a type check or a file.
///
/// Messages are lowercase and name the row (its index in the array, counting from the array's
/// own start, also for a slice) where there is one. Converts into [`ArrowError`] (as an
/// external error) so kernels can be used where arrow-rs or DataFusion errors are expected.
///
/// # Examples
///
/// ```
/// use arrow_array::StringArray;
/// use oid_arrow::compute::{parse_hex, OnInvalid};
/// use oid_arrow::Error;
///
/// let text = StringArray::from(vec!["507f1f77bcf86cd799439011", "507f1f77bcf86cd79943901g"]);
/// let err = parse_hex(&text, OnInvalid::Error).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "row 1 is not an ObjectId: invalid character 'g' at index 23: expected a hex digit"
/// );
/// assert!(matches!(err, Error::InvalidId { row: 1, .. }));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A row of hex text is not an ObjectId (strict parsing).
    InvalidId {
        /// The row's index in the input array.
        row: usize,
        /// Why, as the core's parser says it.
        error: ParseError,
    },
    /// A time is outside what an ObjectId can hold (1970-01-01T00:00:00Z to
    /// 2106-02-07T06:28:15Z).
    TimeOutOfRange {
        /// The row's index in the input array.
        row: usize,
        /// The time in seconds since the Unix epoch (rounded down to the second).
        seconds: i64,
    },
    /// An array or field has a data type the operation does not take.
    DataType {
        /// What the operation takes.
        expected: &'static str,
        /// What it was given.
        found: DataType,
    },
    /// A field is not an ObjectId field: a wrong or missing extension name, or extension
    /// metadata that `pymongoarrow.objectid` does not have.
    Extension(String),
    /// A column is not in the schema or record batch.
    MissingColumn(String),
    /// An error from arrow-rs.
    Arrow(ArrowError),
    /// An error from the Parquet reader or writer, e.g. a corrupt file.
    #[cfg(feature = "parquet")]
    Parquet(parquet::errors::ParquetError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidId { row, error } => write!(f, "row {row} is not an ObjectId: {error}"),
            Error::TimeOutOfRange { row, seconds } => write!(
                f,
                "row {row}: time {seconds} s is out of the ObjectId range \
                 (0 to 4294967295 s since 1970-01-01T00:00:00Z)"
            ),
            Error::DataType { expected, found } => {
                write!(
                    f,
                    "unsupported data type: expected {expected}, found {found}"
                )
            }
            Error::Extension(msg) => f.write_str(msg),
            Error::MissingColumn(name) => write!(f, "no column named {name:?}"),
            Error::Arrow(e) => write!(f, "arrow: {e}"),
            #[cfg(feature = "parquet")]
            Error::Parquet(e) => write!(f, "parquet: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::InvalidId { error, .. } => Some(error),
            Error::Arrow(e) => Some(e),
            #[cfg(feature = "parquet")]
            Error::Parquet(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ArrowError> for Error {
    fn from(e: ArrowError) -> Self {
        Error::Arrow(e)
    }
}

#[cfg(feature = "parquet")]
impl From<parquet::errors::ParquetError> for Error {
    fn from(e: parquet::errors::ParquetError) -> Self {
        Error::Parquet(e)
    }
}

impl From<Error> for ArrowError {
    /// An [`Error::Arrow`] unwrapped; any other as [`ArrowError::ExternalError`].
    fn from(e: Error) -> Self {
        match e {
            Error::Arrow(e) => e,
            e => ArrowError::ExternalError(Box::new(e)),
        }
    }
}

/// Runs a reader of a file format and returns a panic inside it (a bug of that reader on corrupt
/// input) as an error, so bad input never panics through this crate's API.
#[cfg(any(feature = "parquet", feature = "ipc"))]
pub(crate) fn no_panic<T>(
    format: &str,
    error: fn(String) -> Error,
    f: std::panic::AssertUnwindSafe<impl FnOnce() -> Result<T, Error>>,
) -> Result<T, Error> {
    std::panic::catch_unwind(f).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(error(format!(
            "corrupt {format} input: the reader failed ({what})"
        )))
    })
}
