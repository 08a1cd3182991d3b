//! The error for a BSON value that is not an ObjectId.

use core::fmt;

use bson::spec::ElementType;

/// A BSON value was expected to be an ObjectId (element type `0x07`) but was something else.
///
/// Returned by [`ObjectIdExt::try_from_bson_value`](crate::ObjectIdExt::try_from_bson_value) and
/// [`ObjectIdExt::try_from_raw_bson`](crate::ObjectIdExt::try_from_raw_bson). The message names
/// what the value was; [`found`](NotAnObjectId::found) gives its element type.
///
/// # Examples
///
/// ```
/// use bson::{spec::ElementType, Bson};
/// use oid_bson::{ObjectId, ObjectIdExt};
///
/// let err = ObjectId::try_from_bson_value(&Bson::String("507f1f77bcf86cd799439011".into()))
///     .unwrap_err();
/// assert_eq!(err.to_string(), "expected a BSON ObjectId, found a string");
/// assert_eq!(err.found(), ElementType::String);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAnObjectId {
    found: ElementType,
}

impl NotAnObjectId {
    pub(crate) const fn new(found: ElementType) -> Self {
        Self { found }
    }

    /// The element type of the value that was found instead of an ObjectId.
    ///
    /// # Examples
    ///
    /// ```
    /// use bson::{spec::ElementType, Bson};
    /// use oid_bson::{ObjectId, ObjectIdExt};
    ///
    /// let err = ObjectId::try_from_bson_value(&Bson::Int32(7)).unwrap_err();
    /// assert_eq!(err.found(), ElementType::Int32);
    /// ```
    pub const fn found(&self) -> ElementType {
        self.found
    }
}

/// What a value of this element type is called in messages, with its article.
pub(crate) const fn describe(element_type: ElementType) -> &'static str {
    match element_type {
        ElementType::Double => "a double",
        ElementType::String => "a string",
        ElementType::EmbeddedDocument => "an embedded document",
        ElementType::Array => "an array",
        ElementType::Binary => "binary data",
        ElementType::Undefined => "undefined",
        ElementType::ObjectId => "an ObjectId",
        ElementType::Boolean => "a boolean",
        ElementType::DateTime => "a datetime",
        ElementType::Null => "null",
        ElementType::RegularExpression => "a regular expression",
        ElementType::DbPointer => "a DBPointer",
        ElementType::JavaScriptCode => "JavaScript code",
        ElementType::Symbol => "a symbol",
        ElementType::JavaScriptCodeWithScope => "JavaScript code with scope",
        ElementType::Int32 => "a 32-bit integer",
        ElementType::Timestamp => "a timestamp",
        ElementType::Int64 => "a 64-bit integer",
        ElementType::Decimal128 => "a decimal128",
        ElementType::MaxKey => "MaxKey",
        ElementType::MinKey => "MinKey",
    }
}

impl fmt::Display for NotAnObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a BSON ObjectId, found {}",
            describe(self.found)
        )
    }
}

impl std::error::Error for NotAnObjectId {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_type_has_a_distinct_description() {
        let all = [
            ElementType::Double,
            ElementType::String,
            ElementType::EmbeddedDocument,
            ElementType::Array,
            ElementType::Binary,
            ElementType::Undefined,
            ElementType::ObjectId,
            ElementType::Boolean,
            ElementType::DateTime,
            ElementType::Null,
            ElementType::RegularExpression,
            ElementType::DbPointer,
            ElementType::JavaScriptCode,
            ElementType::Symbol,
            ElementType::JavaScriptCodeWithScope,
            ElementType::Int32,
            ElementType::Timestamp,
            ElementType::Int64,
            ElementType::Decimal128,
            ElementType::MaxKey,
            ElementType::MinKey,
        ];
        let mut seen = std::collections::HashSet::new();
        for t in all {
            assert!(seen.insert(describe(t)), "duplicate description for {t:?}");
        }
        assert_eq!(
            NotAnObjectId::new(ElementType::EmbeddedDocument).to_string(),
            "expected a BSON ObjectId, found an embedded document"
        );
        assert_eq!(
            NotAnObjectId::new(ElementType::Null).to_string(),
            "expected a BSON ObjectId, found null"
        );
    }
}
