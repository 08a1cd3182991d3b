//! The process-wide generator with a VMClock page given by `OID_STD_VMCLOCK` (a regular file of
//! the `vmclock_abi` layout, as containers and tests provide it). The variable is read at the
//! process's first look, so each case runs in a fresh copy of this test binary.
#![cfg(target_os = "linux")]

use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use oid_std::diagnostics::{self, VmClockStatus};

const ROLE: &str = "OID_STD_TEST_VMCLOCK_ROLE";

fn page(path: &Path, flags: u64, generation: u64) -> std::io::Result<()> {
    let mut page = vec![0u8; 4096];
    page[0..4].copy_from_slice(&0x4b4c_4356u32.to_le_bytes()); // "VCLK"
    page[4..8].copy_from_slice(&4096u32.to_le_bytes());
    page[8..10].copy_from_slice(&1u16.to_le_bytes());
    page[24..32].copy_from_slice(&flags.to_le_bytes());
    page[104..112].copy_from_slice(&generation.to_le_bytes());
    std::fs::write(path, page)
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("oid-std-vmclock-{}-{name}", std::process::id()))
}

/// Runs this test in a new process with the page at `path` and `role`: its output if it failed.
fn run_as(role: &str, path: &Path) -> Option<String> {
    let out = std::env::current_exe().and_then(|exe| {
        Command::new(exe)
            .args([
                "--exact",
                "the_generator_follows_the_page_named_by_the_variable",
            ])
            .env("OID_STD_VMCLOCK", path)
            .env(ROLE, role)
            .output()
    });
    match out {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "{role}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(e) => Some(format!("{role}: {e}")),
    }
}

#[test]
fn the_generator_follows_the_page_named_by_the_variable() {
    let path = std::env::var_os("OID_STD_VMCLOCK").map(PathBuf::from);
    match (std::env::var(ROLE).as_deref(), path) {
        (Ok("active"), Some(path)) => {
            let report = diagnostics::report();
            assert_eq!(report.vmclock.path, path);
            assert_eq!(report.vmclock.status, VmClockStatus::Active);
            assert!(report.vmclock.in_use);
            assert_eq!(
                (report.vmclock.flags, report.vmclock.generation),
                (1 << 8, 5)
            );
            let before = oid_std::new();
            let same = oid_std::new();
            assert_eq!(before.to_parts().random, same.to_parts().random);
            // The "hypervisor" restores a snapshot: the next id has a new random value.
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .expect("open");
            f.write_all_at(&6u64.to_le_bytes(), 104).expect("bump");
            let after = oid_std::new();
            assert_ne!(before.to_parts().random, after.to_parts().random);
            assert_eq!(diagnostics::report().vmclock.generation, 6);
        }
        (Ok("no-flag"), Some(_)) => {
            let report = diagnostics::report();
            assert_eq!(report.vmclock.status, VmClockStatus::NoGenerationCounter);
            assert!(!report.vmclock.in_use);
        }
        (Ok("missing"), Some(_)) => {
            let report = diagnostics::report();
            assert_eq!(report.vmclock.status, VmClockStatus::Missing);
            assert!(!report.vmclock.in_use);
            let (a, b) = (oid_std::new(), oid_std::new());
            assert!(a < b);
        }
        (Ok("appears"), Some(path)) => {
            // A running process: no page at its first id, one later (a driver loaded by udev
            // after early services). Its next refill picks it up, with a new random value.
            assert_eq!(diagnostics::report().vmclock.status, VmClockStatus::Missing);
            assert!(diagnostics::report().vmclock.rechecked);
            let before = oid_std::new();
            page(&path, 1 << 8, 5).expect("writing the page");
            // Ids until the thread's block is used up and refilled.
            let after = (0..1_000)
                .map(|_| oid_std::new())
                .find(|id| id.to_parts().random != before.to_parts().random);
            assert!(after.is_some(), "the page was not picked up");
            let report = diagnostics::report();
            assert_eq!(report.vmclock.status, VmClockStatus::Active);
            assert!(report.vmclock.in_use);
            assert!(report.vmclock.replacement_seen, "a regular file");
        }
        (Ok("invalid"), Some(_)) => {
            assert_eq!(diagnostics::report().vmclock.status, VmClockStatus::Invalid);
        }
        _ => {
            let active = scratch("active");
            page(&active, 1 << 8, 5).expect("writing the page");
            assert_eq!(run_as("active", &active), None);
            let no_flag = scratch("no-flag");
            page(&no_flag, 0, 5).expect("writing the page");
            assert_eq!(run_as("no-flag", &no_flag), None);
            assert_eq!(run_as("missing", &scratch("missing")), None);
            let appears = scratch("appears");
            assert_eq!(run_as("appears", &appears), None);
            let invalid = scratch("invalid");
            std::fs::write(&invalid, vec![0u8; 4096]).expect("write");
            assert_eq!(run_as("invalid", &invalid), None);
            for p in [active, no_flag, invalid, appears] {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}
