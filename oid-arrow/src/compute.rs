//! Kernels over whole arrays, in arrow-rs's style: the input's null buffer is carried to the
//! output, each output buffer is allocated once at its final size, and no row allocates.
//!
//! | From | To | Kernel |
//! |---|---|---|
//! | hex text: `Utf8`, `LargeUtf8`, `Utf8View`, `Binary`, `LargeBinary`, `BinaryView`, `FixedSizeBinary(24)` | ids | [`parse_hex`] |
//! | hex text | `Boolean` (whether a row is an id) | [`is_valid_hex`] |
//! | ids | lowercase hex `Utf8` / `Utf8View` | [`to_hex`] / [`to_hex_view`] |
//! | ids | creation time, `Timestamp(Second, "UTC")` | [`timestamp`] |
//! | ids | random value, `FixedSizeBinary(5)` | [`random`] |
//! | ids | counter, `UInt32` | [`counter`] |
//! | `Timestamp` (any unit and zone) | the smallest / largest id of each row's second | [`min_for_timestamp`] / [`max_for_timestamp`] |
//!
//! Text is parsed and written by oid-core's own one-id functions
//! ([`ObjectId::try_parse_ascii`], [`ObjectId::encode_hex`]), so a kernel and the core agree on
//! every row. A text column whose rows are all 24 bytes long is one hex string end to end: it is
//! decoded in one pass over its values buffer.

use arrow_array::types::{
    BinaryViewType, ByteArrayType, ByteViewType, StringViewType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType,
};
use arrow_array::{
    Array, ArrowPrimitiveType, BooleanArray, FixedSizeBinaryArray, GenericByteArray,
    GenericByteViewArray, PrimitiveArray, StringArray, StringViewArray, TimestampSecondArray,
    UInt32Array, cast::AsArray,
};
use arrow_buffer::{
    ArrowNativeType, BooleanBufferBuilder, Buffer, MutableBuffer, NullBuffer, OffsetBuffer,
    ScalarBuffer,
};
use arrow_schema::{ArrowError, DataType, TimeUnit};
use oid_core::ObjectId;

use crate::array::from_parts;
use crate::{Error, ObjectIdArray};

/// What a conversion does with a row that has no answer (text that is not an id, a time outside
/// the ids' range).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OnInvalid {
    /// Fail with an error naming the first such row (and, for text, why, as oid-core says it).
    Error,
    /// Make the row null (as arrow's `cast` does with `safe: true`).
    Null,
}

/// The text types [`parse_hex`] and [`is_valid_hex`] take.
const TEXT_TYPES: &str =
    "Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView or FixedSizeBinary(24)";

/// Row access over the text arrays: each row's bytes, and the text of a block of rows when it
/// lies in one piece.
trait Rows {
    fn len(&self) -> usize;
    fn nulls(&self) -> Option<&NullBuffer>;
    fn row(&self, i: usize) -> &[u8];
    /// The length of row `i`, without slicing it.
    fn row_len(&self, i: usize) -> usize;
    /// The text of rows `start..end` in one slice, if each of them is 24 bytes or empty and the
    /// 24-byte ones follow each other in one buffer: then the slice is their hex end to end.
    fn block(&self, start: usize, end: usize) -> Option<&[u8]>;
}

impl<T: ByteArrayType> Rows for GenericByteArray<T> {
    fn len(&self) -> usize {
        Array::len(self)
    }
    fn nulls(&self) -> Option<&NullBuffer> {
        Array::nulls(self)
    }
    #[inline]
    fn row(&self, i: usize) -> &[u8] {
        let offsets = self.value_offsets();
        &self.value_data()[offsets[i].as_usize()..offsets[i + 1].as_usize()]
    }
    #[inline]
    fn row_len(&self, i: usize) -> usize {
        self.value_length(i).as_usize()
    }
    #[inline]
    fn block(&self, start: usize, end: usize) -> Option<&[u8]> {
        let offsets = self.value_offsets().get(start..=end)?;
        // Each row 24 bytes or empty: one branch-free pass over the offsets, in their own
        // width (widening each to `usize` first took twice as long).
        let (zero, hex) = (T::Offset::usize_as(0), T::Offset::usize_as(24));
        let regular = offsets[1..]
            .iter()
            .zip(offsets)
            .fold(true, |acc, (&b, &a)| {
                let len = b - a; // offsets never fall, so no overflow
                acc & ((len == hex) | (len == zero))
            });
        let (first, last) = (offsets[0].as_usize(), offsets[end - start].as_usize());
        regular
            .then(|| self.value_data().get(first..last))
            .flatten()
    }
}

