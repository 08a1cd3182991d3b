//! The one rule that tells bson's serializers from all others, shared by oid-core's and
//! oid-bson's `ObjectId`: [`is_bson_serializer`] and [`writes_oid_struct`].

use core::any::type_name;

/// Whom a serializer belongs to, as far as an id cares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Owner {
    /// A type of the crate `bson`, or a known wrapper around one.
    Bson,
    /// The serializer of [`ExtendedJsonIds`](super::ExtendedJsonIds) (around anything but bson's).
    ExtendedJsonIds,
    /// Anything else (JSON, YAML, postcard, an erased serializer, ...).
    Other,
}

/// `true` when `S` is one of the `bson` crate's serializers (of any bson version, in any of its
/// modules), or a known wrapper around one. bson turns the struct `{"$oid": "<hex>"}` into an
/// ObjectId element (`0x07`) there, so both of this workspace's `ObjectId` types write that struct
/// to them (their serde docs say what they write elsewhere).
///
/// # The rule
///
/// Decided from [`core::any::type_name::<S>()`](core::any::type_name) (no `'static` bound, no
/// dependency on bson, the same with every bson version and feature):
///
/// 1. After `&` and `&mut`, the type's path starts with the crate name `bson` (`bson::…`, any
///    module: bson 2 and 3 keep their serializers in `bson::ser::raw` and `bson::ser::serde`, and a
///    release that moves them elsewhere inside the crate is still recognised). A renamed
///    dependency (`bson2 = { package = "bson" }`) keeps the crate name `bson`; a crate whose name
///    merely contains it (`my_bson`, `bson_ext`) is not bson.
/// 2. Or it is a known wrapper whose *serializer argument* (its first type argument after the
///    lifetimes) is bson's by this same rule, at any depth: any type of `serde_path_to_error`
///    (its `Serializer`, and its `WrapMap` etc. that serde's flatten support wraps),
///    serde's `FlatMapSerializer` (`#[serde(flatten)]`), and the serializer of
///    [`ExtendedJsonIds`](super::ExtendedJsonIds). bson's own `HumanReadable` changes only a flag
///    of bson's serializer, whose type stays bson's.
/// 3. Nothing else: another generic argument that names a bson type (say a JSON serializer
///    writing into a bson-defined writer, or with a bson-defined formatter) never makes a
///    serializer bson's.
///
/// # The undecidable case
///
/// A serializer that hides its type, such as erased-serde's (the id sees `&mut dyn
/// erased_serde::Serializer`) or a wrapper of your own that is not on the list above, cannot be
/// told from JSON: this returns `false` for it, and an id gets what that serializer's
/// `is_human_readable()` asks for (a hex string from a bson `Document`/`Bson` serializer behind
/// it, 12 bytes from bson's bytes serializer). Fields below it that reach bson's own serializers
/// again are decided again, by their own type.
///
/// # Cost
///
/// A short scan of a constant string per serialized id, a few nanoseconds (measured in
/// `benches/benches/std_generate.rs`, `serde_json` group).
///
/// # Examples
///
/// ```
/// use oid_core::serde::is_bson_serializer;
///
/// assert!(is_bson_serializer::<bson::Serializer>());
/// assert!(!is_bson_serializer::<serde_json::value::Serializer>());
/// assert!(!is_bson_serializer::<&mut serde_json::Serializer<Vec<u8>>>());
/// ```
#[inline]
#[must_use]
pub fn is_bson_serializer<S: ?Sized>() -> bool {
    matches!(owner(type_name::<S>()), Owner::Bson)
}

/// `true` when an id should write the struct `{"$oid": "<hex>"}` to `S`: when
/// [`is_bson_serializer::<S>()`](is_bson_serializer) (bson makes it an ObjectId element), or
/// when `S` is the serializer of [`ExtendedJsonIds`](super::ExtendedJsonIds) (at any depth of
/// the wrappers that rule looks through). Both `oid_core::ObjectId` and `oid_bson::ObjectId`
/// ask this, with one scan of the type's name.
///
/// # Examples
///
/// ```
/// use oid_core::__private::writes_oid_struct;
///
/// assert!(writes_oid_struct::<bson::Serializer>());
/// assert!(!writes_oid_struct::<serde_json::value::Serializer>());
/// ```
#[inline]
#[must_use]
pub fn writes_oid_struct<S: ?Sized>() -> bool {
    !matches!(owner(type_name::<S>()), Owner::Other)
}

/// The type names of [`ExtendedJsonIds`](super::ExtendedJsonIds)' serializer and compound
/// serializer (their last path segment; the crate is `oid_core`).
pub(super) const OUR_WRAPPERS: [&str; 2] = ["IdsSerializer", "IdsCompound"];

