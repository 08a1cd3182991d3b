//! Every kernel against oid-core's one-id functions, row by row, on random and edge columns.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use std::sync::Arc;

use arrow_array::builder::{BinaryViewBuilder, StringViewBuilder};
use arrow_array::{
    Array, ArrayRef, BinaryArray, FixedSizeBinaryArray, LargeBinaryArray, LargeStringArray,
    StringArray, TimestampMicrosecondArray, TimestampMillisecondArray, TimestampNanosecondArray,
    TimestampSecondArray,
};
use arrow_schema::DataType;
use oid_arrow::compute::{self, OnInvalid};
use oid_arrow::{Error, ObjectIdArray};
use oid_core::ObjectId;
use proptest::prelude::*;

/// The same rows as every text type the kernels take.
fn text_arrays(rows: &[Option<Vec<u8>>]) -> Vec<ArrayRef> {
    let utf8: Option<Vec<Option<String>>> = rows
        .iter()
        .map(|r| match r {
            None => Some(None),
            Some(b) => String::from_utf8(b.clone()).ok().map(Some),
        })
        .collect();
    let bytes: Vec<Option<&[u8]>> = rows.iter().map(|r| r.as_deref()).collect();
    let mut out: Vec<ArrayRef> = vec![
        Arc::new(BinaryArray::from(bytes.clone())),
        Arc::new(LargeBinaryArray::from(bytes.clone())),
    ];
    let mut view = BinaryViewBuilder::new();
    for r in &bytes {
        view.append_option(*r);
    }
    out.push(Arc::new(view.finish()));
    if rows.iter().flatten().all(|r| r.len() == 24) {
        let fixed = FixedSizeBinaryArray::try_from_sparse_iter_with_size(bytes.iter().copied(), 24);
        out.push(Arc::new(fixed.unwrap()));
    }
    if let Some(utf8) = utf8 {
        out.push(Arc::new(StringArray::from(utf8.clone())));
        out.push(Arc::new(LargeStringArray::from(utf8.clone())));
        let mut view = StringViewBuilder::new();
        for r in &utf8 {
            view.append_option(r.as_deref());
        }
        out.push(Arc::new(view.finish()));
    }
    out
}

/// Checks parse_hex (both modes) and is_valid_hex against `ObjectId::try_parse_ascii` row by row.
fn check_text(rows: &[Option<Vec<u8>>]) {
    for array in text_arrays(rows) {
        check_text_array(array.as_ref(), rows);
        // And a slice with an offset, when there is room.
        if rows.len() > 2 {
            let sliced = array.slice(1, rows.len() - 2);
            check_text_array(sliced.as_ref(), &rows[1..rows.len() - 1]);
        }
    }
}

fn check_text_array(array: &dyn Array, rows: &[Option<Vec<u8>>]) {
    let what = array.data_type().clone();
    let expected: Vec<Option<Result<ObjectId, oid_core::ParseError>>> = rows
        .iter()
        .map(|r| r.as_ref().map(|b| ObjectId::try_parse_ascii(b)))
        .collect();
    // Lenient: every row as the core says, nulls where the core fails or the row is null.
    let lenient = compute::parse_hex(array, OnInvalid::Null).unwrap();
    assert_eq!(lenient.len(), rows.len());
    for (i, e) in expected.iter().enumerate() {
        let want = e.and_then(Result::ok);
        assert_eq!(lenient.get(i), want, "{what} row {i}");
        assert_eq!(lenient.is_null(i), want.is_none(), "{what} row {i}");
    }
    // Strict: the first failing row, with the core's reason; otherwise the same ids.
    let first_bad = expected.iter().enumerate().find_map(|(i, e)| match e {
        Some(Err(err)) => Some((i, *err)),
        _ => None,
    });
    match (compute::parse_hex(array, OnInvalid::Error), first_bad) {
        (Ok(ids), None) => assert_eq!(ids, lenient, "{what}"),
        (Err(Error::InvalidId { row, error }), Some((i, err))) => {
            assert_eq!((row, error), (i, err), "{what}")
        }
        (other, want) => panic!("{what}: {other:?}, expected failure at {want:?}"),
    }
    // Validity: null stays null, otherwise whether the core parses the row.
    let valid = compute::is_valid_hex(array).unwrap();
    assert_eq!(valid.len(), rows.len());
    for (i, e) in expected.iter().enumerate() {
        match e {
            None => assert!(valid.is_null(i), "{what} row {i}"),
            Some(r) => assert_eq!(valid.value(i), r.is_ok(), "{what} row {i}"),
        }
    }
}

