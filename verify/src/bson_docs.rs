//! Documents written by `oid_bson::ObjectId`, for pymongo to read (`oid-verify bson-docs` and
//! `oid-verify compare-bson`).
//!
//! Each line of the document file is `<BSON bytes as hex>\t<expected>`, where `<expected>` lists
//! every id of the document as `path=hex`, sorted, joined by `;` (paths are keys and array
//! indexes joined by `.`). The peer (`python/peer.py --bson-docs FILE`) decodes each document
//! with pymongo's `bson.decode`, collects every value that is a `bson.ObjectId` as `path=str(oid)`
//! the same way, and prints one such line per document. They must be equal: an id written as a
//! string or binary data would be missing from the peer's line.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;

use oid_bson::ObjectId;
use serde::Serialize;

#[derive(Serialize)]
struct Inner {
    owner: ObjectId,
}

#[derive(Serialize)]
enum Ref {
    User(ObjectId),
    Pair { left: ObjectId, right: ObjectId },
}

#[derive(Serialize)]
#[serde(untagged)]
enum Untagged {
    Bare(ObjectId),
}

#[derive(Serialize)]
#[serde(tag = "kind")]
enum Tagged {
    Created { by: ObjectId },
}

/// A model with every container shape, and no attribute on any id.
#[derive(Serialize)]
struct Model {
    #[serde(rename = "_id")]
    id: ObjectId,
    parent: Option<ObjectId>,
    none: Option<ObjectId>,
    tags: Vec<ObjectId>,
    maybe_tags: Option<Vec<ObjectId>>,
    by_name: BTreeMap<String, ObjectId>,
    inner: Inner,
    nested: Vec<Inner>,
    reference: Ref,
    pair: Ref,
    untagged: Untagged,
    tagged: Tagged,
    #[serde(flatten)]
    flat: Inner2,
}

#[derive(Serialize)]
struct Inner2 {
    flat_owner: ObjectId,
}

