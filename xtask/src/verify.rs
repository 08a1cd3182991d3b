//! Verification (`TESTING.md` has the table): differential tests against pymongo and js-bson,
//! fuzzing, Miri, stress, the feature matrix and the `oid!` compile-fail tests. Each is a command
//! of its own and a step of `cargo xtask ci`.

use xshell::{Shell, cmd};

use crate::nostd::CORE_FEATURES;
use crate::provision;
use crate::release::PUBLISHED;
use crate::util::{
    Result, Runner, all_passed, cargo, cargo_target_dir, declared_features, files_under,
    project_root, run,
};

/// Seconds per fuzz target in CI; `cargo xtask fuzz SECS` runs longer.
pub(crate) const CI_FUZZ_SECS: u64 = 5;

/// The fuzz targets, in `fuzz/Cargo.toml`; a test below keeps the two in step.
const FUZZ_TARGETS: &[&str] = &["parse_str", "serde_json", "binary_serde", "bson"];

/// oid-core tests left out under Miri, each far too long there; they run natively in every
/// test step. Everything else in `--lib` runs.
const MIRI_SKIP: &[&str] = &[
    // 1,112,064 characters, each through the reader.
    "pasted::tests::whitespace_is_what_char_is_whitespace_says",
    // 3,072 `format!` calls: about 100 s under Miri.
    "fmt::tests::every_byte_value_encodes_like_core_fmt",
    // About 22,000 parses with their messages: minutes under Miri.
    "parse::tests::every_single_character_substitution_agrees_with_the_reference",
];

/// `cargo xtask fuzz [SECS]`.
pub(crate) fn fuzz(secs: u64) -> Result {
    let mut r = Runner::default();
    let name = format!("verify: fuzz (4 targets x {secs} s)");
    r.step(&name, |sh| fuzz_step(sh, secs));
    r.finish()
}

/// oid-core's `oid!` compile-fail tests (`oid-core/tests/ui.rs`), ignored in plain test runs:
/// trybuild builds oid-core again with the features of the run, so it runs here alone, without
/// optional features (the macro uses none).
pub(crate) fn ui_step(sh: &Shell) -> Result {
    let ui = "test -p oid-core --no-default-features --test ui -- --ignored";
    run(cargo(sh, ui))
}

/// oid-core's generator under the loom model checker (the `#[cfg(all(test, loom))]` models in
/// `oid-core/src/generator/loom_tests.rs`), in release mode and a target directory of its own
/// (`--cfg loom` changes every crate's build). Optimized, but without the release profile's
/// LTO and single codegen unit (they are for the benchmarks): the test crate built in 7.3 s
/// instead of 34.8 s, and the 14 models ran in 196 s instead of 202 s (a shared 2-core machine).
pub(crate) fn loom_step(sh: &Shell) -> Result {
    let release =
        "--release --config profile.release.lto=false --config profile.release.codegen-units=16";
    let test = format!("test -p oid-core --lib {release} generator::loom_tests --target-dir");
    let test = cargo(sh, &test).arg(cargo_target_dir().join("loom"));
    run(test.env("RUSTFLAGS", "--cfg loom"))
}

