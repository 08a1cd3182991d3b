//! What each bson version gets: conversions, comparisons, `Bson`/`RawBson` impls, the extension
//! traits and the filter helpers. One macro, so bson 3 and bson 2 get exactly the same.

/// Implements everything version-specific for the bson crate named `$b` (`bson` or `bson2`),
/// and defines the filter helpers in the calling module.
macro_rules! impl_bson_version {
    ($b:ident) => {
        use crate::{IdRange, NotAnObjectId, ObjectId, Upper};

        impl From<ObjectId> for ::$b::oid::ObjectId {
            #[inline]
            fn from(id: ObjectId) -> Self {
                ::$b::oid::ObjectId::from_bytes(id.bytes())
            }
        }

        impl From<::$b::oid::ObjectId> for ObjectId {
            #[inline]
            fn from(id: ::$b::oid::ObjectId) -> Self {
                ObjectId::from_bytes(id.bytes())
            }
        }

        impl PartialEq<::$b::oid::ObjectId> for ObjectId {
            #[inline]
            fn eq(&self, other: &::$b::oid::ObjectId) -> bool {
                self.bytes() == other.bytes()
            }
        }

        impl PartialEq<ObjectId> for ::$b::oid::ObjectId {
            #[inline]
            fn eq(&self, other: &ObjectId) -> bool {
                self.bytes() == other.bytes()
            }
        }

        impl PartialOrd<::$b::oid::ObjectId> for ObjectId {
            #[inline]
            fn partial_cmp(&self, other: &::$b::oid::ObjectId) -> Option<core::cmp::Ordering> {
                Some(self.bytes().cmp(&other.bytes()))
            }
        }

        impl PartialOrd<ObjectId> for ::$b::oid::ObjectId {
            #[inline]
            fn partial_cmp(&self, other: &ObjectId) -> Option<core::cmp::Ordering> {
                Some(self.bytes().cmp(&other.bytes()))
            }
        }

        impl From<ObjectId> for ::$b::Bson {
            /// `Bson::ObjectId`, so `doc! { "_id": id }` works.
            #[inline]
            fn from(id: ObjectId) -> Self {
                ::$b::Bson::ObjectId(id.into())
            }
        }

        impl From<ObjectId> for ::$b::RawBson {
            /// `RawBson::ObjectId`, so `rawdoc! { "_id": id }` works.
            #[inline]
            fn from(id: ObjectId) -> Self {
                ::$b::RawBson::ObjectId(id.into())
            }
        }

        impl From<ObjectId> for ::$b::RawBsonRef<'_> {
            #[inline]
            fn from(id: ObjectId) -> Self {
                ::$b::RawBsonRef::ObjectId(id.into())
            }
        }

        impl TryFrom<&::$b::Bson> for ObjectId {
            type Error = NotAnObjectId;

            /// The id of a `Bson::ObjectId`; any other value (a hex string too) is an error
            /// naming what it was.
            #[inline]
            fn try_from(value: &::$b::Bson) -> Result<Self, NotAnObjectId> {
                match value {
                    ::$b::Bson::ObjectId(id) => Ok((*id).into()),
                    other => Err(NotAnObjectId::new(other.element_type() as u8)),
                }
            }
        }

        impl TryFrom<::$b::Bson> for ObjectId {
            type Error = NotAnObjectId;

            #[inline]
            fn try_from(value: ::$b::Bson) -> Result<Self, NotAnObjectId> {
                ObjectId::try_from(&value)
            }
        }

        impl TryFrom<::$b::RawBsonRef<'_>> for ObjectId {
            type Error = NotAnObjectId;

            /// The id of a raw ObjectId element (what `RawDocument::get` returns).
            #[inline]
            fn try_from(value: ::$b::RawBsonRef<'_>) -> Result<Self, NotAnObjectId> {
                match value {
                    ::$b::RawBsonRef::ObjectId(id) => Ok(id.into()),
                    other => Err(NotAnObjectId::new(other.element_type() as u8)),
                }
            }
        }

        impl TryFrom<&::$b::RawBson> for ObjectId {
            type Error = NotAnObjectId;

            #[inline]
            fn try_from(value: &::$b::RawBson) -> Result<Self, NotAnObjectId> {
                match value {
                    ::$b::RawBson::ObjectId(id) => Ok((*id).into()),
                    other => Err(NotAnObjectId::new(other.element_type() as u8)),
                }
            }
        }

        impl crate::sealed::Sealed for ::$b::DateTime {}
        impl crate::sealed::Sealed for ::$b::Document {}
        impl crate::sealed::Sealed for ::$b::Bson {}

        impl crate::BsonDateTime for ::$b::DateTime {
            #[inline]
            fn from_millis(millis: i64) -> Self {
                ::$b::DateTime::from_millis(millis)
            }

            #[inline]
            fn timestamp_millis(&self) -> i64 {
                ::$b::DateTime::timestamp_millis(*self)
            }
        }

        impl crate::DocumentExt for ::$b::Document {
            #[inline]
            fn get_oid(&self, key: impl AsRef<str>) -> Result<ObjectId, NotAnObjectId> {
                match self.get(key) {
                    Some(value) => ObjectId::try_from(value),
                    None => Err(NotAnObjectId::missing()),
                }
            }
        }

        impl crate::BsonExt for ::$b::Bson {
            #[inline]
            fn as_oid(&self) -> Option<ObjectId> {
                ObjectId::try_from(self).ok()
            }
        }

        /// The filter for ids in `range`: `{"$gte": lower, "$lt": upper}`, or `"$lte"` on the
        /// largest id for an open end. Use it as the value of the id field:
        /// `doc! { "_id": range_filter(range) }`. An empty range gives a filter that matches
        /// nothing.
        pub fn range_filter(range: IdRange) -> ::$b::Document {
            let mut filter = ::$b::Document::new();
            filter.insert("$gte", ObjectId::from(range.lower()));
            let upper = range.upper();
            let op = match upper {
                Upper::Lt(_) => "$lt",
                Upper::Lte(_) => "$lte",
            };
            filter.insert(op, ObjectId::from(upper.id()));
            filter
        }

        /// The filter for ids created in `[from, to)` (`None`: open end), bounds rounded to
        /// whole seconds so that no id created in the range is missed: [`IdRange::from_millis`]
        /// and [`range_filter`].
        ///
        /// # Examples
        ///
        /// ```
        /// use oid_bson::bson::{doc, DateTime};
        /// use oid_bson::{created_between, range_filter, IdRange, ObjectId};
        ///
        /// let from = DateTime::from_millis(1_700_000_000_500); // 2023-11-14T22:13:20.500Z
        /// let to = DateTime::from_millis(1_700_000_060_000);
        /// assert_eq!(created_between(Some(from), Some(to)), doc! {
        ///     "$gte": ObjectId::parse_str("6553f1000000000000000000")?,
        ///     "$lt": ObjectId::parse_str("6553f13c0000000000000000")?,
        /// });
        /// assert_eq!(created_between(Some(from), None), doc! {
        ///     "$gte": ObjectId::parse_str("6553f1000000000000000000")?,
        ///     "$lte": ObjectId::parse_str("ffffffffffffffffffffffff")?,
        /// });
        /// let range = IdRange::from_secs(Some(1_700_000_000), Some(1_700_000_060));
        /// assert_eq!(range_filter(range), created_between(Some(from), Some(to)));
        /// # Ok::<(), oid_bson::oid::Error>(())
        /// ```
        pub fn created_between(
            from: Option<::$b::DateTime>,
            to: Option<::$b::DateTime>,
        ) -> ::$b::Document {
            range_filter(IdRange::from_millis(
                from.map(::$b::DateTime::timestamp_millis),
                to.map(::$b::DateTime::timestamp_millis),
            ))
        }
    };
}

pub(crate) use impl_bson_version;
