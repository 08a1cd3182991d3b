//! `ObjectId` through rusqlite on an in-memory SQLite database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns"
)]

use oid_core::fmt::Hex;
use oid_core::{FromSliceError, ObjectId, ParseError};
use rusqlite::{Connection, Error, params};
use sql_tests::{Fixture, ROWS};

fn conversion_source(err: Error) -> Box<dyn std::error::Error + Send + Sync> {
    match err {
        Error::FromSqlConversionFailure(_, _, source) => source,
        other => panic!("expected a conversion failure, got {other:?}"),
    }
}

#[test]
fn round_trip_order_and_range() {
    let mut conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE TABLE items (id BLOB PRIMARY KEY, hex TEXT NOT NULL, parent BLOB NULL)",
    )
    .unwrap();

    let fixture = Fixture::generate();
    let tx = conn.transaction().unwrap();
    {
        let mut insert = tx
            .prepare("INSERT INTO items (id, hex, parent) VALUES (?1, ?2, ?3)")
            .unwrap();
        for (id, hex, parent) in fixture.rows_to_insert() {
            insert.execute(params![id, hex, parent]).unwrap();
        }
    }
    tx.commit().unwrap();

    let blobs: i64 = conn
        .query_row(
            "SELECT sum(typeof(id) = 'blob' AND length(id) = 12) FROM items",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(blobs, ROWS as i64);

    let mut select = conn
        .prepare("SELECT id, hex, hex, parent FROM items ORDER BY id")
        .unwrap();
    let rows: Vec<(ObjectId, ObjectId, Hex, Option<ObjectId>)> = select
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    fixture.check_rows(&rows);

    let (lower, upper) = fixture.range_bounds();
    let mut query = conn
        .prepare("SELECT id FROM items WHERE id >= ?1 AND id < ?2 ORDER BY id")
        .unwrap();
    let found: Vec<ObjectId> = query
        .query_map(params![lower, upper], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    fixture.check_range(&found);
}

#[test]
fn errors_and_null() {
    let conn = Connection::open_in_memory().unwrap();

    let err = conn
        .query_row("SELECT x'0102030405060708090a0b'", [], |r| {
            r.get::<_, ObjectId>(0)
        })
        .unwrap_err();
    let source = conversion_source(err);
    assert_eq!(source.downcast_ref::<FromSliceError>().unwrap().len(), 11);

    let err = conn
        .query_row("SELECT '507f1f77bcf86cd79943901g'", [], |r| {
            r.get::<_, ObjectId>(0)
        })
        .unwrap_err();
    let source = conversion_source(err);
    assert_eq!(
        source.downcast_ref::<ParseError>().unwrap().invalid_char(),
        Some(('g', 23))
    );

    let err = conn
        .query_row("SELECT 42", [], |r| r.get::<_, ObjectId>(0))
        .unwrap_err();
    assert!(matches!(err, Error::InvalidColumnType(..)), "{err:?}");

    let none: Option<ObjectId> = conn
        .query_row("SELECT ?1", params![None::<ObjectId>], |r| r.get(0))
        .unwrap();
    assert_eq!(none, None);

    let id: ObjectId = conn
        .query_row("SELECT '507F1F77BCF86CD799439011'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
}
