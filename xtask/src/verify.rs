//! Verification (issue 8; `TESTING.md` has the table): differential tests against pymongo and
//! js-bson, fuzzing, Miri, stress, and feature combinations. Each is a command of its own and
//! a step of `cargo xtask ci`.

use std::path::Path;
use std::time::Instant;

use xshell::{Shell, cmd};

use crate::provision;
use crate::util::{Result, Runner, cargo_target_dir, combinations, project_root, run};

/// Seconds per fuzz target in CI; `cargo xtask fuzz SECS` runs longer.
pub(crate) const CI_FUZZ_SECS: u64 = 12;

/// How many ids `oid new` makes for the differential test.
const CLI_IDS: &str = "10000";

/// The fuzz targets, in `fuzz/Cargo.toml`; a test below keeps the two in step.
const FUZZ_TARGETS: &[&str] = &["parse_str", "serde_json", "binary_serde", "bson"];

/// oid-core tests left out under Miri, with the reason. Everything else in `--tests` runs.
const MIRI_SKIP: &[(&str, &str)] = &[(
    "fmt::tests::every_byte_value_encodes_like_core_fmt",
    "3,072 `format!` calls: about 100 s under Miri; it runs natively in every test step",
)];

/// Adds every verification step to `r`.
pub(crate) fn ci_steps(r: &mut Runner) {
    r.step(
        "verify: differential test vs pymongo and js-bson",
        diff_step,
    );
    r.step("verify: fuzz (4 targets)", |sh| fuzz_step(sh, CI_FUZZ_SECS));
    r.step("verify: miri (oid-core tests)", miri_step);
    r.step("verify: stress (threads, counter wrap, fork)", stress_step);
    r.step("verify: loom (oid-core generator)", loom_step);
    r.step("verify: feature combinations", features_step);
}

/// `cargo xtask diff`.
pub(crate) fn diff() -> Result {
    let mut r = Runner::new()?;
    r.step(
        "verify: differential test vs pymongo and js-bson",
        diff_step,
    );
    r.finish()
}

/// `cargo xtask fuzz [SECS]`.
pub(crate) fn fuzz(secs: Option<&str>) -> Result {
    let secs = match secs {
        Some(s) => s
            .parse()
            .map_err(|_| format!("fuzz: seconds per target, got {s:?}"))?,
        None => CI_FUZZ_SECS,
    };
    let mut r = Runner::new()?;
    r.step(&format!("verify: fuzz (4 targets x {secs} s)"), |sh| {
        fuzz_step(sh, secs)
    });
    r.finish()
}

/// `cargo xtask miri`.
pub(crate) fn miri() -> Result {
    let mut r = Runner::new()?;
    r.step("verify: miri (oid-core tests)", miri_step);
    r.finish()
}

/// `cargo xtask stress`.
pub(crate) fn stress() -> Result {
    let mut r = Runner::new()?;
    r.step("verify: stress (threads, counter wrap, fork)", stress_step);
    r.finish()
}

/// `cargo xtask loom`.
pub(crate) fn loom() -> Result {
    let mut r = Runner::new()?;
    r.step("verify: loom (oid-core generator)", loom_step);
    r.finish()
}

/// oid-core's generator under the loom model checker (`oid-core/tests/loom.rs`), in release
/// mode and a target directory of its own (`--cfg loom` changes every crate's build).
pub(crate) fn loom_step(sh: &Shell) -> Result {
    run(cmd!(sh, "cargo test -p oid-core --test loom --release")
        .env("RUSTFLAGS", "--cfg loom")
        .env("CARGO_TARGET_DIR", cargo_target_dir().join("loom")))
}

/// `cargo xtask features`.
pub(crate) fn features() -> Result {
    let mut r = Runner::new()?;
    r.step("verify: feature combinations", features_step);
    r.finish()
}

