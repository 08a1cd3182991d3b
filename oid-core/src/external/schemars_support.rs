//! `schemars` support (feature `schemars`); the docs and example are on the impl.

use alloc::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::{DESCRIPTION, HEX_PATTERN};
use crate::ObjectId;

/// `schemars` support (feature `schemars`): [`ObjectId`]'s JSON Schema is the form serde
/// writes in JSON — a string of 24 hex digits (`pattern: ^[0-9a-fA-F]{24}$`, the strings
/// [`ObjectId::parse_str`] accepts) with a description. The schema is inlined where an id
/// appears, as `uuid` does for its `Uuid`.
///
/// # Examples
///
/// ```
/// use oid_core::ObjectId;
///
/// let schema = schemars::schema_for!(ObjectId);
/// assert_eq!(schema.get("type"), Some(&"string".into()));
/// assert_eq!(schema.get("pattern"), Some(&"^[0-9a-fA-F]{24}$".into()));
/// ```
impl JsonSchema for ObjectId {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ObjectId")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("oid_core::ObjectId")
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": HEX_PATTERN,
            "description": DESCRIPTION,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_with_the_parse_pattern() {
        let schema = schemars::schema_for!(ObjectId);
        assert_eq!(schema.get("type"), Some(&"string".into()));
        assert_eq!(schema.get("pattern"), Some(&HEX_PATTERN.into()));
        assert_eq!(schema.get("description"), Some(&DESCRIPTION.into()));
    }
}
