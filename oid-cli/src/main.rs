#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod audit;
mod cli;
mod columns;
mod convert;
mod doctor;
mod error;
mod format;
mod input;
mod inspect;
mod new;
mod output;
mod progress;
mod range;
mod sql;
mod stderr;
mod validate;
mod when;

use std::io::{self, BufReader, BufWriter, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command};
use crate::error::{Error, Status};
use crate::stderr::Stderr;

fn main() -> ExitCode {
    // Usage errors (unknown options, bad times) are reported by clap, with exit status 2.
    let cli = Cli::parse();
    if let Command::Sql(args) = &cli.command {
        return match sql::run(args) {
            Ok(code) => ExitCode::from(code),
            Err(e) => {
                eprintln!("oid: {e}");
                ExitCode::from(e.exit_code())
            }
        };
    }
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut err = Stderr::new();
    let result = run(cli.command, &mut out, &mut err).and_then(|status| {
        out.flush()?;
        Ok(status)
    });
    let code = match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Invalid) => ExitCode::FAILURE,
        Ok(Status::Unreadable) => ExitCode::from(2),
        // The reader closed the pipe (`oid new 1000000 | head -1`): it has all it wanted.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "oid: {e}");
            ExitCode::from(e.exit_code())
        }
    };
    // Whatever is still buffered; a failure has nowhere left to be said.
    let _ = err.flush();
    code
}

fn run(command: Command, out: &mut impl Write, err: &mut Stderr) -> Result<Status, Error> {
    let writes_stdout = match &command {
        Command::Validate(_) => false,
        Command::Convert(args) => args.output.as_os_str() == "-",
        _ => true,
    };
    if writes_stdout && closed_at_start(1) {
        return Err(Error::StdoutClosed);
    }
    match command {
        Command::New(args) => new::run(&args, out),
        Command::Inspect(args) => inspect::run(&args, stdin(), out, err),
        Command::Validate(args) => validate::run(&args, stdin(), err),
        Command::Convert(args) => convert::run(&args, stdin(), out, err),
        Command::Audit(args) => audit::run(&args, stdin(), out, err),
        // Run by `main` before standard output is set up.
        Command::Sql(args) => sql::run(&args).map(|_| Status::Ok),
        Command::Range(args) => range::run(&args, out),
        Command::Doctor(args) => doctor::run(&args, out),
        Command::Completions(args) => {
            // clap_complete panics on a failed write, so generate into memory first.
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "oid", &mut script);
            out.write_all(&script)?;
            Ok(Status::Ok)
        }
    }
}

/// Standard input, read [`input::READ_BUFFER`] bytes at a time (its own buffer holds 8 KiB).
fn stdin() -> BufReader<io::StdinLock<'static>> {
    BufReader::with_capacity(input::READ_BUFFER, io::stdin().lock())
}

/// Whether standard descriptor `fd` was closed when the process started.
///
/// The Rust runtime opens `/dev/null` read-write on a standard descriptor that is closed at
/// start, so writes to a closed standard output would silently succeed. A shell's
/// `>/dev/null` opens it write-only; so `/dev/null` opened read-write is taken for a closed
/// descriptor (Linux, read from `/proc`; elsewhere this answers `false`).
fn closed_at_start(fd: u8) -> bool {
    let Ok(target) = std::fs::read_link(format!("/proc/self/fd/{fd}")) else {
        return false;
    };
    if target.as_os_str() != "/dev/null" {
        return false;
    }
    let Ok(info) = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")) else {
        return false;
    };
    fdinfo_read_write(&info)
}

/// Whether the `flags:` line of a `/proc/self/fdinfo` file says `O_RDWR` (octal, access mode 2).
fn fdinfo_read_write(info: &str) -> bool {
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 == 0o2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fdinfo_access_mode() {
        assert!(fdinfo_read_write("pos:\t0\nflags:\t0100002\nmnt_id:\t24\n"));
        assert!(!fdinfo_read_write(
            "pos:\t0\nflags:\t0100001\nmnt_id:\t24\n"
        ));
        assert!(!fdinfo_read_write("pos:\t0\n"));
    }
}