impl<T: ByteViewType + ?Sized> Rows for GenericByteViewArray<T> {
    fn len(&self) -> usize {
        Array::len(self)
    }
    fn nulls(&self) -> Option<&NullBuffer> {
        Array::nulls(self)
    }
    #[inline]
    fn row(&self, i: usize) -> &[u8] {
        self.value(i).as_ref()
    }
    #[inline]
    fn row_len(&self, i: usize) -> usize {
        // The low 32 bits of a view are the row's length.
        self.views().get(i).map_or(0, |&view| view as u32 as usize)
    }
    fn block(&self, start: usize, end: usize) -> Option<&[u8]> {
        // A view of more than 12 bytes is its length, a prefix, a buffer index and an offset.
        let mut first: Option<(usize, usize)> = None;
        let mut next = (0, 0);
        for &view in self.views().get(start..end)? {
            match view as u32 {
                0 => continue,
                24 => {}
                _ => return None,
            }
            let at = (((view >> 64) as u32) as usize, (view >> 96) as u32 as usize);
            match first {
                None => first = Some(at),
                Some(_) if at != next => return None,
                Some(_) => {}
            }
            next = (at.0, at.1 + 24);
        }
        match first {
            None => Some(&[]),
            Some((buffer, offset)) => self.data_buffers().get(buffer)?.get(offset..next.1),
        }
    }
}

impl Rows for FixedSizeBinaryArray {
    fn len(&self) -> usize {
        Array::len(self)
    }
    fn nulls(&self) -> Option<&NullBuffer> {
        Array::nulls(self)
    }
    #[inline]
    fn row(&self, i: usize) -> &[u8] {
        self.value(i)
    }
    #[inline]
    fn row_len(&self, _: usize) -> usize {
        self.value_length() as usize
    }
    fn block(&self, start: usize, end: usize) -> Option<&[u8]> {
        let size = self.value_length() as usize;
        self.value_data().get(start * size..end * size)
    }
}

/// Calls `f` with the text array behind `array`, or fails with its data type.
macro_rules! with_rows {
    ($array:expr, |$rows:ident| $body:expr) => {{
        let array: &dyn Array = $array;
        match array.data_type() {
            DataType::Utf8 => {
                let $rows = array.as_string::<i32>();
                $body
            }
            DataType::LargeUtf8 => {
                let $rows = array.as_string::<i64>();
                $body
            }
            DataType::Binary => {
                let $rows = array.as_binary::<i32>();
                $body
            }
            DataType::LargeBinary => {
                let $rows = array.as_binary::<i64>();
                $body
            }
            DataType::Utf8View => {
                let $rows = array.as_byte_view::<StringViewType>();
                $body
            }
            DataType::BinaryView => {
                let $rows = array.as_byte_view::<BinaryViewType>();
                $body
            }
            DataType::FixedSizeBinary(24) => {
                let $rows = array.as_fixed_size_binary();
                $body
            }
            other => Err(Error::DataType {
                expected: TEXT_TYPES,
                found: other.clone(),
            }),
        }
    }};
}

