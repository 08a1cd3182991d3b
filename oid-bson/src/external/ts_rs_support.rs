//! `ts-rs` (feature `ts-rs`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl: the
//! TypeScript type `string` (the hex string its serde impl writes in JSON), as ts-rs's own
//! `bson-uuid-impl` gives `bson::oid::ObjectId`.

use ts_rs::{Config, TS};

use crate::ObjectId;

impl TS for ObjectId {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn docs() -> Option<String> {
        oid_core::ObjectId::docs()
    }

    fn ident(cfg: &Config) -> String {
        oid_core::ObjectId::ident(cfg)
    }

    fn decl(cfg: &Config) -> String {
        oid_core::ObjectId::decl(cfg)
    }

    fn decl_concrete(cfg: &Config) -> String {
        oid_core::ObjectId::decl_concrete(cfg)
    }

    fn name(cfg: &Config) -> String {
        oid_core::ObjectId::name(cfg)
    }

    fn inline(cfg: &Config) -> String {
        oid_core::ObjectId::inline(cfg)
    }
}
