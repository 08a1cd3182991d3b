//! Standard error is buffered: messages keep their order with the output when both go to one
//! place (a terminal, or `2>&1`), and none is lost when they go to a file of their own.

mod common;

use std::process::Command;

const ID: &str = "507f1f77bcf86cd799439011";

/// Runs `sh -c SCRIPT` with the `oid` binary as `$OID`; its exit status and standard output.
#[allow(
    clippy::unwrap_used,
    reason = "test helper: a failed unwrap is a failed test"
)]
fn sh(script: &str) -> (Option<i32>, String) {
    let output = Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("OID", common::bin())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

#[test]
fn with_2_to_1_messages_keep_their_place_among_the_output() {
    let (status, out) = sh(&format!(
        "printf '{ID}\\nnope\\n{ID}\\n\\nbad2\\n' | \"$OID\" inspect --format hex 2>&1"
    ));
    assert_eq!(status, Some(1));
    assert_eq!(
        out,
        format!(
            "{ID}\n\
             oid: line 2: \"nope\": invalid length: expected 24 hex characters, found 4\n\
             {ID}\n\
             oid: line 5: \"bad2\": invalid length: expected 24 hex characters, found 4\n"
        )
    );
}

#[test]
fn with_stderr_in_a_file_of_its_own_every_message_arrives_in_order() {
    // 20,000 invalid lines: more than the 64 KiB buffer holds, so it fills and is flushed.
    let dir = std::env::temp_dir().join(format!("oid-stderr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let err = dir.join("err.txt");
    let (status, out) = sh(&format!(
        "i=0; while [ $i -lt 20000 ]; do echo x$i; i=$((i+1)); done | \"$OID\" validate 2>'{}'; echo $?",
        err.display()
    ));
    assert_eq!(status, Some(0));
    assert_eq!(out, "1\n");
    let text = std::fs::read_to_string(&err).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20_001);
    for (i, line) in lines[..20_000].iter().enumerate() {
        let shown = format!("x{i}");
        assert_eq!(
            *line,
            format!(
                "oid: line {}: {shown:?}: invalid length: expected 24 hex characters, found {}",
                i + 1,
                shown.len()
            )
        );
    }
    assert_eq!(lines[20_000], "0 valid, 20000 invalid");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unreadable_file_is_reported_in_order_with_the_lines_before_it() {
    // The second file cannot be read: reported after the invalid line of the first, then the
    // summary (which counts lines; the unreadable file makes the status 2).
    let dir = std::env::temp_dir().join(format!("oid-stderr-fatal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ids = dir.join("ids.txt");
    std::fs::write(&ids, format!("{ID}\nnope\n")).unwrap();
    let (status, out) = sh(&format!(
        "\"$OID\" validate -f '{}' -f '{}' 2>&1 >/dev/null",
        ids.display(),
        dir.join("missing.txt").display()
    ));
    assert_eq!(status, Some(2));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains(":2: \"nope\": invalid length"), "{out}");
    assert!(lines[1].starts_with("oid: cannot read "), "{out}");
    assert_eq!(lines[2], "1 valid, 1 invalid");
    std::fs::remove_dir_all(&dir).unwrap();
}
