"""The other side of oid-arrow's interop tests (tests/python.rs): pymongoarrow/pyarrow, Polars and
DuckDB writing and reading ObjectId columns.

    python columns.py write DIR   # pyarrow + pymongoarrow write DIR/py.parquet and DIR/py.arrows
    python columns.py read DIR    # reads DIR/rust.parquet and DIR/rust.arrows (written by Rust),
                                  # prints one JSON object of what each client saw

Both sides make the same rows: row i is null when i % 7 == 3, else the id of time
1_700_000_000 + i, random value [i % 256, 7 * i % 256, 0x3f, 0x2a, 0x91] and counter i.
"""

import json
import os
import struct
import sys
import warnings

# pymongoarrow 1.15 is built against an older pyarrow ABI and warns on import.
warnings.filterwarnings("ignore", category=RuntimeWarning)

import pyarrow as pa  # noqa: E402
import pyarrow.ipc as ipc  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

ROWS = 100_000


def expected():
    out = []
    for i in range(ROWS):
        if i % 7 == 3:
            out.append(None)
        else:
            out.append(
                struct.pack(">I", 1_700_000_000 + i)
                + bytes([i % 256, 7 * i % 256, 0x3F, 0x2A, 0x91])
                + i.to_bytes(3, "big")
            )
    return out


def write(directory):
    import pymongoarrow  # noqa: F401  (registers the type)
    from pymongoarrow.types import ObjectIdType

    storage = pa.array(expected(), pa.binary(12))
    column = pa.ExtensionArray.from_storage(ObjectIdType(), storage)
    table = pa.table({"_id": column})
    pq.write_table(table, f"{directory}/py.parquet", row_group_size=10_000)
    with ipc.new_stream(f"{directory}/py.arrows", table.schema) as w:
        w.write_table(table, max_chunksize=30_000)


def read(directory):
    import pymongoarrow  # noqa: F401  (registers the type with pyarrow and Polars)
    from pymongoarrow.types import ObjectIdType

    want = expected()
    seen = {}
    for name, table in [
        ("parquet", pq.read_table(f"{directory}/rust.parquet")),
        ("ipc", ipc.open_stream(f"{directory}/rust.arrows").read_all()),
    ]:
        column = table.column("_id").combine_chunks()
        storage = column.storage if isinstance(column, pa.ExtensionArray) else column
        seen[f"pyarrow_{name}"] = {
            "type": str(column.type),
            "is_pymongoarrow_objectid": isinstance(column.type, ObjectIdType),
            "same_bytes": storage.to_pylist() == want,
            "nulls": column.null_count,
        }

    import polars as pl

    frame = pl.read_parquet(f"{directory}/rust.parquet")
    values = frame["_id"]
    raw = values.to_list()
    seen["polars"] = {
        "version": pl.__version__,
        "dtype": str(values.dtype),
        "same_bytes": [None if v is None else bytes(v) for v in raw] == want,
        "nulls": values.null_count(),
    }

    import duckdb

    con = duckdb.connect()
    rows = con.execute(
        "SELECT lower(hex(_id)) AS hex,"
        " to_timestamp(('0x' || left(hex(_id), 8))::UBIGINT) AS created"
        f" FROM read_parquet('{directory}/rust.parquet')"
    ).fetchall()
    hex_ok = [h for h, _ in rows] == [None if w is None else w.hex() for w in want]
    times_ok = all(
        (c is None) == (w is None)
        and (w is None or int(c.timestamp()) == struct.unpack(">I", w[:4])[0])
        for (_, c), w in zip(rows, want)
    )
    kind = con.execute(
        f"SELECT typeof(_id) FROM read_parquet('{directory}/rust.parquet') LIMIT 1"
    ).fetchone()[0]
    seen["duckdb"] = {
        "version": duckdb.__version__,
        "type": kind,
        "hex_ok": hex_ok,
        "created_ok": times_ok,
        "rows": len(rows),
    }
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    command, directory = sys.argv[1], sys.argv[2]
    {"write": write, "read": read}[command](directory)
    sys.stdout.flush()
    # pymongoarrow 1.15 under pyarrow 25 can abort in the interpreter's teardown ("terminate
    # called without an active exception") after all work is done: leave without it.
    os._exit(0)
