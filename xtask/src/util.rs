//! Plumbing shared by every command: the error type, the step runner, paths, rustup targets and
//! running a command. This module depends on no other module of the xtask.

use std::path::{Path, PathBuf};
use std::time::Instant;

use xshell::Shell;

/// Any error, so that `?` works on I/O, xshell and string errors alike.
pub(crate) type Error = Box<dyn std::error::Error>;

/// The result of a step or a command.
pub(crate) type Result<T = ()> = std::result::Result<T, Error>;

/// Runs steps, keeps going after a failure, and reports all of them.
pub(crate) struct Runner {
    sh: Shell,
    /// Only list the steps (`Runner::plan`): nothing runs.
    dry: bool,
    /// Run only the steps of this command (see [`Runner::cmd`]); `None`: every step.
    pub(crate) only: Option<String>,
    /// The command the next step belongs to (besides `ci`).
    next: Option<&'static str>,
    /// The folder under the target folder that the next step alone uses (see [`Runner::frees`]).
    frees: Option<&'static str>,
    /// The names of the steps seen so far, in order.
    names: Vec<String>,
    /// Name, seconds and the disk after the step.
    passed: Vec<(String, f64, String)>,
    /// Name, seconds, the disk after the step and the error.
    failed: Vec<(String, f64, String, String)>,
}

impl Runner {
    /// A runner whose shell starts in the project root.
    pub(crate) fn new() -> Result<Runner> {
        let sh = Shell::new()?;
        sh.change_dir(project_root());
        Ok(Runner {
            sh,
            dry: false,
            only: None,
            next: None,
            frees: None,
            names: Vec::new(),
            passed: Vec::new(),
            failed: Vec::new(),
        })
    }

    /// A runner that only records the names of the steps given to it (see [`Runner::names`]).
    pub(crate) fn plan() -> Result<Runner> {
        Ok(Runner {
            dry: true,
            ..Runner::new()?
        })
    }

    /// The names of the steps given so far, in order.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// Makes the next step also the command `name`'s (`cargo xtask <name>` runs it alone).
    pub(crate) const fn cmd(&mut self, name: &'static str) -> &mut Runner {
        self.next = Some(name);
        self
    }

    /// Says that the next step builds in `target/<dir>` and no later step reads it: the whole
    /// run (`cargo xtask ci`) removes the folder after the step, so that the run's peak disk use
    /// is the largest step's, not the sum of them all (a fresh CI machine's disk filled at 409 s).
    /// `cargo xtask <command>` alone keeps it for the next run.
    pub(crate) const fn frees(&mut self, dir: &'static str) -> &mut Runner {
        self.frees = Some(dir);
        self
    }

    /// Runs one step, timing it; a failure is recorded and the next step still runs.
    pub(crate) fn step(&mut self, name: &str, f: impl FnOnce(&Shell) -> Result) {
        let command = self.next.take();
        let frees = self.frees.take();
        if self.only.is_some() && self.only.as_deref() != command {
            return;
        }
        self.names.push(name.to_owned());
        if self.dry {
            return;
        }
        eprintln!("\n==> {name}");
        let start = Instant::now();
        let outcome = f(&self.sh);
        let secs = start.elapsed().as_secs_f64();
        let used = target_size_gib();
        if let (Some(dir), None) = (frees, &self.only) {
            let dir = cargo_target_dir().join(dir);
            if let Err(e) = std::fs::remove_dir_all(&dir) {
                eprintln!("xtask: could not remove {}: {e}", dir.display());
            }
        }
        let free = free_gib(&cargo_target_dir());
        let disk = format!("target {used:.1} GiB, {free:.1} GiB free");
        match outcome {
            Ok(()) => {
                eprintln!("<== {name}: ok ({secs:.1}s; {disk})");
                self.passed.push((name.to_owned(), secs, disk));
            }
            Err(e) => {
                eprintln!("<== {name}: FAILED ({secs:.1}s; {disk}): {e}");
                self.failed
                    .push((name.to_owned(), secs, disk, e.to_string()));
            }
        }
    }

