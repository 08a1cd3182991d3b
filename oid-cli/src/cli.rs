//! The command line, declared with clap's derive API. Doc comments are the help text.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use clap_complete::Shell;

use crate::format::{ConvertFormat, InputFormat, InspectFormat, NewFormat};
use crate::when::{self, Time};

const MAIN_EXAMPLES: &str = "\
Examples:
  oid new 5                                  five new ids, one per line
  oid inspect 'ObjectId(\"507f1f77bcf86cd799439011\")'
                                             when was it made, and its fields
  oid validate -f ids.txt                    report every line that is not an id
  oid range 2024-01-01 2024-02-01            a MongoDB filter for ids made in January 2024
  oid convert ids.txt -o ids.parquet         hex lines to a Parquet ObjectId column
  oid sql --help                             SQL over ObjectId columns (the oid-sql command)
  oid completions bash > ~/.local/share/bash-completion/completions/oid

Exit status: 0 on success (also when the reader of the output closed it early, as `| head`
does), 1 when an input id was invalid or the command failed (including a failed write), 2 for a
command line that cannot work (unknown option, bad time, empty window) or an input that cannot
be read (a missing file, a corrupt Parquet file, a missing column).

Install or update from a checkout of https://github.com/oid-rs/oid with
`cargo install --path oid-cli` (the crates are not on crates.io yet; once they are,
`cargo install oid-cli`: the crate named `oid` is an unrelated project).";

