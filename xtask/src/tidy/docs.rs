//! Checks that the docs say what the code is: ARCHITECTURE.md names only paths that exist,
//! xtask/README.md's command table lists exactly the commands clap knows, the changelogs'
//! first release is one "Added" list, and the published crates' READMEs stay short.

use std::collections::BTreeSet;

use crate::util::repo_files;

/// Extensions that make a backticked word a file name (`id.rs`, `deny.toml`).
const FILE_EXTENSIONS: &[&str] = &[
    "rs", "md", "toml", "lock", "txt", "json", "yml", "yaml", "html", "js", "mjs", "sh", "py",
    "stderr", "css",
];

/// Every file of the repository ([`repo_files`]) and every folder above one, as `/`-separated
/// paths relative to the root.
pub(super) fn repo_entries() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for file in repo_files().unwrap_or_default() {
        let mut path = file.as_str();
        while let Some((parent, _)) = path.rsplit_once('/') {
            out.insert(parent.to_owned());
            path = parent;
        }
        out.insert(file);
    }
    out
}

/// The backticked words of a Markdown line.
fn code_spans(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

/// Whether a backticked word is a repository path: a file name with a known extension, or a
/// `/`-separated path; `<name>` and `*` stand for any name, `{a, b}` for each choice. URLs,
/// Rust paths, absolute paths (`/dev/…`) and build output (`target/…`) are not checked.
fn is_repo_path(word: &str) -> bool {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "_-./*<>{}, ".contains(c);
    if word.is_empty()
        || !word.chars().all(allowed)
        || !word.chars().any(|c| c.is_ascii_alphabetic())
        || word.starts_with('/')
        || word.starts_with("target/")
        || word.contains(' ') && !word.contains('{')
    {
        return false;
    }
    let ext = word
        .trim_end_matches('}')
        .rsplit_once('.')
        .map_or("", |(_, e)| e);
    word.contains('/') || FILE_EXTENSIONS.contains(&ext)
}

/// `a/{b, c}.rs` as `a/b.rs` and `a/c.rs` (one pair of braces).
fn expand_braces(word: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (word.find('{'), word.find('}')) else {
        return vec![word.to_owned()];
    };
    if close < open {
        return vec![word.to_owned()];
    }
    word[open + 1..close]
        .split(',')
        .map(|choice| format!("{}{}{}", &word[..open], choice.trim(), &word[close + 1..]))
        .collect()
}

/// Whether `name` matches `pattern`, where one `*` or `<anything>` stands for any characters.
fn wildcard(pattern: &str, name: &str) -> bool {
    let (head, tail) = match (pattern.find(['*', '<']), pattern.rfind(['*', '>'])) {
        (Some(open), Some(close)) => (&pattern[..open], &pattern[close + 1..]),
        _ => return pattern == name,
    };
    name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
}

/// Whether some entry matches `path` segment by segment (a trailing `/` means a folder).
fn exists(path: &str, entries: &BTreeSet<String>) -> bool {
    let path = path.trim_end_matches('/');
    if !path.contains(['*', '<']) {
        return entries.contains(path);
    }
    let want: Vec<&str> = path.split('/').collect();
    entries.iter().any(|e| {
        let have: Vec<&str> = e.split('/').collect();
        have.len() == want.len() && want.iter().zip(&have).all(|(w, h)| wildcard(w, h))
    })
}

/// The top-level folders a line names (as words), the crates a row or section is about.
fn folders_named<'a>(text: &'a str, entries: &BTreeSet<String>) -> Vec<&'a str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .filter(|w| !w.is_empty() && entries.contains(*w))
        .collect()
}

