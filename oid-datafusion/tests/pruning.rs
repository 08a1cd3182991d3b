//! `objectid_timestamp(_id) <op> TIMESTAMP '…'` becomes a range on `_id`, so a Parquet scan of ids
//! written in creation order skips the row groups outside it (EXPLAIN ANALYZE's
//! `row_groups_pruned_statistics`), and every comparison returns the rows of the plan without the
//! rewrite.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{column, ctx, register_no_rewrite, row_groups, rows, time_ordered_parquet};
use datafusion::prelude::ParquetReadOptions;

/// 2024-01-01T00:00:00Z.
const START: u32 = 1_704_067_200;
const ROWS: usize = 480_000;
const HOURS: u32 = 48;
const GROUP: usize = 2_000;

async fn session() -> datafusion::prelude::SessionContext {
    let ctx = ctx();
    register_no_rewrite(&ctx);
    let path =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("oid-datafusion/ids-480k.parquet");
    let path = time_ordered_parquet(&path, ROWS, HOURS, START, GROUP);
    ctx.register_parquet("ids", path.to_str().unwrap(), ParquetReadOptions::default())
        .await
        .unwrap();
    ctx
}

#[tokio::test]
async fn a_one_hour_range_reads_only_that_hours_row_groups() {
    let ctx = session().await;
    let sql = "SELECT count(*) FROM ids WHERE objectid_timestamp(_id) >= TIMESTAMP '2024-01-02T05:00:00Z' \
               AND objectid_timestamp(_id) < TIMESTAMP '2024-01-02T06:00:00Z'";
    let explain = rows(&ctx, &format!("EXPLAIN ANALYZE {sql}")).await;
    let text = explain
        .iter()
        .flatten()
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    let (total, matched) = row_groups(&text);
    let per_hour = ROWS / HOURS as usize;
    assert_eq!(total, ROWS / GROUP, "{text}");
    // The hour's rows, plus at most one row group at each edge.
    assert!(
        matched <= per_hour / GROUP + 2 && matched >= per_hour / GROUP,
        "{matched} of {total}\n{text}"
    );
    assert_eq!(column(&ctx, sql).await, [per_hour.to_string()]);
    // Without the rewrite the scan reads every row group.
    let plain = sql.replace("objectid_timestamp(", "objectid_timestamp_no_rewrite(");
    let explain = rows(&ctx, &format!("EXPLAIN ANALYZE {plain}")).await;
    let text = explain
        .iter()
        .flatten()
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        !text.contains("row_groups_pruned_statistics") || row_groups(&text).1 == total,
        "{text}"
    );
    assert_eq!(column(&ctx, &plain).await, [per_hour.to_string()]);
}

#[tokio::test]
async fn every_comparison_gives_the_rows_of_the_plan_without_the_rewrite() {
    let ctx = session().await;
    let t = "TIMESTAMP '2024-01-02T05:00:00Z'";
    let frac = "TIMESTAMP '2024-01-02T05:00:00.5Z'";
    let t2 = "TIMESTAMP '2024-01-02T05:30:00Z'";
    let conditions = [
        format!("f(_id) >= {t}"),
        format!("f(_id) > {t}"),
        format!("f(_id) <= {t}"),
        format!("f(_id) < {t}"),
        format!("f(_id) = {t}"),
        format!("f(_id) <> {t}"),
        format!("f(_id) >= {frac}"),
        format!("f(_id) <= {frac}"),
        format!("f(_id) = {frac}"),
        format!("f(_id) BETWEEN {t} AND {t2}"),
        format!("{t} <= f(_id)"),
        "f(_id) >= TIMESTAMP '1960-01-01T00:00:00Z'".to_owned(),
        "f(_id) < TIMESTAMP '2200-01-01T00:00:00Z'".to_owned(),
        "f(_id) >= '2024-01-02T05:00:00Z'".to_owned(),
    ];
    for c in conditions {
        let query = |f: &str| {
            format!(
                "SELECT count(*), min(objectid_hex(_id)), max(objectid_hex(_id)) FROM ids WHERE {}",
                c.replace("f(", &format!("{f}("))
            )
        };
        let with = rows(&ctx, &query("objectid_timestamp")).await;
        let without = rows(&ctx, &query("objectid_timestamp_no_rewrite")).await;
        assert_eq!(with, without, "{c}");
    }
}

#[tokio::test]
async fn the_rewrite_is_a_range_on_the_column() {
    let ctx = session().await;
    let plan = rows(
        &ctx,
        "EXPLAIN SELECT count(*) FROM ids WHERE objectid_timestamp(_id) BETWEEN \
         TIMESTAMP '2024-01-02T05:00:00Z' AND TIMESTAMP '2024-01-02T05:59:59Z'",
    )
    .await;
    let text = plan
        .iter()
        .flatten()
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    // The bounds are the first ids of 05:00:00 and of 06:00:00 (the plan prints their bytes).
    let bytes = |secs: u32| {
        let id = oid_std::ObjectId::min_for_timestamp(secs).bytes();
        id.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
    };
    let lower = format!(
        "ids._id >= FixedSizeBinary(12, \"{}\")",
        bytes(START + 29 * 3600)
    );
    let upper = format!(
        "ids._id < FixedSizeBinary(12, \"{}\")",
        bytes(START + 30 * 3600)
    );
    assert!(text.contains(&lower) && text.contains(&upper), "{text}");
    assert!(!text.contains("objectid_timestamp(ids._id)"), "{text}");
}
