//! Binding and decoding an `ObjectId` against `[u8; 12]` and `Vec<u8>`, in the same run:
//! sqlx on the local PostgreSQL server (`cargo xtask sql bench`; skipped without
//! `OID_TEST_POSTGRES_URL`) and rusqlite on an in-memory SQLite database.
//!
//! * decode: fetch the same 1,000 `BYTEA`/`BLOB` rows into each type;
//! * bind: PostgreSQL gets the 1,000 values as one `BYTEA[]` parameter (each element encoded
//!   by the type's `Encode`), SQLite one value per execution of a cached statement.
//! * PostgreSQL only, without the round trip (whose noise hides nanoseconds): decode column 0
//!   of 1,000 rows fetched once, and encode 1,000 values into one `PgArguments`.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use oid_core::ObjectId;
use sql_tests::{generated_ids, postgres_url};
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::{Arguments, Connection, PgConnection, Row};

const N: usize = 1_000;

fn sqlx_postgres(c: &mut Criterion) {
    let Some(url) = postgres_url("bench sqlx-postgres") else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut conn = rt.block_on(PgConnection::connect(&url)).unwrap();
    let ids = generated_ids(N);
    let arrays: Vec<[u8; 12]> = ids.iter().map(|id| id.bytes()).collect();
    let vecs: Vec<Vec<u8>> = ids.iter().map(|id| id.as_bytes().to_vec()).collect();
    rt.block_on(async {
        sqlx::query("CREATE TEMP TABLE bench (id BYTEA PRIMARY KEY)")
            .execute(&mut conn)
            .await
            .unwrap();
        sqlx::query("INSERT INTO bench SELECT unnest($1::bytea[])")
            .bind(&ids)
            .execute(&mut conn)
            .await
            .unwrap();
    });

    let fetched: Vec<PgRow> = rt
        .block_on(sqlx::query("SELECT id FROM bench").fetch_all(&mut conn))
        .unwrap();
    let mut g = c.benchmark_group("sqlx-postgres decode 1000 fetched rows");
    g.bench_function(BenchmarkId::from_parameter("ObjectId"), |b| {
        b.iter(|| {
            for row in &fetched {
                black_box(row.try_get::<ObjectId, _>(0).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::from_parameter("[u8; 12]"), |b| {
        b.iter(|| {
            for row in &fetched {
                black_box(row.try_get::<[u8; 12], _>(0).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::from_parameter("Vec<u8>"), |b| {
        b.iter(|| {
            for row in &fetched {
                black_box(row.try_get::<Vec<u8>, _>(0).unwrap());
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("sqlx-postgres encode 1000 arguments");
    g.bench_function(BenchmarkId::from_parameter("ObjectId"), |b| {
        b.iter(|| {
            let mut args = PgArguments::default();
            for id in &ids {
                args.add(black_box(*id)).unwrap();
            }
            args
        })
    });
    g.bench_function(BenchmarkId::from_parameter("[u8; 12]"), |b| {
        b.iter(|| {
            let mut args = PgArguments::default();
            for bytes in &arrays {
                args.add(black_box(*bytes)).unwrap();
            }
            args
        })
    });
    g.bench_function(BenchmarkId::from_parameter("Vec<u8>"), |b| {
        b.iter(|| {
            let mut args = PgArguments::default();
            for bytes in &vecs {
                args.add(black_box(bytes)).unwrap();
            }
            args
        })
    });
    g.finish();

    let decode = "SELECT id FROM bench";
    let mut g = c.benchmark_group("sqlx-postgres decode 1000 rows");
    g.bench_function(BenchmarkId::from_parameter("ObjectId"), |b| {
        b.iter(|| {
            let rows: Vec<ObjectId> = rt
                .block_on(sqlx::query_scalar(decode).fetch_all(&mut conn))
                .unwrap();
            black_box(rows)
        })
    });
    g.bench_function(BenchmarkId::from_parameter("[u8; 12]"), |b| {
        b.iter(|| {
            let rows: Vec<[u8; 12]> = rt
                .block_on(sqlx::query_scalar(decode).fetch_all(&mut conn))
                .unwrap();
            black_box(rows)
        })
    });
    g.bench_function(BenchmarkId::from_parameter("Vec<u8>"), |b| {
        b.iter(|| {
            let rows: Vec<Vec<u8>> = rt
                .block_on(sqlx::query_scalar(decode).fetch_all(&mut conn))
                .unwrap();
            black_box(rows)
        })
    });
    g.finish();

    let bind = "SELECT cardinality($1::bytea[])";
    let mut g = c.benchmark_group("sqlx-postgres bind 1000 values");
    g.bench_function(BenchmarkId::from_parameter("ObjectId"), |b| {
        b.iter(|| {
            let n: Option<i32> = rt
                .block_on(
                    sqlx::query_scalar(bind)
                        .bind(black_box(&ids))
                        .fetch_one(&mut conn),
                )
                .unwrap();
            assert_eq!(n, Some(N as i32));
        })
    });
    g.bench_function(BenchmarkId::from_parameter("[u8; 12]"), |b| {
        b.iter(|| {
            let n: Option<i32> = rt
                .block_on(
                    sqlx::query_scalar(bind)
                        .bind(black_box(&arrays))
                        .fetch_one(&mut conn),
                )
                .unwrap();
            assert_eq!(n, Some(N as i32));
        })
    });
    g.bench_function(BenchmarkId::from_parameter("Vec<u8>"), |b| {
        b.iter(|| {
            let n: Option<i32> = rt
                .block_on(
                    sqlx::query_scalar(bind)
                        .bind(black_box(&vecs))
                        .fetch_one(&mut conn),
                )
                .unwrap();
            assert_eq!(n, Some(N as i32));
        })
    });
    g.finish();
}

fn rusqlite(c: &mut Criterion) {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    let ids = generated_ids(N);
    conn.execute_batch("CREATE TABLE bench (id BLOB PRIMARY KEY)")
        .unwrap();
    for id in &ids {
        conn.execute("INSERT INTO bench (id) VALUES (?1)", [id])
            .unwrap();
    }
    let arrays: Vec<[u8; 12]> = ids.iter().map(|id| id.bytes()).collect();
    let vecs: Vec<Vec<u8>> = ids.iter().map(|id| id.as_bytes().to_vec()).collect();

    let mut g = c.benchmark_group("rusqlite decode 1000 rows");
    let mut select = conn.prepare("SELECT id FROM bench").unwrap();
    g.bench_function(BenchmarkId::from_parameter("ObjectId"), |b| {
        b.iter(|| {
            let rows: Vec<ObjectId> = select
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            black_box(rows)
        })
    });
    g.bench_function(BenchmarkId::from_parameter("[u8; 12]"), |b| {
        b.iter(|| {
            let rows: Vec<[u8; 12]> = select
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            black_box(rows)
        })
    });
    g.bench_function(BenchmarkId::from_parameter("Vec<u8>"), |b| {
        b.iter(|| {
            let rows: Vec<Vec<u8>> = select
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            black_box(rows)
        })
    });
    g.finish();

    let mut g = c.benchmark_group("rusqlite bind 1 value");
    let mut bind = conn.prepare("SELECT length(?1)").unwrap();
    g.bench_function(BenchmarkId::from_parameter("ObjectId"), |b| {
        let id = ids[0];
        b.iter(|| {
            bind.query_row([black_box(&id)], |r| r.get::<_, i64>(0))
                .unwrap()
        })
    });
    g.bench_function(BenchmarkId::from_parameter("[u8; 12]"), |b| {
        let bytes = arrays[0];
        b.iter(|| {
            bind.query_row([black_box(&bytes)], |r| r.get::<_, i64>(0))
                .unwrap()
        })
    });
    g.bench_function(BenchmarkId::from_parameter("Vec<u8>"), |b| {
        let bytes = &vecs[0];
        b.iter(|| {
            bind.query_row([black_box(bytes)], |r| r.get::<_, i64>(0))
                .unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, sqlx_postgres, rusqlite);
criterion_main!(benches);