/// The paths ARCHITECTURE.md names that do not exist, one message per path. A path is looked
/// up from the root, then from the folder (and its `src/`) of the crate it is written under:
/// the crates a table row's first cell names, else those of the nearest heading above.
pub(super) fn architecture_problems(text: &str, entries: &BTreeSet<String>) -> Vec<String> {
    let mut problems = Vec::new();
    let mut section: Vec<&str> = Vec::new();
    let mut in_fence = false;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if trimmed.starts_with('#') {
            section = folders_named(trimmed, entries);
        }
        let mut context = section.clone();
        if let Some(row) = trimmed.strip_prefix('|') {
            let first = row.split('|').next().unwrap_or("");
            let named = folders_named(first, entries);
            if !named.is_empty() {
                context = named;
            }
        }
        for word in code_spans(line).filter(|w| is_repo_path(w)) {
            for path in expand_braces(word) {
                let found = exists(&path, entries)
                    || context.iter().any(|c| {
                        exists(&format!("{c}/{path}"), entries)
                            || exists(&format!("{c}/src/{path}"), entries)
                    });
                if !found {
                    let under = if context.is_empty() {
                        "the root".to_owned()
                    } else {
                        context.join(", ")
                    };
                    problems.push(format!(
                        "line {}: `{path}` does not exist (looked under {under})",
                        n + 1
                    ));
                }
            }
        }
    }
    problems
}

/// The commands the command table of xtask/README.md lists: the first word of each backticked
/// span in the first cell of the rows of the table whose first column is `command`.
pub(super) fn readme_commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_table = false;
    for line in readme.lines() {
        let Some(row) = line.trim().strip_prefix('|') else {
            in_table = false;
            continue;
        };
        let first = row.split('|').next().unwrap_or("").trim();
        if first == "command" {
            in_table = true;
            continue;
        }
        if in_table && !first.starts_with("---") {
            out.extend(
                code_spans(first)
                    .filter_map(|s| s.split_whitespace().next())
                    .map(str::to_owned),
            );
        }
    }
    out
}

