//! `cargo xtask`: everything CI does, runnable on a fresh machine. `cargo xtask --help` lists
//! the commands, `cargo xtask <command> --help` describes one; nothing runs on `--help`.

mod audit;
mod ci;
mod columns;
mod datafusion;
mod docsrs;
mod firmware;
mod nostd;
mod postgres;
mod provision;
mod readme_deps;
mod release;
#[cfg(test)]
mod tidy;
mod type_name;
mod userbuild;
mod util;
mod verify;
mod web;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser};

/// Project automation for the oid workspace. Every command installs what it needs on a fresh
/// machine (rustup targets and toolchains, QEMU, Chromium, the Python/npm peers, cargo-fuzz,
/// cargo-hack, cargo-deny, PostgreSQL); `provision` installs all of it up front.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
enum Cli {
    /// The whole CI, about 50 minutes on 2 cores: fmt, clippy, tests, rustdoc, the release
    /// check, msrv, no_std builds, the web page, firmware under QEMU and the verification
    /// steps. Prints its steps first; a failed step does not stop the others. The quick check
    /// while working is `cargo test --workspace`.
    Ci,
    /// Install every tool the other commands need (idempotent; never removes packages).
    Provision {
        /// Only downloads and installs: leave out the pinned toolchain's targets and Miri's
        /// sysroot build (what `ci` runs in the background while it compiles).
        #[arg(long)]
        installs_only: bool,
    },
    /// Every published crate (oid-cli too) checked with the workspace's rust-version
    /// toolchain, through `cargo hack --rust-version`, on the host and the thumb targets.
    Msrv,
    /// oid-core built alone for the thumb targets (thumbv6m, thumbv7em): the powerset of its
    /// base features, each no_std integration alone and all together.
    Nostd,
    /// Build the browser page (oid-web for wasm32, opt-level z + LTO) as one file,
    /// target/web/oid.html (the wasm inlined), and report its size.
    Web,
    /// `web`, then the page's end-to-end tests in headless Chromium and Firefox, opened by
    /// file:// (oid-web/e2e).
    WebTest,
    /// Every dependency line of ours in the READMEs built as written, in a scratch crate under
    /// target/readme-deps/, for the host and the targets its comment names.
    ReadmeDeps,
    /// oid-embedded's self-test firmware under QEMU (3 Cortex-M, 2 RISC-V machines).
    Firmware,
    /// Flash cost (text + rodata + data) of generating and hex-formatting ids on thumbv6m,
    /// thumbv7em and riscv32imc.
    Size,
    /// Differential test: ids and a string corpus through our parser, pymongo and js-bson.
    Diff,
    /// Build the cargo-fuzz targets and run each for SECS seconds.
    Fuzz {
        /// Seconds per fuzz target.
        #[arg(default_value_t = verify::CI_FUZZ_SECS)]
        secs: u64,
    },
    /// oid-arrow's Parquet and Arrow IPC files against pyarrow with pymongoarrow, Polars and
    /// DuckDB, both directions (their pinned releases installed into target/venv).
    Columns,
    /// `oid audit` on ids of 1,000 pymongo and 1,000 js-bson processes, without and with
    /// restarts: no finding (the differential test's peers).
    Audit,
    /// oid-core's unit and integration tests under Miri (nightly).
    Miri,
    /// oid-core's generator under the loom model checker (`--cfg loom`, release, target/loom).
    Loom,
    /// 8 threads x 1,000,000 ids, forced counter wraps, forks under load (release).
    Stress,
    /// The feature matrix through cargo-hack: each published crate with each feature alone
    /// (tests), oid-core's base features in every combination (check).
    Features,
    /// oid-core's `oid!` compile-fail tests (trybuild, without optional features).
    Ui,
    /// The workspace's docs as docs.rs builds them (`--cfg docsrs`, all features, `-D warnings`;
    /// RUSTC_BOOTSTRAP=1 for `doc_cfg`); fails on a cfg badge on oid-core's or oid-bson's pages
    /// that is not one of their features.
    Docsrs,
    /// `cargo publish --workspace --dry-run`: package the five crates and build each from its
    /// package, as the registry would.
    Package,
    /// `cargo deny check licenses bans sources` with deny.toml.
    Deny,
    /// Type-check oid-bson's README driver example (oid-bson/driver-example) against the real
    /// mongodb driver (compiled only: it needs a server to run).
    Driver,
    /// The newest releases a user gets: a scratch copy of the workspace (target/userbuild),
    /// `cargo update` on the newest stable toolchain ignoring rust-version, then every member
    /// but xtask tested with all features, `--locked`.
    Newest,
    /// The published crates with their direct dependencies at the declared minimums (nightly,
    /// `-Z direct-minimal-versions`), checked with all features, in a scratch copy.
    Minimal,
    /// The BSON serializer rule (it reads `core::any::type_name`) on real serializers:
    /// integrations/type-name on the newest stable and on beta, installed when missing
    /// (target/type-name).
    TypeName,
    /// integrations/loom-consumer, an application with statics of our generators, built and run
    /// with `RUSTFLAGS="--cfg loom"` (target/loom-consumer).
    LoomConsumer,
    /// oid-datafusion, a workspace of its own built in target/datafusion: fmt, clippy, its tests
    /// (Ballista clusters in one process and as three processes), rustdoc.
    Datafusion,
    /// SQL integration tests on a throwaway PostgreSQL server and SQLite; `sql bench [ARGS]`
    /// runs their criterion benchmark instead (ARGS go to criterion).
    Sql {
        /// `bench`, then criterion's arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let result = match Cli::from_arg_matches(&matches) {
        Err(e) => e.exit(),
        Ok(Cli::Ci) => ci::ci(None),
        Ok(Cli::Provision { installs_only }) => provision::provision(installs_only),
        Ok(Cli::Web) => web::web(),
        Ok(Cli::Fuzz { secs }) => verify::fuzz(secs),
        Ok(Cli::Sql { args }) if !args.is_empty() => postgres::sql_bench(&args),
        // Every other command runs its steps of `ci` (`ci.rs` marks them with `Runner::cmd`).
        Ok(_) => ci::ci(matches.subcommand_name()),
    };
    if let Err(e) = result {
        eprintln!("xtask: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn help_and_unknown_arguments_never_reach_a_command() {
        for args in [
            &["xtask", "ci", "--help"][..],
            &["xtask", "miri", "-h"],
            &["xtask", "--help"],
        ] {
            let e = Cli::try_parse_from(args).unwrap_err();
            assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp, "{args:?}");
            assert_eq!(e.exit_code(), 0);
        }
        for args in [
            &["xtask", "ci", "--fast"][..],
            &["xtask", "nostd", "extra"],
            &["xtask", "fuzz", "ten"],
            &["xtask", "launch"],
            &["xtask"],
        ] {
            let e = Cli::try_parse_from(args).unwrap_err();
            assert_ne!(e.exit_code(), 0, "{args:?}");
        }
        // `ci --help` states the same rough duration `cargo xtask ci` prints before it starts.
        let help = Cli::command()
            .find_subcommand_mut("ci")
            .map(|c| c.render_help().to_string())
            .unwrap_or_default();
        assert!(
            help.contains(&format!("about {} minutes", ci::ROUGH_MINUTES)),
            "{help}"
        );
        assert!(matches!(
            Cli::try_parse_from(["xtask", "fuzz", "30"]),
            Ok(Cli::Fuzz { secs: 30 })
        ));
        assert!(matches!(
            Cli::try_parse_from(["xtask", "sql", "bench", "--", "--quick"]),
            Ok(Cli::Sql { args }) if args == ["bench", "--", "--quick"]
        ));
    }
}
