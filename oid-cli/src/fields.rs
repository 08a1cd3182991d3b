//! The fields of one id, as `oid inspect` shows them and `--format json` writes them (shared
//! by `inspect.rs` and `format.rs`, so neither imports the other for it).

use std::fmt;
use std::io::Write;

use oid_std::ObjectId;
use serde::{Serialize, Serializer};

use crate::when::{self, Time};

/// Lowercase hex of some bytes of an id.
#[derive(Clone, Copy)]
struct HexBytes<'a>(&'a [u8]);

impl fmt::Display for HexBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

fn display<T: fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// The fields shown for one id. The serde names are the JSON field names documented in the
/// README: keep them stable.
#[derive(Serialize)]
pub(crate) struct Fields {
    /// The id, 24 lowercase hex digits.
    #[serde(serialize_with = "display")]
    id: ObjectId,
    /// Creation time, Unix seconds.
    timestamp: u32,
    /// Creation time, RFC 3339 UTC.
    #[serde(serialize_with = "display")]
    time: Time,
    /// The 5-byte random value, 10 hex digits.
    #[serde(serialize_with = "display")]
    random: Hex5,
    /// The counter, decimal.
    counter: u32,
    /// The counter, 6 hex digits.
    #[serde(serialize_with = "display")]
    counter_hex: Hex3,
    /// Legacy reading: the 3-byte machine id, 6 hex digits; only asked for (`--legacy`).
    #[serde(
        serialize_with = "display_some",
        skip_serializing_if = "Option::is_none"
    )]
    legacy_machine_id: Option<Hex3>,
    /// Legacy reading: the 2-byte process id, decimal; only asked for (`--legacy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    legacy_process_id: Option<u16>,
}

/// [`display`] for a field that is skipped when `None`.
fn display_some<T: fmt::Display, S: Serializer>(
    value: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(value) => s.collect_str(value),
        None => s.serialize_none(),
    }
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
            time: when::rfc3339(parts.timestamp),
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