/// Ids from `oid new 10000` and `oid_std::new()` and the 10,000-string corpus, through our
/// parser, pymongo's `bson.ObjectId` and js-bson's `ObjectId`; `oid-verify compare` decides.
/// Then BSON documents written by `oid_bson::ObjectId`, read by pymongo; `oid-verify
/// compare-bson` decides.
fn diff_step(sh: &Shell) -> Result {
    provision::peers(sh)?;
    run(cmd!(sh, "cargo build -p oid-cli -p oid-verify"))?;
    let target = cargo_target_dir();
    let bin = target.join("debug");
    let out = target.join("verify");
    sh.create_dir(&out)?;
    let (oid, verify) = (bin.join("oid"), bin.join("oid-verify"));
    let (cli_ids, cases) = (out.join("cli-ids.txt"), out.join("cases.tsv"));
    let (py_out, js_out) = (out.join("pymongo.txt"), out.join("js-bson.txt"));

    let ids = cmd!(sh, "{oid} new {CLI_IDS}").read()?;
    sh.write_file(&cli_ids, ids + "\n")?;
    run(cmd!(sh, "{verify} cases --cli-ids {cli_ids} --out {cases}"))?;

    let python = provision::venv_python();
    let py = cmd!(sh, "{python} verify/python/peer.py {cases}")
        .read()
        .map_err(|e| format!("pymongo peer: {e}"))?;
    sh.write_file(&py_out, py + "\n")?;
    let js = cmd!(sh, "node verify/js/peer.mjs {cases}")
        .read()
        .map_err(|e| format!("js-bson peer: {e}"))?;
    sh.write_file(&js_out, js + "\n")?;

    let pymongo = format!("pymongo={}", py_out.display());
    let js_bson = format!("js-bson={}", js_out.display());
    run(cmd!(
        sh,
        "{verify} compare --cases {cases} --peer {pymongo} --peer {js_bson}"
    ))?;

    // Documents written by oid_bson::ObjectId (bson 3 and bson 2): pymongo must read every id
    // as its `bson.ObjectId`, with the same hex, at the same path.
    let (docs, py_docs) = (out.join("bson-docs.tsv"), out.join("pymongo-bson.txt"));
    run(cmd!(sh, "{verify} bson-docs --out {docs}"))?;
    let read = cmd!(sh, "{python} verify/python/peer.py --bson-docs {docs}")
        .read()
        .map_err(|e| format!("pymongo peer (bson documents): {e}"))?;
    sh.write_file(&py_docs, read + "\n")?;
    let pymongo_docs = format!("pymongo={}", py_docs.display());
    run(cmd!(
        sh,
        "{verify} compare-bson --docs {docs} --peer {pymongo_docs}"
    ))
}

/// Builds every fuzz target once, then runs each for `secs` seconds from its committed seeds
/// (`fuzz/corpus/<target>`, read only) plus a working corpus kept in the target directory.
fn fuzz_step(sh: &Shell, secs: u64) -> Result {
    provision::cargo_fuzz(sh)?;
    let listed = cmd!(sh, "cargo +nightly fuzz list").read()?;
    let mut listed: Vec<&str> = listed.lines().map(str::trim).collect();
    let mut ours = FUZZ_TARGETS.to_vec();
    listed.sort_unstable();
    ours.sort_unstable();
    if listed != ours {
        return Err(
            format!("fuzz targets {listed:?} differ from the list in xtask/src/verify.rs").into(),
        );
    }
    let target = cargo_target_dir();
    let fuzz_target_dir = target.join("fuzz");
    // Safe Rust only in what is fuzzed: no sanitizer (faster to build and run); debug
    // assertions and overflow checks on; 16 codegen units (cargo-fuzz's default is 1: about
    // 20% longer to build here, for a similar number of executions in a short run).
    let flags = ["-s", "none", "-a", "--codegen-units", "16", "--target-dir"];
    run(cmd!(
        sh,
        "cargo +nightly fuzz build {flags...} {fuzz_target_dir}"
    ))?;
    let max_time = format!("-max_total_time={secs}");
    let mut failures = Vec::new();
    for t in FUZZ_TARGETS {
        let work = target.join("fuzz-corpus").join(t);
        sh.create_dir(&work)?;
        let seeds = project_root().join("fuzz/corpus").join(t);
        let start = Instant::now();
        let out = cmd!(
            sh,
            "cargo +nightly fuzz run {flags...} {fuzz_target_dir} {t} {work} {seeds} -- {max_time} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1"
        )
        .ignore_status()
        .output()
        ?;
        let log = String::from_utf8_lossy(&out.stderr);
        let stat = |name: &str| {
            log.lines()
                .find_map(|l| l.strip_prefix(&format!("stat::{name}:")))
                .map_or("?", str::trim)
                .to_owned()
        };
        let corpus = std::fs::read_dir(&work).map_or(0, Iterator::count);
        eprintln!(
            "fuzz {t}: {} executions in {:.0} s, working corpus {corpus} inputs, {}",
            stat("number_of_executed_units"),
            start.elapsed().as_secs_f64(),
            if out.status.success() { "ok" } else { "FAILED" }
        );
        if !out.status.success() {
            // The end of libFuzzer's report: the panic, the input, how to reproduce it.
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            for l in tail.iter().rev() {
                eprintln!("    {l}");
            }
            failures.push(*t);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "fuzz target(s) {failures:?} failed; the crashing input is in fuzz/artifacts/<target>/"
        )
        .into())
    }
}