/// The rule of [`is_bson_serializer`] on a type name, in one pass over its bytes that stops at
/// the crate name unless the crate is one the rule looks further into (JSON's serializer is
/// decided after `serde_json::`). A `str` search per step cost several times more, measured.
const fn owner(name: &str) -> Owner {
    let mut name = name.as_bytes();
    let mut ours = false;
    loop {
        name = strip_references(name);
        let (krate, rest) = match path_segment(name) {
            Some(split) => split,
            None => break,
        };
        // Which wrapper's last path segment to expect, if the crate has one the rule knows.
        let wrappers: &[&str] = match krate {
            b"bson" => return Owner::Bson,
            b"serde_path_to_error" => &[],
            b"serde" | b"serde_core" => &["FlatMapSerializer"],
            b"oid_core" => &OUR_WRAPPERS,
            _ => break,
        };
        // The rest of the path, up to the generic arguments.
        let mut last = rest;
        while let Some((_, after)) = path_segment(last) {
            last = after;
        }
        let end = path_end(last);
        let (last, args) = last.split_at(end);
        if !wrappers.is_empty() {
            let mut known = false;
            let mut i = 0;
            while i < wrappers.len() {
                known |= eq(last, wrappers[i].as_bytes());
                i += 1;
            }
            if !known {
                break;
            }
            ours |= matches!(krate, b"oid_core");
        }
        // A wrapper: go on with its serializer argument, the first after the lifetimes.
        match args.split_first() {
            Some((b'<', args)) => match skip_lifetimes(args) {
                Some(first) => name = first,
                None => break,
            },
            _ => break,
        }
    }
    if ours {
        Owner::ExtendedJsonIds
    } else {
        Owner::Other
    }
}

/// Where a path (of `name`'s start) ends: at its generic arguments, or the end of the argument
/// it is.
const fn path_end(name: &[u8]) -> usize {
    let mut i = 0;
    while i < name.len() {
        if let b'<' | b'>' | b',' | b' ' | b'(' | b')' | b'[' | b']' | b';' | b':' = name[i] {
            return i;
        }
        i += 1;
    }
    i
}

/// The first segment of the path at `name`'s start and what follows its `::`, or `None` when
/// the path has no `::` (it is the last segment, or not a path).
const fn path_segment(name: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = path_end(name);
    let (segment, rest) = name.split_at(end);
    match rest {
        [b':', b':', after @ ..] if end > 0 => Some((segment, after)),
        _ => None,
    }
}

/// Byte-wise equality, in a `const fn`.
const fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `name` after any `&`, `&'a ` and `&mut ` in front.
const fn strip_references(mut name: &[u8]) -> &[u8] {
    while let Some((b'&', rest)) = name.split_first() {
        name = rest;
        if let Some((b'\'', _)) = name.split_first() {
            name = after_space(name);
        }
        if let Some((head, after)) = name.split_first_chunk::<4>() {
            if eq(head, b"mut ") {
                name = after;
            }
        }
    }
    name
}

/// What follows the first space of `name`, or nothing.
const fn after_space(name: &[u8]) -> &[u8] {
    let mut i = 0;
    while i < name.len() {
        if name[i] == b' ' {
            return name.split_at(i + 1).1;
        }
        i += 1;
    }
    &[]
}

/// The generic arguments `args` (after `<`) from the first one that is not a lifetime, or
/// `None` when there is none.
const fn skip_lifetimes(mut args: &[u8]) -> Option<&[u8]> {
    while let Some((b'\'', _)) = args.split_first() {
        // Past the lifetime's `, `; a `>` first means there are only lifetimes.
        let mut i = 0;
        while i < args.len() && args[i] != b',' && args[i] != b'>' {
            i += 1;
        }
        if i + 1 >= args.len() || args[i] != b',' || args[i + 1] != b' ' {
            return None;
        }
        args = args.split_at(i + 2).1;
    }
    Some(args)
}

#[cfg(test)]
mod tests {
    use super::{Owner, owner};

    #[test]
    fn bsons_serializers_in_any_module_and_inside_known_wrappers() {
        for name in [
            // bson 3 and bson 2 today (also as bson 2, renamed `bson2`: the crate name stays).
            "bson::ser::serde::Serializer",
            "&mut bson::ser::raw::Serializer",
            "&mut bson::ser::raw::Serializer<'_>",
            "&mut bson::ser::raw::value_serializer::ValueSerializer<'_, '_>",
            "bson::ser::raw::document_serializer::KeySerializer<'_, '_>",
            // A bson release that moves them.
            "bson::serializer::Serializer",
            "&mut bson::raw::ser::Serializer<'_>",
            "bson::Serializer",
            "&'_ mut bson::x::Serializer",
            // Known wrappers, at any depth.
            "serde_path_to_error::ser::Serializer<'_, '_, bson::ser::serde::Serializer>",
            "serde_path_to_error::ser::Serializer<'_, '_, &mut bson::ser::raw::Serializer<'_>>",
            "serde_path_to_error::Serializer<'a, 'b, &mut bson::ser::raw::Serializer<'a>>",
            "serde::private::ser::FlatMapSerializer<'_, serde_path_to_error::ser::WrapMap<'_, '_, bson::ser::raw::document_serializer::DocumentSerializer<'_, '_>>>",
            "serde::__private::ser::FlatMapSerializer<'_, bson::ser::serde::MapSerializer>",
            "serde_core::private::FlatMapSerializer<'_, bson::ser::serde::StructSerializer>",
            "oid_core::external::serde_support::extended_json_ids::IdsSerializer<bson::ser::serde::Serializer>",
            "serde_path_to_error::ser::Serializer<'_, '_, oid_core::x::IdsSerializer<&mut bson::ser::raw::Serializer<'_>>>",
        ] {
            assert_eq!(owner(name), Owner::Bson, "{name}");
        }
    }

