//! QEMU for the firmware runs: finding or provisioning `qemu-system-arm` and
//! `qemu-system-riscv32`, and running a firmware image with a timeout.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use xshell::{Shell, cmd};

use crate::ci::{Result, project_root};

/// Which QEMU binary runs a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Emulator {
    /// `qemu-system-arm` (Debian's `qemu-system-arm`).
    Arm,
    /// `qemu-system-riscv32` (Debian's `qemu-system-misc`).
    Riscv32,
}

/// A firmware run that takes longer than this has hung (a lost interrupt, a trap with no
/// handler): it is killed and fails. Normal runs take well under a second.
pub(super) const RUN_TIMEOUT: Duration = Duration::from_secs(30);
const PROVISION_SCRIPT: &str = ".ci/provision.d/10-qemu.sh";

/// A QEMU binary, with the folders of the shared libraries it was unpacked with (if any).
pub(super) struct Qemu {
    bin: PathBuf,
    lib_path: Option<std::ffi::OsString>,
}

impl Qemu {
    fn command(&self) -> Command {
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
}

/// A working QEMU for `emulator`.
pub(super) fn qemu(sh: &Shell, emulator: Emulator) -> Result<Qemu> {
    match emulator {
        Emulator::Arm => qemu_arm(sh),
        Emulator::Riscv32 => qemu_riscv32(sh),
    }
}

/// A working `qemu-system-arm`: the one unpacked in `target/qemu`, else one on `PATH`, else
/// the one the provisioning script installs.
fn qemu_arm(sh: &Shell) -> Result<Qemu> {
    let local = Qemu {
        bin: project_root().join("target/qemu/qemu/usr/bin/qemu-system-arm"),
        lib_path: None,
    };
    if local.works() {
        return Ok(local);
    }
    let on_path = Qemu {
        bin: PathBuf::from("qemu-system-arm"),
        lib_path: None,
    };
    if on_path.works() {
        return Ok(on_path);
    }
    eprintln!("qemu-system-arm not found: running {PROVISION_SCRIPT}");
    let script = project_root().join(PROVISION_SCRIPT);
    cmd!(sh, "bash {script}")
        .run()
        .map_err(|e| format!("{PROVISION_SCRIPT} failed: {e}"))?;
    [local, on_path]
        .into_iter()
        .find(Qemu::works)
        .ok_or_else(|| format!("qemu-system-arm still missing after {PROVISION_SCRIPT}"))
}

/// Where `qemu-system-riscv32` and its libraries are unpacked (git-ignored, under `target/`).
const RISCV_QEMU_DIR: &str = "target/qemu-riscv";

/// Debian's `qemu-system-misc` (QEMU 7.2 on bookworm: only its `qemu-system-riscv32` is used)
/// and the shared libraries it needs that a fresh image of these machines lacks (see
/// `../shared/EMBEDDED.md`). They are downloaded and unpacked, not installed: installing
/// `qemu-system-misc` here would remove the image's backported `qemu-utils`.
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
/// `PATH`, else it downloads and unpacks [`RISCV_QEMU_DEBS`] (about 47 MB, a few seconds).
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
    let debs = dir.join("debs");
    for d in [&debs, &root] {
        if d.exists() {
            std::fs::remove_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    {
        let _in_debs = sh.push_dir(&debs);
        let download = || cmd!(sh, "apt-get download -qq {RISCV_QEMU_DEBS...}").run();
        if download().is_err() {
            // The package lists may be missing or stale (a fresh machine): refresh them once.
            cmd!(sh, "apt-get update -qq")
                .run()
                .map_err(|e| format!("apt-get update: {e}"))?;
            download().map_err(|e| format!("apt-get download: {e}"))?;
        }
    }
    for entry in std::fs::read_dir(&debs).map_err(|e| e.to_string())? {
        let deb = entry.map_err(|e| e.to_string())?.path();
        if deb.extension().is_some_and(|x| x == "deb") {
            cmd!(sh, "dpkg-deb -x {deb} {root}")
                .run()
                .map_err(|e| e.to_string())?;
        }
    }
    let local = unpacked();
    if local.works() {
        Ok(local)
    } else {
        let out = local.command().arg("--version").output();
        Err(format!(
            "the unpacked {} does not run: {}",
            local.bin.display(),
            out.map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
                .unwrap_or_else(|e| e.to_string())
        ))
    }
}

/// The multiarch library folders of an unpacked Debian tree (`usr/lib/<triple>` and
/// `lib/<triple>`: one of the packages puts its library under `lib/`), as a search path.
fn library_path(root: &Path) -> Option<std::ffi::OsString> {
    let dirs: Vec<PathBuf> = ["usr/lib", "lib"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && p.to_string_lossy().ends_with("-linux-gnu"))
        .collect();
    std::env::join_paths(dirs).ok()
}

/// How a QEMU run ended, and what the firmware printed.
pub(super) struct Run {
    /// The exit code; `None` if it was killed at the timeout (or by a signal).
    pub(super) status: Option<i32>,
    pub(super) stdout: String,
}

impl Run {
    pub(super) fn describe(&self) -> String {
        match self.status {
            Some(code) => format!("QEMU exited with status {code}"),
            None => format!("no exit within {} s (killed)", RUN_TIMEOUT.as_secs()),
        }
    }
}

/// Runs `elf` with QEMU's `args` (machine and cpu) and a timeout; prints and returns what it
/// printed and how it ended. `label` names the run in messages.
pub(super) fn run_qemu(qemu: &Qemu, args: &[&str], label: &str, elf: &Path) -> Result<Run> {
    let mut child = qemu
        .command()
        .args(args)
        .args([
            "-nographic",
            "-semihosting-config",
            "enable=on,target=native",
            "-kernel",
        ])
        .arg(elf)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("starting {}: {e}", qemu.bin.display()))?;
    // Drain the pipes on threads so that a chatty run cannot block on a full pipe.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut s);
            }
            s
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break status.code(),
            None if start.elapsed() > RUN_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    print!("{out}");
    // QEMU's lm3s6965evb prints this harmless line; anything else is shown.
    for line in err
        .lines()
        .filter(|l| !l.contains("Timer with period zero"))
    {
        eprintln!("qemu: {line}");
    }
    eprintln!(
        "{label}: {} after {} ms",
        match status {
            Some(code) => format!("exit status {code}"),
            None => "killed".to_owned(),
        },
        start.elapsed().as_millis()
    );
    Ok(Run {
        status,
        stdout: out,
    })
}
