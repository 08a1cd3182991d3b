//! `cargo xtask firmware` and `cargo xtask size`: oid-embedded's example firmware
//! (`oid-embedded/firmware`) under QEMU, and the flash cost of generating ids.
//!
//! `firmware` builds the self-test for three Cortex-M targets and runs each on a QEMU machine
//! (with a timeout); a run passes when QEMU exits 0 through semihosting and the firmware printed
//! `selftest: ok`. `size` builds the `size` probe without and with its `ids` feature (and with
//! `device-id`) for thumbv6m and thumbv7em, runs each under QEMU to check it prints a valid id,
//! and reports the difference in `.text` and `.rodata` read from the ELF section headers.
//!
//! QEMU is looked up in `target/qemu` (where `.ci/provision.d/10-qemu.sh` unpacks it), then on
//! `PATH`; if neither works, that script is run once.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use xshell::{Shell, cmd};

use crate::ci::{Result, Runner, ensure_targets, project_root};

/// A thumb target and the QEMU machine that runs it.
struct Machine {
    target: &'static str,
    args: &'static [&'static str],
}

const MACHINES: &[Machine] = &[
    Machine {
        target: "thumbv7m-none-eabi",
        args: &["-machine", "lm3s6965evb", "-cpu", "cortex-m3"],
    },
    // A real Cortex-M0 (nRF51) without compare-and-swap: the critical-section path.
    Machine {
        target: "thumbv6m-none-eabi",
        args: &["-machine", "microbit"],
    },
    Machine {
        target: "thumbv7em-none-eabihf",
        args: &["-machine", "mps2-an386", "-cpu", "cortex-m4"],
    },
];

const PACKAGE: &str = "oid-embedded-firmware";
/// The Cargo profile of firmware builds (root Cargo.toml: release, opt-level "s").
const PROFILE: &str = "firmware";
/// A firmware run that takes longer than this has hung (a panic with `panic-halt`, a lost
/// interrupt): it is killed and fails. Normal runs take well under a second.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
/// The goal for generating and hex-formatting ids on thumbv6m (text + rodata).
const THUMBV6M_BUDGET: i64 = 2048;
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
        r.step(
            &format!("firmware self-test on {} ({})", m.target, m.args[1]),
            |sh| {
                let qemu = qemu(sh)?;
                let elf = build(sh, m.target, "selftest", "")?;
                let out = run_qemu(&qemu, m, &elf)?;
                if out.lines().any(|l| l.trim() == "selftest: ok") {
                    Ok(())
                } else {
                    Err("the firmware exited 0 but did not print `selftest: ok`".to_owned())
                }
            },
        );
    }
}

/// The `size` probe's variants: cargo features and what they add.
const VARIANTS: &[(&str, &str)] = &[
    ("", "baseline: prints a constant"),
    ("ids", "+ ids, seeded by a hardware RNG"),
    ("ids,device-id", "+ ids, seeded by device id (SipHash)"),
];

