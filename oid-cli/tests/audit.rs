//! `oid audit`: each fault made on purpose is found in every input form, with the right
//! evidence; bad inputs stop it with a message naming where, exit status 2 and no report.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use common::{oid, temp_dir};
use oid_audit::fixtures::{NOW, Scenario, scenarios};
use oid_std::ObjectId;
use serde_json::Value;

/// The input forms written, with a file extension that names them.
const FORMS: &[&str] = &["txt", "jsonl", "json", "csv", "bson", "parquet", "arrows"];

fn write_form(dir: &Path, name: &str, form: &str, ids: &[ObjectId]) -> PathBuf {
    let path = dir.join(format!("{name}.{form}"));
    let mut text = String::new();
    let bytes = match form {
        "txt" => {
            for (i, id) in ids.iter().enumerate() {
                // Every form `oid inspect` reads, mostly bare hex.
                match i % 10 {
                    0 => writeln!(text, "ObjectId(\"{id}\")"),
                    1 => writeln!(text, "{{\"$oid\": \"{id}\"}}"),
                    2 => writeln!(text, "{}", id.to_string().to_uppercase()),
                    _ => writeln!(text, "{id}"),
                }
                .unwrap();
            }
            text.into_bytes()
        }
        "jsonl" => {
            for (i, id) in ids.iter().enumerate() {
                writeln!(
                    text,
                    "{{\"_id\":{{\"$oid\":\"{id}\"}},\"n\":{{\"$numberInt\":\"{i}\"}}}}"
                )
                .unwrap();
            }
            text.into_bytes()
        }
        "json" => {
            text.push('[');
            for (i, id) in ids.iter().enumerate() {
                let sep = if i == 0 { "" } else { ",\n" };
                write!(text, "{sep}{{\"n\":{i},\"_id\":{{\"$oid\":\"{id}\"}},\"tags\":[\"a\",{{\"b\":null}}]}}").unwrap();
            }
            text.push(']');
            text.into_bytes()
        }
        "csv" => {
            text.push_str("n,_id,note\n");
            for (i, id) in ids.iter().enumerate() {
                // mongoexport's form, and plain hex.
                if i % 2 == 0 {
                    writeln!(text, "{i},ObjectId({id}),\"a, b\"").unwrap();
                } else {
                    writeln!(text, "{i},{id},").unwrap();
                }
            }
            text.into_bytes()
        }
        "bson" => {
            let mut out = Vec::new();
            for (i, id) in ids.iter().enumerate() {
                let id = bson::oid::ObjectId::from_bytes(id.bytes());
                bson::doc! {"_id": id, "n": i as i32, "s": "x"}
                    .to_writer(&mut out)
                    .unwrap();
            }
            out
        }
        "parquet" => {
            let mut out = Vec::new();
            let array = oid_arrow::ObjectIdArray::from(ids.to_vec());
            oid_arrow::parquet::write_ids(&mut out, "_id", &array, None).unwrap();
            out
        }
        "arrows" => {
            let mut out = Vec::new();
            let array = oid_arrow::ObjectIdArray::from(ids.to_vec());
            oid_arrow::ipc::write_stream(&mut out, "_id", &array).unwrap();
            out
        }
        _ => unreachable!(),
    };
    std::fs::write(&path, bytes).unwrap();
    path
}

fn audit_json(files: &[PathBuf], extra: &[&str]) -> (i32, Value, String) {
    let out = oid()
        .arg("audit")
        .args(["--format", "json", "--now", &NOW.to_string()])
        .args(extra)
        .args(files)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn check(s: &Scenario, form: &str, files: &[PathBuf]) {
    let (code, json, stderr) = audit_json(files, &[]);
    let what = format!("{} as {form}", s.name);
    assert_eq!(stderr, "", "{what}");
    assert_eq!(code, i32::from(!s.kinds.is_empty()), "{what}: {json:#}");
    let kinds: Vec<&str> = json["counts"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let expected: Vec<&str> = s.kinds.iter().map(|k| k.name()).collect();
    assert_eq!(kinds, expected, "{what}");
    assert_eq!(json["summary"]["ids"], s.ids.len(), "{what}");
    if let Some(value) = s.random_value {
        let f = &json["findings"][0];
        assert_eq!(f["random_values"][0], value, "{what}");
        assert_eq!(f["first"]["second"], s.first_second.unwrap(), "{what}");
        let sources: Vec<String> = s
            .sources
            .iter()
            .map(|&i| files[i].display().to_string())
            .collect();
        assert_eq!(f["sources"], serde_json::json!(sources), "{what}");
    }
}

#[test]
fn every_fault_is_found_in_every_form() {
    let dir = temp_dir("audit-forms");
    for s in scenarios() {
        for form in FORMS {
            let files: Vec<PathBuf> = (0..2)
                .map(|k| {
                    let ids: Vec<ObjectId> = s
                        .ids
                        .iter()
                        .filter(|(_, src)| *src == k)
                        .map(|(id, _)| *id)
                        .collect();
                    write_form(&dir, &format!("{}-{k}", s.name), form, &ids)
                })
                .collect();
            check(&s, form, &files);
        }
    }
}

#[test]
fn forms_are_found_without_extensions_and_from_standard_input() {
    let dir = temp_dir("audit-sniff");
    let s = &scenarios()[1]; // interleaved
    let ids: Vec<ObjectId> = s.ids.iter().map(|(id, _)| *id).collect();
    for form in FORMS {
        let named = write_form(&dir, "all", form, &ids);
        let bare = dir.join(format!("all-{form}-noext"));
        std::fs::rename(&named, &bare).unwrap();
        let (code, json, stderr) = audit_json(std::slice::from_ref(&bare), &[]);
        assert_eq!((code, stderr.as_str()), (1, ""), "{form}");
        assert_eq!(json["counts"]["shared-random-value"], 1, "{form}");
        let out = oid()
            .args(["audit", "--format", "json"])
            .pipe_stdin(&bare)
            .unwrap()
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            json["counts"]["shared-random-value"], 1,
            "{form} on standard input"
        );
        assert_eq!(json["sources"][0]["name"], "standard input");
    }
}

#[test]
fn text_report_and_exit_status() {
    let dir = temp_dir("audit-text");
    let s = &scenarios()[3]; // fork
    let ids: Vec<ObjectId> = s.ids.iter().map(|(id, _)| *id).collect();
    let file = write_form(&dir, "fork", "txt", &ids);
    let out = oid()
        .args(["audit", "--now", &NOW.to_string()])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("2,000 ids (1,700 distinct, 300 repeated) from 1 input\n"),
        "{text}"
    );
    assert!(text.contains("duplicate-id\n  meaning: "), "{text}");
    assert!(text.contains("shared-random-value\n"), "{text}");
    assert!(text.contains("random value 5566778899"), "{text}");
    let honest = &scenarios()[0];
    let ids: Vec<ObjectId> = honest.ids.iter().map(|(id, _)| *id).collect();
    let file = write_form(&dir, "honest", "txt", &ids);
    let out = oid()
        .args(["audit", "--now", &NOW.to_string()])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .ends_with("\nno finding\n")
    );
}

