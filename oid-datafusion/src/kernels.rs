//! The array work, one place: every function computes its column here.
//!
//! Each kernel takes and returns Arrow arrays; nulls pass through.

use arrow::array::{
    Array, BooleanArray, FixedSizeBinaryArray, StringArray, TimestampSecondArray, UInt32Array,
};
use oid_std::ObjectId;

/// 24-digit hex text to ids; the first invalid value is an error that names it.
pub(crate) fn parse_strict(text: &StringArray) -> Result<FixedSizeBinaryArray, String> {
    let mut out = Vec::with_capacity(text.len());
    for (row, value) in text.iter().enumerate() {
        match value {
            None => out.push(None),
            Some(s) => match ObjectId::parse_str(s) {
                Ok(id) => out.push(Some(id.bytes())),
                Err(e) => {
                    return Err(format!("invalid ObjectId {s:?} at row {row}: {e}"));
                }
            },
        }
    }
    fsb(out)
}

/// 24-digit hex text to ids; an invalid value becomes null.
pub(crate) fn parse_lenient(text: &StringArray) -> Result<FixedSizeBinaryArray, String> {
    fsb(text
        .iter()
        .map(|v| {
            v.and_then(|s| ObjectId::parse_str(s).ok())
                .map(|id| id.bytes())
        })
        .collect())
}

/// Whether each text is a 24-digit hex ObjectId.
pub(crate) fn is_valid(text: &StringArray) -> BooleanArray {
    text.iter().map(|v| v.map(ObjectId::is_valid)).collect()
}

/// Ids to lowercase hex.
pub(crate) fn to_hex(ids: &FixedSizeBinaryArray) -> StringArray {
    ids_iter(ids)
        .map(|v| v.map(|id| id.to_hex().as_str().to_owned()))
        .collect()
}

/// Ids to their creation second (UTC).
pub(crate) fn timestamp(ids: &FixedSizeBinaryArray) -> TimestampSecondArray {
    ids_iter(ids)
        .map(|v| v.map(|id| i64::from(id.timestamp())))
        .collect::<TimestampSecondArray>()
        .with_timezone("UTC")
}

/// Ids to their 5 random bytes.
pub(crate) fn random(ids: &FixedSizeBinaryArray) -> Result<FixedSizeBinaryArray, String> {
    let v: Vec<Option<[u8; 5]>> = ids_iter(ids)
        .map(|v| {
            v.map(|id| {
                let b = id.bytes();
                [b[4], b[5], b[6], b[7], b[8]]
            })
        })
        .collect();
    FixedSizeBinaryArray::try_from_sparse_iter_with_size(v.into_iter(), 5)
        .map_err(|e| e.to_string())
}

/// Ids to their 3-byte counter.
pub(crate) fn counter(ids: &FixedSizeBinaryArray) -> UInt32Array {
    ids_iter(ids)
        .map(|v| {
            v.map(|id| {
                let b = id.bytes();
                u32::from_be_bytes([0, b[9], b[10], b[11]])
            })
        })
        .collect()
}

/// Seconds to the smallest (`max == false`) or largest id of that second; a second outside
/// 1970..=2106 is an error that names it.
pub(crate) fn for_time(
    secs: &TimestampSecondArray,
    max: bool,
) -> Result<FixedSizeBinaryArray, String> {
    let mut out = Vec::with_capacity(secs.len());
    for v in secs.iter() {
        out.push(match v {
            None => None,
            Some(s) => {
                let s = u32::try_from(s).map_err(|_| {
                    format!("time {s} (seconds since 1970) is outside an ObjectId's range (1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z)")
                })?;
                let id = if max { ObjectId::max_for_timestamp(s) } else { ObjectId::min_for_timestamp(s) };
                Some(id.bytes())
            }
        });
    }
    fsb(out)
}

fn ids_iter(ids: &FixedSizeBinaryArray) -> impl Iterator<Item = Option<ObjectId>> + '_ {
    ids.iter().map(|v| {
        v.and_then(|b| <[u8; 12]>::try_from(b).ok())
            .map(ObjectId::from_bytes)
    })
}

fn fsb(values: Vec<Option<[u8; 12]>>) -> Result<FixedSizeBinaryArray, String> {
    FixedSizeBinaryArray::try_from_sparse_iter_with_size(values.into_iter(), 12)
        .map_err(|e| e.to_string())
}