/// Parses hex text into ids: 24 hex digits per row, any case, nothing else (no whitespace, no
/// `0x`), exactly as [`ObjectId::parse_str`] does.
///
/// Takes `Utf8`, `LargeUtf8`, `Utf8View`, `Binary`, `LargeBinary`, `BinaryView` and
/// `FixedSizeBinary(24)` arrays. Null rows stay null and are not parsed.
///
/// # Errors
///
/// [`Error::DataType`] for another input type. With [`OnInvalid::Error`],
/// [`Error::InvalidId`] naming the first row that is not an id and why; with
/// [`OnInvalid::Null`] such rows become null.
///
/// # Examples
///
/// ```
/// use arrow_array::StringArray;
/// use oid_arrow::compute::{parse_hex, OnInvalid};
///
/// let text = StringArray::from(vec![Some("507F1F77bcf86cd799439011"), None, Some("nope")]);
/// let ids = parse_hex(&text, OnInvalid::Null)?;
/// assert_eq!(ids.get(0).map(|id| id.to_hex()).unwrap(), "507f1f77bcf86cd799439011");
/// assert_eq!((ids.get(1), ids.get(2)), (None, None));
///
/// let err = parse_hex(&text, OnInvalid::Error).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "row 2 is not an ObjectId: invalid length: expected 24 hex characters, found 4"
/// );
/// # Ok::<(), oid_arrow::Error>(())
/// ```
pub fn parse_hex(array: &dyn Array, on_invalid: OnInvalid) -> Result<ObjectIdArray, Error> {
    with_rows!(array, |rows| parse_rows(rows, on_invalid))
}

/// Rows per block of the bulk paths: 6 KiB of text, so const-hex's check and decode of a block
/// run in the L1 cache.
const BLOCK: usize = 256;

fn parse_rows<R: Rows + ?Sized>(rows: &R, on_invalid: OnInvalid) -> Result<ObjectIdArray, Error> {
    let n = rows.len();
    // One pass over the whole column's offsets (or views) first: checking them block by block,
    // between the decodes, cost more than the decode itself (two streams from memory in turn).
    let whole = rows.block(0, n);
    // Then a block at a time: each block's ids are made in `block` (in the L1 cache) and
    // appended to the output, allocated once, so a bad block is the only one parsed again. One
    // call of const-hex for the whole column (into a buffer it allocates unzeroed) was 1.05x to
    // 1.36x faster on clean text (1 M rows, loaded machine), but on a bad row const-hex scans the
    // whole text again for the error's position: a column with one bad row near its end took 5x
    // the time of a clean one.
    let mut values: Vec<u8> = Vec::with_capacity(n * 12);
    let mut invalid = Invalid::new(n);
    let scratch = &mut [[0u8; 12]; BLOCK];
    let block = &mut [[0u8; 12]; BLOCK];
    match whole {
        // Every row 24 bytes, end to end: each block's hex is a slice of the whole.
        Some(text) if text.len() == n * 24 => {
            for (start, text) in (0..n).step_by(BLOCK).zip(text.chunks(BLOCK * 24)) {
                let out = &mut block[..text.len() / 24];
                parse_block(rows, start, text, out, scratch, on_invalid, &mut invalid)?;
                values.extend_from_slice(out.as_flattened());
            }
        }
        // 24-byte and empty rows (nulls as pyarrow writes them): each block's 24-byte rows
        // follow on from the last block's.
        Some(text) if text.len().is_multiple_of(24) => {
            let mut at = 0;
            for start in (0..n).step_by(BLOCK) {
                let end = n.min(start + BLOCK);
                let full = (start..end).filter(|&i| rows.row_len(i) == 24).count();
                let out = &mut block[..end - start];
                match text.get(at..at + full * 24) {
                    Some(text) => {
                        parse_block(rows, start, text, out, scratch, on_invalid, &mut invalid)?;
                    }
                    None => parse_each(rows, start, out, on_invalid, &mut invalid)?,
                }
                values.extend_from_slice(out.as_flattened());
                at += full * 24;
            }
        }
        // Other lengths somewhere (bad rows, or text not end to end in one buffer): block by
        // block, so the blocks that are hex end to end still take the bulk path.
        _ => {
            for start in (0..n).step_by(BLOCK) {
                let end = n.min(start + BLOCK);
                let out = &mut block[..end - start];
                match rows.block(start, end) {
                    Some(text) => {
                        parse_block(rows, start, text, out, scratch, on_invalid, &mut invalid)?;
                    }
                    None => parse_each(rows, start, out, on_invalid, &mut invalid)?,
                }
                values.extend_from_slice(out.as_flattened());
            }
        }
    }
    Ok(from_parts(
        Buffer::from_vec(values),
        invalid.nulls(rows.nulls()),
    ))
}

