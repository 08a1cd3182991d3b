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
//! QEMU comes from `crate::provision::qemu`, which installs it (or unpacks it under `target/`)
//! when it is missing.

mod elf;
mod qemu;

use std::path::{Path, PathBuf};

use xshell::{Shell, cmd};

use crate::provision::qemu;
use crate::util::{Result, Runner, cargo_target_dir, ensure_targets, run};
use elf::{Sizes, atomic_instructions};
use qemu::{Run, run_qemu};

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
    /// The QEMU binary.
    emulator: &'static str,
    /// Its machine and cpu arguments, which also name the run.
    args: &'static str,
    expect: Expect,
}

/// Cortex-M on `qemu-system-arm`: thumbv6m is a real Cortex-M0 (nRF51) without compare-and-swap,
/// the critical-section path. RISC-V on `sifive_e`: the ESP32-C3 class has no A extension, so the
/// imc build runs on Ibex (an rv32imc core) and, as a second opinion, on the generic core with A
/// switched off, where an atomic instruction would trap; the imac build runs on the FE310's own
/// core (sifive-e31) and must trap on the core without A, the trap turned into exit status 1.
#[rustfmt::skip]
const MACHINES: &[Machine] = &[
    Machine { target: "thumbv7m-none-eabi", emulator: ARM, args: "-machine lm3s6965evb -cpu cortex-m3", expect: Pass },
    Machine { target: "thumbv6m-none-eabi", emulator: ARM, args: "-machine microbit", expect: Pass },
    Machine { target: "thumbv7em-none-eabihf", emulator: ARM, args: "-machine mps2-an386 -cpu cortex-m4", expect: Pass },
    Machine { target: IMC, emulator: RISCV, args: "-machine sifive_e -cpu lowrisc-ibex", expect: Pass },
    Machine { target: IMC, emulator: RISCV, args: "-machine sifive_e -cpu rv32,a=off", expect: Pass },
    Machine { target: IMAC, emulator: RISCV, args: "-machine sifive_e", expect: Pass },
    Machine { target: IMAC, emulator: RISCV, args: "-machine sifive_e -cpu rv32,a=off", expect: IllegalInstruction },
];

const IMC: &str = "riscv32imc-unknown-none-elf";
const IMAC: &str = "riscv32imac-unknown-none-elf";
const ARM: &str = "qemu-system-arm";
const RISCV: &str = "qemu-system-riscv32";
use Expect::{IllegalInstruction, Pass};

const PACKAGE: &str = "oid-embedded-firmware";
/// The Cargo profile of firmware builds (root Cargo.toml: release, opt-level "s").
const PROFILE: &str = "firmware";
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
                run(cmd!(
                    sh,
                    "cargo build -p oid-embedded --lib --target {target} --no-default-features --features={features}"
                ))
            },
        );
    }
    for m in MACHINES {
        let what = match m.expect {
            Expect::Pass => "firmware self-test",
            Expect::IllegalInstruction => "firmware traps on atomics without A",
        };
        let name = format!("{what} on {} ({})", m.target, m.args);
        r.cmd("firmware").step(&name, |sh| {
            let elf = build(sh, m.target, "selftest", "")?;
            if m.emulator == RISCV {
                check_atomic_instructions(m.target, &elf)?;
            }
            let run = run_qemu(qemu(sh, m.emulator)?, m, &elf)?;
            check_run(m, &run)
        });
    }
    r.cmd("size")
        .step("firmware: flash cost of ids", size_report);
}

/// Whether a self-test run ended as `m` expects.
fn check_run(m: &Machine, run: &Run) -> Result {
    let said = |text: &str| run.stdout.lines().any(|l| l.trim() == text);
    match (m.expect, run.status) {
        (Expect::Pass, Some(0)) if said("selftest: ok") => Ok(()),
        (Expect::Pass, Some(0)) => Err("the firmware exited 0 but did not print `selftest: ok`"
            .to_owned()
            .into()),
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
        )
        .into()),
        (Expect::Pass, _) => Err(format!("{} on {}: {}", m.target, m.args, run.describe()).into()),
    }
}

/// The `size` probe's variants: cargo features and what they add.
const VARIANTS: &[(&str, &str)] = &[
    ("", "baseline: prints a constant"),
    ("ids", "+ ids, seeded by a hardware RNG"),
    ("ids,device-id", "+ ids, seeded by device id (SipHash)"),
];

fn size_report(sh: &Shell) -> Result {
    let mut table = format!(
        "{:<28} {:<38} {:>7} {:>7} {:>6} {:>6} {:>6}\n",
        "target", "variant", "text", "rodata", "data", "flash", "bss"
    );
    let mut over_budget = Vec::new();
    for target in SIZE_TARGETS {
        let m = MACHINES
            .iter()
            .find(|m| m.target == *target && m.expect == Expect::Pass)
            .ok_or(format!("no machine runs {target}"))?;
        let mut baseline = None;
        for &(features, label) in VARIANTS {
            let elf = build(sh, m.target, "size", features)?;
            let sizes = Sizes::of(&elf)?;
            // The probe must really work: it prints the id it made (or the constant); the time
            // is set to 1_700_000_000 = 0x6553f100.
            let run = run_qemu(qemu(sh, m.emulator)?, m, &elf)?;
            let line = run.stdout.lines().next().unwrap_or("").trim();
            let valid = if features.is_empty() {
                line == "0".repeat(24)
            } else {
                line.len() == 24
                    && line.starts_with("6553f100")
                    && line.bytes().all(|b| b.is_ascii_hexdigit())
            };
            if run.status != Some(0) || !valid {
                let what = format!("size probe {} [{features}]", m.target);
                return Err(
                    format!("{what} printed {line:?}, not an id: {}", run.describe()).into(),
                );
            }
            // The baseline's sizes, then each variant's difference from it (signed).
            let shown = baseline.map_or(sizes, |base| sizes.minus(&base));
            let flash = shown.flash();
            table += &format!("{:<28} {label:<38}", m.target);
            for (v, w) in [shown.text, shown.rodata, shown.data, flash, shown.bss]
                .iter()
                .zip([7, 7, 6, 6, 6])
            {
                table += &if baseline.is_some() {
                    format!(" {v:>+w$}")
                } else {
                    format!(" {v:>w$}")
                };
            }
            table.push('\n');
            if baseline.is_some()
                && BUDGETED.contains(&m.target)
                && features == "ids"
                && flash > BUDGET
            {
                over_budget.push(format!(
                    "{}: {flash} bytes of flash, over the {BUDGET}-byte goal",
                    m.target
                ));
            }
            baseline.get_or_insert(sizes);
        }
    }
    println!(
        "\nflash cost of generating and hex-formatting ids (profile `{PROFILE}`: opt-level \"s\", LTO;\n\
         bytes; flash = text + rodata + data; rows below a baseline are differences from it)\n{table}"
    );
    if over_budget.is_empty() {
        Ok(())
    } else {
        Err(over_budget.join("; ").into())
    }
}

/// Builds one firmware binary and returns the ELF's path.
fn build(sh: &Shell, target: &str, bin: &str, features: &str) -> Result<PathBuf> {
    ensure_targets(sh, &[target])?;
    run(cmd!(
        sh,
        "cargo build -p {PACKAGE} --bin {bin} --target {target} --profile {PROFILE} --no-default-features --features={features}"
    ))?;
    Ok(cargo_target_dir().join(target).join(PROFILE).join(bin))
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
        )
        .into()),
        "riscv32imac-unknown-none-elf" if found.is_empty() => Err(
            "no atomic instruction found in the imac build: the instruction scan is broken".into(),
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
