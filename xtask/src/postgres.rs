//! `cargo xtask sql`: oid-core's SQL integrations (sql-tests) against a throwaway PostgreSQL
//! server, and their benchmark.
//!
//! Self-contained: installs the Debian `postgresql` package when no server binaries are found
//! (as root), creates a cluster with `initdb` under `target/postgres/` (under the temp dir when
//! the `postgres` user cannot reach `target/`), starts it with `pg_ctl`
//! on a free loopback port (as the `postgres` user when run as root: the server refuses root),
//! runs the tests with `OID_TEST_POSTGRES_URL` set and `OID_REQUIRE_POSTGRES=1` (so a test
//! that skipped for want of a server fails), and stops the server afterwards, also when the
//! tests failed. Trust authentication, loopback only: the data is test data.

use std::net::TcpListener;
use std::path::{Path, PathBuf};

use xshell::{Shell, cmd};

use crate::util::{Result, Runner, cargo_target_dir, is_root, run};

/// `cargo xtask sql bench [ARGS]`: the criterion benchmark (`cargo xtask sql`, the tests, is a
/// step).
pub(crate) fn sql_bench(args: &[String]) -> Result {
    let Some(("bench", rest)) = args.split_first().map(|(a, rest)| (a.as_str(), rest)) else {
        return Err(format!("unknown `sql` arguments {args:?}: expected `bench`").into());
    };
    let mut r = Runner::new()?;
    r.step("sql: benchmark", |sh| bench(sh, rest));
    r.finish()
}

/// Every sql-tests test with a real server, none skipped.
pub(crate) fn test(sh: &Shell) -> Result {
    with_server(sh, |url| {
        run(cmd!(sh, "cargo test -p sql-tests")
            .env("OID_TEST_POSTGRES_URL", url)
            .env("OID_REQUIRE_POSTGRES", "1"))
    })
}

fn bench(sh: &Shell, args: &[String]) -> Result {
    with_server(sh, |url| {
        run(
            cmd!(sh, "cargo bench -p sql-tests --bench sql -- {args...}")
                .env("OID_TEST_POSTGRES_URL", url)
                .env("OID_REQUIRE_POSTGRES", "1"),
        )
    })
}

/// Runs `f` with the URL of a fresh server, then stops the server whatever `f` returned.
pub(crate) fn with_server(sh: &Shell, f: impl FnOnce(&str) -> Result) -> Result {
    let bin = crate::provision::postgres_bin(sh)?;
    let as_root = is_root(sh);
    let dir = cluster_dir(sh, as_root);
    if dir.exists() {
        // A previous run that was killed may have left its server running.
        let _ = server_cmd(sh, as_root, &bin.join("pg_ctl"))
            .args([
                "-D",
                &path_str(&dir.join("data"))?,
                "-m",
                "immediate",
                "stop",
            ])
            .quiet()
            .ignore_stderr()
            .ignore_stdout()
            .run();
        sh.remove_path(&dir)?;
    }
    sh.create_dir(&dir)?;
    let d = path_str(&dir)?;
    if as_root {
        run(cmd!(sh, "chown postgres {d}"))?;
    }
    let data = format!("{d}/data");
    let log = format!("{d}/log");
    run(server_cmd(sh, as_root, &bin.join("initdb")).args([
        "-D",
        &data,
        "-A",
        "trust",
        "-U",
        "oid",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
    ]))?;
    let port = free_port()?;
    let options = format!("-p {port} -k {d} -h 127.0.0.1 -F");
    let started = run(server_cmd(sh, as_root, &bin.join("pg_ctl"))
        .args(["-D", &data, "-o", &options, "-l", &log, "-w", "start"]));
    if let Err(e) = started {
        let log_text = sh.read_file(&log).unwrap_or_default();
        return Err(format!("could not start PostgreSQL: {e}\n{log_text}").into());
    }
    eprintln!(
        "xtask: PostgreSQL from {} on 127.0.0.1:{port}",
        bin.display()
    );
    let url = format!("postgres://oid@127.0.0.1:{port}/postgres");
    let outcome = f(&url);
    let stopped =
        run(server_cmd(sh, as_root, &bin.join("pg_ctl")).args(["-D", &data, "-m", "fast", "stop"]));
    outcome.and(stopped)
}

/// `target/postgres/`, or, when we are root and the `postgres` user cannot reach into `target/`
/// (a checkout under a private home folder), a folder of the same name under the temp dir.
fn cluster_dir(sh: &Shell, as_root: bool) -> PathBuf {
    let target = cargo_target_dir();
    if as_root {
        let reachable = cmd!(sh, "runuser -u postgres -- test -x {target}")
            .quiet()
            .ignore_stderr()
            .run()
            .is_ok();
        if !reachable {
            return std::env::temp_dir().join("oid-xtask-postgres");
        }
    }
    target.join("postgres")
}

/// `BIN` run as the `postgres` user when we are root, as ourselves otherwise.
fn server_cmd<'a>(sh: &'a Shell, as_root: bool, bin: &Path) -> xshell::Cmd<'a> {
    if as_root {
        cmd!(sh, "runuser -u postgres --").arg(bin)
    } else {
        sh.cmd(bin)
    }
}

/// A port nobody listens on now (the kernel picks it; the server binds it a moment later).
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    Ok(port)
}

fn path_str(p: &Path) -> Result<String> {
    p.to_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("path is not UTF-8: {}", p.display()).into())
}
