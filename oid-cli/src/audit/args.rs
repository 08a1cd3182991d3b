//! The arguments of `oid audit`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::when::{self, Time};

pub(crate) const AUDIT_EXAMPLES: &str = "\
Examples:
  mongoexport -d app -c users | oid audit                 JSON Lines from standard input
  oid audit users.json orders.json                        two collections (or shards) at once
  oid audit --format json dump/app/users.bson > audit.json
  oid audit ids.parquet --column user_id --report audit.html
  oid audit export.csv --column _id --now 2026-01-01

Finds what goes wrong with ids before a duplicate-key error does. Kinds (the JSON `kind`):
  duplicate-id          one id more than once, in one input or across inputs
  shared-random-value   one random value used by more than one generator (interleaved
                        counter runs, or a run that starts over)
  over-capacity         more than 2^24 ids in one second of one random value
  clock-step-back       a generator's later ids dated earlier (by how much)
  implausible-time      ids dated in the future (past --now plus --future-tolerance),
                        before 2009, or at the 2106 wrap
  legacy-layout         ids of old drivers (machine id and process id): the populations
  weak-random-value     random values that look made: zero, repeated bytes, small numbers,
                        a time, consecutive values

Inputs (--input-format, or by the name, then the content): one id per line in any form
`oid inspect` reads; JSON (mongoexport's JSON Lines or --jsonArray, canonical or relaxed
Extended JSON, the id at --field, default _id); CSV with a header (the column --column,
default _id); Parquet and Arrow IPC ObjectId columns (--column, default the one ObjectId
column); mongodump .bson
files (--field). `-` is standard input.

Exit status: 0 no finding, 1 findings, 2 an input could not be read (the message names the
file and the line, row or document; no report is printed). A progress bar is drawn on standard
error when it is a terminal.";

/// The forms of an audit's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum AuditInput {
    /// by the file's name, then its first bytes
    #[default]
    Auto,
    /// one id per line, in any pasted form
    Lines,
    /// mongoexport JSON: JSON Lines, or one JSON array
    Json,
    /// CSV with a header row
    Csv,
    /// mongodump BSON documents, one after another
    Bson,
    /// a Parquet file with an ObjectId column
    Parquet,
    /// an Arrow IPC file or stream with an ObjectId column
    Arrow,
}

/// The forms of the report on standard output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum AuditFormat {
    /// for a person
    #[default]
    Text,
    /// one JSON document (the fields are documented in docs/cli.md)
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct AuditArgs {
    /// Files to read (`-` for standard input; default: standard input)
    #[arg(value_name = "FILE")]
    pub(crate) inputs: Vec<PathBuf>,
    /// The form of the inputs
    #[arg(long, value_enum, value_name = "FORM", default_value = "auto")]
    pub(crate) input_format: AuditInput,
    /// JSON and BSON: the id's field, dotted for a nested one (user.id)
    #[arg(long, value_name = "PATH", default_value = "_id")]
    pub(crate) field: String,
    /// CSV (default `_id`), Parquet and Arrow (default: the one ObjectId column): the id's column
    #[arg(long, value_name = "NAME")]
    pub(crate) column: Option<String>,
    /// The report's form on standard output
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub(crate) format: AuditFormat,
    /// Also write a page with the timeline of the busiest generators and the findings
    #[arg(long, value_name = "FILE.html")]
    pub(crate) report: Option<PathBuf>,
    /// The present, for ids dated in the future (default: the clock); any form of `oid new --time`
    #[arg(long, value_name = "TIME", value_parser = when::parse_arg, allow_hyphen_values = true)]
    pub(crate) now: Option<Time>,
    /// How far past --now an id may be dated: seconds, or with a unit (30m, 2h, 1d)
    #[arg(long, value_name = "DURATION", default_value = "1d", value_parser = parse_duration)]
    pub(crate) future_tolerance: u32,
    /// The most findings of each kind listed (all are counted)
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub(crate) max_findings: usize,
    /// Memory for runs before they spill to temporary files, in MiB
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub(crate) memory: usize,
    /// Ids per second a generator may make that are not in the inputs, between two that are
    #[arg(long, value_name = "N", default_value_t = 1 << 20)]
    pub(crate) unseen_rate: u32,
}

/// A duration: seconds, or a number with `s`, `m`, `h` or `d`.
fn parse_duration(s: &str) -> Result<u32, String> {
    let (digits, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => s.split_at(at),
        None => (s, "s"),
    };
    let scale = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => {
            return Err(format!(
                "a duration is seconds, or a number with s, m, h or d (30m); not {s:?}"
            ));
        }
    };
    digits
        .parse::<u32>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| {
            format!("a duration is seconds, or a number with s, m, h or d (30m); not {s:?}")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90"), Ok(90));
        assert_eq!(parse_duration("30m"), Ok(1800));
        assert_eq!(parse_duration("2h"), Ok(7200));
        assert_eq!(parse_duration("1d"), Ok(86_400));
        assert!(parse_duration("1w").is_err());
        assert!(parse_duration("m").is_err());
        assert!(parse_duration("99999999d").is_err());
    }
}
