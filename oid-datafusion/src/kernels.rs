//! The array work: oid-arrow's kernels, with errors that name the bad value.
//!
//! Every function computes its column here; nulls pass through.

use arrow::array::{
    Array, BooleanArray, FixedSizeBinaryArray, StringArray, TimestampSecondArray, UInt32Array,
};
use arrow::util::display::{ArrayFormatter, FormatOptions};
use oid_arrow::compute::{self, OnInvalid};
use oid_arrow::{Error, ObjectIdArray};

/// A `FixedSizeBinary(12)` column as ids (no copy).
pub(crate) fn ids(array: &FixedSizeBinaryArray) -> Result<ObjectIdArray, String> {
    ObjectIdArray::try_from(array.clone()).map_err(|e| e.to_string())
}

/// Hex text (Utf8, LargeUtf8 or Utf8View) to ids: strict (the first invalid value is an error
/// that quotes it) or lenient (null instead).
pub(crate) fn parse(text: &dyn Array, lenient: bool) -> Result<ObjectIdArray, String> {
    let on_invalid = if lenient {
        OnInvalid::Null
    } else {
        OnInvalid::Error
    };
    compute::parse_hex(text, on_invalid).map_err(|e| match &e {
        Error::InvalidId { row, error } => {
            format!(
                "invalid ObjectId {} at row {row}: {error}",
                quoted(text, *row)
            )
        }
        _ => e.to_string(),
    })
}

/// Whether each text is a 24-digit hex ObjectId.
pub(crate) fn is_valid(text: &dyn Array) -> Result<BooleanArray, String> {
    compute::is_valid_hex(text).map_err(|e| e.to_string())
}

/// Ids to lowercase hex.
pub(crate) fn to_hex(ids: &ObjectIdArray) -> Result<StringArray, String> {
    compute::to_hex(ids).map_err(|e| e.to_string())
}

/// Ids to their creation second, `Timestamp(Second, "UTC")`.
pub(crate) fn timestamp(ids: &ObjectIdArray) -> TimestampSecondArray {
    compute::timestamp(ids)
}

/// Ids to their 5 random bytes, `FixedSizeBinary(5)`.
pub(crate) fn random(ids: &ObjectIdArray) -> FixedSizeBinaryArray {
    compute::random(ids)
}

/// Ids to their 3-byte counter.
pub(crate) fn counter(ids: &ObjectIdArray) -> UInt32Array {
    compute::counter(ids)
}

/// Times (any `Timestamp`) to the smallest (`max == false`) or largest id of their second; a time
/// outside 1970..=2106 is an error that names it.
pub(crate) fn for_time(times: &dyn Array, max: bool) -> Result<ObjectIdArray, String> {
    let ids = if max {
        compute::max_for_timestamp(times, OnInvalid::Error)
    } else {
        compute::min_for_timestamp(times, OnInvalid::Error)
    };
    ids.map_err(|e| match &e {
        Error::TimeOutOfRange { row, seconds } => format!(
            "time {} (second {seconds}) at row {row} has no ObjectId: ids hold 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z",
            quoted(times, *row)
        ),
        _ => e.to_string(),
    })
}

/// Row `row` of `array` as DataFusion prints it, in quotes.
fn quoted(array: &dyn Array, row: usize) -> String {
    match ArrayFormatter::try_new(array, &FormatOptions::default()) {
        Ok(f) => format!("{:?}", f.value(row).to_string()),
        Err(_) => format!("at row {row}"),
    }
}
