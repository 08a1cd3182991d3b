//! `ObjectId` through sqlx on a real PostgreSQL server (`cargo xtask sql`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns"
)]

use oid_core::fmt::Hex;
use oid_core::{FromSliceError, ObjectId, ParseError};
use sql_tests::{Fixture, postgres_url};
use sqlx::{Connection, PgConnection};

async fn connect(test: &str) -> Option<PgConnection> {
    let url = postgres_url(test)?;
    Some(
        PgConnection::connect(&url)
            .await
            .expect("connect to the test server"),
    )
}

#[tokio::test]
async fn round_trip_order_and_range() {
    let Some(mut conn) = connect("sqlx_postgres::round_trip_order_and_range").await else {
        return;
    };
    sqlx::query(
        "CREATE TEMP TABLE items (id BYTEA PRIMARY KEY, hex TEXT NOT NULL, parent BYTEA NULL)",
    )
    .execute(&mut conn)
    .await
    .unwrap();

    let fixture = Fixture::generate();
    let mut tx = conn.begin().await.unwrap();
    for (id, hex, parent) in fixture.rows_to_insert() {
        sqlx::query("INSERT INTO items (id, hex, parent) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(hex)
            .bind(parent)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();

    // Read back equal, in memcmp order.
    let rows: Vec<(ObjectId, ObjectId, Hex, Option<ObjectId>)> =
        sqlx::query_as("SELECT id, hex, hex, parent FROM items ORDER BY id")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    fixture.check_rows(&rows);

    // A time range through the bounds of `IdRange`.
    let (lower, upper) = fixture.range_bounds();
    let found: Vec<ObjectId> =
        sqlx::query_scalar("SELECT id FROM items WHERE id >= $1 AND id < $2 ORDER BY id")
            .bind(lower)
            .bind(upper)
            .fetch_all(&mut conn)
            .await
            .unwrap();
    fixture.check_range(&found);

    // The same with the ids in a text column and an array parameter.
    let some: Vec<ObjectId> = fixture.ids().iter().step_by(1000).copied().collect();
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM items WHERE id = ANY($1)")
        .bind(&some)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(count, 10);
}

#[tokio::test]
async fn text_types_errors_and_null() {
    let Some(mut conn) = connect("sqlx_postgres::text_types_errors_and_null").await else {
        return;
    };
    let id: ObjectId = "507f1f77bcf86cd799439011".parse().unwrap();
    let (text, varchar, bpchar): (ObjectId, ObjectId, ObjectId) =
        sqlx::query_as("SELECT $1::text, upper($1)::varchar(24), CAST($1 AS CHAR(30))")
            .bind(id.to_hex())
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert_eq!((text, varchar, bpchar), (id, id, id));

    // An 11-byte BYTEA: a typed length error.
    let err = sqlx::query_scalar::<_, ObjectId>("SELECT decode('0102030405060708090a0b', 'hex')")
        .fetch_one(&mut conn)
        .await
        .unwrap_err();
    let sqlx::Error::ColumnDecode { source, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(source.downcast_ref::<FromSliceError>().unwrap().len(), 11);
    assert!(source.to_string().contains("expected 12 bytes, found 11"));

    // Bad hex in a text column: a typed parse error.
    let err = sqlx::query_scalar::<_, ObjectId>("SELECT '507f1f77bcf86cd79943901g'::text")
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

    // NULL into Option<ObjectId>, and None bound as NULL.
    let none: Option<ObjectId> = sqlx::query_scalar("SELECT $1::bytea")
        .bind(None::<ObjectId>)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(none, None);

    // A simple (unprepared) query returns BYTEA as text.
    let row = sqlx::raw_sql("SELECT '\\x507f1f77bcf86cd799439011'::bytea AS id")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    let got: ObjectId = sqlx::Row::try_get(&row, "id").unwrap();
    assert_eq!(got, id);
}