/// Checks the id → value kernels against the core, row by row.
fn check_ids(ids: &ObjectIdArray) {
    let hex = compute::to_hex(ids).unwrap();
    let view = compute::to_hex_view(ids).unwrap();
    let time = compute::timestamp(ids);
    let random = compute::random(ids);
    let counter = compute::counter(ids);
    // The text arrays are built unchecked: they must pass arrow-rs's full validation.
    hex.to_data().validate_full().unwrap();
    view.to_data().validate_full().unwrap();
    assert_eq!(
        time.data_type(),
        &DataType::Timestamp(arrow_schema::TimeUnit::Second, Some("UTC".into()))
    );
    assert_eq!(random.data_type(), &DataType::FixedSizeBinary(5));
    for (i, id) in ids.iter().enumerate() {
        for a in [&hex as &dyn Array, &view, &time, &random, &counter] {
            assert_eq!(a.len(), ids.len());
            assert_eq!(a.is_null(i), id.is_none(), "row {i}");
        }
        let Some(id) = id else { continue };
        assert_eq!(hex.value(i), id.to_hex().as_str());
        assert_eq!(view.value(i), id.to_hex().as_str());
        let parts = id.to_parts();
        assert_eq!(time.value(i), i64::from(parts.timestamp));
        assert_eq!(random.value(i), parts.random);
        assert_eq!(counter.value(i), parts.counter);
        // And back.
        let back = compute::parse_hex(&hex, OnInvalid::Error).unwrap();
        assert_eq!(back.get(i), Some(id));
    }
    // Times → the first and last id of their second, against the core.
    let lo = compute::min_for_timestamp(&time, OnInvalid::Error).unwrap();
    let hi = compute::max_for_timestamp(&time, OnInvalid::Error).unwrap();
    for (i, id) in ids.iter().enumerate() {
        match id {
            None => assert!(lo.is_null(i) && hi.is_null(i)),
            Some(id) => {
                assert_eq!(lo.get(i), Some(ObjectId::min_for_timestamp(id.timestamp())));
                assert_eq!(hi.get(i), Some(ObjectId::max_for_timestamp(id.timestamp())));
                assert!(lo.value(i) <= id && id <= hi.value(i));
            }
        }
    }
}

fn hex_row(id: &ObjectId) -> Option<Vec<u8>> {
    Some(id.to_hex().as_bytes().to_vec())
}

#[test]
fn empty_and_all_null_columns() {
    check_text(&[]);
    check_text(&[None, None, None]);
    let empty: ObjectIdArray = Vec::<ObjectId>::new().into();
    check_ids(&empty);
    let nulls: ObjectIdArray = vec![None, None].into();
    check_ids(&nulls);
    assert_eq!(compute::to_hex(&nulls).unwrap().null_count(), 2);
}

#[test]
fn edge_times_1970_and_2106() {
    let ids = vec![
        Some(ObjectId::MIN),
        Some(ObjectId::MAX),
        None,
        Some(ObjectId::from_parts(u32::MAX, [1, 2, 3, 4, 5], 0xff_ffff)),
        Some(ObjectId::from_parts(0, [0xff; 5], 0)),
    ];
    let array: ObjectIdArray = ids.clone().into();
    check_ids(&array);
    check_ids(&array.slice(1, 3));
    let t = compute::timestamp(&array);
    assert_eq!(t.value(0), 0);
    assert_eq!(t.value(1), 4_294_967_295);
    check_text(
        &ids.iter()
            .map(|i| i.as_ref().and_then(hex_row))
            .collect::<Vec<_>>(),
    );
}