#[test]
fn unreadable_inputs_are_named_and_exit_2() {
    let dir = temp_dir("audit-bad");
    let ids: Vec<ObjectId> = scenarios()[0]
        .ids
        .iter()
        .take(50)
        .map(|(id, _)| *id)
        .collect();
    let cases: Vec<(PathBuf, String)> = {
        let json = write_form(&dir, "cut", "jsonl", &ids);
        let text = std::fs::read_to_string(&json).unwrap();
        std::fs::write(&json, &text[..text.len() - 10]).unwrap();
        let array = write_form(&dir, "cut", "json", &ids);
        let text = std::fs::read_to_string(&array).unwrap();
        std::fs::write(&array, &text[..text.len() - 10]).unwrap();
        let csv = dir.join("nocolumn.csv");
        std::fs::write(&csv, "id,name\n1,a\n").unwrap();
        let bson = write_form(&dir, "cut", "bson", &ids);
        let bytes = std::fs::read(&bson).unwrap();
        std::fs::write(&bson, &bytes[..bytes.len() - 7]).unwrap();
        let binary = dir.join("binary.txt");
        std::fs::write(
            &binary,
            [0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0xff, 0xfe, b'\n'],
        )
        .unwrap();
        vec![
            (json.clone(), format!("oid: {}:50:", json.display())),
            (array.clone(), format!("oid: {}:50:", array.display())),
            (
                csv.clone(),
                format!(
                    "oid: {}: no column \"_id\" in the CSV header (columns: id, name)",
                    csv.display()
                ),
            ),
            (
                bson.clone(),
                format!("oid: {}: document 50 at byte", bson.display()),
            ),
            (
                binary.clone(),
                format!("oid: {}:1: not valid UTF-8", binary.display()),
            ),
        ]
    };
    for (file, needle) in cases {
        let out = oid()
            .args(["audit", "--format", "json"])
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.starts_with(&needle), "{stderr}\nexpected {needle}");
        assert!(out.stdout.is_empty(), "{}", file.display());
    }
    // A missing file.
    let out = oid().args(["audit", "no-such-file.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .starts_with("oid: cannot read no-such-file.txt: ")
    );
}

#[test]
fn the_report_page_is_one_file_with_the_timeline_and_the_findings() {
    let dir = temp_dir("audit-page");
    let s = &scenarios()[3]; // fork: two findings
    let ids: Vec<ObjectId> = s.ids.iter().map(|(id, _)| *id).collect();
    let file = write_form(&dir, "fork", "txt", &ids);
    let page = dir.join("audit.html");
    let out = oid()
        .args(["audit", "--now", &NOW.to_string(), "--report"])
        .arg(&page)
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    // Nothing that could load: no script, no link, no external source.
    for needle in ["<script", "<link", "src=", "url(", "https:"] {
        assert!(!html.contains(needle), "{needle}");
    }
    assert_eq!(
        html.matches("<polyline class=series").count(),
        2,
        "all ids and the one value"
    );
    assert!(html.contains("data-value=\"5566778899\""));
    assert!(html.contains("<line class=finding data-kind=\"duplicate-id\""));
    assert!(html.contains("<line class=finding data-kind=\"shared-random-value\""));
    assert!(html.contains("2,000 ids (1,700 distinct, 300 repeated)"));
    // Shown by a real browser, when one is given (`cargo xtask audit` passes the CI's Chromium).
    if let Some(chromium) = std::env::var_os("OID_CHROMIUM") {
        let dom = std::process::Command::new(chromium)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
            .arg(format!("file://{}", page.display()))
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&dom.stdout);
        assert!(dom.contains("<polyline class=\"series\""), "{dom}");
        assert!(dom.contains("id=\"report\""), "{dom}");
    }
}
