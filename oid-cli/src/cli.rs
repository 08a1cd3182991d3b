//! The command line, declared with clap's derive API. Doc comments are the help text.

use clap::{Args, Parser, Subcommand};
use clap_complete::Shell;

use crate::when::{self, UnixTime};

const MAIN_EXAMPLES: &str = "\
Examples:
  oid new 5                                  five new ids, one per line
  oid inspect 507f1f77bcf86cd799439011       when was it made, and its fields
  oid validate < ids.txt                     report every line that is not an id
  oid range 2024-01-01T00:00:00Z 2024-02-01T00:00:00Z
                                             a MongoDB filter for ids made in January 2024
  oid completions bash > ~/.local/share/bash-completion/completions/oid

Exit status: 0 on success, 1 when an input was invalid or the command failed, 2 for a command
line that cannot work (unknown option, bad time, empty window).";

const NEW_EXAMPLES: &str = "\
Examples:
  oid new                        one id
  oid new 1000 > ids.txt         a thousand, one per line
  oid new 3 --time 1700000000    as of 2023-11-14T22:13:20Z (Unix seconds)
  oid new 3 --time 2024-01-01T00:00:00+01:00
  oid new 2 --json --upper       [\"…\", \"…\"] in upper case
  oid new --legacy               machine id and process id instead of the random value

All ids of one run share one random value and have consecutive counters. The counter has 24 bits:
a run of more than 16777216 ids within one second (always, with --time) repeats earlier ids.";

const INSPECT_EXAMPLES: &str = "\
Examples:
  oid inspect 507f1f77bcf86cd799439011
  oid inspect --json 507f1f77bcf86cd799439011 6553f1003f2a91c8d4003039
  oid new 3 | oid inspect --json | jq .time

Ids are read from the arguments, or from standard input, one per line, when there are none.
Surrounding whitespace is ignored and blank lines are skipped. An invalid id is reported on
standard error (with its argument or line number) and the exit status is then 1; the others
are still inspected.";

const VALIDATE_EXAMPLES: &str = "\
Examples:
  oid validate 507f1f77bcf86cd799439011 xyz
  oid validate < ids.txt && echo all valid

Ids are read as by `oid inspect`. Each invalid one is reported on standard error as
`oid: line 7: \"xyz\": invalid length: expected 24 hex characters, found 3`; valid ones print
nothing. Exit status 0 only if every input was a valid id.";

const RANGE_EXAMPLES: &str = "\
Examples:
  oid range 2024-01-01T00:00:00Z 2024-02-01T00:00:00Z
  oid range 1700000000 1700086400 --json

The window is half-open, [FROM, TO): the filter is
  {\"_id\": {\"$gte\": {\"$oid\": MIN}, \"$lt\": {\"$oid\": END}}}
where MIN is the smallest id of second FROM and END the smallest id of second TO, so ids made
in the second TO are excluded. MAX is the largest id inside the window (of second TO - 1).
FROM must be earlier than TO. Fractional seconds are dropped.";

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
    /// Show what an id holds: creation time, random value, counter, legacy fields
    #[command(after_help = INSPECT_EXAMPLES)]
    Inspect(InspectArgs),
    /// Check ids; report each invalid one with its line number and the reason
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate(ValidateArgs),
    /// The min and max ids of a creation-time window, and a MongoDB filter for it
    #[command(after_help = RANGE_EXAMPLES)]
    Range(RangeArgs),
    /// Print a shell completion script
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
}

#[derive(Debug, Args)]
pub(crate) struct NewArgs {
    /// How many ids to generate
    #[arg(default_value_t = 1)]
    pub(crate) count: u64,
    /// Generate as of this time: RFC 3339 (2023-11-14T22:13:20Z) or Unix seconds (1700000000)
    #[arg(long, value_name = "TIME", value_parser = when::parse_arg, allow_negative_numbers = true)]
    pub(crate) time: Option<UnixTime>,
    /// Legacy layout: machine id (MD5 of the host name) and process id instead of the random value
    #[arg(long)]
    pub(crate) legacy: bool,
    /// Write one JSON array of strings instead of one id per line
    #[arg(long)]
    pub(crate) json: bool,
    /// Upper-case hex
    #[arg(long)]
    pub(crate) upper: bool,
}

#[derive(Debug, Args)]
pub(crate) struct InspectArgs {
    /// Ids to inspect (default: read standard input, one per line)
    #[arg(value_name = "ID")]
    pub(crate) ids: Vec<String>,
    /// One JSON object per id, one per line
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// Ids to check (default: read standard input, one per line)
    #[arg(value_name = "ID")]
    pub(crate) ids: Vec<String>,
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub(crate) struct RangeArgs {
    /// Start of the window, inclusive: RFC 3339 or Unix seconds
    #[arg(value_parser = when::parse_arg)]
    pub(crate) from: UnixTime,
    /// End of the window, exclusive: RFC 3339 or Unix seconds
    #[arg(value_parser = when::parse_arg)]
    pub(crate) to: UnixTime,
    /// One JSON object with the bounds and the filter
    #[arg(long)]
    pub(crate) json: bool,
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
    fn every_command_has_examples() {
        let mut cmd = Cli::command();
        assert!(cmd.get_after_help().is_some());
        for sub in cmd.get_subcommands_mut() {
            let help = sub.render_help().to_string();
            assert!(help.contains("Examples:"), "{}: {help}", sub.get_name());
        }
    }
}