/// oid-core's unit and integration tests under Miri (they run fewer cases under `cfg(miri)`).
fn miri_step(sh: &Shell) -> Result {
    provision::miri(sh)?;
    let mut skip = Vec::new();
    for (name, reason) in MIRI_SKIP {
        eprintln!("miri: skipping {name}: {reason}");
        skip.push("--skip".to_owned());
        skip.push((*name).to_owned());
    }
    // proptest writes failure files, which needs the working directory: no isolation.
    run(cmd!(
        sh,
        "cargo +nightly miri test -p oid-core --features serde,portable-atomic --tests -- {skip...}"
    )
    .env("MIRIFLAGS", "-Zmiri-disable-isolation"))
}

/// The stress checks in release mode, each in a process of its own.
fn stress_step(sh: &Shell) -> Result {
    run(cmd!(sh, "cargo build --release -p oid-verify"))?;
    let verify = cargo_target_dir().join("release").join("oid-verify");
    let mut failures = Vec::new();
    for check in ["stress", "wrap", "fork"] {
        if let Err(e) = run(cmd!(sh, "{verify} {check}")) {
            failures.push(format!("{check}: {e}"));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; ").into())
    }
}

/// The published library crates: workspace members with a `src/lib.rs` that are not
/// `publish = false`.
fn library_crates(root: &Path) -> Result<Vec<String>> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml"))?;
    let members = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members = ["))
        .ok_or("no `members = [...]` line in Cargo.toml")?;
    let mut libs = Vec::new();
    for m in members.trim_end_matches(']').split(',') {
        let m = m.trim().trim_matches('"');
        let dir = root.join(m);
        let own = std::fs::read_to_string(dir.join("Cargo.toml"))?;
        if dir.join("src/lib.rs").exists() && !own.contains("publish = false") {
            libs.push(m.to_owned());
        }
    }
    Ok(libs)
}

/// The features a manifest declares (its `[features]` table, without `default`).
pub(crate) fn declared_features(manifest: &str) -> Vec<String> {
    let mut in_features = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_features = line == "[features]";
            continue;
        }
        if !in_features || line.starts_with('#') {
            continue;
        }
        if let Some((name, _)) = line.split_once('=') {
            let name = name.trim();
            if !name.is_empty() && name != "default" {
                out.push(name.to_owned());
            }
        }
    }
    out
}

