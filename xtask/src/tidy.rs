//! Repository conventions, checked by `cargo test -p xtask` (so `cargo xtask ci` enforces them),
//! in the manner of rust-analyzer's `tidy`. Each check is a function over plain inputs, with a
//! test feeding it a bad input, so that a check that cannot fail would be noticed.

mod imports;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::util::project_root;

/// No Rust source file may be longer than this (split it by concern instead).
const MAX_LINES: usize = 600;

/// Files allowed over [`MAX_LINES`], each with the reason (path relative to the root).
const LONG_FILES: &[(&str, &str)] = &[];

/// Folders never searched for sources: build output, npm packages, fuzz inputs, VCS data.
const SKIP_DIRS: &[&str] = &["target", "node_modules", "corpus", "artifacts", ".git"];

/// The published crates: each must have the MSRV line in its README.
const CRATES: &[&str] = &["oid-core", "oid-std", "oid-bson", "oid-embedded", "oid-cli"];

/// Every `.rs` file under `dir`, skipping [`SKIP_DIRS`].
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if !SKIP_DIRS.iter().any(|s| name == *s) {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files of `files` (path, line count) over `max` lines and not in `allowed`.
fn too_long(files: &[(String, usize)], max: usize, allowed: &[(&str, &str)]) -> Vec<String> {
    files
        .iter()
        .filter(|(path, lines)| *lines > max && !allowed.iter().any(|(a, _)| a == path))
        .map(|(path, lines)| format!("{path}: {lines} lines"))
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

/// The crate folders of the workspace: every folder with a `Cargo.toml` and a `src/`.
fn crate_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("Cargo.toml").exists() && dir.join("src").is_dir() {
        out.push(dir.to_path_buf());
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if entry.path().is_dir() && !SKIP_DIRS.iter().any(|s| name == *s) {
            crate_dirs(&entry.path(), out);
        }
    }
}

/// The import cycles between the files of the crate in `dir` (one message per cycle).
fn crate_cycles(dir: &Path) -> Vec<String> {
    let src = dir.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut sources = BTreeMap::new();
    for f in files {
        let rel = f
            .strip_prefix(&src)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        if let (Some(m), Ok(text)) = (imports::module_of(&rel), fs::read_to_string(&f)) {
            sources.insert(m, text);
        }
    }
    imports::cycles(&imports::graph(&sources))
        .iter()
        .map(|c| imports::show(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> String {
        fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
    }

    #[test]
    fn no_source_file_is_over_600_lines() {
        let root = project_root();
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        assert!(files.len() > 50, "found only {} .rs files", files.len());
        let counted: Vec<(String, usize)> = files
            .iter()
            .map(|f| {
                let rel = f.strip_prefix(&root).unwrap_or(f);
                (rel.to_string_lossy().into_owned(), read(f).lines().count())
            })
            .collect();
        let long = too_long(&counted, MAX_LINES, LONG_FILES);
        assert!(
            long.is_empty(),
            "split these files by concern (or allow-list one in LONG_FILES with a reason): {long:?}"
        );
    }

    #[test]
    fn the_length_check_fails_on_a_long_file() {
        let files = [("a.rs".to_owned(), 601), ("b.rs".to_owned(), 600)];
        assert_eq!(too_long(&files, 600, &[]), ["a.rs: 601 lines"]);
        assert!(too_long(&files, 600, &[("a.rs", "generated")]).is_empty());
    }

    #[test]
    fn no_import_cycles_between_the_files_of_a_crate() {
        let root = project_root();
        let mut dirs = Vec::new();
        crate_dirs(&root, &mut dirs);
        assert!(dirs.len() >= 8, "found only {} crates", dirs.len());
        let mut all = Vec::new();
        for dir in dirs {
            let name = dir
                .strip_prefix(&root)
                .unwrap_or(&dir)
                .display()
                .to_string();
            all.extend(
                crate_cycles(&dir)
                    .into_iter()
                    .map(|c| format!("{name}: {c}")),
            );
        }
        assert!(all.is_empty(), "import cycles:\n{}", all.join("\n"));
    }

    fn module_sources(files: &[(&str, &str)]) -> BTreeMap<imports::Module, String> {
        files
            .iter()
            .map(|(path, src)| (imports::module_of(path).unwrap(), (*src).to_owned()))
            .collect()
    }

    #[test]
    fn the_cycle_check_fails_on_a_cycle() {
        // cli -> format (use group) -> inspect (inline path) -> cli (super).
        let sources = module_sources(&[
            ("main.rs", "mod cli;\nmod format;\nmod inspect;\n"),
            ("cli.rs", "use crate::{format::{self, Style}, other};\n"),
            ("format.rs", "fn f() { crate::inspect::run(); }\n"),
            ("format/table.rs", "use super::super::inspect as i;\n"),
            ("inspect.rs", "use super::cli::Args;\n"),
        ]);
        let found = imports::cycles(&imports::graph(&sources));
        let shown: Vec<String> = found.iter().map(|c| imports::show(c)).collect();
        assert_eq!(
            shown,
            ["crate::cli -> crate::format -> crate::inspect -> crate::cli"]
        );
    }

    #[test]
    fn the_cycle_check_ignores_comments_strings_and_other_crates() {
        let sources = module_sources(&[
            ("lib.rs", "mod a;\nmod b;\npub use a::A;\n"),
            (
                "a.rs",
                "mod c;\nuse c::C;\nuse std::fmt;\nuse core::b::X;\n/// See [`crate::b::B`].\nconst S: &str = \"crate::b::B\";\nconst R: &str = r#\"use crate::b;\"#;\nconst C: char = '\"';\nfn f<'a>(x: &'a str) {}\n",
            ),
            ("b.rs", "use crate::a::A;\n// use crate::b;\n"),
            // `super` inside an inline module names this file's module, not its parent.
            (
                "a/c.rs",
                "pub struct C;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
            ),
        ]);
        let graph = imports::graph(&sources);
        assert!(imports::cycles(&graph).is_empty(), "{graph:?}");
        // lib.rs -> a (a child module, relative path) and b -> a are seen.
        let a = vec!["a".to_owned()];
        assert!(graph[&Vec::new()].contains(&a));
        assert!(graph[&vec!["b".to_owned()]].contains(&a));
        assert!(graph[&a].contains(&vec!["a".to_owned(), "c".to_owned()]));
    }

    #[test]
    fn every_readme_msrv_line_equals_rust_version() {
        let root = project_root();
        let version = crate::util::rust_version().unwrap();
        let mut problems = Vec::new();
        for krate in CRATES {
            if let Some(p) = msrv_problem(&read(&root.join(krate).join("README.md")), &version) {
                problems.push(format!("{krate}/README.md: {p}"));
            }
        }
        // Any other README with an MSRV section must agree too.
        let mut dirs = Vec::new();
        crate_dirs(&root, &mut dirs);
        dirs.push(root.clone());
        for dir in dirs {
            let readme = dir.join("README.md");
            let Ok(text) = fs::read_to_string(&readme) else {
                continue;
            };
            if text.contains("## MSRV") {
                if let Some(p) = msrv_problem(&text, &version) {
                    problems.push(format!("{}: {p}", readme.display()));
                }
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
        for krate in CRATES {
            let dir = root.join(krate);
            let readme = read(&dir.join("README.md"));
            assert!(
                readme.starts_with(&format!("# {krate}")),
                "{krate}/README.md must start with `# {krate}`"
            );
            let changelog = read(&dir.join("CHANGELOG.md"));
            assert!(
                changelog.contains("## [Unreleased]"),
                "{krate}/CHANGELOG.md needs an `## [Unreleased]` section"
            );
            let manifest = read(&dir.join("Cargo.toml"));
            for key in [
                "version.workspace = true",
                "edition.workspace = true",
                "license.workspace = true",
                "rust-version.workspace = true",
            ] {
                assert!(
                    manifest.contains(key),
                    "{krate}/Cargo.toml must use `{key}`"
                );
            }
            assert!(
                manifest.contains("[lints]\nworkspace = true"),
                "{krate}/Cargo.toml must inherit workspace lints"
            );
        }
    }

    #[test]
    fn library_crates_use_their_readme_as_crate_docs() {
        let root = project_root();
        for krate in CRATES.iter().filter(|k| **k != "oid-cli") {
            let lib = read(&root.join(krate).join("src/lib.rs"));
            assert!(
                lib.contains("#![doc = include_str!(\"../README.md\")]"),
                "{krate}/src/lib.rs must use its README as crate docs"
            );
        }
    }

    #[test]
    fn ci_script_runs_the_readme_test_command() {
        let root = project_root();
        let readme = read(&root.join("README.md"));
        let ci = read(&root.join(".ci/run"));
        assert!(
            readme.contains("cargo xtask ci"),
            "README must name the test command"
        );
        let last = ci
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        assert_eq!(
            last.map(str::trim),
            Some("cargo xtask ci"),
            ".ci/run must end by running the README's test command"
        );
    }

    #[test]
    fn oid_core_forbids_unsafe_and_is_no_std() {
        let lib = read(&project_root().join("oid-core/src/lib.rs"));
        assert!(lib.contains("#![no_std]"));
        assert!(lib.contains("#![forbid(unsafe_code)]"));
    }

    #[test]
    fn sibling_path_dependencies_carry_a_version() {
        let manifest = read(&project_root().join("Cargo.toml"));
        for line in manifest.lines().filter(|l| l.contains("path = \"oid-")) {
            assert!(
                line.contains("version = "),
                "path dependency without a version: {line}"
            );
        }
    }

    #[test]
    fn ui_tests_skip_every_optional_feature_of_oid_core() {
        let root = project_root();
        let manifest = read(&root.join("oid-core/Cargo.toml"));
        let ui = read(&root.join("oid-core/tests/ui.rs"));
        let features = crate::verify::declared_features(&manifest);
        assert!(features.len() > 4, "{features:?}");
        let missing: Vec<&String> = features
            .iter()
            .filter(|f| !ui.contains(&format!("feature = \"{f}\"")))
            .collect();
        assert!(
            missing.is_empty(),
            "oid-core/tests/ui.rs runs trybuild only without optional features: add {missing:?} to its cfg"
        );
    }
}
