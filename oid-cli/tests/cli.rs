//! Runs the built `oid` binary the way a user would.

// clippy.toml allows unwrap in `#[test]` functions; the helpers here are test code too.
#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use oid_core::ObjectId;
use predicates::prelude::*;

fn oid() -> Command {
    Command::cargo_bin("oid").unwrap()
}

/// Runs `oid` with `args` and returns stdout, checking exit status 0 and an empty stderr.
fn ok(args: &[&str]) -> String {
    let output = oid().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    assert!(output.stderr.is_empty(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Runs `oid` with `args`, expecting exit status 2 (a usage error), nothing on stdout, and a
/// first line on stderr that contains every one of `needles`.
fn usage_error(args: &[&str], needles: &[&str]) {
    let output = oid().args(args).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    assert!(output.stdout.is_empty(), "{args:?}: {output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    let first = stderr.lines().next().unwrap_or_default();
    for needle in needles {
        assert!(
            first.contains(needle),
            "{args:?}: {needle:?} not in {first:?}"
        );
    }
}

fn ids(text: &str) -> Vec<ObjectId> {
    text.lines()
        .map(|l| ObjectId::parse_str(l).unwrap())
        .collect()
}

// ---- oid new ----

#[test]
fn new_defaults_to_one_lowercase_id_of_now() {
    let out = ok(&["new"]);
    let ids = ids(&out);
    assert_eq!(ids.len(), 1);
    assert_eq!(out, format!("{}\n", ids[0].to_hex()));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(u64::from(ids[0].timestamp()).abs_diff(now) < 60);
}

#[test]
fn new_with_time_has_the_worked_example_shape() {
    let out = ok(&["new", "--time", "1700000000", "3"]);
    let ids = ids(&out);
    assert_eq!(ids.len(), 3);
    let first = ids[0].to_parts();
    for (i, id) in ids.iter().enumerate() {
        assert!(id.to_hex().starts_with("6553f100"), "{id}");
        let parts = id.to_parts();
        assert_eq!(parts.timestamp, 1_700_000_000);
        assert_eq!(parts.random, first.random, "one random value per run");
        assert_eq!(parts.counter, (first.counter + i as u32) & 0xff_ffff);
    }
    // A second run is another process: another random value (2^-40 chance of a false failure).
    let again = ok(&["new", "--time", "1700000000"]);
    assert_ne!(
        ObjectId::parse_str(again.trim()).unwrap().to_parts().random,
        first.random
    );
}

#[test]
fn new_time_as_rfc3339_with_any_offset() {
    let timestamp = |time: &str| ids(&ok(&["new", "--time", time]))[0].timestamp();
    for time in [
        "2023-11-14T22:13:20Z",
        "2023-11-14T23:13:20+01:00",
        "2023-11-14T22:13:20.999Z",
    ] {
        assert_eq!(timestamp(time), 1_700_000_000, "{time}");
    }
    assert_eq!(timestamp("2106-02-07T06:28:15Z"), u32::MAX);
    assert_eq!(timestamp("4294967295"), u32::MAX);
    assert_eq!(timestamp("0"), 0);
}

#[test]
fn new_batch_is_unique_with_consecutive_counters() {
    let ids = ids(&ok(&["new", "10000"]));
    assert_eq!(ids.len(), 10_000);
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 10_000);
    let first = ids[0].to_parts();
    for (i, id) in ids.iter().enumerate() {
        let parts = id.to_parts();
        assert_eq!(parts.random, first.random);
        assert_eq!(parts.counter, (first.counter + i as u32) & 0xff_ffff);
    }
}

#[test]
fn new_json_is_an_array_of_strings() {
    let out = ok(&["new", "--json", "--time", "1700000000", "5"]);
    let strings: Vec<String> = serde_json::from_str(&out).unwrap();
    assert_eq!(strings.len(), 5);
    for s in &strings {
        assert_eq!(ObjectId::parse_str(s).unwrap().timestamp(), 1_700_000_000);
        assert_eq!(s.to_lowercase(), *s);
    }
    let empty: Vec<String> = serde_json::from_str(&ok(&["new", "--json", "0"])).unwrap();
    assert!(empty.is_empty());
    assert_eq!(ok(&["new", "0"]), "");
}

#[test]
fn new_upper() {
    let out = ok(&["new", "--upper", "3"]);
    for line in out.lines() {
        assert_eq!(line.len(), 24);
        assert_eq!(line.to_uppercase(), line);
        assert!(
            line.chars()
                .any(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
        );
    }
    let strings: Vec<String> =
        serde_json::from_str(&ok(&["new", "--upper", "--json", "2"])).unwrap();
    assert!(strings.iter().all(|s| s.to_uppercase() == *s));
}

#[test]
fn new_legacy_uses_machine_and_process_id() {
    let child = StdCommand::new(assert_cmd::cargo::cargo_bin("oid"))
        .args(["new", "--legacy", "--time", "1350508407", "3"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let ids = ids(&String::from_utf8(output.stdout).unwrap());
    let first = ids[0].to_legacy_parts();
    assert_eq!(first.machine, oid_std::legacy::machine_id() & 0xff_ffff);
    assert_eq!(first.process_id, pid as u16);
    for (i, id) in ids.iter().enumerate() {
        let parts = id.to_legacy_parts();
        assert_eq!(parts.timestamp, 1_350_508_407);
        assert_eq!(
            (parts.machine, parts.process_id),
            (first.machine, first.process_id)
        );
        assert_eq!(parts.counter, (first.counter + i as u32) & 0xff_ffff);
    }
}

#[test]
fn new_rejects_times_outside_what_an_id_holds() {
    usage_error(
        &["new", "--time", "-1"],
        &["-1", "before 1970-01-01T00:00:00Z"],
    );
    usage_error(
        &["new", "--time", "4294967296"],
        &["4294967296", "after 2106-02-07T06:28:15Z"],
    );
    usage_error(
        &["new", "--time", "2106-02-07T06:28:16Z"],
        &["2106-02-07T06:28:16Z", "after 2106-02-07T06:28:15Z"],
    );
    usage_error(
        &["new", "--time", "1969-12-31T23:59:59Z"],
        &["1969-12-31T23:59:59Z", "before 1970"],
    );
    usage_error(
        &["new", "--time", "yesterday"],
        &["yesterday", "not Unix seconds or an RFC 3339 time"],
    );
    usage_error(
        &["new", "--time", "2023-11-14T22:13:20"],
        &["2023-11-14T22:13:20", "RFC 3339"],
    );
}

#[test]
fn new_rejects_a_bad_count() {
    usage_error(&["new", "many"], &["many"]);
    usage_error(&["new", "-3"], &["-3"]);
    usage_error(&["new", "99999999999999999999"], &["99999999999999999999"]);
}

#[test]
fn new_into_a_closed_pipe_exits_quietly() {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("oid"))
        .args(["new", "1000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line.trim_end().len(), 24);
    drop(stdout); // like `| head -1`
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert_eq!(stderr, "");
}

#[test]
fn new_warns_when_a_fixed_time_run_must_repeat_ids() {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("oid"))
        .args(["new", "--time", "0", "16777217"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert!(
        stderr.starts_with("oid: warning: ids after the first 16777216 repeat"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    // One id less: no warning.
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("oid"))
        .args(["new", "--time", "0", "16777216"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(stderr, "");
}

#[test]
fn write_error_other_than_a_closed_pipe_is_reported() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not on Linux
    };
    let output = StdCommand::new(assert_cmd::cargo::cargo_bin("oid"))
        .args(["new", "10"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("oid: cannot write to standard output: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

#[test]
fn read_error_is_reported() {
    let Ok(dir) = std::fs::File::open("/") else {
        return; // directories cannot be opened as files here
    };
    let output = StdCommand::new(assert_cmd::cargo::cargo_bin("oid"))
        .arg("validate")
        .stdin(dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("oid: cannot read standard input: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

// ---- oid inspect ----

#[test]
fn inspect_shows_time_as_unix_seconds_and_rfc3339() {
    let out = ok(&["inspect", "507f1f77bcf86cd799439011"]);
    assert!(out.contains("1350508407"), "{out}");
    assert!(out.contains("2012-10-17T21:13:27Z"), "{out}");
    assert_eq!(
        out,
        "\
id                 507f1f77bcf86cd799439011
timestamp          1350508407
time               2012-10-17T21:13:27Z
random             bcf86cd799
counter            4427793 (0x439011)
legacy machine id  bcf86c
legacy process id  55193 (0xd799)
"
    );
}

#[test]
fn inspect_json_one_object_per_id_from_stdin() {
    let output = oid()
        .args(["inspect", "--json"])
        .write_stdin("507f1f77bcf86cd799439011\n\n6553F1003F2A91C8D4003039\r\n")
        .output()
        .unwrap();
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).unwrap();
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(
        objects[0],
        serde_json::json!({
            "id": "507f1f77bcf86cd799439011",
            "timestamp": 1_350_508_407,
            "time": "2012-10-17T21:13:27Z",
            "random": "bcf86cd799",
            "counter": 4_427_793,
            "counter_hex": "439011",
            "legacy_machine_id": "bcf86c",
            "legacy_process_id": 55193,
        })
    );
    assert_eq!(objects[1]["id"], "6553f1003f2a91c8d4003039");
    assert_eq!(objects[1]["counter"], 12345);
}

#[test]
fn inspect_reads_what_new_writes() {
    let generated = ok(&["new", "--time", "2024-02-29T12:00:00Z", "4"]);
    let output = oid()
        .args(["inspect", "--json"])
        .write_stdin(generated.clone())
        .output()
        .unwrap();
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).unwrap();
    for (line, id) in out.lines().zip(generated.lines()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["id"], id);
        assert_eq!(v["time"], "2024-02-29T12:00:00Z");
    }
}

#[test]
fn inspect_reports_each_invalid_id_and_inspects_the_rest() {
    oid()
        .args(["inspect", "--json", "xyz", "507f1f77bcf86cd799439011", "507f1f77bcf86cd79943901g"])
        .assert()
        .code(1)
        .stdout(predicate::function(|out: &str| {
            out.lines().count() == 1 && out.contains("\"timestamp\":1350508407")
        }))
        .stderr(
            "oid: argument 1: \"xyz\": invalid length: expected 24 hex characters, found 3\n\
             oid: argument 3: \"507f1f77bcf86cd79943901g\": invalid character 'g' at index 23: expected a hex digit\n",
        );
}

#[test]
fn inspect_nothing_is_nothing() {
    oid()
        .arg("inspect")
        .write_stdin("")
        .assert()
        .success()
        .stdout("")
        .stderr("");
}

// ---- oid validate ----

#[test]
fn validate_all_valid_exits_zero_silently() {
    oid()
        .args([
            "validate",
            "507f1f77bcf86cd799439011",
            "507F1F77BCF86CD799439011",
        ])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    let generated = ok(&["new", "100"]);
    oid()
        .arg("validate")
        .write_stdin(generated)
        .assert()
        .success()
        .stderr("");
}

#[test]
fn validate_reports_line_numbers_and_reasons() {
    oid()
        .arg("validate")
        .write_stdin(&b"507f1f77bcf86cd799439011\n507f1f77bcf86cd7994390110\n\n{\"$oid\": 1}\n\xff\xfe\n"[..])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "oid: line 2: \"507f1f77bcf86cd7994390110\": invalid length: expected 24 hex characters, found 25\n\
             oid: line 4: \"{\\\"$oid\\\": 1}\": invalid length: expected 24 hex characters, found 11\n\
             oid: line 5: \"\u{fffd}\u{fffd}\": not valid UTF-8\n",
        );
}

#[test]
fn validate_keeps_a_long_input_on_one_line() {
    let long = format!("{}\n{}", "a".repeat(10_000), "b\tc");
    let output = oid().arg("validate").write_stdin(long).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 2);
    assert!(stderr.lines().all(|l| l.len() < 120), "{stderr}");
    assert!(stderr.contains("found 10000"));
    assert!(stderr.contains(r#""b\tc""#));
}

// ---- oid range ----

#[test]
fn range_prints_bounds_and_both_filters() {
    let out = ok(&["range", "2023-11-14T22:13:20Z", "1700000002"]);
    assert_eq!(
        out,
        "\
from           2023-11-14T22:13:20Z (1700000000, inclusive)
to             2023-11-14T22:13:22Z (1700000002, exclusive)
min            6553f1000000000000000000
max            6553f101ffffffffffffffff
end            6553f1020000000000000000
extended json  {\"_id\": {\"$gte\": {\"$oid\": \"6553f1000000000000000000\"}, \"$lt\": {\"$oid\": \"6553f1020000000000000000\"}}}
mongosh        { _id: { $gte: ObjectId(\"6553f1000000000000000000\"), $lt: ObjectId(\"6553f1020000000000000000\") } }
"
    );
    let json_line = out
        .lines()
        .find_map(|l| l.strip_prefix("extended json  "))
        .unwrap();
    let filter: serde_json::Value = serde_json::from_str(json_line).unwrap();
    assert_eq!(filter["_id"]["$gte"]["$oid"], "6553f1000000000000000000");
}

#[test]
fn range_json() {
    let out = ok(&["range", "--json", "0", "2106-02-07T06:28:15Z"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "from": 0,
            "from_time": "1970-01-01T00:00:00Z",
            "to": 4_294_967_295_u32,
            "to_time": "2106-02-07T06:28:15Z",
            "min": "000000000000000000000000",
            "max": "fffffffeffffffffffffffff",
            "end": "ffffffff0000000000000000",
            "filter": {"_id": {"$gte": {"$oid": "000000000000000000000000"}, "$lt": {"$oid": "ffffffff0000000000000000"}}},
            "mongosh": "{ _id: { $gte: ObjectId(\"000000000000000000000000\"), $lt: ObjectId(\"ffffffff0000000000000000\") } }",
        })
    );
}

#[test]
fn range_errors() {
    let output = oid()
        .args(["range", "1700000001", "1700000000"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "oid: FROM 2023-11-14T22:13:21Z is later than TO 2023-11-14T22:13:20Z\n"
    );
    let output = oid()
        .args(["range", "5", "1970-01-01T00:00:05Z"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "oid: FROM and TO are both 1970-01-01T00:00:05Z: the window [FROM, TO) is empty\n"
    );
    usage_error(&["range", "-5", "10"], &["-5", "before 1970"]);
    usage_error(&["range", "0", "4294967296"], &["4294967296", "after 2106"]);
    usage_error(&["range", "0", "soon"], &["soon", "RFC 3339"]);
    oid()
        .args(["range", "0"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("required arguments were not provided")
                .and(predicate::str::contains("<TO>")),
        );
}

// ---- oid completions, --help, --version ----

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = ok(&["completions", shell]);
        for word in ["inspect", "validate", "range", "legacy"] {
            assert!(out.contains(word), "{shell}: {word}");
        }
    }
    usage_error(&["completions", "tcsh"], &["tcsh"]);
}

#[test]
fn help_has_examples_on_every_command() {
    for args in [
        &["--help"][..],
        &["new", "--help"],
        &["inspect", "--help"],
        &["validate", "--help"],
        &["range", "--help"],
        &["completions", "--help"],
        &["help", "new"],
    ] {
        let out = ok(args);
        assert!(out.contains("Examples:"), "{args:?}: {out}");
        assert!(out.contains("oid "), "{args:?}: {out}");
    }
}

#[test]
fn version() {
    assert_eq!(
        ok(&["--version"]),
        format!("oid {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn no_command_is_a_usage_error() {
    oid().assert().code(2).stdout("");
    usage_error(&["frobnicate"], &["frobnicate"]);
    usage_error(&["new", "--frobnicate"], &["--frobnicate"]);
}
