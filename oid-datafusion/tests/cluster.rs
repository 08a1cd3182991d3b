//! The same queries on Ballista as on one node: (a) the in-process standalone cluster, (b) a
//! scheduler and two executors as separate processes on 127.0.0.1 (`oid-ballista`), started and
//! stopped here. Every query's rows equal single-node DataFusion's; on the three processes,
//! `oid audit`'s SQL queries also give `oid-audit`'s findings on its fault scenarios.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "ballista")]

mod common;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{ctx, format, time_ordered_parquet};
use datafusion::prelude::{ParquetReadOptions, SessionContext};

/// 2024-01-01T00:00:00Z.
const START: u32 = 1_704_067_200;

const QUERIES: &[&str] = &[
    "SELECT objectid_hex(_id), objectid_timestamp(_id), objectid_counter(_id), objectid_random(_id) \
     FROM ids WHERE objectid_timestamp(_id) BETWEEN TIMESTAMP '2024-01-01T05:00:00Z' AND TIMESTAMP '2024-01-01T05:00:59Z' ORDER BY 1",
    "SELECT date_trunc('hour', objectid_timestamp(_id)) AS h, count(*), min(objectid_hex(_id)) FROM ids GROUP BY h ORDER BY h",
    "SELECT count(*) FROM ids WHERE _id >= timestamp_objectid(TIMESTAMP '2024-01-01T20:00:00Z') \
     AND _id <= objectid_max_for_time(TIMESTAMP '2024-01-01T21:00:00Z')",
    "SELECT objectid_hex(objectid('65A1B2C3D4E5F60718293A4B')), objectid_hex(try_objectid('nope')), \
     objectid_is_valid('65a1b2c3d4e5f60718293a4b'), objectid_timestamp('65a1b2c3d4e5f60718293a4b')",
    "SELECT objectid_counter(_id) % 7 AS k, count(*) FROM ids WHERE objectid_timestamp(_id) < TIMESTAMP '2024-01-01T03:00:00Z' GROUP BY k ORDER BY k",
];

fn data() -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("oid-datafusion/ids-cluster-24k.parquet");
    time_ordered_parquet(&path, 24_000, 24, START, 1_000)
        .to_str()
        .unwrap()
        .to_owned()
}

async fn answers(ctx: &SessionContext) -> Vec<Vec<Vec<String>>> {
    let mut out = Vec::new();
    for q in QUERIES {
        let batches = tokio::time::timeout(Duration::from_secs(120), async {
            ctx.sql(q).await.unwrap().collect().await.unwrap()
        })
        .await
        .unwrap_or_else(|_| panic!("timed out: {q}"));
        out.push(format(&batches));
    }
    out
}

