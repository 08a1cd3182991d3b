//! `oid range FROM TO`: the ids bounding a creation-time window, and a MongoDB filter for it.
//!
//! The window is half-open, `[FROM, TO)`, in whole seconds: the filter is
//! `$gte min_for_timestamp(FROM)` and `$lt min_for_timestamp(TO)`, which selects exactly the ids
//! whose timestamp `t` has `FROM <= t < TO`. Consecutive windows (`[a, b)`, `[b, c)`) neither
//! overlap nor leave a gap.

use std::io::Write;

use oid_core::ObjectId;
use serde::Serialize;

use crate::cli::RangeArgs;
use crate::error::{Error, Status};
use crate::when::UnixTime;

/// The bounds of a non-empty window.
#[derive(Debug, PartialEq, Eq)]
struct Bounds {
    /// The smallest id made in second FROM: the inclusive (`$gte`) bound.
    min: ObjectId,
    /// The largest id inside the window (made in second TO - 1).
    max: ObjectId,
    /// The smallest id made in second TO: the exclusive (`$lt`) bound.
    end: ObjectId,
}

impl Bounds {
    fn new(from: UnixTime, to: UnixTime) -> Result<Bounds, Error> {
        if from >= to {
            return Err(Error::EmptyWindow { from, to });
        }
        Ok(Bounds {
            min: ObjectId::min_for_timestamp(from.0),
            // `to > from >= 0`, so this never saturates.
            max: ObjectId::max_for_timestamp(to.0.saturating_sub(1)),
            end: ObjectId::min_for_timestamp(to.0),
        })
    }

    fn extended_json(&self) -> String {
        format!(
            r#"{{"_id": {{"$gte": {{"$oid": "{}"}}, "$lt": {{"$oid": "{}"}}}}}}"#,
            self.min, self.end
        )
    }

    fn mongosh(&self) -> String {
        format!(
            r#"{{ _id: {{ $gte: ObjectId("{}"), $lt: ObjectId("{}") }} }}"#,
            self.min, self.end
        )
    }
}

/// `{"$oid": "…"}`.
#[derive(Serialize)]
struct Oid {
    #[serde(rename = "$oid")]
    oid: String,
}

#[derive(Serialize)]
struct IdFilter {
    #[serde(rename = "$gte")]
    gte: Oid,
    #[serde(rename = "$lt")]
    lt: Oid,
}

#[derive(Serialize)]
struct Filter {
    #[serde(rename = "_id")]
    id: IdFilter,
}

/// `oid range --json`; the field names are documented in the README: keep them stable.
#[derive(Serialize)]
struct RangeJson {
    from: u32,
    from_time: String,
    to: u32,
    to_time: String,
    min: String,
    max: String,
    end: String,
    filter: Filter,
    mongosh: String,
}

/// Runs `oid range`.
pub(crate) fn run(args: &RangeArgs, out: &mut impl Write) -> Result<Status, Error> {
    let (from, to) = (args.from, args.to);
    let bounds = Bounds::new(from, to)?;
    if args.json {
        let json = RangeJson {
            from: from.0,
            from_time: from.to_string(),
            to: to.0,
            to_time: to.to_string(),
            min: bounds.min.to_hex().to_string(),
            max: bounds.max.to_hex().to_string(),
            end: bounds.end.to_hex().to_string(),
            filter: Filter {
                id: IdFilter {
                    gte: Oid {
                        oid: bounds.min.to_hex().to_string(),
                    },
                    lt: Oid {
                        oid: bounds.end.to_hex().to_string(),
                    },
                },
            },
            mongosh: bounds.mongosh(),
        };
        serde_json::to_writer(&mut *out, &json).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
    } else {
        writeln!(out, "from           {from} ({}, inclusive)", from.0)?;
        writeln!(out, "to             {to} ({}, exclusive)", to.0)?;
        writeln!(out, "min            {}", bounds.min)?;
        writeln!(out, "max            {}", bounds.max)?;
        writeln!(out, "end            {}", bounds.end)?;
        writeln!(out, "extended json  {}", bounds.extended_json())?;
        writeln!(out, "mongosh        {}", bounds.mongosh())?;
    }
    Ok(Status::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_open_bounds() {
        let b = Bounds::new(UnixTime(1_700_000_000), UnixTime(1_700_000_002)).unwrap();
        assert_eq!(b.min.to_hex(), "6553f1000000000000000000");
        assert_eq!(b.max.to_hex(), "6553f101ffffffffffffffff");
        assert_eq!(b.end.to_hex(), "6553f1020000000000000000");
        let inside = [
            ObjectId::from_parts(1_700_000_000, [0; 5], 0),
            ObjectId::from_parts(1_700_000_001, [0xff; 5], 0xff_ffff),
        ];
        let outside = [
            ObjectId::from_parts(1_699_999_999, [0xff; 5], 0xff_ffff),
            ObjectId::from_parts(1_700_000_002, [0; 5], 0),
        ];
        for id in inside {
            assert!(b.min <= id && id < b.end && id <= b.max, "{id}");
        }
        for id in outside {
            assert!(!(b.min <= id && id < b.end), "{id}");
        }
    }

    #[test]
    fn the_whole_range_of_times() {
        let b = Bounds::new(UnixTime(0), UnixTime(u32::MAX)).unwrap();
        assert_eq!(b.min, ObjectId::MIN);
        assert_eq!(b.max.to_hex(), "fffffffeffffffffffffffff");
        assert_eq!(b.end.to_hex(), "ffffffff0000000000000000");
    }

    #[test]
    fn empty_or_reversed_window_is_an_error() {
        assert!(matches!(
            Bounds::new(UnixTime(5), UnixTime(5)),
            Err(Error::EmptyWindow { .. })
        ));
        assert!(matches!(
            Bounds::new(UnixTime(6), UnixTime(5)),
            Err(Error::EmptyWindow { .. })
        ));
    }

    #[test]
    fn filters_in_both_syntaxes() {
        let b = Bounds::new(UnixTime(1_350_508_407), UnixTime(1_350_508_408)).unwrap();
        assert_eq!(
            b.extended_json(),
            r#"{"_id": {"$gte": {"$oid": "507f1f770000000000000000"}, "$lt": {"$oid": "507f1f780000000000000000"}}}"#
        );
        assert_eq!(
            b.mongosh(),
            r#"{ _id: { $gte: ObjectId("507f1f770000000000000000"), $lt: ObjectId("507f1f780000000000000000") } }"#
        );
        let parsed: serde_json::Value = serde_json::from_str(&b.extended_json()).unwrap();
        assert_eq!(parsed["_id"]["$lt"]["$oid"], "507f1f780000000000000000");
    }

    #[test]
    fn json_output_repeats_the_filter_as_an_object() {
        let args = RangeArgs {
            from: UnixTime(0),
            to: UnixTime(86_400),
            json: true,
        };
        let mut out = Vec::new();
        run(&args, &mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["from_time"], "1970-01-01T00:00:00Z");
        assert_eq!(v["to_time"], "1970-01-02T00:00:00Z");
        assert_eq!(v["filter"]["_id"]["$gte"]["$oid"], v["min"]);
        assert_eq!(v["filter"]["_id"]["$lt"]["$oid"], v["end"]);
        assert_eq!(v["max"], "0001517fffffffffffffffff");
    }
}
