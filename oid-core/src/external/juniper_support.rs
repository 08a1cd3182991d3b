//! `juniper` support (feature `juniper`): [`ObjectId`] is a juniper 0.18 GraphQL scalar named
//! `ObjectID`, the name, input and output of juniper's own `bson` integration for
//! `bson::oid::ObjectId` (the [graphql-scalars `ObjectID`], given as its `@specifiedBy` URL), so
//! a schema keeps its scalar when its ids move to this crate. As input it takes a string of 24 hex
//! digits in either case (what [`ObjectId::parse_str`] accepts) as an argument, a variable or a
//! literal; anything else is a GraphQL error that carries the [`ParseError`](crate::ParseError)
//! message (``Failed to parse `ObjectID`: invalid length: expected 24 hex characters, found 3``),
//! never a panic. As output it is the lowercase hex string.
//!
//! [graphql-scalars `ObjectID`]: https://graphql-scalars.dev/docs/scalars/object-id
//!
//! # Examples
//!
//! ```
//! use juniper::{EmptyMutation, EmptySubscription, RootNode, Variables, graphql_object};
//! use oid_core::ObjectId;
//!
//! struct Query;
//!
//! #[graphql_object]
//! impl Query {
//!     fn timestamp(id: ObjectId) -> i32 {
//!         id.timestamp() as i32
//!     }
//! }
//!
//! let schema = RootNode::new(Query, EmptyMutation::<()>::new(), EmptySubscription::<()>::new());
//! let query = r#"{ timestamp(id: "507F1F77BCF86CD799439011") }"#;
//! let (data, errors) = juniper::execute_sync(query, None, &schema, &Variables::new(), &())?;
//! assert!(errors.is_empty());
//! assert_eq!(data.to_string(), r#"{"timestamp": 1350508407}"#);
//!
//! let bad = r#"{ timestamp(id: "507f") }"#;
//! assert!(juniper::execute_sync(bad, None, &schema, &Variables::new(), &()).is_err());
//! # Ok::<(), juniper::GraphQLError>(())
//! ```

use juniper::{ScalarValue, graphql_scalar};

use crate::ObjectId;

/// A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in
/// lowercase.
#[graphql_scalar]
#[graphql(
    name = "ObjectID",
    with = object_id,
    to_output_with = ScalarValue::from_displayable,
    parse_token(std::string::String),
    specified_by_url = "https://graphql-scalars.dev/docs/scalars/object-id",
)]
#[allow(
    dead_code,
    reason = "the macro reads the alias; the impls it writes are on ObjectId"
)]
type Scalar = ObjectId;

/// The input half of the scalar.
mod object_id {
    use std::boxed::Box;
    use std::format;

    use crate::ObjectId;

    /// A string of 24 hex digits; the parse error's message otherwise.
    pub(super) fn from_input(s: &str) -> Result<ObjectId, Box<str>> {
        ObjectId::parse_str(s).map_err(|e| format!("Failed to parse `ObjectID`: {e}").into())
    }
}

#[cfg(test)]
mod tests {
    use juniper::{DefaultScalarValue, FromInputValue, InputValue, ToInputValue};

    use super::*;

    #[test]
    fn input_any_case_output_lowercase_errors_carry_the_message() {
        let input: InputValue = InputValue::scalar("507F1F77BCF86CD799439011");
        let id = ObjectId::from_input_value(&input).unwrap();
        assert_eq!(id.to_hex().as_str(), "507f1f77bcf86cd799439011");
        let back: InputValue<DefaultScalarValue> = id.to_input_value();
        assert_eq!(back, InputValue::scalar("507f1f77bcf86cd799439011"));

        let bad = InputValue::<DefaultScalarValue>::scalar("507f1f77bcf86cd79943901g");
        let err = ObjectId::from_input_value(&bad).unwrap_err();
        let err = err.message();
        assert!(
            err.contains("Failed to parse `ObjectID`: invalid character 'g' at index 23"),
            "{err}"
        );
        assert!(ObjectId::from_input_value(&InputValue::<DefaultScalarValue>::scalar(12)).is_err());
        assert!(ObjectId::from_input_value(&InputValue::<DefaultScalarValue>::null()).is_err());
    }
}
