//! The rustdoc step (`cargo xtask docsrs`, a step of `cargo xtask ci`): the workspace's docs as
//! docs.rs builds them (`--cfg docsrs`, every feature: `[package.metadata.docs.rs]`) with
//! `-D warnings`, then every "Available on ..." badge of oid-core's and oid-bson's pages checked:
//! each must name a feature of our own crates, so that no other crate's cfg reads as one of our
//! features. One exception, [`ACCEPTED`]: async-graphql declares `OutputType::resolve` under its
//! own `boxed-trait` feature and under its negation, and rustdoc shows that cfg on every
//! implementation, so the impl that async-graphql's `#[Scalar]` writes for `ObjectId` carries
//! "non-crate feature `boxed-trait`" on the `ObjectId` page. Writing the impls by hand to hide it
//! meant a struct literal of async-graphql's `MetaType`, which broke with async-graphql 7.2 (a new
//! field); the badge is accepted there and nowhere else.
//!
//! docs.rs uses nightly for `doc(cfg)`; this uses the pinned toolchain with `RUSTC_BOOTSTRAP=1`
//! (the same badges), so that it reuses the dependencies the all-features clippy step checked
//! with the same setting instead of checking them all again with another compiler (about 3
//! minutes on 2 cores). The nightly build, for a look at the pages:
//! `RUSTDOCFLAGS="--cfg docsrs" cargo +nightly doc -p oid-core -p oid-bson --all-features --no-deps`.

use std::path::Path;

use xshell::{Shell, cmd};

use crate::util::{Result, cargo_target_dir, declared_features, files_under, project_root, run};

/// The crates whose docs.rs pages carry feature badges.
const CRATES: &[&str] = &["oid-core", "oid-bson"];

/// The foreign badges accepted: (page, relative to `target/doc`, with `/` separators; feature;
/// negated). async-graphql's `boxed-trait` on the `ObjectId` pages (see the module docs).
const ACCEPTED: &[(&str, &str, bool)] = &[
    ("oid_core/struct.ObjectId.html", "boxed-trait", true),
    ("oid_bson/struct.ObjectId.html", "boxed-trait", true),
];

/// Whether `badge` on `page` (relative to `target/doc`) is one of the [`ACCEPTED`] foreign badges.
fn accepted(page: &Path, badge: &Badge) -> bool {
    let page = page
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    ACCEPTED
        .iter()
        .any(|&(p, f, negated)| p == page && f == badge.feature && negated == badge.negated)
}

/// Builds the workspace's docs the docs.rs way and checks oid-core's and oid-bson's badges.
pub(crate) fn check(sh: &Shell) -> Result {
    run(cmd!(sh, "cargo doc --workspace --no-deps --all-features")
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTDOCFLAGS", "--cfg docsrs -D warnings"))?;
    let doc = cargo_target_dir().join("doc");
    let mut ours = Vec::new();
    for krate in CRATES {
        let manifest = std::fs::read_to_string(project_root().join(krate).join("Cargo.toml"))?;
        ours.extend(declared_features(&manifest));
    }
    let mut foreign = Vec::new();
    let mut badges = 0;
    let mut accepted_seen = 0;
    for krate in CRATES {
        let dir = doc.join(krate.replace('-', "_"));
        let pages = files_under(&dir, "html");
        if pages.is_empty() {
            return Err(format!("no HTML under {}", dir.display()).into());
        }
        for page in pages {
            let html = std::fs::read_to_string(&page)?;
            let rel = page.strip_prefix(&doc).unwrap_or(&page);
            for badge in feature_badges(&html) {
                badges += 1;
                if accepted(rel, &badge) {
                    accepted_seen += 1;
                } else if badge.negated || !ours.contains(&badge.feature) {
                    let shown = format!(
                        "{}: {}crate feature `{}`",
                        rel.display(),
                        if badge.negated { "non-" } else { "" },
                        badge.feature
                    );
                    if !foreign.contains(&shown) {
                        foreign.push(shown);
                    }
                }
            }
        }
    }
    if badges == 0 {
        return Err("no feature badge found: the docs were not built with --cfg docsrs".into());
    }
    eprintln!(
        "docsrs: {badges} feature badges, each naming a feature of {CRATES:?} \
         ({accepted_seen} of them async-graphql's accepted `boxed-trait`)"
    );
    if foreign.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "badges of cfgs that are not our features (another crate's cfg?): {}",
            foreign.join("; ")
        )
        .into())
    }
}

/// One `crate feature X` or `non-crate feature X` in a rustdoc badge.
#[derive(Debug, PartialEq, Eq)]
struct Badge {
    feature: String,
    negated: bool,
}

/// The feature names rustdoc's portability badges mention, in both of its spellings: the full
/// badge (`crate feature <code>serde</code>`) and the item list's title attribute (``crate
/// feature `serde` ``).
fn feature_badges(html: &str) -> Vec<Badge> {
    const KEY: &str = "crate feature ";
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(KEY) {
        let negated = rest[..i].ends_with("non-");
        let after = &rest[i + KEY.len()..];
        let name = if let Some(s) = after.strip_prefix("<code>") {
            s.split("</code>").next()
        } else if let Some(s) = after.strip_prefix('`') {
            s.split('`').next()
        } else {
            None
        };
        if let Some(name) = name {
            out.push(Badge {
                feature: name.to_owned(),
                negated,
            });
        }
        rest = after;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn badges_are_read_in_both_spellings_and_negation_is_seen() {
        let html = r#"<div class="stab portability">Available on <strong>crate feature <code>async-graphql</code></strong> only.</div>
<span class="stab portability" title="Available on crate feature `serde` only"><code>serde</code></span>
<div class="stab portability">Available on <strong>non-crate feature <code>boxed-trait</code></strong> only.</div>
<p>the crate feature list</p>"#;
        let found = feature_badges(html);
        assert_eq!(
            found,
            [
                Badge {
                    feature: "async-graphql".into(),
                    negated: false
                },
                Badge {
                    feature: "serde".into(),
                    negated: false
                },
                Badge {
                    feature: "boxed-trait".into(),
                    negated: true
                },
            ]
        );
        assert!(feature_badges("no badges here").is_empty());
    }

    #[test]
    fn only_boxed_trait_on_the_object_id_pages_is_accepted() {
        let boxed = Badge {
            feature: "boxed-trait".into(),
            negated: true,
        };
        for page in [
            "oid_core/struct.ObjectId.html",
            "oid_bson/struct.ObjectId.html",
        ] {
            assert!(accepted(Path::new(page), &boxed), "{page}");
        }
        // Another page, the feature without `non-`, another foreign feature, or one of ours
        // negated: each still fails the step.
        for page in [
            "oid_core/index.html",
            "oid_core/fmt/struct.Hex.html",
            "oid_std/struct.ObjectId.html",
            "oid_bson/v2/struct.ObjectId.html",
        ] {
            assert!(!accepted(Path::new(page), &boxed), "{page}");
        }
        let page = Path::new("oid_core/struct.ObjectId.html");
        for (feature, negated) in [("boxed-trait", false), ("tokio", true), ("serde", true)] {
            let badge = Badge {
                feature: feature.into(),
                negated,
            };
            assert!(!accepted(page, &badge), "{feature} {negated}");
        }
    }
}
