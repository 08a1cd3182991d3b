//! The typed column: [`ObjectIdArray`] over a `FixedSizeBinaryArray`.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, FixedSizeBinaryArray, RecordBatch};
use arrow_buffer::{Buffer, MutableBuffer, NullBuffer, NullBufferBuilder};
use oid_core::ObjectId;

use crate::{Accept, Error, check_field};

/// A column of ObjectIds: a [`FixedSizeBinaryArray`] of 12-byte values, read as [`ObjectId`]s.
///
/// Converting to and from the `FixedSizeBinaryArray` moves its buffers, never copies them. Null
/// slots hold 12 bytes like any other (zeros when built here) that are not an id.
///
/// # Examples
///
/// ```
/// use oid_arrow::ObjectIdArray;
/// use oid_core::ObjectId;
///
/// let a = ObjectId::parse_str("507f1f77bcf86cd799439011")?;
/// let ids: ObjectIdArray = [Some(a), None].into_iter().collect();
/// assert_eq!((ids.len(), ids.null_count()), (2, 1));
/// assert_eq!(ids.get(0), Some(a));
/// assert_eq!(ids.get(1), None);
/// assert_eq!(ids.iter().collect::<Vec<_>>(), [Some(a), None]);
///
/// // To arrow and back, without copying.
/// let inner = ids.into_inner();
/// let ids = ObjectIdArray::try_from(inner)?;
/// assert_eq!(ids.value(0), a);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectIdArray {
    inner: FixedSizeBinaryArray,
}

impl ObjectIdArray {
    /// An array over 12-byte `values` (`len = values.len() / 12`) with an optional null buffer.
    ///
    /// # Errors
    ///
    /// [`Error::Arrow`] if `values.len()` is not a multiple of 12 or the null buffer's length
    /// differs.
    pub fn try_new(values: Buffer, nulls: Option<NullBuffer>) -> Result<Self, Error> {
        if !values.len().is_multiple_of(ObjectId::BYTES) {
            return Err(Error::Arrow(
                arrow_schema::ArrowError::InvalidArgumentError(format!(
                    "values of {} bytes are not 12-byte ObjectIds",
                    values.len()
                )),
            ));
        }
        Ok(ObjectIdArray {
            inner: FixedSizeBinaryArray::try_new(12, values, nulls)?,
        })
    }

    /// The ids of the `ObjectIdArray` named `name` in `batch`.
    ///
    /// # Errors
    ///
    /// [`Error::MissingColumn`], or the field's [`check_field`] error.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::RecordBatch;
    /// use arrow_schema::Schema;
    /// use oid_arrow::{Accept, ObjectIdArray};
    /// use oid_core::ObjectId;
    ///
    /// let ids: ObjectIdArray = [ObjectId::MIN, ObjectId::MAX].into_iter().collect();
    /// let schema = Arc::new(Schema::new(vec![oid_arrow::field("_id", false)]));
    /// let batch = RecordBatch::try_new(schema, vec![ids.clone().into()])?;
    /// assert_eq!(ObjectIdArray::from_batch(&batch, "_id", Accept::Extension)?, ids);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_batch(batch: &RecordBatch, name: &str, accept: Accept) -> Result<Self, Error> {
        let schema = batch.schema_ref();
        let (index, field) = schema
            .column_with_name(name)
            .ok_or_else(|| Error::MissingColumn(name.to_owned()))?;
        check_field(field, accept)?;
        ObjectIdArray::try_from(batch.column(index).as_ref())
    }

    /// The number of rows, nulls included.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether the array has no rows.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The number of null rows.
    pub fn null_count(&self) -> usize {
        self.inner.null_count()
    }

    /// The null buffer, if any row may be null.
    pub fn nulls(&self) -> Option<&NullBuffer> {
        self.inner.nulls()
    }

    /// Whether row `i` is null.
    ///
    /// # Panics
    ///
    /// If `i >= len()`, as arrow-rs's arrays do.
    pub fn is_null(&self, i: usize) -> bool {
        self.inner.is_null(i)
    }

    /// The id in row `i`, whether or not the row is null (a null row's bytes are not an id).
    ///
    /// # Panics
    ///
    /// If `i >= len()`, as arrow-rs's `value` does; [`get`](ObjectIdArray::get) never panics.
    pub fn value(&self, i: usize) -> ObjectId {
        let bytes = self.inner.value(i);
        let mut id = [0u8; 12];
        id.copy_from_slice(bytes);
        ObjectId::from_bytes(id)
    }

    /// The id in row `i`, or `None` if the row is null or out of bounds.
    pub fn get(&self, i: usize) -> Option<ObjectId> {
        (i < self.len() && self.inner.is_valid(i)).then(|| self.value(i))
    }

    /// The rows in order, `None` for a null.
    pub fn iter(&self) -> ObjectIdIter<'_> {
        ObjectIdIter {
            array: self,
            front: 0,
            back: self.len(),
        }
    }

    /// The ids' bytes, 12 per row, nulls included (`len() * 12` bytes, from the array's offset).
    pub fn values(&self) -> &[[u8; 12]] {
        self.inner.value_data().as_chunks::<12>().0
    }

    /// A zero-copy slice of `len` rows from `offset`.
    ///
    /// # Panics
    ///
    /// If `offset + len > self.len()`, as arrow-rs's `slice` does.
    pub fn slice(&self, offset: usize, len: usize) -> ObjectIdArray {
        ObjectIdArray {
            inner: self.inner.slice(offset, len),
        }
    }

    /// The underlying array (moved, not copied).
    pub fn into_inner(self) -> FixedSizeBinaryArray {
        self.inner
    }

    /// The underlying array.
    pub const fn as_inner(&self) -> &FixedSizeBinaryArray {
        &self.inner
    }
}

