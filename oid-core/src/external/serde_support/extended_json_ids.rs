//! [`ExtendedJsonIds`]: every id inside a value written as `{"$oid": "<hex>"}`, for code that
//! builds BSON through a serde buffer (`serde_json::Value`, `serde_value`, `serde-content`).

use ::serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};

/// Serializes the value it holds with every `ObjectId` inside (`oid_core::ObjectId`,
/// `oid_std::ObjectId`, `oid_bson::ObjectId`, at any depth, also in `Option`, sequences and map
/// values) written as the struct `{"$oid": "<hex>"}`, in every format; everything else as it is.
///
/// For the one route where an id cannot know it ends up in BSON: a detour through a serde buffer
/// of another format, such as `serde_json::to_value` or `json!` before `bson::to_document`,
/// `Bson::try_from` or `bson::to_vec`. There the buffer's serializer is JSON's, so our ids write
/// their JSON form, the hex string, and the document stores a *string*. Wrapped, they write the
/// extended-JSON map, which bson reads back as a native ObjectId, as it does with bson's own
/// `ObjectId` (whose JSON form that map is). Map keys stay hex strings (a key cannot be a map).
///
/// # Examples
///
/// ```
/// use oid_core::{oid, serde::ExtendedJsonIds, ObjectId};
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Order { #[serde(rename = "_id")] id: ObjectId, items: Vec<ObjectId> }
///
/// let id = oid!("507f1f77bcf86cd799439011");
/// let order = Order { id, items: vec![id] };
///
/// // JSON as it is: hex strings, so a detour through serde_json stores strings.
/// let plain = serde_json::to_value(&order)?;
/// let doc = bson::serialize_to_document(&plain).unwrap();
/// assert_eq!(doc.get_str("_id").ok(), Some("507f1f77bcf86cd799439011"));
///
/// // Wrapped: extended JSON, which bson stores as ObjectIds.
/// let value = serde_json::to_value(ExtendedJsonIds(&order))?;
/// assert_eq!(value["_id"], serde_json::json!({ "$oid": "507f1f77bcf86cd799439011" }));
/// let doc = bson::serialize_to_document(&value).unwrap();
/// let native = bson::oid::ObjectId::from_bytes(id.bytes());
/// assert_eq!(doc.get("_id"), Some(&bson::Bson::ObjectId(native)));
/// assert_eq!(doc.get("items"), Some(&bson::Bson::Array(vec![bson::Bson::ObjectId(native)])));
///
/// // The same for one id in `json!`.
/// let doc = bson::serialize_to_document(&serde_json::json!({ "_id": ExtendedJsonIds(id) })).unwrap();
/// assert_eq!(doc.get("_id"), Some(&bson::Bson::ObjectId(native)));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtendedJsonIds<T>(pub T);

impl<T: Serialize> Serialize for ExtendedJsonIds<T> {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(IdsSerializer(serializer))
    }
}

/// `value`, wrapped for the serializer it is handed to next.
#[inline]
const fn ids<T: ?Sized + Serialize>(value: &T) -> ExtendedJsonIds<&T> {
    ExtendedJsonIds(value)
}

/// The serializer an id sees inside [`ExtendedJsonIds`]: it forwards everything to `S` and
/// wraps every nested value again. Its name is in [`super::bson_rule::OUR_WRAPPERS`].
pub(super) struct IdsSerializer<S>(pub(super) S);

/// A compound serializer of `C` that wraps the values handed to it (not map keys).
pub(super) struct IdsCompound<C>(C);

macro_rules! forward_scalars {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(#[inline]
        fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
            self.0.$method($($arg),*)
        })*
    };
}

impl<S: Serializer> Serializer for IdsSerializer<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = IdsCompound<S::SerializeSeq>;
    type SerializeTuple = IdsCompound<S::SerializeTuple>;
    type SerializeTupleStruct = IdsCompound<S::SerializeTupleStruct>;
    type SerializeTupleVariant = IdsCompound<S::SerializeTupleVariant>;
    type SerializeMap = IdsCompound<S::SerializeMap>;
    type SerializeStruct = IdsCompound<S::SerializeStruct>;
    type SerializeStructVariant = IdsCompound<S::SerializeStructVariant>;

    forward_scalars! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&ids(value))
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &ids(value))
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &ids(value))
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(IdsCompound)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(IdsCompound)
    }

    #[inline]
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(IdsCompound)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(IdsCompound)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(IdsCompound)
    }

    #[inline]
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(IdsCompound)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_struct_variant(name, index, variant, len)
            .map(IdsCompound)
    }

    #[inline]
    fn collect_str<T: ?Sized + core::fmt::Display>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.collect_str(value)
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// The compound serializers: each forwards to `C`, with the values (not the keys) wrapped.
macro_rules! compound {
    ($trait:ident, $($method:ident($($arg:ident: $ty:ty),*)),*) => {
        impl<C: $trait> $trait for IdsCompound<C> {
            type Ok = C::Ok;
            type Error = C::Error;
            $(#[inline]
            fn $method<T: ?Sized + Serialize>(&mut self, $($arg: $ty,)* value: &T) -> Result<(), C::Error> {
                self.0.$method($($arg,)* &ids(value))
            })*
            #[inline]
            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        }
    };
}

