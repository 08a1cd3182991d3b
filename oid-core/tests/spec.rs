//! Cases from the MongoDB ObjectId specification and the product's worked examples.

use oid_core::{LegacyParts, ObjectId, Parts, oid};

/// Days-from-civil (Howard Hinnant), to check timestamps against calendar dates without a
/// date crate.
fn ymdhms(secs: u32) -> (i64, u32, u32, u32, u32, u32) {
    let secs = i64::from(secs);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        (rem / 60 % 60) as u32,
        (rem % 60) as u32,
    )
}

#[test]
fn spec_timestamp_cases_are_unsigned() {
    let cases = [
        (
            "000000000000000000000000",
            0x0000_0000,
            (1970, 1, 1, 0, 0, 0),
        ),
        (
            "7fffffff0000000000000000",
            0x7fff_ffff,
            (2038, 1, 19, 3, 14, 7),
        ),
        (
            "800000000000000000000000",
            0x8000_0000,
            (2038, 1, 19, 3, 14, 8),
        ),
        (
            "ffffffff0000000000000000",
            0xffff_ffff,
            (2106, 2, 7, 6, 28, 15),
        ),
    ];
    for (hex, secs, date) in cases {
        let id = ObjectId::parse_str(hex).unwrap();
        assert_eq!(id.timestamp(), secs, "{hex}");
        assert_eq!(ymdhms(id.timestamp()), date, "{hex}");
    }
}

#[test]
fn worked_example_from_parts() {
    let id = ObjectId::from_parts(1_700_000_000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
    assert_eq!(id.to_hex(), "6553f1003f2a91c8d4003039");
    let next = ObjectId::from_parts(1_700_000_000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12346);
    assert_eq!(next.to_hex(), "6553f1003f2a91c8d400303a");
    assert!(id < next);
    assert_eq!(ymdhms(id.timestamp()), (2023, 11, 14, 22, 13, 20));
}

/// `from_parts` (built from words, for the generators' hot paths) lays the fields out byte by
/// byte as the specification says, at the edges of each field.
#[test]
fn from_parts_is_the_byte_layout() {
    for secs in [0, 1, 1_700_000_000, 0x8000_0000, u32::MAX] {
        for random in [
            [0; 5],
            [0x3f, 0x2a, 0x91, 0xc8, 0xd4],
            [0xff; 5],
            [1, 0, 0, 0, 0x80],
        ] {
            for counter in [0, 1, 12345, 0xff_ffff, 0x100_0000, 0x1ff_ffff, u32::MAX] {
                let t = secs.to_be_bytes();
                let c = counter.to_be_bytes();
                let want = [
                    t[0], t[1], t[2], t[3], random[0], random[1], random[2], random[3], random[4],
                    c[1], c[2], c[3],
                ];
                assert_eq!(ObjectId::from_parts(secs, random, counter).bytes(), want);
            }
        }
    }
}

#[test]
fn well_known_id_decodes() {
    let id = oid!("507f1f77bcf86cd799439011");
    assert_eq!(id.timestamp(), 1_350_508_407);
    assert_eq!(ymdhms(id.timestamp()), (2012, 10, 17, 21, 13, 27));
    assert_eq!(
        id.to_parts(),
        Parts {
            timestamp: 1_350_508_407,
            random: [0xbc, 0xf8, 0x6c, 0xd7, 0x99],
            counter: 0x43_9011
        }
    );
    assert_eq!(
        id.to_legacy_parts(),
        LegacyParts {
            timestamp: 1_350_508_407,
            machine: 0xbc_f86c,
            process_id: 0xd799,
            counter: 0x43_9011
        }
    );
    assert_eq!(
        ObjectId::from_legacy_parts(1_350_508_407, 0xbc_f86c, 0xd799, 0x43_9011),
        id
    );
}

#[test]
fn seed_document_example_decodes() {
    // From the legacy-layout seed document: 50c6b336 ba95d7 738d 1042e3.
    let p = oid!("50c6b336ba95d7738d1042e3").to_legacy_parts();
    assert_eq!(
        (p.machine, p.process_id, p.counter),
        (0xba95d7, 0x738d, 0x1042e3)
    );
}

#[test]
fn range_bounds_cover_exactly_one_second() {
    let lo = ObjectId::min_for_timestamp(1_700_000_000);
    let hi = ObjectId::max_for_timestamp(1_700_000_000);
    assert!(ObjectId::max_for_timestamp(1_699_999_999) < lo);
    assert!(hi < ObjectId::min_for_timestamp(1_700_000_001));
    assert_eq!(ObjectId::min_for_timestamp(0), ObjectId::MIN);
    assert_eq!(ObjectId::max_for_timestamp(u32::MAX), ObjectId::MAX);
}

#[test]
fn from_parts_truncates_counter_to_24_bits() {
    let a = ObjectId::from_parts(1, [0; 5], 0xff12_3456);
    assert_eq!(a.to_parts().counter, 0x12_3456);
    assert_eq!(a.to_hex(), "000000010000000000123456");
}

#[test]
fn byte_conversions() {
    let id = oid!("507f1f77bcf86cd799439011");
    let bytes: [u8; 12] = id.into();
    assert_eq!(ObjectId::from(bytes), id);
    assert_eq!(ObjectId::try_from(id.as_ref()), Ok(id));
    for len in [0usize, 11, 13, 24] {
        let v = vec![0u8; len];
        let err = ObjectId::try_from(v.as_slice()).unwrap_err();
        assert_eq!(err.len(), len);
        assert_eq!(
            err.to_string(),
            format!("invalid length: expected 12 bytes, found {len}")
        );
    }
}

#[test]
fn formatting_variants() {
    let id = oid!("507f1f77bcf86cd799439011");
    assert_eq!(id.to_string(), "507f1f77bcf86cd799439011");
    assert_eq!(format!("{id:x}"), "507f1f77bcf86cd799439011");
    assert_eq!(format!("{id:X}"), "507F1F77BCF86CD799439011");
    assert_eq!(format!("{id:?}"), "ObjectId(\"507f1f77bcf86cd799439011\")");
    assert_eq!(format!("{:?}", id.to_hex()), "\"507f1f77bcf86cd799439011\"");
    assert_eq!(format!("{:<26}|", id), "507f1f77bcf86cd799439011  |");
    let mut buf = [0u8; 24];
    assert_eq!(id.encode_hex_upper(&mut buf), "507F1F77BCF86CD799439011");
    assert_eq!(id.to_hex_upper().as_bytes(), b"507F1F77BCF86CD799439011");
}

#[test]
fn const_contexts() {
    const ID: ObjectId = oid!("6553f1003f2a91c8d4003039");
    const TS: u32 = ID.timestamp();
    const PARTS: Parts = ID.to_parts();
    const VALID: bool = ObjectId::is_valid("6553f1003f2a91c8d4003039");
    assert_eq!(TS, 1_700_000_000);
    assert_eq!(PARTS.counter, 12345);
    const { assert!(VALID) };
}
