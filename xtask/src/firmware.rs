//! `cargo xtask firmware` and `cargo xtask size`: oid-embedded's example firmware
//! (`oid-embedded/firmware`) under QEMU, and the flash cost of generating ids.
//!
//! `firmware` builds the self-test for three Cortex-M targets and two RISC-V ones and runs each
//! on a QEMU machine (with a timeout): thumbv7m, thumbv6m and thumbv7em on `qemu-system-arm`;
//! riscv32imc on `sifive_e` with two cores that lack the A extension (so an atomic instruction
//! would trap) and riscv32imac on `sifive_e`'s own core, on `qemu-system-riscv32`. A run passes
//! when QEMU exits 0 through semihosting and the firmware printed `selftest: ok`; a panic or a
//! trap exits 1, a hang is killed at the timeout. One more run checks that the imac build does
//! trap on a core without A (so the imc runs prove something). `size` builds the `size` probe
//! without and with its `ids` feature (and with `device-id`) for thumbv6m, thumbv7em and
//! riscv32imc, runs each under QEMU to check it prints a valid id, and reports the difference in
//! `.text` and `.rodata` read from the ELF section headers.
//!
//! `qemu-system-arm` is looked up in `target/qemu` (where `.ci/provision.d/10-qemu.sh` unpacks
//! it), then on `PATH`; if neither works, that script is run once. `qemu-system-riscv32` is
//! looked up in `target/qemu-riscv`, then on `PATH`; if neither works, Debian's
//! `qemu-system-misc` and the libraries it needs are downloaded and unpacked there.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use xshell::{Shell, cmd};

use crate::ci::{Result, Runner, ensure_targets, project_root};

/// Which QEMU binary runs a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Emulator {
    /// `qemu-system-arm` (Debian's `qemu-system-arm`).
    Arm,
    /// `qemu-system-riscv32` (Debian's `qemu-system-misc`).
    Riscv32,
}

/// What a run must end with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Exit status 0 and `selftest: ok`.
    Pass,
    /// Exit status 1 after the firmware's trap handler reported an illegal instruction
    /// (mcause 2): the check that a core without the A extension really traps on an atomic
    /// instruction, so that the passing runs of the imc build mean something.
    IllegalInstruction,
}

/// A firmware target and the QEMU machine that runs it.
struct Machine {
    target: &'static str,
    emulator: Emulator,
    args: &'static [&'static str],
    expect: Expect,
}

impl Machine {
    /// `machine` or `machine, cpu`, for step names and errors.
    fn label(&self) -> String {
        let value = |flag: &str| {
            self.args
                .iter()
                .position(|a| *a == flag)
                .and_then(|i| self.args.get(i + 1))
                .copied()
        };
        match value("-cpu") {
            Some(cpu) => format!("{}, -cpu {cpu}", value("-machine").unwrap_or("?")),
            None => value("-machine").unwrap_or("?").to_owned(),
        }
    }
}