impl TryFrom<FixedSizeBinaryArray> for ObjectIdArray {
    type Error = Error;

    /// Takes the array if its values are 12 bytes long (buffers moved, not copied).
    fn try_from(inner: FixedSizeBinaryArray) -> Result<Self, Error> {
        if inner.value_length() != 12 {
            return Err(Error::DataType {
                expected: "FixedSizeBinary(12)",
                found: inner.data_type().clone(),
            });
        }
        Ok(ObjectIdArray { inner })
    }
}

impl TryFrom<&dyn Array> for ObjectIdArray {
    type Error = Error;

    /// Takes a `FixedSizeBinary(12)` array (its buffers shared, not copied).
    fn try_from(array: &dyn Array) -> Result<Self, Error> {
        match array.as_any().downcast_ref::<FixedSizeBinaryArray>() {
            Some(a) => ObjectIdArray::try_from(a.clone()),
            None => Err(Error::DataType {
                expected: "FixedSizeBinary(12)",
                found: array.data_type().clone(),
            }),
        }
    }
}

impl TryFrom<ArrayRef> for ObjectIdArray {
    type Error = Error;

    /// Takes a `FixedSizeBinary(12)` array (its buffers shared, not copied).
    fn try_from(array: ArrayRef) -> Result<Self, Error> {
        ObjectIdArray::try_from(array.as_ref())
    }
}

impl From<ObjectIdArray> for FixedSizeBinaryArray {
    fn from(ids: ObjectIdArray) -> Self {
        ids.inner
    }
}

impl From<ObjectIdArray> for ArrayRef {
    fn from(ids: ObjectIdArray) -> Self {
        Arc::new(ids.inner)
    }
}

impl From<Vec<ObjectId>> for ObjectIdArray {
    fn from(ids: Vec<ObjectId>) -> Self {
        ids.into_iter().collect()
    }
}

impl From<Vec<Option<ObjectId>>> for ObjectIdArray {
    fn from(ids: Vec<Option<ObjectId>>) -> Self {
        ids.into_iter().collect()
    }
}

/// Builds the array from its values buffer and nulls; the lengths agree by construction.
pub(crate) fn from_parts(values: Buffer, nulls: Option<NullBuffer>) -> ObjectIdArray {
    let len = values.len() / 12;
    let nulls = nulls.filter(|n| n.len() == len);
    ObjectIdArray {
        inner: FixedSizeBinaryArray::try_new(12, values, nulls.clone())
            .unwrap_or_else(|_| FixedSizeBinaryArray::new_null(12, 0)),
    }
}

impl FromIterator<ObjectId> for ObjectIdArray {
    fn from_iter<I: IntoIterator<Item = ObjectId>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut values = MutableBuffer::new(iter.size_hint().0 * 12);
        for id in iter {
            values.extend_from_slice(id.as_bytes());
        }
        from_parts(values.into(), None)
    }
}

impl FromIterator<Option<ObjectId>> for ObjectIdArray {
    fn from_iter<I: IntoIterator<Item = Option<ObjectId>>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let hint = iter.size_hint().0;
        let mut values = MutableBuffer::new(hint * 12);
        let mut nulls = NullBufferBuilder::new(hint);
        for id in iter {
            match id {
                Some(id) => {
                    values.extend_from_slice(id.as_bytes());
                    nulls.append_non_null();
                }
                None => {
                    values.extend_zeros(12);
                    nulls.append_null();
                }
            }
        }
        from_parts(values.into(), nulls.finish())
    }
}

/// Joins the batches' ids into one array: one values buffer, one null buffer.
#[cfg_attr(not(any(feature = "parquet", feature = "ipc")), allow(dead_code))]
pub(crate) fn concat(
    parts: impl Iterator<Item = Result<ObjectIdArray, Error>>,
) -> Result<ObjectIdArray, Error> {
    let parts: Vec<ObjectIdArray> = parts.collect::<Result<_, _>>()?;
    let n: usize = parts.iter().map(ObjectIdArray::len).sum();
    if parts.len() == 1 {
        if let Some(only) = parts.into_iter().next() {
            return Ok(only);
        }
        return Ok(ObjectIdArray::from(Vec::<ObjectId>::new()));
    }
    let mut values = MutableBuffer::new(n * 12);
    let mut nulls = NullBufferBuilder::new(n);
    for part in &parts {
        values.extend_from_slice(part.values().as_flattened());
        match part.nulls() {
            Some(p) => nulls.append_buffer(p),
            None => nulls.append_n_non_nulls(part.len()),
        }
    }
    ObjectIdArray::try_new(values.into(), nulls.finish())
}

/// The rows of an [`ObjectIdArray`], `None` for a null. From [`ObjectIdArray::iter`].
#[derive(Debug, Clone)]
pub struct ObjectIdIter<'a> {
    array: &'a ObjectIdArray,
    front: usize,
    back: usize,
}

impl Iterator for ObjectIdIter<'_> {
    type Item = Option<ObjectId>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        let i = self.front;
        self.front += 1;
        Some(self.array.get(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for ObjectIdIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        Some(self.array.get(self.back))
    }
}

impl ExactSizeIterator for ObjectIdIter<'_> {}

impl<'a> IntoIterator for &'a ObjectIdArray {
    type Item = Option<ObjectId>;
    type IntoIter = ObjectIdIter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