const NEW_EXAMPLES: &str = "\
Examples:
  oid new                        one id
  oid new 1000 > ids.txt         a thousand, one per line
  oid new 3 --time 1700000000    as of 2023-11-14T22:13:20Z (Unix seconds)
  oid new 3 --time 2024-01-01T00:00:00+01:00
  oid new 3 --time -1h           as of an hour ago
  oid new 2 --format mongosh     ObjectId(\"…\") lines
  oid new --legacy               machine id and process id instead of the random value
  oid new 2 --legacy --json      with the legacy fields in the JSON
  oid new 1000000 -o ids.parquet a Parquet file, one ObjectId column `_id` (pymongoarrow's type)

All ids of one run share one random value and have consecutive counters. One second holds
16777216 (2^24) ids of a random value: past that, `oid new` waits for the next second (and
says so once on standard error, unless --quiet), so it never prints a repeat. With --time
every id has the same second, so COUNT can be at most 16777216. --upper is for the hex format
only: the other formats write ids in lower case, as MongoDB does. Parquet and Arrow IPC
(`--format parquet|arrow|arrow-stream`, or by -o's extension) write one column `_id` of
pymongoarrow's ObjectId type, which pyarrow, Polars, DuckDB and `oid inspect` read.";

const INSPECT_EXAMPLES: &str = "\
Examples:
  oid inspect 507f1f77bcf86cd799439011
  oid inspect 'ObjectId(\"507f1f77bcf86cd799439011\")' '{\"$oid\": \"6553f1003f2a91c8d4003039\"}'
  oid inspect --format json -f ids.txt
  oid new 3 | oid inspect --json | jq .time
  oid inspect --legacy 507f1f77bcf86cd799439011   with the legacy machine id and process id
  oid inspect --format hex -f ids.parquet         the ObjectId column of a Parquet file
  oid inspect --column user -f events.arrow       a named column of ids or of hex text

Ids are read from the arguments, then the files given with -f (`-` is standard input), or
from standard input, one per line, when there are neither. Accepted forms: bare hex (any
case), hex in quotes, ObjectId(\"…\"), ObjectId('…'), new ObjectId(\"…\") and {\"$oid\": \"…\"}.
Parquet and Arrow IPC files (told by their first bytes, then their extension) are read by
column: the file's ObjectId column (pymongoarrow's type, or the one fixed_size_binary[12]
column), or --column NAME, ids or text in the forms above; rows are counted from 0, and a null
row is no id (skipped, not invalid). A file that cannot be read (missing, corrupt, no such
column) is reported and the exit status is 2.
Surrounding whitespace and a byte order mark are ignored, blank lines skipped, lines over 4096
bytes reported as too long; an argument or line that is not UTF-8 is reported as such. An
invalid id is reported on standard error (with its argument or line number) and the exit
status is then 1; the others are still inspected. When standard input is read and holds no
ids (empty or closed), that is said on standard error.

The legacy fields (--legacy) are an interpretation of the layout old drivers used, not a
record: they read the 5 bytes after the time as a 3-byte machine id and a 2-byte process id.
Ids made by current drivers (and by `oid new` without --legacy) hold a random value there, so
for them these fields mean nothing.";

const VALIDATE_EXAMPLES: &str = "\
Examples:
  oid validate 507f1f77bcf86cd799439011 xyz
  oid validate -f ids.txt && echo all valid
  mongoexport ... | oid validate
  oid validate --column user_id -f events.parquet  a column of hex text

Ids are read as by `oid inspect`, lines or the column of a Parquet or Arrow IPC file. Each
invalid one is reported on standard error as
`oid: line 7: \"xyz\": invalid length: expected 24 hex characters, found 3` (a row of a column:
`oid: events.parquet: row 6: …`); valid ones print nothing. A summary (`N valid, M invalid`,
and `, K null` when a column had null rows, which are not invalid) ends the run on standard
error. Exit status 0 only if every input was a valid id or null; 2 if a file could not be
read.";

const RANGE_EXAMPLES: &str = "\
Examples:
  oid range 2024-01-01 2024-02-01          January 2024
  oid range -1h                            the last hour, and on (no end)
  oid range 1700000000 1700086400 --json
  oid range .. 2024-01-01                  everything before 2024

The range is half-open, [FROM, TO): the filter is
  {\"_id\": {\"$gte\": {\"$oid\": MIN}, \"$lt\": {\"$oid\": END}}}
where MIN is the smallest id of the second FROM is in, and END the smallest id of the first
second that starts at or after TO (a fractional TO is rounded up, so no id made before TO is
missed). An open end (`..`, or TO omitted) reaches the last second an id can hold,
2106-02-07T06:28:15Z, with {\"$lte\": {\"$oid\": \"ffffffffffffffffffffffff\"}}.";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  oid completions bash > ~/.local/share/bash-completion/completions/oid
  oid completions zsh > \"${fpath[1]}/_oid\"
  oid completions fish > ~/.config/fish/completions/oid.fish";

/// Generate, inspect and validate MongoDB ObjectIds, and build creation-time range filters.
#[derive(Debug, Parser)]
#[command(name = "oid", version, after_help = MAIN_EXAMPLES)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Generate new ids, one per line
    #[command(after_help = NEW_EXAMPLES)]
    New(NewArgs),
    /// Show what an id holds: creation time, random value, counter (old drivers' fields with --legacy)
    #[command(after_help = INSPECT_EXAMPLES)]
    Inspect(InspectArgs),
    /// Check ids; report each invalid one with its line number and the reason
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate(ValidateArgs),
    /// The min and max ids of a creation-time range, and a MongoDB filter for it
    #[command(after_help = RANGE_EXAMPLES)]
    Range(RangeArgs),
    /// Find duplicates, shared random values, clock faults and weak seeds in a collection's ids
    #[command(after_help = crate::audit::AUDIT_EXAMPLES)]
    Audit(crate::audit::AuditArgs),
    /// Convert ids between hex lines and Parquet or Arrow IPC ObjectId columns
    #[command(after_help = CONVERT_EXAMPLES)]
    Convert(ConvertArgs),
    /// SQL over ObjectId columns: runs the `oid-sql` command (installed separately)
    #[command(after_help = SQL_EXAMPLES, disable_help_flag = true)]
    Sql(SqlArgs),
    /// Print a shell completion script
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Show what the id generator uses on this machine: fork detection, VM snapshot signals, entropy
    #[command(after_help = DOCTOR_EXAMPLES)]
    Doctor(DoctorArgs),
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub(crate) struct NewArgs {
    /// How many ids to generate: a whole number, 0 or more
    #[arg(default_value_t = 1, value_parser = parse_count)]
    pub(crate) count: u64,
    /// Generate as of this time: RFC 3339 (2024-01-01T00:00:00Z; no offset means UTC), a date
    /// (2024-01-01, midnight UTC), now, relative (-1h, +30m, -7d) or Unix seconds (1700000000);
    /// also as pasted: an ObjectId in any form (its second), ISODate("…"), new Date(…) or
    /// {"$date": …}
    #[arg(long, value_name = "TIME", value_parser = when::parse_arg, allow_hyphen_values = true)]
    pub(crate) time: Option<Time>,
    /// Legacy layout: machine id (MD5 of the host name) and process id instead of the random value
    #[arg(long)]
    pub(crate) legacy: bool,
    /// Output format [default: hex; with -o, by OUT's extension: .parquet, .pq, .arrow,
    /// .feather, .ipc, .arrows]
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) format: Option<NewFormat>,
    /// The same as --format json
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
    /// Write to this file (whole or not at all) instead of standard output (`-`)
    #[arg(short, long, value_name = "OUT")]
    pub(crate) output: Option<PathBuf>,
    /// Upper-case hex (with --format hex only; refused with the other formats)
    #[arg(long, conflicts_with = "json")]
    pub(crate) upper: bool,
    /// Never wait: when a second's 2^24 ids are spent, go on at once with a new random value
    /// (still never a repeat). Costs more random values in use per run: slightly higher odds of
    /// sharing one with another process (docs/uniqueness.md). Not with --legacy, whose machine
    /// and process ids cannot change
    #[arg(long, conflicts_with = "legacy")]
    pub(crate) rotate: bool,
    /// Do not say on standard error when waiting for the next second
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

impl NewArgs {
    /// The format asked for, `--json` included, else the one OUT's extension names.
    pub(crate) fn format(&self) -> NewFormat {
        match (self.json, self.format, &self.output) {
            (true, ..) => NewFormat::Json,
            (false, Some(format), _) => format,
            (false, None, Some(output)) => NewFormat::of_path(output),
            (false, None, None) => NewFormat::Hex,
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct InspectArgs {
    /// Ids to inspect (default: read standard input, one per line)
    #[arg(value_name = "ID", value_parser = clap::value_parser!(OsString))]
    pub(crate) ids: Vec<OsString>,
    /// Read ids from this file, one per line (`-` for standard input); repeatable
    #[arg(short, long = "file", value_name = "PATH")]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
    /// Output format
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub(crate) format: InspectFormat,
    /// The same as --format json
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
    /// Also show the legacy reading, machine id and process id: an interpretation of the
    /// layout old drivers used, meaningless for ids with a random value (see below)
    #[arg(long)]
    pub(crate) legacy: bool,
}

impl InspectArgs {
    /// The format asked for, `--json` included.
    pub(crate) const fn format(&self) -> InspectFormat {
        if self.json {
            InspectFormat::Json
        } else {
            self.format
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// Ids to check (default: read standard input, one per line)
    #[arg(value_name = "ID", value_parser = clap::value_parser!(OsString))]
    pub(crate) ids: Vec<OsString>,
    /// Read ids from this file, one per line (`-` for standard input); repeatable
    #[arg(short, long = "file", value_name = "PATH")]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

/// How the files of `inspect`, `validate` and `convert` are read.
#[derive(Clone, Debug, Default, Args)]
pub(crate) struct ReadArgs {
    /// How to read the files: `auto` tells Parquet and Arrow IPC files by their first bytes,
    /// then by their extension (.parquet, .pq, .arrow, .arrows, .feather, .ipc); other files
    /// are lines
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    pub(crate) input_format: InputFormat,
    /// The column of Parquet and Arrow files to read: ids (pymongoarrow's ObjectId type or
    /// `fixed_size_binary[12]`) or text (any form the lines hold). Default: the file's one
    /// ObjectId column
    #[arg(long, value_name = "NAME")]
    pub(crate) column: Option<String>,
}

const CONVERT_EXAMPLES: &str = "\
Examples:
  oid convert ids.txt -o ids.parquet         hex lines to a Parquet ObjectId column `_id`
  oid convert ids.parquet -o -               a Parquet ObjectId column to hex lines
  oid convert --column user events.parquet -o users.arrow
                                             a column of hex text to an Arrow IPC ObjectId column
  mongoexport ... | oid convert -o ids.txt   pasted ids (ObjectId(\"…\"), {\"$oid\": …}) to hex lines

Ids are read from the files IN (`-` is standard input; standard input when there are none):
lines in any form `oid inspect` reads, or the column of a Parquet or Arrow IPC file, as
`oid inspect` reads them. OUT is written in --format, else by its extension (.parquet, .pq;
.arrow, .feather, .ipc: an Arrow IPC file; .arrows: an Arrow IPC stream), else as hex lines;
`-o -` is standard output, hex lines unless --format says otherwise. A column written is one
column `_id` of pymongoarrow's ObjectId type (fixed_size_binary[12]), which pyarrow, Polars and
DuckDB read. A null row stays a null in a column and is left out of hex lines. Invalid ids are
reported on standard error as `oid validate` reports them and left out; the exit status is
then 1. OUT is written whole or not at all: a file is written under a temporary name and
renamed at the end, and an input that cannot be read (exit status 2) leaves it untouched. On a
terminal, a long conversion shows a progress bar on standard error.";

const SQL_EXAMPLES: &str = "\
Examples:
  oid sql --help                             the options of oid-sql

`oid sql ARGS...` runs the `oid-sql` command with ARGS: the one next to the `oid` executable,
else the first on PATH, and exits with its status. Install it from a checkout with
`cargo install --path oid-datafusion`.";

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// Files to read: lines, or Parquet and Arrow IPC files (`-` for standard input; default:
    /// standard input)
    #[arg(value_name = "IN")]
    pub(crate) inputs: Vec<PathBuf>,
    /// Where to write: a file, or `-` for standard output
    #[arg(short, long, value_name = "OUT")]
    pub(crate) output: PathBuf,
    /// Output format [default: by OUT's extension, else hex]
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) format: Option<ConvertFormat>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

/// The arguments of `oid sql`, passed to `oid-sql` as they are.
#[derive(Debug, Args)]
pub(crate) struct SqlArgs {
    /// Arguments for oid-sql (see `oid sql --help`)
    #[arg(
        value_name = "ARGS",
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_parser = clap::value_parser!(OsString)
    )]
    pub(crate) args: Vec<OsString>,
}

/// A COUNT: a whole number of ids, 0 or more. Anything else is refused with what a count is,
/// rather than the integer parser's "invalid digit found in string".
fn parse_count(s: &str) -> Result<u64, String> {
    s.parse().map_err(|_| {
        let what = "a count is how many ids to make: a whole number from 0 to";
        match s.strip_prefix('-') {
            Some(rest) if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
                format!("{what} {}; it cannot be negative", u64::MAX)
            }
            _ if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
                format!("{what} {}; this is too many", u64::MAX)
            }
            _ => format!("{what} {}, such as 10", u64::MAX),
        }
    })
}

/// One end of a range: a time, or open (`..`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    Open,
    At(Time),
}

fn parse_end(s: &str) -> Result<End, when::TimeError> {
    if s.trim() == ".." {
        Ok(End::Open)
    } else {
        when::parse_arg(s).map(End::At)
    }
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub(crate) struct RangeArgs {
    /// Start of the range, inclusive, or `..` for none. Times: RFC 3339 (2024-01-01T00:00:00Z;
    /// no offset means UTC), a date (2024-01-01, midnight UTC), now, relative (-1h, +30m, -7d)
    /// or Unix seconds (1700000000); also as pasted: an ObjectId in any form (its second),
    /// ISODate("…"), new Date(…) or {"$date": …}
    #[arg(value_parser = parse_end, allow_hyphen_values = true)]
    pub(crate) from: End,
    /// End of the range, exclusive; `..` or omitted for none (up to the last second an id can
    /// hold, included)
    #[arg(value_parser = parse_end, allow_hyphen_values = true)]
    pub(crate) to: Option<End>,
    /// One JSON object with the bounds and the filter
    #[arg(long)]
    pub(crate) json: bool,
}

const DOCTOR_EXAMPLES: &str = "\
Examples:
  oid doctor                    for a person
  oid doctor --format json      for a script

It reports what oid-std's generator (the one `oid new` and `ObjectId::new()` use) relies on
here: how a forked child is detected, whether a VM snapshot restore is seen (a VMClock page at
/dev/vmclock0 or $OID_STD_VMCLOCK, the boot clock), the entropy sources mixed into new random
values, and the process-wide policies. Exit status 0.";

/// The output of `oid doctor`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DoctorFormat {
    /// Lines for a person
    #[default]
    Text,
    /// One JSON object
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Output format
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    pub(crate) format: DoctorFormat,
}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to write completions for
    pub(crate) shell: Shell,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_help_names_the_crate_to_install() {
        let help = Cli::command().render_long_help().to_string();
        assert!(help.contains("cargo install --path oid-cli"), "{help}");
        assert!(help.contains("cargo install oid-cli"), "{help}");
        assert!(
            help.contains("the crate named `oid` is an unrelated project"),
            "{help}"
        );
    }

    #[test]
    fn every_command_has_examples() {
        let mut cmd = Cli::command();
        assert!(cmd.get_after_help().is_some());
        for sub in cmd.get_subcommands_mut() {
            let help = sub.render_help().to_string();
            assert!(help.contains("Examples:"), "{}: {help}", sub.get_name());
        }
    }

    /// The time forms, as every time argument's help lists them.
    const TIME_FORMS: &str = "RFC 3339 (2024-01-01T00:00:00Z; no offset means UTC), a date \
                              (2024-01-01, midnight UTC), now, relative (-1h, +30m, -7d) or \
                              Unix seconds (1700000000); also as pasted: an ObjectId in any form \
                              (its second), ISODate(\"…\"), new Date(…) or {\"$date\": …}";

    #[test]
    fn a_bad_count_says_what_a_count_is() {
        assert_eq!(parse_count("0"), Ok(0));
        assert_eq!(parse_count("18446744073709551615"), Ok(u64::MAX));
        let what = "a count is how many ids to make: a whole number from 0 to 18446744073709551615";
        assert_eq!(
            parse_count("-5"),
            Err(format!("{what}; it cannot be negative"))
        );
        assert_eq!(
            parse_count("18446744073709551616"),
            Err(format!("{what}; this is too many"))
        );
        for bad in ["", "-", "five", "1e3", "2.5", "0x10", " 3"] {
            assert_eq!(
                parse_count(bad),
                Err(format!("{what}, such as 10")),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn time_help_lists_every_form() {
        let help = Cli::command()
            .find_subcommand_mut("new")
            .unwrap()
            .render_long_help()
            .to_string();
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(TIME_FORMS), "{flat}");
        let range = Cli::command()
            .find_subcommand_mut("range")
            .unwrap()
            .render_long_help()
            .to_string();
        let flat = range.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(&TIME_FORMS[TIME_FORMS.find("RFC").unwrap()..]),
            "{flat}"
        );
    }

    #[test]
    fn help_shows_the_defaults() {
        for (sub, default) in [
            ("new", "[default: hex; with -o, by OUT's extension"),
            ("inspect", "[default: text]"),
            ("new", "[default: 1]"),
        ] {
            let help = Cli::command()
                .find_subcommand_mut(sub)
                .unwrap()
                .render_help()
                .to_string();
            assert!(help.contains(default), "{sub}: {help}");
        }
    }
}