/// Parses rows `start..start + out.len()`, whose 24-byte rows are `text` end to end (the others
/// empty). Text that is all hex digits is decoded in one call of const-hex's SIMD decode
/// (validated: it fails on anything but hex digits) and, if some rows are empty, spread out.
/// Any other block (a bad row, a null row over bytes that are not hex, an empty row that is not
/// null) is parsed row by row by oid-core, which gives the exact error.
fn parse_block<R: Rows + ?Sized>(
    rows: &R,
    start: usize,
    text: &[u8],
    out: &mut [[u8; 12]],
    scratch: &mut [[u8; 12]; BLOCK],
    on_invalid: OnInvalid,
    invalid: &mut Invalid,
) -> Result<(), Error> {
    if text.len() == out.len() * 24 {
        if const_hex::decode_to_slice(text, out.as_flattened_mut()).is_err() {
            parse_each(rows, start, out, on_invalid, invalid)?;
        }
        return Ok(());
    }
    let Some(packed) = scratch.get_mut(..text.len() / 24) else {
        return parse_each(rows, start, out, on_invalid, invalid);
    };
    if !text.len().is_multiple_of(24)
        || const_hex::decode_to_slice(text, packed.as_flattened_mut()).is_err()
    {
        return parse_each(rows, start, out, on_invalid, invalid);
    }
    let nulls = rows.nulls();
    let mut packed = packed.iter();
    for (i, out) in (start..).zip(out.iter_mut()) {
        *out = if rows.row_len(i) == 24 {
            packed.next().copied().unwrap_or_default()
        } else if nulls.is_some_and(|nulls| nulls.is_null(i)) {
            [0; 12]
        } else {
            parse_one(rows, i, on_invalid, invalid)?
        };
    }
    Ok(())
}

/// Rows found invalid by a lenient kernel, as a validity bitmap made on the first one.
struct Invalid {
    len: usize,
    valid: Option<BooleanBufferBuilder>,
}

impl Invalid {
    const fn new(len: usize) -> Self {
        Invalid { len, valid: None }
    }

    fn set(&mut self, row: usize) {
        let len = self.len;
        self.valid
            .get_or_insert_with(|| {
                let mut b = BooleanBufferBuilder::new(len);
                b.append_n(len, true);
                b
            })
            .set_bit(row, false);
    }

    /// The input's nulls with the invalid rows added.
    fn nulls(self, input: Option<&NullBuffer>) -> Option<NullBuffer> {
        match self.valid {
            None => input.cloned(),
            Some(mut valid) => NullBuffer::union(input, Some(&NullBuffer::new(valid.finish()))),
        }
    }
}

/// Parses rows `first..first + out.len()` one by one with oid-core's parser.
// Out of line (not `#[cold]`: it is the main path of views that do not lie end to end): kept
// out of the bulk loops, whose code then does not depend on the mode.
#[inline(never)]
fn parse_each<R: Rows + ?Sized>(
    rows: &R,
    first: usize,
    out: &mut [[u8; 12]],
    on_invalid: OnInvalid,
    invalid: &mut Invalid,
) -> Result<(), Error> {
    let nulls = rows.nulls();
    for (i, out) in (first..).zip(out) {
        *out = if nulls.is_some_and(|nulls| nulls.is_null(i)) {
            [0; 12]
        } else {
            parse_one(rows, i, on_invalid, invalid)?
        };
    }
    Ok(())
}

