//! Repository conventions, checked by `cargo test -p xtask` (so `cargo xtask ci` enforces them),
//! in the manner of rust-analyzer's `tidy`.

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use crate::util::project_root;

    /// The library and binary crates that are published (each a top-level folder).
    const CRATES: &[&str] = &["oid-core", "oid-std", "oid-bson", "oid-embedded", "oid-cli"];

    fn read(path: &Path) -> String {
        fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
    }

    #[test]
    fn every_crate_has_readme_changelog_and_workspace_metadata() {
        let root = project_root();
        for krate in CRATES {
            let dir = root.join(krate);
            let readme = read(&dir.join("README.md"));
            assert!(
                readme.starts_with(&format!("# {krate}")),
                "{krate}/README.md must start with `# {krate}`"
            );
            let changelog = read(&dir.join("CHANGELOG.md"));
            assert!(
                changelog.contains("## [Unreleased]"),
                "{krate}/CHANGELOG.md needs an `## [Unreleased]` section"
            );
            let manifest = read(&dir.join("Cargo.toml"));
            for key in [
                "version.workspace = true",
                "edition.workspace = true",
                "license.workspace = true",
                "rust-version.workspace = true",
            ] {
                assert!(
                    manifest.contains(key),
                    "{krate}/Cargo.toml must use `{key}`"
                );
            }
            assert!(
                manifest.contains("[lints]\nworkspace = true"),
                "{krate}/Cargo.toml must inherit workspace lints"
            );
        }
    }

    #[test]
    fn library_crates_use_their_readme_as_crate_docs() {
        let root = project_root();
        for krate in CRATES.iter().filter(|k| **k != "oid-cli") {
            let lib = read(&root.join(krate).join("src/lib.rs"));
            assert!(
                lib.contains("#![doc = include_str!(\"../README.md\")]"),
                "{krate}/src/lib.rs must use its README as crate docs"
            );
        }
    }

    #[test]
    fn ci_script_runs_the_readme_test_command() {
        let root = project_root();
        let readme = read(&root.join("README.md"));
        let ci = read(&root.join(".ci/run"));
        assert!(
            readme.contains("cargo xtask ci"),
            "README must name the test command"
        );
        let last = ci
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        assert_eq!(
            last.map(str::trim),
            Some("cargo xtask ci"),
            ".ci/run must end by running the README's test command"
        );
    }

    #[test]
    fn oid_core_forbids_unsafe_and_is_no_std() {
        let lib = read(&project_root().join("oid-core/src/lib.rs"));
        assert!(lib.contains("#![no_std]"));
        assert!(lib.contains("#![forbid(unsafe_code)]"));
    }

    #[test]
    fn sibling_path_dependencies_carry_a_version() {
        let manifest = read(&project_root().join("Cargo.toml"));
        for line in manifest.lines().filter(|l| l.contains("path = \"oid-")) {
            assert!(
                line.contains("version = "),
                "path dependency without a version: {line}"
            );
        }
    }
}
