//! Parquet and Arrow IPC files of ids: round trips with the type kept, row-group selection by
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]
//! creation time, and bad files as typed errors.

use std::sync::Arc;

use arrow_array::{Array, RecordBatch, StringArray};
use arrow_schema::extension::ExtensionType;
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use oid_arrow::{Accept, Error, ObjectIdArray, ObjectIdType, ipc, parquet as pq};
use oid_core::{IdRange, ObjectId};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

/// 10,000 ids, one per second from 1,700,000,000, every 7th row null.
fn ids() -> ObjectIdArray {
    (0..10_000u32)
        .map(|i| (i % 7 != 3).then(|| ObjectId::from_parts(1_700_000_000 + i, [i as u8; 5], i)))
        .collect()
}

fn props(rows_per_group: usize) -> WriterProperties {
    WriterProperties::builder()
        .set_max_row_group_row_count(Some(rows_per_group))
        .set_compression(Compression::SNAPPY)
        .build()
}

#[test]
fn parquet_keeps_the_extension_type_and_the_ids() {
    let ids = ids();
    for compression in [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::ZSTD(Default::default()),
        Compression::LZ4_RAW,
    ] {
        let mut file = Vec::new();
        let props = WriterProperties::builder()
            .set_compression(compression)
            .build();
        pq::write_ids(&mut file, "_id", &ids, Some(props)).unwrap();
        let file = Bytes::from(file);
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        let field = builder.schema().field(0).clone();
        assert_eq!(field.extension_type_name(), Some(ObjectIdType::NAME));
        assert_eq!(field.data_type(), &DataType::FixedSizeBinary(12));
        assert!(field.try_extension_type::<ObjectIdType>().is_ok());
        assert_eq!(pq::read_ids(file, "_id", Accept::Extension).unwrap(), ids);
    }
}

#[test]
fn a_time_range_reads_fewer_rows() {
    let ids = ids();
    let mut file = Vec::new();
    let meta = pq::write_ids(&mut file, "_id", &ids, Some(props(1_000))).unwrap();
    assert_eq!(meta.num_row_groups(), 10);
    let file = Bytes::from(file);
    // Seconds 2,500 to 3,499 after the start: row groups 2 and 3 (rows 2,000 to 3,999).
    let range = IdRange::from_secs(Some(1_700_002_500), Some(1_700_003_500));
    assert_eq!(
        pq::row_groups_in_range(&meta, "_id", &range).unwrap(),
        [2, 3]
    );
    let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let reader = pq::select_range(builder, "_id", &range)
        .unwrap()
        .build()
        .unwrap();
    let mut read = 0;
    let mut matched = 0;
    for batch in reader {
        let batch = batch.unwrap();
        read += batch.num_rows();
        let got = ObjectIdArray::from_batch(&batch, "_id", Accept::Extension).unwrap();
        matched += got.iter().flatten().filter(|id| range.contains(id)).count();
    }
    assert_eq!(read, 2_000);
    let expected = ids.iter().flatten().filter(|id| range.contains(id)).count();
    assert_eq!(matched, expected);
    assert!(expected > 800);
    // Whole file, an empty range, a range past the file.
    assert_eq!(
        pq::row_groups_in_range(&meta, "_id", &IdRange::ALL)
            .unwrap()
            .len(),
        10
    );
    assert!(
        pq::row_groups_in_range(&meta, "_id", &IdRange::from_secs(Some(5), Some(5)))
            .unwrap()
            .is_empty()
    );
    assert!(
        pq::row_groups_in_range(&meta, "_id", &IdRange::from_secs(Some(1_800_000_000), None))
            .unwrap()
            .is_empty()
    );
    // The last second of a group, inclusive bounds.
    let last = IdRange::from_secs(Some(1_700_000_999), Some(1_700_001_000));
    assert_eq!(pq::row_groups_in_range(&meta, "_id", &last).unwrap(), [0]);
    assert!(matches!(
        pq::row_groups_in_range(&meta, "nope", &last),
        Err(Error::MissingColumn(_))
    ));
}

#[test]
fn a_plain_fixed_size_binary_column_is_read_when_allowed() {
    // As DuckDB or a Polars round trip writes it: no extension name.
    let ids = ids();
    let schema = Arc::new(Schema::new(vec![
        Field::new("_id", DataType::FixedSizeBinary(12), true),
        Field::new("name", DataType::Utf8, true),
    ]));
    let names = StringArray::from_iter_values((0..ids.len()).map(|i| format!("n{i}")));
    let batch =
        RecordBatch::try_new(schema.clone(), vec![ids.clone().into(), Arc::new(names)]).unwrap();
    let mut file = Vec::new();
    let mut w = ArrowWriter::try_new(&mut file, schema, Some(props(1_000))).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let file = Bytes::from(file);
    assert_eq!(
        pq::read_ids(file.clone(), "_id", Accept::ExtensionOrPlain).unwrap(),
        ids
    );
    let err = pq::read_ids(file.clone(), "_id", Accept::Extension).unwrap_err();
    assert!(matches!(err, Error::Extension(_)), "{err}");
    let err = pq::read_ids(file.clone(), "name", Accept::ExtensionOrPlain).unwrap_err();
    assert!(matches!(err, Error::DataType { .. }), "{err}");
    assert!(matches!(
        pq::read_ids(file.clone(), "x", Accept::ExtensionOrPlain),
        Err(Error::MissingColumn(_))
    ));
    // Pruning reads both columns of the kept groups.
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let range = IdRange::from_secs(Some(1_700_000_000), Some(1_700_000_001));
    let reader = pq::select_range(builder, "_id", &range)
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(
        batches.iter().map(RecordBatch::num_rows).sum::<usize>(),
        1_000
    );
    assert_eq!(batches[0].num_columns(), 2);
}