/// Parses row `i` (not null) with oid-core's parser: its bytes, or zeros for a row made null.
#[inline]
fn parse_one<R: Rows + ?Sized>(
    rows: &R,
    i: usize,
    on_invalid: OnInvalid,
    invalid: &mut Invalid,
) -> Result<[u8; 12], Error> {
    match ObjectId::try_parse_ascii(rows.row(i)) {
        Ok(id) => Ok(id.bytes()),
        Err(error) => match on_invalid {
            OnInvalid::Error => Err(Error::InvalidId { row: i, error }),
            OnInvalid::Null => {
                invalid.set(i);
                Ok([0; 12])
            }
        },
    }
}

/// Whether each row is an id's hex form (24 hex digits, any case); null rows stay null.
///
/// # Errors
///
/// [`Error::DataType`] for an input type [`parse_hex`] does not take.
///
/// # Examples
///
/// ```
/// use arrow_array::{Array, StringArray};
/// use oid_arrow::compute::is_valid_hex;
///
/// let text = StringArray::from(vec![Some("507f1f77bcf86cd799439011"), Some("x"), None]);
/// let valid = is_valid_hex(&text)?;
/// assert!(valid.value(0) && !valid.value(1) && valid.is_null(2));
/// # Ok::<(), oid_arrow::Error>(())
/// ```
pub fn is_valid_hex(array: &dyn Array) -> Result<BooleanArray, Error> {
    with_rows!(array, |rows| Ok(valid_rows(rows)))
}

fn valid_rows<R: Rows + ?Sized>(rows: &R) -> BooleanArray {
    let n = rows.len();
    let one = |i| ObjectId::try_parse_ascii(rows.row(i)).is_ok();
    let mut bits = BooleanBufferBuilder::new(n);
    match rows.block(0, n) {
        // Every row 24 bytes, end to end (one pass over the offsets, as `parse_rows` does): a
        // block of hex is a block of ids, other blocks row by row.
        Some(text) if text.len() == n * 24 => {
            for (start, text) in (0..n).step_by(BLOCK).zip(text.chunks(BLOCK * 24)) {
                let end = start + text.len() / 24;
                if const_hex::check_raw(text) {
                    bits.append_n(end - start, true);
                } else {
                    (start..end).for_each(|i| bits.append(one(i)));
                }
            }
        }
        _ => {
            for start in (0..n).step_by(BLOCK) {
                let end = n.min(start + BLOCK);
                match rows.block(start, end) {
                    Some(text)
                        if text.len() == (end - start) * 24 && const_hex::check_raw(text) =>
                    {
                        bits.append_n(end - start, true);
                    }
                    _ => (start..end).for_each(|i| bits.append(one(i))),
                }
            }
        }
    }
    let bits = bits.finish();
    BooleanArray::new(bits, rows.nulls().cloned())
}

/// Writes `ids` as lowercase hex into `text` (`24 * ids.len()` bytes, null rows included, so
/// the offsets step by 24): a block at a time with const-hex's SIMD encode.
fn encode_into(ids: &[[u8; 12]], text: &mut MutableBuffer) {
    let mut block = [[0u8; 24]; BLOCK];
    for ids in ids.chunks(BLOCK) {
        let out = &mut block[..ids.len()];
        if const_hex::encode_to_slice(ids.as_flattened(), out.as_flattened_mut()).is_err() {
            // Not reached (the lengths agree); oid-core's encoder as the fallback, not a panic.
            for (id, out) in ids.iter().zip(out.iter_mut()) {
                *out = *ObjectId::from_bytes(*id).to_hex().as_bytes();
            }
        }
        text.extend_from_slice(out.as_flattened());
    }
}

