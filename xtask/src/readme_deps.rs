//! `cargo xtask readme-deps`: every dependency line of ours in a README builds as written.
//!
//! For each `README.md` of the repository, each line of a ```` ```toml ```` block's
//! `[dependencies]` table (or of a block with no table header) that names one of our crates
//! (`oid-core = …`, also a commented alternative, `# oid-bson = { … }`) becomes a scratch crate
//! under `target/readme-deps/line-<n>/`: that one line (its comment kept) as its
//! `[dependencies]`, our crates patched to this checkout (they are not on crates.io yet), the
//! workspace's `Cargo.lock`, and a `#![no_std]` `lib.rs`. It is built for the host and for each
//! target the line's comment names (`thumbv6m`, `thumbv7em`, `riscv32imc`), with the
//! workspace's target folder so nothing already built is built again.

use xshell::{Shell, cmd};

use crate::util::{Result, all_passed, cargo_target_dir, ensure_targets, project_root, repo_files};

/// Our published crates: the lines that name one are built.
const CRATES: &[&str] = &["oid-core", "oid-std", "oid-bson", "oid-embedded"];

/// A target named in a line's comment by its short name, and its triple.
const TARGETS: [(&str, &str); 3] = [
    ("thumbv6m", "thumbv6m-none-eabi"),
    ("thumbv7em", "thumbv7em-none-eabihf"),
    ("riscv32imc", "riscv32imc-unknown-none-elf"),
];

/// Builds every line, for the host and the targets it names.
pub(crate) fn check(sh: &Shell) -> Result {
    let root = project_root();
    ensure_targets(sh, &TARGETS.map(|(_, triple)| triple))?;
    // The workspace's target folder for the scratch crates' builds too.
    let _target_dir = sh.push_env("CARGO_TARGET_DIR", cargo_target_dir());
    let mut lines = Vec::new();
    for readme in repo_files()?.into_iter().filter(|f| is_readme(f)) {
        let text = std::fs::read_to_string(root.join(&readme))?;
        for (line, targets) in dependency_lines(&text) {
            lines.push((readme.clone(), line, targets));
        }
    }
    let patches: String = CRATES
        .iter()
        .map(|c| format!("{c} = {{ path = \"{}\" }}\n", root.join(c).display()))
        .collect();
    let mut failed = Vec::new();
    for (n, (readme, dependency, targets)) in lines.iter().enumerate() {
        // A scratch crate: the line as its `[dependencies]`, our crates patched to this checkout
        // (they are not on crates.io yet), the workspace's `Cargo.lock`, a `#![no_std]` lib.rs.
        let dir = cargo_target_dir().join(format!("readme-deps/line-{n}"));
        std::fs::create_dir_all(dir.join("src"))?;
        let package = "[package]\nname = \"readme-line\"\nversion = \"0.0.0\"\nedition = \"2024\"";
        let manifest = dir.join("Cargo.toml");
        let toml = format!(
            "{package}\n[dependencies]\n{dependency}\n[patch.crates-io]\n{patches}[workspace]\n"
        );
        std::fs::write(&manifest, toml)?;
        std::fs::write(dir.join("src/lib.rs"), "#![no_std]\n")?;
        std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))?;
        for target in [None].into_iter().chain(targets.iter().map(Some)) {
            let shown = format!("{readme}: `{dependency}` on {}", target.unwrap_or(&"host"));
            eprintln!("{shown}");
            let args = target.into_iter().flat_map(|&t| ["--target", t]);
            let build = cmd!(sh, "cargo build --manifest-path {manifest} {args...}");
            if build.run().is_err() {
                failed.push(shown);
            }
        }
    }
    let (all, bad) = (lines.len(), failed.len());
    eprintln!("{all} README dependency lines, {bad} failed");
    if lines.is_empty() {
        return Err("no README dependency line found".into());
    }
    all_passed(&failed).map_err(|e| format!("these do not build as written: {e}").into())
}

/// Whether `path`, a repository file, is a README (the root's, each crate's and the others').
fn is_readme(path: &str) -> bool {
    path.rsplit('/').next() == Some("README.md")
}

