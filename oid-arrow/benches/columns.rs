//! The column kernels against the arrow-rs idiom and memcpy floors, 1,000,000 rows, in one run.
//!
//! `cargo bench -p oid-arrow --bench columns -- --warm-up-time 1 --measurement-time 3 --noplot`
//!
//! Floors: a `memcpy` (`copy_from_slice` into a buffer allocated outside the timing) of the
//! kernel's input bytes (parsing) or output bytes (formatting, parts). The idiom: what an
//! arrow-rs user writes today, `const_hex` decoding each row into a `FixedSizeBinaryBuilder`.

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;
use std::time::Duration;

use arrow_array::builder::FixedSizeBinaryBuilder;
use arrow_array::{Array, FixedSizeBinaryArray, LargeStringArray, StringArray, StringViewArray};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oid_arrow::ObjectIdArray;
use oid_arrow::compute::{self, OnInvalid};
use oid_core::ObjectId;

const ROWS: usize = 1_000_000;

/// Ids as a generator makes them: rising time, one random value, a rising counter.
fn ids() -> ObjectIdArray {
    (0..ROWS as u32)
        .map(|i| ObjectId::from_parts(1_700_000_000 + i / 1000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], i))
        .collect()
}

/// The arrow-rs idiom: decode each row with const-hex, append to a builder.
fn idiom(text: &StringArray) -> Result<FixedSizeBinaryArray, String> {
    let mut b = FixedSizeBinaryBuilder::with_capacity(text.len(), 12);
    for row in text {
        match row {
            None => b.append_null(),
            Some(s) => {
                let bytes: [u8; 12] = const_hex::decode_to_array(s).map_err(|e| e.to_string())?;
                b.append_value(bytes).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(b.finish())
}

fn parse(c: &mut Criterion) {
    let ids = ids();
    let text = compute::to_hex(&ids).unwrap_or_else(|_| StringArray::from(Vec::<String>::new()));
    let large = LargeStringArray::from_iter_values(text.iter().flatten());
    let view = StringViewArray::from_iter_values(text.iter().flatten());
    // As pyarrow writes nulls: empty rows, so the rows are not all 24 bytes.
    let with_nulls: StringArray = text
        .iter()
        .enumerate()
        .map(|(i, s)| if i % 10 == 0 { None } else { s })
        .collect();
    let mut g = c.benchmark_group("hex to ids, 1M Utf8 rows");
    g.throughput(Throughput::Bytes((ROWS * 24) as u64));
    memcpy_in(&mut g, ROWS * 24);
    {
        let values = text.value_data();
        let mut out = vec![[0u8; 12]; ROWS];
        g.bench_function(
            "reference: oid-core try_parse_ascii per row, reused buffer",
            |b| {
                b.iter(|| {
                    for (h, o) in black_box(values)
                        .as_chunks::<24>()
                        .0
                        .iter()
                        .zip(out.iter_mut())
                    {
                        if let Ok(id) = ObjectId::try_parse_ascii(h) {
                            *o = id.bytes();
                        }
                    }
                    black_box(&mut out);
                })
            },
        );
        g.bench_function("reference: faster-hex, 6 KiB blocks, reused buffer", |b| {
            b.iter(|| {
                let mut ok = true;
                for (h, o) in black_box(values)
                    .chunks(6144)
                    .zip(out.as_flattened_mut().chunks_mut(3072))
                {
                    ok &= faster_hex::hex_decode(h, o).is_ok();
                }
                black_box(ok);
                black_box(&mut out);
            })
        });
        g.bench_function("reference: const-hex, 6 KiB blocks, reused buffer", |b| {
            b.iter(|| {
                let mut ok = true;
                for (h, o) in black_box(values)
                    .chunks(6144)
                    .zip(out.as_flattened_mut().chunks_mut(3072))
                {
                    ok &= const_hex::decode_to_slice(h, o).is_ok();
                }
                black_box(ok);
                black_box(&mut out);
            })
        });
    }
    g.bench_function("idiom: const-hex per row + FixedSizeBinaryBuilder", |b| {
        b.iter(|| idiom(black_box(&text)))
    });
    g.bench_function("parse_hex strict (Utf8)", |b| {
        b.iter(|| compute::parse_hex(black_box(&text), OnInvalid::Error))
    });
    g.bench_function("parse_hex lenient (Utf8)", |b| {
        b.iter(|| compute::parse_hex(black_box(&text), OnInvalid::Null))
    });
    g.bench_function("parse_hex strict (LargeUtf8)", |b| {
        b.iter(|| compute::parse_hex(black_box(&large), OnInvalid::Error))
    });
    g.bench_function("parse_hex strict (Utf8View)", |b| {
        b.iter(|| compute::parse_hex(black_box(&view), OnInvalid::Error))
    });
    g.bench_function(
        "parse_hex strict (Utf8, every 10th row null and empty)",
        |b| b.iter(|| compute::parse_hex(black_box(&with_nulls), OnInvalid::Error)),
    );
    g.bench_function("is_valid_hex (Utf8)", |b| {
        b.iter(|| compute::is_valid_hex(black_box(&text)))
    });
    g.finish();
}

fn memcpy_in(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    bytes: usize,
) {
    let src = vec![0x5au8; bytes];
    let mut dst = vec![0u8; bytes];
    g.bench_function(format!("floor: memcpy of {bytes} bytes"), |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(&src));
            black_box(&mut dst);
        })
    });
}

