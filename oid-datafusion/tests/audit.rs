//! The audit queries (`oid_datafusion::audit`) against `oid-audit` on its fault scenarios: the
//! same findings (random value, first and last second, ids, sources) of the three kinds, on one
//! node and on Ballista's standalone cluster. Over-capacity also on 2^24 + 1 ids of one second.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::PathBuf;

use common::audit::{audit, batch, check_scenarios, source_name};
use oid_audit::fixtures::{Gen, T0};

fn dir(test: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("oid-datafusion/audit")
        .join(test)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queries_find_what_the_audit_finds() {
    check_scenarios(&common::ctx(), &dir("single-node")).await;
}

/// A runtime whose threads have 16 MiB stacks: Ballista's planning and plan (de)serialization
/// of the shared-random-value query recurse deeper than the default 2 MiB in the debug build
/// (a stack overflow in a `tokio-rt-worker`).
#[cfg(feature = "ballista")]
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .thread_stack_size(16 << 20)
        .enable_all()
        .build()
        .unwrap()
}

#[cfg(feature = "ballista")]
#[test]
fn the_queries_find_what_the_audit_finds_on_a_standalone_cluster() {
    let rt = runtime();
    rt.block_on(rt.spawn(async {
        let ctx = oid_datafusion::ballista::standalone_context()
            .await
            .unwrap();
        check_scenarios(&ctx, &dir("standalone")).await;
    }))
    .unwrap();
}

/// 2^24 + 1 ids of one generator in one second: its counter wraps to the first id's.
fn flood() -> impl Iterator<Item = (oid_std::ObjectId, usize)> {
    let mut g = Gen::new(0x01_0203_0405, 0);
    (0..(1_u32 << 24) + 1).map(move |n| (g.id(T0), (n % 2) as usize))
}

/// Over-capacity needs more than 2^24 ids in one second of one value. The ids are a table in
/// memory and only the over-capacity query runs on them: on the debug build, writing them to
/// Parquet took 34 s and the three queries over the file 838 s (the shared 2-core machine,
/// loaded); the over-capacity query alone over memory takes the time printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_than_2_24_ids_in_one_second() {
    let started = std::time::Instant::now();
    let want: Vec<_> = audit(flood())
        .into_iter()
        .filter(|f| f.0 == "over-capacity")
        .collect();
    let audited = started.elapsed();
    assert_eq!(
        want,
        [(
            "over-capacity".to_owned(),
            "0102030405".to_owned(),
            "2026-05-17T06:40:00Z".to_owned(),
            "2026-05-17T06:40:00Z".to_owned(),
            (1 << 24) + 1,
            format!("[{}, {}]", source_name(0), source_name(1)),
        )]
    );
    let ctx = common::ctx();
    ctx.register_batch("ids", batch(flood())).unwrap();
    let batches = ctx
        .sql(oid_datafusion::audit::OVER_CAPACITY)
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let got: Vec<_> = common::format(&batches)
        .into_iter()
        .map(|r| {
            (
                "over-capacity".to_owned(),
                r[0].clone(),
                r[1].clone(),
                r[2].clone(),
                r[3].parse::<u64>().unwrap(),
                r[4].clone(),
            )
        })
        .collect();
    assert_eq!(got, want);
    eprintln!(
        "audit {audited:?}, table and query {:?}",
        started.elapsed() - audited
    );
}
