//! Exit statuses, closed and failing streams, bounded memory, and the help.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command as StdCommand, Stdio};

use common::{bin, oid, ok, usage_error};

#[test]
fn a_closed_pipe_is_a_quiet_success() {
    let mut child = StdCommand::new(bin())
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
    assert!(child.wait().unwrap().success());
    assert_eq!(stderr, "");
}

#[test]
fn a_full_device_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not on Linux
    };
    let output = StdCommand::new(bin())
        .args(["new", "10"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "oid: cannot write to standard output: No space left on device (os error 28)\n"
    );
}

/// Runs `sh -c SCRIPT` with the `oid` binary as `$OID`.
fn sh(script: &str) -> std::process::Output {
    StdCommand::new("sh")
        .args(["-c", script])
        .env("OID", bin())
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdout_is_an_error() {
    if !std::path::Path::new("/proc/self/fdinfo").exists() {
        return; // detected on Linux only
    }
    for command in ["new 5", "inspect 507f1f77bcf86cd799439011", "range 0 1"] {
        let output = sh(&format!("\"$OID\" {command} >&-"));
        assert_eq!(output.status.code(), Some(1), "{command}");
        assert_eq!(
            String::from_utf8(output.stderr).unwrap(),
            "oid: cannot write to standard output: it is closed\n"
        );
    }
    // /dev/null is not closed.
    let output = sh("\"$OID\" new 5 >/dev/null");
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "{output:?}"
    );
}

#[test]
fn a_closed_stdin_is_an_empty_input() {
    let output = sh("\"$OID\" validate <&-");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "oid: standard input is empty or closed: no ids to check\n0 valid, 0 invalid\n"
    );
    let output = sh("\"$OID\" inspect <&-");
    assert!(
        output.status.success() && output.stdout.is_empty(),
        "{output:?}"
    );
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "oid: standard input is empty or closed: no ids to inspect\n"
    );
}

#[test]
fn a_read_error_is_reported() {
    let Ok(dir) = std::fs::File::open("/") else {
        return;
    };
    let output = StdCommand::new(bin())
        .arg("validate")
        .stdin(dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("oid: cannot read standard input: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

/// The peak resident memory (VmHWM) of process `pid`, in KiB.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()
}

/// 1 GiB of zero bytes without a newline (what `head -c 1G /dev/zero` gives) is one line too
/// long: reported, streamed through, never stored. The child's peak resident memory, read from
/// /proc after the first 8 MiB and again just before its input ends, does not grow with the
/// input: less than 1 MiB more after 1,016 MiB more (what the binary needs at all, 10 to 11 MiB
/// with the Arrow and Parquet readers linked, is not what this measures).
#[test]
fn memory_stays_bounded_for_a_gigabyte_without_a_newline() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return; // Linux only
    }
    for command in ["validate", "inspect"] {
        let mut child = StdCommand::new(bin())
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let chunk = vec![0_u8; 1 << 20];
        let mut peaks = Vec::new();
        for mib in 1..=1024 {
            stdin.write_all(&chunk).unwrap();
            if mib == 8 || mib == 1024 {
                stdin.flush().unwrap();
                peaks.push(peak_rss_kib(child.id()).unwrap());
            }
        }
        drop(stdin);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(1));
        assert!(
            stderr.starts_with("oid: line 1: \"\\0\\0\\0"),
            "{command}: {stderr}"
        );
        assert!(stderr.contains("line too long: more than 4096 bytes, skipped"));
        let (early, late) = (peaks[0], peaks[1]);
        eprintln!(
            "{command}: peak resident memory {early} KiB after 8 MiB, {late} KiB after 1 GiB"
        );
        assert!(
            late < early + 1024,
            "{command}: {early} KiB, then {late} KiB"
        );
    }
}

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
    let help = ok(&["new", "--help"]);
    assert!(help.contains("no offset means UTC"), "{help}");
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
