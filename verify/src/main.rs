#![doc = include_str!("../README.md")]

mod bson_docs;
mod case;
mod compare;
mod corpus;
mod stress;

use std::fs;
use std::io::Write as _;
use std::process::ExitCode;

use crate::case::{Case, Class, case_line, parse_case_line, reference_decode};

const USAGE: &str = "\
usage: oid-verify <command>

commands (run by `cargo xtask diff` and `cargo xtask stress`):
  cases --cli-ids FILE [--seed N] --out FILE
        the differential case file: the 10,000-string corpus, 10,000 ids from
        oid_std::new(), and the ids in FILE (from `oid new 10000`)
  compare --cases FILE --peer NAME=OUTPUT...
        check our parser against every case, then each peer's output
  bson-docs --out FILE [--count N]
        BSON documents written by oid_bson::ObjectId (bson 3 and bson 2, bytes and
        Document; N models, default 1,000), each with the ids it must hold
  compare-bson --docs FILE --peer NAME=OUTPUT
        the peer read exactly those ids, as its ObjectId type, at those paths
  stress [THREADS PER_THREAD]   threads x ids from oid_std::new() (default 8 x 1,000,000),
                                then 2 threads x 20,000,000 ids, past the capacity
  wrap                          generation across forced counter wraps
  fork [CHILDREN PER_CHILD]     forks under load (default 50 x 10,000)
";

/// The corpus seed when none is given: fixed, so a failure can be replayed.
const DEFAULT_SEED: u64 = 0x0b1d_c0de;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("cases") => cases(&args[1..]),
        Some("compare") => compare(&args[1..]),
        Some("bson-docs") => bson_docs(&args[1..]),
        Some("compare-bson") => compare_bson(&args[1..]),
        Some("stress") => {
            let threads = number(&args, 1, 8);
            let per = number(&args, 2, 1_000_000);
            stress::threads(threads, per).and_then(|a| {
                stress::past_capacity(2, 40_000_000).map(|b| format!("{a}\noid-verify: {b}"))
            })
        }
        Some("wrap") => stress::wrap(),
        #[cfg(unix)]
        Some("fork") => stress::fork_under_load(number(&args, 1, 50), number(&args, 2, 10_000)),
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(msg) => {
            println!("oid-verify: {msg}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("oid-verify: FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}

fn number(args: &[String], k: usize, default: usize) -> usize {
    args.get(k)
        .and_then(|a| a.replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// The value after `--name`, for every occurrence.
fn flag<'a>(args: &'a [String], name: &str) -> Vec<&'a str> {
    args.windows(2)
        .filter(|w| w[0] == name)
        .map(|w| w[1].as_str())
        .collect()
}

fn one_flag<'a>(args: &'a [String], name: &str) -> Result<&'a str, String> {
    flag(args, name)
        .first()
        .copied()
        .ok_or_else(|| format!("missing {name}\n\n{USAGE}"))
}

/// Generated ids as cases: each must be a distinct valid id.
fn generated(class: Class, ids: &[String], want: usize) -> Result<Vec<Case>, String> {
    if ids.len() != want {
        return Err(format!(
            "{}: {} ids, expected {want}",
            class.name(),
            ids.len()
        ));
    }
    let mut seen: Vec<&str> = ids.iter().map(String::as_str).collect();
    seen.sort_unstable();
    if seen.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!("{}: duplicate ids", class.name()));
    }
    ids.iter()
        .map(|s| {
            let expect = reference_decode(s)
                .ok_or_else(|| format!("{}: {s:?} is not 24 hex digits", class.name()))?;
            Ok(Case {
                class,
                input: s.clone(),
                expect: Some(expect),
            })
        })
        .collect()
}

fn bson_docs(args: &[String]) -> Result<String, String> {
    let out = one_flag(args, "--out")?;
    let count = match flag(args, "--count").first() {
        Some(n) => n.parse().map_err(|_| format!("bad count {n:?}"))?,
        None => 1_000,
    };
    bson_docs::write_docs(out, count)
}

