//! Shared by the integration tests: a session with oid's functions, and id columns.
// Test helpers: a failure here is a failed test.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

pub mod audit;

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, FixedSizeBinaryArray, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::catalog::Session as _;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::SessionContext;
use oid_std::ObjectId;

/// A single-node session with every oid function and the ObjectId type registered.
pub fn ctx() -> SessionContext {
    let mut state = SessionStateBuilder::new().with_default_features().build();
    oid_datafusion::register_all(&mut state).unwrap();
    oid_datafusion::register_extension_type(state.extension_type_registry().as_ref()).unwrap();
    SessionContext::new_with_state(state)
}

/// Runs `sql` and returns the first column of every row, each formatted as DataFusion prints it.
pub async fn column(ctx: &SessionContext, sql: &str) -> Vec<String> {
    rows(ctx, sql)
        .await
        .into_iter()
        .map(|mut r| r.remove(0))
        .collect()
}

/// Runs `sql` and returns every row's values as strings (nulls as `NULL`).
pub async fn rows(ctx: &SessionContext, sql: &str) -> Vec<Vec<String>> {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    format(&batches)
}

/// Batches as rows of strings (nulls as `NULL`).
pub fn format(batches: &[RecordBatch]) -> Vec<Vec<String>> {
    use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
    let options = FormatOptions::default().with_null("NULL");
    let mut out = Vec::new();
    for b in batches {
        let fmts: Vec<_> = b
            .columns()
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &options).unwrap())
            .collect();
        for row in 0..b.num_rows() {
            out.push(fmts.iter().map(|f| f.value(row).to_string()).collect());
        }
    }
    out
}

/// The error of `sql` (planning or execution), as text.
pub async fn error(ctx: &SessionContext, sql: &str) -> String {
    match ctx.sql(sql).await {
        Err(e) => e.to_string(),
        Ok(df) => match df.collect().await {
            Err(e) => e.to_string(),
            Ok(b) => panic!("{sql} succeeded: {:?}", format(&b)),
        },
    }
}

/// Edge and random ids: all zeros, all ones, 1970's first second, 2106's last, a counter wrap,
/// and ids from this process's generator.
pub fn sample_ids() -> Vec<ObjectId> {
    let mut ids = vec![
        ObjectId::from_bytes([0; 12]),
        ObjectId::from_bytes([0xff; 12]),
        ObjectId::from_parts(0, [1, 2, 3, 4, 5], 0),
        ObjectId::from_parts(u32::MAX, [0xab; 5], 0xff_ffff),
        ObjectId::from_parts(1_700_000_000, [0, 0, 0, 0, 1], 0x00_0001),
        ObjectId::from_parts(0x8000_0000, [0xfe, 0xdc, 0xba, 0x98, 0x76], 0x80_0000),
    ];
    ids.extend((0..50).map(|_| oid_std::new()));
    ids
}

/// A table `t` over `ids` (with a null after every 7th row): `id` the extension column, `plain`
/// the same bytes as plain FixedSizeBinary(12), `hex` lowercase, `mixed` mixed-case hex, and
/// `bad` text that is valid on even rows and not on odd ones.
pub fn id_table(ctx: &SessionContext, ids: &[Option<ObjectId>]) {
    let bytes: Vec<Option<[u8; 12]>> = ids.iter().map(|i| i.map(|i| i.bytes())).collect();
    let fsb = FixedSizeBinaryArray::try_from_sparse_iter_with_size(bytes.into_iter(), 12).unwrap();
    let hex: StringArray = ids
        .iter()
        .map(|i| i.map(|i| i.to_hex().as_str().to_owned()))
        .collect();
    let mixed: StringArray = ids
        .iter()
        .map(|i| i.map(|i| mixed_case(i.to_hex().as_str())))
        .collect();
    let bad: StringArray = ids
        .iter()
        .enumerate()
        .map(|(n, i)| {
            i.map(|i| {
                if n % 2 == 0 {
                    i.to_hex().as_str().to_owned()
                } else {
                    invalid(n)
                }
            })
        })
        .collect();
    let schema = Schema::new(vec![
        Field::new("id", DataType::FixedSizeBinary(12), true)
            .with_metadata(oid_datafusion::objectid_field_metadata()),
        Field::new("plain", DataType::FixedSizeBinary(12), true),
        Field::new("hex", DataType::Utf8, true),
        Field::new("mixed", DataType::Utf8, true),
        Field::new("bad", DataType::Utf8, true),
    ]);
    let columns: Vec<ArrayRef> = vec![
        Arc::new(fsb.clone()),
        Arc::new(fsb),
        Arc::new(hex),
        Arc::new(mixed),
        Arc::new(bad),
    ];
    let batch = RecordBatch::try_new(Arc::new(schema), columns).unwrap();
    ctx.register_batch("t", batch).unwrap();
}

/// `ids` with a null after every 7th.
pub fn with_nulls(ids: &[ObjectId]) -> Vec<Option<ObjectId>> {
    let mut out = Vec::new();
    for (n, id) in ids.iter().enumerate() {
        out.push(Some(*id));
        if n % 7 == 6 {
            out.push(None);
        }
    }
    out
}

