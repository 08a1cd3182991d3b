//! `cargo xtask web` and `cargo xtask web-test`: the browser page of `oid-web`.
//!
//! `web` builds `oid-web` for `wasm32-unknown-unknown` with the `web` profile (opt-level "z",
//! LTO, one codegen unit) and writes the static page to `target/web/`: `index.html`,
//! `oid-web.js` and `oid_web.wasm`. `web-test` does that and then runs the end-to-end test in
//! headless Chromium (`oid-web/e2e`, node's test runner driving playwright-core).

use std::path::{Path, PathBuf};

use xshell::{Shell, cmd};

use crate::provision::CHROMIUM;
use crate::util::{Result, Runner, cargo_target_dir, ensure_targets, project_root, run};

const TARGET: &str = "wasm32-unknown-unknown";
/// The size the issue asks the wasm to stay under; a bigger build fails.
const WASM_BUDGET: u64 = 30 * 1024;
/// The static files copied next to the wasm.
const STATIC_FILES: &[&str] = &["index.html", "oid-web.js"];

/// `cargo xtask web`.
pub(crate) fn web() -> Result {
    let mut r = Runner::new()?;
    r.step("web page: build target/web", |sh| build(sh).map(drop));
    r.finish()
}

/// `cargo xtask web-test`.
pub(crate) fn web_test() -> Result {
    let mut r = Runner::new()?;
    r.step(
        "web page: build and test in headless chromium",
        build_and_test,
    );
    r.finish()
}

/// The output folder, `target/web` under the project root.
fn out_dir() -> PathBuf {
    project_root().join("target").join("web")
}

/// Builds the wasm and writes the page; returns the folder.
fn build(sh: &Shell) -> Result<PathBuf> {
    ensure_targets(sh, &[TARGET])?;
    run(cmd!(
        sh,
        "cargo build -p oid-web --lib --target {TARGET} --profile web"
    ))?;
    let wasm = cargo_target_dir()
        .join(TARGET)
        .join("web")
        .join("oid_web.wasm");
    let out = out_dir();
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let statics = project_root().join("oid-web").join("static");
    for name in STATIC_FILES {
        copy(&statics.join(name), &out.join(name))?;
    }
    copy(&wasm, &out.join("oid_web.wasm"))?;
    let size = std::fs::metadata(out.join("oid_web.wasm"))?.len();
    eprintln!(
        "oid_web.wasm: {size} bytes ({:.1} KiB; budget {} KiB); page written to {}",
        size as f64 / 1024.0,
        WASM_BUDGET / 1024,
        out.display()
    );
    if size > WASM_BUDGET {
        return Err(
            format!("oid_web.wasm is {size} bytes, over the {WASM_BUDGET}-byte budget").into(),
        );
    }
    Ok(out)
}

fn copy(from: &Path, to: &Path) -> Result {
    std::fs::copy(from, to)
        .map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))?;
    Ok(())
}

/// Builds the page, installs Chromium and playwright-core if missing, then runs the
/// end-to-end test against the page.
pub(crate) fn build_and_test(sh: &Shell) -> Result {
    let out = build(sh)?;
    crate::provision::web(sh)?;
    let test = project_root().join("oid-web/e2e/page.test.mjs");
    run(cmd!(sh, "node --test {test}")
        .env("OID_WEB_DIR", &out)
        .env("OID_WEB_CHROMIUM", CHROMIUM))
}
