"""Differential test peer: pymongo's bson.ObjectId.

Reads a case file written by `oid-verify cases` (one case per line: class, expected bytes,
input as hex of its UTF-8) and prints, per case, tab-separated `api=verdict` fields:

  ObjectId=ok,<str(oid)>,<generation time in Unix seconds>   or   ObjectId=err,<exception type>
  is_valid=true|false

then one line `order<TAB><indices>`: the accepted cases, sorted by ObjectId's own `<` (stable).
The comparison itself is in verify/src/compare.rs.

`peer.py --bson-docs FILE` reads a document file written by `oid-verify bson-docs` (one line per
document: its BSON bytes as hex, a tab, the expected ids) and prints, per document, every value
that pymongo decodes as a `bson.ObjectId`, as `path=str(oid)` sorted and joined by `;` (paths are
keys and array indexes joined by `.`). `oid-verify compare-bson` compares them with the expected ids.
"""

import functools
import sys

import bson
from bson.objectid import ObjectId


def main(path: str) -> None:
    if not hasattr(bson, "ObjectId") or not hasattr(ObjectId, "generation_time"):
        sys.exit("peer.py: this `bson` is not pymongo's (install pymongo, not the `bson` package)")
    out = []
    accepted = []
    with open(path, encoding="ascii") as f:
        for index, line in enumerate(f):
            _cls, _expect, input_hex = line.rstrip("\n").split("\t")
            s = bytes.fromhex(input_hex).decode("utf-8")
            try:
                oid = ObjectId(s)
            except Exception as e:  # any exception is a rejection; its type is reported
                ctor = f"err,{type(e).__name__}"
            else:
                ts = int(oid.generation_time.timestamp())
                ctor = f"ok,{oid},{ts}"
                accepted.append((index, oid))
            valid = "true" if ObjectId.is_valid(s) else "false"
            out.append(f"ObjectId={ctor}\tis_valid={valid}")

    def cmp(a, b):
        # Only ObjectId's own comparison operators decide the order.
        if a[1] < b[1]:
            return -1
        if b[1] < a[1]:
            return 1
        return 0

    accepted.sort(key=functools.cmp_to_key(cmp))  # stable, like Rust's sort_by
    out.append("order\t" + " ".join(str(i) for i, _ in accepted))
    sys.stdout.write("\n".join(out) + "\n")
    import pymongo

    print(f"peer.py: pymongo {pymongo.version}, {index + 1} cases", file=sys.stderr)


def object_ids(prefix: str, value, out: list) -> None:
    if isinstance(value, ObjectId):
        out.append(f"{prefix}={value}")
    elif isinstance(value, dict):
        for k, v in value.items():
            object_ids(f"{prefix}.{k}" if prefix else k, v, out)
    elif isinstance(value, list):
        for k, v in enumerate(value):
            object_ids(f"{prefix}.{k}" if prefix else str(k), v, out)


def bson_docs(path: str) -> None:
    out = []
    with open(path, encoding="ascii") as f:
        for line in f:
            doc_hex, _expected = line.rstrip("\n").split("\t")
            found: list = []
            object_ids("", bson.decode(bytes.fromhex(doc_hex)), found)
            out.append(";".join(sorted(found)))
    sys.stdout.write("\n".join(out) + "\n")
    print(f"peer.py: {len(out)} BSON documents decoded", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "--bson-docs":
        bson_docs(sys.argv[2])
    else:
        main(sys.argv[1])
