//! Repository conventions, checked by `cargo test -p xtask` (so `cargo xtask ci` enforces them),
//! in the manner of rust-analyzer's `tidy`. Each check is a function over plain inputs, with a
//! test feeding it a bad input, so that a check that cannot fail would be noticed, and a test
//! running it over the repository.

use std::collections::BTreeSet;
use std::fs;

use pulldown_cmark::{BrokenLink, CodeBlockKind, Event, Options, Parser, Tag};

use crate::util::{project_root, repo_files};

/// The published crates and oid-datafusion (published from its own workspace): each has a
/// README with an MSRV line, a changelog and the registry metadata.
fn crates() -> Vec<&'static str> {
    [crate::release::PUBLISHED, &["oid-datafusion"]].concat()
}

/// The lines of `text` that name a tracker issue ("issue 13", "Issue #8", "issues 12 and 13"):
/// code, manifests, docs and CI step names say what a thing does, not which ticket asked for it.
fn issue_numbers(text: &str) -> Vec<(usize, &str)> {
    let names_one = |line: &str| {
        let lower = line.to_ascii_lowercase();
        let mut after = lower.split("issue").skip(1);
        after.any(|rest| {
            rest.trim_start_matches(['s', ' ', '#'])
                .starts_with(|c: char| c.is_ascii_digit())
        })
    };
    let lines = text.lines().enumerate().filter(|(_, line)| names_one(line));
    lines.map(|(i, line)| (i + 1, line.trim())).collect()
}

/// A crate's own `rust-version = "X.Y"` line, when it does not inherit the workspace's (a crate
/// whose dependencies need a newer Rust, as oid-arrow's arrow-rs does).
pub(crate) fn own_rust_version(manifest: &str) -> Option<&str> {
    let line = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("rust-version = \""));
    line.map(|v| v.trim_end_matches('"'))
}

/// What is wrong with a README's MSRV section (the first `Rust X.Y` after a `## MSRV` heading)
/// given the crate's `rust-version`, if anything.
fn msrv_problem(readme: &str, rust_version: &str) -> Option<String> {
    let section = readme
        .split_once("## MSRV")
        .and_then(|(_, s)| s.split_once("Rust "));
    let Some((_, line)) = section else {
        return Some("no `## MSRV` section with a `Rust X.Y` line".to_owned());
    };
    let version: String = line
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let version = version.trim_end_matches('.');
    (version != rust_version)
        .then(|| format!("says Rust {version}, but rust-version is {rust_version}"))
}

/// Whether a fenced code block's info string makes rustdoc treat it as Rust (and so hide its
/// `# ` lines): no language, `rust`, or only rustdoc's attributes (`no_run`, `ignore`, ...).
fn is_rust_block(info: &str) -> bool {
    let attrs = "rust no_run ignore should_panic compile_fail test_harness standalone_crate";
    info.split(',')
        .map(str::trim)
        .all(|w| w.is_empty() || attrs.split(' ').any(|a| a == w) || w.starts_with("edition"))
}

/// What GitHub and the registry would show wrongly in a README: rustdoc's hidden lines (`# ` in a
/// Rust block) show as raw text there, and intra-doc links (`[`ObjectId`]` without a URL or a
/// `[label]: url` definition, or a link to a Rust path) as literal brackets or dead links.
fn readme_problems(readme: &str) -> Vec<String> {
    let line = |at: usize| readme[..at].matches('\n').count() + 1;
    // (line, problem); a task list box (`[x]`) and a footnote (`[^1]`) are not links.
    let mut unresolved = Vec::new();
    let broken = |link: BrokenLink<'_>| {
        let label = link.reference;
        if !(&*label == "x" || label.starts_with('^')) {
            unresolved.push((line(link.span.start), format!("unresolved link [{label}]")));
        }
        None
    };
    let mut problems = Vec::new();
    let parser = Parser::new_with_broken_link_callback(readme, Options::empty(), Some(broken));
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if is_rust_block(&info) => {
                let lines = (line(range.start)..).zip(readme[range].lines());
                for (n, l) in lines.filter(|(_, l)| l.split_whitespace().next() == Some("#")) {
                    problems.push((n, format!("hidden doctest line `{}`", l.trim())));
                }
            }
            Event::Start(Tag::Link { dest_url: url, .. })
                if url.contains("::") && !url.contains("://") =>
            {
                problems.push((line(range.start), format!("link to the Rust path {url}")));
            }
            _ => {}
        }
    }
    problems.extend(unresolved);
    problems.sort();
    problems
        .iter()
        .map(|(n, p)| format!("line {n}: {p}"))
        .collect()
}

