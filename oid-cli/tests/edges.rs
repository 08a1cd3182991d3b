//! The command's edges: non-UTF-8 arguments, empty standard input for `inspect`, `--upper` with
//! the formats, and the legacy fields only when asked for.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use common::{oid, ok, usage_error};

const ID: &str = "507f1f77bcf86cd799439011";

#[cfg(unix)]
fn not_utf8() -> std::ffi::OsString {
    use std::os::unix::ffi::OsStringExt;
    std::ffi::OsString::from_vec(b"\xff\xfe".to_vec())
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_judged_like_a_line_and_the_others_still_checked() {
    oid()
        .arg("validate")
        .arg(not_utf8())
        .arg(ID)
        .arg("xyz")
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "oid: argument 1: \"\u{fffd}\u{fffd}\": not valid UTF-8\n\
             oid: argument 3: \"xyz\": invalid length: expected 24 hex characters, found 3\n\
             1 valid, 2 invalid\n",
        );
    // The same bytes on a line read the same way.
    oid()
        .arg("validate")
        .write_stdin(&b"\xff\xfe\n507f1f77bcf86cd799439011\n"[..])
        .assert()
        .code(1)
        .stderr("oid: line 1: \"\u{fffd}\u{fffd}\": not valid UTF-8\n1 valid, 1 invalid\n");
    // inspect shows the good ones and reports the bad one; the hint still looks inside.
    let mut bad_with_id = b"id=".to_vec();
    bad_with_id.extend_from_slice(ID.as_bytes());
    bad_with_id.push(0xff);
    let bad_with_id = {
        use std::os::unix::ffi::OsStringExt;
        std::ffi::OsString::from_vec(bad_with_id)
    };
    oid()
        .args(["inspect", "--format", "hex", ID])
        .arg(bad_with_id)
        .arg("ObjectId('6553f1003f2a91c8d4003039')")
        .assert()
        .code(1)
        .stdout(format!("{ID}\n6553f1003f2a91c8d4003039\n"))
        .stderr(format!(
            "oid: argument 2: \"id={ID}\u{fffd}\": not valid UTF-8\noid: hint: did you mean {ID}?\n"
        ));
    // Elsewhere a non-UTF-8 value is still a usage error.
    let out = oid()
        .args(["new", "--time"])
        .arg(not_utf8())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn inspect_says_when_standard_input_holds_no_ids() {
    for (stdin, args) in [
        ("", &["inspect"][..]),
        ("\n   \n\n", &["inspect"]),
        ("", &["inspect", "--json"]),
        ("", &["inspect", "-f", "-"]),
    ] {
        oid()
            .args(args)
            .write_stdin(stdin)
            .assert()
            .success()
            .stdout("")
            .stderr("oid: standard input is empty or closed: no ids to inspect\n");
    }
    // Not said when there were ids, or when standard input was not read.
    oid()
        .arg("inspect")
        .write_stdin(format!("{ID}\n"))
        .assert()
        .success()
        .stderr("");
    ok(&["inspect", ID]);
}

#[test]
fn upper_is_for_the_hex_format_only() {
    let upper = ok(&["new", "--upper", "--format", "hex", "--time", "0", "2"]);
    assert_eq!(upper.lines().count(), 2);
    assert!(
        upper
            .lines()
            .all(|l| l == l.to_uppercase() && l.len() == 24)
    );
    for format in ["mongosh", "ejson", "json"] {
        usage_error(
            &["new", "3", "--upper", "--format", format],
            &[
                "--upper is for --format hex only",
                &format!("--format {format} writes ids in lower case"),
            ],
        );
    }
    usage_error(&["new", "--upper", "--json"], &["--upper", "--json"]);
}

#[test]
fn legacy_fields_only_with_legacy() {
    let text = ok(&["inspect", ID]);
    assert!(!text.contains("legacy"), "{text}");
    let text = ok(&["inspect", "--legacy", ID]);
    assert!(
        text.ends_with("legacy machine id  bcf86c\nlegacy process id  55193 (0xd799)\n"),
        "{text}"
    );
    let keys = |out: &str| {
        let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        v.as_object().unwrap().keys().cloned().collect::<Vec<_>>()
    };
    let plain = keys(&ok(&["inspect", "--json", ID]));
    assert!(!plain.iter().any(|k| k.starts_with("legacy")), "{plain:?}");
    let legacy = keys(&ok(&["inspect", "--json", "--legacy", ID]));
    assert_eq!(legacy.len(), plain.len() + 2);
    assert!(legacy.contains(&"legacy_machine_id".to_owned()));
    assert!(legacy.contains(&"legacy_process_id".to_owned()));

    // `new --json`: ids with a random value have no legacy fields; `--legacy` ids do, and
    // theirs are real: this host's machine id.
    let new_plain = keys(&ok(&["new", "--json"]));
    assert_eq!(new_plain, plain);
    let out = ok(&["new", "--json", "--legacy"]);
    let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
    let machine = oid_std::legacy::machine_id() & 0xff_ffff;
    assert_eq!(v["legacy_machine_id"], format!("{machine:06x}"));

    // The help says what the fields are.
    let help = ok(&["inspect", "--help"]);
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "The legacy fields (--legacy) are an interpretation of the layout old drivers used"
        ),
        "{flat}"
    );
}
