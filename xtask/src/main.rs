//! `cargo xtask`: everything CI does, runnable on a fresh machine.
//!
//! ```text
//! cargo xtask ci          # the whole CI: fmt, clippy, tests, docs, no_std builds, ...
//! cargo xtask nostd       # oid-core alone for the thumb targets, every feature combination
//! ```

mod ci;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  ci       fmt check, clippy -D warnings, tests (all features and no default features),
           rustdoc -D warnings, and oid-core built alone for thumbv6m/thumbv7em in every
           feature combination; reports every failure, not just the first
  nostd    only the thumb no_std builds of oid-core
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match cmd.as_str() {
        "ci" => ci::ci(),
        "nostd" => ci::nostd_only(),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => {
            eprintln!("xtask: unknown command {other:?}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
