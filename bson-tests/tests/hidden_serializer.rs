//! The one serializer our ids cannot tell from JSON: one that hides the bson serializer it
//! forwards to (its type names no bson type), as a type-erased serializer does. The same for
//! `oid_bson::ObjectId` and `oid_core::ObjectId` (`oid_std::ObjectId`): the serializer's
//! `is_human_readable()` decides, as `oid_core::serde::is_bson_serializer` documents.

#![allow(clippy::unwrap_used, reason = "test helpers")]

use oid_bson::ObjectId;
use serde::{Serialize, Serializer};

const A: ObjectId = oid_bson::oid!("56e1fc72e0c917e9c4714161");

#[derive(Serialize)]
struct Plain {
    #[serde(rename = "_id")]
    id: ObjectId,
}

/// A serializer that hides the bson serializer it forwards to (its type names no bson type), as
/// a type-erased serializer does: the one case oid-bson cannot tell from JSON. It says it is
/// human-readable, so a top-level id gets the hex string, as the README's table says. Values
/// below the top level reach bson's own serializer again and are ObjectIds.
struct Hidden(bson::Serializer);

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<$ret, bson::error::Error> {
            self.0.$method($($arg),*)
        })*
    };
}

type Wrapped = bson::Serializer;

impl Serializer for Hidden {
    type Ok = bson::Bson;
    type Error = bson::error::Error;
    type SerializeSeq = <Wrapped as Serializer>::SerializeSeq;
    type SerializeTuple = <Wrapped as Serializer>::SerializeTuple;
    type SerializeTupleStruct = <Wrapped as Serializer>::SerializeTupleStruct;
    type SerializeTupleVariant = <Wrapped as Serializer>::SerializeTupleVariant;
    type SerializeMap = <Wrapped as Serializer>::SerializeMap;
    type SerializeStruct = <Wrapped as Serializer>::SerializeStruct;
    type SerializeStructVariant = <Wrapped as Serializer>::SerializeStructVariant;