/// Each id as 24 lowercase hex digits, a `Utf8` array (nulls carried).
///
/// # Errors
///
/// [`Error::Arrow`] if the text does not fit `Utf8`'s 32-bit offsets (more than 89,478,485
/// rows); split the array.
///
/// # Examples
///
/// ```
/// use arrow_array::Array;
/// use oid_arrow::{compute::to_hex, ObjectIdArray};
/// use oid_core::ObjectId;
///
/// let ids: ObjectIdArray = [Some(ObjectId::MAX), None].into_iter().collect();
/// let text = to_hex(&ids)?;
/// assert_eq!(text.value(0), "ffffffffffffffffffffffff");
/// assert!(text.is_null(1));
/// # Ok::<(), oid_arrow::Error>(())
/// ```
pub fn to_hex(ids: &ObjectIdArray) -> Result<StringArray, Error> {
    let n = ids.len();
    if n.checked_mul(24).is_none_or(|b| b > i32::MAX as usize) {
        return Err(ArrowError::OffsetOverflowError(n.saturating_mul(24)).into());
    }
    let mut text = MutableBuffer::with_capacity(n * 24);
    encode_into(ids.values(), &mut text);
    // 0, 24, 48, ...: in range (checked above) and rising, as `OffsetBuffer::new` asserts.
    let offsets: ScalarBuffer<i32> = (0..=n).map(|i| (i * 24) as i32).collect();
    let offsets = OffsetBuffer::new(offsets);
    let nulls = ids.nulls().cloned();
    if text.len() != n * 24 || nulls.as_ref().is_some_and(|nulls| nulls.len() != n) {
        // Not reached: the checked constructor, rather than a wrong promise below.
        return Ok(StringArray::try_new(offsets, text.into(), nulls)?);
    }
    debug_assert!(text.as_slice().is_ascii());
    // SAFETY: `try_new` would not fail, which is `new_unchecked`'s contract: the offsets rise
    // from 0 by 24 to `text.len()` (checked just above), so every row is in bounds; the text is
    // the hex digits const-hex's encoder (or oid-core's) wrote, ASCII only, so UTF-8 with a
    // character boundary at every offset; the null buffer has one bit per row (checked above).
    // Unchecked because the checks cost about as much as the conversion: on 1 M rows
    // `StringArray::try_new`'s checks of this output took 0.8x the time of this whole function
    // (benches/columns.rs, README).
    #[allow(unsafe_code)]
    let strings = unsafe { StringArray::new_unchecked(offsets, text.into(), nulls) };
    Ok(strings)
}

/// Each id as 24 lowercase hex digits, a `Utf8View` array (nulls carried): one data buffer per
/// up to 2^26 rows, each view pointing into it.
///
/// # Examples
///
/// ```
/// use arrow_array::Array;
/// use oid_arrow::{compute::to_hex_view, ObjectIdArray};
/// use oid_core::ObjectId;
///
/// let ids: ObjectIdArray = [ObjectId::MIN].into_iter().collect();
/// assert_eq!(to_hex_view(&ids)?.value(0), "000000000000000000000000");
/// # Ok::<(), oid_arrow::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Arrow`] if arrow-rs refuses the views (not expected).
pub fn to_hex_view(ids: &ObjectIdArray) -> Result<StringViewArray, Error> {
    const ROWS_PER_BUFFER: usize = 1 << 26;
    let n = ids.len();
    let mut views: Vec<u128> = Vec::with_capacity(n);
    let mut buffers = Vec::with_capacity(n.div_ceil(ROWS_PER_BUFFER));
    for (b, chunk) in ids.values().chunks(ROWS_PER_BUFFER).enumerate() {
        let mut text = MutableBuffer::with_capacity(chunk.len() * 24);
        encode_into(chunk, &mut text);
        views.extend(
            text.as_slice()
                .as_chunks::<24>()
                .0
                .iter()
                .enumerate()
                .map(|(k, hex)| {
                    let prefix = u32::from_le_bytes([hex[0], hex[1], hex[2], hex[3]]);
                    24u128
                        | (u128::from(prefix) << 32)
                        | ((b as u128) << 64)
                        | (((k * 24) as u128) << 96)
                }),
        );
        buffers.push(Buffer::from(text));
    }
    let views = ScalarBuffer::from(views);
    let nulls = ids.nulls().cloned();
    if views.len() != n || nulls.as_ref().is_some_and(|nulls| nulls.len() != n) {
        // Not reached: the checked constructor, rather than a wrong promise below.
        return Ok(StringViewArray::try_new(views, buffers, nulls)?);
    }
    // Typed here: arrow-rs 59's `new_unchecked` is generic over the buffers (60's takes this).
    let buffers: std::sync::Arc<[Buffer]> = buffers.into();
    // SAFETY: `try_new` would not fail, which is `new_unchecked`'s contract: each view is of a
    // 24-byte string (over 12 bytes, so not inlined) at offset `24 * k` of buffer `b`, which
    // holds `24 * rows` bytes, so every view is in bounds, and its prefix is the first four of
    // those bytes; the bytes are hex digits const-hex's encoder (or oid-core's) wrote, ASCII
    // only, so UTF-8; the null buffer has one bit per row (checked above). Unchecked because
    // `StringViewArray::try_new` checks every view and its UTF-8 one by one: on 1 M rows 2.3x
    // the time of this whole function (benches/columns.rs, README).
    #[allow(unsafe_code)]
    let strings = unsafe { StringViewArray::new_unchecked(views, buffers, nulls) };
    Ok(strings)
}