/// Ids from `oid new 10000` and `oid_std::new()` and the 10,000-string corpus, through our
/// parser, pymongo's `bson.ObjectId` and js-bson's `ObjectId`; `oid-verify compare` decides.
/// Then BSON documents written by `oid_bson::ObjectId`, read by pymongo; `oid-verify
/// compare-bson` decides.
pub(crate) fn diff_step(sh: &Shell) -> Result {
    provision::install(sh, provision::Kit::Peers)?;
    // The test step's flags: its build of both binaries is reused (`-p` alone resolves other
    // features for oid-core and the rest, and rebuilt them).
    let build = "build --workspace --all-features --bin oid --bin oid-verify";
    run(cargo(sh, build))?;
    let out = sh.create_dir(cargo_target_dir().join("verify"))?;
    let bin = cargo_target_dir().join("debug");
    let (oid, verify) = (bin.join("oid"), bin.join("oid-verify"));
    let python = provision::venv_python();
    // Each peer's answers, written to `out/<file>` for `oid-verify` (`--peer NAME=FILE`); a
    // failed peer's error names its command.
    let save = |peer: &str, file: &str, c: xshell::Cmd<'_>| -> Result<String> {
        sh.write_file(out.join(file), c.read()? + "\n")?;
        Ok(format!("{peer}={}", out.join(file).display()))
    };
    let (cli_ids, cases) = (out.join("cli-ids.txt"), out.join("cases.tsv"));
    save("oid", "cli-ids.txt", cmd!(sh, "{oid} new 10000"))?;
    run(cmd!(sh, "{verify} cases --cli-ids {cli_ids} --out {cases}"))?;
    let pymongo = cmd!(sh, "{python} verify/python/peer.py {cases}");
    let pymongo = save("pymongo", "pymongo.txt", pymongo)?;
    let js_bson = cmd!(sh, "node verify/js/peer.mjs {cases}");
    let js_bson = save("js-bson", "js-bson.txt", js_bson)?;
    let compare = cmd!(sh, "{verify} compare --cases {cases}");
    run(compare.args(["--peer", &pymongo, "--peer", &js_bson]))?;
    // Documents written by oid_bson::ObjectId (bson 3 and bson 2): pymongo must read every id
    // as its `bson.ObjectId`, with the same hex, at the same path.
    let docs = out.join("bson-docs.tsv");
    run(cmd!(sh, "{verify} bson-docs --out {docs}"))?;
    let read = cmd!(sh, "{python} verify/python/peer.py --bson-docs {docs}");
    let pymongo = save("pymongo", "pymongo-bson.txt", read)?;
    run(cmd!(
        sh,
        "{verify} compare-bson --docs {docs} --peer {pymongo}"
    ))
}

/// Builds every fuzz target once, then runs each for `secs` seconds from its committed seeds
/// (`fuzz/corpus/<target>`, read only) plus a working corpus kept in the target directory.
/// libFuzzer's log, quiet (`-verbosity=0`: no line per new input), shows each run's statistics
/// and, on a failure, the panic, the input and where it is saved.
pub(crate) fn fuzz_step(sh: &Shell, secs: u64) -> Result {
    provision::install(sh, provision::Kit::Nightly)?;
    let _tools = provision::cargo_tools(sh)?;
    // `fuzz_targets_match_the_fuzz_manifest` keeps FUZZ_TARGETS equal to fuzz/Cargo.toml's.
    let target = cargo_target_dir();
    // Safe Rust only in what is fuzzed: no sanitizer (faster to build and run); debug
    // assertions and overflow checks on; 16 codegen units (cargo-fuzz's default is 1: about
    // 20% longer to build here, for a similar number of executions in a short run).
    let fuzz = |sub: &str| {
        let args = format!("+nightly fuzz {sub} -s none -a --codegen-units 16 --target-dir");
        cargo(sh, &args).arg(target.join("fuzz"))
    };
    run(fuzz("build"))?;
    let libfuzzer = format!(
        "-max_total_time={secs} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -verbosity=0"
    );
    let mut failures = Vec::new();
    for t in FUZZ_TARGETS {
        let work = sh.create_dir(target.join("fuzz-corpus").join(t))?;
        let seeds = project_root().join("fuzz/corpus").join(t);
        let fuzz = fuzz("run").arg(t).args([&work, &seeds]).arg("--");
        if fuzz.args(libfuzzer.split(' ')).run().is_err() {
            failures.push(format!(
                "fuzz target {t} failed; its crashing input is in fuzz/artifacts/{t}/"
            ));
        }
    }
    all_passed(&failures)
}

/// oid-core's unit tests under Miri (they run fewer cases under `cfg(miri)`; the integration
/// tests exercise the same code through the public API and run natively in every test step).
pub(crate) fn miri_step(sh: &Shell) -> Result {
    provision::install(sh, provision::Kit::Nightly)?;
    eprintln!("miri: skipping {MIRI_SKIP:?} (too long under Miri; they run natively)");
    let skip = MIRI_SKIP.iter().flat_map(|name| ["--skip", name]);
    // proptest writes failure files, which needs the working directory: no isolation.
    let miri = "+nightly miri test -p oid-core --features serde,portable-atomic,pasted --lib --";
    let miri = cargo(sh, miri);
    run(miri.args(skip).env("MIRIFLAGS", "-Zmiri-disable-isolation"))
}

