//! Plumbing shared by every command: the error type, the step runner, paths, rustup targets and
//! running a command. This module depends on no other module of the xtask.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use walkdir::WalkDir;
use xshell::{Cmd, Shell, cmd};

/// The result of a step or a command: any error, so that `?` works on I/O, xshell and string
/// errors alike.
pub(crate) type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Runs steps, keeps going after a failure, and reports all of them.
#[derive(Default)]
pub(crate) struct Runner {
    /// Only list the steps, numbered (and keep their [`Runner::names`]): nothing runs.
    pub(crate) dry: bool,
    /// Run only the steps of this command (see [`Runner::cmd`]); `None`: every step.
    pub(crate) only: Option<String>,
    /// The command the next step belongs to (besides `ci`).
    pub(crate) next: Option<&'static str>,
    /// The folder under the target folder that the next step alone uses (see [`Runner::frees`]).
    pub(crate) frees: Option<&'static str>,
    /// The names of the steps seen so far, in order.
    pub(crate) names: Vec<String>,
    /// Each step run: its summary line, its seconds, and whether it passed.
    pub(crate) done: Vec<(String, f64, bool)>,
}

impl Runner {
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

    /// Runs one step with a shell of its own in the project root, timing it; a failure is
    /// recorded and the next step still runs.
    pub(crate) fn step(&mut self, name: &str, f: impl FnOnce(&Shell) -> Result) {
        let (command, frees) = (self.next.take(), self.frees.take());
        if self.only.is_some() && self.only.as_deref() != command {
            return;
        }
        self.names.push(name.to_owned());
        if self.dry {
            eprintln!("  {:>3}. {name}", self.names.len());
            return;
        }
        eprintln!("\n==> {name}");
        let start = Instant::now();
        let outcome = Shell::new().map_err(Into::into).and_then(|sh| {
            sh.change_dir(project_root());
            f(&sh)
        });
        let secs = start.elapsed().as_secs_f64();
        let used = disk_gib("du", "-sk", 0);
        if let (Some(dir), None) = (frees, &self.only) {
            let removed = std::fs::remove_dir_all(cargo_target_dir().join(dir));
            removed.unwrap_or_else(|e| eprintln!("xtask: could not remove target/{dir}: {e}"));
        }
        let free = disk_gib("df", "-Pk", 3);
        let disk = format!("target {used:.1} GiB, {free:.1} GiB free");
        let ok = outcome.is_ok();
        let error = outcome.err().map(|e| format!(": {e}")).unwrap_or_default();
        let status = if ok { "ok" } else { "FAILED" };
        eprintln!("<== {name}: {status} ({secs:.1}s; {disk}){error}");
        self.done
            .push((format!("{name} ({disk}){error}"), secs, ok));
    }

    /// Prints every step with its time (the passed ones first), and fails if any step failed.
    pub(crate) fn finish(mut self) -> Result {
        eprintln!("\n==> summary");
        self.done.sort_by_key(|(.., ok)| !ok);
        for (line, secs, ok) in &self.done {
            let status = if *ok { "ok    " } else { "FAILED" };
            eprintln!("  {status}  {secs:>7.1}s  {line}");
        }
        let failed = self.done.iter().filter(|d| !d.2).count();
        let total: f64 = self.done.iter().map(|d| d.1).sum();
        let passed = self.done.len() - failed;
        println!("xtask: {passed} passed, {failed} failed, {total:.0} s");
        match failed {
            0 => Ok(()),
            n => Err(format!("{n} step(s) failed").into()),
        }
    }
}

/// The target folder's size (`du -sk`, column 0) or its file system's free space (`df -Pk`,
/// column 3) in GiB, read from the last line; 0 when the tool fails (the figure is only printed).
fn disk_gib(program: &str, flag: &str, column: usize) -> f64 {
    let dir = cargo_target_dir();
    let out = Command::new(program).arg(flag).arg(dir).output();
    let text = String::from_utf8(out.map(|o| o.stdout).unwrap_or_default());
    let last = text.unwrap_or_default().lines().last().map(str::to_owned);
    let kib = last.and_then(|l| l.split_whitespace().nth(column)?.parse().ok());
    kib.map_or(0.0, |k: f64| k / 1024.0 / 1024.0)
}

/// The workspace root (the parent of `xtask/`).
pub(crate) fn project_root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    dir.parent().unwrap_or(dir).to_path_buf()
}

/// Where cargo puts build output: `CARGO_TARGET_DIR` (relative to the project root when
/// relative) or `target/` under the root.
pub(crate) fn cargo_target_dir() -> PathBuf {
    let dir = std::env::var_os("CARGO_TARGET_DIR").map_or("target".into(), PathBuf::from);
    project_root().join(dir)
}

/// Adds the rustup targets to the project's toolchain (`RUSTUP_AUTO_INSTALL=0` means a
/// toolchain file alone installs nothing); offline and quick for the installed ones.
pub(crate) fn ensure_targets<T: AsRef<std::ffi::OsStr>>(sh: &Shell, targets: &[T]) -> Result {
    run(cmd!(sh, "rustup target add {targets...}").quiet())
}

