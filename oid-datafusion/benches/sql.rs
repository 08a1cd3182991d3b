//! The three speed claims of the README, each against its peer in the same run, over the same
//! rows; each pair is checked to give the same result before it is timed:
//!
//! - `prune`: `count(*)` of a one-hour `objectid_timestamp` range over a 10 M-id Parquet file
//!   (creation order, 10,000-row groups), with the range rewrite and without it (the same
//!   function without its preimage);
//! - `timestamp`: `max(objectid_timestamp(_id))` over 10 M ids against DataFusion's
//!   `max(to_timestamp_seconds(secs))` over the same seconds as Int64 (and both with `count`,
//!   the functions alone);
//! - `parse`: `max(objectid(hex))` over 10 M hex ids against `max(arrow_cast(decode(hex, 'hex'),
//!   'FixedSizeBinary(12)'))`, the SQL people write without it (and both with `count`).
//!
//! The in-memory table comes in batches of DataFusion's batch size (8,192 rows), as a scan yields
//! them. `cargo bench --bench sql -- --warm-up-time 1 --measurement-time 5 --noplot` in
//! oid-datafusion (the Parquet file is written once under target/datafusion-bench/).
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(missing_docs)] // criterion_group! writes an undocumented function.

use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use datafusion::arrow::array::{
    ArrayRef, FixedSizeBinaryArray, Int64Array, RecordBatch, StringArray,
};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use oid_std::ObjectId;
use tokio::runtime::Runtime;

#[path = "../tests/common/mod.rs"]
mod common;

const ROWS: usize = 10_000_000;
/// 2024-01-01T00:00:00Z.
const START: u32 = 1_704_067_200;

fn run(rt: &Runtime, ctx: &SessionContext, sql: &str) -> usize {
    rt.block_on(async {
        let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
        batches.iter().map(RecordBatch::num_rows).sum()
    })
}

/// The first row of `sql`, as text: each pair is checked to compute the same result before it
/// is timed (so neither side is a different or an empty computation).
fn first_row(rt: &Runtime, ctx: &SessionContext, sql: &str) -> Vec<String> {
    rt.block_on(common::rows(ctx, sql)).remove(0)
}

fn same(rt: &Runtime, ctx: &SessionContext, a: &str, b: &str) {
    let (x, y) = (first_row(rt, ctx, a), first_row(rt, ctx, b));
    assert_eq!(x, y, "{a}\n{b}");
}

fn memory_table(ctx: &SessionContext) {
    // 10 M ids in creation order, 2,778 per second, in 10 partitions of batches of DataFusion's
    // batch size (8,192 rows, what a scan yields: the functions' outputs are allocated per batch).
    let schema = Arc::new(Schema::new(vec![
        Field::new("_id", DataType::FixedSizeBinary(12), false),
        Field::new("hex", DataType::Utf8, false),
        Field::new("secs", DataType::Int64, false),
    ]));
    let per = ROWS / 10;
    let batches: Vec<RecordBatch> = (0..10)
        .map(|b| {
            let ids: Vec<ObjectId> = (b * per..(b + 1) * per)
                .map(|k| {
                    ObjectId::from_parts(START + (k / 2_778) as u32, [1, 2, 3, 4, 5], k as u32)
                })
                .collect();
            let columns: Vec<ArrayRef> = vec![
                Arc::new(
                    FixedSizeBinaryArray::try_from_iter(ids.iter().map(|i| i.bytes())).unwrap(),
                ),
                Arc::new(
                    ids.iter()
                        .map(|i| Some(i.to_hex().as_str().to_owned()))
                        .collect::<StringArray>(),
                ),
                Arc::new(
                    ids.iter()
                        .map(|i| i64::from(i.timestamp()))
                        .collect::<Int64Array>(),
                ),
            ];
            RecordBatch::try_new(schema.clone(), columns).unwrap()
        })
        .collect();
    let size = ctx.copied_config().batch_size();
    let partitions = batches
        .into_iter()
        .map(|b| {
            (0..b.num_rows())
                .step_by(size)
                .map(|at| b.slice(at, size.min(b.num_rows() - at)))
                .collect()
        })
        .collect();
    let table = MemTable::try_new(schema, partitions).unwrap();
    ctx.register_table("t", Arc::new(table)).unwrap();
}

