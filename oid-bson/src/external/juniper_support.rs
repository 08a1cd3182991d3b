//! `juniper` (feature `juniper`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl:
//! the scalar `ObjectID` of juniper's own `bson` integration (name, `@specifiedBy` URL, hex string
//! in either case in, lowercase out), so a schema keeps its scalar when its ids move from
//! `bson::oid::ObjectId` to this type; bad input is a GraphQL error with the parse error's message.

use juniper::{ScalarValue, graphql_scalar};

use crate::ObjectId;

/// A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in
/// lowercase.
#[graphql_scalar]
#[graphql(
    name = "ObjectID",
    with = object_id,
    to_output_with = ScalarValue::from_displayable,
    parse_token(String),
    specified_by_url = "https://graphql-scalars.dev/docs/scalars/object-id",
)]
#[allow(
    dead_code,
    reason = "the macro reads the alias; the impls it writes are on ObjectId"
)]
type Scalar = ObjectId;

/// The input half of the scalar.
mod object_id {
    use crate::ObjectId;

    /// A string of 24 hex digits; oid-core's parse error's message otherwise (as for
    /// `oid_core::ObjectId`, not the longer bson-shaped error of [`ObjectId::parse_str`]).
    pub(super) fn from_input(s: &str) -> Result<ObjectId, Box<str>> {
        oid_core::ObjectId::parse_str(s)
            .map(ObjectId::from)
            .map_err(|e| format!("Failed to parse `ObjectID`: {e}").into())
    }
}
