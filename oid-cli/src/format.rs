//! How ids are written: `--format hex|json|ejson|mongosh` (and `text` for `inspect`).
//!
//! Every format but `text` writes one line per id. `json` is one object per line (the fields
//! of `oid inspect`), `ejson` MongoDB extended JSON (`{"$oid":"…"}`, built with
//! `oid_std::serde::extended_json`), `mongosh` the shell's `ObjectId("…")`.

use std::io::{self, Write};

use clap::ValueEnum;
use oid_std::ObjectId;
use serde::{Serialize, Serializer};

use crate::columns::Kind;

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
    /// a Parquet file, one ObjectId column `_id` (pymongoarrow's type)
    Parquet,
    /// an Arrow IPC file (Feather 2), one ObjectId column `_id`
    Arrow,
    /// an Arrow IPC stream, one ObjectId column `_id`
    ArrowStream,
}

impl NewFormat {
    /// The name on the command line.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            NewFormat::Hex => "hex",
            NewFormat::Json => "json",
            NewFormat::Ejson => "ejson",
            NewFormat::Mongosh => "mongosh",
            NewFormat::Parquet => "parquet",
            NewFormat::Arrow => "arrow",
            NewFormat::ArrowStream => "arrow-stream",
        }
    }

    /// The column format, `None` for the line formats.
    pub(crate) const fn kind(self) -> Option<Kind> {
        match self {
            NewFormat::Hex | NewFormat::Json | NewFormat::Ejson | NewFormat::Mongosh => None,
            NewFormat::Parquet => Some(Kind::Parquet),
            NewFormat::Arrow => Some(Kind::ArrowFile),
            NewFormat::ArrowStream => Some(Kind::ArrowStream),
        }
    }

    /// The format of an output named `path` when `--format` is not given: a column format by
    /// its extension, hex otherwise.
    pub(crate) fn of_path(path: &std::path::Path) -> NewFormat {
        match Kind::of_extension(path) {
            Some(Kind::Parquet) => NewFormat::Parquet,
            Some(Kind::ArrowFile) => NewFormat::Arrow,
            Some(Kind::ArrowStream) => NewFormat::ArrowStream,
            None => NewFormat::Hex,
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

/// How the files of `inspect`, `validate` and `convert` are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum InputFormat {
    /// by the first bytes (Parquet and Arrow magic numbers), then the extension
    #[default]
    Auto,
    /// one id per line, in any pasted form
    Lines,
    /// a Parquet file
    Parquet,
    /// an Arrow IPC file or stream
    Arrow,
}

/// The output formats of `oid convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ConvertFormat {
    /// 24 lowercase hex digits per line
    Hex,
    /// a Parquet file, one ObjectId column `_id`
    Parquet,
    /// an Arrow IPC file (Feather 2), one ObjectId column `_id`
    Arrow,
    /// an Arrow IPC stream, one ObjectId column `_id`
    ArrowStream,
}

impl ConvertFormat {
    /// The format of an output named `path` when `--format` is not given: by its extension
    /// (`.parquet`, `.pq`; `.arrow`, `.feather`, `.ipc`; `.arrows`), hex otherwise.
    pub(crate) fn of_path(path: &std::path::Path) -> ConvertFormat {
        match Kind::of_extension(path) {
            Some(Kind::Parquet) => ConvertFormat::Parquet,
            Some(Kind::ArrowFile) => ConvertFormat::Arrow,
            Some(Kind::ArrowStream) => ConvertFormat::ArrowStream,
            None => ConvertFormat::Hex,
        }
    }

    /// The column format, `None` for hex lines.
    pub(crate) const fn kind(self) -> Option<Kind> {
        match self {
            ConvertFormat::Hex => None,
            ConvertFormat::Parquet => Some(Kind::Parquet),
            ConvertFormat::Arrow => Some(Kind::ArrowFile),
            ConvertFormat::ArrowStream => Some(Kind::ArrowStream),
        }
    }

    /// The name on the command line.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            ConvertFormat::Hex => "hex",
            ConvertFormat::Parquet => "parquet",
            ConvertFormat::Arrow => "arrow",
            ConvertFormat::ArrowStream => "arrow-stream",
        }
    }
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
    pub(crate) fn write(self, out: &mut (impl Write + ?Sized), id: ObjectId) -> io::Result<()> {
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
            Line::Json(legacy) => {
                let mut line = JsonLine::default();
                json_line(id, legacy, &mut line);
                out.write_all(line.as_slice())?;
            }
            Line::Ejson => serde_json::to_writer(&mut *out, &ExtendedJson(id))?,
            Line::Mongosh => write!(out, "ObjectId(\"{id}\")")?,
        }
        out.write_all(b"\n")
    }
}

/// The longest [`json_line`]: the legacy fields included.
const JSON_MAX: usize = 220;

