//! `specta` (feature `specta`, specta 2.0.0-rc.22 exactly, as oid-core's) for
//! [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl: the primitive `String`, printed
//! `string` by `specta-typescript` (the hex string its serde impl writes in JSON).

use specta::datatype::DataType;
use specta::{Generics, Type, TypeCollection};

use crate::ObjectId;

impl Type for ObjectId {
    fn inline(types: &mut TypeCollection, generics: Generics<'_>) -> DataType {
        oid_core::ObjectId::inline(types, generics)
    }
}