const MACHINES: &[Machine] = &[
    Machine {
        target: "thumbv7m-none-eabi",
        emulator: Emulator::Arm,
        args: &["-machine", "lm3s6965evb", "-cpu", "cortex-m3"],
        expect: Expect::Pass,
    },
    // A real Cortex-M0 (nRF51) without compare-and-swap: the critical-section path.
    Machine {
        target: "thumbv6m-none-eabi",
        emulator: Emulator::Arm,
        args: &["-machine", "microbit"],
        expect: Expect::Pass,
    },
    Machine {
        target: "thumbv7em-none-eabihf",
        emulator: Emulator::Arm,
        args: &["-machine", "mps2-an386", "-cpu", "cortex-m4"],
        expect: Expect::Pass,
    },
    // The ESP32-C3 class: no A extension. Ibex is an rv32imc core; the generic core with A
    // switched off is the second opinion. An atomic instruction would trap on both.
    Machine {
        target: "riscv32imc-unknown-none-elf",
        emulator: Emulator::Riscv32,
        args: &["-machine", "sifive_e", "-cpu", "lowrisc-ibex"],
        expect: Expect::Pass,
    },
    Machine {
        target: "riscv32imc-unknown-none-elf",
        emulator: Emulator::Riscv32,
        args: &["-machine", "sifive_e", "-cpu", "rv32,a=off"],
        expect: Expect::Pass,
    },
    // The FE310's own core (sifive-e31, rv32imac).
    Machine {
        target: "riscv32imac-unknown-none-elf",
        emulator: Emulator::Riscv32,
        args: &["-machine", "sifive_e"],
        expect: Expect::Pass,
    },
    // The imac build uses atomic instructions: on the core without A it must trap, and the
    // firmware must turn the trap into exit status 1 (not a hang).
    Machine {
        target: "riscv32imac-unknown-none-elf",
        emulator: Emulator::Riscv32,
        args: &["-machine", "sifive_e", "-cpu", "rv32,a=off"],
        expect: Expect::IllegalInstruction,
    },
];

const PACKAGE: &str = "oid-embedded-firmware";
/// The Cargo profile of firmware builds (root Cargo.toml: release, opt-level "s").
const PROFILE: &str = "firmware";
/// A firmware run that takes longer than this has hung (a panic with `panic-halt`, a lost
/// interrupt): it is killed and fails. Normal runs take well under a second.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
/// The goal for generating and hex-formatting ids (flash: text, rodata and the initial values
/// of data; seeded from a hardware RNG)
/// on the smallest cores: a Cortex-M0 and an rv32imc core (ESP32-C3 class).
const BUDGET: i64 = 2048;
/// The targets held to [`BUDGET`].
const BUDGETED: &[&str] = &["thumbv6m-none-eabi", "riscv32imc-unknown-none-elf"];
/// The targets `cargo xtask size` measures.
const SIZE_TARGETS: &[&str] = &[
    "thumbv6m-none-eabi",
    "thumbv7em-none-eabihf",
    "riscv32imc-unknown-none-elf",
];
const PROVISION_SCRIPT: &str = ".ci/provision.d/10-qemu.sh";

/// `cargo xtask firmware`.
pub(crate) fn firmware() -> Result {
    let mut r = Runner::new()?;
    selftest_steps(&mut r);
    r.finish()
}

/// `cargo xtask size`.
pub(crate) fn size() -> Result {
    let mut r = Runner::new()?;
    r.step("firmware: flash cost of ids", size_report);
    r.finish()
}

/// The steps `cargo xtask ci` runs: oid-embedded built alone for each thumb target (the
/// no_std guard; defmt checked for thumbv7em), the self-tests under QEMU, and the size report.
pub(crate) fn ci_steps(r: &mut Runner) {
    for (target, features) in [
        ("thumbv6m-none-eabi", "critical-section"),
        ("thumbv6m-none-eabi", "critical-section,defmt"),
        ("thumbv7m-none-eabi", ""),
        ("thumbv7em-none-eabihf", ""),
        ("thumbv7em-none-eabihf", "defmt"),
        ("thumbv7em-none-eabihf", "critical-section"),
        // No atomic instructions at all: read-modify-writes through the critical section.
        ("riscv32imc-unknown-none-elf", "critical-section"),
        ("riscv32imac-unknown-none-elf", ""),
        ("riscv32imac-unknown-none-elf", "critical-section"),
        ("thumbv7em-none-eabihf", "critical-section,embassy-time"),
        (
            "riscv32imc-unknown-none-elf",
            "critical-section,embassy-time",
        ),
    ] {
        let label = if features.is_empty() {
            "(none)"
        } else {
            features
        };
        r.step(
            &format!("oid-embedded for {target}, features {label}"),
            |sh| {
                ensure_targets(sh, &[target])?;
                cmd!(
                    sh,
                    "cargo build -p oid-embedded --lib --target {target} --no-default-features --features={features}"
                )
                .run()
                .map_err(|e| e.to_string())
            },
        );
    }
    selftest_steps(r);
    r.step("firmware: flash cost of ids", size_report);
}

