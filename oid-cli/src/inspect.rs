//! `oid inspect`: what an id holds.

use std::fmt;
use std::io::{BufRead, Write};

use oid_core::fmt::Rfc3339;
use oid_std::ObjectId;

use crate::cli::InspectArgs;
use crate::error::{Error, Status};
use crate::format::{InspectFormat, Line};
use crate::input::{self, Row, Sources};
use crate::progress::Progress;
use crate::stderr::Messages;

/// Runs `oid inspect`: for each valid id, one block of text or one line in the chosen format;
/// invalid ones are reported on `err`.
pub(crate) fn run(
    args: &InspectArgs,
    stdin: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Messages,
) -> Result<Status, Error> {
    let line = match args.format() {
        InspectFormat::Text => None,
        InspectFormat::Hex => Some(Line::Hex(false)),
        InspectFormat::Json => Some(Line::Json(args.legacy)),
        InspectFormat::Ejson => Some(Line::Ejson),
        InspectFormat::Mongosh => Some(Line::Mongosh),
    };
    let mut invalid = 0_u64;
    let mut written = 0_u64;
    let sources = Sources {
        args: &args.ids,
        files: &args.files,
        read: &args.read,
    };
    let progress = Progress::none();
    let seen = input::for_each(sources, stdin, err, &progress, |row, err| {
        // A null row of a column holds no id: nothing to show.
        let Row::Item(item) = row else { return Ok(()) };
        match item.id {
            Ok(id) => {
                match line {
                    Some(line) => line.write(out, id)?,
                    None => {
                        if written > 0 {
                            out.write_all(b"\n")?;
                        }
                        Fields::of(id, args.legacy).write_text(out)?;
                    }
                }
                written += 1;
            }
            Err(reason) => {
                invalid += 1;
                input::report(out, err, &item, &reason)?;
            }
        }
        Ok(())
    })?;
    if seen.items == 0 && seen.read_stdin && seen.unreadable == 0 {
        out.flush()?;
        let _ = writeln!(
            err,
            "oid: standard input is empty or closed: no ids to inspect"
        );
        err.end_message();
    }
    Ok(Status::of(invalid, seen.unreadable))
}

/// Lowercase hex of some bytes of an id.
#[derive(Clone, Copy)]
struct HexBytes<'a>(&'a [u8]);

impl fmt::Display for HexBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// The fields of the text block for one id (the JSON line is `format::json_line`).
pub(crate) struct Fields {
    /// The id, 24 lowercase hex digits.
    id: ObjectId,
    /// Creation time, Unix seconds.
    timestamp: u32,
    /// Creation time, RFC 3339 UTC (oid-core's formatter, as the JSON line's).
    time: Rfc3339,
    /// The 5-byte random value, 10 hex digits.
    random: Hex5,
    /// The counter, decimal.
    counter: u32,
    /// The counter, 6 hex digits.
    counter_hex: Hex3,
    /// Legacy reading: the 3-byte machine id, 6 hex digits; only asked for (`--legacy`).
    legacy_machine_id: Option<Hex3>,
    /// Legacy reading: the 2-byte process id, decimal; only asked for (`--legacy`).
    legacy_process_id: Option<u16>,
}

/// Bytes held by value so `Fields` needs no lifetime.
#[derive(Clone, Copy)]
struct Hex5([u8; 5]);
#[derive(Clone, Copy)]
struct Hex3([u8; 3]);

impl fmt::Display for Hex5 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        HexBytes(&self.0).fmt(f)
    }
}

impl fmt::Display for Hex3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        HexBytes(&self.0).fmt(f)
    }
}

impl Fields {
    /// The fields of `id`; the legacy reading only when `legacy` (it is an interpretation of old
    /// drivers' layout, meaningless for ids with a random value).
    pub(crate) fn of(id: ObjectId, legacy: bool) -> Fields {
        let parts = id.to_parts();
        let legacy_parts = id.to_legacy_parts();
        let b = id.bytes();
        Fields {
            id,
            timestamp: parts.timestamp,
            time: id.rfc3339(),
            random: Hex5(parts.random),
            counter: parts.counter,
            counter_hex: Hex3([b[9], b[10], b[11]]),
            legacy_machine_id: legacy.then_some(Hex3([b[4], b[5], b[6]])),
            legacy_process_id: legacy.then_some(legacy_parts.process_id),
        }
    }

