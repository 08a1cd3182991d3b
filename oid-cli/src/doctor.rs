//! `oid doctor`: what oid-std's process-wide generator uses on this machine (fork detection,
//! VM snapshot signals, entropy sources, policies), for a person or as JSON.

use std::io::Write;

use oid_std::CapacityPolicy;
use oid_std::diagnostics::{self, ForkDetection, Report, VmClockStatus};

use crate::cli::{DoctorArgs, DoctorFormat};
use crate::error::{Error, Status};

pub(crate) fn run(args: &DoctorArgs, out: &mut impl Write) -> Result<Status, Error> {
    let report = diagnostics::report();
    match args.format {
        DoctorFormat::Text => write_text(&report, out)?,
        DoctorFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &json(&report))
                .map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
    }
    Ok(Status::Ok)
}

const fn capacity(p: CapacityPolicy) -> &'static str {
    match p {
        CapacityPolicy::Wait => "wait",
        CapacityPolicy::Rotate => "rotate",
        CapacityPolicy::Fixed => "fixed",
        _ => "other",
    }
}

/// Whether a VM restore is seen whatever the clocks do.
fn restore_always_seen(r: &Report) -> bool {
    r.vmclock.in_use || r.snapshot_policy == oid_std::SnapshotPolicy::EveryId
}

fn write_text(r: &Report, out: &mut impl Write) -> std::io::Result<()> {
    let fork = match r.fork_detection {
        ForkDetection::WipeOnFork => "a MADV_WIPEONFORK page: every child, however it was forked",
        ForkDetection::AtFork => "pthread_atfork handler: children of the C library's fork()",
        ForkDetection::ProcessId => "process id compared on every id",
        ForkDetection::NoFork => "not needed: this system cannot copy a process",
        _ => "other",
    };
    writeln!(
        out,
        "fork detection    {} ({fork})",
        r.fork_detection.as_str()
    )?;
    let path = r.vmclock.path.display();
    let vmclock = match r.vmclock.status {
        VmClockStatus::Active => format!(
            "active at {path}, flags {:#x}, generation {}: a restore is seen before each thread's \
             next id",
            r.vmclock.flags, r.vmclock.generation
        ),
        VmClockStatus::NoGenerationCounter => format!(
            "present at {path}, flags {:#x}, but without the generation counter: not used",
            r.vmclock.flags
        ),
        VmClockStatus::Missing => format!("none at {path}"),
        VmClockStatus::Unreadable => {
            format!("{path} exists but cannot be opened or mapped (permissions?)")
        }
        VmClockStatus::MidUpdate => format!(
            "{path} is a VMClock page whose sequence count stayed odd through every read (the \
             hypervisor mid-update, or stuck): each block of ids draws a new random value until \
             it settles"
        ),
        VmClockStatus::Invalid => format!("{path} is not a VMClock page"),
        _ => "not read on this system".to_owned(),
    };
    writeln!(out, "vmclock           {vmclock}")?;
    if r.vmclock.rechecked {
        writeln!(
            out,
            "                  running processes without a working page look again at their \
             blocks of ids\n                  (every block in their first 10 s, then once a \
             second) and use one that appears or settles"
        )?;
    }
    let mapped = matches!(
        r.vmclock.status,
        VmClockStatus::Active | VmClockStatus::NoGenerationCounter | VmClockStatus::MidUpdate
    );
    if mapped {
        let replaced = if r.vmclock.replacement_seen {
            "a regular file: a replacement by rename is seen at each thread's next block"
        } else {
            "a device, updated in place (a replacement by rename is seen for regular files only)"
        };
        writeln!(out, "                  {replaced}")?;
    }
    writeln!(
        out,
        "boot clock        {}",
        if r.boot_clock {
            "yes: a wall-clock jump of more than 4 s against CLOCK_BOOTTIME is taken for a restore"
        } else {
            "no: wall-clock jumps are not compared"
        }
    )?;
    match r.entropy_error {
        None => writeln!(out, "entropy           getrandom: ok")?,
        Some(e) => writeln!(
            out,
            "entropy           getrandom failed ({e}): a fallback mix is used"
        )?,
    }
    writeln!(
        out,
        "cpu random        {}",
        r.cpu_random.map_or("none", |c| c.as_str())
    )?;
    writeln!(out, "cycle counter     {}", yes_no(r.cycle_counter))?;
    writeln!(out, "monotonic raw     {}", yes_no(r.monotonic_raw))?;
    writeln!(out, "capacity policy   {}", capacity(r.capacity_policy))?;
    writeln!(out, "snapshot policy   {}", r.snapshot_policy.as_str())?;
    writeln!(out)?;
    if r.vmclock.in_use {
        writeln!(
            out,
            "Two copies of a process restored from one VM snapshot share no id except the one\n\
             each thread is making at the instant of the snapshot{} (docs/uniqueness.md).",
            if r.vmclock.replacement_seen {
                " (after a replacement by rename, the\nrest of each thread's block of up to 256 ids)"
            } else {
                ""
            }
        )?;
    } else if r.snapshot_policy == oid_std::SnapshotPolicy::EveryId {
        writeln!(
            out,
            "Every id draws its own random value: two copies restored from one VM snapshot share\n\
             an id only when 40 random bits, the second and the counter all meet (about n / 2^40\n\
             expected common ids for n ids made by each; docs/uniqueness.md)."
        )?;
    } else {
        let seen = if r.boot_clock {
            "A VM restore is seen only when the wall clock moves more than 4 s against the boot\n\
             clock."
        } else {
            "A VM restore is not seen here."
        };
        writeln!(
            out,
            "{seen} Where copies may resume otherwise, call oid_std::reseed() in the restore\n\
             hook or set SnapshotPolicy::EveryId (docs/uniqueness.md, \"Snapshots and clones\")."
        )?;
    }
    Ok(())
}

const fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn json(r: &Report) -> serde_json::Value {
    serde_json::json!({
        "fork_detection": r.fork_detection.as_str(),
        "vmclock": {
            "path": r.vmclock.path.to_string_lossy(),
            "status": r.vmclock.status.as_str(),
            "in_use": r.vmclock.in_use,
            "flags": r.vmclock.flags,
            "generation": r.vmclock.generation,
            "rechecked": r.vmclock.rechecked,
            "replacement_seen": r.vmclock.replacement_seen,
        },
        "boot_clock": r.boot_clock,
        "entropy": {
            "source": "getrandom",
            "ok": r.entropy_error.is_none(),
            "error": r.entropy_error.map(|e| e.to_string()),
        },
        "cpu_random": r.cpu_random.map(|c| c.as_str()),
        "cycle_counter": r.cycle_counter,
        "monotonic_raw": r.monotonic_raw,
        "capacity_policy": capacity(r.capacity_policy),
        "snapshot_policy": r.snapshot_policy.as_str(),
        "restore_always_seen": restore_always_seen(r),
    })
}
