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

// `#[Scalar]` writes `Box` unqualified where async-graphql boxes `OutputType::resolve` (its
// `boxed-trait` feature, and 7.0.0 always); this crate is `no_std`, with no `Box` in scope.
#[allow(
    unused_imports,
    reason = "used only by some async-graphql releases and features"
)]
use std::boxed::Box;
use std::string::ToString;

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, Value};

use crate::ObjectId;

// async-graphql's own `#[Scalar]` writes the `InputType` and `OutputType` impls (and the schema
// entry: the name, and the doc comment below as the description), so they follow the registry
// types of whichever async-graphql 7 release the application resolves. A consequence on docs.rs:
// async-graphql declares `OutputType::resolve` under its own `boxed-trait` feature and under its
// negation, and rustdoc shows that cfg on every implementation of it, so `ObjectId`'s page has a
// "non-crate feature `boxed-trait`" badge on that impl; `cargo xtask docsrs` accepts that one.
#[doc = "A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in lowercase."]
#[Scalar(name = "ObjectId")]
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
