//! `oid sql`: runs `oid-sql`, as cargo runs its external subcommands.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use common::{oid, temp_dir};

/// A folder holding a fake `oid-sql` that prints its arguments one per line, reads a line of
/// standard input and exits with status 7.
#[cfg(unix)]
fn fake_oid_sql(name: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir(name);
    let script = dir.join("oid-sql");
    std::fs::write(
        &script,
        "#!/bin/sh\nfor a in \"$@\"; do echo \"arg:$a\"; done\nread line; echo \"stdin:$line\"\n\
         echo to-stderr >&2\nexit 7\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[cfg(unix)]
#[test]
fn sql_runs_oid_sql_from_path_with_the_arguments_and_its_status() {
    let dir = fake_oid_sql("sql-fake");
    let path = std::env::join_paths(std::iter::once(dir.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    oid()
        .args([
            "sql",
            "SELECT oid_time(_id) FROM 'ids.parquet'",
            "--help",
            "-x",
            "",
        ])
        .env("PATH", path)
        .write_stdin("piped\n")
        .assert()
        .code(7)
        .stdout(
            "arg:SELECT oid_time(_id) FROM 'ids.parquet'\narg:--help\narg:-x\narg:\nstdin:piped\n",
        )
        .stderr("to-stderr\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sql_without_oid_sql_says_how_to_install_it() {
    let dir = temp_dir("sql-missing");
    oid()
        .args(["sql", "SELECT 1"])
        .env("PATH", &dir)
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "oid: `oid sql` runs the oid-sql command, which is not installed: it is neither next \
             to oid nor on PATH; install it from a checkout of oid with `cargo install --path \
             oid-datafusion`\n",
        );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_lists_sql_and_convert() {
    let help = oid().arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for command in ["  sql ", "  convert "] {
        assert!(help.contains(command), "{command:?} not in {help}");
    }
}