fn size_report(sh: &Shell) -> Result {
    let qemu = qemu(sh)?;
    let mut table = String::new();
    table += &format!(
        "{:<22} {:<38} {:>7} {:>7} {:>12} {:>6} {:>6}\n",
        "target", "variant", "text", "rodata", "text+rodata", "data", "bss"
    );
    let mut over_budget = Vec::new();
    for m in MACHINES.iter().filter(|m| m.target != "thumbv7m-none-eabi") {
        let mut baseline = None;
        for &(features, label) in VARIANTS {
            let elf = build(sh, m.target, "size", features)?;
            let sizes = Sizes::of(&elf)?;
            // The probe must really work: it prints the id it made (or the constant).
            let out = run_qemu(&qemu, m, &elf)?;
            let line = out.lines().next().unwrap_or("").trim();
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
                        "{:<22} {:<38} {:>7} {:>7} {:>12} {:>6} {:>6}\n",
                        m.target,
                        label,
                        sizes.text,
                        sizes.rodata,
                        sizes.text + sizes.rodata,
                        sizes.data,
                        sizes.bss
                    );
                    baseline = Some(sizes);
                }
                Some(base) => {
                    let d = sizes.minus(&base);
                    table += &format!(
                        "{:<22} {:<38} {:>+7} {:>+7} {:>+12} {:>+6} {:>+6}\n",
                        m.target,
                        label,
                        d.text,
                        d.rodata,
                        d.text + d.rodata,
                        d.data,
                        d.bss
                    );
                    if m.target == "thumbv6m-none-eabi"
                        && features == "ids"
                        && d.text + d.rodata > THUMBV6M_BUDGET
                    {
                        over_budget.push(format!(
                            "{}: {} bytes of text+rodata, over the {THUMBV6M_BUDGET}-byte goal",
                            m.target,
                            d.text + d.rodata
                        ));
                    }
                }
            }
        }
    }
    println!(
        "\nflash cost of generating and hex-formatting ids (profile `{PROFILE}`: opt-level \"s\", LTO;\n\
         bytes; rows below a baseline are differences from it)\n{table}"
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

/// A working `qemu-system-arm`: the one unpacked in `target/qemu`, else one on `PATH`, else
/// the one the provisioning script installs.
fn qemu(sh: &Shell) -> Result<PathBuf> {
    let local = project_root().join("target/qemu/qemu/usr/bin/qemu-system-arm");
    let works = |p: &Path| {
        Command::new(p)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if works(&local) {
        return Ok(local);
    }
    let on_path = PathBuf::from("qemu-system-arm");
    if works(&on_path) {
        return Ok(on_path);
    }
    eprintln!("qemu-system-arm not found: running {PROVISION_SCRIPT}");
    let script = project_root().join(PROVISION_SCRIPT);
    cmd!(sh, "bash {script}")
        .run()
        .map_err(|e| format!("{PROVISION_SCRIPT} failed: {e}"))?;
    [local, on_path]
        .into_iter()
        .find(|p| works(p))
        .ok_or_else(|| format!("qemu-system-arm still missing after {PROVISION_SCRIPT}"))
}

/// Runs `elf` on the machine; returns its semihosting output if QEMU exits 0 in time.
fn run_qemu(qemu: &Path, m: &Machine, elf: &Path) -> Result<String> {
    let mut child = Command::new(qemu)
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
        .map_err(|e| format!("starting {}: {e}", qemu.display()))?;
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
            Some(status) => break Some(status),
            None if start.elapsed() > RUN_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(20)),
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
    match status {
        None => Err(format!(
            "{} on {}: no exit within {} s (killed)",
            m.target,
            m.args[1],
            RUN_TIMEOUT.as_secs()
        )),
        Some(s) if s.success() => Ok(out),
        Some(s) => Err(format!(
            "{} on {}: QEMU exited with {s}",
            m.target, m.args[1]
        )),
    }
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

    const fn minus(&self, other: &Sizes) -> Sizes {
        Sizes {
            text: self.text - other.text,
            rodata: self.rodata - other.rodata,
            data: self.data - other.data,
            bss: self.bss - other.bss,
        }
    }
}

/// Reads the section headers of a little-endian ELF32 file (all the thumb targets) and sums the
/// sizes of allocated sections: executable ones as text, other read-only ones as rodata,
/// writable ones with contents as data, writable ones without (`SHT_NOBITS`) as bss.
fn section_sizes(elf: &[u8]) -> std::result::Result<Sizes, String> {
    const SHT_NOBITS: u32 = 8;
    const SHF_WRITE: u32 = 0x1;
    const SHF_ALLOC: u32 = 0x2;
    const SHF_EXECINSTR: u32 = 0x4;
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
    if shentsize < 40 {
        return Err(format!("section header entries of {shentsize} bytes"));
    }
    let mut sizes = Sizes {
        text: 0,
        rodata: 0,
        data: 0,
        bss: 0,
    };
    for i in 0..shnum {
        let at = shoff + i * shentsize;
        let kind = u32_at(at + 4)?;
        let flags = u32_at(at + 8)?;
        let size = i64::from(u32_at(at + 20)?);
        if flags & SHF_ALLOC == 0 {
            continue;
        }
        let slot = if flags & SHF_EXECINSTR != 0 {
            &mut sizes.text
        } else if flags & SHF_WRITE == 0 {
            &mut sizes.rodata
        } else if kind == SHT_NOBITS {
            &mut sizes.bss
        } else {
            &mut sizes.data
        };
        *slot += size;
    }
    Ok(sizes)
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