/// How xtask/README.md's command table differs from the commands `(name, about)` clap knows.
pub(super) fn command_table_problems(readme: &str, commands: &[(String, String)]) -> Vec<String> {
    let listed = readme_commands(readme);
    let mut problems = Vec::new();
    for (name, about) in commands {
        if !listed.contains(name) {
            let about = about
                .split(". ")
                .next()
                .unwrap_or(about)
                .trim_end_matches('.');
            problems.push(format!(
                "`{name}` is missing: add the row `| `{name}` | {about} |` to the table"
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for name in &listed {
        if !commands.iter().any(|(c, _)| c == name) {
            problems.push(format!(
                "`{name}` is not an xtask command (`cargo xtask --help`): remove it from the table"
            ));
        } else if !seen.insert(name) {
            problems.push(format!("`{name}` is listed twice"));
        }
    }
    problems
}

/// The most lines a published crate's README (its front page and crate docs) may have.
pub(super) const README_MAX_LINES: usize = 150;

/// The README's line count when it is over [`README_MAX_LINES`].
pub(super) fn readme_too_long(readme: &str) -> Option<usize> {
    let lines = readme.lines().count();
    (lines > README_MAX_LINES).then_some(lines)
}

/// What keeps a changelog's first release from being one "Added" list. Before the first release
/// everything is new: the 0.1.0 section (the `[Unreleased]` one where there is no 0.1.0 yet)
/// holds a `### Added` heading and list items only, and while 0.1.0 is undated
/// (`YYYY-MM-DD`) the `[Unreleased]` section is empty.
pub(super) fn changelog_problems(changelog: &str) -> Vec<String> {
    let has = |heading: &str| changelog.lines().find(|l| l.starts_with(heading));
    let first = match (has("## [0.1.0]"), has("## [Unreleased]")) {
        (Some(heading), _) => ("0.1.0", "## [0.1.0]", heading.contains("YYYY-MM-DD")),
        (None, Some(_)) => ("[Unreleased]", "## [Unreleased]", false),
        (None, None) => return vec!["no `## [0.1.0]` or `## [Unreleased]` section".to_owned()],
    };
    let (name, heading, undated) = first;
    let mut problems = Vec::new();
    let (mut section, mut added, mut headed) = ("", 0, false);
    for (n, line) in changelog.lines().enumerate().map(|(n, l)| (n + 1, l)) {
        if line.starts_with("## ") || (line.starts_with('[') && line.contains("]: ")) {
            section = line; // a section, or the link definitions at the end
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        if undated && section.starts_with("## [Unreleased]") {
            problems.push(format!(
                "line {n}: [Unreleased] has entries while 0.1.0 is unreleased: move them into \
                 0.1.0's `### Added` list"
            ));
            section = "";
        } else if !section.starts_with(heading) {
        } else if line == "### Added" {
            (headed, added) = (true, added + 1);
            if added > 1 {
                problems.push(format!("line {n}: a second `### Added`: one list"));
            }
        } else if line.starts_with('#') {
            headed = true;
            problems.push(format!(
                "line {n}: `{line}` in {name}: before the first release everything is Added"
            ));
        } else if !headed {
            problems.push(format!(
                "line {n}: text before {name}'s `### Added` list: make it an item"
            ));
        } else if !(line.starts_with("- ") || line.starts_with(' ')) {
            problems.push(format!(
                "line {n}: not a list item in {name}'s `### Added` list"
            ));
        }
    }
    if added == 0 {
        problems.push(format!("{name} has no `### Added` list"));
    }
    problems
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use clap::CommandFactory;

    use super::*;
    use crate::tidy::crates;
    use crate::util::project_root;

    fn read(path: &Path) -> String {
        fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
    }

    #[test]
    fn architecture_names_only_paths_that_exist() {
        let root = project_root();
        let entries = repo_entries();
        assert!(entries.contains("xtask/src/tidy.rs"), "{entries:?}");
        let problems = architecture_problems(&read(&root.join("ARCHITECTURE.md")), &entries);
        assert!(
            problems.is_empty(),
            "ARCHITECTURE.md names paths that do not exist (write them from the root, or from \
             the folder or `src/` of the crate the row or section is about):\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn the_architecture_check_fails_on_a_missing_path() {
        let entries: BTreeSet<String> = [
            "oid-core",
            "oid-core/src",
            "oid-core/src/id.rs",
            "oid-core/src/external",
            "oid-core/src/external/serde_support.rs",
            "oid-core/src/process",
            "oid-core/src/process/block.rs",
            "oid-core/tests",
            "oid-std",
            "oid-std/src",
            "oid-std/src/sys.rs",
            "xtask",
            "xtask/README.md",
            "deny.toml",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect();
        let text = "# Architecture\n\n\
            ```text\n`gone.rs` in a diagram is not read\n```\n\
            | crate | files (under `<crate>/src/`) |\n|---|---|\n\
            | **oid-core** | `id.rs`, `external/<crate>_support.rs`, `tests/`, `process/{block, gone}.rs`, `sys.rs`, `oid_core::Generator`, `/dev/vmclock0`, `target/web/`, `1.5/2` |\n\
            | **oid-std** | `sys.rs`, `id.rs` |\n\n\
            `deny.toml`, `xtask/README.md`, `xtask/tidy.rs`, `https://x.y/z.rs`.\n\n\
            ## oid-std\n\n`sys.rs` and `src/sys.rs`, `lib.rs`.\n";
        assert_eq!(
            architecture_problems(text, &entries),
            [
                "line 8: `process/gone.rs` does not exist (looked under oid-core)",
                "line 8: `sys.rs` does not exist (looked under oid-core)",
                "line 9: `id.rs` does not exist (looked under oid-std)",
                "line 11: `xtask/tidy.rs` does not exist (looked under the root)",
                "line 15: `lib.rs` does not exist (looked under oid-std)",
            ]
        );
        assert!(wildcard("<crate>_support.rs", "serde_support.rs"));
        assert!(!wildcard("<crate>_support.rs", "serde.rs"));
    }

    /// Every subcommand clap knows, with the first line of its help.
    fn xtask_commands() -> Vec<(String, String)> {
        crate::Cli::command()
            .get_subcommands()
            .map(|c| {
                let about = c.get_about().map(ToString::to_string).unwrap_or_default();
                (c.get_name().to_owned(), about)
            })
            .collect()
    }

    #[test]
    fn xtask_readme_lists_every_command() {
        let commands = xtask_commands();
        assert!(commands.len() > 15, "{commands:?}");
        let readme = read(&project_root().join("xtask/README.md"));
        let problems = command_table_problems(&readme, &commands);
        assert!(
            problems.is_empty(),
            "xtask/README.md's command table must list exactly the commands of \
             xtask/src/main.rs:\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn the_command_table_check_fails_on_a_missing_or_unknown_command() {
        let commands = [
            (
                "ci".to_owned(),
                "The whole CI. Prints its steps first".to_owned(),
            ),
            ("fuzz".to_owned(), "Build the fuzz targets.".to_owned()),
            ("web-test".to_owned(), "The page's test".to_owned()),
        ];
        let readme = "# xtask\n\n| command | what it does |\n|---|---|\n\
            | `ci` | everything, `fuzz` too |\n| `fuzz [SECS]`, `launch` | fuzz |\n\n\
            | not the | command table |\n|---|---|\n| `web-test` | no |\n";
        assert_eq!(readme_commands(readme), ["ci", "fuzz", "launch"]);
        assert_eq!(
            command_table_problems(readme, &commands),
            [
                "`web-test` is missing: add the row `| `web-test` | The page's test |` to the table",
                "`launch` is not an xtask command (`cargo xtask --help`): remove it from the table",
            ]
        );
        let twice = "| command | x |\n|---|---|\n| `ci`, `fuzz`, `web-test` | a |\n| `ci` | b |\n";
        assert_eq!(
            command_table_problems(twice, &commands),
            ["`ci` is listed twice"]
        );
    }

    #[test]
    fn published_readmes_are_short() {
        let root = project_root();
        let mut problems = Vec::new();
        for krate in crates() {
            if let Some(lines) = readme_too_long(&read(&root.join(krate).join("README.md"))) {
                problems.push(format!(
                    "{krate}/README.md has {lines} lines, more than {README_MAX_LINES}"
                ));
            }
        }
        assert!(
            problems.is_empty(),
            "a published crate's README is its front page and crate docs: what it is, which \
             type to hold, a first example, features, links; move the rest to docs/:\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn the_readme_length_check_fails_on_a_long_readme() {
        let short = "# x\n".repeat(README_MAX_LINES);
        assert_eq!(readme_too_long(&short), None);
        assert_eq!(readme_too_long(&format!("{short}one more\n")), Some(151));
    }

    #[test]
    fn every_changelog_first_release_is_one_added_list() {
        let root = project_root();
        let mut problems = Vec::new();
        let mut checked = 0;
        for f in repo_files()
            .unwrap()
            .iter()
            .filter(|f| f.ends_with("CHANGELOG.md"))
        {
            checked += 1;
            for p in changelog_problems(&read(&root.join(f))) {
                problems.push(format!("{f}: {p}"));
            }
        }
        assert!(checked >= crates().len(), "found only {checked} changelogs");
        assert!(
            problems.is_empty(),
            "nothing is released yet: each changelog's first release is one `### Added` list of \
             what it has (no Changed/Fixed/Removed, no [Unreleased] entries):\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn the_changelog_check_fails_on_other_headings_or_unreleased_entries() {
        let good = "# Changelog\n\nIntro.\n\n## [Unreleased]\n\n## [0.1.0] - YYYY-MM-DD\n\n\
            ### Added\n- one\n  continued\n\n- two\n\n[Unreleased]: https://x\n[0.1.0]: https://y\n";
        assert_eq!(changelog_problems(good), Vec::<String>::new());
        let unpublished = "# Changelog\n\n## [Unreleased]\n\n### Added\n- one\n";
        assert_eq!(changelog_problems(unpublished), Vec::<String>::new());
        let bad = "# Changelog\n\n## [Unreleased]\n\n### Changed\n- a\n\n\
            ## [0.1.0] - YYYY-MM-DD\n\nThe first release.\n\n### Added\n- one\n\n### Fixed\n- two\n\
            Loose text.\n\n### Added\n- three\n";
        assert_eq!(
            changelog_problems(bad),
            [
                "line 5: [Unreleased] has entries while 0.1.0 is unreleased: move them into \
                 0.1.0's `### Added` list",
                "line 10: text before 0.1.0's `### Added` list: make it an item",
                "line 15: `### Fixed` in 0.1.0: before the first release everything is Added",
                "line 17: not a list item in 0.1.0's `### Added` list",
                "line 19: a second `### Added`: one list",
            ]
        );
        assert_eq!(
            changelog_problems("# Changelog\n\n## [Unreleased]\n\n### Changed\n- a\n"),
            [
                "line 5: `### Changed` in [Unreleased]: before the first release everything is Added",
                "[Unreleased] has no `### Added` list",
            ]
        );
        assert_eq!(
            changelog_problems("# Changelog\n"),
            ["no `## [0.1.0]` or `## [Unreleased]` section"]
        );
    }
}
