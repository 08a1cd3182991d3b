//! Running a firmware image under QEMU with a timeout (`crate::provision` finds or installs
//! QEMU).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::Result;

/// A firmware run that takes longer than this has hung (a lost interrupt, a trap with no
/// handler): it is killed and fails. Normal runs take well under a second.
pub(super) const RUN_TIMEOUT: Duration = Duration::from_secs(30);

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

/// Runs `elf` with QEMU's `args` (machine and cpu), killed at [`RUN_TIMEOUT`] by coreutils'
/// `timeout`; prints and returns what it printed and how it ended.
pub(super) fn run_qemu(qemu: Command, m: &super::Machine, elf: &Path) -> Result<Run> {
    let mut c = Command::new("timeout");
    c.arg(RUN_TIMEOUT.as_secs().to_string())
        .arg(qemu.get_program());
    for (key, value) in qemu.get_envs() {
        if let Some(value) = value {
            c.env(key, value);
        }
    }
    let start = Instant::now();
    let output = c
        .args(m.args.split(' '))
        .args([
            "-nographic",
            "-semihosting-config",
            "enable=on,target=native",
            "-kernel",
        ])
        .arg(elf)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("starting {:?}: {e}", qemu.get_program()))?;
    // `timeout` exits 124 when it killed the run (the firmware itself exits 0 or 1).
    let status = output.status.code().filter(|&code| code != 124);
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    let err = String::from_utf8_lossy(&output.stderr);
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
        m.args,
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