/// The manifest lines every published crate has: workspace metadata, its Rust version (the
/// workspace's or its own) and registry metadata.
const MANIFEST_KEYS: &[&str] = &[
    "version.workspace = true",
    "edition.workspace = true",
    "rust-version",
    "license.workspace = true",
    "repository.workspace = true",
    "homepage.workspace = true",
    "documentation = ",
    "keywords = ",
    "categories = ",
    "[package.metadata.docs.rs]",
    "[lints]\nworkspace = true",
];

/// What a published crate's README, changelog and manifest lack.
fn crate_problems(krate: &str, readme: &str, changelog: &str, manifest: &str) -> Vec<String> {
    let headings = ["## [Unreleased]", "## [0.1.0]"].map(|h| ("CHANGELOG.md", changelog, h));
    let needs = MANIFEST_KEYS.iter().map(|k| ("Cargo.toml", manifest, *k));
    let mut problems: Vec<String> = needs
        .chain(headings)
        .filter(|(_, text, need)| !text.contains(need))
        .map(|(file, _, need)| format!("{krate}/{file} must have `{need}`"))
        .collect();
    if !readme.starts_with(&format!("# {krate}")) {
        problems.push(format!("{krate}/README.md must start with `# {krate}`"));
    }
    problems
}

/// What a library's `lib.rs` lacks: its README as crate docs (so README examples are doc tests),
/// and, for the crates that forbid it, `#![forbid(unsafe_code)]`.
fn lib_problems(krate: &str, lib: &str) -> Vec<String> {
    let mut problems = Vec::new();
    // oid-bson includes it under `cfg_attr` (its examples need a bson feature).
    if !lib.contains("doc = include_str!(\"../README.md\")") {
        problems.push(format!(
            "{krate}/src/lib.rs does not use its README as crate docs"
        ));
    }
    if krate == "oid-core" && !lib.lines().any(|l| l.trim() == "#![forbid(unsafe_code)]") {
        problems.push(format!("{krate}/src/lib.rs lacks #![forbid(unsafe_code)]"));
    }
    problems
}

