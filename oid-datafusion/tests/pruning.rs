//! `objectid_timestamp(_id) <op> TIMESTAMP '…'` becomes a range on `_id`, so a Parquet scan of ids
//! written in creation order skips the row groups outside it (EXPLAIN ANALYZE's
//! `row_groups_pruned_statistics`), and every comparison returns the rows of the plan without the
//! rewrite.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{ctx, register_no_rewrite, rows, rows_and_metrics, time_ordered_parquet};
use datafusion::prelude::ParquetReadOptions;

/// 2024-01-01T00:00:00Z.
const START: u32 = 1_704_067_200;

/// The comparisons' file: 480,000 ids over 48 hours, 2,000-row groups.
async fn session() -> datafusion::prelude::SessionContext {
    parquet_session("ids-480k.parquet", 480_000, 48, 2_000).await
}

/// A session with `ids`: `rows` ids in creation order over `hours` hours from [`START`], in
/// row groups of `group` rows, and `objectid_timestamp_no_rewrite`.
async fn parquet_session(
    name: &str,
    rows: usize,
    hours: u32,
    group: usize,
) -> datafusion::prelude::SessionContext {
    let ctx = ctx();
    register_no_rewrite(&ctx);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("oid-datafusion")
        .join(name);
    let path = time_ordered_parquet(&path, rows, hours, START, group);
    ctx.register_parquet("ids", path.to_str().unwrap(), ParquetReadOptions::default())
        .await
        .unwrap();
    ctx
}

#[tokio::test]
async fn a_one_hour_range_of_10m_ids_reads_only_that_hours_row_groups() {
    // 10 M ids over 1,000 hours (10,000 an hour), in row groups of 2,000.
    const ROWS: usize = 10_000_000;
    const HOURS: u32 = 1_000;
    const GROUP: usize = 2_000;
    let ctx = parquet_session("ids-10m.parquet", ROWS, HOURS, GROUP).await;
    // Hour 245 from the start: 2024-01-11T05:00:00Z.
    let sql = "SELECT objectid_hex(_id) FROM ids WHERE objectid_timestamp(_id) >= TIMESTAMP '2024-01-11T05:00:00Z' \
               AND objectid_timestamp(_id) < TIMESTAMP '2024-01-11T06:00:00Z' ORDER BY 1";
    let per_hour = ROWS / HOURS as usize;
    let (pruned, text, groups) = rows_and_metrics(&ctx, sql).await;
    let (total, matched) = groups.unwrap_or_else(|| panic!("no row group metrics\n{text}"));
    assert_eq!(total, ROWS / GROUP, "{text}");
    // The hour's row groups, plus at most one at each edge.
    assert!(
        matched <= per_hour / GROUP + 2 && matched >= per_hour / GROUP,
        "{matched} of {total}\n{text}"
    );
    // The hour's ids, each once, in order: ids 245 * 10,000 .. 246 * 10,000 of the file.
    assert_eq!(pruned.len(), per_hour);
    let first = oid_std::ObjectId::from_parts(
        START + 245 * 3600,
        [7, 7, 7, 7, (2_450_000 % 251) as u8],
        2_450_000,
    );
    assert_eq!(pruned[0], [first.to_hex().as_str().to_owned()]);
    // Without the rewrite the scan reads every row group and the same rows come out.
    let plain = sql.replace("objectid_timestamp(", "objectid_timestamp_no_rewrite(");
    let (unpruned, text, groups) = rows_and_metrics(&ctx, &plain).await;
    assert_eq!(groups, Some((total, total)), "{text}");
    assert_eq!(pruned, unpruned);
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
