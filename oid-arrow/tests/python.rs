//! The real clients, both directions: pyarrow with pymongoarrow writes Parquet and Arrow IPC
//! that this crate reads typed; this crate writes files that pyarrow reads as pymongoarrow's
//! `ObjectIdType` with the same bytes, and that Polars and DuckDB read (what they make of the
//! column is checked and printed). 100,000 rows, every 7th null.
//!
//! Needs a Python with the peers of `tests/python/requirements.txt`, named by `OID_PYTHON`
//! (`cargo xtask columns` installs them into `target/venv` and sets it). Without it the tests
//! are skipped, unless `OID_REQUIRE_PYTHON_COLUMNS=1`, which turns a skip into a failure.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use oid_arrow::{Accept, ObjectIdArray, ipc, parquet as pq};
use oid_core::{IdRange, ObjectId};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::properties::WriterProperties;

const ROWS: u32 = 100_000;

/// The rows both sides make (see `tests/python/columns.py`).
fn expected() -> ObjectIdArray {
    (0..ROWS)
        .map(|i| {
            (i % 7 != 3).then(|| {
                ObjectId::from_parts(
                    1_700_000_000 + i,
                    [i as u8, (7 * i) as u8, 0x3f, 0x2a, 0x91],
                    i,
                )
            })
        })
        .collect()
}

/// The interpreter, or `None` (skip) when none is configured and none is required.
fn python() -> Option<PathBuf> {
    let required = std::env::var("OID_REQUIRE_PYTHON_COLUMNS").is_ok_and(|v| v == "1");
    match std::env::var_os("OID_PYTHON") {
        Some(p) => Some(PathBuf::from(p)),
        None if required => panic!("OID_REQUIRE_PYTHON_COLUMNS=1 but OID_PYTHON is not set"),
        None => {
            eprintln!("skipped: set OID_PYTHON (cargo xtask columns does)");
            None
        }
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/columns.py")
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oid-arrow-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(python: &Path, command: &str, dir: &Path) -> String {
    let out = Command::new(python)
        .arg(script())
        .arg(command)
        .arg(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "columns.py {command} failed:\n{stderr}"
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn pyarrow_and_pymongoarrow_write_rust_reads_typed() {
    let Some(python) = python() else { return };
    let dir = scratch("from-python");
    run(&python, "write", &dir);
    let want = expected();

    let parquet = File::open(dir.join("py.parquet")).unwrap();
    let ids = pq::read_ids(parquet, "_id", Accept::Extension).unwrap();
    assert_eq!(ids, want);
    assert_eq!(ids.null_count(), want.null_count());

    let stream = File::open(dir.join("py.arrows")).unwrap();
    assert_eq!(
        ipc::read_stream(stream, "_id", Accept::Extension).unwrap(),
        want
    );

    // pyarrow's row-group statistics bound creation time as ours do: 10 groups of 10,000 rows.
    let file = File::open(dir.join("py.parquet")).unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    assert_eq!(builder.metadata().num_row_groups(), 10);
    let range = IdRange::from_secs(Some(1_700_025_000), Some(1_700_025_100));
    let reader = pq::select_range(builder, "_id", &range)
        .unwrap()
        .build()
        .unwrap();
    let read: usize = reader.map(|b| b.unwrap().num_rows()).sum();
    assert_eq!(read, 10_000);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rust_writes_pyarrow_polars_and_duckdb_read() {
    let Some(python) = python() else { return };
    let dir = scratch("from-rust");
    let want = expected();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(10_000))
        .build();
    pq::write_ids(
        File::create(dir.join("rust.parquet")).unwrap(),
        "_id",
        &want,
        Some(props),
    )
    .unwrap();
    ipc::write_stream(File::create(dir.join("rust.arrows")).unwrap(), "_id", &want).unwrap();

    let out = run(&python, "read", &dir);
    eprintln!("{out}");
    let seen: serde_json::Value = serde_json::from_str(&out).unwrap();
    let nulls = want.null_count();
    for file in ["pyarrow_parquet", "pyarrow_ipc"] {
        let s = &seen[file];
        assert_eq!(s["is_pymongoarrow_objectid"], true, "{file}: {s}");
        assert_eq!(
            s["type"], "extension<pymongoarrow.objectid<ObjectIdType>>",
            "{file}"
        );
        assert_eq!(s["same_bytes"], true, "{file}");
        assert_eq!(s["nulls"], nulls, "{file}");
    }
    // Polars 2.1 with pymongoarrow imported: the ids, nulls kept (its dtype is printed above and
    // documented in the README).
    assert_eq!(seen["polars"]["same_bytes"], true, "{}", seen["polars"]);
    assert_eq!(seen["polars"]["nulls"], nulls);
    // DuckDB: a BLOB, hex text and creation time by the README's SQL.
    let duck = &seen["duckdb"];
    assert_eq!(duck["type"], "BLOB", "{duck}");
    assert_eq!(duck["hex_ok"], true, "{duck}");
    assert_eq!(duck["created_ok"], true, "{duck}");
    assert_eq!(duck["rows"], ROWS);
    let _ = std::fs::remove_dir_all(&dir);
}
