//! `schemars` (feature `schemars`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::ObjectId;

/// The schema of `oid_core::ObjectId`: in JSON both types are the hex string.
impl JsonSchema for ObjectId {
    fn schema_name() -> Cow<'static, str> {
        oid_core::ObjectId::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        oid_core::ObjectId::schema_id()
    }

    fn inline_schema() -> bool {
        oid_core::ObjectId::inline_schema()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        oid_core::ObjectId::json_schema(generator)
    }
}
