//! `async-graphql` (feature `async-graphql`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl.

use std::borrow::Cow;
use std::sync::Arc;

use async_graphql::parser::types::Field;
use async_graphql::registry::{MetaType, MetaTypeId, Registry};
use async_graphql::{
    ContextSelectionSet, InputType, InputValueResult, OutputType, Positioned, ScalarType,
    ServerResult, Value,
};

use crate::ObjectId;

/// A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in
/// lowercase.
impl ScalarType for ObjectId {
    fn parse(value: Value) -> InputValueResult<Self> {
        <oid_core::ObjectId as ScalarType>::parse(value)
            .map(ObjectId::from)
            .map_err(async_graphql::InputValueError::propagate)
    }

    fn to_value(&self) -> Value {
        ScalarType::to_value(&oid_core::ObjectId::from(*self))
    }
}

// What `#[Scalar(name = "ObjectId")]` would generate, written out (as in oid-core) so that
// `OutputType` can be hidden from the docs: async-graphql declares `OutputType::resolve` under its
// own `boxed-trait` feature and under its negation, and rustdoc puts that cfg on every
// implementation, so docs.rs showed a "non-crate feature" badge for `boxed-trait` as if it were a
// feature of ours. `cargo xtask docsrs` fails on such a badge.

/// The scalar's schema entry, the same as oid-core's `ObjectId` (one GraphQL type for both).
fn scalar_meta() -> MetaType {
    MetaType::Scalar {
        name: "ObjectId".to_string(),
        description: Some(
            "A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in lowercase."
                .to_string(),
        ),
        is_valid: Some(Arc::new(<ObjectId as ScalarType>::is_valid)),
        visible: None,
        inaccessible: false,
        tags: Vec::new(),
        specified_by_url: None,
        directive_invocations: Vec::new(),
    }
}

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