fn format(c: &mut Criterion) {
    let ids = ids();
    let mut g = c.benchmark_group("ids to hex, 1M rows");
    // Utf8's output: 24 bytes of text a row and 4 of offsets.
    memcpy_in(&mut g, ROWS * 28);
    {
        let values = ids.values();
        let mut out = vec![0u8; ROWS * 24];
        g.bench_function("reference: oid-core to_hex per row, reused buffer", |b| {
            b.iter(|| {
                for (id, o) in black_box(values).iter().zip(out.as_chunks_mut::<24>().0) {
                    *o = *ObjectId::from_bytes(*id).to_hex().as_bytes();
                }
                black_box(&mut out);
            })
        });
        g.bench_function("reference: const-hex, 3 KiB blocks, reused buffer", |b| {
            b.iter(|| {
                for (i, o) in black_box(values)
                    .as_flattened()
                    .chunks(3072)
                    .zip(out.chunks_mut(6144))
                {
                    let _ = const_hex::encode_to_slice(i, o);
                }
                black_box(&mut out);
            })
        });
    }
    g.bench_function("to_hex (Utf8)", |b| {
        b.iter(|| compute::to_hex(black_box(&ids)))
    });
    // What the checked constructor adds: the validation alone, on to_hex's output.
    if let Ok(hex) = compute::to_hex(&ids) {
        let (offsets, values, nulls) = hex.into_parts();
        g.bench_function(
            "reference: StringArray::try_new's checks of that output",
            |b| b.iter(|| StringArray::try_new(offsets.clone(), values.clone(), nulls.clone())),
        );
    }
    // Utf8View's output: a 16-byte view and 24 bytes of text a row.
    memcpy_in(&mut g, ROWS * 40);
    g.bench_function("to_hex_view (Utf8View)", |b| {
        b.iter(|| compute::to_hex_view(black_box(&ids)))
    });
    if let Ok(hex) = compute::to_hex_view(&ids) {
        let (views, buffers, nulls) = hex.into_parts();
        g.bench_function(
            "reference: StringViewArray::try_new's checks of that output",
            |b| b.iter(|| StringViewArray::try_new(views.clone(), buffers.clone(), nulls.clone())),
        );
    }
    g.finish();

    let mut g = c.benchmark_group("ids to parts, 1M rows");
    memcpy_in(&mut g, ROWS * 8);
    g.bench_function("timestamp", |b| {
        b.iter(|| compute::timestamp(black_box(&ids)))
    });
    memcpy_in(&mut g, ROWS * 4);
    g.bench_function("counter", |b| b.iter(|| compute::counter(black_box(&ids))));
    memcpy_in(&mut g, ROWS * 5);
    g.bench_function("random", |b| b.iter(|| compute::random(black_box(&ids))));
    let times = compute::timestamp(&ids);
    memcpy_in(&mut g, ROWS * 12);
    g.bench_function("min_for_timestamp", |b| {
        b.iter(|| compute::min_for_timestamp(black_box(&times), OnInvalid::Error))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! { name = benches; config = config(); targets = parse, format }
criterion_main!(benches);