const OID_TIME: &str = "SELECT max(objectid_timestamp(_id)) FROM t";
const DF_TIME: &str = "SELECT max(to_timestamp_seconds(secs)) FROM t";
const OID_PARSE: &str = "SELECT max(objectid(hex)) FROM t";
const DF_PARSE: &str = "SELECT max(arrow_cast(decode(hex, 'hex'), 'FixedSizeBinary(12)')) FROM t";

fn benches(c: &mut Criterion) {
    let rt = Runtime::new().unwrap();
    let ctx = common::ctx();
    common::register_no_rewrite(&ctx);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/datafusion-bench");
    let file =
        common::time_ordered_parquet(&dir.join("ids-10m.parquet"), ROWS, 1_000, START, 10_000);
    rt.block_on(ctx.register_parquet("ids", file.to_str().unwrap(), ParquetReadOptions::default()))
        .unwrap();
    memory_table(&ctx);

    let hour = "TIMESTAMP '2024-01-10T05:00:00Z' AND f(_id) < TIMESTAMP '2024-01-10T06:00:00Z'";
    let q = |f: &str| {
        format!(
            "SELECT count(*) FROM ids WHERE {f}(_id) >= {}",
            hour.replace("f(", &format!("{f}("))
        )
    };
    let (with, without) = (q("objectid_timestamp"), q("objectid_timestamp_no_rewrite"));
    same(&rt, &ctx, &with, &without);
    assert_eq!(first_row(&rt, &ctx, &with), ["10000"]);
    let mut g = c.benchmark_group("prune: one hour of 10 M ids in Parquet");
    g.sample_size(10);
    g.bench_function("objectid_timestamp (range rewrite)", |b| {
        b.iter(|| run(&rt, &ctx, &with))
    });
    g.bench_function("without the rewrite", |b| {
        b.iter(|| run(&rt, &ctx, &without))
    });
    g.finish();

    let seconds = |sql: &str| {
        sql.replace("max(", "arrow_cast(max(")
            .replace(") FROM", "), 'Int64') FROM")
    };
    same(&rt, &ctx, &seconds(OID_TIME), &seconds(DF_TIME));
    let mut g = c.benchmark_group("timestamp: 10 M rows");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("max(objectid_timestamp(_id))", |b| {
        b.iter(|| run(&rt, &ctx, OID_TIME))
    });
    g.bench_function("max(to_timestamp_seconds(secs)) (Int64)", |b| {
        b.iter(|| run(&rt, &ctx, DF_TIME))
    });
    // The functions alone (count reads only the null count): DataFusion's cast of Int64 to a
    // timestamp is zero-copy (the same buffer, another type), so this pair shows the kernel's
    // own cost against none.
    for sql in [OID_TIME, DF_TIME] {
        let sql = sql.replace("max(", "count(");
        g.bench_function(sql.clone(), |b| b.iter(|| run(&rt, &ctx, &sql)));
    }
    g.finish();

    same(&rt, &ctx, OID_PARSE, DF_PARSE);
    let mut g = c.benchmark_group("parse: 10 M hex ids");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("max(objectid(hex))", |b| {
        b.iter(|| run(&rt, &ctx, OID_PARSE))
    });
    g.bench_function(
        "max(arrow_cast(decode(hex, 'hex'), 'FixedSizeBinary(12)'))",
        |b| b.iter(|| run(&rt, &ctx, DF_PARSE)),
    );
    // The functions alone: max over FixedSizeBinary costs about as much as the parse itself.
    for sql in [OID_PARSE, DF_PARSE] {
        let sql = sql.replace("max(", "count(");
        g.bench_function(sql.clone(), |b| b.iter(|| run(&rt, &ctx, &sql)));
    }
    g.finish();
}

criterion_group!(sql, benches);
criterion_main!(sql);