fn compare_bson(args: &[String]) -> Result<String, String> {
    let docs = one_flag(args, "--docs")?;
    let peer = one_flag(args, "--peer")?;
    let (name, path) = peer
        .split_once('=')
        .ok_or_else(|| format!("--peer wants NAME=FILE, got {peer:?}"))?;
    bson_docs::compare(docs, name, path)
}

fn cases(args: &[String]) -> Result<String, String> {
    let seed = match flag(args, "--seed").first() {
        Some(s) => s.parse().map_err(|_| format!("bad seed {s:?}"))?,
        None => DEFAULT_SEED,
    };
    let cli_file = one_flag(args, "--cli-ids")?;
    let out = one_flag(args, "--out")?;
    let cli_ids: Vec<String> = fs::read_to_string(cli_file)
        .map_err(|e| format!("{cli_file}: {e}"))?
        .lines()
        .map(str::to_owned)
        .collect();
    let std_ids: Vec<String> = (0..10_000)
        .map(|_| oid_std::new().to_hex().to_string())
        .collect();
    let mut all = corpus::corpus(seed);
    all.extend(generated(Class::CliNew, &cli_ids, 10_000)?);
    all.extend(generated(Class::StdNew, &std_ids, 10_000)?);
    let mut f = fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    for case in &all {
        writeln!(f, "{}", case_line(case)).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(format!(
        "{} cases (corpus seed {seed:#x}: 10000 strings; 10000 from `oid new`; 10000 from oid_std::new()) in {out}",
        all.len()
    ))
}

fn compare(args: &[String]) -> Result<String, String> {
    let file = one_flag(args, "--cases")?;
    let cases: Vec<Case> = fs::read_to_string(file)
        .map_err(|e| format!("{file}: {e}"))?
        .lines()
        .map(parse_case_line)
        .collect::<Result<_, _>>()?;
    let mut report = compare::Report::default();
    compare::check_ours(&cases, &mut report);
    let peers = flag(args, "--peer");
    if peers.is_empty() {
        return Err(format!("no --peer given\n\n{USAGE}"));
    }
    let mut used = vec![0usize; compare::KNOWN.len()];
    let mut names = Vec::new();
    for p in &peers {
        let (name, path) = p
            .split_once('=')
            .ok_or_else(|| format!("--peer wants NAME=FILE, got {p:?}"))?;
        let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let out =
            compare::parse_peer_output(&text, cases.len()).map_err(|e| format!("{name}: {e}"))?;
        compare::check_peer(name, &cases, &out, compare::KNOWN, &mut used, &mut report);
        names.push(name);
    }
    compare::stale(compare::KNOWN, &names, &used, &mut report);
    eprint!("{}", report.summary());
    for (d, n) in compare::KNOWN.iter().zip(&used) {
        eprintln!(
            "  documented: {} {} {:?} on {}: {n} cases ({})",
            d.peer,
            d.api,
            d.what,
            d.class.name(),
            d.reason
        );
    }
    if report.failures.is_empty() {
        let accepted = cases.iter().filter(|c| c.expect.is_some()).count();
        let documented: usize = used.iter().sum();
        Ok(format!(
            "{} cases ({accepted} ids, {} near misses): ours and {} agree on accept/reject, hex and \
             timestamp{}; {documented} answers differ as documented, none otherwise",
            cases.len(),
            cases.len() - accepted,
            names.join(" and "),
            if report.ordered.is_empty() {
                ""
            } else {
                ", and pymongo on order"
            }
        ))
    } else {
        for f in &report.failures {
            eprintln!("  FAIL {f}");
        }
        if report.failed > report.failures.len() {
            eprintln!("  ... and {} more", report.failed - report.failures.len());
        }
        Err(format!("{} disagreement(s)", report.failed))
    }
}
