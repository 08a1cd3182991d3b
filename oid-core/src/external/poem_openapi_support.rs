//! `poem-openapi` support (feature `poem-openapi`): [`ObjectId`] is a poem-openapi 5 type, usable
//! in `#[derive(Object)]` request and response bodies, as a path, query or header parameter
//! (`Path<ObjectId>`, `Query<ObjectId>`), in a multipart form and as a response header. Its
//! schema is the form its serde impl writes in JSON: a string of 24 hex digits (`pattern:
//! ^[0-9a-fA-F]{24}$`, the strings [`ObjectId::parse_str`] accepts) with a description and an
//! example, inlined where an id appears. Input in either case is accepted; output is lowercase hex.
//! Bad input is poem-openapi's parse error with the [`ParseError`](crate::ParseError) message
//! (`failed to parse "string_oid": invalid length: expected 24 hex characters, found 4`): a 400
//! response, never a panic.
//!
//! poem-openapi's own `bson` feature gives `bson::oid::ObjectId` the schema `{"type": "string",
//! "format": "oid"}`; this one keeps that format and adds the pattern, so a client generated from
//! the document validates ids before sending them.
//!
//! # Examples
//!
//! ```
//! use oid_core::ObjectId;
//! use poem_openapi::types::{ParseFromJSON, ParseFromParameter, ToJSON, Type};
//! use poem_openapi::registry::MetaSchemaRef;
//!
//! let MetaSchemaRef::Inline(schema) = ObjectId::schema_ref() else { unreachable!() };
//! assert_eq!(schema.ty, "string");
//! assert_eq!(schema.pattern.as_deref(), Some("^[0-9a-fA-F]{24}$"));
//!
//! let id = ObjectId::parse_from_parameter("507F1F77BCF86CD799439011").unwrap();
//! assert_eq!(id.to_json(), Some(serde_json::json!("507f1f77bcf86cd799439011")));
//! assert!(ObjectId::parse_from_json(Some(serde_json::json!("507f"))).is_err());
//! ```

use std::borrow::Cow;
use std::boxed::Box;
use std::string::{String, ToString};

use poem::http::HeaderValue;
use poem::web::Field;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{
    ParseError, ParseFromJSON, ParseFromMultipartField, ParseFromParameter, ParseResult, ToHeader,
    ToJSON, Type,
};
use serde_json::Value;

use super::{DESCRIPTION, HEX_PATTERN};
use crate::ObjectId;

/// An id that serves as the example value in the schema.
const EXAMPLE: &str = "507f1f77bcf86cd799439011";

impl Type for ObjectId {
    const IS_REQUIRED: bool = true;

    type RawValueType = Self;

    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        Cow::Borrowed("string_oid")
    }

    fn schema_ref() -> MetaSchemaRef {
        let mut schema = MetaSchema::new_with_format("string", "oid");
        schema.pattern = Some(String::from(HEX_PATTERN));
        schema.description = Some(DESCRIPTION);
        schema.example = Some(Value::from(EXAMPLE));
        MetaSchemaRef::Inline(Box::new(schema))
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        Box::new(core::iter::once(self))
    }
}

impl ParseFromJSON for ObjectId {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value.unwrap_or_default() {
            Value::String(s) => Ok(ObjectId::parse_str(&s)?),
            other => Err(ParseError::expected_type(other)),
        }
    }
}

impl ParseFromParameter for ObjectId {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        Ok(ObjectId::parse_str(value)?)
    }
}

impl ParseFromMultipartField for ObjectId {
    async fn parse_from_multipart(field: Option<Field>) -> ParseResult<Self> {
        match field {
            Some(field) => Ok(ObjectId::parse_str(&field.text().await?)?),
            None => Err(ParseError::expected_input()),
        }
    }
}

impl ToJSON for ObjectId {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.to_hex().as_str().to_string()))
    }
}

impl ToHeader for ObjectId {
    fn to_header(&self) -> Option<HeaderValue> {
        HeaderValue::from_str(self.to_hex().as_str()).ok()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn string_schema_any_case_in_lowercase_out_typed_errors() {
        assert!(ObjectId::parse_str(EXAMPLE).is_ok());
        let MetaSchemaRef::Inline(schema) = ObjectId::schema_ref() else {
            panic!("an inline schema");
        };
        assert_eq!(
            (schema.ty, schema.format, schema.pattern.as_deref()),
            ("string", Some("oid"), Some(HEX_PATTERN))
        );
        let id = ObjectId::parse_from_json(Some(json!("507F1F77BCF86CD799439011"))).unwrap();
        assert_eq!(id.to_json(), Some(json!(EXAMPLE)));
        assert_eq!(id.to_header().unwrap(), EXAMPLE);
        let err = ObjectId::parse_from_parameter("507f").unwrap_err();
        assert_eq!(
            err.message(),
            "failed to parse \"string_oid\": invalid length: expected 24 hex characters, found 4"
        );
        assert!(ObjectId::parse_from_json(Some(json!(12))).is_err());
        assert!(ObjectId::parse_from_json(None).is_err());
    }
}