    /// Prints every step with its time, and fails if any step failed.
    pub(crate) fn finish(self) -> Result {
        eprintln!("\n==> summary");
        let mut total = 0.0;
        for (name, secs, disk) in &self.passed {
            total += secs;
            eprintln!("  ok      {secs:>7.1}s  {name} ({disk})");
        }
        for (name, secs, disk, e) in &self.failed {
            total += secs;
            eprintln!("  FAILED  {secs:>7.1}s  {name} ({disk}): {e}");
        }
        println!(
            "xtask: {} passed, {} failed, {total:.0} s",
            self.passed.len(),
            self.failed.len()
        );
        if self.failed.is_empty() {
            Ok(())
        } else {
            Err(format!("{} step(s) failed", self.failed.len()).into())
        }
    }
}

/// The size of the target folder in GiB, as `du` counts it (0 when `du` fails: the figure is
/// only printed).
fn target_size_gib() -> f64 {
    df_like("du", &["-sk"], &cargo_target_dir(), 0)
}

/// The space left on the file system that holds `path`, in GiB (0 when `df` fails).
fn free_gib(path: &Path) -> f64 {
    df_like("df", &["-Pk"], path, 3)
}

/// Runs `du`/`df` on `path` and reads the kibibytes in column `column` of its last line.
fn df_like(program: &str, args: &[&str], path: &Path, column: usize) -> f64 {
    let out = std::process::Command::new(program)
        .args(args)
        .arg(path)
        .output();
    let Ok(out) = out else { return 0.0 };
    let text = String::from_utf8_lossy(&out.stdout);
    let kib = text
        .lines()
        .last()
        .and_then(|l| l.split_whitespace().nth(column))
        .and_then(|k| k.parse::<f64>().ok());
    kib.map_or(0.0, |k| k / 1024.0 / 1024.0)
}

/// The workspace root (the parent of `xtask/`).
pub(crate) fn project_root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    dir.parent().unwrap_or(dir).to_path_buf()
}

/// Where cargo puts build output: `CARGO_TARGET_DIR` (relative to the project root when
/// relative) or `target/` under the root.
pub(crate) fn cargo_target_dir() -> PathBuf {
    let root = project_root();
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) if Path::new(&d).is_relative() => root.join(d),
        Some(d) => PathBuf::from(d),
        None => root.join("target"),
    }
}

/// Adds the rustup targets that are missing from the project's toolchain
/// (`RUSTUP_AUTO_INSTALL=0` means a toolchain file alone installs nothing).
pub(crate) fn ensure_targets(sh: &Shell, targets: &[&str]) -> Result {
    ensure_targets_of(sh, None, targets)
}

/// Adds the rustup targets missing from `toolchain` (the project's one when `None`).
pub(crate) fn ensure_targets_of(sh: &Shell, toolchain: Option<&str>, targets: &[&str]) -> Result {
    let tc: Vec<&str> = toolchain
        .into_iter()
        .flat_map(|t| ["--toolchain", t])
        .collect();
    let tc = tc.as_slice();
    let installed = xshell::cmd!(sh, "rustup target list --installed {tc...}").read()?;
    let missing = missing_lines(&installed, targets);
    if !missing.is_empty() {
        xshell::cmd!(sh, "rustup target add {tc...} {missing...}").run()?;
    }
    Ok(())
}

/// The entries of `wanted` that are not a line of `listed`.
pub(crate) fn missing_lines<'a>(listed: &str, wanted: &[&'a str]) -> Vec<&'a str> {
    wanted
        .iter()
        .copied()
        .filter(|w| !listed.lines().any(|l| l.trim() == *w))
        .collect()
}

/// Every file under `dir` whose name ends in `.{extension}`.
pub(crate) fn files_under(dir: &Path, extension: &str) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect()
}

/// The repository's files, `/`-separated and relative to its root: tracked, or new and not
/// ignored (the working tree as `git status` sees it, without build output or npm packages).
pub(crate) fn repo_files() -> Result<Vec<String>> {
    let root = project_root();
    let out = std::process::Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(&root)
        .output()?;
    if !out.status.success() {
        return Err(format!("git ls-files in {}: {}", root.display(), out.status).into());
    }
    let list = String::from_utf8_lossy(&out.stdout);
    // A tracked file deleted in the working tree, or a submodule: not a file of the tree.
    Ok(list
        .split('\0')
        .filter(|f| !f.is_empty() && root.join(f).is_file())
        .map(str::to_owned)
        .collect())
}

