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
fn parse_errors_are_ours_and_fit_app_error_enums() {
    fn assert_bounds<
        E: Clone + std::fmt::Debug + std::fmt::Display + std::error::Error + Send + Sync + 'static,
    >(
        _: &E,
    ) {
    }
    let err: oid_bson::oid::Error = ObjectId::parse_str("12345").unwrap_err();
    assert_bounds(&err);
    assert_eq!(
        err.to_string(),
        "invalid length: expected 24 hex characters, found 5"
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
    assert!(matches!(parse("zz"), Err(AppError::BadId(e)) if e.len() == Some(2)));
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(err);
    assert!(boxed.to_string().starts_with("invalid length"));
}

#[test]
fn default_is_a_new_id_like_bson() {
    assert_ne!(ObjectId::default(), ObjectId::default());
}
