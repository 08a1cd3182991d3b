//! Helpers shared by the integration tests: they run the built `oid` binary as a user would.

// clippy.toml allows unwrap in `#[test]` functions; the helpers here are test code too.
#![allow(
    clippy::unwrap_used,
    dead_code,
    unreachable_pub,
    reason = "test helpers: a failed unwrap is a failed test; not every test file uses every helper"
)]

use assert_cmd::Command;
use oid_std::ObjectId;

pub fn oid() -> Command {
    Command::cargo_bin("oid").unwrap()
}

pub fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("oid")
}

/// Runs `oid` with `args` and returns stdout, checking exit status 0 and an empty stderr.
pub fn ok(args: &[&str]) -> String {
    let output = oid().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    assert!(output.stderr.is_empty(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Runs `oid` with `args`, expecting exit status 2 (a usage error), nothing on stdout, and a
/// first line on stderr that contains every one of `needles`.
pub fn usage_error(args: &[&str], needles: &[&str]) {
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

pub fn ids(text: &str) -> Vec<ObjectId> {
    text.lines()
        .map(|l| ObjectId::parse_str(l).unwrap())
        .collect()
}

/// A fresh directory under the system's temporary directory.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("oid-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