/// Runs a command.
pub(crate) fn run(c: xshell::Cmd<'_>) -> Result {
    c.run()?;
    Ok(())
}

/// Whether a command runs and exits 0 (output hidden): the "is it installed" probe.
pub(crate) fn works(c: xshell::Cmd<'_>) -> bool {
    c.quiet().ignore_stdout().ignore_stderr().run().is_ok()
}

/// The features a manifest declares (its `[features]` table, without `default`).
pub(crate) fn declared_features(manifest: &str) -> Vec<String> {
    let table: toml::Table = manifest.parse().unwrap_or_default();
    let features = table.get("features").and_then(toml::Value::as_table);
    features
        .into_iter()
        .flat_map(|f| f.keys())
        .filter(|f| *f != "default")
        .cloned()
        .collect()
}

/// The value at `path` (`"workspace.package.version"`) of the project's TOML file `file`.
pub(crate) fn toml_value(file: &str, path: &str) -> Result<toml::Value> {
    let text = std::fs::read_to_string(project_root().join(file))?;
    let mut value = toml::Value::Table(text.parse().map_err(|e| format!("{file}: {e}"))?);
    for key in path.split('.') {
        value = value
            .get(key)
            .cloned()
            .ok_or(format!("no `{path}` in {file}"))?;
    }
    Ok(value)
}

/// The workspace's `rust-version` (the MSRV), read from the root `Cargo.toml`.
pub(crate) fn rust_version() -> Result<String> {
    let v = toml_value("Cargo.toml", "workspace.package.rust-version")?;
    Ok(v.as_str().ok_or("rust-version is not a string")?.to_owned())
}

/// The targets listed in `rust-toolchain.toml` (`targets = [...]`).
pub(crate) fn toolchain_targets() -> Result<Vec<String>> {
    let targets = toml_value("rust-toolchain.toml", "toolchain.targets")?;
    let targets = targets.as_array().into_iter().flatten();
    Ok(targets
        .filter_map(|t| Some(t.as_str()?.to_owned()))
        .collect())
}

/// Whether this process runs as root (apt needs it).
pub(crate) fn is_root(sh: &Shell) -> bool {
    xshell::cmd!(sh, "id -u")
        .quiet()
        .read()
        .is_ok_and(|uid| uid.trim() == "0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_lines_are_the_ones_not_listed() {
        let listed = "thumbv6m-none-eabi\nx86_64-unknown-linux-gnu\n";
        assert_eq!(
            missing_lines(listed, &["thumbv6m-none-eabi", "wasm32-unknown-unknown"]),
            ["wasm32-unknown-unknown"]
        );
        assert!(missing_lines(listed, &["thumbv6m-none-eabi"]).is_empty());
    }

    #[test]
    fn toml_values_and_project_files_are_read() {
        assert!(rust_version().is_ok_and(|v| v.starts_with("1.")));
        assert!(toolchain_targets().is_ok_and(|t| t.iter().any(|t| t == "thumbv6m-none-eabi")));
        assert!(toml_value("Cargo.toml", "workspace.package.versions").is_err());
        let manifest = "[package]\nname = \"x\"\n[features]\ndefault = [\"std\"]\nstd = []\nserde = [\"dep:serde\"]\n";
        assert_eq!(declared_features(manifest), ["std", "serde"]);
    }

    #[test]
    fn files_under_walks_folders_and_picks_one_extension() {
        let src = project_root().join("xtask/src");
        let found = files_under(&src, "rs");
        assert!(found.contains(&src.join("main.rs")), "{found:?}");
        assert!(found.contains(&src.join("tidy/docs.rs")), "{found:?}");
        assert!(
            found
                .iter()
                .all(|f| f.extension().is_some_and(|e| e == "rs"))
        );
        assert!(files_under(&src, "html").is_empty());
        assert!(files_under(&src.join("nonexistent"), "rs").is_empty());
    }

    #[test]
    fn errors_from_strings_and_io_convert_with_question_mark() {
        fn io() -> Result {
            std::fs::read("/nonexistent/oid-xtask")?;
            Ok(())
        }
        fn text() -> Result {
            Err("plain text".into())
        }
        assert!(io().is_err());
        assert_eq!(
            text().err().map(|e| e.to_string()).as_deref(),
            Some("plain text")
        );
    }
}
