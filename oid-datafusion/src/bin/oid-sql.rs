//! `oid-sql`: DataFusion SQL over Parquet, CSV and JSON files, with oid's ObjectId functions
//! registered (`oid sql ARGS` runs it). Each file is a table named by its file stem, or by
//! `NAME=FILE`; results print as a table, or as CSV or JSON lines with `--format`.
//! Exit status: 0 on success, 2 on a bad query, file or argument.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, ValueEnum};
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::util::display::FormatOptions;
use datafusion::arrow::util::pretty::pretty_format_batches_with_options;
use datafusion::catalog::Session as _;
use datafusion::common::TableReference;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::SessionStateBuilder;
use datafusion::logical_expr::extension_types::DFArrayFormatterFactory;
use datafusion::prelude::{CsvReadOptions, JsonReadOptions, ParquetReadOptions, SessionContext};

/// SQL over Parquet, CSV and JSON files, with the ObjectId functions (`objectid_timestamp`,
/// `objectid`, `timestamp_objectid`, ...).
#[derive(Parser)]
#[command(name = "oid-sql", version, about)]
struct Args {
    /// The query (DataFusion's SQL), e.g. "SELECT objectid_timestamp(_id) FROM orders".
    sql: String,
    /// Files to query (.parquet, .csv, .json/.jsonl/.ndjson): each is a table named by its file
    /// stem (orders.parquet is `orders`); NAME=FILE names it otherwise.
    #[arg(required = true)]
    files: Vec<String>,
    /// Output: an aligned table, CSV with a header, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Table,
    Csv,
    Json,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oid-sql: error: {}", e.strip_backtrace());
            ExitCode::from(2)
        }
    }
}

async fn run(args: Args) -> Result<()> {
    let mut state = SessionStateBuilder::new().with_default_features().build();
    oid_datafusion::register_all(&mut state)?;
    oid_datafusion::register_extension_type(state.extension_type_registry().as_ref())?;
    let ctx = SessionContext::new_with_state(state);
    let mut names = Vec::new();
    for arg in &args.files {
        let (name, file) = table_name(arg)?;
        if names.contains(&name) {
            return Err(DataFusionError::Plan(format!(
                "two files are named `{name}`: name one with NAME=FILE"
            )));
        }
        register(&ctx, &name, file).await?;
        names.push(name);
    }
    let df = ctx.sql(&args.sql).await?;
    let registry = Arc::clone(ctx.state().extension_type_registry());
    let batches = df.collect().await?;
    let mut out = std::io::stdout().lock();
    write(&mut out, &batches, args.format, registry)
}

/// `NAME=FILE`, or the file's stem as the name. A name that is a plain SQL identifier is
/// lowercased, as SQL folds the unquoted names of a query; any other stem (`orders.2024`,
/// `my-data`) is one table name, as it is, for a quoted name (`"orders.2024"`).
fn table_name(arg: &str) -> Result<(String, &str)> {
    let plain = |name: &str| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if let Some((name, file)) = arg.split_once('=')
        && plain(name)
    {
        return Ok((name.to_ascii_lowercase(), file));
    }
    let stem = Path::new(arg)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if stem.is_empty() {
        return Err(DataFusionError::Plan(format!(
            "no table name in {arg:?}: use NAME=FILE"
        )));
    }
    if plain(stem) {
        return Ok((stem.to_ascii_lowercase(), arg));
    }
    Ok((stem.to_owned(), arg))
}

async fn register(ctx: &SessionContext, name: &str, file: &str) -> Result<()> {
    // One bare name: a `&str` would be parsed as `schema.table` at its dots.
    let name = TableReference::bare(name);
    if !Path::new(file).is_file() {
        return Err(DataFusionError::Plan(format!("{file}: no such file")));
    }
    let ext = Path::new(file)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let context =
        |e: DataFusionError| DataFusionError::Plan(format!("{file}: {}", e.strip_backtrace()));
    match ext.as_str() {
        "parquet" => {
            ctx.register_parquet(name, file, ParquetReadOptions::default())
                .await
        }
        "csv" => ctx.register_csv(name, file, CsvReadOptions::new()).await,
        "json" | "jsonl" | "ndjson" => {
            let suffix = format!(".{ext}");
            let options = JsonReadOptions::default().file_extension(&suffix);
            ctx.register_json(name, file, options).await
        }
        _ => {
            return Err(DataFusionError::Plan(format!(
                "{file}: unknown file type (.parquet, .csv, .json, .jsonl or .ndjson)"
            )));
        }
    }
    .map_err(context)
}

fn write(
    out: &mut dyn std::io::Write,
    batches: &[RecordBatch],
    format: Format,
    registry: datafusion::logical_expr::registry::ExtensionTypeRegistryRef,
) -> Result<()> {
    match format {
        Format::Table => {
            let factory = DFArrayFormatterFactory::new(registry);
            let options = FormatOptions::default()
                .with_null("NULL")
                .with_formatter_factory(Some(&factory));
            let table = pretty_format_batches_with_options(batches, &options)?;
            writeln!(out, "{table}")?;
        }
        Format::Csv => {
            let mut w = datafusion::arrow::csv::WriterBuilder::new()
                .with_header(true)
                .build(out);
            for b in batches {
                w.write(b)?;
            }
        }
        Format::Json => {
            let mut w = datafusion::arrow::json::LineDelimitedWriter::new(out);
            for b in batches {
                w.write(b)?;
            }
            w.finish()?;
        }
    }
    Ok(())
}
