//! The audit's fault scenarios as Parquet files, and the findings of the three SQL kinds as
//! `oid-audit` reports them and as the queries of `oid_datafusion::audit` return them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::{FixedSizeBinaryArray, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use oid_audit::fixtures::NOW;
use oid_audit::{Audit, Kind, Options};
use oid_std::ObjectId;

/// A finding as both sides give it: kind, random value, first and last second (RFC 3339), ids,
/// sources (`[s0, s1]`).
pub type Finding = (String, String, String, String, u64, String);

/// The kinds the queries find.
pub const SQL_KINDS: [Kind; 3] = [
    Kind::DuplicateId,
    Kind::SharedRandomValue,
    Kind::OverCapacity,
];

/// Source `i`'s name.
pub fn source_name(i: usize) -> String {
    format!("s{i}")
}

/// What `oid-audit` finds of the three kinds in `ids` (sources 0 and 1), sorted.
pub fn audit(ids: impl IntoIterator<Item = (ObjectId, usize)>) -> Vec<Finding> {
    let mut a = Audit::new(Options::new(NOW));
    let srcs = [a.source(source_name(0)), a.source(source_name(1))];
    for (id, s) in ids {
        a.push(id, srcs[s]).unwrap();
    }
    let r = a.finish().unwrap();
    assert_eq!(r.omitted, 0, "every finding listed");
    let mut out: Vec<Finding> = r
        .findings
        .iter()
        .filter(|f| SQL_KINDS.contains(&f.kind))
        .map(|f| {
            assert_eq!(f.random_values.len(), 1);
            (
                f.kind.name().to_owned(),
                f.random_values[0].clone(),
                f.first.time.clone(),
                f.last.time.clone(),
                f.ids,
                format!("[{}]", f.sources.join(", ")),
            )
        })
        .collect();
    out.sort();
    out
}

fn schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("_id", DataType::FixedSizeBinary(12), false)
            .with_metadata(oid_datafusion::objectid_field_metadata()),
        Field::new("source", DataType::Utf8, false),
    ]))
}

fn columns(chunk: &[(ObjectId, usize)]) -> RecordBatch {
    let names = [source_name(0), source_name(1)];
    let id = FixedSizeBinaryArray::try_from_iter(chunk.iter().map(|(id, _)| id.bytes())).unwrap();
    let source: StringArray = chunk
        .iter()
        .map(|(_, s)| Some(names[*s].as_str()))
        .collect();
    RecordBatch::try_new(schema(), vec![Arc::new(id), Arc::new(source)]).unwrap()
}

/// `ids` as one record batch: `_id` (the ObjectId column) and `source` (its name).
pub fn batch(ids: impl IntoIterator<Item = (ObjectId, usize)>) -> RecordBatch {
    let ids: Vec<(ObjectId, usize)> = ids.into_iter().collect();
    columns(&ids)
}

/// Writes `ids` to a Parquet file at `path`: `_id` (the ObjectId column) and `source` (its name).
pub fn write(path: &Path, ids: impl IntoIterator<Item = (ObjectId, usize)>) -> PathBuf {
    use datafusion::parquet::arrow::ArrowWriter;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let schema = schema();
    let tmp = path.with_extension("partial");
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&tmp).unwrap(), schema.clone(), None).unwrap();
    let mut ids = ids.into_iter().peekable();
    while ids.peek().is_some() {
        let chunk: Vec<(ObjectId, usize)> = ids.by_ref().take(1 << 20).collect();
        w.write(&columns(&chunk)).unwrap();
    }
    w.close().unwrap();
    std::fs::rename(&tmp, path).unwrap();
    path.to_owned()
}

/// How long one audit query may take (a few seconds in the debug build, on one node or a
/// cluster; the fault scenarios are small).
pub const QUERY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// What the queries find in the Parquet file at `path` (registered as `ids`), sorted.
pub async fn sql(ctx: &SessionContext, path: &Path) -> Vec<Finding> {
    ctx.deregister_table("ids").unwrap();
    ctx.register_parquet("ids", path.to_str().unwrap(), ParquetReadOptions::default())
        .await
        .unwrap();
    findings(ctx, &path.display().to_string()).await
}