fn mixed_case(hex: &str) -> String {
    hex.chars()
        .enumerate()
        .map(|(n, c)| {
            if n % 2 == 0 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

/// Invalid text of several kinds: too short, too long, a non-hex digit, empty, spaces.
fn invalid(n: usize) -> String {
    match n % 5 {
        0 => "65a1b2c3d4e5f60718293a4".to_owned(),
        1 => "65a1b2c3d4e5f60718293a4b0".to_owned(),
        2 => "65a1b2c3d4e5f60718293a4g".to_owned(),
        3 => String::new(),
        _ => " 65a1b2c3d4e5f60718293a4b".to_owned(),
    }
}

/// `objectid_timestamp` under another name and without its preimage: the same values, with the
/// range rewrite off (the plan every comparison is checked against).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct NoRewrite(pub datafusion::logical_expr::ScalarUDF);

impl datafusion::logical_expr::ScalarUDFImpl for NoRewrite {
    fn name(&self) -> &str {
        "objectid_timestamp_no_rewrite"
    }
    fn signature(&self) -> &datafusion::logical_expr::Signature {
        self.0.signature()
    }
    fn return_type(&self, t: &[DataType]) -> datafusion::common::Result<DataType> {
        self.0.return_type(t)
    }
    fn coerce_types(&self, t: &[DataType]) -> datafusion::common::Result<Vec<DataType>> {
        self.0.coerce_types(t)
    }
    fn invoke_with_args(
        &self,
        args: datafusion::logical_expr::ScalarFunctionArgs,
    ) -> datafusion::common::Result<datafusion::logical_expr::ColumnarValue> {
        self.0.invoke_with_args(args)
    }
}

/// Registers [`NoRewrite`] as `objectid_timestamp_no_rewrite`.
pub fn register_no_rewrite(ctx: &SessionContext) {
    let f = oid_datafusion::functions()
        .into_iter()
        .find(|f| f.name() == "objectid_timestamp")
        .unwrap();
    ctx.register_udf(datafusion::logical_expr::ScalarUDF::new_from_impl(
        NoRewrite(f.as_ref().clone()),
    ));
}

/// Writes `rows` ids in creation order over `hours` hours from `start` (seconds) to a Parquet file
/// with `group` rows per row group (the file is kept when it exists with the same name).
pub fn time_ordered_parquet(
    path: &std::path::Path,
    rows: usize,
    hours: u32,
    start: u32,
    group: usize,
) -> std::path::PathBuf {
    use datafusion::parquet::arrow::ArrowWriter;
    use datafusion::parquet::file::properties::WriterProperties;
    // One writer at a time (the tests of a binary run on threads).
    static WRITING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = WRITING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if path.exists() {
        return path.to_owned();
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let schema = Arc::new(Schema::new(vec![
        Field::new("_id", DataType::FixedSizeBinary(12), false)
            .with_metadata(oid_datafusion::objectid_field_metadata()),
    ]));
    let tmp = path.with_extension("partial");
    let file = std::fs::File::create(&tmp).unwrap();
    // No dictionary (every id is distinct: a dictionary per row group only costs time); the
    // row groups' minimum and maximum are what the scans prune on.
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group))
        .set_dictionary_enabled(false)
        .build();
    let mut w = ArrowWriter::try_new(file, schema.clone(), Some(props)).unwrap();
    let span = u64::from(hours) * 3600;
    let chunk = 65_536;
    let mut i = 0;
    while i < rows {
        let n = chunk.min(rows - i);
        let ids = (i..i + n).map(|k| {
            let t = start + (k as u64 * span / rows as u64) as u32;
            ObjectId::from_parts(t, [7, 7, 7, 7, (k % 251) as u8], (k % 0x100_0000) as u32).bytes()
        });
        let array = FixedSizeBinaryArray::try_from_iter(ids).unwrap();
        w.write(&RecordBatch::try_new(schema.clone(), vec![Arc::new(array)]).unwrap())
            .unwrap();
        i += n;
    }
    w.close().unwrap();
    std::fs::rename(&tmp, path).unwrap();
    path.to_owned()
}

/// Runs `sql` and returns its rows (as [`rows`] does), its plan printed with the metrics of that
/// run (what `EXPLAIN ANALYZE` prints), and the Parquet scan's row groups after pruning by
/// statistics, `(total, matched)`, summed over the plan (`None` without a Parquet scan).
pub async fn rows_and_metrics(
    ctx: &SessionContext,
    sql: &str,
) -> (Vec<Vec<String>>, String, Option<(usize, usize)>) {
    use datafusion::physical_plan::display::DisplayableExecutionPlan;
    let plan = ctx
        .sql(sql)
        .await
        .unwrap()
        .create_physical_plan()
        .await
        .unwrap();
    let batches = datafusion::physical_plan::collect(plan.clone(), ctx.task_ctx())
        .await
        .unwrap();
    let text = DisplayableExecutionPlan::with_metrics(plan.as_ref())
        .indent(true)
        .to_string();
    (format(&batches), text, row_groups(plan.as_ref()))
}

/// `row_groups_pruned_statistics` of every node of `plan`: `(total, matched)`.
fn row_groups(plan: &dyn datafusion::physical_plan::ExecutionPlan) -> Option<(usize, usize)> {
    use datafusion::physical_plan::metrics::MetricValue;
    let mine = plan.metrics().into_iter().flat_map(|set| {
        set.iter()
            .filter_map(|m| match m.value() {
                MetricValue::PruningMetrics {
                    name,
                    pruning_metrics,
                } if name == "row_groups_pruned_statistics" => Some((
                    pruning_metrics.pruned() + pruning_metrics.matched(),
                    pruning_metrics.matched(),
                )),
                _ => None,
            })
            .collect::<Vec<_>>()
    });
    let children = plan
        .children()
        .into_iter()
        .filter_map(|c| row_groups(c.as_ref()));
    mine.chain(children)
        .reduce(|(t, m), (t2, m2)| (t + t2, m + m2))
}
