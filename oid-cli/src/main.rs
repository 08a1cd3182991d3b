#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod cli;
mod error;
mod input;
mod inspect;
mod new;
mod range;
mod validate;
mod when;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command};
use crate::error::{Error, Status};

fn main() -> ExitCode {
    // Usage errors (unknown options, bad times) are reported by clap, with exit status 2.
    let cli = Cli::parse();
    let mut out = BufWriter::new(io::stdout().lock());
    let result = run(cli.command, &mut out).and_then(|status| {
        out.flush()?;
        Ok(status)
    });
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Invalid) => ExitCode::FAILURE,
        // The reader closed the pipe (`oid new 1000000 | head -1`): it has all it wanted.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "oid: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(command: Command, out: &mut impl Write) -> Result<Status, Error> {
    match command {
        Command::New(args) => new::run(&args, out),
        Command::Inspect(args) => inspect::run(&args, io::stdin().lock(), out, &mut io::stderr()),
        Command::Validate(args) => validate::run(&args, io::stdin().lock(), &mut io::stderr()),
        Command::Range(args) => range::run(&args, out),
        Command::Completions(args) => {
            // clap_complete panics on a failed write, so generate into memory first.
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "oid", &mut script);
            out.write_all(&script)?;
            Ok(Status::Ok)
        }
    }
}
