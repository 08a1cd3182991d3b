//! ts-rs and specta: the TypeScript exported for a struct holding `ObjectId` (oid-core's,
//! oid-std's re-export, and oid-bson's) is `string` for the id and `string[] | null` (ts-rs writes
//! `Array<string> | null`) for `Option<Vec<ObjectId>>`, as each crate prints it.

#![allow(
    clippy::expect_used,
    reason = "test helpers outside #[test] fns: a failure there is a test failure"
)]

use specta::Type;
use specta_typescript::Typescript;
use ts_rs::{Config, TS};

/// An order.
#[derive(TS, Type)]
#[allow(dead_code, reason = "only the exported types are read")]
struct Order {
    id: oid_core::ObjectId,
    related: Option<Vec<oid_std::ObjectId>>,
}

/// The same with oid-bson's id.
#[derive(TS, Type)]
#[allow(dead_code, reason = "only the exported types are read")]
struct BsonOrder {
    id: oid_bson::ObjectId,
    related: Option<Vec<oid_bson::ObjectId>>,
}

#[test]
fn ts_rs_prints_string_and_a_nullable_array() {
    let cfg = Config::default();
    assert_eq!(
        Order::decl(&cfg),
        "type Order = { id: string, related: Array<string> | null, };"
    );
    // The whole file as ts-rs writes it: no import for the id (it has no file of its own).
    let file = Order::export_to_string(&cfg).expect("exportable");
    assert!(
        file.contains("export type Order = { id: string, related: Array<string> | null, };"),
        "{file}"
    );
    assert!(!file.contains("import"), "{file}");
    assert_eq!(
        BsonOrder::decl(&cfg),
        "type BsonOrder = { id: string, related: Array<string> | null, };"
    );
    assert!(
        !BsonOrder::export_to_string(&cfg)
            .expect("exportable")
            .contains("import")
    );
    // The alias, for who wants the name, carries the 24-hex-digit doc comment.
    assert_eq!(oid_core::ObjectId::decl(&cfg), "type ObjectId = string;");
    let docs = oid_core::ObjectId::docs().expect("documented");
    assert!(docs.contains("24 hexadecimal digits"), "{docs}");
    // The JSDoc block is the one ts-rs's derive writes for the same doc comment (ts-rs's
    // formatter is `#[doc(hidden)]`, so oid-core writes the block itself), for both ids.
    /// A MongoDB ObjectId: 24 hexadecimal digits (12 bytes), written in lowercase.
    #[derive(TS)]
    struct Documented;
    assert_eq!(Some(docs), Documented::docs());
    assert_eq!(oid_bson::ObjectId::docs(), Documented::docs());
}

#[test]
fn specta_prints_string_and_a_nullable_array() {
    let conf = Typescript::default();
    let ts = specta_typescript::export::<Order>(&conf).expect("exportable");
    assert_eq!(
        ts,
        "/**\n * An order.\n */\nexport type Order = { id: string; related: string[] | null }"
    );
    assert_eq!(
        specta_typescript::inline::<Option<Vec<oid_core::ObjectId>>>(&conf).expect("inlinable"),
        "string[] | null"
    );
    assert_eq!(
        specta_typescript::export::<BsonOrder>(&conf).expect("exportable"),
        "/**\n * The same with oid-bson's id.\n */\nexport type BsonOrder = { id: string; related: string[] | null }"
    );
}
