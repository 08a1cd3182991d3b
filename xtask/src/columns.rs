//! `cargo xtask columns`: oid-arrow's files (and the `oid` command's) against the real clients
//! (pyarrow with pymongoarrow, Polars, DuckDB), both directions, with the peers of
//! `oid-arrow/tests/python/requirements.txt` installed into `target/venv` and
//! `OID_REQUIRE_PYTHON_COLUMNS=1` (so a skipped test fails).

use xshell::{Shell, cmd};

use crate::provision::{Kit, install, venv_python};
use crate::util::{Result, run};

/// Installs the peers, then runs oid-arrow's and oid-cli's Python interop tests with them.
pub(crate) fn step(sh: &Shell) -> Result {
    install(sh, Kit::Columns)?;
    let python = venv_python();
    let _python = sh.push_env("OID_PYTHON", python);
    let _required = sh.push_env("OID_REQUIRE_PYTHON_COLUMNS", "1");
    // Both packages' `python` tests with the test step's flags, so nothing is built again: `-p`
    // alone resolves other features for oid-core and the rest, and rebuilt them.
    run(cmd!(
        sh,
        "cargo test --workspace --all-features --test python"
    ))
}