fn selftest_steps(r: &mut Runner) {
    for m in MACHINES {
        let what = match m.expect {
            Expect::Pass => "firmware self-test",
            Expect::IllegalInstruction => "firmware traps on atomics without A",
        };
        r.step(&format!("{what} on {} ({})", m.target, m.label()), |sh| {
            let qemu = qemu(sh, m.emulator)?;
            let elf = build(sh, m.target, "selftest", "")?;
            if m.emulator == Emulator::Riscv32 {
                check_atomic_instructions(m.target, &elf)?;
            }
            let run = run_qemu(&qemu, m, &elf)?;
            check_run(m, &run)
        });
    }
}

/// Whether a self-test run ended as `m` expects.
fn check_run(m: &Machine, run: &Run) -> Result {
    let said = |text: &str| run.stdout.lines().any(|l| l.trim() == text);
    match (m.expect, run.status) {
        (Expect::Pass, Some(0)) if said("selftest: ok") => Ok(()),
        (Expect::Pass, Some(0)) => {
            Err("the firmware exited 0 but did not print `selftest: ok`".to_owned())
        }
        (Expect::IllegalInstruction, Some(1))
            if run
                .stdout
                .lines()
                .any(|l| l.starts_with("FAIL: trap mcause=0x2 ")) =>
        {
            Ok(())
        }
        (Expect::IllegalInstruction, _) => Err(format!(
            "expected an illegal-instruction trap and exit status 1, got {}",
            run.describe()
        )),
        (Expect::Pass, _) => Err(format!("{} on {}: {}", m.target, m.label(), run.describe())),
    }
}

/// The `size` probe's variants: cargo features and what they add.
const VARIANTS: &[(&str, &str)] = &[
    ("", "baseline: prints a constant"),
    ("ids", "+ ids, seeded by a hardware RNG"),
    ("ids,device-id", "+ ids, seeded by device id (SipHash)"),
];

fn size_report(sh: &Shell) -> Result {
    let mut table = String::new();
    table += &format!(
        "{:<28} {:<38} {:>7} {:>7} {:>6} {:>6} {:>6}\n",
        "target", "variant", "text", "rodata", "data", "flash", "bss"
    );
    let mut over_budget = Vec::new();
    for target in SIZE_TARGETS {
        let Some(m) = MACHINES
            .iter()
            .find(|m| m.target == *target && m.expect == Expect::Pass)
        else {
            return Err(format!("no machine runs {target}"));
        };
        let qemu = qemu(sh, m.emulator)?;
        let mut baseline = None;
        for &(features, label) in VARIANTS {
            let elf = build(sh, m.target, "size", features)?;
            let sizes = Sizes::of(&elf)?;
            // The probe must really work: it prints the id it made (or the constant).
            let run = run_qemu(&qemu, m, &elf)?;
            if run.status != Some(0) {
                return Err(format!(
                    "size probe {} [{features}]: {}",
                    m.target,
                    run.describe()
                ));
            }
            let line = run.stdout.lines().next().unwrap_or("").trim();
            let valid = if features.is_empty() {
                line == "0".repeat(24)
            } else {
                // Time set to 1_700_000_000 = 0x6553f100.
                line.len() == 24
                    && line.starts_with("6553f100")
                    && line.bytes().all(|b| b.is_ascii_hexdigit())
            };
            if !valid {
                return Err(format!(
                    "size probe {} [{features}] printed {line:?}, not an id",
                    m.target
                ));
            }
            match baseline {
                None => {
                    table += &format!(
                        "{:<28} {:<38} {:>7} {:>7} {:>6} {:>6} {:>6}\n",
                        m.target,
                        label,
                        sizes.text,
                        sizes.rodata,
                        sizes.data,
                        sizes.flash(),
                        sizes.bss
                    );
                    baseline = Some(sizes);
                }
                Some(base) => {
                    let d = sizes.minus(&base);
                    table += &format!(
                        "{:<28} {:<38} {:>+7} {:>+7} {:>+6} {:>+6} {:>+6}\n",
                        m.target,
                        label,
                        d.text,
                        d.rodata,
                        d.data,
                        d.flash(),
                        d.bss
                    );
                    if BUDGETED.contains(&m.target) && features == "ids" && d.flash() > BUDGET {
                        over_budget.push(format!(
                            "{}: {} bytes of flash, over the {BUDGET}-byte goal",
                            m.target,
                            d.flash()
                        ));
                    }
                }
            }
        }
    }
    println!(
        "\nflash cost of generating and hex-formatting ids (profile `{PROFILE}`: opt-level \"s\", LTO;\n\
         bytes; flash = text + rodata + data; rows below a baseline are differences from it)\n{table}"
    );
    if over_budget.is_empty() {
        Ok(())
    } else {
        Err(over_budget.join("; "))
    }
}