/// Each id's creation time, `Timestamp(Second, "UTC")` (nulls carried).
///
/// # Examples
///
/// ```
/// use oid_arrow::{compute::timestamp, ObjectIdArray};
/// use oid_core::ObjectId;
///
/// let ids: ObjectIdArray = [ObjectId::parse_str("507f1f77bcf86cd799439011")?].into_iter().collect();
/// let time = timestamp(&ids);
/// assert_eq!(time.value(0), 1_350_508_407);
/// assert_eq!(time.timezone(), Some("UTC"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn timestamp(ids: &ObjectIdArray) -> TimestampSecondArray {
    let secs: Vec<i64> = ids
        .values()
        .iter()
        .map(|b| i64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])))
        .collect();
    TimestampSecondArray::new(ScalarBuffer::from(secs), ids.nulls().cloned()).with_timezone("UTC")
}

/// Each id's 5-byte random value (bytes 4 to 8), `FixedSizeBinary(5)` (nulls carried).
///
/// # Examples
///
/// ```
/// use oid_arrow::{compute::random, ObjectIdArray};
/// use oid_core::ObjectId;
///
/// let id = ObjectId::from_parts(1_700_000_000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
/// let ids: ObjectIdArray = [id].into_iter().collect();
/// assert_eq!(random(&ids).value(0), [0x3f, 0x2a, 0x91, 0xc8, 0xd4]);
/// ```
pub fn random(ids: &ObjectIdArray) -> FixedSizeBinaryArray {
    let mut out = MutableBuffer::from_len_zeroed(ids.len() * 5);
    for (id, out) in ids
        .values()
        .iter()
        .zip(out.as_slice_mut().as_chunks_mut::<5>().0)
    {
        *out = [id[4], id[5], id[6], id[7], id[8]];
    }
    // The lengths agree by construction; an empty array is the fallback that never happens.
    FixedSizeBinaryArray::try_new(5, out.into(), ids.nulls().cloned())
        .unwrap_or_else(|_| FixedSizeBinaryArray::new_null(5, 0))
}

/// Each id's 3-byte counter, `UInt32` (nulls carried).
///
/// # Examples
///
/// ```
/// use oid_arrow::{compute::counter, ObjectIdArray};
/// use oid_core::ObjectId;
///
/// let ids: ObjectIdArray = [ObjectId::from_parts(0, [0; 5], 12345)].into_iter().collect();
/// assert_eq!(counter(&ids).value(0), 12345);
/// ```
pub fn counter(ids: &ObjectIdArray) -> UInt32Array {
    let counters: Vec<u32> = ids
        .values()
        .iter()
        .map(|b| u32::from_be_bytes([0, b[9], b[10], b[11]]))
        .collect();
    UInt32Array::new(ScalarBuffer::from(counters), ids.nulls().cloned())
}

