//! `utoipa` (feature `utoipa`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl.

use std::borrow::Cow;

use utoipa::openapi::{RefOr, schema::Schema};
use utoipa::{PartialSchema, ToSchema};

use crate::ObjectId;

/// The schema of `oid_core::ObjectId`: in JSON both types are the hex string.
impl PartialSchema for ObjectId {
    fn schema() -> RefOr<Schema> {
        oid_core::ObjectId::schema()
    }
}

impl ToSchema for ObjectId {
    fn name() -> Cow<'static, str> {
        oid_core::ObjectId::name()
    }
}
