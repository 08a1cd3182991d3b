//! `specta` support (feature `specta`): [`ObjectId`] is specta's `Type` with the primitive type
//! `String`, which `specta-typescript` prints as `string`: the form its serde impl writes in JSON
//! (24 lowercase hex digits), and the type specta's own `bson` feature gives `bson::oid::ObjectId`
//! in this release. A field `ObjectId` is `string`, `Option<Vec<ObjectId>>` is `string[] | null`.
//!
//! specta 2 is still in release candidates, and its `Type` trait changes between them; this
//! feature is built for **2.0.0-rc.22** (the one `specta-typescript` 0.0.9 and `tauri-specta`
//! 2.0.0-rc.21 use) and pins it exactly. It is also the last one that builds with this crate's
//! MSRV (Rust 1.85): rc.23 to rc.27 need Rust 1.88 to 1.93.
//!
//! # Examples
//!
//! ```
//! use oid_core::ObjectId;
//! use specta::datatype::{DataType, PrimitiveType};
//! use specta::{Generics, Type, TypeCollection};
//!
//! let mut types = TypeCollection::default();
//! let ty = ObjectId::inline(&mut types, Generics::Definition);
//! assert!(matches!(ty, DataType::Primitive(PrimitiveType::String)));
//! ```

use std::string::String;

use specta::datatype::DataType;
use specta::{Generics, Type, TypeCollection};

use crate::ObjectId;

impl Type for ObjectId {
    fn inline(types: &mut TypeCollection, generics: Generics<'_>) -> DataType {
        <String as Type>::inline(types, generics)
    }
}

#[cfg(test)]
mod tests {
    use specta::datatype::PrimitiveType;

    use super::*;

    #[test]
    fn a_string_also_in_a_list() {
        let mut types = TypeCollection::default();
        assert!(matches!(
            ObjectId::inline(&mut types, Generics::Definition),
            DataType::Primitive(PrimitiveType::String)
        ));
        let DataType::List(list) =
            <std::vec::Vec<ObjectId>>::inline(&mut types, Generics::Definition)
        else {
            panic!("a Vec is a list");
        };
        assert!(matches!(
            list.ty(),
            DataType::Primitive(PrimitiveType::String)
        ));
    }
}
