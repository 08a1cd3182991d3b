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
//! text, rodata, data and bss read from the ELF's sections (`object`).
//!
//! QEMU is `Kit::Qemu` of `crate::provision`, which unpacks it under `target/debs` when it is
//! missing; each run is killed after 30 s (a hang).

mod elf;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use xshell::Shell;

use crate::util::{Result, Runner, cargo, cargo_target_dir, ensure_targets, run};

/// A firmware target and the QEMU machine that runs it.
struct Machine {
    target: &'static str,
    /// The QEMU binary.
    emulator: &'static str,
    /// Its machine and cpu arguments, which also name the run.
    args: &'static str,
    /// The exit status the run must end with, and the start of a line it must print: 0 and
    /// `selftest: ok`, or 1 after the firmware's trap handler reported an illegal instruction
    /// (mcause 2): the check that a core without the A extension really traps on an atomic
    /// instruction, so that the passing runs of the imc build mean something.
    expect: (i32, &'static str),
}

/// Cortex-M on `qemu-system-arm`: thumbv6m is a real Cortex-M0 (nRF51) without compare-and-swap,
/// the critical-section path. RISC-V on `sifive_e`: the ESP32-C3 class has no A extension, so the
/// imc build runs on Ibex (an rv32imc core) and, as a second opinion, on the generic core with A
/// switched off, where an atomic instruction would trap; the imac build runs on the FE310's own
/// core (sifive-e31) and must trap on the core without A, the trap turned into exit status 1.
#[rustfmt::skip]
const MACHINES: &[Machine] = &[
    Machine { target: "thumbv7m-none-eabi", emulator: ARM, args: "-machine lm3s6965evb -cpu cortex-m3", expect: PASS },
    Machine { target: "thumbv6m-none-eabi", emulator: ARM, args: "-machine microbit", expect: PASS },
    Machine { target: "thumbv7em-none-eabihf", emulator: ARM, args: "-machine mps2-an386 -cpu cortex-m4", expect: PASS },
    Machine { target: IMC, emulator: RISCV, args: "-machine sifive_e -cpu lowrisc-ibex", expect: PASS },
    Machine { target: IMC, emulator: RISCV, args: "-machine sifive_e -cpu rv32,a=off", expect: PASS },
    Machine { target: IMAC, emulator: RISCV, args: "-machine sifive_e", expect: PASS },
    Machine { target: IMAC, emulator: RISCV, args: "-machine sifive_e -cpu rv32,a=off", expect: (1, "FAIL: trap mcause=0x2 ") },
];

const PASS: (i32, &str) = (0, "selftest: ok");
const IMC: &str = "riscv32imc-unknown-none-elf";
const IMAC: &str = "riscv32imac-unknown-none-elf";
const ARM: &str = "qemu-system-arm";
const RISCV: &str = "qemu-system-riscv32";

/// The Cargo profile of firmware builds (root Cargo.toml: release, opt-level "s").
const PROFILE: &str = "firmware";
/// The goal for generating and hex-formatting ids (flash: text, rodata and the initial values
/// of data; seeded from a hardware RNG) on the smallest cores: a Cortex-M0 and an rv32imc core
/// (ESP32-C3 class).
const BUDGET: i64 = 2048;
/// The targets held to [`BUDGET`].
const BUDGETED: &[&str] = &["thumbv6m-none-eabi", IMC];
/// The targets `cargo xtask size` measures.
const SIZE_TARGETS: &[&str] = &["thumbv6m-none-eabi", "thumbv7em-none-eabihf", IMC];
/// A firmware run that takes longer than this (seconds) has hung (a lost interrupt, a trap with
/// no handler): it is killed and fails. Normal runs take well under a second.
const RUN_TIMEOUT: u32 = 30;

/// oid-embedded built alone (the no_std guard; defmt checked for thumbv6m and thumbv7em): each
/// target with these features. riscv32imc has no atomic instructions at all: read-modify-writes
/// go through the critical section.
#[rustfmt::skip]
const LIBRARY_BUILDS: &[(&str, &str)] = &[
    ("thumbv6m-none-eabi", "critical-section"), ("thumbv6m-none-eabi", "critical-section,defmt"),
    ("thumbv7m-none-eabi", ""), ("thumbv7em-none-eabihf", ""), ("thumbv7em-none-eabihf", "defmt"),
    ("thumbv7em-none-eabihf", "critical-section"), (IMC, "critical-section"), (IMAC, ""),
    (IMAC, "critical-section"), ("thumbv7em-none-eabihf", "critical-section,embassy-time"),
    (IMC, "critical-section,embassy-time"),
];

/// The steps `cargo xtask ci` runs: oid-embedded built alone for each target, the self-tests
/// under QEMU, and the size report.
pub(crate) fn ci_steps(r: &mut Runner) {
    for &(target, features) in LIBRARY_BUILDS {
        let label = if features.is_empty() {
            "(none)"
        } else {
            features
        };
        r.step(
            &format!("oid-embedded for {target}, features {label}"),
            |sh| {
                ensure_targets(sh, &[target])?;
                let build = cargo(
                    sh,
                    "build -p oid-embedded --lib --no-default-features --target",
                );
                run(build.arg(target).arg(format!("--features={features}")))
            },
        );
    }
    for m in MACHINES {
        let what = if m.expect == PASS {
            "self-test"
        } else {
            "trap on atomics (no A)"
        };
        r.cmd("firmware").step(
            &format!("firmware {what} on {} ({})", m.target, m.args),
            |sh| {
                let elf = build(sh, m.target, "selftest", "")?;
                if m.emulator == RISCV {
                    check_atomic_instructions(m.target, &std::fs::read(&elf)?)?;
                }
                let (status, out) = run_qemu(sh, m, &elf)?;
                let (code, line) = m.expect;
                if status == Some(code) && out.lines().any(|l| l.trim().starts_with(line)) {
                    return Ok(());
                }
                let got = describe(status);
                Err(format!("expected exit status {code} and a line `{line}`, got {got}").into())
            },
        );
    }
    r.cmd("size")
        .step("firmware: flash cost of ids", size_report);
}

/// How a QEMU run ended.
fn describe(status: Option<i32>) -> String {
    status.map_or(format!("no exit within {RUN_TIMEOUT} s (killed)"), |code| {
        format!("exit status {code}")
    })
}

/// The `size` probe's variants: cargo features and what they add.
const VARIANTS: &[(&str, &str)] = &[
    ("", "baseline: prints a constant"),
    ("ids", "+ ids, seeded by a hardware RNG"),
    ("ids,device-id", "+ ids, seeded by device id (SipHash)"),
];

fn size_report(sh: &Shell) -> Result {
    let row = |a: &str, b: &str, c: [String; 5]| {
        format!(
            "{a:<28} {b:<38} {:>7} {:>7} {:>6} {:>6} {:>6}\n",
            c[0], c[1], c[2], c[3], c[4]
        )
    };
    let mut table = row(
        "target",
        "variant",
        ["text", "rodata", "data", "flash", "bss"].map(String::from),
    );
    let mut over_budget = Vec::new();
    for target in SIZE_TARGETS {
        let m = MACHINES
            .iter()
            .find(|m| m.target == *target && m.expect == PASS)
            .ok_or(format!("no machine runs {target}"))?;
        let mut baseline = None;
        for &(features, label) in VARIANTS {
            let elf = build(sh, m.target, "size", features)?;
            let sizes = elf::section_sizes(&std::fs::read(&elf)?)
                .map_err(|e| format!("{}: {e}", elf.display()))?;
            // The probe must really work: it prints the id it made (or the constant); the time
            // is set to 1_700_000_000 = 0x6553f100.
            let (status, out) = run_qemu(sh, m, &elf)?;
            let line = out.lines().next().unwrap_or("").trim();
            let id = line.len() == 24 && line.bytes().all(|b| b.is_ascii_hexdigit());
            let valid = if features.is_empty() {
                line == "0".repeat(24)
            } else {
                id && line.starts_with("6553f100")
            };
            if status != Some(0) || !valid {
                let (what, got) = (
                    format!("size probe {} [{features}]", m.target),
                    describe(status),
                );
                return Err(format!("{what} printed {line:?}, not an id: {got}").into());
            }
            // The baseline's sizes, then each variant's difference from it (signed).
            let shown = baseline.map_or(sizes, |base: [i64; 5]| {
                std::array::from_fn(|i| sizes[i] - base[i])
            });
            let n = |v: i64| {
                if baseline.is_some() {
                    format!("{v:+}")
                } else {
                    v.to_string()
                }
            };
            table += &row(m.target, label, shown.map(n));
            if baseline.is_some()
                && BUDGETED.contains(&m.target)
                && features == "ids"
                && shown[3] > BUDGET
            {
                over_budget.push(format!(
                    "{}: {} bytes of flash, over {BUDGET}",
                    m.target, shown[3]
                ));
            }
            baseline.get_or_insert(sizes);
        }
    }
    println!(
        "\nflash cost of generating and hex-formatting ids (profile `{PROFILE}`: opt-level \"s\", LTO;\n\
         bytes; flash = text + rodata + data; rows below a baseline are differences from it)\n{table}"
    );
    crate::util::all_passed(&over_budget)
}

/// Builds one firmware binary and returns the ELF's path.
fn build(sh: &Shell, target: &str, bin: &str, features: &str) -> Result<PathBuf> {
    ensure_targets(sh, &[target])?;
    let build = cargo(
        sh,
        "build -p oid-embedded-firmware --no-default-features --profile firmware",
    );
    run(build.args([
        "--bin",
        bin,
        "--target",
        target,
        &format!("--features={features}"),
    ]))?;
    Ok(cargo_target_dir().join(target).join(PROFILE).join(bin))
}

/// Runs `elf` on `m` under QEMU, killed at [`RUN_TIMEOUT`] by coreutils' `timeout`; prints and
/// returns what it printed and how it ended (the exit code; `None` if it was killed at the
/// timeout or by a signal).
fn run_qemu(sh: &Shell, m: &Machine, elf: &std::path::Path) -> Result<(Option<i32>, String)> {
    crate::provision::install(sh, crate::provision::Kit::Qemu)?;
    let qemu = crate::provision::unpacked(m.emulator);
    let mut c = Command::new("timeout");
    c.arg(RUN_TIMEOUT.to_string())
        .arg(qemu.get_program())
        .args(m.args.split(' '));
    c.envs(
        qemu.get_envs()
            .filter_map(|(key, value)| Some((key, value?))),
    );
    c.args([
        "-nographic",
        "-semihosting-config",
        "enable=on,target=native",
        "-kernel",
    ])
    .arg(elf);
    let (start, output) = (Instant::now(), c.stdin(Stdio::null()).output()?);
    // `timeout` exits 124 when it killed the run (the firmware itself exits 0 or 1).
    let status = output.status.code().filter(|&code| code != 124);
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    print!("{out}");
    // QEMU's lm3s6965evb prints this harmless line; anything else is shown.
    let err = String::from_utf8_lossy(&output.stderr);
    err.lines()
        .filter(|l| !l.contains("Timer with period zero"))
        .for_each(|l| eprintln!("qemu: {l}"));
    let (ms, got) = (start.elapsed().as_millis(), describe(status));
    eprintln!("{} on {}: {got} after {ms} ms", m.target, m.args);
    Ok((status, out))
}

/// Fails if a firmware built for riscv32imc contains an atomic instruction; for riscv32imac,
/// checks that the scan finds the ones it has (so that finding none means something).
fn check_atomic_instructions(target: &str, elf: &[u8]) -> Result {
    let found = elf::atomic_instructions(elf)?;
    eprintln!(
        "{target}: {} atomic instructions in the firmware",
        found.len()
    );
    match found.first() {
        Some(first) if target == IMC => Err(format!(
            "an atomic instruction in a build for a core without them, at {first:#x}"
        )
        .into()),
        None if target == IMAC => Err(
            "no atomic instruction found in the imac build: the instruction scan is broken".into(),
        ),
        _ => Ok(()),
    }
}