/// The stress checks, optimized (the `ci` profile of the other optimized steps), each in a
/// process of its own.
pub(crate) fn stress_step(sh: &Shell) -> Result {
    run(cargo(sh, "build --profile ci -p oid-verify"))?;
    let verify = cargo_target_dir().join("ci").join("oid-verify");
    let checks = ["stress", "wrap", "fork"].into_iter();
    let failures = checks.filter_map(|check| {
        run(cmd!(sh, "{verify} {check}"))
            .err()
            .map(|e| format!("{check}: {e}"))
    });
    all_passed(&failures.collect::<Vec<_>>())
}

/// The features of a crate that only forward to oid-core's feature of the same name (`core`:
/// oid-core's integrations) and that its own code never tests (`feature = "..."`): oid-core's
/// own run covers them.
fn forwarded_only(krate: &str, declared: &[String], code: &str, core: &[String]) -> Vec<String> {
    let tested = |f: &String| krate == "oid-core" || code.contains(&format!("feature = \"{f}\""));
    let forwarded = declared.iter().filter(|f| core.contains(f));
    forwarded.filter(|f| !tested(f)).cloned().collect()
}

/// The feature matrix through cargo-hack, type-checked (what a user builds: the library, or
/// oid-cli's binary; the tests themselves are built and run in the all-features and
/// no-default-features test steps): each published crate alone with no feature, its defaults,
/// and each feature alone; then oid-core in every combination of its base features.
pub(crate) fn features_step(sh: &Shell) -> Result {
    let _tools = provision::cargo_tools(sh)?;
    let integrations = crate::nostd::integrations()?;
    let mut failures = Vec::new();
    for krate in PUBLISHED {
        let dir = project_root().join(krate);
        let declared = declared_features(&std::fs::read_to_string(dir.join("Cargo.toml"))?);
        let code: String = files_under(&dir.join("src"), "rs")
            .iter()
            .flat_map(std::fs::read_to_string)
            .collect();
        let skip = forwarded_only(krate, &declared, &code, &integrations).join(",");
        eprintln!(
            "features: {krate}, each feature alone; forwarded only, left to oid-core: [{skip}]"
        );
        let skip = (!skip.is_empty()).then(|| format!("--exclude-features={skip}"));
        let hack = format!("hack check -p {krate} --each-feature --exclude-all-features");
        if cargo(sh, &hack).args(skip).run().is_err() {
            failures.push(format!("{krate}: each feature"));
        }
    }
    let base = CORE_FEATURES.join(",");
    let powerset =
        format!("hack check -p oid-core --lib --feature-powerset --include-features={base}");
    if cargo(sh, &powerset).run().is_err() {
        failures.push("oid-core: base feature powerset".to_owned());
    }
    all_passed(&failures)
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
        for f in crate::nostd::NOSTD_INTEGRATIONS
            .iter()
            .chain(crate::nostd::TOOL_FEATURES)
        {
            assert!(declared.iter().any(|d| d == f), "{f} not in {declared:?}");
        }
    }

    #[test]
    fn features_only_forwarded_to_oid_core_are_left_to_its_run() {
        let declared = ["serde", "rand_core", "sqlx-sqlite"].map(str::to_owned);
        let integrations = ["rand_core", "sqlx-sqlite", "rkyv"].map(str::to_owned);
        let src = "#[cfg(feature = \"rand_core\")]\npub use oid_core::RngEntropy;\n";
        assert_eq!(
            forwarded_only("oid-std", &declared, src, &integrations),
            ["sqlx-sqlite"]
        );
        assert!(forwarded_only("oid-core", &declared, "", &integrations).is_empty());
        let integrations = crate::nostd::integrations().unwrap();
        // oid-std's SQL features have no code of their own today.
        let std: String = files_under(&project_root().join("oid-std/src"), "rs")
            .iter()
            .flat_map(std::fs::read_to_string)
            .collect();
        assert!(std.contains("feature = \"legacy\""));
        let manifest = std::fs::read_to_string(project_root().join("oid-std/Cargo.toml")).unwrap();
        let skipped = forwarded_only(
            "oid-std",
            &declared_features(&manifest),
            &std,
            &integrations,
        );
        assert!(skipped.iter().any(|f| f == "sqlx-postgres"), "{skipped:?}");
        assert!(!skipped.iter().any(|f| f == "legacy" || f == "serde"));
    }
}
