//! `oid-ballista`: a Ballista scheduler or executor with oid's ObjectId functions registered.
//!
//! ```text
//! oid-ballista scheduler --bind-host 0.0.0.0 --port 50050
//! oid-ballista executor --scheduler-host HOST --scheduler-port 50050 --port 50051 --grpc-port 50052
//! ```

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use ballista_executor::executor_process::{ExecutorProcessConfig, start_executor_process};
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::SchedulerConfig;
use ballista_scheduler::scheduler_process::start_server;
use clap::{Parser, Subcommand};

/// A Ballista scheduler or executor with oid's ObjectId functions (objectid_timestamp, objectid,
/// timestamp_objectid, ...). Every node of a cluster must run it (the scheduler decodes the
/// functions in plans, the executors run them).
#[derive(Parser)]
#[command(name = "oid-ballista", version, about)]
struct Args {
    #[command(subcommand)]
    role: Role,
}

#[derive(Subcommand)]
enum Role {
    /// The scheduler: clients connect to it (df://HOST:PORT), executors register with it.
    Scheduler {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        bind_host: String,
        /// The scheduler's gRPC port.
        #[arg(long, default_value_t = 50050)]
        port: u16,
        /// The host name executors and clients reach this scheduler by.
        #[arg(long, default_value = "localhost")]
        external_host: String,
    },
    /// An executor: runs the tasks the scheduler hands it.
    Executor {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        bind_host: String,
        /// The host name the scheduler and other executors reach this one by.
        #[arg(long)]
        external_host: Option<String>,
        /// The Arrow Flight port (shuffle data).
        #[arg(long, default_value_t = 50051)]
        port: u16,
        /// The executor's gRPC port.
        #[arg(long, default_value_t = 50052)]
        grpc_port: u16,
        /// The scheduler's host.
        #[arg(long, default_value = "localhost")]
        scheduler_host: String,
        /// The scheduler's gRPC port.
        #[arg(long, default_value_t = 50050)]
        scheduler_port: u16,
        /// Task slots (default: the number of cores).
        #[arg(long)]
        concurrent_tasks: Option<usize>,
        /// Directory for shuffle files (default: a new temporary directory).
        #[arg(long)]
        work_dir: Option<String>,
    },
}

/// The runtime's threads' stack, as Ballista's own scheduler binary sets it (32 MiB). Decoding
/// a client's logical plan is one recursive call per plan node (`datafusion-proto`'s
/// `try_into_logical_plan`): in a debug build, the shared-random-value audit query over the
/// README's view of two shards overflows tokio's default 2 MiB (`tests/cluster.rs`).
const THREAD_STACK: usize = 32 << 20;

/// Ballista's warnings and errors (the `log` records of its crates) on standard error: a task
/// an executor rejects, a job that fails.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, m: &log::Metadata<'_>) -> bool {
        m.level() <= log::Level::Warn
    }

    fn log(&self, r: &log::Record<'_>) {
        if self.enabled(r.metadata()) {
            eprintln!("oid-ballista: {}: {}: {}", r.level(), r.target(), r.args());
        }
    }

    fn flush(&self) {}
}

fn main() -> ExitCode {
    let args = Args::parse();
    // The only logger of the process: setting it cannot fail.
    if log::set_logger(&StderrLog).is_ok() {
        log::set_max_level(log::LevelFilter::Warn);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(THREAD_STACK)
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("oid-ballista: error: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    runtime.block_on(run(args))
}

async fn run(args: Args) -> ExitCode {
    let result = match args.role {
        Role::Scheduler {
            bind_host,
            port,
            external_host,
        } => scheduler(bind_host, port, external_host).await,
        Role::Executor {
            bind_host,
            external_host,
            port,
            grpc_port,
            scheduler_host,
            scheduler_port,
            concurrent_tasks,
            work_dir,
        } => {
            let mut config = ExecutorProcessConfig {
                bind_host,
                external_host,
                port,
                grpc_port,
                scheduler_host,
                scheduler_port,
                work_dir,
                override_function_registry: Some(
                    oid_datafusion::ballista::executor_function_registry(),
                ),
                ..Default::default()
            };
            if let Some(n) = concurrent_tasks {
                config.vcores = n;
            }
            start_executor_process(Arc::new(config))
                .await
                .map_err(|e| e.to_string())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oid-ballista: error: {e}");
            ExitCode::from(2)
        }
    }
}

async fn scheduler(bind_host: String, port: u16, external_host: String) -> Result<(), String> {
    let addr: SocketAddr = format!("{bind_host}:{port}")
        .parse()
        .map_err(|e| format!("bad address {bind_host}:{port}: {e}"))?;
    let config = SchedulerConfig {
        bind_host,
        bind_port: port,
        external_host,
        ..Default::default()
    }
    .with_override_session_builder(Arc::new(oid_datafusion::ballista::scheduler_session_state));
    let cluster = BallistaCluster::new_from_config(&config)
        .await
        .map_err(|e| e.to_string())?;
    start_server(cluster, addr, Arc::new(config))
        .await
        .map_err(|e| e.to_string())
}