    pub(crate) fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "id                 {}", self.id)?;
        writeln!(out, "timestamp          {}", self.timestamp)?;
        writeln!(out, "time               {}", self.time)?;
        writeln!(out, "random             {}", self.random)?;
        writeln!(
            out,
            "counter            {} (0x{})",
            self.counter, self.counter_hex
        )?;
        if let Some(machine_id) = self.legacy_machine_id {
            writeln!(out, "legacy machine id  {machine_id}")?;
        }
        if let Some(process_id) = self.legacy_process_id {
            writeln!(out, "legacy process id  {process_id} (0x{process_id:04x})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inspect(ids: &[&str], json: bool, stdin: &[u8]) -> (Status, String, String) {
        inspect_with(ids, json, false, stdin)
    }

    fn inspect_with(
        ids: &[&str],
        json: bool,
        legacy: bool,
        stdin: &[u8],
    ) -> (Status, String, String) {
        let args = InspectArgs {
            ids: ids.iter().map(std::ffi::OsString::from).collect(),
            files: Vec::new(),
            read: crate::cli::ReadArgs::default(),
            format: InspectFormat::Text,
            json,
            legacy,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status = run(&args, stdin, &mut out, &mut err).unwrap();
        (
            status,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    const TEXT: &str = "\
id                 507f1f77bcf86cd799439011
timestamp          1350508407
time               2012-10-17T21:13:27Z
random             bcf86cd799
counter            4427793 (0x439011)
";

    #[test]
    fn text_shows_every_field_and_the_legacy_reading_when_asked() {
        let (status, out, err) = inspect(&["507f1f77bcf86cd799439011"], false, b"");
        assert_eq!(status, Status::Ok);
        assert_eq!(err, "");
        assert_eq!(out, TEXT);
        let (_, out, _) = inspect_with(&["507f1f77bcf86cd799439011"], false, true, b"");
        assert_eq!(
            out,
            format!("{TEXT}legacy machine id  bcf86c\nlegacy process id  55193 (0xd799)\n")
        );
    }

    #[test]
    fn empty_stdin_is_said_after_the_output() {
        let (status, out, err) = inspect(&[], false, b"");
        assert_eq!((status, out.as_str()), (Status::Ok, ""));
        assert_eq!(
            err,
            "oid: standard input is empty or closed: no ids to inspect\n"
        );
        let (_, _, err) = inspect(&[], false, b"\n  \n");
        assert_eq!(
            err, "oid: standard input is empty or closed: no ids to inspect\n",
            "blank lines are no ids"
        );
        let (_, _, err) = inspect(&["507f1f77bcf86cd799439011"], false, b"");
        assert_eq!(err, "", "arguments: standard input is not read");
    }

    #[test]
    fn json_has_the_documented_fields() {
        let (_, out, _) = inspect(&["6553F1003F2A91C8D4003039"], true, b"");
        let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "id": "6553f1003f2a91c8d4003039",
                "timestamp": 1_700_000_000,
                "time": "2023-11-14T22:13:20Z",
                "random": "3f2a91c8d4",
                "counter": 12345,
                "counter_hex": "003039",
            })
        );
        let (_, out, _) = inspect_with(&["6553F1003F2A91C8D4003039"], true, true, b"");
        let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
        assert_eq!(v["legacy_machine_id"], "3f2a91");
        assert_eq!(v["legacy_process_id"], 0xc8d4);
        assert_eq!(v.as_object().unwrap().len(), 8);
    }

    #[test]
    fn invalid_ids_are_reported_and_skipped_the_rest_inspected() {
        let (status, out, err) = inspect(
            &[],
            true,
            b"507f1f77bcf86cd799439011\nxyz\n\nffffffffffffffffffffffff\n",
        );
        assert_eq!(status, Status::Invalid);
        assert_eq!(
            err,
            "oid: line 2: \"xyz\": invalid length: expected 24 hex characters, found 3\n"
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        let last: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(last["time"], "2106-02-07T06:28:15Z");
        assert_eq!(last["counter"], 0xff_ffff);
    }

    #[test]
    fn blocks_are_separated_by_one_blank_line() {
        let (_, out, _) = inspect(
            &["507f1f77bcf86cd799439011", "000000000000000000000000"],
            false,
            b"",
        );
        assert_eq!(out.matches("\n\n").count(), 1);
        assert!(out.contains("time               1970-01-01T00:00:00Z\n"));
    }
}
