//! The `oid-sql` binary, run as a user runs it: files written here (Parquet with an ObjectId
//! column, CSV, JSON lines), tables named by file stem and by `NAME=FILE`, the three output
//! formats with their exact text, and bad input (a one-line message on stderr, exit status 2,
//! nothing on stdout).
#![cfg(feature = "cli")]
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, FixedSizeBinaryArray, Int64Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::parquet::arrow::ArrowWriter;
use oid_std::ObjectId;

/// 2024-01-12T21:44:35Z, 2024-01-12T21:44:36Z, 2024-01-12T21:44:37Z.
const IDS: [&str; 3] = [
    "65a1b2c3d4e5f60718293a4b",
    "65a1b2c4d4e5f60718293a4c",
    "65a1b2c5d4e5f60718293a4d",
];

/// A fresh directory with `orders.parquet` (`_id` the ObjectId extension column, `n` Int64),
/// `users.csv` (`name`, `id` as hex) and `events.json` (JSON lines: `kind`, `id`).
fn files(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("oid-sql-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    let schema = Arc::new(Schema::new(vec![
        Field::new("_id", DataType::FixedSizeBinary(12), false)
            .with_metadata(oid_datafusion::objectid_field_metadata()),
        Field::new("n", DataType::Int64, false),
    ]));
    let ids = IDS.map(|h| ObjectId::parse_str(h).unwrap().bytes());
    let columns: Vec<ArrayRef> = vec![
        Arc::new(FixedSizeBinaryArray::try_from_iter(ids.iter()).unwrap()),
        Arc::new(Int64Array::from(vec![10, 20, 30])),
    ];
    let batch = RecordBatch::try_new(schema.clone(), columns).unwrap();
    let file = std::fs::File::create(dir.join("orders.parquet")).unwrap();
    let mut w = ArrowWriter::try_new(file, schema, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();

    std::fs::write(
        dir.join("users.csv"),
        format!("name,id\nada,{}\ngrace,{}\n", IDS[0], IDS[2].to_uppercase()),
    )
    .unwrap();
    std::fs::write(
        dir.join("events.json"),
        format!(
            "{{\"kind\":\"open\",\"id\":\"{}\"}}\n{{\"kind\":\"close\",\"id\":\"{}\"}}\n",
            IDS[1], IDS[2]
        ),
    )
    .unwrap();
    dir
}

/// Runs `oid-sql ARGS` in `dir`: (exit status, stdout, stderr).
fn oid_sql(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oid-sql"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `oid-sql ARGS`, expecting success with an empty stderr: its stdout.
fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, stdout, stderr) = oid_sql(dir, args);
    assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}: {stdout}");
    stdout
}

