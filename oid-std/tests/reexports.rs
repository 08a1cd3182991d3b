//! oid-std re-exports everything public in oid-core, so that an std application names one crate.
//!
//! `use_every_core_item` names each public item of oid-core through `oid_std` (it compiles only
//! if oid-std re-exports them); `the_list_is_every_core_item` reads oid-core's `lib.rs` and fails
//! when oid-core gains a public item this list does not name yet.

use std::collections::BTreeSet;

/// Every public item of oid-core, by name, as reachable through oid-std.
#[allow(unused_imports)]
mod use_every_core_item {
    use oid_std::__private;
    #[cfg(feature = "rkyv")]
    use oid_std::ArchivedObjectId;
    use oid_std::Entropy;
    #[cfg(feature = "rand_core")]
    use oid_std::RngEntropy;
    #[cfg(feature = "rand_core-0_6")]
    use oid_std::rand_core_0_6;
    #[cfg(feature = "serde")]
    use oid_std::serde;
    use oid_std::{
        CapacityPolicy, Clock, EntropyError, ErrorKind, FixedClock, FromSliceError, GenerateError,
        Generator, IdRange, IdSpace, LegacyParts, ManualClock, ObjectId, ParseError, Parts,
        TimeOutOfRange, Upper, fmt, oid,
    };
}

/// The names in [`use_every_core_item`] (keep in step with it), and the pasted readers (`Form`,
/// `Pasted`, `PastedError`, `DateForm`, `PastedDate`, `PastedDateError`): oid-core's feature
/// `pasted`, which oid-std does not forward (the tools that read pasted text turn it on in
/// oid-core themselves), so they reach `oid_std::` only in a build that turns it on.
const NAMED: &[&str] = &[
    "ArchivedObjectId",
    "CapacityPolicy",
    "Clock",
    "DateForm",
    "Entropy",
    "EntropyError",
    "ErrorKind",
    "FixedClock",
    "Form",
    "FromSliceError",
    "GenerateError",
    "Generator",
    "IdRange",
    "IdSpace",
    "LegacyParts",
    "ManualClock",
    "ObjectId",
    "ParseError",
    "Parts",
    "Pasted",
    "PastedDate",
    "PastedDateError",
    "PastedError",
    "RngEntropy",
    "TimeOutOfRange",
    "Upper",
    "oid",
    "rand_core_0_6",
    "serde",
    "fmt",
    "__private",
];

/// The names oid-core's `lib.rs` makes public: `pub use` items (the alias after `as`, if any),
/// `pub mod`s and `#[macro_export]` macros (which live in `macros.rs`).
fn core_public_names() -> std::io::Result<BTreeSet<String>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../oid-core/src");
    let lib = std::fs::read_to_string(format!("{dir}/lib.rs"))?;
    let macros = std::fs::read_to_string(format!("{dir}/macros.rs"))?;
    let mut names = BTreeSet::new();
    // Join each `pub use ...;` statement onto one line.
    let mut statement = String::new();
    // An inline `pub mod name { ... }` (the hidden `__private`) counts by its name alone.
    let mut inline_module = false;
    for raw in lib.lines() {
        let line = raw.trim();
        if inline_module {
            inline_module = raw != "}";
            continue;
        }
        if let Some(module) = line
            .strip_prefix("pub mod ")
            .and_then(|l| l.strip_suffix(" {"))
        {
            names.insert(module.trim().to_owned());
            inline_module = true;
            continue;
        }
        if statement.is_empty() && !line.starts_with("pub use ") && !line.starts_with("pub mod ") {
            continue;
        }
        statement.push_str(line);
        statement.push(' ');
        if !line.ends_with(';') {
            continue;
        }
        let body = statement.trim().trim_end_matches(';');
        if let Some(module) = body.strip_prefix("pub mod ") {
            names.insert(module.trim().to_owned());
        } else if let Some(path) = body.strip_prefix("pub use ") {
            let items = match (path.find('{'), path.rfind('}')) {
                (Some(open), Some(close)) => path[open + 1..close].to_owned(),
                _ => path.rsplit("::").next().unwrap_or(path).to_owned(),
            };
            for item in items.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let name = item.rsplit(" as ").next().unwrap_or(item);
                names.insert(name.rsplit("::").next().unwrap_or(name).trim().to_owned());
            }
        }
        statement.clear();
    }
    let mut lines = macros.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line == "#[macro_export]" {
            if let Some(name) = lines
                .next()
                .and_then(|l| l.strip_prefix("macro_rules! "))
                .and_then(|l| l.split_whitespace().next())
            {
                names.insert(name.to_owned());
            }
        }
    }
    Ok(names)
}

#[test]
fn the_list_is_every_core_item() {
    let core = core_public_names().expect("oid-core's lib.rs and macros.rs");
    let named: BTreeSet<String> = NAMED.iter().map(|&s| s.to_owned()).collect();
    assert!(
        core.contains("ObjectId") && core.contains("oid"),
        "{core:?}"
    );
    let missing: Vec<&String> = core.difference(&named).collect();
    assert!(
        missing.is_empty(),
        "oid-core has public items that this test does not check are re-exported by oid-std: \
         {missing:?}; add them to `use_every_core_item` and `NAMED`"
    );
}

#[test]
fn reexported_items_are_oid_cores() {
    let id: oid_core::ObjectId = oid_std::oid!("507f1f77bcf86cd799439011");
    let range: oid_std::IdRange = oid_core::IdRange::ALL;
    assert!(range.contains(&id));
    let err: oid_core::__private::Error = oid_std::Error::WEAK_SEED;
    assert_eq!(err.kind(), oid_std::ErrorKind::WeakSeed);
}
