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

use xshell::Shell;

use crate::util::{
    Result, all_passed, cargo, cargo_target_dir, declared_features, files_under, project_root, run,
};

/// The crates whose docs.rs pages carry feature badges.
const CRATES: &[&str] = &["oid-core", "oid-bson"];

/// The foreign badges accepted, as `page: badge` (the page relative to `target/doc`):
/// async-graphql's `boxed-trait` on the `ObjectId` pages (see the module docs).
const ACCEPTED: &[&str] = &[
    "oid_core/struct.ObjectId.html: non-crate feature `boxed-trait`",
    "oid_bson/struct.ObjectId.html: non-crate feature `boxed-trait`",
];

/// Builds the workspace's docs the docs.rs way and checks oid-core's and oid-bson's badges.
pub(crate) fn check(sh: &Shell) -> Result {
    let doc = cargo(sh, "doc --workspace --no-deps --all-features").env("RUSTC_BOOTSTRAP", "1");
    run(doc.env("RUSTDOCFLAGS", "--cfg docsrs -D warnings"))?;
    let mut ours = Vec::new();
    for krate in CRATES {
        let manifest = std::fs::read_to_string(project_root().join(krate).join("Cargo.toml"))?;
        let features = declared_features(&manifest).into_iter();
        ours.extend(features.map(|f| format!("crate feature `{f}`")));
    }
    let (doc, mut badges, mut foreign) = (cargo_target_dir().join("doc"), 0, Vec::new());
    for krate in CRATES {
        let pages = files_under(&doc.join(krate.replace('-', "_")), "html");
        if pages.is_empty() {
            return Err(format!("no HTML docs of {krate} under {}", doc.display()).into());
        }
        for page in pages {
            let rel = page.strip_prefix(&doc)?.to_string_lossy();
            for badge in feature_badges(&std::fs::read_to_string(&page)?) {
                badges += 1;
                let shown = format!("{rel}: {badge}");
                if !ours.contains(&badge) && !ACCEPTED.contains(&&*shown) {
                    foreign.push(shown);
                }
            }
        }
    }
    foreign.sort();
    foreign.dedup();
    if badges == 0 {
        return Err("no feature badge found: the docs were not built with --cfg docsrs".into());
    }
    eprintln!("docsrs: {badges} feature badges, each naming a feature of {CRATES:?} or accepted");
    all_passed(&foreign).map_err(|e| {
        format!("badges of cfgs that are not our features (another crate's cfg?): {e}").into()
    })
}

/// The feature badges of a rustdoc page, as ``crate feature `serde` `` or ``non-crate feature
/// `boxed-trait` ``, from both of rustdoc's spellings: the full badge (`crate feature
/// <code>serde</code>`) and the item list's title attribute (``crate feature `serde` ``).
fn feature_badges(html: &str) -> Vec<String> {
    let html = html
        .replace("crate feature <code>", "crate feature `")
        .replace("</code>", "`");
    let badges = html.match_indices("crate feature `").map(|(at, _)| {
        // From the `non-` before it, if there is one.
        let from = html[..at].strip_suffix("non-").map_or(at, str::len);
        let name = html[at + 15..].split('`').next().unwrap_or("");
        format!("{}{name}`", &html[from..at + 15])
    });
    badges.collect()
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
        assert_eq!(
            feature_badges(html),
            [
                "crate feature `async-graphql`",
                "crate feature `serde`",
                "non-crate feature `boxed-trait`"
            ]
        );
        assert!(feature_badges("no badges here").is_empty());
    }

    #[test]
    fn only_boxed_trait_on_the_object_id_pages_is_accepted() {
        let accepted = |page: &str, badge: &str| ACCEPTED.contains(&&*format!("{page}: {badge}"));
        let boxed = "non-crate feature `boxed-trait`";
        assert!(accepted("oid_core/struct.ObjectId.html", boxed));
        assert!(accepted("oid_bson/struct.ObjectId.html", boxed));
        // Another page, the feature without `non-`, another foreign feature, or one of ours
        // negated: each still fails the step.
        for page in [
            "oid_core/index.html",
            "oid_core/fmt/struct.Hex.html",
            "oid_bson/v2/struct.ObjectId.html",
        ] {
            assert!(!accepted(page, boxed), "{page}");
        }
        for badge in [
            "crate feature `boxed-trait`",
            "non-crate feature `tokio`",
            "non-crate feature `serde`",
        ] {
            assert!(!accepted("oid_core/struct.ObjectId.html", badge), "{badge}");
        }
    }
}