/// The last command of a shell script (its last line that is neither blank nor a comment).
fn last_command(script: &str) -> Option<&str> {
    let mut lines = script.lines().map(str::trim);
    lines.rfind(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The files of `files` (path, size in bytes) larger than 1 MiB, Cargo.lock aside: sources and
/// docs are far smaller, so a larger one is build output or generated data committed by mistake.
fn oversized(files: &[(String, u64)]) -> Vec<String> {
    let big = files
        .iter()
        .filter(|(path, size)| *size > 1 << 20 && !path.ends_with("Cargo.lock"));
    big.map(|(path, size)| format!("{path}: {size} bytes"))
        .collect()
}

/// Whether the first `rust,ignore` block of `readme` is, word for word, part of `source` (a
/// README example compiled elsewhere).
fn readme_block_in(readme: &str, source: &str) -> bool {
    let block = readme
        .lines()
        .skip_while(|l| l.trim() != "```rust,ignore")
        .skip(1);
    let block: Vec<&str> = block.take_while(|l| l.trim() != "```").collect();
    !block.is_empty() && source.contains(&block.join("\n"))
}

/// Whether a backticked word is a repository path: a file name with a known extension, or a
/// `/`-separated path. URLs, Rust paths, absolute paths (`/dev/…`) and build output
/// (`target/…`) are not.
fn is_repo_path(word: &str) -> bool {
    let extensions = "rs md toml lock txt json yml yaml html js mjs sh py stderr css";
    let ext = word.rsplit_once('.').map_or("", |(_, e)| e);
    word.chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-./*<>".contains(c))
        && !(word.starts_with('/') || word.starts_with("target/"))
        && (word.contains('/') || extensions.split(' ').any(|e| e == ext))
}

/// The backticked paths of ARCHITECTURE.md that name no file or folder of `files`: a path must
/// be whole `/`-separated parts of some file's path (from the root, or its tail, as `src/udf.rs`
/// is of `oid-datafusion/src/udf.rs`). A wildcard (`*`, `<name>`) follows a `/`: the folder
/// before it must exist.
fn architecture_problems(text: &str, files: &[String]) -> Vec<String> {
    let files: Vec<String> = files.iter().map(|f| format!("/{f}/")).collect();
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let words = line.split('`').skip(1).step_by(2);
        for word in words.filter(|w| is_repo_path(w)) {
            let fixed = word.split(['*', '<']).next().unwrap_or(word);
            let path = format!("/{}/", fixed.trim_end_matches('/'));
            if !files.iter().any(|f| f.contains(&path)) {
                problems.push(format!("line {}: `{word}` does not exist", n + 1));
            }
        }
    }
    problems
}

/// How xtask/README.md's command table differs from the `commands` clap knows. The table lists
/// the first word of each backticked span in the first cell of its rows (the rows that start
/// with a backticked word).
fn command_table_problems(readme: &str, commands: &[&str]) -> Vec<String> {
    let cells = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('|').next());
    let spans = cells.flat_map(|cell| cell.split('`').step_by(2));
    let listed: BTreeSet<&str> = spans.filter_map(|s| s.split_whitespace().next()).collect();
    let missing = commands.iter().filter(|c| !listed.contains(*c));
    let missing = missing.map(|c| format!("`{c}` is missing: add a row for it"));
    let unknown = listed.iter().filter(|l| !commands.contains(l));
    let unknown = unknown.map(|l| format!("`{l}` is not an xtask command (`cargo xtask --help`)"));
    missing.chain(unknown).collect()
}

/// The most lines a published crate's README (its front page and crate docs) may have.
const README_MAX_LINES: usize = 150;

/// What keeps a changelog's first release from being one "Added" list. Before the first release
/// everything is new: from the first section (`[Unreleased]`, or 0.1.0 once it is dated) to the
/// link definitions, the changelog holds section headings, then one `### Added` heading and its
/// list items: so `[Unreleased]` is empty while an undated 0.1.0 follows it.
fn changelog_problems(changelog: &str) -> Vec<String> {
    let released = changelog
        .lines()
        .any(|l| l.starts_with("## [0.1.0]") && !l.contains("YYYY-MM-DD"));
    let first = if released { "## [0.1.0]" } else { "## [" };
    let lines = changelog
        .lines()
        .zip(1..)
        .skip_while(|(l, _)| !l.starts_with(first));
    let (mut problems, mut listed) = (Vec::new(), false);
    for (line, n) in lines.filter(|(l, _)| !(l.trim().is_empty() || l.starts_with('['))) {
        let item = line.starts_with("- ") || line.starts_with(' ');
        if listed && item || !listed && line.starts_with("## ") {
            continue;
        } else if !listed && line == "### Added" {
            listed = true;
        } else {
            problems.push(format!("line {n}: `{line}`: not in the `### Added` list"));
        }
    }
    if !listed {
        problems.push("no `### Added` list after the release headings".to_owned());
    }
    problems
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// A repository file's text (`rel` relative to the root).
    fn read(rel: &str) -> String {
        fs::read_to_string(project_root().join(rel))
            .unwrap_or_else(|e| panic!("reading {rel}: {e}"))
    }

    /// Fails with `problems`, one per line, after `why`.
    fn assert_none(problems: &[String], why: &str) {
        assert!(problems.is_empty(), "{why}:\n{}", problems.join("\n"));
    }

    #[test]
    fn no_issue_numbers_in_code_manifests_docs_or_ci() {
        let files = repo_files().unwrap();
        assert!(files.len() > 60, "found only {} files", files.len());
        let texts = [
            "rs", "toml", "md", "sh", "py", "js", "mjs", "html", "yml", "yaml",
        ];
        let checked = |f: &&String| {
            let ext = f.rsplit_once('.').map_or("", |(_, e)| e);
            (texts.contains(&ext) || *f == ".ci/run")
                // The changelogs record history; this file holds the rule's own test inputs.
                && !f.ends_with("CHANGELOG.md")
                && *f != "xtask/src/tidy.rs"
        };
        let mut found = Vec::new();
        for rel in files.iter().filter(checked) {
            let text = fs::read_to_string(project_root().join(rel)).unwrap_or_default();
            found.extend(
                issue_numbers(&text)
                    .iter()
                    .map(|(n, line)| format!("{rel}:{n}: {line}")),
            );
        }
        assert_none(&found, "say what it does, not which issue asked for it");
    }

    #[test]
    fn the_issue_number_check_fails_on_an_issue_number() {
        for bad in [
            "// integrations (issue 13)",
            "description = \"Tests (Issue #8)\"",
            "r.step(\"sql (ISSUE 14)\", test);",
            "as issues 12 and 13 ask",
            "issue#4",
        ] {
            assert_eq!(issue_numbers(bad).len(), 1, "{bad}");
        }
        let text = "fine\nan issue with the clock\nsee the issues below\nissue: none\n";
        assert!(issue_numbers(text).is_empty());
        assert_eq!(issue_numbers("a\nb issue 7\n"), [(2, "b issue 7")]);
    }

    #[test]
    fn no_tracked_file_over_one_mib() {
        let files = repo_files().unwrap();
        assert!(files.len() > 60, "found only {} files", files.len());
        let size = |f: &String| fs::metadata(project_root().join(f)).map_or(0, |m| m.len());
        let files: Vec<(String, u64)> = files.iter().map(|f| (f.clone(), size(f))).collect();
        let why = "files over 1 MiB are build output or generated data: remove them from git (and ignore them)";
        assert_none(&oversized(&files), why);
    }

    #[test]
    fn the_size_check_fails_on_a_large_file() {
        let files = [
            ("src/lib.rs".to_owned(), 40_000),
            ("Cargo.lock".to_owned(), 3 << 20),
            ("fuzz/Cargo.lock".to_owned(), 3 << 20),
            ("oid-web/pkg/oid_web_bg.wasm".to_owned(), (1 << 20) + 1),
            ("exactly.bin".to_owned(), 1 << 20),
        ];
        assert_eq!(
            oversized(&files),
            ["oid-web/pkg/oid_web_bg.wasm: 1048577 bytes"]
        );
    }

    #[test]
    fn every_readme_msrv_line_equals_rust_version() {
        let workspace = crate::util::rust_version().unwrap();
        let mut problems = Vec::new();
        for readme in repo_files()
            .unwrap()
            .iter()
            .filter(|r| r.ends_with("README.md"))
        {
            let (text, dir) = (
                read(readme),
                readme.trim_end_matches("README.md").trim_end_matches('/'),
            );
            if !crates().contains(&dir) && !text.contains("## MSRV") {
                continue;
            }
            // A crate's own `rust-version = "..."` (newer than the workspace's), else the workspace's.
            let manifest =
                fs::read_to_string(project_root().join(dir).join("Cargo.toml")).unwrap_or_default();
            let rust_version = own_rust_version(&manifest).unwrap_or(&workspace);
            problems.extend(msrv_problem(&text, rust_version).map(|p| format!("{readme}: {p}")));
        }
        assert_none(&problems, "README MSRV lines");
    }

    #[test]
    fn the_msrv_check_fails_on_a_wrong_or_missing_line() {
        let good = "# x\n\n## MSRV\n\nRust 1.85 (edition 2024).\n";
        assert_eq!(msrv_problem(good, "1.85"), None);
        assert!(msrv_problem(good, "1.86").is_some());
        assert!(msrv_problem("# x\n\nRust 1.85\n", "1.85").is_some());
        assert_eq!(msrv_problem("## MSRV\n\nRust 1.85.\n", "1.85"), None);
    }

    #[test]
    fn every_crate_has_readme_changelog_metadata_licences_and_crate_docs() {
        let mut problems = Vec::new();
        for krate in crates() {
            let [readme, changelog, manifest] =
                ["README.md", "CHANGELOG.md", "Cargo.toml"].map(|f| read(&format!("{krate}/{f}")));
            problems.extend(crate_problems(krate, &readme, &changelog, &manifest));
            for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
                if fs::read(project_root().join(krate).join(licence)).ok()
                    != fs::read(project_root().join(licence)).ok()
                {
                    problems.push(format!(
                        "{krate}/{licence} must be the root's (a symlink to it)"
                    ));
                }
            }
            if krate != "oid-cli" {
                problems.extend(lib_problems(krate, &read(&format!("{krate}/src/lib.rs"))));
            }
        }
        assert_none(&problems, "published crates");
    }

    #[test]
    fn the_crate_check_fails_on_missing_metadata() {
        let readme = "# oid-x\n";
        let changelog = "# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - YYYY-MM-DD\n";
        let manifest = "[package]\nversion.workspace = true\n";
        let problems = crate_problems("oid-x", readme, changelog, manifest);
        assert!(
            problems.iter().any(|p| p.contains("repository.workspace")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.contains("[lints]")),
            "{problems:?}"
        );
        assert!(
            problems.iter().all(|p| !p.contains("README")),
            "{problems:?}"
        );
        let problems = crate_problems("oid-y", readme, "# Changelog\n", manifest);
        assert!(problems.iter().any(|p| p.contains("README.md must start")));
        assert!(problems.iter().any(|p| p.contains("[Unreleased]")));
        assert!(problems.iter().any(|p| p.contains("[0.1.0]")));
        let keys = MANIFEST_KEYS.iter().filter(|k| **k != "rust-version");
        let full: String = keys.map(|k| format!("{k}\n")).collect();
        let problems = crate_problems("oid-x", readme, changelog, &full);
        assert!(
            problems.iter().any(|p| p.contains("rust-version")),
            "{problems:?}"
        );
        let inherited = format!("{full}rust-version.workspace = true\n");
        assert!(crate_problems("oid-x", readme, changelog, &inherited).is_empty());
        let own = format!("{full}rust-version = \"1.88\"\n");
        assert!(crate_problems("oid-x", readme, changelog, &own).is_empty());
        assert_eq!(own_rust_version(&own), Some("1.88"));
        assert_eq!(own_rust_version(&inherited), None);
        // The library roots.
        let docs = "#![doc = include_str!(\"../README.md\")]\n";
        assert!(lib_problems("oid-std", docs).is_empty());
        assert_eq!(lib_problems("oid-std", "//! docs\n").len(), 1);
        assert_eq!(
            lib_problems("oid-core", &format!("{docs}// #![forbid(unsafe_code)]\n")).len(),
            1
        );
        assert!(lib_problems("oid-core", &format!("{docs}#![forbid(unsafe_code)]\n")).is_empty());
    }

    #[test]
    fn readmes_show_no_hidden_lines_or_bare_intra_doc_links() {
        let mut problems = Vec::new();
        for readme in crates()
            .iter()
            .map(|k| format!("{k}/README.md"))
            .chain(["README.md".to_owned()])
        {
            problems.extend(
                readme_problems(&read(&readme))
                    .into_iter()
                    .map(|p| format!("{readme}: {p}")),
            );
        }
        let why = "READMEs are read on GitHub and the registry, where rustdoc's hidden lines and \
                   intra-doc links show raw; write complete examples and links with a URL";
        assert_none(&problems, why);
    }

    #[test]
    fn the_readme_check_fails_on_hidden_lines_and_bare_links() {
        let bad = "# oid\n\nSee [`ObjectId`] and [parse].\n\n```rust\n# use oid_core::ObjectId;\nlet x = 1;\n#\n```\n- [`Clock`]: a clock, [`kind()`](Error::kind).\n";
        assert_eq!(
            readme_problems(bad),
            [
                "line 3: unresolved link [`ObjectId`]",
                "line 3: unresolved link [parse]",
                "line 6: hidden doctest line `# use oid_core::ObjectId;`",
                "line 8: hidden doctest line `#`",
                "line 10: link to the Rust path Error::kind",
                "line 10: unresolved link [`Clock`]",
            ]
        );
        let good = "# oid\n\nSee [`ObjectId`](https://docs.rs/x), [parse][p], [`Hex`] and `&[u8]`.\n\n[p]: https://docs.rs/p\n[`Hex`]: https://docs.rs/h\n\n```rust,no_run\n#[derive(Debug)]\nstruct A;\n```\n\n```toml\n# a TOML comment\n[dependencies]\n```\n\n```sh\n# a shell comment\n```\n- [ ] todo\n- [x] done[^1]\n";
        assert_eq!(readme_problems(good), Vec::<String>::new());
        assert!(is_rust_block("") && is_rust_block("rust,no_run") && is_rust_block("ignore"));
        assert!(!is_rust_block("toml") && !is_rust_block("text") && !is_rust_block("sh"));
    }

    #[test]
    fn ci_script_runs_the_readme_test_command() {
        assert!(
            read("README.md").contains("cargo xtask ci"),
            "README must name the test command"
        );
        let script = read(".ci/run");
        assert_eq!(
            last_command(&script),
            Some("cargo xtask ci"),
            ".ci/run must end by running the README's test command"
        );
        assert_eq!(
            last_command("#!/bin/sh\nset -e\ncargo test\n# done\n\n"),
            Some("cargo test")
        );
        assert_eq!(last_command("# only a comment\n"), None);
    }

    #[test]
    fn oid_bson_readme_shows_the_compiled_driver_example() {
        let (readme, source) = (
            read("oid-bson/README.md"),
            read("oid-bson/driver-example/src/main.rs"),
        );
        assert!(
            readme_block_in(&readme, &source),
            "oid-bson/README.md's `rust,ignore` block must be, word for word, part of \
             oid-bson/driver-example/src/main.rs (which the driver step compiles)"
        );
        let source = "//! docs\n// README begin\nuse a;\nfn f() {}\n// README end\nfn main() {}\n";
        let readme = "# x\n\n```rust,ignore\nuse a;\nfn f() {}\n```\n";
        assert!(readme_block_in(readme, source));
        assert!(!readme_block_in(&readme.replace("fn f", "fn g"), source));
        assert!(!readme_block_in(
            &readme.replace("use a;\n", "use a;\nuse b;\n"),
            source
        ));
        assert!(!readme_block_in("# x\n", source));
    }

    #[test]
    fn architecture_names_only_paths_that_exist() {
        let why = "ARCHITECTURE.md names paths that do not exist (write each from the root, or as the \
                   end of a path from the root, as `src/lib.rs`)";
        let problems = architecture_problems(&read("ARCHITECTURE.md"), &repo_files().unwrap());
        assert_none(&problems, why);
    }

    #[test]
    fn the_architecture_check_fails_on_a_missing_path() {
        let files = [
            "oid-core/src/id.rs",
            "oid-core/src/external/serde_support.rs",
            "oid-core/src/process/block.rs",
            "oid-core/tests/ui.rs",
            "oid-std/src/sys.rs",
            "xtask/README.md",
            "deny.toml",
        ]
        .map(str::to_owned);
        let text = "# Architecture\n\n\
            ```text\n`gone.rs` in a diagram is read too\n```\n\
            | **oid-core** | `id.rs`, `external/<crate>_support.rs`, `tests/`, `process/block.rs`, `process/gone.rs`, `oid_core::Generator`, `/dev/vmclock0`, `target/web/` |\n\
            `deny.toml`, `xtask/README.md`, `xtask/tidy.rs`, `https://x.y/z.rs`, `src/sys.rs`, `core/src/id.rs`, `gone/*.rs`, `oid-core/src/`.\n";
        assert_eq!(
            architecture_problems(text, &files),
            [
                "line 4: `gone.rs` does not exist",
                "line 6: `process/gone.rs` does not exist",
                "line 7: `xtask/tidy.rs` does not exist",
                "line 7: `core/src/id.rs` does not exist",
                "line 7: `gone/*.rs` does not exist",
            ]
        );
        assert!(is_repo_path("src/*.rs") && !is_repo_path("process/{block, gone}.rs"));
    }

    #[test]
    fn xtask_readme_lists_every_command() {
        let cli = crate::Cli::command();
        let commands: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
        assert!(commands.len() > 15, "{commands:?}");
        let why =
            "xtask/README.md's command table must list exactly the commands of xtask/src/main.rs";
        assert_none(
            &command_table_problems(&read("xtask/README.md"), &commands),
            why,
        );
    }

    #[test]
    fn the_command_table_check_fails_on_a_missing_or_unknown_command() {
        let commands = ["ci", "fuzz", "web-test"];
        let readme = "# xtask\n\n| command | what it does |\n|---|---|\n\
            | `ci` | everything, `fuzz` too |\n| `fuzz [SECS]`, `launch` | fuzz |\n\n\
            A `web-test` mentioned in a line.\n";
        assert_eq!(
            command_table_problems(readme, &commands),
            [
                "`web-test` is missing: add a row for it",
                "`launch` is not an xtask command (`cargo xtask --help`)",
            ]
        );
        let good = "| command | x |\n|---|---|\n| `ci`, `fuzz`, `web-test` | a |\n| `ci` | b |\n";
        assert!(command_table_problems(good, &commands).is_empty());
    }

    #[test]
    fn published_readmes_are_short() {
        let too_long = |readme: &str| readme.lines().count() > README_MAX_LINES;
        let long = crates()
            .into_iter()
            .filter(|k| too_long(&read(&format!("{k}/README.md"))));
        let problems: Vec<String> = long.map(|k| format!("{k}/README.md")).collect();
        let why = format!(
            "a published crate's README is its front page and crate docs (what it is, which type to \
             hold, a first example, features, links), at most {README_MAX_LINES} lines: move the rest to docs/"
        );
        assert_none(&problems, &why);
        assert!(
            too_long(&"# x\n".repeat(README_MAX_LINES + 1))
                && !too_long(&"# x\n".repeat(README_MAX_LINES))
        );
    }

    #[test]
    fn every_changelog_first_release_is_one_added_list() {
        let changelogs: Vec<String> = repo_files()
            .unwrap()
            .into_iter()
            .filter(|f| f.ends_with("CHANGELOG.md"))
            .collect();
        assert!(
            changelogs.len() >= crates().len(),
            "found only {} changelogs",
            changelogs.len()
        );
        let problems = changelogs.iter().flat_map(|f| {
            changelog_problems(&read(f))
                .into_iter()
                .map(move |p| format!("{f}: {p}"))
        });
        let why = "nothing is released yet: each changelog's first release is one `### Added` list of \
                   what it has (no Changed/Fixed/Removed, no [Unreleased] entries)";
        assert_none(&problems.collect::<Vec<_>>(), why);
    }

    #[test]
    fn the_changelog_check_fails_on_other_headings_or_unreleased_entries() {
        let good = "# Changelog\n\nIntro.\n\n## [Unreleased]\n\n## [0.1.0] - YYYY-MM-DD\n\n\
            ### Added\n- one\n  continued\n\n- two\n\n[Unreleased]: https://x\n[0.1.0]: https://y\n";
        assert_eq!(changelog_problems(good), Vec::<String>::new());
        let unpublished = "# Changelog\n\n## [Unreleased]\n\n### Added\n- one\n";
        assert_eq!(changelog_problems(unpublished), Vec::<String>::new());
        let released =
            "## [Unreleased]\n\n### Fixed\n- a\n\n## [0.1.0] - 2027-01-01\n\n### Added\n- b\n";
        assert_eq!(changelog_problems(released), Vec::<String>::new());
        let bad = "# Changelog\n\n## [Unreleased]\n\n### Changed\n- a\n\n\
            ## [0.1.0] - YYYY-MM-DD\n\nThe first release.\n\n### Added\n- one\n\n### Fixed\n- two\n\
            Loose text.\n\n### Added\n- three\n";
        assert_eq!(
            changelog_problems(bad),
            [
                "line 5: `### Changed`: not in the `### Added` list",
                "line 6: `- a`: not in the `### Added` list",
                "line 10: `The first release.`: not in the `### Added` list",
                "line 15: `### Fixed`: not in the `### Added` list",
                "line 17: `Loose text.`: not in the `### Added` list",
                "line 19: `### Added`: not in the `### Added` list",
            ]
        );
        let unreleased_entries =
            "## [Unreleased]\n\n### Added\n- a\n\n## [0.1.0] - YYYY-MM-DD\n\n### Added\n- b\n";
        assert_eq!(
            changelog_problems(unreleased_entries),
            [
                "line 6: `## [0.1.0] - YYYY-MM-DD`: not in the `### Added` list",
                "line 8: `### Added`: not in the `### Added` list",
            ]
        );
        assert_eq!(
            changelog_problems("# Changelog\n\n## [Unreleased]\n\n### Changed\n- a\n"),
            [
                "line 5: `### Changed`: not in the `### Added` list",
                "line 6: `- a`: not in the `### Added` list",
                "no `### Added` list after the release headings",
            ]
        );
        assert_eq!(
            changelog_problems("# Changelog\n"),
            ["no `### Added` list after the release headings"]
        );
    }
}
