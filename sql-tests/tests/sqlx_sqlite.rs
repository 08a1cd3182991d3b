//! `ObjectId` through sqlx on an in-memory SQLite database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns"
)]

use oid_core::fmt::Hex;
use oid_core::{FromSliceError, ObjectId, ParseError};
use sql_tests::{Fixture, ROWS};
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

    let fixture = Fixture::generate();
    let mut tx = conn.begin().await.unwrap();
    for (id, hex, parent) in fixture.rows_to_insert() {
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
    fixture.check_rows(&rows);

    let (lower, upper) = fixture.range_bounds();
    let found: Vec<ObjectId> =
        sqlx::query_scalar("SELECT id FROM items WHERE id >= ?1 AND id < ?2 ORDER BY id")
            .bind(lower)
            .bind(upper)
            .fetch_all(&mut conn)
            .await
            .unwrap();
    fixture.check_range(&found);
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
