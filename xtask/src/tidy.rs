//! Repository conventions, checked by `cargo test -p xtask` (so `cargo xtask ci` enforces them),
//! in the manner of rust-analyzer's `tidy`. Each check is a function over plain inputs, with a
//! test feeding it a bad input, so that a check that cannot fail would be noticed.

mod docs;

use std::fs;
use std::path::Path;

use crate::util::{project_root, repo_files};

/// The published crates and oid-datafusion (published from its own workspace): each has a
/// README with an MSRV line, a changelog and the registry metadata.
fn crates() -> Vec<&'static str> {
    crate::release::PUBLISHED
        .iter()
        .copied()
        .chain(["oid-datafusion"])
        .collect()
}

/// The files the issue-number rule reads: code, manifests, CI scripts and docs.
fn is_checked_text(path: &str) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    let texts = [
        "rs", "toml", "md", "sh", "py", "js", "mjs", "html", "yml", "yaml",
    ];
    texts.contains(&ext) || path == ".ci/run"
}

/// The lines of `text` that name a tracker issue ("issue 13", "Issue #8", "issues 12 and 13"):
/// code, manifests, docs and CI step names say what a thing does, not which ticket asked for it.
fn issue_numbers(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let lower = line.to_ascii_lowercase();
            lower.match_indices("issue").any(|(at, _)| {
                let rest = lower[at + 5..].trim_start_matches('s');
                let rest = rest.strip_prefix(' ').unwrap_or(rest);
                let rest = rest.strip_prefix('#').unwrap_or(rest);
                rest.starts_with(|c: char| c.is_ascii_digit())
            })
        })
        .map(|(i, line)| (i + 1, line.trim()))
        .collect()
}

/// The version of a README's MSRV section: the first `Rust X.Y` after a `## MSRV` heading.
fn readme_msrv(readme: &str) -> Option<&str> {
    let section = &readme[readme.find("## MSRV")?..];
    let at = section.find("Rust ")?;
    let version = &section[at + 5..];
    let end = version
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(version.len());
    Some(version[..end].trim_end_matches('.'))
}

/// A crate's own `rust-version = "X.Y"` line, when it does not inherit the workspace's (a crate
/// whose dependencies need a newer Rust, as oid-arrow's arrow-rs does).
pub(crate) fn own_rust_version(manifest: &str) -> Option<&str> {
    manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("rust-version = \""))
        .map(|v| v.trim_end_matches('"'))
}

/// What is wrong with a README's MSRV line given the workspace's `rust-version`, if anything.
fn msrv_problem(readme: &str, rust_version: &str) -> Option<String> {
    match readme_msrv(readme) {
        None => Some("no `## MSRV` section with a `Rust X.Y` line".to_owned()),
        Some(v) if v != rust_version => {
            Some(format!("says Rust {v}, but rust-version is {rust_version}"))
        }
        Some(_) => None,
    }
}

/// Whether a fenced code block's info string makes rustdoc treat it as Rust (and so hide its
/// `# ` lines): no language, `rust`, or only rustdoc's attributes (`no_run`, `ignore`, ...).
fn is_rust_block(info: &str) -> bool {
    info.split(',').map(str::trim).all(|word| {
        word.is_empty()
            || word == "rust"
            || [
                "no_run",
                "ignore",
                "should_panic",
                "compile_fail",
                "test_harness",
                "standalone_crate",
            ]
            .contains(&word)
            || word.starts_with("edition")
    })
}

/// What GitHub and the registry would show wrongly in a README: rustdoc's hidden lines (`# ` in a
/// Rust block) show as raw text there, and intra-doc links (`[`ObjectId`]` without a URL or a
/// `[label]: url` definition) as literal brackets. One message per line.
fn readme_problems(readme: &str) -> Vec<String> {
    let defined: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix('[')?.split_once("]:"))
        .map(|(label, _)| label)
        .collect();
    let mut problems = Vec::new();
    let mut fence: Option<bool> = None; // Some(is_rust) inside a code block
    for (n, line) in readme.lines().enumerate() {
        let n = n + 1;
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(is_rust_block(info)),
            };
            continue;
        }
        match fence {
            Some(true) => {
                if trimmed == "#" || trimmed.starts_with("# ") {
                    problems.push(format!("line {n}: hidden doctest line `{}`", line.trim()));
                }
            }
            Some(false) => {}
            None => {
                for label in unresolved_links(line, &defined) {
                    problems.push(format!("line {n}: unresolved link [{label}]"));
                }
            }
        }
    }
    problems
}

