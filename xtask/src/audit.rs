//! `cargo xtask audit`: `oid audit` on ids that real drivers made (`oid-cli/tests/audit_peers.rs`):
//! 1,000 pymongo processes and 1,000 js-bson processes making ids at once, without and with
//! restarts, must give no finding. The peers are the differential test's (`Kit::Peers`:
//! pymongo in `target/venv`, js-bson in `verify/js/node_modules`); `OID_REQUIRE_PEERS=1` makes a
//! skipped test fail. Then the `--report` page in headless Chromium (`oid-cli/tests/audit.rs`:
//! its parsed DOM and the pixels of a screenshot), `OID_REQUIRE_CHROMIUM=1` likewise.

use xshell::{Shell, cmd};

use crate::provision::{CHROMIUM, Kit, install, venv_python};
use crate::util::{Result, project_root, run};

/// Installs the peers, then runs the test with them.
pub(crate) fn step(sh: &Shell) -> Result {
    install(sh, Kit::Peers)?;
    let _python = sh.push_env("OID_PYTHON_PEERS", venv_python());
    let _js = sh.push_env("OID_JS_PEERS", project_root().join("verify/js"));
    let _required = sh.push_env("OID_REQUIRE_PEERS", "1");
    // The test step's flags, so nothing is built again (`-p oid-cli` alone resolves other
    // features for oid-core and the rest).
    run(cmd!(
        sh,
        "cargo test --workspace --all-features --test audit_peers"
    ))?;
    install(sh, Kit::Chromium)?;
    let _chromium = sh.push_env("OID_CHROMIUM", CHROMIUM);
    let _required = sh.push_env("OID_REQUIRE_CHROMIUM", "1");
    run(cmd!(
        sh,
        "cargo test --workspace --all-features --test audit -- the_report_page"
    ))
}
