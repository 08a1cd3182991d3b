//! `cargo xtask readme-deps`: every dependency line of ours in a README builds as written.
//!
//! For each `README.md` (the root's and each crate's), each line of a ```` ```toml ```` block's
//! `[dependencies]` table (or of a block with no table header) that names one of our crates (`oid-core = …`, also a commented
//! alternative, `# oid-bson = { … }`) becomes a scratch crate under
//! `target/readme-deps/<n>/`: that one line as its `[dependencies]`, our crates patched to this
//! checkout (they are not on crates.io yet), the workspace's `Cargo.lock`, and a `#![no_std]`
//! `lib.rs`. It is built for the host and for each target the line's comment names
//! (`thumbv6m`, `thumbv7em`, `riscv32imc`), with the workspace's target folder so nothing already
//! built is built again.

use std::path::{Path, PathBuf};

use xshell::{Shell, cmd};

use crate::util::{Result, cargo_target_dir, ensure_targets, project_root, run};

/// Our published crates: the lines that name one are built.
const CRATES: &[&str] = &["oid-core", "oid-std", "oid-bson", "oid-embedded"];

/// A target named in a line's comment by its short name, and its triple.
const TARGETS: &[(&str, &str)] = &[
    ("thumbv6m", "thumbv6m-none-eabi"),
    ("thumbv7em", "thumbv7em-none-eabihf"),
    ("riscv32imc", "riscv32imc-unknown-none-elf"),
];

/// One dependency line of a README.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// The README it is in, relative to the project root.
    pub(crate) readme: String,
    /// The line as written, without a leading `# ` (a commented alternative) and without its
    /// comment.
    pub(crate) dependency: String,
    /// The targets its comment names (triples); the host is always built.
    pub(crate) targets: Vec<&'static str>,
}

/// Builds every line, for the host and the targets it names.
pub(crate) fn check(sh: &Shell) -> Result {
    let root = project_root();
    let lines = all_lines(&root)?;
    if lines.is_empty() {
        return Err("no README dependency line found".into());
    }
    let scratch = cargo_target_dir().join("readme-deps");
    let mut failed = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let dir = scratch.join(format!("line-{n}"));
        write_crate(&root, &dir, &line.dependency)?;
        let manifest = dir.join("Cargo.toml");
        let mut targets = vec![None];
        targets.extend(line.targets.iter().map(|t| Some(*t)));
        for target in targets {
            let shown = target.unwrap_or("host");
            eprintln!("{}: `{}` on {shown}", line.readme, line.dependency);
            let args: Vec<String> = match target {
                Some(t) => {
                    ensure_targets(sh, &[t])?;
                    vec!["--target".into(), t.into()]
                }
                None => Vec::new(),
            };
            let built = run(cmd!(sh, "cargo build --manifest-path {manifest} {args...}")
                .env("CARGO_TARGET_DIR", cargo_target_dir()));
            if built.is_err() {
                failed.push(format!("{}: `{}` on {shown}", line.readme, line.dependency));
            }
        }
    }
    eprintln!(
        "{} README dependency lines, {} failed",
        lines.len(),
        failed.len()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("these do not build as written:\n{}", failed.join("\n")).into())
    }
}

/// The scratch crate for one dependency line.
fn write_crate(root: &Path, dir: &Path, dependency: &str) -> Result {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    let mut manifest = format!(
        "[package]\nname = \"readme-line\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\n{dependency}\n\n[patch.crates-io]\n"
    );
    for name in CRATES {
        manifest.push_str(&format!(
            "{name} = {{ path = \"{}\" }}\n",
            root.join(name).display()
        ));
    }
    manifest.push_str("\n[workspace]\n");
    let write = |path: PathBuf, text: &[u8]| {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    write(dir.join("Cargo.toml"), manifest.as_bytes())?;
    write(src.join("lib.rs"), b"#![no_std]\n")?;
    let lock = std::fs::read(root.join("Cargo.lock"))?;
    write(dir.join("Cargo.lock"), &lock)?;
    Ok(())
}

/// Every dependency line of ours in the project's READMEs.
fn all_lines(root: &Path) -> Result<Vec<Line>> {
    let mut readmes = vec![PathBuf::from("README.md")];
    for name in CRATES.iter().chain(&["oid-cli", "oid-web"]) {
        readmes.push(Path::new(name).join("README.md"));
    }
    let mut lines = Vec::new();
    for readme in readmes {
        let text = std::fs::read_to_string(root.join(&readme))
            .map_err(|e| format!("{}: {e}", readme.display()))?;
        lines.extend(dependency_lines(&readme.display().to_string(), &text));
    }
    Ok(lines)
}

/// The dependency lines of ours in `text`, a README.
pub(crate) fn dependency_lines(readme: &str, text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut in_toml = false;
    let mut in_dependencies = false;
    for raw in text.lines() {
        let trimmed = raw.trim();
        if trimmed.starts_with("```") {
            in_toml = !in_toml && trimmed == "```toml";
            // A block of lines without a table header is lines for `[dependencies]`.
            in_dependencies = in_toml;
            continue;
        }
        if !in_toml {
            continue;
        }
        if trimmed.starts_with('[') {
            in_dependencies = trimmed == "[dependencies]";
            continue;
        }
        if !in_dependencies {
            continue;
        }
        let line = trimmed.strip_prefix('#').map_or(trimmed, str::trim_start);
        let Some((name, _)) = line.split_once('=') else {
            continue;
        };
        if !CRATES.contains(&name.trim()) {
            continue;
        }
        // The comment starts at the first `#` outside a string.
        let mut quoted = false;
        let cut = line
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    quoted = !quoted;
                }
                c == '#' && !quoted
            })
            .map_or(line.len(), |(i, _)| i);
        let (dependency, comment) = line.split_at(cut);
        let targets = TARGETS
            .iter()
            .filter(|(short, _)| comment.contains(short))
            .map(|(_, triple)| *triple)
            .collect();
        out.push(Line {
            readme: readme.to_owned(),
            dependency: dependency.trim().to_owned(),
            targets,
        });
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
        let lines = dependency_lines("R.md", text);
        let got: Vec<(&str, Vec<&str>)> = lines
            .iter()
            .map(|l| (l.dependency.as_str(), l.targets.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("oid-std = \"0.1\"", vec![]),
                (
                    "oid-bson = { version = \"0.1\", features = [\"bson-3\"] }",
                    vec![]
                ),
                (
                    "oid-core = { version = \"0.1\", default-features = false }",
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
        let lines = all_lines(&project_root()).unwrap_or_default();
        assert!(lines.len() >= 8, "{lines:?}");
        let no_std = lines
            .iter()
            .find(|l| {
                l.readme == "README.md" && l.dependency.contains("default-features = false }")
            })
            .map(|l| l.targets.clone());
        assert_eq!(
            no_std,
            Some(vec!["thumbv6m-none-eabi", "thumbv7em-none-eabihf"]),
            "{lines:?}"
        );
    }
}
