"""Hex ids, one per line, to a Parquet file with one ObjectId column `_id`, the way Python users
do it today: pymongo's `bson.ObjectId` per row, then pyarrow with pymongoarrow's type. The peer
that `oid convert IN -o OUT.parquet` is timed against (oid-cli's README, "Speed").

    python python_convert.py IN OUT.parquet
"""

import sys

import bson
import pyarrow as pa
import pyarrow.parquet as pq
from pymongoarrow.types import ObjectIdType


def main(src: str, dst: str) -> None:
    with open(src, encoding="utf-8") as lines:
        ids = [bson.ObjectId(line.strip()).binary for line in lines if line.strip()]
    storage = pa.array(ids, type=pa.binary(12))
    column = pa.ExtensionArray.from_storage(ObjectIdType(), storage)
    pq.write_table(pa.table({"_id": column}), dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
