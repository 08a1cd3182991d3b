//! `oid range`: half-open ranges, rounding, open ends, and the filters.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use common::{oid, ok, usage_error};

#[test]
fn range_prints_bounds_and_both_filters() {
    assert_eq!(
        ok(&["range", "2023-11-14T22:13:20Z", "1700000002"]),
        "\
from           2023-11-14T22:13:20Z (1700000000, inclusive)
to             2023-11-14T22:13:22Z (exclusive)
min            6553f1000000000000000000
max            6553f101ffffffffffffffff
end            6553f1020000000000000000 ($lt)
extended json  {\"_id\":{\"$gte\":{\"$oid\":\"6553f1000000000000000000\"},\"$lt\":{\"$oid\":\"6553f1020000000000000000\"}}}
mongosh        { _id: { $gte: ObjectId(\"6553f1000000000000000000\"), $lt: ObjectId(\"6553f1020000000000000000\") } }
"
    );
}

#[test]
fn dates_and_a_fractional_end_rounded_up() {
    let end = |args: &[&str]| {
        let v: serde_json::Value =
            serde_json::from_str(&ok(&[&["range", "--json"], args].concat())).unwrap();
        (
            v["min"].as_str().unwrap().to_owned(),
            v["end"].as_str().unwrap().to_owned(),
            v["upper"].as_str().unwrap().to_owned(),
        )
    };
    // January 2024.
    assert_eq!(
        end(&["2024-01-01", "2024-02-01"]),
        (
            "65920080".to_owned() + "0000000000000000",
            "65badf00".to_owned() + "0000000000000000",
            "$lt".to_owned()
        )
    );
    // An exclusive end at :21.5 keeps ids made at :21.2 (second :21): the bound is :22.
    let (_, e, _) = end(&["2023-11-14T22:13:20Z", "2023-11-14T22:13:21.5Z"]);
    assert_eq!(e, "6553f1020000000000000000");
    // No offset means UTC; -0 is the epoch.
    assert_eq!(
        end(&["-0", "2023-11-14T22:13:20"]).1,
        "6553f1000000000000000000"
    );
}

#[test]
fn open_end_includes_the_last_second() {
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["range", "--json", "4294967295"])).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "from": 4_294_967_295_u32,
            "from_time": "2106-02-07T06:28:15Z",
            "to": null,
            "to_time": null,
            "min": "ffffffff0000000000000000",
            "max": "ffffffffffffffffffffffff",
            "end": "ffffffffffffffffffffffff",
            "upper": "$lte",
            "filter": {"_id": {"$gte": {"$oid": "ffffffff0000000000000000"}, "$lte": {"$oid": "ffffffffffffffffffffffff"}}},
            "mongosh": "{ _id: { $gte: ObjectId(\"ffffffff0000000000000000\"), $lte: ObjectId(\"ffffffffffffffffffffffff\") } }",
        })
    );
    assert_eq!(
        ok(&["range", "1700000000", ".."]),
        ok(&["range", "1700000000"])
    );
    let out = ok(&["range", "..", "1700000000"]);
    assert!(
        out.starts_with("from           .. (open: from 1970-01-01T00:00:00Z)\n"),
        "{out}"
    );
    assert!(
        out.contains("min            000000000000000000000000\n"),
        "{out}"
    );
    let out = ok(&["range", "-1h"]);
    assert!(
        out.contains("to             .. (open: up to 2106-02-07T06:28:15Z, included)\n"),
        "{out}"
    );
    assert!(
        out.contains("$lte: ObjectId(\"ffffffffffffffffffffffff\")"),
        "{out}"
    );
}

#[test]
fn range_errors() {
    oid()
        .args(["range", "1700000001", "1700000000"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("oid: FROM 2023-11-14T22:13:21Z is later than TO 2023-11-14T22:13:20Z\n");
    oid()
        .args(["range", "5", "1970-01-01T00:00:05Z"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("oid: FROM and TO are both 1970-01-01T00:00:05Z: the range [FROM, TO) is empty\n");
    usage_error(&["range", "-5", "10"], &["'-5'", "before 1970"]);
    usage_error(
        &["range", "0", "4294967296"],
        &["'4294967296'", "after 2106"],
    );
    usage_error(
        &["range", "0", "1700000000123"],
        &["1700000000123 looks like milliseconds; use 1700000000"],
    );
    usage_error(
        &["range", "0", "soon"],
        &["'soon'", "not a time: use RFC 3339"],
    );
    usage_error(&["range"], &["required"]);
}
