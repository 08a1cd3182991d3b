//! `async-graphql` (feature `async-graphql`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl.

use async_graphql::{InputValueResult, Scalar, ScalarType, Value};

use crate::ObjectId;

/// A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in
/// lowercase.
#[Scalar(name = "ObjectId")]
impl ScalarType for ObjectId {
    fn parse(value: Value) -> InputValueResult<Self> {
        <oid_core::ObjectId as ScalarType>::parse(value)
            .map(ObjectId::from)
            .map_err(async_graphql::InputValueError::propagate)
    }

    fn to_value(&self) -> Value {
        oid_core::ObjectId::from(*self).to_value()
    }
}