/// Builds one firmware binary and returns the ELF's path.
fn build(sh: &Shell, target: &str, bin: &str, features: &str) -> Result<PathBuf> {
    ensure_targets(sh, &[target])?;
    cmd!(
        sh,
        "cargo build -p {PACKAGE} --bin {bin} --target {target} --profile {PROFILE} --no-default-features --features={features}"
    )
    .run()
    .map_err(|e| e.to_string())?;
    Ok(crate::ci::cargo_target_dir()
        .join(target)
        .join(PROFILE)
        .join(bin))
}

/// A QEMU binary, with the folders of the shared libraries it was unpacked with (if any).
struct Qemu {
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
fn qemu(sh: &Shell, emulator: Emulator) -> Result<Qemu> {
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
struct Run {
    /// The exit code; `None` if it was killed at the timeout (or by a signal).
    status: Option<i32>,
    stdout: String,
}

impl Run {
    fn describe(&self) -> String {
        match self.status {
            Some(code) => format!("QEMU exited with status {code}"),
            None => format!("no exit within {} s (killed)", RUN_TIMEOUT.as_secs()),
        }
    }
}

/// Runs `elf` on the machine with a timeout; prints and returns what it printed and how it
/// ended.
fn run_qemu(qemu: &Qemu, m: &Machine, elf: &Path) -> Result<Run> {
    let mut child = qemu
        .command()
        .args(m.args)
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
        "{} on {}: {} after {} ms",
        m.target,
        m.label(),
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

/// Allocated section sizes of an ELF, by kind (as `llvm-size` counts them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sizes {
    /// Executable code.
    text: i64,
    /// Read-only data (the vector table included).
    rodata: i64,
    /// Initialised data (in flash and in RAM).
    data: i64,
    /// Zeroed data (RAM only).
    bss: i64,
}

impl Sizes {
    fn of(elf: &Path) -> Result<Sizes> {
        let bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
        section_sizes(&bytes).map_err(|e| format!("{}: {e}", elf.display()))
    }

    /// What goes into flash: code, read-only data and the initial values of `.data`.
    const fn flash(&self) -> i64 {
        self.text + self.rodata + self.data
    }

    const fn minus(&self, other: &Sizes) -> Sizes {
        Sizes {
            text: self.text - other.text,
            rodata: self.rodata - other.rodata,
            data: self.data - other.data,
            bss: self.bss - other.bss,
        }
    }
}

/// One section header of an ELF32 file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Section {
    name: String,
    kind: u32,
    flags: u32,
    addr: u32,
    offset: u32,
    size: u32,
}

const SHT_NOBITS: u32 = 8;
const SHF_WRITE: u32 = 0x1;
const SHF_ALLOC: u32 = 0x2;
const SHF_EXECINSTR: u32 = 0x4;

/// Reads the section headers (and their names, when the file has a section name table) of a
/// little-endian ELF32 file: every target measured here.
fn sections(elf: &[u8]) -> std::result::Result<Vec<Section>, String> {
    let u16_at = |at: usize| {
        elf.get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .ok_or_else(|| format!("truncated ELF at {at}"))
    };
    let u32_at = |at: usize| {
        elf.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| format!("truncated ELF at {at}"))
    };
    if elf.get(..6) != Some(b"\x7fELF\x01\x01".as_slice()) {
        return Err("not a little-endian ELF32 file".to_owned());
    }
    let shoff = u32_at(0x20)? as usize;
    let shentsize = usize::from(u16_at(0x2e)?);
    let shnum = usize::from(u16_at(0x30)?);
    let shstrndx = usize::from(u16_at(0x32)?);
    if shentsize < 40 {
        return Err(format!("section header entries of {shentsize} bytes"));
    }
    let mut out = Vec::with_capacity(shnum);
    let mut name_offsets = Vec::with_capacity(shnum);
    for i in 0..shnum {
        let at = shoff + i * shentsize;
        name_offsets.push(u32_at(at)? as usize);
        out.push(Section {
            name: String::new(),
            kind: u32_at(at + 4)?,
            flags: u32_at(at + 8)?,
            addr: u32_at(at + 12)?,
            offset: u32_at(at + 16)?,
            size: u32_at(at + 20)?,
        });
    }
    if let Some(table) = out.get(shstrndx).filter(|_| shstrndx != 0).cloned() {
        let strings = elf
            .get(table.offset as usize..(table.offset + table.size) as usize)
            .ok_or("truncated section name table")?;
        for (section, &at) in out.iter_mut().zip(&name_offsets) {
            let rest = strings.get(at..).unwrap_or_default();
            let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
            section.name = String::from_utf8_lossy(&rest[..end]).into_owned();
        }
    }
    Ok(out)
}

