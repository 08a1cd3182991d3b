//! The three speed claims of the README, each against its peer in the same run:
//!
//! - `prune`: a one-hour `objectid_timestamp` range over a 10 M-id Parquet file (creation order,
//!   10,000-row groups), with the range rewrite and without it (the same function without its
//!   preimage);
//! - `timestamp`: `objectid_timestamp` over 10 M ids against DataFusion's `to_timestamp_seconds`
//!   over the same seconds as Int64;
//! - `parse`: `objectid(hex)` over 10 M ids against `arrow_cast(decode(hex, 'hex'),
//!   'FixedSizeBinary(12)')`, the SQL people write without it.
//!
//! `cargo bench --bench sql -- --noplot` in oid-datafusion (the Parquet file is written once
//! under target/datafusion-bench/).
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

fn memory_table(ctx: &SessionContext) {
    // 10 M ids in creation order, 2,778 per second, in 10 batches (DataFusion's partitions).
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
    let table = MemTable::try_new(schema, batches.into_iter().map(|b| vec![b]).collect()).unwrap();
    ctx.register_table("t", Arc::new(table)).unwrap();
}

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
    let mut g = c.benchmark_group("prune: one hour of 10 M ids in Parquet");
    g.sample_size(10);
    g.bench_function("objectid_timestamp (range rewrite)", |b| {
        b.iter(|| run(&rt, &ctx, &q("objectid_timestamp")))
    });
    g.bench_function("without the rewrite", |b| {
        b.iter(|| run(&rt, &ctx, &q("objectid_timestamp_no_rewrite")))
    });
    g.finish();

    let mut g = c.benchmark_group("timestamp: 10 M rows");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("objectid_timestamp(_id)", |b| {
        b.iter(|| run(&rt, &ctx, "SELECT max(objectid_timestamp(_id)) FROM t"))
    });
    g.bench_function("to_timestamp_seconds(secs) (Int64)", |b| {
        b.iter(|| run(&rt, &ctx, "SELECT max(to_timestamp_seconds(secs)) FROM t"))
    });
    g.finish();

    let mut g = c.benchmark_group("parse: 10 M hex ids");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("objectid(hex)", |b| {
        b.iter(|| run(&rt, &ctx, "SELECT max(objectid(hex)) FROM t"))
    });
    g.bench_function(
        "arrow_cast(decode(hex, 'hex'), 'FixedSizeBinary(12)')",
        |b| {
            b.iter(|| {
                run(
                    &rt,
                    &ctx,
                    "SELECT max(arrow_cast(decode(hex, 'hex'), 'FixedSizeBinary(12)')) FROM t",
                )
            })
        },
    );
    g.finish();
}

criterion_group!(sql, benches);
criterion_main!(sql);