#[test]
fn mixed_case_and_bad_rows_in_each_position() {
    let id = ObjectId::parse_str("507f1f77bcf86cd799439011").unwrap();
    let good: Vec<Option<Vec<u8>>> = vec![
        Some(b"507F1F77BCF86CD799439011".to_vec()),
        hex_row(&id),
        Some(b"507f1F77bCf86cD799439011".to_vec()),
        None,
        hex_row(&ObjectId::MAX),
    ];
    check_text(&good);
    let bads: [&[u8]; 8] = [
        b"507f1f77bcf86cd79943901g", // 24 bytes, one bad digit (the one-pass path)
        b"507f1f77bcf86cd79943901",  // short
        b"507f1f77bcf86cd7994390111", // long
        b"",                         // empty
        b" 07f1f77bcf86cd799439011", // space
        "é07f1f77bcf86cd79943901".as_bytes(), // non-ASCII, 24 bytes
        b"0x7f1f77bcf86cd799439011",
        b"507f1f77bcf86cd79943901\xff", // not UTF-8 (binary types only)
    ];
    for bad in bads {
        for at in 0..good.len() {
            let mut rows = good.clone();
            rows[at] = Some(bad.to_vec());
            check_text(&rows);
            // Two bad rows: the first one is reported.
            let mut rows2 = rows.clone();
            rows2[good.len() - 1] = Some(b"zz".to_vec());
            check_text(&rows2);
        }
    }
}

#[test]
fn a_null_row_with_bad_bytes_under_it_is_not_parsed() {
    // A null slot holding 24 bytes that are not hex, in a column whose rows are all 24 bytes.
    let values = b"507f1f77bcf86cd799439011zzzzzzzzzzzzzzzzzzzzzzzz".to_vec();
    let offsets = arrow_buffer::OffsetBuffer::from_lengths([24, 24]);
    let nulls = arrow_buffer::NullBuffer::from(vec![true, false]);
    let text = StringArray::try_new(offsets, values.into(), Some(nulls)).unwrap();
    let ids = compute::parse_hex(&text, OnInvalid::Error).unwrap();
    assert_eq!(ids.null_count(), 1);
    assert_eq!(
        ids.get(0).map(|i| i.to_hex().to_string()).as_deref(),
        Some("507f1f77bcf86cd799439011")
    );
    assert!(compute::is_valid_hex(&text).unwrap().is_null(1));
}

#[test]
fn other_input_types_are_a_typed_error() {
    let ints = arrow_array::Int32Array::from(vec![1]);
    for r in [
        compute::parse_hex(&ints, OnInvalid::Null).map(|_| ()),
        compute::is_valid_hex(&ints).map(|_| ()),
        compute::min_for_timestamp(&ints, OnInvalid::Null).map(|_| ()),
        compute::max_for_timestamp(&ints, OnInvalid::Error).map(|_| ()),
    ] {
        assert!(
            matches!(
                r,
                Err(Error::DataType {
                    found: DataType::Int32,
                    ..
                })
            ),
            "{r:?}"
        );
    }
    let fixed12 = FixedSizeBinaryArray::try_from_iter(std::iter::once([0u8; 12])).unwrap();
    let err = compute::parse_hex(&fixed12, OnInvalid::Null).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("unsupported data type: expected Utf8"),
        "{err}"
    );
    assert!(ObjectIdArray::try_from(&fixed12 as &dyn Array).is_ok());
    let fixed16 = FixedSizeBinaryArray::try_from_iter(std::iter::once([0u8; 16])).unwrap();
    assert!(ObjectIdArray::try_from(fixed16).is_err());
}

