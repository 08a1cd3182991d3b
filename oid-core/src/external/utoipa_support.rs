//! `utoipa` support (feature `utoipa`); the docs and example are on the impl.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::{DESCRIPTION, HEX_PATTERN};
use crate::ObjectId;

/// An id that serves as the example value in the schema.
const EXAMPLE: &str = "507f1f77bcf86cd799439011";

/// `utoipa` support (feature `utoipa`): [`ObjectId`] is an OpenAPI schema named `ObjectId`: a
/// string of 24 hex digits (`pattern: ^[0-9a-fA-F]{24}$`, the strings
/// [`ObjectId::parse_str`] accepts), a description and an example value, matching the serde
/// form in JSON.
///
/// # Examples
///
/// ```
/// use oid_core::ObjectId;
/// use utoipa::{PartialSchema, ToSchema};
///
/// #[derive(ToSchema)]
/// struct User {
///     id: ObjectId,
///     name: String,
/// }
///
/// assert_eq!(ObjectId::name(), "ObjectId");
/// let json = serde_json::to_value(ObjectId::schema()).unwrap();
/// assert_eq!(json["type"], "string");
/// assert_eq!(json["pattern"], "^[0-9a-fA-F]{24}$");
/// ```
impl PartialSchema for ObjectId {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(HEX_PATTERN))
            .description(Some(DESCRIPTION))
            .examples([EXAMPLE])
            .into()
    }
}

impl ToSchema for ObjectId {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ObjectId")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_is_a_valid_id() {
        assert!(ObjectId::parse_str(EXAMPLE).is_ok());
        let RefOr::T(Schema::Object(object)) = ObjectId::schema() else {
            panic!("expected an inline object schema");
        };
        assert_eq!(object.pattern.as_deref(), Some(HEX_PATTERN));
        assert_eq!(object.examples, [serde_json::Value::from(EXAMPLE)]);
    }
}