    #[test]
    fn other_serializers_whatever_their_arguments_name() {
        for name in [
            "&mut serde_json::ser::Serializer<&mut alloc::vec::Vec<u8>>",
            "serde_json::value::ser::Serializer",
            // A bson type as the writer or the formatter of a JSON serializer.
            "&mut serde_json::ser::Serializer<bson::RawDocumentBuf, serde_json::ser::CompactFormatter>",
            "&mut serde_json::ser::Serializer<&mut alloc::vec::Vec<u8>, bson::fmt::Formatter>",
            "serde_json::ser::Serializer<bson::Document>",
            // A known wrapper around a non-bson serializer that is generic over a bson type.
            "serde_path_to_error::ser::Serializer<'_, '_, &mut serde_json::ser::Serializer<bson::Document>>",
            "serde::private::ser::FlatMapSerializer<'_, serde_json::ser::Compound<'_, &mut alloc::vec::Vec<u8>, serde_json::ser::CompactFormatter>>",
            // FlatMapSerializer is known only from serde.
            "my_serde::FlatMapSerializer<bson::ser::serde::Serializer>",
            "serde::ser::Impossible<bson::Bson, bson::error::Error>",
            // Crate names that merely contain "bson".
            "my_bson::ser::Serializer",
            "bson_ext::Serializer",
            "bsonrs::ser::Serializer",
            "&mut bson2x::Serializer",
            "serde_bson::Serializer",
            // Types that hide the serializer.
            "&mut dyn erased_serde::ser::Serializer",
            "dyn erased_serde::Serializer",
            "alloc::boxed::Box<dyn erased_serde::ser::Serializer>",
            "erased_serde::ser::erase::Serializer<bson::ser::serde::Serializer>",
            // Not paths at all.
            "",
            "&",
            "&'",
            "bson",
            "(bson::ser::serde::Serializer, u8)",
            "[bson::ser::serde::Serializer; 1]",
            "serde_path_to_error::ser::Serializer",
            "serde_path_to_error::ser::Serializer<'_>",
            "serde_path_to_error::ser::Serializer<'_",
            "serde_path_to_error::ser::Serializer<",
        ] {
            assert_eq!(owner(name), Owner::Other, "{name}");
        }
    }

    #[test]
    fn our_wrapper_around_anything_else() {
        for name in [
            "oid_core::external::serde_support::extended_json_ids::IdsSerializer<serde_json::value::ser::Serializer>",
            "oid_core::a::IdsSerializer<&mut serde_json::ser::Serializer<bson::Document>>",
            "serde::private::ser::FlatMapSerializer<'_, oid_core::x::IdsCompound<serde_json::ser::Compound<'_, W, F>>>",
            "oid_core::x::IdsSerializer<&mut dyn erased_serde::Serializer>",
        ] {
            assert_eq!(owner(name), Owner::ExtendedJsonIds, "{name}");
        }
        // Only oid-core's own wrappers.
        assert_eq!(owner("oid_core::ObjectId"), Owner::Other);
        assert_eq!(owner("oid_cored::IdsSerializer<x::Y>"), Owner::Other);
    }

    /// The names the compiler gives real types, so that a change in how `type_name` spells them
    /// (or a renamed wrapper of ours) fails here.
    #[test]
    fn real_type_names() {
        use super::{is_bson_serializer, writes_oid_struct};
        assert!(is_bson_serializer::<bson::Serializer>());
        assert!(is_bson_serializer::<&mut bson::Serializer>());
        assert!(!is_bson_serializer::<serde_json::value::Serializer>());
        assert!(!is_bson_serializer::<
            &mut serde_json::Serializer<bson::RawDocumentBuf>,
        >());
        type Ids<S> = super::super::extended_json_ids::IdsSerializer<S>;
        assert!(is_bson_serializer::<Ids<bson::Serializer>>());
        assert!(!is_bson_serializer::<Ids<serde_json::value::Serializer>>());
        assert!(writes_oid_struct::<Ids<serde_json::value::Serializer>>());
        assert!(writes_oid_struct::<
            &mut Ids<&mut serde_json::Serializer<std::vec::Vec<u8>>>,
        >());
        assert!(!writes_oid_struct::<
            &mut serde_json::Serializer<std::vec::Vec<u8>>,
        >());
        type Compound<C> = super::super::extended_json_ids::IdsCompound<C>;
        assert!(writes_oid_struct::<Compound<serde_json::value::Serializer>>());
    }
}
