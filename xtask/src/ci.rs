//! The CI pipeline: runs every step, collects failures, reports them all at the end.

use std::time::Instant;

use xshell::{Shell, cmd};

pub(crate) type Result<T = ()> = std::result::Result<T, String>;

/// Targets the project builds for; missing ones are added with rustup.
pub(crate) const TARGETS: &[&str] = &[
    "thumbv6m-none-eabi",
    "thumbv7m-none-eabi",
    "thumbv7em-none-eabihf",
    "wasm32-unknown-unknown",
];

/// oid-core's features, combined in every way for the no_std builds.
const CORE_FEATURES: &[&str] = &["serde", "defmt", "portable-atomic", "critical-section"];

/// Runs steps, keeps going after a failure, and reports all of them.
pub(crate) struct Runner {
    pub(crate) sh: Shell,
    passed: Vec<String>,
    failed: Vec<(String, String)>,
}

impl Runner {
    pub(crate) fn new() -> Result<Runner> {
        let sh = Shell::new().map_err(|e| e.to_string())?;
        let root = project_root();
        sh.change_dir(&root);
        Ok(Runner {
            sh,
            passed: Vec::new(),
            failed: Vec::new(),
        })
    }

    pub(crate) fn step(&mut self, name: &str, f: impl FnOnce(&Shell) -> Result) {
        eprintln!("\n==> {name}");
        let start = Instant::now();
        let outcome = f(&self.sh);
        let secs = start.elapsed().as_secs_f64();
        match outcome {
            Ok(()) => {
                eprintln!("<== {name}: ok ({secs:.1}s)");
                self.passed.push(name.to_owned());
            }
            Err(e) => {
                eprintln!("<== {name}: FAILED ({secs:.1}s): {e}");
                self.failed.push((name.to_owned(), e));
            }
        }
    }

    pub(crate) fn finish(self) -> Result {
        eprintln!("\n==> summary");
        for name in &self.passed {
            eprintln!("  ok      {name}");
        }
        for (name, e) in &self.failed {
            eprintln!("  FAILED  {name}: {e}");
        }
        println!(
            "xtask: {} passed, {} failed",
            self.passed.len(),
            self.failed.len()
        );
        if self.failed.is_empty() {
            Ok(())
        } else {
            Err(format!("{} step(s) failed", self.failed.len()))
        }
    }
}

pub(crate) fn project_root() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    dir.parent().unwrap_or(dir).to_path_buf()
}

/// Where cargo puts build output: `CARGO_TARGET_DIR` (relative to the project root when
/// relative) or `target/` under the root.
pub(crate) fn cargo_target_dir() -> std::path::PathBuf {
    let root = project_root();
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) if std::path::Path::new(&d).is_relative() => root.join(d),
        Some(d) => std::path::PathBuf::from(d),
        None => root.join("target"),
    }
}

/// Adds the rustup targets that are missing (`RUSTUP_AUTO_INSTALL=0` means a toolchain file
/// alone installs nothing).
pub(crate) fn ensure_targets(sh: &Shell, targets: &[&str]) -> Result {
    let installed = cmd!(sh, "rustup target list --installed")
        .read()
        .map_err(|e| e.to_string())?;
    let missing: Vec<&str> = targets
        .iter()
        .copied()
        .filter(|t| !installed.lines().any(|l| l.trim() == *t))
        .collect();
    if !missing.is_empty() {
        cmd!(sh, "rustup target add {missing...}")
            .run()
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Runs a command, turning its failure into this module's error.
pub(crate) fn run(c: xshell::Cmd<'_>) -> Result {
    c.run().map_err(|e| e.to_string())
}

pub(crate) fn ci() -> Result {
    let mut r = Runner::new()?;
    r.step("rustup targets", |sh| ensure_targets(sh, TARGETS));
    r.step("fmt", |sh| run(cmd!(sh, "cargo fmt --all --check")));
    r.step("clippy (all features)", |sh| {
        run(cmd!(
            sh,
            "cargo clippy --workspace --all-targets --all-features -- -D warnings"
        ))
    });
    r.step("clippy (no default features)", |sh| {
        run(cmd!(
            sh,
            "cargo clippy --workspace --all-targets --no-default-features -- -D warnings"
        ))
    });
    r.step("test (all features)", |sh| {
        run(cmd!(sh, "cargo test --workspace --all-features"))
    });
    r.step("test (no default features)", |sh| {
        run(cmd!(sh, "cargo test --workspace --no-default-features"))
    });
    r.step("oid-std past capacity (release)", |sh| {
        run(cmd!(
            sh,
            "cargo test -p oid-std --release --test capacity -- --include-ignored"
        ))
    });
    r.step("rustdoc -D warnings", |sh| {
        run(cmd!(sh, "cargo doc --workspace --no-deps --all-features")
            .env("RUSTDOCFLAGS", "-D warnings"))
    });
    r.step("benches compile", |sh| {
        run(cmd!(sh, "cargo bench -p oid-benches --no-run"))
    });
    nostd_steps(&mut r);
    r.step("web page: wasm + chromium", crate::web::build_and_test);
    crate::firmware::ci_steps(&mut r);
    crate::verify::ci_steps(&mut r);
    r.finish()
}

pub(crate) fn nostd_only() -> Result {
    let mut r = Runner::new()?;
    r.step("rustup targets", |sh| ensure_targets(sh, TARGETS));
    nostd_steps(&mut r);
    r.finish()
}

/// Every subset of `features`, smallest first.
pub(crate) fn combinations<'a>(features: &[&'a str]) -> Vec<Vec<&'a str>> {
    (0u32..(1 << features.len()))
        .map(|mask| {
            features
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, f)| *f)
                .collect()
        })
        .collect()
}

fn nostd_steps(r: &mut Runner) {
    for target in ["thumbv6m-none-eabi", "thumbv7em-none-eabihf"] {
        for combo in combinations(CORE_FEATURES) {
            let features = combo.join(",");
            let label = if features.is_empty() {
                "(none)".to_owned()
            } else {
                features.clone()
            };
            r.step(&format!("oid-core for {target}, features {label}"), |sh| {
                let mut c = cmd!(
                    sh,
                    "cargo build -p oid-core --lib --target {target} --no-default-features --features={features}"
                );
                // thumbv6m has no compare-and-swap: portable-atomic needs the final binary to pick
                // how it is emulated. With `critical-section` that is the user's impl (linked
                // later); without it, build as a single-core user would.
                if target == "thumbv6m-none-eabi"
                    && combo.contains(&"portable-atomic")
                    && !combo.contains(&"critical-section")
                {
                    c = c.env(
                        "CARGO_TARGET_THUMBV6M_NONE_EABI_RUSTFLAGS",
                        "--cfg portable_atomic_unsafe_assume_single_core",
                    );
                }
                run(c)
            });
        }
    }
}
