//! `poem-openapi` (feature `poem-openapi`) for [`ObjectId`](crate::ObjectId), forwarding to
//! oid-core's impl: usable in `#[derive(Object)]` bodies, as a path, query or header parameter, in
//! a multipart form and as a response header, with the schema of oid-core's `ObjectId` (a string,
//! `format: oid` as poem-openapi's own `bson` feature writes, and the pattern
//! `^[0-9a-fA-F]{24}$`). Bad input is a 400 with the parse error's message, never a panic.

use std::borrow::Cow;

use poem::http::HeaderValue;
use poem::web::Field;
use poem_openapi::registry::MetaSchemaRef;
use poem_openapi::types::{
    ParseFromJSON, ParseFromMultipartField, ParseFromParameter, ParseResult, ToHeader, ToJSON, Type,
};
use serde_json::Value;

use crate::ObjectId;

impl Type for ObjectId {
    const IS_REQUIRED: bool = true;

    type RawValueType = Self;

    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        oid_core::ObjectId::name()
    }

    fn schema_ref() -> MetaSchemaRef {
        oid_core::ObjectId::schema_ref()
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        Box::new(std::iter::once(self))
    }
}

impl ParseFromJSON for ObjectId {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        oid_core::ObjectId::parse_from_json(value)
            .map(ObjectId::from)
            .map_err(poem_openapi::types::ParseError::propagate)
    }
}

impl ParseFromParameter for ObjectId {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        oid_core::ObjectId::parse_from_parameter(value)
            .map(ObjectId::from)
            .map_err(poem_openapi::types::ParseError::propagate)
    }
}

impl ParseFromMultipartField for ObjectId {
    async fn parse_from_multipart(field: Option<Field>) -> ParseResult<Self> {
        oid_core::ObjectId::parse_from_multipart(field)
            .await
            .map(ObjectId::from)
            .map_err(poem_openapi::types::ParseError::propagate)
    }
}

impl ToJSON for ObjectId {
    fn to_json(&self) -> Option<Value> {
        oid_core::ObjectId::from(*self).to_json()
    }
}

impl ToHeader for ObjectId {
    fn to_header(&self) -> Option<HeaderValue> {
        oid_core::ObjectId::from(*self).to_header()
    }
}
