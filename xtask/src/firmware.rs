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

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
    /// Whether `cargo xtask size` measures its target here (one machine per target).
    size: bool,
}

/// Cortex-M on `qemu-system-arm`: thumbv6m is a real Cortex-M0 (nRF51) without compare-and-swap,
/// the critical-section path. RISC-V on `sifive_e`: the ESP32-C3 class has no A extension, so the
/// imc build runs on Ibex (an rv32imc core) and, as a second opinion, on the generic core with A
/// switched off, where an atomic instruction would trap; the imac build runs on the FE310's own
/// core (sifive-e31) and must trap on the core without A, the trap turned into exit status 1.
#[rustfmt::skip]
const MACHINES: &[Machine] = &[
    Machine { target: "thumbv7m-none-eabi", emulator: ARM, args: "-machine lm3s6965evb -cpu cortex-m3", expect: PASS, size: false },
    Machine { target: "thumbv6m-none-eabi", emulator: ARM, args: "-machine microbit", expect: PASS, size: true },
    Machine { target: "thumbv7em-none-eabihf", emulator: ARM, args: "-machine mps2-an386 -cpu cortex-m4", expect: PASS, size: true },
    Machine { target: IMC, emulator: RISCV, args: "-machine sifive_e -cpu lowrisc-ibex", expect: PASS, size: true },
    Machine { target: IMC, emulator: RISCV, args: "-machine sifive_e -cpu rv32,a=off", expect: PASS, size: false },
    Machine { target: IMAC, emulator: RISCV, args: "-machine sifive_e", expect: PASS, size: false },
    Machine { target: IMAC, emulator: RISCV, args: "-machine sifive_e -cpu rv32,a=off", expect: (1, "FAIL: trap mcause=0x2 "), size: false },
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
/// A firmware run that takes longer than this (seconds) has hung (a lost interrupt, a trap with
/// no handler): it is killed and fails. Normal runs take well under a second.
const RUN_TIMEOUT: &str = "30";

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
        r.step(
            &format!("oid-embedded for {target}, features [{features}]"),
            |sh| {
                ensure_targets(sh, &[target])?;
                let lib = "build -p oid-embedded --lib --no-default-features --target";
                run(cargo(sh, &format!("{lib} {target} --features={features}")))
            },
        );
    }
    for m in MACHINES {
        let (target, args, (code, line)) = (m.target, m.args, m.expect);
        let name = format!("firmware on {target} ({args}): exit {code}, `{line}`");
        r.cmd("firmware").step(&name, |sh| {
            let elf = build(sh, target, "selftest", "")?;
            if m.emulator == RISCV {
                let found = elf::atomic_instructions(&std::fs::read(&elf)?)?;
                let n = found.len();
                eprintln!("{target}: {n} atomic instructions");
                // Some in the imac build, else the scan is broken and finding none in the imc
                // build would prove nothing.
                if found.is_empty() != (target == IMC) {
                    return Err(format!(
                        "{n} atomic instructions in the {target} build (at {found:x?}): \
                         riscv32imc must have none, riscv32imac some (else the scan is broken)"
                    )
                    .into());
                }
            }
            let out = run_qemu(sh, m, &elf, code)?;
            if !out.lines().any(|l| l.trim().starts_with(line)) {
                return Err(format!("no line `{line}` in the output").into());
            }
            Ok(())
        });
    }
    r.cmd("size")
        .step("firmware: flash cost of ids", size_report);
}

/// The `size` probe's variants: cargo features, what they add, and the start of the line the
/// probe must print: a constant, or an id of the time it sets, 1_700_000_000 = 0x6553f100.
#[rustfmt::skip]
const VARIANTS: &[(&str, &str, &str)] = &[
    ("", "baseline: prints a constant", "000000000000000000000000"),
    ("ids", "+ ids, seeded by a hardware RNG", "6553f100"),
    ("ids,device-id", "+ ids, seeded by device id (SipHash)", "6553f100"),
];

fn size_report(sh: &Shell) -> Result {
    let row = |a: &str, b: &str, c: [String; 5]| {
        format!("{a:<28} {b:<38}{}\n", c.map(|v| format!("{v:>7}")).concat())
    };
    let head = ["text", "rodata", "data", "flash", "bss"].map(String::from);
    let (mut table, mut over_budget) = (row("target", "variant", head), Vec::new());
    for m in MACHINES.iter().filter(|m| m.size) {
        let mut baseline = None;
        for &(features, label, start) in VARIANTS {
            let elf = build(sh, m.target, "size", features)?;
            let sizes = elf::section_sizes(&std::fs::read(&elf)?)
                .map_err(|e| format!("{}: {e}", elf.display()))?;
            // The probe must really work: it prints the id it made (or the constant).
            let out = run_qemu(sh, m, &elf, 0)?;
            let line = out.lines().next().unwrap_or("").trim();
            if line.len() != 24
                || !line.bytes().all(|b| b.is_ascii_hexdigit())
                || !line.starts_with(start)
            {
                let what = format!("size probe {} [{features}]", m.target);
                return Err(format!("{what} printed {line:?}, not an id").into());
            }
            // The baseline's sizes, then each variant's difference from it (signed).
            let base = *baseline.get_or_insert(sizes);
            let diff: [i64; 5] = std::array::from_fn(|i| sizes[i] - base[i]);
            let cells = if features.is_empty() {
                sizes.map(|v| v.to_string())
            } else {
                diff.map(|v| format!("{v:+}"))
            };
            table += &row(m.target, label, cells);
            if BUDGETED.contains(&m.target) && features == "ids" && diff[3] > BUDGET {
                over_budget.push(format!(
                    "{}: {} bytes of flash, over {BUDGET}",
                    m.target, diff[3]
                ));
            }
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
    let args = format!(
        "build -p oid-embedded-firmware --no-default-features --profile {PROFILE} --bin {bin} \
         --target {target} --features={features}"
    );
    run(cargo(sh, &args))?;
    Ok(cargo_target_dir().join(target).join(PROFILE).join(bin))
}

/// Runs `elf` on `m` under QEMU, killed at [`RUN_TIMEOUT`] by coreutils' `timeout`; prints and
/// returns what it printed, or an error unless it exited with `code`.
fn run_qemu(sh: &Shell, m: &Machine, elf: &Path, code: i32) -> Result<String> {
    crate::provision::install(sh, crate::provision::Kit::Qemu)?;
    let qemu = crate::provision::unpacked(m.emulator);
    let mut c = Command::new("timeout");
    c.arg(RUN_TIMEOUT).arg(qemu.get_program());
    // The environment `unpacked` set for QEMU (its libraries), passed through `timeout`.
    for (key, value) in qemu.get_envs() {
        if let Some(value) = value {
            c.env(key, value);
        }
    }
    let fixed = "-nographic -semihosting-config enable=on,target=native -kernel";
    c.args(m.args.split(' ').chain(fixed.split(' '))).arg(elf);
    let output = c.stderr(Stdio::inherit()).output()?;
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    print!("{out}");
    let on = format!("{} on {}", m.target, m.args);
    match output.status.code() {
        Some(status) if status == code => Ok(out),
        // `timeout` exits 124 when it killed the run (the firmware itself exits 0 or 1).
        Some(124) | None => Err(format!("{on}: no exit within {RUN_TIMEOUT} s (killed)").into()),
        Some(status) => Err(format!("{on}: exit status {status}, expected {code}").into()),
    }
}