impl Model {
    /// A model from `ids` (at least 12, used in order), and its expected `path=hex` list.
    fn build(ids: &[ObjectId]) -> (Model, Vec<String>) {
        let i = |k: usize| ids[k % ids.len()];
        let model = Model {
            id: i(0),
            parent: Some(i(1)),
            none: None,
            tags: vec![i(2), i(3)],
            maybe_tags: Some(vec![i(4)]),
            by_name: BTreeMap::from([("a".to_owned(), i(5))]),
            inner: Inner { owner: i(6) },
            nested: vec![Inner { owner: i(7) }],
            reference: Ref::User(i(8)),
            pair: Ref::Pair {
                left: i(9),
                right: i(10),
            },
            untagged: Untagged::Bare(i(11)),
            tagged: Tagged::Created { by: i(0) },
            flat: Inner2 { flat_owner: i(1) },
        };
        let paths: [(&str, usize); 14] = [
            ("_id", 0),
            ("parent", 1),
            ("tags.0", 2),
            ("tags.1", 3),
            ("maybe_tags.0", 4),
            ("by_name.a", 5),
            ("inner.owner", 6),
            ("nested.0.owner", 7),
            ("reference.User", 8),
            ("pair.Pair.left", 9),
            ("pair.Pair.right", 10),
            ("untagged", 11),
            ("tagged.by", 0),
            ("flat_owner", 1),
        ];
        let mut expected: Vec<String> = paths
            .iter()
            .map(|(p, k)| format!("{p}={}", i(*k).to_hex()))
            .collect();
        expected.sort();
        (model, expected)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// `oid-verify bson-docs --out FILE`: documents written through bson 3 (bytes and `Document`) and
/// bson 2 (bytes and `Document`), from fresh ids and the edge ids.
pub(crate) fn write_docs(out: &str, count: usize) -> Result<String, String> {
    let edges = [
        ObjectId::from_bytes([0; 12]),
        ObjectId::from_bytes([0xff; 12]),
        ObjectId::from_bytes([0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0]),
        ObjectId::from_bytes([
            0x80, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ]),
    ];
    let mut f = fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut lines = 0;
    for n in 0..count {
        let ids: Vec<ObjectId> = if n == 0 {
            edges.iter().copied().cycle().take(12).collect()
        } else {
            (0..12).map(|_| ObjectId::new()).collect()
        };
        let (model, expected) = Model::build(&ids);
        let expected = expected.join(";");
        // The four ways bson 3 and bson 2 turn a model into bytes.
        let v3_bytes = bson::serialize_to_vec(&model).map_err(|e| e.to_string())?;
        let mut v3_doc = Vec::new();
        bson::serialize_to_document(&model)
            .and_then(|d| d.to_writer(&mut v3_doc))
            .map_err(|e| e.to_string())?;
        let v2_bytes = bson2::to_vec(&model).map_err(|e| e.to_string())?;
        let mut v2_doc = Vec::new();
        bson2::to_document(&model)
            .map_err(|e| e.to_string())?
            .to_writer(&mut v2_doc)
            .map_err(|e| e.to_string())?;
        for bytes in [v3_bytes, v3_doc, v2_bytes, v2_doc] {
            writeln!(f, "{}\t{expected}", hex(&bytes)).map_err(|e| format!("{out}: {e}"))?;
            lines += 1;
        }
    }
    Ok(format!(
        "{lines} documents ({count} models x bson 3 bytes, bson 3 Document, bson 2 bytes, bson 2 Document; 14 ids each) in {out}"
    ))
}

/// `oid-verify compare-bson --docs FILE --peer NAME=OUTPUT`: the peer found exactly the expected
/// ids, as its own ObjectId type, at the expected paths.
pub(crate) fn compare(docs: &str, name: &str, peer: &str) -> Result<String, String> {
    let docs = fs::read_to_string(docs).map_err(|e| format!("{docs}: {e}"))?;
    let peer_text = fs::read_to_string(peer).map_err(|e| format!("{peer}: {e}"))?;
    let expected: Vec<&str> = docs
        .lines()
        .map(|l| l.split_once('\t').map_or("", |(_, e)| e))
        .collect();
    let got: Vec<&str> = peer_text.lines().collect();
    if got.len() != expected.len() {
        return Err(format!(
            "{name}: {} lines for {} documents",
            got.len(),
            expected.len()
        ));
    }
    let bad: Vec<usize> = (0..got.len()).filter(|&k| got[k] != expected[k]).collect();
    if let Some(&first) = bad.first() {
        return Err(format!(
            "{name}: {} of {} documents differ; first, line {}: expected {:?}, {name} read {:?}",
            bad.len(),
            got.len(),
            first + 1,
            expected[first],
            got[first]
        ));
    }
    let ids: usize = expected.iter().map(|e| e.split(';').count()).sum();
    Ok(format!(
        "{} documents written by oid_bson::ObjectId: {name} read all {ids} ids as its ObjectId type with the same hex at the same paths",
        got.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_paths_match_what_bson_writes() {
        // Our own reading of the bytes, with bson's `Document`: the same walk the peer does.
        let ids: Vec<ObjectId> = (0..12).map(|_| ObjectId::new()).collect();
        let (model, expected) = Model::build(&ids);
        let bytes = bson::serialize_to_vec(&model).unwrap();
        let doc = bson::Document::from_reader(&bytes[..]).unwrap();
        fn walk(prefix: &str, value: &bson::Bson, out: &mut Vec<String>) {
            match value {
                bson::Bson::ObjectId(id) => out.push(format!("{prefix}={}", id.to_hex())),
                bson::Bson::Document(d) => {
                    for (k, v) in d {
                        walk(&join(prefix, k), v, out);
                    }
                }
                bson::Bson::Array(a) => {
                    for (k, v) in a.iter().enumerate() {
                        walk(&join(prefix, &k.to_string()), v, out);
                    }
                }
                _ => {}
            }
        }
        fn join(prefix: &str, key: &str) -> String {
            if prefix.is_empty() {
                key.to_owned()
            } else {
                format!("{prefix}.{key}")
            }
        }
        let mut found = Vec::new();
        walk("", &bson::Bson::Document(doc), &mut found);
        found.sort();
        assert_eq!(found, expected);
    }
}
