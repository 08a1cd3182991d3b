//! `ObjectId` through rusqlite on an in-memory SQLite database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns"
)]

use oid_core::{FromSliceError, Hex, ObjectId, ParseError, Upper};
use rusqlite::{Connection, Error, params};
use sql_tests::{ROWS, generated_ids, shuffled, test_range};

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

    let ids = generated_ids(ROWS);
    let tx = conn.transaction().unwrap();
    {
        let mut insert = tx
            .prepare("INSERT INTO items (id, hex, parent) VALUES (?1, ?2, ?3)")
            .unwrap();
        for i in shuffled(ROWS) {
            let id = ids[i];
            let hex: Hex = if i % 2 == 0 {
                id.to_hex()
            } else {
                id.to_hex_upper()
            };
            let parent: Option<ObjectId> = (i % 3 == 0).then(|| ids[(i + 1) % ROWS]);
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
    let mut sorted = ids.clone();
    sorted.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    let ordered: Vec<ObjectId> = rows.iter().map(|r| r.0).collect();
    assert_eq!(ordered, sorted);
    for (id, from_text, hex, parent) in &rows {
        assert_eq!(from_text, id);
        assert_eq!(*hex, id.to_hex());
        let i = ids.iter().position(|x| x == id).unwrap();
        assert_eq!(*parent, (i % 3 == 0).then(|| ids[(i + 1) % ROWS]));
    }

    let range = test_range();
    let Upper::Lt(upper) = range.upper() else {
        panic!("a closed range has an exclusive end")
    };
    let mut query = conn
        .prepare("SELECT id FROM items WHERE id >= ?1 AND id < ?2 ORDER BY id")
        .unwrap();
    let found: Vec<ObjectId> = query
        .query_map(params![range.lower(), upper], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expected: Vec<ObjectId> = sorted
        .iter()
        .copied()
        .filter(|id| range.contains(id))
        .collect();
    assert_eq!(expected.len(), 3000);
    assert_eq!(found, expected);
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
