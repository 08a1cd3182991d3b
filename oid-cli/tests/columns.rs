//! Parquet and Arrow IPC columns: `oid new -o`, `inspect`, `validate` and `convert` reading and
//! writing them, nulls, `--column` with text, and files that cannot be read.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use oid_arrow::ObjectIdArray;
use oid_std::ObjectId;

use common::{ids, oid, ok, temp_dir};

const A: &str = "507f1f77bcf86cd799439011";
const B: &str = "6553f1003f2a91c8d4003039";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Writes `columns` as a Parquet file at `path` with arrow-rs, as another program would.
fn write_parquet(path: &Path, columns: Vec<(Field, ArrayRef)>) {
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = columns.into_iter().unzip();
    let schema = Arc::new(Schema::new(fields));
    let batch = RecordBatch::try_new(schema.clone(), arrays).unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(file, schema, None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
}

/// The `_id` column of a Parquet file, read with arrow-rs: its field and its rows.
fn read_parquet(path: &Path) -> (Field, Vec<Option<ObjectId>>) {
    let file = std::fs::File::open(path).unwrap();
    let builder =
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let field = builder.schema().field(0).clone();
    let mut rows = Vec::new();
    for batch in builder.build().unwrap() {
        let batch = batch.unwrap();
        let ids = ObjectIdArray::try_from(batch.column(0).as_ref()).unwrap();
        rows.extend(ids.iter());
    }
    (field, rows)
}

fn id(hex: &str) -> ObjectId {
    ObjectId::parse_str(hex).unwrap()
}

#[test]
fn new_writes_a_pymongoarrow_column_that_every_command_reads_back() {
    let dir = temp_dir("columns-round-trip");
    for (name, format) in [
        ("ids.parquet", None),
        ("ids.arrow", None),
        ("ids.arrows", None),
        ("ids.feather", None),
        ("ids.bin", Some("parquet")),
        ("ids.data", Some("arrow-stream")),
    ] {
        let path = dir.join(name);
        let mut args = vec!["new", "3000", "-o", s(&path)];
        if let Some(format) = format {
            args.extend(["--format", format]);
        }
        assert_eq!(ok(&args), "", "{name}");
        // `inspect --format hex` and `convert -o -` give the same ids, in order, all distinct.
        let hex = ok(&["inspect", "--format", "hex", "-f", s(&path)]);
        let read = ids(&hex);
        assert_eq!(read.len(), 3000, "{name}");
        assert!(read.windows(2).all(|w| w[0] < w[1]), "{name}");
        assert_eq!(ok(&["convert", s(&path), "-o", "-"]), hex, "{name}");
        oid()
            .args(["validate", "-f", s(&path)])
            .assert()
            .success()
            .stderr("3000 valid, 0 invalid\n");
        // Lines back to a column, and that column to lines: the same ids.
        let lines = dir.join(format!("{name}.txt"));
        std::fs::write(&lines, &hex).unwrap();
        let again = dir.join(format!("{name}.again.parquet"));
        ok(&["convert", s(&lines), "-o", s(&again)]);
        assert_eq!(ok(&["convert", s(&again), "-o", "-"]), hex, "{name}");
    }
    // Any other name is written as the lines would be.
    let txt = dir.join("ids.txt");
    ok(&["new", "3", "-o", s(&txt)]);
    assert_eq!(ids(&std::fs::read_to_string(&txt).unwrap()).len(), 3);
    ok(&["new", "2", "--format", "mongosh", "-o", s(&txt)]);
    let text = std::fs::read_to_string(&txt).unwrap();
    assert!(
        text.lines().count() == 2 && text.lines().all(|l| l.starts_with("ObjectId(\"")),
        "{text}"
    );
    // The Parquet field is pymongoarrow's type, `_id`, not nullable for `new`.
    let (field, rows) = read_parquet(&dir.join("ids.parquet"));
    assert_eq!(field.name(), "_id");
    assert_eq!(field.data_type(), &DataType::FixedSizeBinary(12));
    assert_eq!(field.extension_type_name(), Some("pymongoarrow.objectid"));
    assert!(!field.is_nullable());
    assert_eq!(rows.len(), 3000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_column_file_on_standard_input_and_through_a_pipe() {
    let dir = temp_dir("columns-stdin");
    let path = dir.join("ids.parquet");
    ok(&["new", "10", "-o", s(&path)]);
    let hex = ok(&["convert", s(&path), "-o", "-"]);
    for format in ["parquet", "arrow", "arrow-stream"] {
        let bytes = oid()
            .args(["convert", s(&path), "-o", "-", "--format", format])
            .output()
            .unwrap();
        assert!(bytes.status.success(), "{format}: {bytes:?}");
        // Told apart by their first bytes, from standard input and from a pipe given as a file.
        oid()
            .args(["convert", "-o", "-"])
            .write_stdin(bytes.stdout.clone())
            .assert()
            .success()
            .stdout(hex.clone());
        oid()
            .args(["inspect", "--format", "hex", "-f", "/dev/stdin"])
            .write_stdin(bytes.stdout)
            .assert()
            .success()
            .stdout(hex.clone());
    }
    // `oid new` to standard output (a pipe here), and back from standard input.
    let stream = oid()
        .args(["new", "5", "--format", "arrow-stream"])
        .output()
        .unwrap();
    assert!(stream.status.success(), "{stream:?}");
    oid()
        .args(["validate"])
        .write_stdin(stream.stdout)
        .assert()
        .success()
        .stderr("5 valid, 0 invalid\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nulls_stay_null_in_columns_and_are_skipped_in_lines() {
    let dir = temp_dir("columns-nulls");
    let path = dir.join("nulls.parquet");
    let rows = [Some(id(A)), None, Some(id(B)), None];
    let ids: ObjectIdArray = rows.into_iter().collect();
    write_parquet(&path, vec![(oid_arrow::field("_id", true), ids.into())]);
    // Not invalid: validate counts them apart, exit status 0.
    oid()
        .args(["validate", "-f", s(&path)])
        .assert()
        .success()
        .stderr("2 valid, 0 invalid, 2 null\n");
    assert_eq!(
        ok(&["inspect", "--format", "hex", "-f", s(&path)]),
        format!("{A}\n{B}\n")
    );
    assert_eq!(ok(&["convert", s(&path), "-o", "-"]), format!("{A}\n{B}\n"));
    for out in ["back.parquet", "back.arrow"] {
        let out = dir.join(out);
        ok(&["convert", s(&path), "-o", s(&out)]);
        let again = dir.join("again.parquet");
        ok(&["convert", s(&out), "-o", s(&again)]);
        let (field, back) = read_parquet(&again);
        assert!(field.is_nullable());
        assert_eq!(back, rows);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Parquet file with a column `n` of numbers, a column `text` of ids as text (a null, a
/// pasted form, an invalid row) and a plain `fixed_size_binary[12]` column `raw`.
fn mixed(dir: &Path) -> PathBuf {
    let path = dir.join("mixed.parquet");
    let text = StringArray::from(vec![
        Some(A),
        None,
        Some("ObjectId(\"6553f1003f2a91c8d4003039\")"),
        Some("xyz"),
        Some(&B.to_uppercase()),
    ]);
    let raw: ObjectIdArray = [id(A), id(B), id(A), id(B), id(A)].into_iter().collect();
    write_parquet(
        &path,
        vec![
            (
                Field::new("n", DataType::Int64, false),
                Arc::new(Int64Array::from(vec![1, 2, 3, 4, 5])),
            ),
            (Field::new("text", DataType::Utf8, true), Arc::new(text)),
            (
                Field::new("raw", DataType::FixedSizeBinary(12), false),
                raw.into(),
            ),
        ],
    );
    path
}

#[test]
fn a_named_column_of_text_is_read_as_lines_are() {
    let dir = temp_dir("columns-text");
    let path = mixed(&dir);
    let name = path.display();
    let report = format!(
        "oid: {name}: row 3: \"xyz\": invalid length: expected 24 hex characters, found 3\n"
    );
    oid()
        .args(["validate", "--column", "text", "-f", s(&path)])
        .assert()
        .code(1)
        .stderr(format!("{report}3 valid, 1 invalid, 1 null\n"));
    let out = dir.join("text.parquet");
    oid()
        .args(["convert", "--column", "text", s(&path), "-o", s(&out)])
        .assert()
        .code(1)
        .stderr(format!("{report}oid: 3 ids written, 1 invalid left out\n"));
    let (_, rows) = read_parquet(&out);
    assert_eq!(rows, [Some(id(A)), None, Some(id(B)), Some(id(B))]);
    // Without --column, the one plain fixed_size_binary[12] column is the ids.
    assert_eq!(
        ok(&["convert", s(&path), "-o", "-"]),
        format!("{A}\n{B}\n{A}\n{B}\n{A}\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `oid ARGS`, expecting exit status 2, nothing on standard output and `stderr`.
fn unreadable(args: &[&str], stderr: &str) {
    oid()
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .stderr(stderr.to_owned());
}

#[test]
fn files_that_cannot_be_read_say_why_with_status_2() {
    let dir = temp_dir("columns-bad");
    let path = mixed(&dir);
    let name = path.display().to_string();
    let columns = "its columns: n (Int64), text (Utf8), raw (FixedSizeBinary(12))";
    unreadable(
        &["validate", "--column", "nope", "-f", &name],
        &format!("oid: {name} has no column \"nope\"; {columns}\n0 valid, 0 invalid\n"),
    );
    unreadable(
        &["inspect", "--column", "n", "-f", &name],
        &format!(
            "oid: column \"n\" of {name} is Int64: expected ObjectIds (pymongoarrow.objectid or \
             fixed_size_binary[12]) or text\n"
        ),
    );
    // No ObjectId column at all.
    let numbers = dir.join("numbers.parquet");
    write_parquet(
        &numbers,
        vec![(
            Field::new("n", DataType::Int64, false),
            Arc::new(Int64Array::from(vec![1])),
        )],
    );
    let numbers_name = numbers.display().to_string();
    unreadable(
        &["inspect", "-f", &numbers_name],
        &format!(
            "oid: {numbers_name} has no ObjectId column (pymongoarrow.objectid or \
             fixed_size_binary[12]); its columns: n (Int64); name one with --column\n"
        ),
    );
    // A corrupt file: Parquet's magic number at both ends, nothing sensible between.
    let corrupt = dir.join("corrupt.parquet");
    std::fs::write(
        &corrupt,
        b"PAR1 not really a parquet file \x08\x00\x00\x00PAR1",
    )
    .unwrap();
    let output = oid()
        .args(["validate", "-f", s(&corrupt)])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!(
            "oid: cannot read {} as Parquet: ",
            corrupt.display()
        )),
        "{stderr}"
    );
    // A file named .parquet that is not one, read as --input-format says.
    let text = dir.join("text.parquet");
    std::fs::write(&text, format!("{A}\n")).unwrap();
    let output = oid().args(["inspect", "-f", s(&text)]).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_eq!(
        ok(&[
            "inspect",
            "--input-format",
            "lines",
            "--format",
            "hex",
            "-f",
            s(&text)
        ]),
        format!("{A}\n")
    );
    // A truncated file: convert leaves its output untouched.
    let good = dir.join("good.parquet");
    ok(&["new", "100", "-o", s(&good)]);
    let bytes = std::fs::read(&good).unwrap();
    let cut = dir.join("cut.parquet");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = dir.join("out.parquet");
    let output = oid()
        .args(["convert", s(&cut), "-o", s(&out)])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn binary_formats_are_not_written_to_a_terminal_and_upper_is_for_hex() {
    // `script` (util-linux) gives the command a terminal; without it that part is not checked.
    let on_a_terminal = std::process::Command::new("script")
        .args([
            "-qec",
            "\"$OID\" new 3 --format parquet; echo \"status $?\"",
            "/dev/null",
        ])
        .env("OID", common::bin())
        .stdin(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success());
    if let Some(output) = on_a_terminal {
        let seen = String::from_utf8_lossy(&output.stdout).replace('\r', "");
        assert_eq!(
            seen,
            "oid: --format parquet is binary: not written to a terminal; give -o FILE, or \
             redirect standard output\nstatus 2\n"
        );
    }
    oid()
        .args(["new", "2", "--format", "parquet", "--upper"])
        .assert()
        .code(2)
        .stderr(
            "oid: --upper is for --format hex only: --format parquet writes ids in lower case, \
             as MongoDB does\n",
        );
}

#[test]
fn no_progress_bar_when_piped() {
    let dir = temp_dir("columns-progress");
    let path = dir.join("ids.parquet");
    ok(&["new", "300000", "-o", s(&path)]);
    // `ok` checks that standard error (a pipe) stays empty.
    let out = dir.join("out.arrow");
    ok(&["convert", s(&path), "-o", s(&out)]);
    std::fs::remove_dir_all(&dir).unwrap();
}