    forward! {
        serialize_bool(v: bool) -> bson::Bson;
        serialize_i8(v: i8) -> bson::Bson;
        serialize_i16(v: i16) -> bson::Bson;
        serialize_i32(v: i32) -> bson::Bson;
        serialize_i64(v: i64) -> bson::Bson;
        serialize_u8(v: u8) -> bson::Bson;
        serialize_u16(v: u16) -> bson::Bson;
        serialize_u32(v: u32) -> bson::Bson;
        serialize_u64(v: u64) -> bson::Bson;
        serialize_f32(v: f32) -> bson::Bson;
        serialize_f64(v: f64) -> bson::Bson;
        serialize_char(v: char) -> bson::Bson;
        serialize_str(v: &str) -> bson::Bson;
        serialize_bytes(v: &[u8]) -> bson::Bson;
        serialize_none() -> bson::Bson;
        serialize_unit() -> bson::Bson;
        serialize_unit_struct(name: &'static str) -> bson::Bson;
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> bson::Bson;
        serialize_seq(len: Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(len: usize) -> Self::SerializeTuple;
        serialize_tuple_struct(name: &'static str, len: usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> Self::SerializeTupleVariant;
        serialize_map(len: Option<usize>) -> Self::SerializeMap;
        serialize_struct(name: &'static str, len: usize) -> Self::SerializeStruct;
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<bson::Bson, Self::Error> {
        self.0.serialize_some(value)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<bson::Bson, Self::Error> {
        self.0.serialize_newtype_struct(name, value)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<bson::Bson, Self::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, value)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

#[test]
fn a_serializer_hiding_bsons_type_gets_the_hex_string_at_the_top_level_only() {
    let top = A.serialize(Hidden(bson::Serializer::new())).unwrap();
    assert_eq!(top, bson::Bson::String(A.to_hex()));
    let core = oid_core::ObjectId::from(A);
    let top = core.serialize(Hidden(bson::Serializer::new())).unwrap();
    assert_eq!(top, bson::Bson::String(A.to_hex()));
    // Inside a model, bson's own serializer writes each field again: ObjectIds.
    let model = Plain { id: A }
        .serialize(Hidden(bson::Serializer::new()))
        .unwrap();
    let expected = bson::oid::ObjectId::from_bytes(A.bytes());
    assert_eq!(model, bson::Bson::Document(bson::doc! { "_id": expected }));
}

#[derive(Serialize)]
struct CoreModel {
    #[serde(rename = "_id")]
    id: oid_core::ObjectId,
    parent: Option<oid_std::ObjectId>,
}

#[test]
fn erased_serde_hides_bson_from_every_id_at_every_depth() {
    let erased = |value: &dyn erased_serde::Serialize| {
        erased_serde::serialize(value, bson::Serializer::new()).unwrap()
    };
    let hex = bson::Bson::String(A.to_hex());
    let core = oid_core::ObjectId::from(A);
    // Each id sees `&mut dyn erased_serde::Serializer`, which says it is human-readable.
    assert_eq!(erased(&A), hex);
    assert_eq!(erased(&core), hex);
    let model = CoreModel {
        id: core,
        parent: Some(core),
    };
    assert_eq!(
        erased(&model),
        bson::Bson::Document(bson::doc! { "_id": A.to_hex(), "parent": A.to_hex() })
    );
    assert_eq!(
        erased(&Plain { id: A }),
        bson::Bson::Document(bson::doc! { "_id": A.to_hex() })
    );
    // The same values without erasure: ObjectIds.
    let native = bson::oid::ObjectId::from_bytes(A.bytes());
    assert_eq!(
        bson::serialize_to_bson(&model).unwrap(),
        bson::Bson::Document(bson::doc! { "_id": native, "parent": native })
    );
    // The fix: erase a value whose ids are already bson's values.
    let doc = bson::serialize_to_bson(&model).unwrap();
    assert_eq!(erased(&doc), bson::serialize_to_bson(&model).unwrap());
}

/// The erased-serializer route of docs/bson.md: `ExtendedJsonIds` reaches the ids of an erased
/// value only when it wraps the value before the erasure (`Box::new(ExtendedJsonIds(model))`):
/// wrapped after it, the erased value hands the ids `dyn erased_serde::Serializer`, which hides
/// the wrapper's serializer as it hides bson's, and the ids write hex strings.
#[test]
fn extended_json_ids_reaches_erased_ids_when_it_wraps_before_the_erasure() {
    let hex = A.to_hex();
    let native = bson::oid::ObjectId::from_bytes(A.bytes());
    let core = oid_core::ObjectId::from(A);
    let model = || CoreModel {
        id: core,
        parent: Some(core),
    };
    // Wrapped after the erasure: strings in the buffer, strings in the document.
    let erased: Box<dyn erased_serde::Serialize> = Box::new(model());
    let value = serde_json::to_value(oid_bson::ExtendedJsonIds(&erased)).unwrap();
    assert_eq!(value, serde_json::json!({ "_id": hex, "parent": hex }));
    let stored = bson::serialize_to_document(&value).unwrap();
    assert_eq!(stored.get_str("_id").unwrap(), hex);
    // Wrapped before it (the fix): `{"$oid"}` in the buffer, ObjectIds in the document, as with
    // no erasure and no buffer.
    let erased: Box<dyn erased_serde::Serialize> = Box::new(oid_bson::ExtendedJsonIds(model()));
    let value = serde_json::to_value(&erased).unwrap();
    assert_eq!(
        value,
        serde_json::json!({ "_id": { "$oid": hex }, "parent": { "$oid": hex } })
    );
    let stored = bson::serialize_to_document(&value).unwrap();
    assert_eq!(stored, bson::doc! { "_id": native, "parent": native });
    assert_eq!(stored, bson::serialize_to_document(&model()).unwrap());
    // The same erased value straight into bson's serializer: ObjectIds too.
    assert_eq!(
        bson::serialize_to_document(&erased).unwrap(),
        bson::doc! { "_id": native, "parent": native }
    );
    // And `oid_bson::ObjectId` behind the erasure.
    let erased: Box<dyn erased_serde::Serialize> =
        Box::new(oid_bson::ExtendedJsonIds(Plain { id: A }));
    let stored = bson::serialize_to_document(&serde_json::to_value(&erased).unwrap()).unwrap();
    assert_eq!(stored, bson::doc! { "_id": native });
}
