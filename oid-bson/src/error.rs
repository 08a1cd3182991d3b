//! The error for a BSON value that is not an ObjectId, for a time outside what ids can hold, and
//! the parse error as the unversioned API's bson reports it.

use core::fmt;

use oid_core::{ErrorKind, ParseError};

/// `err` (from parsing `input`) as [`oid::Error`](crate::oid::Error): bson 3's own error, built
/// by bson 3's parser so that its kind is exactly bson's, carrying our message.
#[cfg(feature = "bson-3")]
#[cold]
pub(crate) fn parse_error(err: ParseError, input: &str) -> ::bson::error::Error {
    let mut error = match ::bson::oid::ObjectId::parse_str(input) {
        Err(error) => error,
        // Both parsers accept exactly 24 ASCII hex digits; should they ever disagree, the
        // error is still ours.
        Ok(_) => <::bson::error::Error as serde::de::Error>::custom(err),
    };
    error.message = Some(err.to_string());
    error
}

/// `err` as [`oid::Error`](crate::oid::Error): oid-core's parse error itself.
#[cfg(not(feature = "bson-3"))]
#[inline]
pub(crate) const fn parse_error(err: ParseError, _input: &str) -> ParseError {
    err
}

/// A BSON value was expected to be an ObjectId (element type `0x07`) but was something else, or
/// was missing.
///
/// Returned by the `TryFrom<Bson>`/`TryFrom<RawBsonRef>` impls of [`ObjectId`](crate::ObjectId)
/// and by [`DocumentExt::get_oid`](crate::DocumentExt::get_oid), for bson 3 and bson 2 alike. The message names what was found;
/// [`element_type`](NotAnObjectId::element_type) gives its BSON element type byte.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "bson-3")] {
/// use bson::Bson;
/// use oid_bson::ObjectId;
///
/// let err = ObjectId::try_from(Bson::String("507f1f77bcf86cd799439011".into())).unwrap_err();
/// assert_eq!(err.to_string(), "expected a BSON ObjectId, found a string");
/// assert_eq!(err.element_type(), Some(0x02));
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NotAnObjectId {
    /// The element type byte, or `None` for a missing value.
    found: Option<u8>,
}

impl NotAnObjectId {
    #[cfg_attr(
        not(any(feature = "bson-3", feature = "bson-2")),
        allow(dead_code, reason = "built only by the bson impls")
    )]
    pub(crate) const fn new(element_type: u8) -> Self {
        Self {
            found: Some(element_type),
        }
    }

    #[cfg_attr(
        not(any(feature = "bson-3", feature = "bson-2")),
        allow(dead_code, reason = "built only by the bson impls")
    )]
    pub(crate) const fn missing() -> Self {
        Self { found: None }
    }

    /// The BSON element type byte of the value found instead of an ObjectId (`0x02` string,
    /// `0x0A` null, …; compare with `ElementType::X as u8` of either bson version), or `None`
    /// when there was no value (a missing key).
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use bson::{doc, spec::ElementType};
    /// use oid_bson::DocumentExt;
    ///
    /// let doc = doc! { "n": 7 };
    /// assert_eq!(doc.get_oid("n").unwrap_err().element_type(), Some(ElementType::Int32 as u8));
    /// assert_eq!(doc.get_oid("_id").unwrap_err().element_type(), None);
    /// # }
    /// ```
    pub const fn element_type(&self) -> Option<u8> {
        self.found
    }

    /// What went wrong, in the workspace's shared words: always
    /// [`ErrorKind::NotAnObjectId`] (the words the message starts with).
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "bson-3")] {
    /// use bson::Bson;
    /// use oid_bson::{ErrorKind, ObjectId};
    ///
    /// let err = ObjectId::try_from(Bson::Null).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::NotAnObjectId);
    /// assert!(err.to_string().starts_with(err.kind().as_str()));
    /// # }
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::NotAnObjectId
    }
}

/// What a value of this element type is called in messages, with its article.
pub(crate) const fn describe(element_type: u8) -> &'static str {
    match element_type {
        0x01 => "a double",
        0x02 => "a string",
        0x03 => "an embedded document",
        0x04 => "an array",
        0x05 => "binary data",
        0x06 => "undefined",
        0x07 => "an ObjectId",
        0x08 => "a boolean",
        0x09 => "a datetime",
        0x0A => "null",
        0x0B => "a regular expression",
        0x0C => "a DBPointer",
        0x0D => "JavaScript code",
        0x0E => "a symbol",
        0x0F => "JavaScript code with scope",
        0x10 => "a 32-bit integer",
        0x11 => "a timestamp",
        0x12 => "a 64-bit integer",
        0x13 => "a decimal128",
        0x7F => "MaxKey",
        0xFF => "MinKey",
        _ => "an unknown element type",
    }
}

impl fmt::Display for NotAnObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let found = match self.found {
            Some(t) => describe(t),
            None => "no value",
        };
        write!(f, "{}, found {found}", self.kind().as_str())
    }
}

impl std::error::Error for NotAnObjectId {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_type_has_a_distinct_description() {
        let all = [
            0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E,
            0x0F, 0x10, 0x11, 0x12, 0x13, 0x7F, 0xFF, 0x42,
        ];
        let mut seen = std::collections::HashSet::new();
        for t in all {
            assert!(seen.insert(describe(t)), "duplicate description for {t:#x}");
        }
        assert_eq!(
            NotAnObjectId::new(0x03).to_string(),
            "expected a BSON ObjectId, found an embedded document"
        );
        assert_eq!(
            NotAnObjectId::new(0x0A).to_string(),
            "expected a BSON ObjectId, found null"
        );
        assert_eq!(
            NotAnObjectId::missing().to_string(),
            "expected a BSON ObjectId, found no value"
        );
        for e in [NotAnObjectId::new(0x02), NotAnObjectId::missing()] {
            assert_eq!(e.kind(), ErrorKind::NotAnObjectId);
            assert!(e.to_string().starts_with(e.kind().as_str()), "{e}");
        }
    }

    #[cfg(feature = "bson-3")]
    #[test]
    fn codes_match_bson_3_element_types() {
        use bson::spec::ElementType as T;
        for (t, code) in [
            (T::Double, 0x01),
            (T::String, 0x02),
            (T::Null, 0x0A),
            (T::Int64, 0x12),
            (T::MaxKey, 0x7F),
            (T::MinKey, 0xFF),
        ] {
            assert_eq!(t as u8, code);
        }
    }
}