/// The smallest id of each time's second (random value and counter all zero): the inclusive
/// lower bound of "created at or after", as [`ObjectId::min_for_timestamp`] and
/// `oid_core::IdRange` compute it.
///
/// Takes `Timestamp` arrays of any unit and time zone; a time is rounded down to its second
/// (also before 1970: -0.5 s is second -1).
///
/// # Errors
///
/// [`Error::DataType`] if `times` is not a `Timestamp` array. A time before
/// 1970-01-01T00:00:00Z or after 2106-02-07T06:28:15Z has no id: with [`OnInvalid::Error`] the
/// first such row is an [`Error::TimeOutOfRange`]; with [`OnInvalid::Null`] it becomes null.
///
/// # Examples
///
/// ```
/// use arrow_array::TimestampMillisecondArray;
/// use oid_arrow::compute::{max_for_timestamp, min_for_timestamp, OnInvalid};
///
/// let times = TimestampMillisecondArray::from(vec![1_700_000_000_500, -1]);
/// let lo = min_for_timestamp(&times, OnInvalid::Null)?;
/// let hi = max_for_timestamp(&times, OnInvalid::Null)?;
/// assert_eq!(lo.value(0).to_hex(), "6553f1000000000000000000");
/// assert_eq!(hi.value(0).to_hex(), "6553f100ffffffffffffffff");
/// assert_eq!(lo.get(1), None);
///
/// let err = min_for_timestamp(&times, OnInvalid::Error).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "row 1: time -1 s is out of the ObjectId range (0 to 4294967295 s since 1970-01-01T00:00:00Z)"
/// );
/// # Ok::<(), oid_arrow::Error>(())
/// ```
pub fn min_for_timestamp(times: &dyn Array, on_invalid: OnInvalid) -> Result<ObjectIdArray, Error> {
    ids_for_times(times, on_invalid, ObjectId::min_for_timestamp)
}

/// The largest id of each time's second (random value and counter all `0xff`): the inclusive
/// upper bound of "created at or before", as [`ObjectId::max_for_timestamp`] computes it.
/// Otherwise as [`min_for_timestamp`].
///
/// # Errors
///
/// As [`min_for_timestamp`].
pub fn max_for_timestamp(times: &dyn Array, on_invalid: OnInvalid) -> Result<ObjectIdArray, Error> {
    ids_for_times(times, on_invalid, ObjectId::max_for_timestamp)
}

fn ids_for_times(
    times: &dyn Array,
    on_invalid: OnInvalid,
    make: fn(u32) -> ObjectId,
) -> Result<ObjectIdArray, Error> {
    match times.data_type() {
        DataType::Timestamp(TimeUnit::Second, _) => {
            seconds_to_ids::<TimestampSecondType>(times, 1, on_invalid, make)
        }
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            seconds_to_ids::<TimestampMillisecondType>(times, 1_000, on_invalid, make)
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            seconds_to_ids::<TimestampMicrosecondType>(times, 1_000_000, on_invalid, make)
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            seconds_to_ids::<TimestampNanosecondType>(times, 1_000_000_000, on_invalid, make)
        }
        other => Err(Error::DataType {
            expected: "Timestamp",
            found: other.clone(),
        }),
    }
}

fn seconds_to_ids<T: ArrowPrimitiveType<Native = i64>>(
    times: &dyn Array,
    per_second: i64,
    on_invalid: OnInvalid,
    make: fn(u32) -> ObjectId,
) -> Result<ObjectIdArray, Error> {
    let times: &PrimitiveArray<T> = times.as_primitive::<T>();
    let n = times.len();
    let nulls = times.nulls();
    let mut values = MutableBuffer::from_len_zeroed(n * 12);
    let out = values.as_slice_mut().as_chunks_mut::<12>().0;
    let mut invalid = Invalid::new(n);
    for (i, (t, out)) in times.values().iter().zip(out).enumerate() {
        let secs = t.div_euclid(per_second);
        match u32::try_from(secs) {
            Ok(secs) => *out = make(secs).bytes(),
            Err(_) if nulls.is_some_and(|nulls| nulls.is_null(i)) => {}
            Err(_) => match on_invalid {
                OnInvalid::Error => {
                    return Err(Error::TimeOutOfRange {
                        row: i,
                        seconds: secs,
                    });
                }
                OnInvalid::Null => invalid.set(i),
            },
        }
    }
    Ok(from_parts(values.into(), invalid.nulls(nulls)))
}