/// An id's fields (those of `oid inspect`'s text block) as one JSON object, the bytes `serde_json` writes for them, formatted by
/// hand on the stack: at millions of ids a second, serde's field-by-field formatting and the
/// calendar library were most of the time. `tests::json_line_is_what_serde_writes` holds the two
/// to the same bytes.
/// Written into `line` (empty) rather than returned: returning it copied its 228 bytes.
#[inline]
fn json_line(id: ObjectId, legacy: bool, line: &mut JsonLine) {
    let b = id.bytes();
    let parts = id.to_parts();
    line.push(b"{\"id\":\"");
    line.push(id.to_hex().as_bytes());
    line.push(b"\",\"timestamp\":");
    line.decimal(parts.timestamp);
    line.push(b",\"time\":\"");
    line.push(id.rfc3339().as_str().as_bytes());
    line.push(b"\",\"random\":\"");
    line.hex(&b[4..9]);
    line.push(b"\",\"counter\":");
    line.decimal(parts.counter);
    line.push(b",\"counter_hex\":\"");
    line.hex(&b[9..12]);
    line.push(b"\"");
    if legacy {
        line.push(b",\"legacy_machine_id\":\"");
        line.hex(&b[4..7]);
        line.push(b"\",\"legacy_process_id\":");
        line.decimal(u32::from(id.to_legacy_parts().process_id));
    }
    line.push(b"}");
}

/// A JSON line being built on the stack.
struct JsonLine {
    buf: [u8; JSON_MAX],
    len: usize,
}

impl Default for JsonLine {
    fn default() -> Self {
        JsonLine {
            buf: [0; JSON_MAX],
            len: 0,
        }
    }
}

/// The decimal digits of `n`, written at the end of `digits` (20 bytes hold any `u64`): the
/// bulk paths' number formatting, without `fmt`.
pub(crate) fn decimal(mut n: u64, digits: &mut [u8; 20]) -> &[u8] {
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &digits[i..]
}

impl JsonLine {
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        // The fields have fixed widths that add up to less than JSON_MAX; a `get_mut` that
        // cannot fail keeps this free of panics all the same.
        if let Some(dst) = self.buf.get_mut(self.len..self.len + bytes.len()) {
            dst.copy_from_slice(bytes);
            self.len += bytes.len();
        }
    }

    fn decimal(&mut self, n: u32) {
        let mut digits = [0u8; 20];
        self.push(decimal(u64::from(n), &mut digits));
    }

    fn hex(&mut self, bytes: &[u8]) {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        for b in bytes {
            self.push(&[DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 0x0f)]]);
        }
    }

    fn as_slice(&self) -> &[u8] {
        &self.buf[..self.len]
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

    #[test]
    fn decimal_writes_every_width() {
        let mut digits = [0u8; 20];
        for n in [0, 7, 10, 4_294_967_295, u64::MAX] {
            assert_eq!(decimal(n, &mut digits), n.to_string().as_bytes());
        }
    }

    /// The test's oracle for the JSON line: the documented fields, in order, as serde_json
    /// writes them, with the time from jiff (the CLI's time type), independent of the line's
    /// own formatting and of oid-core's.
    #[derive(serde::Serialize)]
    struct Oracle {
        id: String,
        timestamp: u32,
        time: String,
        random: String,
        counter: u32,
        counter_hex: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        legacy_machine_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        legacy_process_id: Option<u16>,
    }

    impl Oracle {
        fn of(id: ObjectId, legacy: bool) -> Oracle {
            let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect();
            let parts = id.to_parts();
            let b = id.bytes();
            Oracle {
                id: id.to_string(),
                timestamp: parts.timestamp,
                time: crate::when::Time::from_seconds(parts.timestamp).to_string(),
                random: hex(&parts.random),
                counter: parts.counter,
                counter_hex: hex(&b[9..12]),
                legacy_machine_id: legacy.then(|| hex(&b[4..7])),
                legacy_process_id: legacy.then_some(id.to_legacy_parts().process_id),
            }
        }
    }

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
    fn json_line_is_what_serde_writes() {
        // One second of every day an id can hold (a different second each day), both ends, and
        // the random and counter bytes at their extremes; with and without the legacy fields.
        let mut secs: Vec<u32> = (0..=u32::MAX / 86_400)
            .map(|day| day * 86_400 + day.wrapping_mul(7919) % 86_400)
            .collect();
        secs.extend([
            0,
            59,
            86_399,
            951_782_400,
            4_107_542_399,
            u32::MAX - 1,
            u32::MAX,
        ]);
        for (k, ts) in secs.into_iter().enumerate() {
            let fill = [0x00, 0xff, 0x5a][k % 3];
            let id =
                ObjectId::from_parts(ts, [fill, 0x12, fill, 0x9a, fill], (k as u32) & 0xff_ffff);
            for legacy in [false, true] {
                let mut fast = JsonLine::default();
                json_line(id, legacy, &mut fast);
                let serde = serde_json::to_vec(&Oracle::of(id, legacy)).unwrap();
                assert_eq!(
                    String::from_utf8_lossy(fast.as_slice()),
                    String::from_utf8_lossy(&serde),
                    "{id} legacy {legacy}"
                );
            }
        }
    }

    #[test]
    fn ejson_reads_back_with_the_library() {
        let text = line(Line::Ejson);
        let id: ObjectId = serde_json::from_str(text.trim_end()).unwrap();
        assert_eq!(id, oid!("507f1f77bcf86cd799439011"));
    }
}