/// The `[label]`s of a Markdown line (outside code spans) that are neither inline links
/// (`[label](url)`, `[label][ref]`), nor definitions, nor defined in `defined`.
fn unresolved_links<'a>(line: &'a str, defined: &[&str]) -> Vec<&'a str> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut in_code = false;
    let mut open = None;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'`' => {
                // A code span inside brackets (`[`ObjectId`]`) is part of the label.
                in_code = !in_code;
                if open.is_none() {
                    continue;
                }
            }
            b'[' if !in_code => open = Some(i),
            b']' if !in_code => {
                let Some(start) = open.take() else { continue };
                let label = &line[start + 1..i];
                let rest = &line[i + 1..];
                // `[label](target)`: a link unless the target is a Rust path (`Error::kind`).
                let inline = rest
                    .strip_prefix('(')
                    .map(|t| t.split(')').next().unwrap_or(t));
                let is_link = match inline {
                    Some(target) => target.contains("://") || !target.contains("::"),
                    None => {
                        rest.starts_with('[')
                            || (rest.starts_with(':') && line[..start].trim().is_empty())
                    }
                };
                let skip =
                    label.is_empty() || label == " " || label == "x" || label.starts_with('^');
                if !is_link && !skip && !defined.contains(&label) {
                    out.push(label);
                }
            }
            _ => {}
        }
    }
    out
}

/// The manifest lines every published crate has: workspace metadata and registry metadata.
const MANIFEST_KEYS: &[&str] = &[
    "version.workspace = true",
    "edition.workspace = true",
    "license.workspace = true",
    "repository.workspace = true",
    "homepage.workspace = true",
    "documentation = ",
    "keywords = ",
    "categories = ",
    "[package.metadata.docs.rs]",
];

/// How a library uses its README as crate docs.
const README_DOCS: &str = "#![doc = include_str!(\"../README.md\")]";

/// What a published crate's README, changelog and manifest lack.
fn crate_problems(krate: &str, readme: &str, changelog: &str, manifest: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if !readme.starts_with(&format!("# {krate}")) {
        problems.push(format!("{krate}/README.md must start with `# {krate}`"));
    }
    for heading in ["## [Unreleased]", "## [0.1.0]"] {
        if !changelog.lines().any(|l| l.starts_with(heading)) {
            problems.push(format!("{krate}/CHANGELOG.md needs an `{heading}` section"));
        }
    }
    for key in MANIFEST_KEYS {
        if !manifest.contains(key) {
            problems.push(format!("{krate}/Cargo.toml must have `{key}`"));
        }
    }
    if !manifest.contains("rust-version.workspace = true") && own_rust_version(manifest).is_none() {
        problems.push(format!(
            "{krate}/Cargo.toml must have `rust-version.workspace = true` or its own `rust-version`"
        ));
    }
    if !manifest.contains("[lints]\nworkspace = true") {
        problems.push(format!(
            "{krate}/Cargo.toml must inherit the workspace [lints]"
        ));
    }
    problems
}

/// The attributes of `wanted` that are not a line of `lib`.
fn missing_attrs<'a>(lib: &str, wanted: &[&'a str]) -> Vec<&'a str> {
    wanted
        .iter()
        .copied()
        .filter(|a| !lib.lines().any(|l| l.trim() == *a))
        .collect()
}