/// Every library crate alone with no feature and with each feature (build + unit and
/// integration tests; doc tests run in the main test steps; an integration that oid-std only
/// forwards to oid-core is type-checked there, `cargo check --tests`, since its tests ran with
/// oid-core's), then `cargo check --all-targets` of oid-core in every
/// combination of its base features and with all features together (each integration alone
/// was tested in the first part).
fn features_step(sh: &Shell) -> Result {
    let root = project_root();
    let core = std::fs::read_to_string(root.join("oid-core/Cargo.toml"))?;
    let core_features = declared_features(&core);
    let base = crate::nostd::CORE_FEATURES;
    let integrations: Vec<&str> = core_features
        .iter()
        .map(String::as_str)
        .filter(|f| !base.contains(f))
        .collect();
    let mut failures = Vec::new();
    let mut ran = 0;
    for krate in library_crates(&root)? {
        let manifest = std::fs::read_to_string(root.join(&krate).join("Cargo.toml"))?;
        let mut sets = vec![String::new()];
        sets.extend(declared_features(&manifest));
        for features in sets {
            let label = if features.is_empty() {
                "(none)"
            } else {
                features.as_str()
            };
            eprintln!("features: {krate} {label}");
            ran += 1;
            let forwarded = krate == "oid-std" && integrations.contains(&features.as_str());
            let verb = if forwarded { "check" } else { "test" };
            if run(cmd!(
                sh,
                "cargo {verb} -q -p {krate} --no-default-features --features={features} --tests"
            ))
            .is_err()
            {
                failures.push(format!("{verb} {krate} {label}"));
            }
        }
    }
    let mut combos = combinations(base);
    combos.push(base.iter().chain(&integrations).copied().collect());
    for combo in &combos {
        let features = combo.join(",");
        if run(cmd!(
            sh,
            "cargo check -q -p oid-core --all-targets --no-default-features --features={features}"
        ))
        .is_err()
        {
            failures.push(format!("check oid-core [{features}]"));
        }
    }
    eprintln!(
        "features: {ran} crate/feature test runs, {} oid-core feature combinations checked",
        combos.len()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; ").into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_targets_match_the_fuzz_manifest() {
        let manifest = std::fs::read_to_string(project_root().join("fuzz/Cargo.toml")).unwrap();
        let bins: Vec<&str> = manifest
            .lines()
            .filter_map(|l| l.strip_prefix("name = \""))
            .map(|l| l.trim_end_matches('"'))
            .filter(|n| *n != "oid-fuzz")
            .collect();
        assert_eq!(bins, FUZZ_TARGETS);
        for t in FUZZ_TARGETS {
            let seeds = project_root().join("fuzz/corpus").join(t);
            let n = std::fs::read_dir(&seeds).map_or(0, Iterator::count);
            assert!(n >= 5, "fuzz/corpus/{t} needs seed inputs");
        }
    }

    #[test]
    fn features_are_read_from_manifests() {
        let manifest = "[package]\nname = \"x\"\n\n[features]\ndefault = []\n## doc\nserde = [\"dep:serde\"]\n# c\nstd = []\n\n[dependencies]\nserde = \"1\"\n";
        assert_eq!(declared_features(manifest), ["serde", "std"]);
        let core = std::fs::read_to_string(project_root().join("oid-core/Cargo.toml")).unwrap();
        let declared = declared_features(&core);
        assert_eq!(declared[..4], *crate::nostd::CORE_FEATURES);
        for f in crate::nostd::NOSTD_INTEGRATIONS {
            assert!(declared.iter().any(|d| d == f), "{f} not in {declared:?}");
        }
    }

    #[test]
    fn the_feature_matrix_grows_linearly_in_integrations() {
        let sets = crate::util::feature_matrix(&["a", "b"], &["x", "y", "z"]);
        assert_eq!(sets.len(), 4 + 3 + 1);
        assert_eq!(sets[4..7], [vec!["x"], vec!["y"], vec!["z"]]);
        assert_eq!(sets[7], ["a", "b", "x", "y", "z"]);
        assert_eq!(crate::util::feature_matrix(&["a"], &[]).len(), 2);
        let nostd = crate::util::feature_matrix(
            crate::nostd::CORE_FEATURES,
            crate::nostd::NOSTD_INTEGRATIONS,
        );
        assert_eq!(nostd.len(), 16 + 6 + 1);
    }

    #[test]
    fn every_published_library_is_feature_tested() {
        let libs = library_crates(&project_root()).unwrap();
        for expected in ["oid-core", "oid-std", "oid-bson", "oid-embedded"] {
            assert!(libs.iter().any(|l| l == expected), "{libs:?}");
        }
        assert!(
            !libs
                .iter()
                .any(|l| l == "xtask" || l == "verify" || l == "oid-web")
        );
    }
}