#[test]
fn corrupt_parquet_is_a_typed_error() {
    let mut file = Vec::new();
    pq::write_ids(&mut file, "_id", &ids(), Some(props(1_000))).unwrap();
    let mut cases: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"PAR1".to_vec(),
        b"not a parquet file at all".to_vec(),
        file[..file.len() / 2].to_vec(),
    ];
    // Flipped bytes in the footer, and in the data pages.
    for at in [
        file.len() - 9,
        file.len() - 30,
        file.len() - 200,
        100,
        5_000,
    ] {
        let mut bad = file.clone();
        bad[at] ^= 0x5a;
        cases.push(bad);
    }
    let mut errors = 0;
    for bad in cases {
        match pq::read_ids(Bytes::from(bad), "_id", Accept::Extension) {
            Err(Error::Parquet(e)) => {
                errors += 1;
                assert!(!e.to_string().is_empty());
            }
            Err(
                e @ (Error::Arrow(_)
                | Error::MissingColumn(_)
                | Error::Extension(_)
                | Error::DataType { .. }),
            ) => {
                errors += 1;
                assert!(!e.to_string().is_empty());
            }
            Err(e) => panic!("unexpected error kind: {e:?}"),
            // A flip in a value byte of an uncompressed page can leave a readable file.
            Ok(read) => assert_eq!(read.len(), 10_000),
        }
    }
    assert!(errors >= 5, "{errors}");
}

#[test]
fn ipc_stream_reads_back_typed() {
    let ids = ids();
    let mut stream = Vec::new();
    ipc::write_stream(&mut stream, "_id", &ids).unwrap();
    let reader = arrow_ipc::reader::StreamReader::try_new(stream.as_slice(), None).unwrap();
    let field = reader.schema().field(0).clone();
    assert!(field.try_extension_type::<ObjectIdType>().is_ok());
    assert_eq!(
        ipc::read_stream(stream.as_slice(), "_id", Accept::Extension).unwrap(),
        ids
    );
    // Sliced input keeps its offset through the stream.
    let sliced = ids.slice(3, 100);
    let mut stream = Vec::new();
    ipc::write_stream(&mut stream, "_id", &sliced).unwrap();
    assert_eq!(
        ipc::read_stream(stream.as_slice(), "_id", Accept::Extension).unwrap(),
        sliced
    );
    // Garbage and truncation are typed errors.
    for bad in [&b"garbage"[..], &stream[..stream.len() / 2], &[]] {
        match ipc::read_stream(bad, "_id", Accept::Extension) {
            Err(Error::Arrow(_) | Error::MissingColumn(_)) => {}
            other => panic!("{other:?}"),
        }
    }
    assert!(ids.len() == 10_000 && ids.null_count() > 0 && ids.as_inner().len() == 10_000);
}

#[test]
fn every_flipped_byte_of_a_small_parquet_file_is_an_error_or_the_ids_never_a_panic() {
    let ids: ObjectIdArray = (0..50u32)
        .map(|i| (i % 5 != 0).then(|| ObjectId::from_parts(i, [1; 5], i)))
        .collect();
    let mut file = Vec::new();
    pq::write_ids(&mut file, "_id", &ids, Some(props(20))).unwrap();
    let mut outcomes = [0usize; 2];
    for at in 0..file.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bad = file.clone();
            bad[at] ^= flip;
            let read = std::panic::catch_unwind(|| {
                pq::read_ids(Bytes::from(bad), "_id", Accept::ExtensionOrPlain)
            });
            match read {
                Err(_) => panic!("a panic reading a file with byte {at} ^ {flip:#x}"),
                Ok(Ok(_)) => outcomes[0] += 1,
                Ok(Err(_)) => outcomes[1] += 1,
            }
        }
    }
    // Flips in the values change ids without breaking the file; the others are errors.
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
}

#[test]
fn every_flipped_byte_of_a_small_ipc_stream_is_an_error_or_the_ids_never_a_panic() {
    let ids: ObjectIdArray = (0..50u32)
        .map(|i| (i % 5 != 0).then(|| ObjectId::from_parts(i, [1; 5], i)))
        .collect();
    let mut stream = Vec::new();
    ipc::write_stream(&mut stream, "_id", &ids).unwrap();
    let mut outcomes = [0usize; 2];
    for at in 0..stream.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bad = stream.clone();
            bad[at] ^= flip;
            let read = std::panic::catch_unwind(|| {
                ipc::read_stream(bad.as_slice(), "_id", Accept::ExtensionOrPlain)
            });
            match read {
                Err(_) => panic!("a panic reading a stream with byte {at} ^ {flip:#x}"),
                Ok(Ok(_)) => outcomes[0] += 1,
                Ok(Err(_)) => outcomes[1] += 1,
            }
        }
    }
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
}
