//! `ObjectId` through sqlx on an in-memory SQLite database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns"
)]

use oid_core::{FromSliceError, Hex, ObjectId, ParseError, Upper};
use sql_tests::{ROWS, generated_ids, shuffled, test_range};
use sqlx::{Connection, SqliteConnection};

async fn connect() -> SqliteConnection {
    SqliteConnection::connect("sqlite::memory:").await.unwrap()
}

#[tokio::test]
async fn round_trip_order_and_range() {
    let mut conn = connect().await;
    sqlx::query("CREATE TABLE items (id BLOB PRIMARY KEY, hex TEXT NOT NULL, parent BLOB NULL)")
        .execute(&mut conn)
        .await
        .unwrap();

    let ids = generated_ids(ROWS);
    let mut tx = conn.begin().await.unwrap();
    for i in shuffled(ROWS) {
        let id = ids[i];
        let hex: Hex = if i % 2 == 0 {
            id.to_hex()
        } else {
            id.to_hex_upper()
        };
        let parent: Option<ObjectId> = (i % 3 == 0).then(|| ids[(i + 1) % ROWS]);
        sqlx::query("INSERT INTO items (id, hex, parent) VALUES (?1, ?2, ?3)")
            .bind(id)
            .bind(hex)
            .bind(parent)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();

    let (blobs, texts): (i64, i64) = sqlx::query_as(
        "SELECT sum(typeof(id) = 'blob' AND length(id) = 12), sum(typeof(hex) = 'text') FROM items",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!((blobs, texts), (ROWS as i64, ROWS as i64));

    let rows: Vec<(ObjectId, ObjectId, Hex, Option<ObjectId>)> =
        sqlx::query_as("SELECT id, hex, hex, parent FROM items ORDER BY id")
            .fetch_all(&mut conn)
            .await
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
    let found: Vec<ObjectId> =
        sqlx::query_scalar("SELECT id FROM items WHERE id >= ?1 AND id < ?2 ORDER BY id")
            .bind(range.lower())
            .bind(upper)
            .fetch_all(&mut conn)
            .await
            .unwrap();
    let expected: Vec<ObjectId> = sorted
        .iter()
        .copied()
        .filter(|id| range.contains(id))
        .collect();
    assert_eq!(expected.len(), 3000);
    assert_eq!(found, expected);
}

#[tokio::test]
async fn errors_and_null() {
    let mut conn = connect().await;

    let err = sqlx::query_scalar::<_, ObjectId>("SELECT x'0102030405060708090a0b'")
        .fetch_one(&mut conn)
        .await
        .unwrap_err();
    let sqlx::Error::ColumnDecode { source, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(source.downcast_ref::<FromSliceError>().unwrap().len(), 11);

    let err = sqlx::query_scalar::<_, ObjectId>("SELECT '507f1f77bcf86cd79943901g'")
        .fetch_one(&mut conn)
        .await
        .unwrap_err();
    let sqlx::Error::ColumnDecode { source, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        source.downcast_ref::<ParseError>().unwrap().invalid_char(),
        Some(('g', 23))
    );
    assert_eq!(
        source.to_string(),
        "invalid character 'g' at index 23: expected a hex digit"
    );

    let none: Option<ObjectId> = sqlx::query_scalar("SELECT ?1")
        .bind(None::<ObjectId>)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(none, None);

    let id: ObjectId = sqlx::query_scalar("SELECT '507F1F77BCF86CD799439011'")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(id.to_hex(), "507f1f77bcf86cd799439011");
}
