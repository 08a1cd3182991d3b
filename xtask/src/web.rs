//! `cargo xtask web` and `cargo xtask web-test`: the browser page of `oid-web`.
//!
//! `web` builds `oid-web` for `wasm32-unknown-unknown` with the `web` profile (opt-level "z",
//! LTO, one codegen unit) and writes the page as one self-contained file, `target/web/oid.html`:
//! the script inline (comments and indentation left out) with the wasm gzipped and
//! base64-encoded inside it (the page unpacks it with `DecompressionStream`: nothing is
//! fetched, so the file works opened from disk, offline), and a Content-Security-Policy that
//! allows that one script by its SHA-256 hash. It fails if the wasm grows past 30 KiB or the page
//! past 40 KiB. `web-test` does that and then runs the end-to-end test in headless Chromium
//! (`oid-web/e2e/page.test.mjs`, node's test runner driving playwright-core) and a smaller one in
//! headless Firefox ESR (`firefox.test.mjs`, over Marionette), on the file opened by `file://`.

use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use sha2::{Digest, Sha256};
use xshell::{Shell, cmd};

use crate::provision::{CHROMIUM, FIREFOX};
use crate::util::{Result, Runner, cargo, cargo_target_dir, ensure_targets, project_root, run};

/// The size the wasm must stay under; a bigger build fails.
const WASM_BUDGET: usize = 30 * 1024;
/// The size the one-file page must stay under; a bigger page fails.
const PAGE_BUDGET: usize = 40 * 1024;
/// The page written, under `target/web`.
pub(crate) const PAGE: &str = "oid.html";

/// `cargo xtask web`.
pub(crate) fn web() -> Result {
    let mut r = Runner::default();
    r.step("web page: build target/web", |sh| build(sh).map(drop));
    r.finish()
}

/// Builds the wasm and writes the page; returns the page's path.
fn build(sh: &Shell) -> Result<PathBuf> {
    ensure_targets(sh, &["wasm32-unknown-unknown"])?;
    let build = "build -p oid-web --lib --target wasm32-unknown-unknown --profile web";
    run(cargo(sh, build))?;
    let wasm = cargo_target_dir().join("wasm32-unknown-unknown/web/oid_web.wasm");
    // `-n`: no name or time in the header, so the same wasm gives the same page.
    let gzipped = cmd!(sh, "gzip -9 -n -c {wasm}").quiet().output()?.stdout;
    let read =
        |name: &str| std::fs::read_to_string(project_root().join("oid-web/static").join(name));
    let wasm_base64 = BASE64.encode(&gzipped);
    let script = replace_once(&minify(&read("oid-web.js")?), "__OID_WASM__", &wasm_base64)?;
    if script.contains("</script") {
        return Err("oid-web.js holds `</script`, which would end the inline script".into());
    }
    let digest = Sha256::digest(script.as_bytes());
    let hash = format!("'sha256-{}'", BASE64.encode(digest));
    let html = replace_once(&read("index.html")?, "__OID_SCRIPT_HASH__", &hash)?;
    let html = replace_once(&html, "__OID_SCRIPT__", &script)?;
    let out = project_root().join("target/web");
    std::fs::create_dir_all(&out)?;
    let page = out.join(PAGE);
    std::fs::write(&page, &html)?;
    let wasm_size = std::fs::metadata(&wasm)?.len() as usize;
    for (what, size, budget) in [
        ("oid_web.wasm", wasm_size, WASM_BUDGET),
        (PAGE, html.len(), PAGE_BUDGET),
    ] {
        eprintln!("{what}: {size} bytes, budget {budget}");
        if size > budget {
            return Err(format!("{what} is {size} bytes, over the {budget}-byte budget").into());
        }
    }
    Ok(page)
}

/// `text` with its one `marker` replaced by `with`; an error when the marker is missing or there
/// is more than one.
fn replace_once(text: &str, marker: &str, with: &str) -> Result<String> {
    match text.matches(marker).count() {
        1 => Ok(text.replacen(marker, with, 1)),
        n => Err(format!("expected one {marker} in the page's sources, found {n}").into()),
    }
}

/// The script without its comments, blank lines and indentation. Line by line, so only whole
/// comment lines go (`//` lines and `/* … */` blocks that start a line); the script keeps every
/// line break, and has no template literal spanning lines (a test checks it).
fn minify(js: &str) -> String {
    let (mut out, mut in_block) = (String::with_capacity(js.len()), false);
    for line in js.lines().map(str::trim) {
        if in_block || line.starts_with("/*") {
            in_block = !line.contains("*/");
        } else if !line.is_empty() && !line.starts_with("//") {
            out += line;
            out.push('\n');
        }
    }
    out
}

/// Builds the page, installs Chromium and playwright-core if missing, then runs the
/// end-to-end test against the page.
pub(crate) fn build_and_test(sh: &Shell) -> Result {
    let page = build(sh)?;
    crate::provision::install(sh, crate::provision::Kit::Web)?;
    let _page = sh.push_env("OID_WEB_PAGE", page);
    let _chromium = sh.push_env("OID_WEB_CHROMIUM", CHROMIUM);
    let _firefox = sh.push_env("OID_WEB_FIREFOX", FIREFOX);
    let e2e = "oid-web/e2e";
    run(cmd!(
        sh,
        "node --test {e2e}/page.test.mjs {e2e}/firefox.test.mjs"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csp_hashes_are_standard_base64_of_sha256() {
        // The `'sha256-…'` source of the CSP spec's example script `alert('Hello, world.');`.
        let digest = Sha256::digest(b"alert('Hello, world.');");
        assert_eq!(
            BASE64.encode(digest),
            "qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng="
        );
    }

    #[test]
    fn minify_drops_whole_comment_lines_only() {
        let js =
            "// a\n  /**\n   * doc\n   */\n  const a = 'x // y'; // kept\n\n  /* one */\n  f();\n";
        assert_eq!(minify(js), "const a = 'x // y'; // kept\nf();\n");
    }

    #[test]
    fn the_page_script_has_no_multiline_template_literal() {
        // `minify` trims every line, which would change such a literal's text.
        let path = project_root().join("oid-web/static/oid-web.js");
        let js = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(js.contains("__OID_WASM__"), "{}", path.display());
        for (n, line) in js.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            assert_eq!(code.matches('`').count() % 2, 0, "line {}: {line}", n + 1);
        }
    }

    #[test]
    fn the_pages_workflow_publishes_this_page() {
        let path = project_root().join(".github/workflows/pages.yml");
        let yml = std::fs::read_to_string(&path).unwrap_or_default();
        for needle in [
            "run: cargo xtask web\n",
            &format!("cp target/web/{PAGE} _site/index.html"),
            "actions/upload-pages-artifact@",
            "actions/deploy-pages@",
            "pages: write",
            "id-token: write",
        ] {
            assert!(yml.contains(needle), "{} lacks {needle:?}", path.display());
        }
    }

    #[test]
    fn replace_once_needs_exactly_one_marker() {
        assert_eq!(replace_once("a X b", "X", "y").ok(), Some("a y b".into()));
        assert!(replace_once("a b", "X", "y").is_err());
        assert!(replace_once("X X", "X", "y").is_err());
    }
}