compound!(SerializeSeq, serialize_element());
compound!(SerializeTuple, serialize_element());
compound!(SerializeTupleStruct, serialize_field());
compound!(SerializeTupleVariant, serialize_field());
compound!(SerializeStruct, serialize_field(key: &'static str));
compound!(SerializeStructVariant, serialize_field(key: &'static str));

impl<C: SerializeMap> SerializeMap for IdsCompound<C> {
    type Ok = C::Ok;
    type Error = C::Error;

    /// Keys as they are: a map key cannot be the `$oid` map (JSON wants a string there).
    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), C::Error> {
        self.0.serialize_key(key)
    }

    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), C::Error> {
        self.0.serialize_value(&ids(value))
    }

    #[inline]
    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), C::Error> {
        self.0.serialize_entry(key, &ids(value))
    }

    #[inline]
    fn end(self) -> Result<C::Ok, C::Error> {
        self.0.end()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    use ::serde::Serialize;
    use serde_json::json;

    use super::ExtendedJsonIds;
    use crate::{ObjectId, oid};

    const A: ObjectId = oid!("507f1f77bcf86cd799439011");

    #[derive(Serialize)]
    struct Inner {
        owner: ObjectId,
    }

    #[derive(Serialize)]
    #[serde(tag = "kind")]
    enum Tagged {
        Ref { id: ObjectId },
    }

    #[derive(Serialize)]
    enum External {
        One(ObjectId),
        Pair(ObjectId, u8),
        Named { id: ObjectId },
    }

    #[derive(Serialize)]
    struct Model {
        id: ObjectId,
        maybe: Option<ObjectId>,
        list: Vec<ObjectId>,
        tuple: (ObjectId, u8),
        by_id: BTreeMap<ObjectId, ObjectId>,
        inner: Inner,
        #[serde(flatten)]
        flat: Inner,
        tagged: Tagged,
        one: External,
        pair: External,
        named: External,
        boxed: std::boxed::Box<ObjectId>,
        text: String,
    }

    #[test]
    fn every_id_at_any_depth_is_the_oid_map_and_nothing_else_changes() {
        let model = Model {
            id: A,
            maybe: Some(A),
            list: vec![A, A],
            tuple: (A, 1),
            by_id: BTreeMap::from([(A, A)]),
            inner: Inner { owner: A },
            flat: Inner { owner: A },
            tagged: Tagged::Ref { id: A },
            one: External::One(A),
            pair: External::Pair(A, 2),
            named: External::Named { id: A },
            boxed: std::boxed::Box::new(A),
            text: A.to_hex().as_str().into(),
        };
        let oid = json!({ "$oid": "507f1f77bcf86cd799439011" });
        let hex = "507f1f77bcf86cd799439011";
        let expected = json!({
            "id": oid, "maybe": oid, "list": [oid, oid], "tuple": [oid, 1],
            "by_id": { hex: oid }, "inner": { "owner": oid }, "owner": oid,
            "tagged": { "kind": "Ref", "id": oid }, "one": { "One": oid },
            "pair": { "Pair": [oid, 2] }, "named": { "Named": { "id": oid } },
            "boxed": oid, "text": hex,
        });
        assert_eq!(
            serde_json::to_value(ExtendedJsonIds(&model)).ok(),
            Some(expected.clone())
        );
        // The JSON text is the same, and unwrapped it is all hex strings.
        let text = serde_json::to_string(&ExtendedJsonIds(&model)).unwrap_or_default();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).ok(),
            Some(expected)
        );
        let plain = serde_json::to_string(&model).unwrap_or_default();
        assert!(!plain.contains("$oid"), "{plain}");
        // A bare id and a None.
        assert_eq!(serde_json::to_value(ExtendedJsonIds(A)).ok(), Some(oid));
        assert_eq!(
            serde_json::to_value(ExtendedJsonIds(None::<ObjectId>)).ok(),
            Some(json!(null))
        );
    }

    #[test]
    fn binary_formats_get_the_struct_too() {
        // postcard writes the `$oid` struct's one field, the hex string, not 12 bytes.
        let bytes = postcard::to_allocvec(&ExtendedJsonIds(A)).unwrap_or_default();
        assert_eq!(bytes.len(), 25);
        assert_eq!(&bytes[1..], b"507f1f77bcf86cd799439011");
        assert_eq!(postcard::from_bytes::<ObjectId>(&bytes).ok(), Some(A));
    }
}