async fn single_node() -> Vec<Vec<Vec<String>>> {
    let ctx = ctx();
    ctx.register_parquet("ids", &data(), ParquetReadOptions::default())
        .await
        .unwrap();
    let a = answers(&ctx).await;
    assert!(a.iter().all(|rows| !rows.is_empty()));
    assert_eq!(a[1].len(), 24, "one row per hour");
    a
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn standalone_cluster_equals_single_node() {
    let want = single_node().await;
    let ctx = oid_datafusion::ballista::standalone_context()
        .await
        .unwrap();
    ctx.register_parquet("ids", &data(), ParquetReadOptions::default())
        .await
        .unwrap();
    assert_eq!(answers(&ctx).await, want);
}

/// A scheduler and two executors (`oid-ballista`) as processes on 127.0.0.1, killed and reaped
/// when dropped (after a failed assertion or a timeout too).
struct Cluster {
    procs: Vec<Child>,
    /// The scheduler's address for clients (`df://127.0.0.1:PORT`).
    url: String,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for c in &mut self.procs {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Cluster {
    /// Starts the three processes (the executors' shuffle files under `cluster/NAME`) and waits
    /// until each listens. Their standard error is the test's.
    fn start(name: &str) -> Self {
        let bin = env!("CARGO_BIN_EXE_oid-ballista");
        let work = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("oid-datafusion/cluster")
            .join(name);
        let scheduler_port = free_port();
        let mut cluster = Cluster {
            procs: Vec::new(),
            url: format!("df://127.0.0.1:{scheduler_port}"),
        };
        cluster.procs.push(
            Command::new(bin)
                .args([
                    "scheduler",
                    "--bind-host",
                    "127.0.0.1",
                    "--port",
                    &scheduler_port.to_string(),
                ])
                .stdout(Stdio::null())
                .spawn()
                .unwrap(),
        );
        cluster.wait_for_port(scheduler_port);
        let mut executor_ports = Vec::new();
        for n in 0..2 {
            let (flight, grpc) = (free_port(), free_port());
            let dir = work.join(format!("executor-{n}"));
            std::fs::create_dir_all(&dir).unwrap();
            cluster.procs.push(
                Command::new(bin)
                    .args([
                        "executor",
                        "--bind-host",
                        "127.0.0.1",
                        "--external-host",
                        "127.0.0.1",
                    ])
                    .args([
                        "--port",
                        &flight.to_string(),
                        "--grpc-port",
                        &grpc.to_string(),
                    ])
                    .args([
                        "--scheduler-host",
                        "127.0.0.1",
                        "--scheduler-port",
                        &scheduler_port.to_string(),
                    ])
                    .args([
                        "--concurrent-tasks",
                        "2",
                        "--work-dir",
                        dir.to_str().unwrap(),
                    ])
                    .stdout(Stdio::null())
                    .spawn()
                    .unwrap(),
            );
            executor_ports.push(flight);
        }
        for port in executor_ports {
            cluster.wait_for_port(port);
        }
        cluster
    }

    fn wait_for_port(&mut self, port: u16) {
        for _ in 0..600 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return;
            }
            for c in &mut self.procs {
                if let Some(status) = c.try_wait().unwrap() {
                    panic!("a cluster process exited early: {status}");
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("nothing listens on 127.0.0.1:{port} after 60 s");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn scheduler_and_two_executor_processes_equal_single_node() {
    let want = single_node().await;
    let cluster = Cluster::start("queries");
    let ctx = oid_datafusion::ballista::remote_context(&cluster.url)
        .await
        .unwrap();
    ctx.register_parquet("ids", &data(), ParquetReadOptions::default())
        .await
        .unwrap();
    assert_eq!(answers(&ctx).await, want);
}

/// `oid audit`'s three queries (`oid_datafusion::audit`) on the same three processes: on every
/// fault scenario they find what `oid-audit` finds (as on one node, `tests/audit.rs`), over one
/// file and over the README's view of two shards (a `UNION ALL`). Each query
/// has a deadline (`common::audit::QUERY_TIMEOUT`): a stuck cluster fails the test, and the
/// processes are killed.
#[test]
fn audit_queries_on_scheduler_and_two_executor_processes() {
    let cluster = Cluster::start("audit");
    // The client plans and serializes the plans on these threads: the debug build recurses
    // deeper than a default 2 MiB stack on the shared-random-value query.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .thread_stack_size(16 << 20)
        .enable_all()
        .build()
        .unwrap();
    let url = cluster.url.clone();
    rt.block_on(rt.spawn(async move {
        let started = std::time::Instant::now();
        let ctx = oid_datafusion::ballista::remote_context(&url)
            .await
            .unwrap();
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("oid-datafusion/audit/three-processes");
        common::audit::check_scenarios(&ctx, &dir).await;
        eprintln!(
            "the audit queries on three processes: {:?}",
            started.elapsed()
        );
        common::audit::check_sharded_scenarios(&ctx, &dir.join("shards")).await;
        eprintln!("and over two shards: {:?}", started.elapsed());
    }))
    .unwrap();
    drop(cluster);
}
