//! How ids are written: `--format hex|json|ejson|mongosh` (and `text` for `inspect`).
//!
//! Every format but `text` writes one line per id. `json` is one object per line (the fields
//! of `oid inspect`), `ejson` MongoDB extended JSON (`{"$oid":"…"}`, built with
//! `oid_std::serde::extended_json`), `mongosh` the shell's `ObjectId("…")`.

use std::io::{self, Write};

use clap::ValueEnum;
use oid_std::ObjectId;
use serde::{Serialize, Serializer};

use crate::fields::Fields;

/// The output formats of `oid new`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum NewFormat {
    /// 24 hex digits per line
    #[default]
    Hex,
    /// one JSON object per line, with the fields of `oid inspect --format json`
    Json,
    /// one MongoDB extended JSON value per line: {"$oid":"…"}
    Ejson,
    /// one mongosh literal per line: ObjectId("…")
    Mongosh,
}

impl NewFormat {
    /// The name on the command line.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            NewFormat::Hex => "hex",
            NewFormat::Json => "json",
            NewFormat::Ejson => "ejson",
            NewFormat::Mongosh => "mongosh",
        }
    }
}

/// The output formats of `oid inspect`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum InspectFormat {
    /// a block of named fields per id, blocks separated by a blank line
    #[default]
    Text,
    /// 24 lowercase hex digits per line
    Hex,
    /// one JSON object per line (JSON Lines)
    Json,
    /// one MongoDB extended JSON value per line: {"$oid":"…"}
    Ejson,
    /// one mongosh literal per line: ObjectId("…")
    Mongosh,
}

/// A one-line format, shared by `new` and `inspect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// Hex, upper case when `true`.
    Hex(bool),
    /// The fields of `inspect`, with the legacy reading when `true`.
    Json(bool),
    Ejson,
    Mongosh,
}

impl Line {
    /// Writes `id` in this format, with its newline.
    pub(crate) fn write(self, out: &mut impl Write, id: ObjectId) -> io::Result<()> {
        match self {
            Line::Hex(upper) => {
                let mut hex = [0_u8; 24];
                let text = if upper {
                    id.encode_hex_upper(&mut hex)
                } else {
                    id.encode_hex(&mut hex)
                };
                out.write_all(text.as_bytes())?;
            }
            Line::Json(legacy) => serde_json::to_writer(&mut *out, &Fields::of(id, legacy))?,
            Line::Ejson => serde_json::to_writer(&mut *out, &ExtendedJson(id))?,
            Line::Mongosh => write!(out, "ObjectId(\"{id}\")")?,
        }
        out.write_all(b"\n")
    }
}

/// An id serialized as MongoDB extended JSON, `{"$oid": "…"}`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExtendedJson(pub(crate) ObjectId);

impl Serialize for ExtendedJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        oid_std::serde::extended_json::serialize(&self.0, s)
    }
}

#[cfg(test)]
mod tests {
    use oid_std::oid;

    use super::*;

    fn line(format: Line) -> String {
        let mut out = Vec::new();
        format
            .write(&mut out, oid!("507f1f77bcf86cd799439011"))
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn each_line_format() {
        assert_eq!(line(Line::Hex(false)), "507f1f77bcf86cd799439011\n");
        assert_eq!(line(Line::Hex(true)), "507F1F77BCF86CD799439011\n");
        assert_eq!(
            line(Line::Ejson),
            "{\"$oid\":\"507f1f77bcf86cd799439011\"}\n"
        );
        assert_eq!(
            line(Line::Mongosh),
            "ObjectId(\"507f1f77bcf86cd799439011\")\n"
        );
        let json: serde_json::Value = serde_json::from_str(&line(Line::Json(false))).unwrap();
        assert_eq!(json["id"], "507f1f77bcf86cd799439011");
        assert_eq!(json["time"], "2012-10-17T21:13:27Z");
        assert_eq!(json.get("legacy_machine_id"), None);
        assert_eq!(json.get("legacy_process_id"), None);
        let json: serde_json::Value = serde_json::from_str(&line(Line::Json(true))).unwrap();
        assert_eq!(json["legacy_machine_id"], "bcf86c");
        assert_eq!(json["legacy_process_id"], 0xd799);
    }

    #[test]
    fn ejson_reads_back_with_the_library() {
        let text = line(Line::Ejson);
        let id: ObjectId = serde_json::from_str(text.trim_end()).unwrap();
        assert_eq!(id, oid!("507f1f77bcf86cd799439011"));
    }
}