/// Sums the sizes of allocated sections: executable ones as text, other read-only ones as
/// rodata, writable ones with contents as data, writable ones without (`SHT_NOBITS`) as bss.
/// riscv-rt's `.stack` and `.heap` are not counted: they reserve whatever RAM is left.
fn section_sizes(elf: &[u8]) -> std::result::Result<Sizes, String> {
    let mut sizes = Sizes {
        text: 0,
        rodata: 0,
        data: 0,
        bss: 0,
    };
    for s in sections(elf)? {
        if s.flags & SHF_ALLOC == 0 || s.name == ".stack" || s.name == ".heap" {
            continue;
        }
        let slot = if s.flags & SHF_EXECINSTR != 0 {
            &mut sizes.text
        } else if s.flags & SHF_WRITE == 0 {
            &mut sizes.rodata
        } else if s.kind == SHT_NOBITS {
            &mut sizes.bss
        } else {
            &mut sizes.data
        };
        *slot += i64::from(s.size);
    }
    Ok(sizes)
}

/// The addresses of RISC-V A-extension instructions (major opcode `AMO`, `0101111`: `lr`,
/// `sc`, `amo*`) in the executable sections of a riscv32 ELF, decoding 16- and 32-bit
/// instructions in sequence (the low two bits tell the length).
fn atomic_instructions(elf: &[u8]) -> std::result::Result<Vec<u32>, String> {
    const AMO: u32 = 0b010_1111;
    let mut found = Vec::new();
    for s in sections(elf)? {
        if s.flags & SHF_EXECINSTR == 0 || s.kind == SHT_NOBITS {
            continue;
        }
        let code = elf
            .get(s.offset as usize..(s.offset + s.size) as usize)
            .ok_or_else(|| format!("section {} outside the file", s.name))?;
        let mut at = 0;
        while at + 2 <= code.len() {
            let low = u16::from_le_bytes([code[at], code[at + 1]]);
            if low & 0b11 != 0b11 {
                at += 2; // a compressed instruction
                continue;
            }
            let Some(word) = code.get(at..at + 4) else {
                break;
            };
            let insn = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            if insn & 0x7f == AMO {
                found.push(s.addr + at as u32);
            }
            at += 4;
        }
    }
    Ok(found)
}

