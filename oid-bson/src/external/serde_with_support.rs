//! `serde_with` (feature `serde_with`): the [`serde_helpers`](crate::serde_helpers) adapters as
//! `SerializeAs`/`DeserializeAs`, so they nest (`Option<AsHexString>`, `Vec<FromHexString>`)
//! under `#[serde_as]`.

use serde::{Deserializer, Serializer};
use serde_with::{DeserializeAs, SerializeAs};

use crate::ObjectId;
use crate::serde_helpers::object_id::{AsHexString, ExtendedJson, FromHexString};

impl SerializeAs<ObjectId> for AsHexString {
    fn serialize_as<S: Serializer>(source: &ObjectId, serializer: S) -> Result<S::Ok, S::Error> {
        AsHexString::serialize(source, serializer)
    }
}

impl<'de> DeserializeAs<'de, ObjectId> for AsHexString {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<ObjectId, D::Error> {
        AsHexString::deserialize(deserializer)
    }
}

impl SerializeAs<String> for FromHexString {
    fn serialize_as<S: Serializer>(source: &String, serializer: S) -> Result<S::Ok, S::Error> {
        FromHexString::serialize(source, serializer)
    }
}

impl<'de> DeserializeAs<'de, String> for FromHexString {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
        FromHexString::deserialize(deserializer)
    }
}

impl SerializeAs<ObjectId> for ExtendedJson {
    fn serialize_as<S: Serializer>(source: &ObjectId, serializer: S) -> Result<S::Ok, S::Error> {
        ExtendedJson::serialize(source, serializer)
    }
}

impl<'de> DeserializeAs<'de, ObjectId> for ExtendedJson {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<ObjectId, D::Error> {
        ExtendedJson::deserialize(deserializer)
    }
}