#[test]
fn times_of_every_unit_round_down_to_their_second() {
    let secs: [i64; 5] = [0, 1, 1_700_000_000, 4_294_967_295, 59];
    let arrays: Vec<(ArrayRef, i64)> = vec![
        (Arc::new(TimestampSecondArray::from(secs.to_vec())), 1),
        (
            Arc::new(TimestampMillisecondArray::from(
                secs.map(|s| s * 1_000 + 999).to_vec(),
            )),
            1_000,
        ),
        (
            Arc::new(
                TimestampMicrosecondArray::from(secs.map(|s| s * 1_000_000 + 1).to_vec())
                    .with_timezone("+02:00"),
            ),
            1,
        ),
        (
            Arc::new(TimestampNanosecondArray::from(
                secs.map(|s| s * 1_000_000_000).to_vec(),
            )),
            1,
        ),
    ];
    for (array, _) in arrays {
        let lo = compute::min_for_timestamp(array.as_ref(), OnInvalid::Error).unwrap();
        let hi = compute::max_for_timestamp(array.as_ref(), OnInvalid::Error).unwrap();
        for (i, s) in secs.iter().enumerate() {
            let s = u32::try_from(*s).unwrap();
            assert_eq!(lo.value(i), ObjectId::min_for_timestamp(s));
            assert_eq!(hi.value(i), ObjectId::max_for_timestamp(s));
        }
    }
    // Out of range on both sides, and a null over an out-of-range value is just null.
    let times =
        TimestampMillisecondArray::from(vec![Some(-1), Some(4_294_967_296_000), None, Some(0)]);
    let lo = compute::min_for_timestamp(&times, OnInvalid::Null).unwrap();
    assert_eq!(
        lo.iter().collect::<Vec<_>>(),
        [None, None, None, Some(ObjectId::MIN)]
    );
    let err = compute::max_for_timestamp(&times, OnInvalid::Error).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TimeOutOfRange {
                row: 0,
                seconds: -1
            }
        ),
        "{err:?}"
    );
    let sliced = times.slice(1, 3);
    let err = compute::max_for_timestamp(&sliced, OnInvalid::Error).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TimeOutOfRange {
                row: 0,
                seconds: 4_294_967_296
            }
        ),
        "{err:?}"
    );
    let mut with_null_over_bad = TimestampSecondArray::from(vec![-5, 3]);
    with_null_over_bad = TimestampSecondArray::new(
        with_null_over_bad.values().clone(),
        Some(arrow_buffer::NullBuffer::from(vec![false, true])),
    );
    let ids = compute::min_for_timestamp(&with_null_over_bad, OnInvalid::Error).unwrap();
    assert_eq!(
        ids.iter().collect::<Vec<_>>(),
        [None, Some(ObjectId::min_for_timestamp(3))]
    );
}

#[test]
fn array_conversions_share_the_buffers() {
    let ids: ObjectIdArray = (0..100u32)
        .map(|i| ObjectId::from_parts(i, [7; 5], i))
        .collect();
    let ptr = ids.as_inner().values().as_ptr();
    let inner = ids.clone().into_inner();
    assert_eq!(inner.values().as_ptr(), ptr);
    let back = ObjectIdArray::try_from(inner).unwrap();
    assert_eq!(back.as_inner().values().as_ptr(), ptr);
    let array: ArrayRef = back.into();
    let again = ObjectIdArray::try_from(array).unwrap();
    assert_eq!(again.as_inner().values().as_ptr(), ptr);
    assert_eq!(again, ids);
    let sliced = ids.slice(10, 5);
    assert_eq!(
        sliced.iter().next_back(),
        Some(Some(ObjectId::from_parts(14, [7; 5], 14)))
    );
    assert_eq!(sliced.values().len(), 5);
    assert_eq!(sliced.get(5), None);
    assert_eq!(sliced.iter().len(), 5);
}

fn arb_id() -> impl Strategy<Value = ObjectId> {
    any::<[u8; 12]>().prop_map(ObjectId::from_bytes)
}

/// A row: an id's hex in a random case, a mutation of one, or null.
fn arb_row() -> impl Strategy<Value = Option<Vec<u8>>> {
    prop_oneof![
        4 => (arb_id(), any::<u32>()).prop_map(|(id, case)| {
            let mut b = id.to_hex().as_bytes().to_vec();
            for (k, c) in b.iter_mut().enumerate() {
                if case >> (k % 32) & 1 == 1 {
                    c.make_ascii_uppercase();
                }
            }
            Some(b)
        }),
        1 => Just(None),
        1 => (arb_id(), 0usize..24, any::<u8>()).prop_map(|(id, at, byte)| {
            let mut b = id.to_hex().as_bytes().to_vec();
            b[at] = byte;
            Some(b)
        }),
        1 => proptest::collection::vec(any::<u8>(), 0..30).prop_map(Some),
    ]
}

