//! `async-graphql` (feature `async-graphql`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl.

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, Value};

use crate::ObjectId;

// async-graphql's own `#[Scalar]` writes the `InputType`/`OutputType` impls, so they follow
// whichever async-graphql 7 release the application resolves (see oid-core's
// `external/async_graphql_support.rs`). Name and description are oid-core's: one GraphQL type for
// both.
#[doc = "A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in lowercase."]
#[Scalar(name = "ObjectId")]
impl ScalarType for ObjectId {
    fn parse(value: Value) -> InputValueResult<Self> {
        <oid_core::ObjectId as ScalarType>::parse(value)
            .map(ObjectId::from)
            .map_err(InputValueError::propagate)
    }

    fn to_value(&self) -> Value {
        ScalarType::to_value(&oid_core::ObjectId::from(*self))
    }
}