/// The dependency lines of ours in `text`, a README: each line of a ```` ```toml ```` block's
/// `[dependencies]` table (or of a block with no table header) that names one of our crates,
/// also a commented alternative (`# oid-bson = { … }`) without the `# `, with the targets its
/// comment names (triples; the host is always built). The line keeps its comment (TOML's).
fn dependency_lines(text: &str) -> Vec<(String, Vec<&'static str>)> {
    let (mut out, mut in_toml, mut in_dependencies) = (Vec::new(), false, false);
    for line in text.lines().map(str::trim) {
        if line.starts_with("```") {
            // A block of lines without a table header is lines for `[dependencies]`.
            in_toml = !in_toml && line == "```toml";
            in_dependencies = in_toml;
        } else if in_toml && line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
        } else if in_dependencies {
            let line = line.strip_prefix('#').map_or(line, str::trim_start);
            let name = line.split_once('=').map(|(name, _)| name.trim());
            if name.is_some_and(|n| CRATES.contains(&n)) {
                let targets = TARGETS.iter().filter(|(short, _)| line.contains(short));
                out.push((line.to_owned(), targets.map(|(_, t)| *t).collect()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_our_lines_their_alternatives_and_the_targets_they_name() {
        let text = "\
text\n\
```toml\n\
[dependencies]\n\
oid-std = \"0.1\"   # std\n\
# oid-bson = { version = \"0.1\", features = [\"bson-3\"] }  # the driver's bson-3\n\
mongodb = \"3\"\n\
oid-core = { version = \"0.1\", default-features = false }  # no_std: thumbv6m, riscv32imc\n\
\n\
[dev-dependencies]\n\
oid-core = \"0.1\"\n\
```\n\
```rust\n\
oid-core = 1\n\
```\n\
```toml\n\
oid-std = { version = \"0.1\", features = [\"jiff\"] }\n\
```\n";
        let lines = dependency_lines(text);
        let got: Vec<(&str, Vec<&str>)> =
            lines.iter().map(|(d, t)| (d.as_str(), t.clone())).collect();
        assert_eq!(
            got,
            [
                ("oid-std = \"0.1\"   # std", vec![]),
                (
                    "oid-bson = { version = \"0.1\", features = [\"bson-3\"] }  # the driver's bson-3",
                    vec![]
                ),
                (
                    "oid-core = { version = \"0.1\", default-features = false }  # no_std: thumbv6m, riscv32imc",
                    vec!["thumbv6m-none-eabi", "riscv32imc-unknown-none-elf"]
                ),
                (
                    "oid-std = { version = \"0.1\", features = [\"jiff\"] }",
                    vec![]
                ),
            ]
        );
    }

    #[test]
    fn the_readmes_have_lines_and_the_root_names_its_no_std_targets() {
        let read = |path: &str| std::fs::read_to_string(project_root().join(path)).unwrap();
        let readmes: Vec<String> = repo_files()
            .unwrap()
            .into_iter()
            .filter(|f| is_readme(f))
            .collect();
        for readme in [
            "README.md",
            "oid-core/README.md",
            "oid-embedded/firmware/README.md",
        ] {
            assert!(
                readmes.iter().any(|r| r == readme),
                "{readme} not in {readmes:?}"
            );
        }
        assert!(
            !readmes
                .iter()
                .any(|r| !r.ends_with("/README.md") && r != "README.md")
        );
        let all: usize = readmes
            .iter()
            .map(|r| dependency_lines(&read(r)).len())
            .sum();
        let lines = dependency_lines(&read("README.md"));
        assert!(all >= 8, "{all} + {lines:?}");
        let no_std = lines
            .iter()
            .find(|(d, _)| d.contains("default-features = false }"));
        assert_eq!(
            no_std.map(|(_, t)| t.clone()),
            Some(vec!["thumbv6m-none-eabi", "thumbv7em-none-eabihf"]),
            "{lines:?}"
        );
    }
}
