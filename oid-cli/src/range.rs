//! `oid range FROM [TO]`: the ids bounding a creation-time range, and a MongoDB filter for it.
//!
//! The bounds come from [`oid_std::IdRange`], the one implementation of the rule shared with
//! oid-bson's filter helpers and the web page: the range is half-open, `[FROM, TO)`; FROM is
//! rounded down to its second and a fractional TO up to the next second, so no id made in the
//! range is missed; an open end reaches the last second an id can hold with `$lte` on the
//! largest id. The filter is built with `oid_std::serde::extended_json`.

use std::io::Write;

use oid_std::{IdRange, ObjectId, Upper};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::cli::{End, RangeArgs};
use crate::error::{Error, Status};
use crate::format::ExtendedJson;
use crate::when::{LAST, Time};

/// The id range of `[from, to)`; `None` is an open end.
fn id_range(from: Option<Time>, to: Option<Time>) -> Result<IdRange, Error> {
    if let (Some(from), Some(to)) = (from, to)
        && from >= to
    {
        return Err(Error::EmptyWindow { from, to });
    }
    Ok(IdRange::from_nanos(
        from.map(Time::nanos),
        to.map(Time::nanos),
    ))
}

/// The largest id in a non-empty range.
/// MongoDB's query operator for an upper bound: `$lt`, or `$lte` for an open end.
const fn operator(upper: Upper) -> &'static str {
    match upper {
        Upper::Lt(_) => "$lt",
        Upper::Lte(_) => "$lte",
    }
}

const fn max(range: &IdRange) -> ObjectId {
    match range.upper() {
        Upper::Lte(id) => id,
        // The id just below the exclusive bound: the last id of the second before it (the
        // bound is always the first id of a second).
        Upper::Lt(end) => ObjectId::max_for_timestamp(end.timestamp().saturating_sub(1)),
    }
}

/// `{"_id": {"$gte": {"$oid": …}, "$lt" or "$lte": {"$oid": …}}}`.
struct Filter(IdRange);

impl Serialize for Filter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("_id", &IdFilter(self.0))?;
        map.end()
    }
}

struct IdFilter(IdRange);

impl Serialize for IdFilter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let upper = self.0.upper();
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("$gte", &ExtendedJson(self.0.lower()))?;
        map.serialize_entry(operator(upper), &ExtendedJson(upper.id()))?;
        map.end()
    }
}

fn mongosh(range: &IdRange) -> String {
    let upper = range.upper();
    format!(
        "{{ _id: {{ $gte: ObjectId(\"{}\"), {}: ObjectId(\"{}\") }} }}",
        range.lower(),
        operator(upper),
        upper.id()
    )
}

/// `oid range --json`; the field names are documented in the README: keep them stable.
#[derive(serde::Serialize)]
struct RangeJson {
    /// FROM in Unix seconds (rounded down), or null when open.
    from: Option<u32>,
    /// FROM as given, RFC 3339 UTC, or null.
    from_time: Option<String>,
    /// TO in Unix seconds (rounded down), or null when open.
    to: Option<u32>,
    /// TO as given, RFC 3339 UTC, or null.
    to_time: Option<String>,
    min: String,
    max: String,
    end: String,
    /// `$lt`, or `$lte` for an open end.
    upper: &'static str,
    filter: Filter,
    mongosh: String,
}

/// Runs `oid range`.
pub(crate) fn run(args: &RangeArgs, out: &mut impl Write) -> Result<Status, Error> {
    let at = |end: End| match end {
        End::Open => None,
        End::At(t) => Some(t),
    };
    let from = at(args.from);
    let to = args.to.and_then(at);
    let range = id_range(from, to)?;
    let upper = range.upper();
    if args.json {
        let json = RangeJson {
            from: from.map(Time::seconds),
            from_time: from.map(|t| t.to_string()),
            to: to.map(Time::seconds),
            to_time: to.map(|t| t.to_string()),
            min: range.lower().to_hex().to_string(),
            max: max(&range).to_hex().to_string(),
            end: upper.id().to_hex().to_string(),
            upper: operator(upper),
            filter: Filter(range),
            mongosh: mongosh(&range),
        };
        serde_json::to_writer(&mut *out, &json).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
    } else {
        match from {
            Some(t) => writeln!(out, "from           {t} ({}, inclusive)", t.seconds())?,
            None => writeln!(out, "from           .. (open: from 1970-01-01T00:00:00Z)")?,
        }
        match to {
            Some(t) => writeln!(out, "to             {t} (exclusive)")?,
            None => writeln!(out, "to             .. (open: up to {LAST}, included)")?,
        }
        writeln!(out, "min            {}", range.lower())?;
        writeln!(out, "max            {}", max(&range))?;
        writeln!(out, "end            {} ({})", upper.id(), operator(upper))?;
        let filter = serde_json::to_string(&Filter(range)).map_err(std::io::Error::from)?;
        writeln!(out, "extended json  {filter}")?;
        writeln!(out, "mongosh        {}", mongosh(&range))?;
    }
    Ok(Status::Ok)
}