/// The last command of a shell script (its last line that is neither blank nor a comment).
fn last_command(script: &str) -> Option<&str> {
    script
        .lines()
        .map(str::trim)
        .rev()
        .find(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The most a committed file may weigh: sources and docs are far smaller, so a larger one is
/// build output or generated data committed by mistake (Cargo.lock files aside).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// The files of `files` (path, size in bytes) larger than [`MAX_FILE_BYTES`], Cargo.lock aside.
fn oversized(files: &[(String, u64)]) -> Vec<String> {
    files
        .iter()
        .filter(|(path, size)| {
            *size > MAX_FILE_BYTES && path.rsplit('/').next() != Some("Cargo.lock")
        })
        .map(|(path, size)| format!("{path}: {size} bytes"))
        .collect()
}

/// Whether the first `rust,ignore` block of `readme` is, word for word, part of `source` (a
/// README example compiled elsewhere).
fn readme_block_in(readme: &str, source: &str) -> bool {
    let block: Vec<&str> = readme
        .lines()
        .skip_while(|l| l.trim() != "```rust,ignore")
        .skip(1)
        .take_while(|l| l.trim() != "```")
        .collect();
    !block.is_empty() && source.contains(&block.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> String {
        fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
    }

    #[test]
    fn no_issue_numbers_in_code_manifests_docs_or_ci() {
        let root = project_root();
        let files = repo_files().unwrap();
        assert!(files.len() > 60, "found only {} files", files.len());
        let mut found = Vec::new();
        for rel in files.iter().filter(|f| is_checked_text(f)) {
            // The changelogs record history; this file holds the rule's own test inputs.
            if rel.ends_with("CHANGELOG.md") || rel == "xtask/src/tidy.rs" {
                continue;
            }
            let Ok(text) = fs::read_to_string(root.join(rel)) else {
                continue;
            };
            for (n, line) in issue_numbers(&text) {
                found.push(format!("{rel}:{n}: {line}"));
            }
        }
        assert!(
            found.is_empty(),
            "say what it does, not which issue asked for it:\n{}",
            found.join("\n")
        );
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
        let root = project_root();
        let files: Vec<(String, u64)> = repo_files()
            .unwrap()
            .into_iter()
            .map(|f| {
                let size = fs::metadata(root.join(&f)).map_or(0, |m| m.len());
                (f, size)
            })
            .collect();
        assert!(files.len() > 60, "found only {} files", files.len());
        let big = oversized(&files);
        assert!(
            big.is_empty(),
            "files over 1 MiB are build output or generated data: remove them from git \
             (and ignore them):\n{}",
            big.join("\n")
        );
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
        let root = project_root();
        let workspace = crate::util::rust_version().unwrap();
        let readmes = repo_files().unwrap();
        let mut problems = Vec::new();
        for readme in readmes
            .iter()
            .filter(|r| r.ends_with("README.md"))
            .map(|r| root.join(r))
        {
            let text = read(&readme);
            let krate = readme.parent().unwrap_or(&root);
            let published = crates().iter().any(|c| krate == root.join(c));
            if !published && !text.contains("## MSRV") {
                continue;
            }
            // A crate's own `rust-version = "..."` (newer than the workspace's), else the workspace's.
            let manifest = fs::read_to_string(krate.join("Cargo.toml")).unwrap_or_default();
            if let Some(p) = msrv_problem(&text, own_rust_version(&manifest).unwrap_or(&workspace))
            {
                problems.push(format!("{}: {p}", readme.display()));
            }
        }
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn the_msrv_check_fails_on_a_wrong_or_missing_line() {
        let good = "# x\n\n## MSRV\n\nRust 1.85 (edition 2024).\n";
        assert_eq!(msrv_problem(good, "1.85"), None);
        assert!(msrv_problem(good, "1.86").is_some());
        assert!(msrv_problem("# x\n\nRust 1.85\n", "1.85").is_some());
        assert_eq!(readme_msrv("## MSRV\n\nRust 1.85.\n"), Some("1.85"));
    }

    #[test]
    fn every_crate_has_readme_changelog_and_workspace_metadata() {
        let root = project_root();
        let mut problems = Vec::new();
        for krate in crates() {
            let dir = root.join(krate);
            problems.extend(crate_problems(
                krate,
                &read(&dir.join("README.md")),
                &read(&dir.join("CHANGELOG.md")),
                &read(&dir.join("Cargo.toml")),
            ));
            for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
                if fs::read(dir.join(licence)).ok() != fs::read(root.join(licence)).ok() {
                    problems.push(format!(
                        "{krate}/{licence} must be the root's (a symlink to it)"
                    ));
                }
            }
        }
        assert!(problems.is_empty(), "{problems:#?}");
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
        let full: String = MANIFEST_KEYS.iter().map(|k| format!("{k}\n")).collect();
        let full = format!("{full}[lints]\nworkspace = true\n");
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
    }

    #[test]
    fn readmes_show_no_hidden_lines_or_bare_intra_doc_links() {
        let root = project_root();
        let mut problems = Vec::new();
        for dir in crates().iter().map(|k| root.join(k)).chain([root.clone()]) {
            let readme = dir.join("README.md");
            for p in readme_problems(&read(&readme)) {
                problems.push(format!("{}: {p}", readme.display()));
            }
        }
        assert!(
            problems.is_empty(),
            "READMEs are read on GitHub and the registry, where rustdoc's hidden lines and \
             intra-doc links show raw; write complete examples and links with a URL:\n{}",
            problems.join("\n")
        );
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
                "line 10: unresolved link [`Clock`]",
                "line 10: unresolved link [`kind()`]",
            ]
        );
        let good = "# oid\n\nSee [`ObjectId`](https://docs.rs/x), [parse][p], [`Hex`] and `&[u8]`.\n\n[p]: https://docs.rs/p\n[`Hex`]: https://docs.rs/h\n\n```rust,no_run\n#[derive(Debug)]\nstruct A;\n```\n\n```toml\n# a TOML comment\n[dependencies]\n```\n\n```sh\n# a shell comment\n```\n- [ ] todo\n";
        assert_eq!(readme_problems(good), Vec::<String>::new());
        assert!(is_rust_block("") && is_rust_block("rust,no_run") && is_rust_block("ignore"));
        assert!(!is_rust_block("toml") && !is_rust_block("text") && !is_rust_block("sh"));
    }

    #[test]
    fn library_crates_use_their_readme_as_crate_docs() {
        let root = project_root();
        let mut problems = Vec::new();
        for krate in crates().into_iter().filter(|k| *k != "oid-cli") {
            let lib = read(&root.join(krate).join("src/lib.rs"));
            // oid-bson includes it under `cfg_attr` (its examples need a bson feature).
            if !lib.contains(README_DOCS) && !lib.contains("doc = include_str!(\"../README.md\")") {
                problems.push(format!(
                    "{krate}/src/lib.rs does not use its README as crate docs"
                ));
            }
        }
        let core = read(&root.join("oid-core/src/lib.rs"));
        for attr in missing_attrs(&core, &["#![no_std]", "#![forbid(unsafe_code)]"]) {
            problems.push(format!("oid-core/src/lib.rs lacks {attr}"));
        }
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn the_attribute_check_fails_on_a_missing_attribute() {
        let lib = "//! docs\n#![no_std]\n// #![forbid(unsafe_code)]\n";
        assert_eq!(
            missing_attrs(lib, &["#![no_std]", "#![forbid(unsafe_code)]", README_DOCS]),
            ["#![forbid(unsafe_code)]", README_DOCS]
        );
    }

    #[test]
    fn ci_script_runs_the_readme_test_command() {
        let root = project_root();
        let readme = read(&root.join("README.md"));
        assert!(
            readme.contains("cargo xtask ci"),
            "README must name the test command"
        );
        assert_eq!(
            last_command(&read(&root.join(".ci/run"))),
            Some("cargo xtask ci"),
            ".ci/run must end by running the README's test command"
        );
    }

    #[test]
    fn the_ci_script_check_reads_the_last_command() {
        assert_eq!(
            last_command("#!/bin/sh\nset -e\ncargo test\n# done\n\n"),
            Some("cargo test")
        );
        assert_eq!(last_command("# only a comment\n"), None);
    }

    #[test]
    fn oid_bson_readme_shows_the_compiled_driver_example() {
        let root = project_root();
        let readme = read(&root.join("oid-bson/README.md"));
        let source = read(&root.join("oid-bson/driver-example/src/main.rs"));
        assert!(
            readme_block_in(&readme, &source),
            "oid-bson/README.md's `rust,ignore` block must be, word for word, part of \
             oid-bson/driver-example/src/main.rs (which the driver step compiles)"
        );
    }

    #[test]
    fn the_driver_example_check_fails_on_a_difference() {
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
}