proptest! {
    #[test]
    fn text_columns_agree_with_the_core(rows in proptest::collection::vec(arb_row(), 0..40)) {
        check_text(&rows);
    }

    #[test]
    fn id_columns_agree_with_the_core(ids in proptest::collection::vec(proptest::option::weighted(0.8, arb_id()), 0..40)) {
        let array: ObjectIdArray = ids.clone().into();
        prop_assert_eq!(array.iter().collect::<Vec<_>>(), ids.clone());
        check_ids(&array);
        if ids.len() > 2 {
            check_ids(&array.slice(1, ids.len() - 2));
        }
    }
}

#[test]
fn large_columns_with_empty_null_rows() {
    // Nulls as pyarrow writes them (empty rows) among 24-byte rows, over several blocks of
    // 256 rows: each block's hex follows on from the last one's.
    let rows: Vec<Option<Vec<u8>>> = (0..1_000u32)
        .map(|i| {
            let id = ObjectId::from_parts(i * 11, [i as u8; 5], i);
            (i % 7 != 3).then(|| id.to_hex().as_bytes().to_vec())
        })
        .collect();
    check_text(&rows);
    for bad in [
        &b"507f1f77bcf86cd79943901g"[..],
        b"",
        b"507f1f77bcf86cd79943901",
    ] {
        for at in [0, 255, 256, 257, 600, 999] {
            let mut rows = rows.clone();
            rows[at] = Some(bad.to_vec());
            check_text(&rows);
        }
    }
}

#[test]
fn large_columns_with_bad_rows_at_block_edges() {
    // 1,000 rows of 24 bytes: the one-pass path decodes them in blocks of 256 rows.
    let ids: Vec<ObjectId> = (0..1_000u32)
        .map(|i| ObjectId::from_parts(i * 7, [i as u8; 5], i))
        .collect();
    let good: Vec<Option<Vec<u8>>> = ids.iter().map(hex_row).collect();
    check_text(&good);
    let bads: [&[u8]; 4] = [
        b"0x7f1f77bcf86cd799439011", // a prefix const-hex would strip at a block start
        b"0X7F1F77BCF86CD799439011",
        b"507f1f77bcf86cd79943901g",
        b"507f1f77bcf86cd79943901\xff",
    ];
    for bad in bads {
        for at in [0, 1, 255, 256, 257, 511, 512, 767, 768, 999] {
            let mut rows = good.clone();
            rows[at] = Some(bad.to_vec());
            check_text(&rows);
        }
    }
    // Nulls over bytes that are not hex, at block edges, in a column whose rows are all 24
    // bytes: not parsed, not reported.
    let mut text = Vec::new();
    let mut valid = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let null = [0, 255, 256, 999].contains(&i);
        let hex = id.to_hex();
        text.extend_from_slice(if null {
            b"zzzzzzzzzzzzzzzzzzzzzzzz"
        } else {
            hex.as_bytes()
        });
        valid.push(!null);
    }
    let offsets = arrow_buffer::OffsetBuffer::from_lengths(std::iter::repeat_n(24, ids.len()));
    let array = StringArray::try_new(offsets, text.into(), Some(valid.clone().into())).unwrap();
    for mode in [OnInvalid::Error, OnInvalid::Null] {
        let parsed = compute::parse_hex(&array, mode).unwrap();
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(parsed.get(i), valid[i].then_some(*id), "row {i}");
        }
    }
    let checked = compute::is_valid_hex(&array).unwrap();
    assert_eq!(checked.null_count(), 4);
    assert!((0..ids.len()).all(|i| checked.is_null(i) || checked.value(i)));
    // Formatting crosses blocks too.
    let array: ObjectIdArray = ids.clone().into();
    check_ids(&array);
    check_ids(&array.slice(300, 600));
}
