//! Every function, row by row against oid-core, over the extension column, plain
//! FixedSizeBinary(12), lowercase and mixed-case hex text, with nulls and edge ids (1970's first
//! second, 2106's last); scalars as well as columns.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{column, ctx, error, id_table, rows, sample_ids, with_nulls};
use oid_std::ObjectId;

fn null_or<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "NULL".to_owned(), |v| v.to_string())
}

fn rfc3339(id: &ObjectId) -> String {
    // DataFusion prints Timestamp(Second, UTC) as `YYYY-MM-DDTHH:MM:SSZ`.
    let s = id.rfc3339();
    s.as_str().to_owned()
}

#[tokio::test]
async fn every_id_reader_agrees_with_the_core_on_every_input_type() {
    let ctx = ctx();
    let ids = with_nulls(&sample_ids());
    id_table(&ctx, &ids);
    for input in ["id", "plain", "hex", "mixed"] {
        let got = rows(
            &ctx,
            &format!(
                "SELECT objectid_timestamp({input}), objectid_hex({input}), \
                 objectid_random({input}), objectid_counter({input}), \
                 objectid_hex(objectid({input})), objectid_hex(try_objectid({input})) FROM t"
            ),
        )
        .await;
        assert_eq!(got.len(), ids.len(), "{input}");
        for (row, id) in got.iter().zip(&ids) {
            let random = id.map(|i| {
                i.bytes()[4..9]
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>()
            });
            let want = vec![
                null_or(id.as_ref().map(rfc3339)),
                null_or(id.map(|i| i.to_hex().as_str().to_owned())),
                null_or(random),
                null_or(
                    id.map(|i| u32::from_be_bytes([0, i.bytes()[9], i.bytes()[10], i.bytes()[11]])),
                ),
                null_or(id.map(|i| i.to_hex().as_str().to_owned())),
                null_or(id.map(|i| i.to_hex().as_str().to_owned())),
            ];
            assert_eq!(row, &want, "{input} {id:?}");
        }
    }
}

#[tokio::test]
async fn text_checks_and_lenient_parse_agree_with_the_core() {
    let ctx = ctx();
    let ids = with_nulls(&sample_ids());
    id_table(&ctx, &ids);
    let got = rows(
        &ctx,
        "SELECT bad, objectid_is_valid(bad), objectid_hex(try_objectid(bad)) FROM t",
    )
    .await;
    let mut invalid = 0;
    for row in &got {
        if row[0] == "NULL" {
            assert_eq!(row[1..], ["NULL", "NULL"]);
            continue;
        }
        let core = ObjectId::parse_str(&row[0]).ok();
        assert_eq!(row[1], core.is_some().to_string(), "{row:?}");
        assert_eq!(
            row[2],
            null_or(core.map(|i| i.to_hex().as_str().to_owned())),
            "{row:?}"
        );
        invalid += usize::from(core.is_none());
    }
    assert!(invalid > 10, "the table has invalid rows: {invalid}");
    // `objectid` names the first invalid value.
    let e = error(&ctx, "SELECT objectid(bad) FROM t").await;
    assert!(
        e.contains("objectid: invalid ObjectId \"65a1b2c3d4e5f60718293a4b0\""),
        "{e}"
    );
}

#[tokio::test]
async fn time_to_id_and_back() {
    let ctx = ctx();
    let cases = [
        ("1970-01-01T00:00:00Z", 0u32),
        ("2024-01-02T03:04:05Z", 1_704_164_645),
        ("2106-02-07T06:28:15Z", u32::MAX),
    ];
    for (text, secs) in cases {
        let got = rows(
            &ctx,
            &format!(
                "SELECT objectid_hex(timestamp_objectid(TIMESTAMP '{text}')) AS a, \
                 objectid_hex(objectid_max_for_time(TIMESTAMP '{text}')) AS b, \
                 objectid_timestamp(timestamp_objectid(TIMESTAMP '{text}')) AS c, \
                 objectid_hex(timestamp_objectid({secs})) AS d, \
                 objectid_hex(timestamp_objectid('{text}')) AS e, \
                 objectid_hex(timestamp_objectid(TIMESTAMP '{text}' + INTERVAL '999 milliseconds')) AS f"
            ),
        )
        .await;
        let min = ObjectId::min_for_timestamp(secs)
            .to_hex()
            .as_str()
            .to_owned();
        let max = ObjectId::max_for_timestamp(secs)
            .to_hex()
            .as_str()
            .to_owned();
        assert_eq!(
            got,
            [vec![
                min.clone(),
                max,
                text.to_owned(),
                min.clone(),
                min.clone(),
                min
            ]]
        );
    }
    assert_eq!(
        column(&ctx, "SELECT timestamp_objectid(NULL)").await,
        ["NULL"]
    );
    let e = error(
        &ctx,
        "SELECT timestamp_objectid(TIMESTAMP '1969-12-31T23:59:59Z')",
    )
    .await;
    assert!(
        e.contains(
            "timestamp_objectid: time \"1969-12-31T23:59:59\" (second -1) at row 0 has no ObjectId"
        ),
        "{e}"
    );
    let e = error(
        &ctx,
        "SELECT objectid_max_for_time(TIMESTAMP '2106-02-07T06:28:16Z')",
    )
    .await;
    assert!(
        e.contains("objectid_max_for_time: time \"2106-02-07T06:28:16\" (second 4294967296)"),
        "{e}"
    );
}

#[tokio::test]
async fn columns_of_times_to_ids() {
    let ctx = ctx();
    let ids = with_nulls(&sample_ids());
    id_table(&ctx, &ids);
    let got = rows(
        &ctx,
        "SELECT objectid_hex(timestamp_objectid(objectid_timestamp(id))), \
         objectid_hex(objectid_max_for_time(objectid_timestamp(id))) FROM t",
    )
    .await;
    for (row, id) in got.iter().zip(&ids) {
        let want = id.map(|i| {
            vec![
                ObjectId::min_for_timestamp(i.timestamp())
                    .to_hex()
                    .as_str()
                    .to_owned(),
                ObjectId::max_for_timestamp(i.timestamp())
                    .to_hex()
                    .as_str()
                    .to_owned(),
            ]
        });
        assert_eq!(
            row,
            &want.unwrap_or_else(|| vec!["NULL".into(), "NULL".into()])
        );
    }
}

#[tokio::test]
async fn new_ids_are_fresh_per_row_and_per_call() {
    let ctx = ctx();
    let before = oid_std::new();
    let got = rows(
        &ctx,
        "SELECT objectid_hex(objectid_new()) AS a, objectid_hex(objectid_new()) AS b FROM generate_series(1, 1000)",
    )
    .await;
    let after = oid_std::new();
    let mut all: Vec<ObjectId> = got
        .iter()
        .flatten()
        .map(|h| ObjectId::parse_str(h).unwrap())
        .collect();
    assert_eq!(all.len(), 2000);
    for id in &all {
        assert!(before.timestamp() <= id.timestamp() && id.timestamp() <= after.timestamp());
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 2000, "every row and every call has its own id");
}

#[tokio::test]
async fn every_function_has_documentation() {
    for f in oid_datafusion::functions() {
        let doc = f
            .documentation()
            .unwrap_or_else(|| panic!("{} has no documentation", f.name()));
        assert!(doc.syntax_example.starts_with(f.name()), "{}", f.name());
        assert!(
            doc.sql_example
                .as_deref()
                .is_some_and(|e| e.contains(f.name())),
            "{}",
            f.name()
        );
    }
}
