//! The cases of the `bson` crate's own ObjectId tests (its `src/tests/modules/oid.rs`), written
//! against `oid_bson::oid::ObjectId` with bson's method names: if the API differed, this file would
//! not compile. No bson feature needed except for `timestamp()`.

use oid_bson::oid::ObjectId;

/// Lowercase hex of raw bytes, independent of the crate under test.
fn hex(bytes: [u8; 12]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn string_oid() {
    let s = "123456789012123456789012";
    let oid = ObjectId::parse_str(s).unwrap();
    assert_eq!(hex(oid.bytes()), s);
    // `parse_str` takes `impl AsRef<str>` as bson's does.
    assert_eq!(ObjectId::parse_str(String::from(s)).unwrap(), oid);
}

#[test]
fn byte_string_oid() {
    let s = "541b1a00e8a23afa832b218e";
    let oid = ObjectId::parse_str(s).unwrap();
    let bytes: [u8; 12] = [
        0x54, 0x1B, 0x1A, 0x00, 0xE8, 0xA2, 0x3A, 0xFA, 0x83, 0x2B, 0x21, 0x8E,
    ];
    assert_eq!(bytes, oid.bytes());
    assert_eq!(s, oid.to_string());
    assert_eq!(s, oid.to_hex());
    assert_eq!(ObjectId::from_bytes(bytes), oid);
    assert_eq!(ObjectId::from(bytes), oid);
}

#[test]
#[allow(clippy::eq_op)]
fn oid_equals() {
    let oid = ObjectId::new();
    assert_eq!(oid, oid);
}

#[test]
fn oid_not_equals() {
    assert!(ObjectId::new() != ObjectId::new());
}

/// bson checks that the last byte increases; that fails when the counter's low byte wraps, so
/// this checks the whole id (ours is increasing within a thread).
#[test]
fn counter_increasing() {
    let a = ObjectId::new();
    let b = ObjectId::new();
    assert!(a < b);
    assert!(a.bytes() < b.bytes());
}

#[test]
fn fromstr_oid() {
    let s = "123456789012123456789012";
    let oid = s.parse::<ObjectId>().expect("oid parse failed");
    assert_eq!(s, hex(oid.bytes()), "parsed and expected oids differ");
}

#[test]
fn oid_from_parts() {
    let seconds_since_epoch = 123;
    let process_id = [4, 5, 6, 7, 8];
    let counter = [0, 0, 1];
    let oid = ObjectId::from_parts(seconds_since_epoch, process_id, counter);
    assert_eq!(oid.bytes(), [0, 0, 0, 123, 4, 5, 6, 7, 8, 0, 0, 1]);
    #[cfg(any(feature = "bson-3", feature = "bson-2"))]
    assert_eq!(oid.timestamp().timestamp_millis(), 123_000);
}

#[test]
fn debug_and_display_match_bson() {
    let s = "541b1a00e8a23afa832b218e";
    let oid = ObjectId::parse_str(s).unwrap();
    assert_eq!(format!("{oid:?}"), format!("ObjectId(\"{s}\")"));
    assert_eq!(format!("{oid}"), s);
    #[cfg(feature = "bson-3")]
    {
        let theirs = bson::oid::ObjectId::parse_str(s).unwrap();
        assert_eq!(format!("{oid:?}"), format!("{theirs:?}"));
        assert_eq!(format!("{oid:#?}"), format!("{theirs:#?}"));
        assert_eq!(oid.to_string(), theirs.to_string());
        assert_eq!(oid.to_hex(), theirs.to_hex());
    }
    #[cfg(feature = "bson-2")]
    {
        let theirs = bson2::oid::ObjectId::parse_str(s).unwrap();
        assert_eq!(format!("{oid:?}"), format!("{theirs:?}"));
    }
}

#[test]
fn parse_errors_keep_our_message_and_fit_app_error_enums() {
    fn assert_bounds<
        E: Clone + std::fmt::Debug + std::fmt::Display + std::error::Error + Send + Sync + 'static,
    >(
        _: &E,
    ) {
    }
    let err: oid_bson::oid::Error = ObjectId::parse_str("12345").unwrap_err();
    assert_bounds(&err);
    assert!(
        err.to_string()
            .contains("invalid length: expected 24 hex characters, found 5"),
        "{err}"
    );
    let err = "507f1f77bcf86cd79943901g".parse::<ObjectId>().unwrap_err();
    assert!(
        err.to_string()
            .contains("invalid character 'g' at index 23: expected a hex digit"),
        "{err}"
    );

    #[derive(Debug)]
    enum AppError {
        BadId(oid_bson::oid::Error),
    }
    impl From<oid_bson::oid::Error> for AppError {
        fn from(e: oid_bson::oid::Error) -> Self {
            AppError::BadId(e)
        }
    }
    fn parse(s: &str) -> Result<ObjectId, AppError> {
        Ok(ObjectId::parse_str(s)?)
    }
    assert!(matches!(parse("zz"), Err(AppError::BadId(e)) if e.to_string().contains("found 2")));
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(err);
    assert!(boxed.to_string().contains("invalid character 'g'"));
}

/// With `bson-3`, the error is bson 3's own, of kind `ObjectId` as bson's `parse_str` returns, so
/// `?` converts it where bson's converts (`bson::error::Error`, and the driver's error).
#[cfg(feature = "bson-3")]
#[test]
fn with_bson_3_the_parse_error_is_bsons_own() {
    use bson::error::{ErrorKind, ObjectIdErrorKind};

    /// What the `mongodb` driver's error does with bson 3: `From<bson::error::Error>` only.
    #[derive(Debug)]
    struct DriverError(bson::error::Error);
    impl From<bson::error::Error> for DriverError {
        fn from(e: bson::error::Error) -> Self {
            DriverError(e)
        }
    }
    fn driver(s: &str) -> Result<ObjectId, DriverError> {
        Ok(ObjectId::parse_str(s)?)
    }
    fn parse(s: &str) -> bson::error::Result<ObjectId> {
        driver(s).map_err(|e| e.0)
    }
    fn theirs(s: &str) -> bson::error::Result<bson::oid::ObjectId> {
        bson::oid::ObjectId::parse_str(s)
    }
    for bad in [
        "zz",
        "507f1f77bcf86cd79943901g",
        "507f1f77bcf86cd79943901",
        "é07f1f77bcf86cd79943901",
    ] {
        let ours = parse(bad).unwrap_err();
        let theirs = theirs(bad).unwrap_err();
        // The same kind, field for field, as bson's own error for the same input.
        assert_eq!(
            format!("{:?}", ours.kind),
            format!("{:?}", theirs.kind),
            "{bad}"
        );
        assert!(ours.message.is_some(), "{bad}: our message is kept");
    }
    let err = parse("507f1f77bcf86cd79943901g").unwrap_err();
    assert!(matches!(
        err.kind,
        ErrorKind::ObjectId {
            kind: ObjectIdErrorKind::InvalidHexStringCharacter {
                c: 'g',
                index: 23,
                ..
            },
            ..
        }
    ));
    assert_eq!(
        err.message.as_deref(),
        Some("invalid character 'g' at index 23: expected a hex digit")
    );
    // bson decides the kind (here: a hex digit is missing), our message says what is wrong.
    let err = parse("abc").unwrap_err();
    assert!(
        matches!(
            err.kind,
            ErrorKind::ObjectId {
                kind: ObjectIdErrorKind::InvalidHexStringLength { .. },
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("expected 24 hex characters, found 3"),
        "{err}"
    );
}

/// Without `bson-3`, the error is oid-core's `ParseError`: bson 2's `oid::Error` enum cannot be
/// built outside bson; `len()` and `invalid_char()` replace a `match` on its variants.
#[cfg(not(feature = "bson-3"))]
#[test]
fn without_bson_3_the_parse_error_is_oid_cores() {
    let err: oid_core::ParseError = ObjectId::parse_str("zz").unwrap_err();
    assert_eq!(err.len(), Some(2));
    assert_eq!(
        err.to_string(),
        "invalid length: expected 24 hex characters, found 2"
    );
    let err = ObjectId::parse_str("507f1f77bcf86cd79943901g").unwrap_err();
    assert_eq!(err.invalid_char(), Some(('g', 23)));
}

#[test]
fn default_is_a_new_id_like_bson() {
    assert_ne!(ObjectId::default(), ObjectId::default());
}
