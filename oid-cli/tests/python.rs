//! The `oid` command against the real clients: pyarrow with pymongoarrow reads what `oid new` and
//! `oid convert` write as pymongoarrow's `ObjectIdType` with the same ids (nulls kept), and `oid`
//! reads what pyarrow writes with that type.
//!
//! Needs a Python with oid-arrow's peers (`oid-arrow/tests/python/requirements.txt`), named by
//! `OID_PYTHON` (`cargo xtask columns` installs them into `target/venv` and sets it). Without it
//! the tests are skipped, unless `OID_REQUIRE_PYTHON_COLUMNS=1`, which turns a skip into a
//! failure.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{ok, temp_dir};

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

/// Runs `script` with `args`, returns its standard output. The scripts end with `os._exit`:
/// pymongoarrow 1.15 under pyarrow 25 can abort in the interpreter's teardown ("terminate called
/// without an active exception", seen once in four runs) after all work is done.
fn run(python: &Path, script: &str, args: &[&Path]) -> String {
    let output = Command::new(python)
        .args(["-W", "ignore", "-c", script])
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Reads the column `_id` of a Parquet file, an Arrow IPC file or an Arrow IPC stream (by the
/// extension) with pyarrow after `import pymongoarrow`; prints its type's name, then each row's
/// hex (`null` for a null).
const READ: &str = r#"
import os, sys
import pyarrow as pa, pyarrow.parquet as pq, pymongoarrow
from pymongoarrow.types import ObjectIdType
path = sys.argv[1]
if path.endswith(".parquet"):
    table = pq.read_table(path)
elif path.endswith(".arrows"):
    table = pa.ipc.open_stream(path).read_all()
else:
    table = pa.ipc.open_file(path).read_all()
column = table.column("_id")
assert isinstance(column.type, ObjectIdType), column.type
print(column.type.extension_name)
for value in column.combine_chunks().storage.to_pylist():
    print("null" if value is None else value.hex())
sys.stdout.flush()
os._exit(0)
"#;

/// Writes a Parquet file of pymongoarrow's type from hex lines (`null` for a null) with pyarrow
/// and `bson.ObjectId`.
const WRITE: &str = r#"
import os, sys
import bson, pyarrow as pa, pyarrow.parquet as pq
from pymongoarrow.types import ObjectIdType
rows = [None if l.strip() == "null" else bson.ObjectId(l.strip()).binary
        for l in open(sys.argv[1]) if l.strip()]
storage = pa.array(rows, type=pa.binary(12))
pq.write_table(pa.table({"_id": pa.ExtensionArray.from_storage(ObjectIdType(), storage)}), sys.argv[2])
os._exit(0)
"#;

#[test]
fn pyarrow_reads_what_oid_writes_as_pymongoarrows_type() {
    let Some(python) = python() else { return };
    let dir = temp_dir("python-reads");
    let hex = dir.join("ids.txt");
    let lines = ok(&["new", "2000"]);
    std::fs::write(&hex, &lines).unwrap();
    for name in ["new.parquet", "new.arrow", "new.arrows"] {
        let path = dir.join(name);
        ok(&["new", "2000", "-o", path.to_str().unwrap()]);
        let read = run(&python, READ, &[&path]);
        assert!(
            read.starts_with("pymongoarrow.objectid\n"),
            "{name}: {read}"
        );
        assert_eq!(read.lines().count(), 2001, "{name}");
        // The rows are the ids oid reads from the same file.
        let back = ok(&["convert", path.to_str().unwrap(), "-o", "-"]);
        assert_eq!(
            read.lines().skip(1).collect::<Vec<_>>(),
            back.lines().collect::<Vec<_>>()
        );
        let converted = dir.join(format!("converted-{name}"));
        ok(&[
            "convert",
            hex.to_str().unwrap(),
            "-o",
            converted.to_str().unwrap(),
        ]);
        let read = run(&python, READ, &[&converted]);
        assert_eq!(read, format!("pymongoarrow.objectid\n{lines}"), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn oid_reads_what_pyarrow_writes_nulls_included_and_keeps_them() {
    let Some(python) = python() else { return };
    let dir = temp_dir("python-writes");
    let lines = ok(&["new", "1000"]);
    // Every 7th row null.
    let rows: Vec<&str> = lines
        .lines()
        .enumerate()
        .map(|(i, l)| if i % 7 == 3 { "null" } else { l })
        .collect();
    let text = dir.join("rows.txt");
    std::fs::write(&text, rows.join("\n")).unwrap();
    let parquet = dir.join("py.parquet");
    run(&python, WRITE, &[&text, &parquet]);
    let ids: Vec<&str> = rows.iter().copied().filter(|r| *r != "null").collect();
    assert_eq!(
        ok(&["convert", parquet.to_str().unwrap(), "-o", "-"]),
        format!("{}\n", ids.join("\n"))
    );
    let output = common::oid()
        .args(["validate", "-f", parquet.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let nulls = rows.len() - ids.len();
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!("{} valid, 0 invalid, {nulls} null\n", ids.len())
    );
    // Through oid to a column and back to pyarrow: the nulls are where they were.
    let again = dir.join("again.parquet");
    ok(&[
        "convert",
        parquet.to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ]);
    let read = run(&python, READ, &[&again]);
    assert_eq!(
        read,
        format!("pymongoarrow.objectid\n{}\n", rows.join("\n"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
