//! Running a firmware image under QEMU with a timeout (`crate::provision` finds or installs
//! QEMU).

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
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

/// Runs `elf` with QEMU's `args` (machine and cpu) and a timeout; prints and returns what it
/// printed and how it ended. `label` names the run in messages.
pub(super) fn run_qemu(
    mut qemu: std::process::Command,
    args: &[&str],
    label: &str,
    elf: &Path,
) -> Result<Run> {
    let mut child = qemu
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
        .map_err(|e| format!("starting {:?}: {e}", qemu.get_program()))?;
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
        match child.try_wait()? {
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