/// Every file under `dir` whose name ends in `.{extension}`.
pub(crate) fn files_under(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let wanted = |p: &PathBuf| p.extension() == Some(extension.as_ref());
    let files = WalkDir::new(dir).into_iter().flatten();
    files.map(|e| e.into_path()).filter(wanted).collect()
}

/// The repository's files, `/`-separated and relative to its root: tracked, or new and not
/// ignored (the working tree as `git status` sees it, without build output or npm packages).
pub(crate) fn repo_files() -> Result<Vec<String>> {
    let (root, sh) = (project_root(), Shell::new()?);
    sh.change_dir(&root);
    let list = cmd!(sh, "git ls-files -z --cached --others --exclude-standard");
    let list = list.quiet().read()?;
    // A tracked file deleted in the working tree, or a submodule: not a file of the tree.
    let files = list.split('\0').filter(|f| root.join(f).is_file());
    Ok(files.map(str::to_owned).collect())
}

/// Runs a command.
pub(crate) fn run(c: Cmd<'_>) -> Result {
    Ok(c.run()?)
}

/// `cargo ARGS`, the arguments split at spaces.
pub(crate) fn cargo<'a>(sh: &'a Shell, args: &str) -> Cmd<'a> {
    sh.cmd("cargo").args(args.split_whitespace())
}

/// Fails with the `failures` joined, if there are any.
pub(crate) fn all_passed(failures: &[String]) -> Result {
    match failures {
        [] => Ok(()),
        _ => Err(failures.join("; ").into()),
    }
}

/// Prints the last `n` lines of `text`, indented (the end of a failed tool's log).
pub(crate) fn print_tail(text: &str, n: usize) {
    let skip = text.lines().count().saturating_sub(n);
    text.lines().skip(skip).for_each(|l| eprintln!("    {l}"));
}

/// The features a manifest declares (its `[features]` table, without `default`).
pub(crate) fn declared_features(manifest: &str) -> Vec<String> {
    let table: toml::Table = manifest.parse().unwrap_or_default();
    let Some(toml::Value::Table(features)) = table.get("features") else {
        return Vec::new();
    };
    let names = features.keys().filter(|f| *f != "default");
    names.cloned().collect()
}

/// The value at `path` (`"workspace.package.version"`) of the project's TOML file `file`.
pub(crate) fn toml_value(file: &str, path: &str) -> Result<toml::Value> {
    let text = std::fs::read_to_string(project_root().join(file))?;
    let table = toml::Value::Table(text.parse().map_err(|e| format!("{file}: {e}"))?);
    let value = path.split('.').try_fold(&table, |v, key| v.get(key));
    Ok(value.ok_or(format!("no `{path}` in {file}"))?.clone())
}

/// The string at `path` of the project's TOML file `file` (see [`toml_value`]).
pub(crate) fn toml_str(file: &str, path: &str) -> Result<String> {
    let value = toml_value(file, path)?;
    let text = value
        .as_str()
        .ok_or(format!("`{path}` in {file} is not a string"))?;
    Ok(text.to_owned())
}

/// The workspace's `rust-version` (the MSRV), read from the root `Cargo.toml`.
pub(crate) fn rust_version() -> Result<String> {
    toml_str("Cargo.toml", "workspace.package.rust-version")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_values_and_project_files_are_read() {
        assert!(rust_version().is_ok_and(|v| v.starts_with("1.")));
        let targets = toml_value("rust-toolchain.toml", "toolchain.targets").unwrap();
        assert!(
            targets
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t.as_str() == Some("thumbv6m-none-eabi"))
        );
        assert!(toml_value("Cargo.toml", "workspace.package.versions").is_err());
        assert!(toml_str("Cargo.toml", "workspace.members").is_err());
        let manifest = "[package]\nname = \"x\"\n[features]\ndefault = [\"std\"]\nstd = []\nserde = [\"dep:serde\"]\n";
        assert_eq!(declared_features(manifest), ["std", "serde"]);
        assert!(all_passed(&[]).is_ok());
        let failed = all_passed(&["a".to_owned(), "b".to_owned()]);
        assert_eq!(failed.err().map(|e| e.to_string()).as_deref(), Some("a; b"));
    }

    #[test]
    fn files_under_walks_folders_and_picks_one_extension() {
        let src = project_root().join("xtask/src");
        let found = files_under(&src, "rs");
        assert!(found.contains(&src.join("main.rs")), "{found:?}");
        assert!(found.contains(&src.join("firmware/elf.rs")), "{found:?}");
        assert!(
            found
                .iter()
                .all(|f| f.extension().is_some_and(|e| e == "rs"))
        );
        assert!(files_under(&src, "html").is_empty());
        assert!(files_under(&src.join("nonexistent"), "rs").is_empty());
        let files = repo_files().unwrap();
        assert!(files.iter().any(|f| f == "xtask/src/util.rs"), "{files:?}");
        assert!(!files.iter().any(|f| f.starts_with("target/")));
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