#[cfg(test)]
mod tests {
    use jiff::Timestamp;

    use super::*;

    fn t(s: &str) -> Time {
        Time::parse_at(s, Timestamp::UNIX_EPOCH).unwrap()
    }

    fn secs(s: u32) -> Option<Time> {
        Some(Time::from_seconds(s))
    }

    #[test]
    fn half_open_bounds() {
        let r = id_range(secs(1_700_000_000), secs(1_700_000_002)).unwrap();
        assert_eq!(r.lower().to_hex(), "6553f1000000000000000000");
        assert_eq!(max(&r).to_hex(), "6553f101ffffffffffffffff");
        assert_eq!(
            r.upper(),
            Upper::Lt(ObjectId::min_for_timestamp(1_700_000_002))
        );
        assert!(r.contains(&ObjectId::from_parts(1_700_000_001, [0xff; 5], 0xff_ffff)));
        assert!(!r.contains(&ObjectId::from_parts(1_700_000_002, [0; 5], 0)));
        assert!(!r.contains(&ObjectId::from_parts(1_699_999_999, [0xff; 5], 0xff_ffff)));
    }

    #[test]
    fn a_fractional_to_rounds_up() {
        let r = id_range(
            Some(t("2023-11-14T22:13:20Z")),
            Some(t("2023-11-14T22:13:21.5Z")),
        )
        .unwrap();
        assert_eq!(r.upper().id(), ObjectId::min_for_timestamp(1_700_000_002));
        // An id made at :21.2 carries second :21, inside.
        assert!(r.contains(&ObjectId::from_parts(1_700_000_001, [7; 5], 9)));
    }

    #[test]
    fn open_ends() {
        let r = id_range(secs(u32::MAX), None).unwrap();
        assert_eq!(r.upper(), Upper::Lte(ObjectId::MAX));
        assert!(r.contains(&ObjectId::MAX));
        assert_eq!(max(&r), ObjectId::MAX);
        let r = id_range(None, secs(10)).unwrap();
        assert_eq!(r.lower(), ObjectId::MIN);
    }

    #[test]
    fn empty_or_reversed_range_is_an_error() {
        for (from, to) in [(5, 5), (6, 5)] {
            assert!(matches!(
                id_range(secs(from), secs(to)),
                Err(Error::EmptyWindow { .. })
            ));
        }
        // Within one second, but not empty as times: the ids of that second.
        let r = id_range(
            Some(t("1970-01-01T00:00:05.1Z")),
            Some(t("1970-01-01T00:00:05.2Z")),
        )
        .unwrap();
        assert_eq!(
            (r.lower(), r.upper().id()),
            (
                ObjectId::min_for_timestamp(5),
                ObjectId::min_for_timestamp(6)
            )
        );
    }

    #[test]
    fn filters_in_both_syntaxes() {
        let r = id_range(secs(1_350_508_407), secs(1_350_508_408)).unwrap();
        assert_eq!(
            serde_json::to_string(&Filter(r)).unwrap(),
            r#"{"_id":{"$gte":{"$oid":"507f1f770000000000000000"},"$lt":{"$oid":"507f1f780000000000000000"}}}"#
        );
        assert_eq!(
            mongosh(&r),
            r#"{ _id: { $gte: ObjectId("507f1f770000000000000000"), $lt: ObjectId("507f1f780000000000000000") } }"#
        );
        let open = id_range(secs(1_350_508_407), None).unwrap();
        assert_eq!(
            serde_json::to_string(&Filter(open)).unwrap(),
            r#"{"_id":{"$gte":{"$oid":"507f1f770000000000000000"},"$lte":{"$oid":"ffffffffffffffffffffffff"}}}"#
        );
    }

    #[test]
    fn json_output_repeats_the_filter_as_an_object() {
        let args = RangeArgs {
            from: End::At(Time::from_seconds(0)),
            to: Some(End::At(Time::from_seconds(86_400))),
            json: true,
        };
        let mut out = Vec::new();
        run(&args, &mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["from_time"], "1970-01-01T00:00:00Z");
        assert_eq!(v["to_time"], "1970-01-02T00:00:00Z");
        assert_eq!(v["filter"]["_id"]["$gte"]["$oid"], v["min"]);
        assert_eq!(v["filter"]["_id"]["$lt"]["$oid"], v["end"]);
        assert_eq!(v["upper"], "$lt");
        assert_eq!(v["max"], "0001517fffffffffffffffff");
    }
}