/// Runs `oid-sql ARGS`, expecting exit status 2, nothing on stdout and one `oid-sql: error:`
/// line on stderr: that line.
fn fails(dir: &Path, args: &[&str]) -> String {
    let (code, stdout, stderr) = oid_sql(dir, args);
    assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
    assert!(stderr.starts_with("oid-sql: error: "), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    stderr.trim_end().to_owned()
}

#[test]
fn a_table_from_parquet_named_by_its_stem() {
    let dir = files("table");
    let got = ok(
        &dir,
        &[
            "SELECT _id, objectid_timestamp(_id) AS created, n FROM orders ORDER BY n",
            "orders.parquet",
        ],
    );
    let want = "\
+--------------------------+----------------------+----+
| _id                      | created              | n  |
+--------------------------+----------------------+----+
| 65a1b2c3d4e5f60718293a4b | 2024-01-12T21:44:35Z | 10 |
| 65a1b2c4d4e5f60718293a4c | 2024-01-12T21:44:36Z | 20 |
| 65a1b2c5d4e5f60718293a4d | 2024-01-12T21:44:37Z | 30 |
+--------------------------+----------------------+----+
";
    assert_eq!(got, want);
}

#[test]
fn csv_output_over_named_files_of_every_kind() {
    let dir = files("csv");
    // Parquet, CSV and JSON in one join; `o=`, `u=` name two of them, `events` is the stem.
    let sql = "SELECT u.name, e.kind, o.n, objectid_hex(o._id) AS id \
               FROM o JOIN u ON o._id = objectid(u.id) JOIN events e ON o._id = objectid(e.id) \
               ORDER BY o.n";
    let got = ok(
        &dir,
        &[
            "--format",
            "csv",
            sql,
            "o=orders.parquet",
            "u=users.csv",
            "events.json",
        ],
    );
    assert_eq!(got, format!("name,kind,n,id\ngrace,close,30,{}\n", IDS[2]));
}

#[test]
fn json_lines_output() {
    let dir = files("json");
    let sql = "SELECT objectid_hex(_id) AS id, objectid_timestamp(_id) AS created, n \
               FROM orders WHERE objectid_timestamp(_id) >= TIMESTAMP '2024-01-12T21:44:36Z' \
               ORDER BY n";
    let got = ok(&dir, &["--format", "json", sql, "orders.parquet"]);
    let want = format!(
        "{{\"id\":\"{}\",\"created\":\"2024-01-12T21:44:36Z\",\"n\":20}}\n\
         {{\"id\":\"{}\",\"created\":\"2024-01-12T21:44:37Z\",\"n\":30}}\n",
        IDS[1], IDS[2]
    );
    assert_eq!(got, want);
}

#[test]
fn csv_and_json_files_on_their_own() {
    let dir = files("text");
    let got = ok(
        &dir,
        &[
            "--format",
            "csv",
            "SELECT name, objectid_timestamp(id) AS created FROM users ORDER BY name",
            "users.csv",
        ],
    );
    assert_eq!(
        got,
        "name,created\nada,2024-01-12T21:44:35Z\ngrace,2024-01-12T21:44:37Z\n"
    );
    let got = ok(
        &dir,
        &[
            "--format",
            "csv",
            "SELECT kind FROM ev WHERE objectid_timestamp(id) < TIMESTAMP '2024-01-12T21:44:37Z'",
            "ev=events.json",
        ],
    );
    assert_eq!(got, "kind\nopen\n");
}

#[test]
fn stems_that_are_not_plain_names() {
    let dir = files("stems");
    std::fs::copy(dir.join("orders.parquet"), dir.join("Orders.2024.parquet")).unwrap();
    std::fs::copy(dir.join("orders.parquet"), dir.join("Sales.parquet")).unwrap();
    // A dotted stem is one table (not `schema.table`), named as it is, quoted in the query.
    let sql = "SELECT count(*) AS c FROM \"Orders.2024\"";
    assert_eq!(
        ok(&dir, &["--format", "csv", sql, "Orders.2024.parquet"]),
        "c\n3\n"
    );
    // A plain stem is folded as SQL folds unquoted names: `Sales` and `sales` both find it.
    for sql in [
        "SELECT count(*) AS c FROM Sales",
        "SELECT count(*) AS c FROM sales",
    ] {
        assert_eq!(
            ok(&dir, &["--format", "csv", sql, "Sales.parquet"]),
            "c\n3\n"
        );
    }
    assert_eq!(
        ok(
            &dir,
            &[
                "--format",
                "csv",
                "SELECT count(*) AS c FROM ab",
                "AB=Sales.parquet"
            ]
        ),
        "c\n3\n"
    );
}

#[test]
fn an_empty_result() {
    let dir = files("empty");
    let sql = "SELECT n FROM orders WHERE n > 100";
    assert_eq!(ok(&dir, &["--format", "csv", sql, "orders.parquet"]), "");
    assert_eq!(ok(&dir, &["--format", "json", sql, "orders.parquet"]), "");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let dir = files("errors");
    let e = fails(&dir, &["SELEC n FROM orders", "orders.parquet"]);
    assert!(e.contains("SELEC"), "{e}");
    let e = fails(&dir, &["SELECT n FROM orders", "missing.parquet"]);
    assert!(e.contains("missing.parquet: no such file"), "{e}");
    let e = fails(&dir, &["SELECT n FROM nope", "orders.parquet"]);
    assert!(e.contains("nope") && e.contains("not found"), "{e}");
    // An invalid id in the data fails the query at execution: still nothing printed.
    let e = fails(&dir, &["SELECT objectid(name) FROM users", "users.csv"]);
    assert!(e.contains("ada"), "{e}");
    std::fs::copy(dir.join("users.csv"), dir.join("users.txt")).unwrap();
    let e = fails(&dir, &["SELECT 1", "users.txt"]);
    assert!(e.contains("unknown file type"), "{e}");
    let e = fails(&dir, &["SELECT 1", "a=orders.parquet", "a=users.csv"]);
    assert!(e.contains("two files are named `a`"), "{e}");
    let (code, stdout, stderr) = oid_sql(&dir, &["SELECT 1"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(stderr.contains("FILES"), "{stderr}");
    let (code, stdout, stderr) = oid_sql(&dir, &["--format", "xml", "SELECT 1", "users.csv"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(stderr.contains("xml"), "{stderr}");
}
