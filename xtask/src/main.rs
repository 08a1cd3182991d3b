//! `cargo xtask`: everything CI does, runnable on a fresh machine.
//!
//! ```text
//! cargo xtask ci          # the whole CI: fmt, clippy, tests, docs, no_std builds, ...
//! cargo xtask provision   # install every tool the commands need (each command also installs its own)
//! cargo xtask msrv        # the library crates checked with the rust-version toolchain
//! cargo xtask nostd       # oid-core alone for the thumb targets, every feature combination
//! cargo xtask web         # the browser page (oid-web as wasm) into target/web/
//! cargo xtask web-test    # the page, then its end-to-end test in headless Chromium
//! cargo xtask firmware    # oid-embedded's self-test firmware under QEMU (3 Cortex-M, 2 RISC-V targets)
//! cargo xtask size        # flash cost of generating and hex-formatting ids (thumbv6m, thumbv7em, riscv32imc)
//! cargo xtask diff        # differential test against pymongo and js-bson (see TESTING.md)
//! cargo xtask fuzz [secs] # each cargo-fuzz target for secs seconds (default 12)
//! cargo xtask miri        # oid-core's tests under Miri
//! cargo xtask loom        # oid-core's generator under the loom model checker
//! cargo xtask stress      # threads, forced counter wraps, forks under load
//! cargo xtask features    # each library crate with each feature; oid-core in every combination
//! cargo xtask sql [bench] # SQL integration tests (or benchmark) on a throwaway PostgreSQL + SQLite
//! ```

mod ci;
mod firmware;
mod msrv;
mod nostd;
mod postgres;
mod provision;
#[cfg(test)]
mod tidy;
mod util;
mod verify;
mod web;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

Every command installs what it needs on a fresh machine (rustup targets and toolchains, QEMU,
Chromium, the Python/npm peers, cargo-fuzz); `provision` installs all of it up front.

commands:
  ci       fmt check, clippy -D warnings, tests (all features and no default features; the
           tidy checks are xtask tests), the release-only tests (oid-std capacity, oid-cli
           40 M ids), rustdoc -D warnings, msrv, nostd, web-test, firmware, size, and the
           verification steps (diff, fuzz, miri, stress, loom, features); reports every failure
  provision  install every tool the other commands need (idempotent; never removes packages)
  msrv     install the rust-version toolchain (rustup, profile minimal) if missing and
           `cargo +MSRV check` oid-core (host, thumbv7em, thumbv6m with portable-atomic +
           critical-section), oid-std, oid-bson and oid-embedded with their features
  nostd    only the thumb no_std builds of oid-core
  web      build the browser page (oid-web for wasm32, opt-level z + LTO) into target/web/
           and report the .wasm size
  web-test web, then the page's end-to-end test in headless Chromium (oid-web/e2e)
  firmware build oid-embedded's self-test firmware and run it under QEMU on thumbv7m
           (lm3s6965evb), thumbv6m (microbit), thumbv7em (mps2-an386), riscv32imc
           (sifive_e, Ibex and rv32 without A) and riscv32imac (sifive_e)
  size     flash cost (text + rodata + data) of generating and hex-formatting ids on
           thumbv6m, thumbv7em and riscv32imc: the size probe with and without them
  diff     differential test: 10,000 ids from `oid new`, 10,000 from oid_std::new() and a
           10,000-string corpus through our parser, pymongo and js-bson
  fuzz [SECS]  build the cargo-fuzz targets, run each for SECS seconds (default 12)
  miri     oid-core's unit and integration tests under Miri (nightly)
  loom     oid-core's generator under loom (`--cfg loom`, release, target/loom; about 2 min)
  stress   8 threads x 1,000,000 ids, forced counter wraps, forks under load (release)
  features each library crate alone with no feature and with each feature (tests), and
           oid-core checked in every feature combination
  sql [bench [ARGS]]  sql-tests (sqlx, postgres-types, rusqlite) against a throwaway
           PostgreSQL server (installed with apt when missing) and SQLite; `bench` runs
           their criterion benchmark instead
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match cmd.as_str() {
        "ci" => ci::ci(),
        "provision" => provision::provision(),
        "msrv" => msrv::msrv(),
        "nostd" => nostd::nostd(),
        "web" => web::web(),
        "web-test" => web::web_test(),
        "firmware" => firmware::firmware(),
        "size" => firmware::size(),
        "diff" => verify::diff(),
        "fuzz" => verify::fuzz(args.get(1).map(String::as_str)),
        "miri" => verify::miri(),
        "loom" => verify::loom(),
        "stress" => verify::stress(),
        "features" => verify::features(),
        "sql" => postgres::sql(&args[1..]),
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