/// What the queries find in the table or view `ids` (`what` names it in a message), sorted.
async fn findings(ctx: &SessionContext, what: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    for (kind, query) in oid_datafusion::audit::QUERIES {
        let batches = tokio::time::timeout(QUERY_TIMEOUT, async {
            ctx.sql(query)
                .await
                .unwrap_or_else(|e| panic!("{kind} on {what}: {e}"))
                .collect()
                .await
                .unwrap_or_else(|e| panic!("{kind} on {what}: {e}"))
        })
        .await
        .unwrap_or_else(|_| {
            panic!(
                "{kind} on {what}: no answer after {QUERY_TIMEOUT:?} (on a cluster: a stuck job, \
                 see the processes' standard error)"
            )
        });
        for row in super::format(&batches) {
            out.push((
                kind.to_owned(),
                row[0].clone(),
                row[1].clone(),
                row[2].clone(),
                row[3].parse().unwrap(),
                row[4].clone(),
            ));
        }
    }
    out.sort();
    out
}

/// The README's route for a sharded export: every scenario's ids as one Parquet file per source
/// under `dir` (tables `s0` and `s1`), `ids` the view `SELECT _id, 's0' AS source FROM s0 UNION
/// ALL SELECT _id, 's1' AS source FROM s1`; the queries over it find what the audit finds.
pub async fn check_sharded_scenarios(ctx: &SessionContext, dir: &Path) {
    for s in oid_audit::fixtures::scenarios() {
        let names = [source_name(0), source_name(1)];
        for (i, name) in names.iter().enumerate() {
            let shard = s.ids.iter().copied().filter(|(_, source)| *source == i);
            let file = write(&dir.join(format!("{}-{name}.parquet", s.name)), shard);
            ctx.deregister_table(name.as_str()).unwrap();
            ctx.register_parquet(name, file.to_str().unwrap(), ParquetReadOptions::default())
                .await
                .unwrap();
        }
        ctx.deregister_table("ids").unwrap();
        let view = format!(
            "CREATE VIEW ids AS SELECT _id, '{0}' AS source FROM {0} \
             UNION ALL SELECT _id, '{1}' AS source FROM {1}",
            names[0], names[1]
        );
        ctx.sql(&view).await.unwrap().collect().await.unwrap();
        let want = audit(s.ids.iter().copied());
        let got = findings(ctx, &format!("{} (two shards)", s.name)).await;
        assert_eq!(got, want, "{} (two shards)", s.name);
    }
}

/// Every scenario of `oid_audit::fixtures` written under `dir`: (name, file, the audit's findings).
pub fn scenarios(dir: &Path) -> Vec<(&'static str, PathBuf, Vec<Finding>)> {
    oid_audit::fixtures::scenarios()
        .into_iter()
        .map(|s| {
            let file = write(
                &dir.join(format!("{}.parquet", s.name)),
                s.ids.iter().copied(),
            );
            (s.name, file, audit(s.ids))
        })
        .collect()
}

/// Checks the queries against the audit on every scenario, and that the scenarios hold
/// findings of the kinds the queries find (duplicates and shared values).
pub async fn check_scenarios(ctx: &SessionContext, dir: &Path) {
    let mut seen = std::collections::BTreeSet::new();
    for (name, file, want) in scenarios(dir) {
        let got = sql(ctx, &file).await;
        assert_eq!(got, want, "{name}");
        seen.extend(want.into_iter().map(|f| f.0));
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["duplicate-id", "shared-random-value"]
    );
    // No ids: no finding (and every stage of the plans over nothing ends).
    let empty = write(&dir.join("empty.parquet"), []);
    assert_eq!(sql(ctx, &empty).await, [], "no ids");
}
