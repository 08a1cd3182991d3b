//! `async-graphql` support (feature `async-graphql`): [`ObjectId`] is a GraphQL scalar named
//! `ObjectId`. As input it takes a string of 24 hex digits in either case (what
//! [`ObjectId::parse_str`] accepts); anything else is a GraphQL input error that carries the
//! [`ParseError`](crate::ParseError) message (`Failed to parse "ObjectId": invalid character 'g'
//! at index 23: expected a hex digit`), never a panic. As output it is the lowercase hex string.
//!
//! # Examples
//!
//! ```
//! use async_graphql::{ScalarType, Value};
//! use oid_core::ObjectId;
//!
//! // In a schema: `async fn user(&self, id: ObjectId) -> Option<User>`, `id: ObjectId` fields.
//! let id = <ObjectId as ScalarType>::parse(Value::from("507F1F77BCF86CD799439011")).unwrap();
//! assert_eq!(ScalarType::to_value(&id), Value::from("507f1f77bcf86cd799439011"));
//! assert!(<ObjectId as ScalarType>::parse(Value::from("507f")).is_err());
//! assert!(<ObjectId as ScalarType>::parse(Value::from(12)).is_err());
//! ```

use std::borrow::Cow;
use std::string::{String, ToString};
use std::sync::Arc;
use std::vec::Vec;

use async_graphql::parser::types::Field;
use async_graphql::registry::{MetaType, MetaTypeId, Registry};
use async_graphql::{
    ContextSelectionSet, InputType, InputValueError, InputValueResult, OutputType, Positioned,
    ScalarType, ServerResult, Value,
};

use crate::ObjectId;

/// The scalar's description in the schema.
const DESCRIPTION: &str = "A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in lowercase.";

/// A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in
/// lowercase.
impl ScalarType for ObjectId {
    fn parse(value: Value) -> InputValueResult<Self> {
        match &value {
            Value::String(s) => ObjectId::parse_str(s).map_err(InputValueError::custom),
            _ => Err(InputValueError::expected_type(value)),
        }
    }

    fn to_value(&self) -> Value {
        Value::String(self.to_hex().as_str().to_string())
    }
}

/// The scalar's schema entry: what `#[Scalar(name = "ObjectId")]` registers.
fn scalar_meta() -> MetaType {
    MetaType::Scalar {
        name: "ObjectId".to_string(),
        description: Some(DESCRIPTION.to_string()),
        is_valid: Some(Arc::new(<ObjectId as ScalarType>::is_valid)),
        visible: None,
        inaccessible: false,
        tags: Vec::new(),
        specified_by_url: None,
        directive_invocations: Vec::new(),
    }
}

// What `#[Scalar(name = "ObjectId")]` would generate, written out so that `OutputType` can be
// hidden from the docs: async-graphql declares `OutputType::resolve` twice, under its own
// `boxed-trait` feature and under its negation, and rustdoc puts a trait method's cfg on every
// implementation of it, so docs.rs showed a "non-crate feature" badge for `boxed-trait` on
// `resolve`, as if it were a feature of ours (a hand-written impl shows it too). `cargo xtask
// docsrs` fails on such a badge. `ScalarType`, with the `async-graphql` badge, says what the type is.
impl InputType for ObjectId {
    type RawValueType = Self;

    fn type_name() -> Cow<'static, str> {
        Cow::Borrowed("ObjectId")
    }

    fn create_type_info(registry: &mut Registry) -> String {
        registry.create_input_type::<ObjectId, _>(MetaTypeId::Scalar, |_| scalar_meta())
    }

    fn parse(value: Option<Value>) -> InputValueResult<Self> {
        <ObjectId as ScalarType>::parse(value.unwrap_or_default())
    }

    fn to_value(&self) -> Value {
        <ObjectId as ScalarType>::to_value(self)
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }
}

// Hidden for its foreign cfg badge (see above).
#[doc(hidden)]
impl OutputType for ObjectId {
    fn type_name() -> Cow<'static, str> {
        Cow::Borrowed("ObjectId")
    }

    fn create_type_info(registry: &mut Registry) -> String {
        registry.create_output_type::<ObjectId, _>(MetaTypeId::Scalar, |_| scalar_meta())
    }

    async fn resolve(
        &self,
        _: &ContextSelectionSet<'_>,
        _field: &Positioned<Field>,
    ) -> ServerResult<Value> {
        Ok(<ObjectId as ScalarType>::to_value(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_any_case_output_lowercase() {
        let id = <ObjectId as ScalarType>::parse(Value::from("507F1F77BCF86CD799439011")).unwrap();
        assert_eq!(
            ScalarType::to_value(&id),
            Value::from("507f1f77bcf86cd799439011")
        );
        let err = <ObjectId as ScalarType>::parse(Value::from("507f1f77bcf86cd79943901g"))
            .unwrap_err()
            .into_server_error(Default::default());
        assert!(
            err.message.contains("invalid character 'g' at index 23"),
            "{}",
            err.message
        );
        assert!(<ObjectId as ScalarType>::parse(Value::Null).is_err());
    }
}
