//! `oid audit` on ids that real drivers made: 1,000 processes of pymongo (forked workers, as a
//! pre-fork server makes them) and 1,000 of js-bson (node processes), each making ids over more
//! than one second while the others do, once without restarts and once with each worker started
//! twice: no finding, and one random value per process.
//!
//! Needs the peers `cargo xtask audit` installs: `OID_PYTHON_PEERS` (a Python with pymongo) and
//! `OID_JS_PEERS` (a folder whose `node_modules` holds `bson`). Without them the test is
//! skipped, unless `OID_REQUIRE_PEERS=1` (as the xtask step sets).

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers: a failed unwrap or a required peer missing is a failed test"
)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{oid, temp_dir};
use serde_json::Value;

const WORKERS: usize = 1000;
const IDS_PER_LIFE: usize = 200;

const PYTHON: &str = r#"
import os, sys, time
from bson.objectid import ObjectId
out, workers, lives, parallel = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ObjectId()  # the parent has made an id before it forks, as a pre-fork server has
running, failed = 0, 0
def reap():
    global running, failed
    _, status = os.wait()
    running -= 1
    failed += status != 0
for life in range(lives):
    for i in range(workers):
        if running >= parallel:
            reap()
        pid = os.fork()
        if pid == 0:
            ids = [str(ObjectId()) for _ in range(100)]
            time.sleep(0.6)
            ids += [str(ObjectId()) for _ in range(100)]
            with open(os.path.join(out, "py-%d.txt" % i), "a") as f:
                f.write("\n".join(ids) + "\n")
            os._exit(0)
        running += 1
while running:
    reap()
sys.exit(1 if failed else 0)
"#;

const NODE: &str = r#"
const { fork } = require('node:child_process');
const { appendFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const [mode, a, b, c, d] = process.argv.slice(2);
if (mode === 'child') {
  const { ObjectId } = createRequire(path.join(a, 'package.json'))('bson');
  const ids = [];
  for (let k = 0; k < 100; k++) ids.push(new ObjectId().toHexString());
  setTimeout(() => {
    for (let k = 0; k < 100; k++) ids.push(new ObjectId().toHexString());
    appendFileSync(path.join(b, 'js-' + c + '.txt'), ids.join('\n') + '\n');
  }, 400);
} else {
  const [peers, out, workers, lives, parallel] = [a, b, Number(c), Number(d), 50];
  const jobs = [];
  for (let life = 0; life < lives; life++) for (let i = 0; i < workers; i++) jobs.push(i);
  let running = 0, failed = 0, next = 0;
  const start = () => {
    while (running < parallel && next < jobs.length) {
      running++;
      const child = fork(__filename, ['child', peers, out, String(jobs[next++])]);
      child.on('exit', (code) => { running--; failed += code !== 0; start(); });
    }
    if (running === 0) process.exit(failed ? 1 : 0);
  };
  start();
}
"#;

fn peers() -> Option<(PathBuf, PathBuf)> {
    let python = std::env::var_os("OID_PYTHON_PEERS").map(PathBuf::from);
    let js = std::env::var_os("OID_JS_PEERS").map(PathBuf::from);
    match (python, js) {
        (Some(p), Some(j)) => Some((p, j)),
        _ if std::env::var("OID_REQUIRE_PEERS").as_deref() == Ok("1") => {
            panic!("OID_REQUIRE_PEERS=1 but OID_PYTHON_PEERS or OID_JS_PEERS is not set")
        }
        _ => {
            eprintln!("skipped: OID_PYTHON_PEERS and OID_JS_PEERS are not set (cargo xtask audit)");
            None
        }
    }
}

/// Audits every file of `dir`: the JSON report.
fn audit(dir: &Path) -> Value {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let out = oid()
        .args(["audit", "--format", "json"])
        .args(&files)
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{json:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json
}

fn check(driver: &str, dir: &Path, lives: usize) {
    let json = audit(dir);
    assert_eq!(
        json["counts"],
        serde_json::json!({}),
        "{driver}, {lives} lives: {json:#}"
    );
    let s = &json["summary"];
    let ids = WORKERS * lives * IDS_PER_LIFE;
    assert_eq!(s["ids"], ids, "{driver}");
    assert_eq!(s["distinct_ids"], ids, "{driver}");
    // One random value per process.
    assert_eq!(s["random_values"], WORKERS * lives, "{driver}");
    assert_eq!(s["ids_per_value"]["max"], IDS_PER_LIFE, "{driver}");
    eprintln!(
        "{driver}, {} processes: {ids} ids, {} s to {}: no finding",
        WORKERS * lives,
        s["first"]["time"],
        s["last"]["time"]
    );
}

#[test]
fn a_thousand_processes_of_each_driver_are_no_finding() {
    let Some((python, js)) = peers() else {
        return;
    };
    let root = temp_dir("audit-peers");
    let script = root.join("peer.py");
    std::fs::write(&script, PYTHON).unwrap();
    let node_script = root.join("peer.cjs");
    std::fs::write(&node_script, NODE).unwrap();
    for lives in [1, 2] {
        let dir = root.join(format!("pymongo-{lives}"));
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new(&python)
            .arg(&script)
            .arg(&dir)
            .args([WORKERS.to_string(), lives.to_string(), "100".to_owned()])
            .status()
            .unwrap();
        assert!(status.success(), "pymongo peers failed");
        check("pymongo", &dir, lives);
        let dir = root.join(format!("js-bson-{lives}"));
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new("node")
            .arg(&node_script)
            .args(["main".as_ref(), js.as_os_str(), dir.as_os_str()])
            .args([WORKERS.to_string(), lives.to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "js-bson peers failed");
        check("js-bson", &dir, lives);
    }
}
