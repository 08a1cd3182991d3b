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

use std::path::PathBuf;

use xshell::{Cmd, Shell, cmd};

use crate::util::{Result, Runner, cargo, cargo_target_dir, run};

/// `cargo xtask sql bench [ARGS]`: the criterion benchmark (`cargo xtask sql`, the tests, is a
/// step).
pub(crate) fn sql_bench(args: &[String]) -> Result {
    let Some(("bench", rest)) = args.split_first().map(|(a, rest)| (a.as_str(), rest)) else {
        return Err(format!("unknown `sql` arguments {args:?}: expected `bench`").into());
    };
    let (mut r, bench) = (Runner::default(), "bench -p sql-tests --bench sql --");
    r.step("sql: benchmark", |sh| {
        with_server(sh, || run(cargo(sh, bench).args(rest)))
    });
    r.finish()
}

/// Every sql-tests test with a real server, none skipped.
pub(crate) fn test(sh: &Shell) -> Result {
    with_server(sh, || run(cargo(sh, "test -p sql-tests")))
}

/// Runs `f` with a fresh server, its URL in the shell's `OID_TEST_POSTGRES_URL` and
/// `OID_REQUIRE_POSTGRES=1`, then stops the server whatever `f` returned.
fn with_server(sh: &Shell, f: impl FnOnce() -> Result) -> Result {
    crate::provision::install(sh, crate::provision::Kit::Postgres)?;
    // The newest `/usr/lib/postgresql/<version>/bin` with `initdb`.
    let dir = |version: u32| PathBuf::from(format!("/usr/lib/postgresql/{version}/bin"));
    let versions = std::fs::read_dir("/usr/lib/postgresql")?.flatten();
    let versions = versions.filter_map(|e| e.file_name().to_str()?.parse().ok());
    let newest = versions.filter(|v| dir(*v).join("initdb").exists()).max();
    let bin = dir(newest.ok_or("the postgresql package installed no initdb")?);
    let as_root = cmd!(sh, "id -u").quiet().read().is_ok_and(|id| id == "0");
    // `bin/NAME` run as the `postgres` user when we are root (the server refuses root).
    let server = |name: &str| -> Cmd<'_> {
        if as_root {
            cmd!(sh, "runuser -u postgres --").arg(bin.join(name))
        } else {
            sh.cmd(bin.join(name))
        }
    };
    // `target/postgres/`, or, when we are root and the `postgres` user cannot reach into
    // `target/` (a checkout under a private home folder), a folder of that name under the temp dir.
    let target = cargo_target_dir();
    let mut dir = target.join("postgres");
    let reach = cmd!(sh, "runuser -u postgres -- test -x {target}").quiet();
    if as_root && reach.ignore_stderr().run().is_err() {
        dir = std::env::temp_dir().join("oid-xtask-postgres");
    }
    let (data, log) = (dir.join("data"), dir.join("log"));
    let pg_ctl = |args: &[&str]| server("pg_ctl").arg("-D").arg(&data).args(args);
    if dir.exists() {
        // A previous run that was killed may have left its server running.
        let _ = pg_ctl(&["-m", "immediate", "stop"]).quiet().output();
        sh.remove_path(&dir)?;
    }
    sh.create_dir(&dir)?;
    if as_root {
        run(cmd!(sh, "chown postgres {dir}"))?;
    }
    let initdb = "-A trust -U oid -E UTF8 --locale=C --no-sync".split(' ');
    run(server("initdb").arg("-D").arg(&data).args(initdb))?;
    // A free port (the listener is dropped at the end of the statement).
    let free = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?;
    let port = free.port();
    let options = format!("-p {port} -k {} -h 127.0.0.1 -F", dir.display());
    let start = pg_ctl(&["-o", &options, "-l"])
        .arg(&log)
        .args(["-w", "start"]);
    if let Err(e) = start.run() {
        let log_text = sh.read_file(&log).unwrap_or_default();
        return Err(format!("could not start PostgreSQL: {e}\n{log_text}").into());
    }
    let shown = bin.display();
    eprintln!("xtask: PostgreSQL from {shown} on 127.0.0.1:{port}");
    let url = format!("postgres://oid@127.0.0.1:{port}/postgres");
    let outcome = {
        let _url = sh.push_env("OID_TEST_POSTGRES_URL", url);
        let _required = sh.push_env("OID_REQUIRE_POSTGRES", "1");
        f()
    };
    let stopped = run(pg_ctl(&["-m", "fast", "stop"]));
    outcome.and(stopped)
}
