//! Integrations with other crates for this crate's [`ObjectId`], one feature each, with the
//! feature names of oid-core's. Each forwards to `oid_core::ObjectId`'s impl (the orphan rule
//! puts them here); `bytemuck` and `zerocopy` are derived on the type itself, which is
//! `#[repr(transparent)]` over `oid_core::ObjectId`.
//!
//! [`ObjectId`]: crate::ObjectId

#[cfg(feature = "arbitrary")]
mod arbitrary_support {
    use arbitrary::{Arbitrary, Result, Unstructured};

    use crate::ObjectId;

    /// Any 12 bytes, as `oid_core::ObjectId`'s impl.
    impl<'a> Arbitrary<'a> for ObjectId {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            oid_core::ObjectId::arbitrary(u).map(ObjectId::from)
        }

        fn size_hint(depth: usize) -> (usize, Option<usize>) {
            oid_core::ObjectId::size_hint(depth)
        }
    }
}

#[cfg(feature = "borsh")]
mod borsh_support {
    use borsh::io::{Read, Result, Write};
    use borsh::{BorshDeserialize, BorshSerialize};

    use crate::ObjectId;

    /// The 12 raw bytes, as `oid_core::ObjectId`'s impl and borsh's `bson` support write.
    impl BorshSerialize for ObjectId {
        fn serialize<W: Write>(&self, writer: &mut W) -> Result<()> {
            oid_core::ObjectId::from(*self).serialize(writer)
        }
    }

    impl BorshDeserialize for ObjectId {
        fn deserialize_reader<R: Read>(reader: &mut R) -> Result<Self> {
            oid_core::ObjectId::deserialize_reader(reader).map(ObjectId::from)
        }
    }
}

#[cfg(feature = "schemars")]
mod schemars_support {
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
}

#[cfg(feature = "utoipa")]
mod utoipa_support {
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
}

#[cfg(feature = "async-graphql")]
mod async_graphql_support {
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
}
