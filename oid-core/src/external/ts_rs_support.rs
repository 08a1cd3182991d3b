//! `ts-rs` support (feature `ts-rs`): [`ObjectId`] is ts-rs 12's `TS` with the TypeScript type
//! `string`, the form its serde impl writes in JSON (24 lowercase hex digits) and what ts-rs's own
//! `bson-uuid-impl` gives `bson::oid::ObjectId`, so exported bindings do not change when the ids
//! move to this crate. A field `ObjectId` is `string`, `Option<Vec<ObjectId>>` is
//! `Array<string> | null`.
//!
//! The type also has a JSDoc comment naming the 24-hex-digit form (`ObjectId::docs()`) and a
//! declaration (`ObjectId::decl()`, `type ObjectId = string;`) for bindings that want the name. It
//! has no output file of its own: a struct that holds ids inlines `string` and imports nothing.
//!
//! # Examples
//!
//! ```
//! use oid_core::ObjectId;
//! use ts_rs::{Config, TS};
//!
//! let cfg = Config::default();
//! assert_eq!(ObjectId::inline(&cfg), "string");
//! assert_eq!(<Option<Vec<ObjectId>>>::inline(&cfg), "Array<string> | null");
//! assert!(ObjectId::docs().is_some_and(|d| d.contains("24 hexadecimal digits")));
//! assert_eq!(ObjectId::decl(&cfg), "type ObjectId = string;");
//! ```

use std::string::String;

use ts_rs::{Config, TS};

use super::DESCRIPTION;
use crate::ObjectId;

impl TS for ObjectId {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn docs() -> Option<String> {
        // The JSDoc block ts-rs's derive writes for a one-line doc comment, written here: ts-rs's
        // own formatter (`format_docs`) is `#[doc(hidden)]`, not its public API.
        Some(std::format!("/**\n * {DESCRIPTION}\n */\n"))
    }

    fn ident(_: &Config) -> String {
        String::from("ObjectId")
    }

    fn decl(_: &Config) -> String {
        String::from("type ObjectId = string;")
    }

    fn decl_concrete(cfg: &Config) -> String {
        Self::decl(cfg)
    }

    fn name(_: &Config) -> String {
        String::from("string")
    }

    fn inline(cfg: &Config) -> String {
        Self::name(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_inline_and_a_documented_alias() {
        let cfg = Config::default();
        assert_eq!(ObjectId::name(&cfg), "string");
        assert_eq!(<std::vec::Vec<ObjectId>>::inline(&cfg), "Array<string>");
        // A one-line JSDoc block (integrations/tests/typescript.rs compares it with the derive's).
        let docs = ObjectId::docs().unwrap();
        assert_eq!(docs, std::format!("/**\n * {DESCRIPTION}\n */\n"));
        assert_eq!(ObjectId::decl_concrete(&cfg), "type ObjectId = string;");
        // No file of its own: exporting it alone is an error, not a panic.
        assert!(ObjectId::export_to_string(&cfg).is_err());
    }
}
