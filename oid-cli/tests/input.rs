//! `oid inspect` and `oid validate`: the forms an id is read in, files, hints, and the line
//! rules (cap, BOM, UTF-8).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use common::{oid, ok, temp_dir};
use predicates::prelude::*;

const ID: &str = "507f1f77bcf86cd799439011";

const TEXT: &str = "\
id                 507f1f77bcf86cd799439011
timestamp          1350508407
time               2012-10-17T21:13:27Z
random             bcf86cd799
counter            4427793 (0x439011)
";

#[test]
fn inspect_reads_every_listed_form() {
    for form in [
        "507f1f77bcf86cd799439011",
        "507F1F77BCF86CD799439011",
        "\"507f1f77bcf86cd799439011\"",
        "'507f1f77bcf86cd799439011'",
        "ObjectId(\"507f1f77bcf86cd799439011\")",
        "ObjectId('507f1f77bcf86cd799439011')",
        "new ObjectId(\"507f1f77bcf86cd799439011\")",
        "{\"$oid\": \"507f1f77bcf86cd799439011\"}",
        "{\"$oid\":\"507f1f77bcf86cd799439011\"}",
        "{ $oid: '507f1f77bcf86cd799439011' }",
    ] {
        assert_eq!(ok(&["inspect", form]), TEXT, "{form}");
        oid()
            .arg("validate")
            .arg(form)
            .assert()
            .success()
            .stderr("1 valid, 0 invalid\n");
    }
}

#[test]
fn inspect_formats() {
    let line = |format: &str| {
        ok(&[
            "inspect",
            "--format",
            format,
            "ObjectId('507F1F77BCF86CD799439011')",
        ])
    };
    assert_eq!(line("text"), TEXT);
    assert_eq!(line("hex"), format!("{ID}\n"));
    assert_eq!(line("ejson"), format!("{{\"$oid\":\"{ID}\"}}\n"));
    assert_eq!(line("mongosh"), format!("ObjectId(\"{ID}\")\n"));
    let json: serde_json::Value = serde_json::from_str(&line("json")).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "id": ID, "timestamp": 1_350_508_407, "time": "2012-10-17T21:13:27Z",
            "random": "bcf86cd799", "counter": 4_427_793, "counter_hex": "439011",
        })
    );
    assert_eq!(ok(&["inspect", "--json", ID]), line("json"));
    // Blocks of text are separated by one blank line; lines formats have none.
    let two = ok(&["inspect", ID, "000000000000000000000000"]);
    assert_eq!(two.matches("\n\n").count(), 1);
    assert_eq!(
        ok(&["inspect", "--format", "hex", ID, ID]),
        format!("{ID}\n{ID}\n")
    );
}

#[test]
fn anything_else_gets_the_parse_error_and_a_hint_when_it_holds_an_id() {
    oid()
        .args(["inspect", "--format", "hex", "id=507f1f77bcf86cd799439011", ID, "ObjectId(\"xyz\")"])
        .assert()
        .code(1)
        .stdout(format!("{ID}\n"))
        .stderr(
            "oid: argument 1: \"id=507f1f77bcf86cd799439011\": invalid length: expected 24 hex characters, found 27\n\
             oid: hint: did you mean 507f1f77bcf86cd799439011?\n\
             oid: argument 3: \"ObjectId(\\\"xyz\\\")\": invalid length: expected 24 hex characters, found 3\n",
        );
    oid()
        .arg("validate")
        .write_stdin("ObjectID(\"507f1f77bcf86cd799439011\")\n507f1f77bcf86cd79943901g\n")
        .assert()
        .code(1)
        .stderr(
            "oid: line 1: \"ObjectID(\\\"507f1f77bcf86cd799439011\\\")\": invalid length: expected 24 hex characters, found 36\n\
             oid: hint: did you mean 507f1f77bcf86cd799439011?\n\
             oid: line 2: \"507f1f77bcf86cd79943901g\": invalid character 'g' at index 23: expected a hex digit\n\
             0 valid, 2 invalid\n",
        );
}

#[test]
fn files_with_f_and_a_hint_for_a_bare_file_name() {
    let dir = temp_dir("files");
    let ids = dir.join("ids.txt");
    std::fs::write(
        &ids,
        format!("\u{feff}{ID}\r\nxyz\n\n{{\"$oid\": \"{ID}\"}}\n"),
    )
    .unwrap();
    let name = ids.to_str().unwrap();
    oid()
        .args(["validate", "-f", name, "--file", "-"])
        .write_stdin(format!("{ID}\n"))
        .assert()
        .code(1)
        .stderr(format!(
            "oid: {name}:2: \"xyz\": invalid length: expected 24 hex characters, found 3\n\
             3 valid, 1 invalid\n"
        ));
    oid()
        .args(["inspect", "--format", "hex", "-f", name, ID])
        .assert()
        .code(1)
        .stdout(format!("{ID}\n{ID}\n{ID}\n"));
    // A file name given as an id: the error, and a hint to use -f.
    oid()
        .args(["validate", name])
        .assert()
        .code(1)
        .stderr(predicate::str::ends_with(format!(
            "\noid: hint: {name:?} is a file; to read ids from it use -f {name}\n0 valid, 1 invalid\n"
        )));
    let missing = dir.join("missing.txt");
    oid()
        .args(["validate", "-f", missing.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(format!(
            "oid: cannot read {}: No such file or directory (os error 2)\n0 valid, 0 invalid\n",
            missing.display()
        ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn validate_reports_line_numbers_reasons_and_a_summary() {
    oid()
        .arg("validate")
        .write_stdin(&b"507f1f77bcf86cd799439011\n507f1f77bcf86cd7994390110\n\n{\"$oid\": 1}\n\xff\xfe\n"[..])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "oid: line 2: \"507f1f77bcf86cd7994390110\": invalid length: expected 24 hex characters, found 25\n\
             oid: line 4: \"{\\\"$oid\\\": 1}\": invalid length: expected 24 hex characters, found 11\n\
             oid: line 5: \"\u{fffd}\u{fffd}\": not valid UTF-8\n\
             1 valid, 3 invalid\n",
        );
    let generated = ok(&["new", "100"]);
    oid()
        .arg("validate")
        .write_stdin(generated)
        .assert()
        .success()
        .stderr("100 valid, 0 invalid\n");
}

#[test]
fn a_bom_is_ignored_and_long_lines_are_skipped_not_stored() {
    let mut input = b"\xef\xbb\xbf507f1f77bcf86cd799439011\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', 10_000));
    input.extend_from_slice(b"\nb\tc\n507f1f77bcf86cd799439011\n");
    oid()
        .arg("validate")
        .write_stdin(input)
        .assert()
        .code(1)
        .stderr(format!(
            "oid: line 2: \"{}\"...: line too long: more than 4096 bytes, skipped\n\
             oid: line 3: \"b\\tc\": invalid length: expected 24 hex characters, found 3\n\
             2 valid, 2 invalid\n",
            "a".repeat(40)
        ));
}

#[test]
fn empty_input() {
    oid()
        .arg("inspect")
        .write_stdin("")
        .assert()
        .success()
        .stdout("")
        .stderr("oid: standard input is empty or closed: no ids to inspect\n");
    oid()
        .arg("validate")
        .write_stdin("\n\n")
        .assert()
        .success()
        .stderr("oid: standard input is empty or closed: no ids to check\n0 valid, 0 invalid\n");
}
