//! Time arguments read what the web page's time fields read (an id in any pasted form,
//! `ISODate(…)`, `new Date(…)`, `{"$date": …}`), the messages for an id split by a space, and
//! the defaults shown in `--help`.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use common::{ids, oid, ok, usage_error};

const ID: &str = "507f1f77bcf86cd799439011";

/// Every pasted form of 2012-10-17T21:13:27Z (the second `ID` was made in).
const FORMS: &[&str] = &[
    ID,
    "ObjectId(\"507f1f77bcf86cd799439011\")",
    "new ObjectId('507F1F77BCF86CD799439011')",
    "{\"$oid\": \"507f1f77bcf86cd799439011\"}",
    "ISODate(\"2012-10-17T21:13:27Z\")",
    "ISODate('2012-10-17T21:13:27.000Z')",
    "new Date(\"2012-10-17T23:13:27+02:00\")",
    "new Date(1350508407000)",
    "{\"$date\": \"2012-10-17T21:13:27Z\"}",
    "{\"$date\": {\"$numberLong\": \"1350508407000\"}}",
];

#[test]
fn range_takes_every_pasted_form() {
    let expected = ok(&["range", "2012-10-17T21:13:27Z", "2012-10-17T21:13:28Z"]);
    for form in FORMS {
        assert_eq!(
            ok(&["range", form, "2012-10-17T21:13:28Z"]),
            expected,
            "{form}"
        );
    }
    // Both ends pasted, one of them as the next second's id.
    assert_eq!(
        ok(&[
            "range",
            "ISODate('2012-10-17T21:13:27Z')",
            "ObjectId('507f1f780000000000000000')"
        ]),
        expected
    );
}

#[test]
fn new_time_takes_every_pasted_form() {
    for form in FORMS {
        let out = ok(&["new", "3", "--time", form]);
        let made = ids(&out);
        assert_eq!(made.len(), 3, "{form}");
        for id in made {
            assert_eq!(id.timestamp(), 1_350_508_407, "{form}");
        }
    }
}

#[test]
fn a_bad_pasted_date_says_which_form_and_why() {
    usage_error(
        &["range", "ISODate('2024-02-30')"],
        &["invalid date in ISODate(\"…\"): expected RFC 3339"],
    );
    usage_error(
        &["new", "--time", "new Date(1e3)"],
        &["invalid date in new Date(…)", "or milliseconds since 1970"],
    );
    usage_error(
        &["range", "new Date(-1000)"],
        &["before 1970-01-01T00:00:00Z"],
    );
    usage_error(
        &["range", "yesterday"],
        &[
            "not a time: use RFC 3339",
            "ISODate(\"…\"), new Date(…) or {\"$date\": …}",
        ],
    );
}

#[test]
fn a_space_inside_an_id_is_named() {
    for cmd in ["inspect", "validate"] {
        let output = oid()
            .args([cmd, "507f1f77 bcf86cd799439011"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{cmd}: {output:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.starts_with(
                "oid: argument 1: \"507f1f77 bcf86cd799439011\": invalid length: expected 24 hex \
                 characters, found 25 (a space at index 8 splits the id)\n\
                 oid: hint: did you mean 507f1f77bcf86cd799439011?\n"
            ),
            "{cmd}: {stderr}"
        );
    }
}

#[test]
fn an_id_split_across_two_arguments_gets_a_hint_to_join_them() {
    let output = oid()
        .args(["inspect", "507f1f77bcf8", "6cd799439011"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "oid: argument 1: \"507f1f77bcf8\": invalid length: expected 24 hex characters, found 12",
            "oid: argument 2: \"6cd799439011\": invalid length: expected 24 hex characters, found 12",
            "oid: hint: arguments 1 and 2 together are the id 507f1f77bcf86cd799439011: a space \
             split it; join them, or quote the whole id",
        ],
        "{stderr}"
    );
    // A valid id next to a fragment, or two fragments that make no id: no such hint.
    for args in [
        ["validate", ID, "6cd799439011"],
        ["validate", "507f1f77bcf8", "6cd79943901"],
    ] {
        let output = oid().args(args).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(!stderr.contains("together"), "{args:?}: {stderr}");
    }
}

#[test]
fn help_shows_the_defaults() {
    let new = ok(&["new", "--help"]);
    assert!(
        new.contains("[default: hex; with -o, by OUT's extension"),
        "{new}"
    );
    assert!(new.contains("[default: 1]"), "{new}");
    let inspect = ok(&["inspect", "--help"]);
    assert!(inspect.contains("[default: text]"), "{inspect}");
    // The default does not conflict with --json.
    let json = ok(&["new", "--json", "--time", ID]);
    assert!(json.starts_with("{\"id\":\"507f1f77"), "{json}");
}