/// Fails if a firmware built for riscv32imc contains an atomic instruction; for riscv32imac,
/// checks that the scan finds the ones it has (so that finding none means something).
fn check_atomic_instructions(target: &str, elf: &Path) -> Result {
    let bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
    let found = atomic_instructions(&bytes)?;
    match target {
        "riscv32imc-unknown-none-elf" if !found.is_empty() => Err(format!(
            "{} atomic instruction(s) in a build for a core without them, first at {:#x}",
            found.len(),
            found[0]
        )),
        "riscv32imac-unknown-none-elf" if found.is_empty() => Err(
            "no atomic instruction found in the imac build: the instruction scan is broken"
                .to_owned(),
        ),
        _ => {
            eprintln!(
                "{target}: {} atomic instructions in the firmware",
                found.len()
            );
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF32 image: a header and four section headers (null, text, rodata, bss) plus
    /// one non-allocated section that must not count.
    fn elf(sections: &[(u32, u32, u32)]) -> Vec<u8> {
        let mut v = vec![0u8; 52];
        v[..6].copy_from_slice(b"\x7fELF\x01\x01");
        v[0x20..0x24].copy_from_slice(&52u32.to_le_bytes());
        v[0x2e..0x30].copy_from_slice(&40u16.to_le_bytes());
        v[0x30..0x32].copy_from_slice(&(sections.len() as u16).to_le_bytes());
        for &(kind, flags, size) in sections {
            let mut h = [0u8; 40];
            h[4..8].copy_from_slice(&kind.to_le_bytes());
            h[8..12].copy_from_slice(&flags.to_le_bytes());
            h[20..24].copy_from_slice(&size.to_le_bytes());
            v.extend_from_slice(&h);
        }
        v
    }

    #[test]
    fn sums_sections_by_kind() {
        let image = elf(&[
            (0, 0, 0),      // null
            (1, 0x6, 1000), // .text: alloc + exec
            (1, 0x2, 192),  // .vector_table: alloc
            (1, 0x2, 8),    // .rodata
            (1, 0x3, 64),   // .data: alloc + write
            (8, 0x3, 32),   // .bss: nobits
            (1, 0x0, 5000), // .debug_info: not allocated
        ]);
        assert_eq!(
            section_sizes(&image),
            Ok(Sizes {
                text: 1000,
                rodata: 200,
                data: 64,
                bss: 32
            })
        );
    }

    /// An ELF32 image with named sections and contents: `(name, kind, flags, contents or
    /// NOBITS size)`, plus the name table as the last section.
    fn named_elf(sections: &[(&str, u32, u32, &[u8], u32)]) -> Vec<u8> {
        let mut names = vec![0u8];
        let mut name_at = Vec::new();
        for (name, ..) in sections {
            name_at.push(names.len() as u32);
            names.extend_from_slice(name.as_bytes());
            names.push(0);
        }
        let shstrtab_name = names.len() as u32;
        names.extend_from_slice(b".shstrtab\0");
        let mut body = Vec::new();
        let mut headers = Vec::new();
        let data_start = 52u32;
        for (i, &(_, kind, flags, contents, nobits)) in sections.iter().enumerate() {
            let offset = data_start + body.len() as u32;
            body.extend_from_slice(contents);
            let size = if kind == SHT_NOBITS {
                nobits
            } else {
                contents.len() as u32
            };
            headers.push((
                name_at[i],
                kind,
                flags,
                0x1000 * (i as u32 + 1),
                offset,
                size,
            ));
        }
        let names_offset = data_start + body.len() as u32;
        body.extend_from_slice(&names);
        headers.push((shstrtab_name, 3, 0, 0, names_offset, names.len() as u32));
        let mut v = vec![0u8; 52];
        v[..6].copy_from_slice(b"\x7fELF\x01\x01");
        let shoff = data_start + body.len() as u32;
        v[0x20..0x24].copy_from_slice(&shoff.to_le_bytes());
        v[0x2e..0x30].copy_from_slice(&40u16.to_le_bytes());
        v[0x30..0x32].copy_from_slice(&(headers.len() as u16).to_le_bytes());
        v[0x32..0x34].copy_from_slice(&(headers.len() as u16 - 1).to_le_bytes());
        v.extend_from_slice(&body);
        for (name, kind, flags, addr, offset, size) in headers {
            let mut h = [0u8; 40];
            for (at, value) in [
                (0, name),
                (4, kind),
                (8, flags),
                (12, addr),
                (16, offset),
                (20, size),
            ] {
                h[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
            v.extend_from_slice(&h);
        }
        v
    }

    #[test]
    fn names_sections_and_skips_reserved_ram() {
        let image = named_elf(&[
            (".text", 1, 0x6, &[0x01, 0x00], 0),
            (".data", 1, 0x3, &[1, 2, 3, 4], 0),
            (".bss", SHT_NOBITS, 0x3, &[], 8),
            (".stack", SHT_NOBITS, 0x3, &[], 16_000),
        ]);
        let names: Vec<String> = sections(&image)
            .unwrap()
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, [".text", ".data", ".bss", ".stack", ".shstrtab"]);
        assert_eq!(
            section_sizes(&image),
            Ok(Sizes {
                text: 2,
                rodata: 0,
                data: 4,
                bss: 8
            })
        );
    }

    #[test]
    fn finds_atomic_instructions_between_compressed_ones() {
        // c.nop; amoadd.w a0, a1, (a2) = 0x00b6252f; addi a0, a0, 1 = 0x00150513; c.nop;
        // lr.w a0, (a0) = 0x1005252f.
        let code: &[u8] = &[
            0x01, 0x00, 0x2f, 0x25, 0xb6, 0x00, 0x13, 0x05, 0x15, 0x00, 0x01, 0x00, 0x2f, 0x25,
            0x05, 0x10,
        ];
        let image = named_elf(&[
            (".text", 1, 0x6, code, 0),
            (".rodata", 1, 0x2, &[0x2f; 8], 0),
        ]);
        assert_eq!(atomic_instructions(&image), Ok(vec![0x1002, 0x100c]));
        // Without them: an addi, then compressed instructions (low bits 01) whose second byte
        // is 0x2f; and a `.rodata` full of 0x2f (not code) in the image above.
        let plain: &[u8] = &[0x13, 0x05, 0x15, 0x00, 0x01, 0x2f, 0x05, 0x2f];
        let image = named_elf(&[(".text", 1, 0x6, plain, 0)]);
        assert_eq!(atomic_instructions(&image), Ok(vec![]));
    }

    #[test]
    fn rejects_what_is_not_elf32_le() {
        assert!(section_sizes(b"\x7fELF\x02\x01").is_err());
        assert!(section_sizes(b"MZ").is_err());
        let mut truncated = elf(&[(1, 0x6, 10)]);
        truncated.truncate(60);
        assert!(section_sizes(&truncated).is_err());
    }

    #[test]
    fn differences() {
        let a = Sizes {
            text: 10,
            rodata: 5,
            data: 0,
            bss: 4,
        };
        let b = Sizes {
            text: 3,
            rodata: 5,
            data: 8,
            bss: 4,
        };
        assert_eq!(
            a.minus(&b),
            Sizes {
                text: 7,
                rodata: 0,
                data: -8,
                bss: 0
            }
        );
    }
}
