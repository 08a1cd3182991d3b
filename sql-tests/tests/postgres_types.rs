//! `ObjectId` through postgres-types (the `postgres` client) on a real PostgreSQL server
//! (`cargo xtask sql`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns"
)]

use oid_core::fmt::Hex;
use oid_core::{FromSliceError, ObjectId, ParseError};
use postgres::{Client, NoTls};
use sql_tests::{Fixture, postgres_url};

fn connect(test: &str) -> Option<Client> {
    let url = postgres_url(test)?;
    Some(Client::connect(&url, NoTls).expect("connect to the test server"))
}

/// The source of a row conversion error.
fn conversion_source(err: &postgres::Error) -> &(dyn std::error::Error + 'static) {
    std::error::Error::source(err).expect("a conversion error has a source")
}

#[test]
fn round_trip_order_and_range() {
    let Some(mut client) = connect("postgres_types::round_trip_order_and_range") else {
        return;
    };
    client
        .batch_execute(
            "CREATE TEMP TABLE items (id BYTEA PRIMARY KEY, hex TEXT NOT NULL, parent BYTEA NULL)",
        )
        .unwrap();

    let fixture = Fixture::generate();
    let mut tx = client.transaction().unwrap();
    let insert = tx
        .prepare("INSERT INTO items (id, hex, parent) VALUES ($1, $2, $3)")
        .unwrap();
    for (id, hex, parent) in fixture.rows_to_insert() {
        tx.execute(&insert, &[&id, &hex, &parent]).unwrap();
    }
    tx.commit().unwrap();

    // The hex column is read twice: as an ObjectId and as a Hex.
    let rows: Vec<(ObjectId, ObjectId, Hex, Option<ObjectId>)> = client
        .query("SELECT id, hex, parent FROM items ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(1), r.get(2)))
        .collect();
    fixture.check_rows(&rows);

    let (lower, upper) = fixture.range_bounds();
    let found: Vec<ObjectId> = client
        .query(
            "SELECT id FROM items WHERE id >= $1 AND id < $2 ORDER BY id",
            &[&lower, &upper],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    fixture.check_range(&found);
}

#[test]
fn text_types_errors_and_null() {
    let Some(mut client) = connect("postgres_types::text_types_errors_and_null") else {
        return;
    };
    let id: ObjectId = "507f1f77bcf86cd799439011".parse().unwrap();
    let row = client
        .query_one(
            "SELECT $1::text, upper($1)::varchar(24), CAST($1 AS CHAR(30))",
            &[&id.to_hex()],
        )
        .unwrap();
    for i in 0..3 {
        assert_eq!(row.get::<_, ObjectId>(i), id);
    }

    // Binding an ObjectId to a text parameter is refused (it is BYTEA); Hex is the text form.
    assert!(client.query_one("SELECT $1::text", &[&id]).is_err());

    let row = client
        .query_one("SELECT decode('0102030405060708090a0b', 'hex')", &[])
        .unwrap();
    let err = row.try_get::<_, ObjectId>(0).unwrap_err();
    assert_eq!(
        conversion_source(&err)
            .downcast_ref::<FromSliceError>()
            .unwrap()
            .len(),
        11
    );

    let row = client
        .query_one("SELECT '507f1f77bcf86cd79943901g'::text", &[])
        .unwrap();
    let err = row.try_get::<_, ObjectId>(0).unwrap_err();
    let parse = conversion_source(&err)
        .downcast_ref::<ParseError>()
        .unwrap();
    assert_eq!(parse.invalid_char(), Some(('g', 23)));

    let row = client
        .query_one("SELECT $1::bytea", &[&None::<ObjectId>])
        .unwrap();
    assert_eq!(row.get::<_, Option<ObjectId>>(0), None);
}
