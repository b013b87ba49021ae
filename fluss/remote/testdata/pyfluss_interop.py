"""pyfluss's side of TestClusterPyflussInterop (pyfluss_cluster_test.go).

One data set, ROWS, covers every Fluss type sqlgate maps, nested ARRAY, MAP
and ROW included, with NULLs at every level. Modes:

  sql                       print the table's columns (sqlgate DDL) and ROWS as
                            PostgreSQL text literals (JSON), for sqlgate's INSERT
                            and COPY
  write BOOTSTRAP DB LOG PK pyfluss writes ROWS: to the log table as rows
                            (append) and as an Arrow batch (write_arrow_batch);
                            to the primary-key table as upserts (over an older
                            version of some rows, and a key upserted then deleted)
  read BOOTSTRAP DB LOG PK [LOG PK...]
                            pyfluss reads each pair: the log table by an Arrow
                            scan, the primary-key table by a lookup of every key
                            (and a missing one) and by replaying its changelog;
                            every value must equal ROWS exactly

Exit status 1 with the differences on stderr when a value differs.

pyfluss 1.0.0's own limits shape ROWS: it refuses a timestamp before 1970
with a part below the millisecond ("nanoOfMillisecond must be in range"),
and one after about 9999-12-30 22:00 (its conversion overflows).
"""
import asyncio
import datetime as dt
import json
import math
import struct
import sys

import quick_exit
from decimal import Decimal

import fluss
import pyarrow as pa

UTC = dt.timezone.utc

# (name, sqlgate DDL type, text-literal kind)
COLUMNS = [
    ("id", "INT NOT NULL", "int"),
    ("b", "BOOLEAN", "bool"),
    ("i8", "TINYINT", "int"),
    ("i16", "SMALLINT", "int"),
    ("i64", "BIGINT", "int"),
    ("f32", "FLOAT", "float"),
    ("f64", "DOUBLE", "float"),
    ("c", "CHAR(3)", "str"),
    ("s", "STRING", "str"),
    ("d1", "DECIMAL(10,2)", "str"),
    ("d2", "DECIMAL(28,6)", "str"),
    ("dt", "DATE", "iso"),
    ("tm", "TIME(3)", "iso"),
    ("ts3", "TIMESTAMP(3)", "ts"),
    ("ts6", "TIMESTAMP(6)", "ts"),
    ("ts9", "TIMESTAMP(9)", "ts"),
    ("lz3", "TIMESTAMP_LTZ(3)", "ts"),
    ("lz6", "TIMESTAMP_LTZ(6)", "ts"),
    ("bin", "BINARY(4)", "bytes"),
    ("by", "BYTES", "bytes"),
    ("ai", "ARRAY<INT>", "array"),
    ("as2", "ARRAY<STRING>", "array"),
    ("m", "MAP<STRING, INT>", "json"),
    ("r", "ROW<a INT, b STRING, c ARRAY<DOUBLE>>", "json"),
    ("ar", "ARRAY<ROW<x INT, y MAP<INT, STRING>>>", "json"),
]
NAMES = [c[0] for c in COLUMNS]

ROWS = [
    {"id": 1, "b": True, "i8": -128, "i16": 32767, "i64": -2**63, "f32": 1.5, "f64": 0.1, "c": "abc",
     "s": "héllo, wörld ✓", "d1": Decimal("-12345678.90"), "d2": Decimal("1234567890123456789012.123456"),
     "dt": dt.date(1999, 12, 31), "tm": dt.time(23, 59, 59, 123000),
     "ts3": dt.datetime(2024, 2, 29, 1, 2, 3, 456000), "ts6": dt.datetime(2024, 2, 29, 1, 2, 3, 456789),
     "ts9": dt.datetime(1969, 7, 20, 20, 17, 40, 5000),
     "lz3": dt.datetime(2024, 1, 1, 0, 0, 0, 1000, tzinfo=UTC), "lz6": dt.datetime(2024, 1, 1, 12, 0, 0, 999999, tzinfo=UTC),
     "bin": b"\x00\x01\x02\xff", "by": b"",
     "ai": [1, None, -3], "as2": ["a", None, "", "x y", 'q"uote'],
     "m": [("k", 1), ("n", None)], "r": {"a": None, "b": "x", "c": [1.5, None]},
     "ar": [{"x": 1, "y": [(2, "two"), (3, None)]}, None, {"x": None, "y": None}]},
    {"id": 2, **{n: None for n in NAMES if n != "id"}},
    {"id": 3, "b": False, "i8": 127, "i16": -32768, "i64": 2**63 - 1, "f32": -2.5e-3, "f64": float("inf"), "c": "x'z",
     "s": "a'b\\c\td\nnew line", "d1": Decimal("0.01"), "d2": Decimal("-0.000001"),
     "dt": dt.date(1970, 1, 1), "tm": dt.time(0, 0, 0), "ts3": dt.datetime(1970, 1, 1), "ts6": dt.datetime(2999, 12, 31, 23, 59, 59, 999999),
     "ts9": dt.datetime(2024, 6, 1, 12, 0, 0, 123456),
     "lz3": dt.datetime(1960, 5, 5, 5, 5, 5, 5000, tzinfo=UTC), "lz6": dt.datetime(2000, 2, 29, 23, 59, 59, 1, tzinfo=UTC),
     "bin": b"\xff\xfe\x00\x7f", "by": bytes(range(256)),
     "ai": [], "as2": [None], "m": [], "r": {"a": 1, "b": None, "c": []}, "ar": []},
    {"id": 4, "b": None, "i8": 0, "i16": None, "i64": 0, "f32": None, "f64": -0.5, "c": "ab", "s": "", "d1": None,
     "d2": Decimal("0.000000"), "dt": None, "tm": dt.time(12, 0, 0, 1000), "ts3": None, "ts6": dt.datetime(1, 1, 1), "ts9": None,
     "lz3": None, "lz6": None, "bin": None, "by": b"\\x00",
     "ai": None, "as2": None, "m": [("", 0), ("z", None), ("", 7)], "r": {"a": None, "b": None, "c": None},
     "ar": [{"x": None, "y": []}, {"x": -1, "y": [(0, "")]}]},
]

# Keys upserted first with other values (the later upsert must win), and a
# key upserted then deleted (it must be gone).
STALE = [{"id": 1, "s": "stale"}, {"id": 3, "i8": 1, "m": [("old", 1)]}]
GONE = {"id": 99, "s": "deleted"}


# ---- PostgreSQL text literals (what psql would send) ----

def array_text(v):
    def elem(e):
        if e is None:
            return "NULL"
        if isinstance(e, str):
            return '"' + e.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return str(e)
    return "{" + ",".join(elem(e) for e in v) + "}"


def json_value(v):
    """MAP as [[k, v], ...], ROW as {field: v}, ARRAY as [...]: sqlgate's JSON form."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, dict):
        return {k: json_value(x) for k, x in v.items()}
    if isinstance(v, list) and v and isinstance(v[0], tuple):
        return [[json_value(k), json_value(x)] for k, x in v]
    if isinstance(v, list):
        # a list of pairs that happens to be empty is [] either way
        return [json_value(x) for x in v]
    raise TypeError(f"no JSON form for {v!r}")


def literal(kind, v):
    if v is None:
        return None
    if kind == "bool":
        return "t" if v else "f"
    if kind == "int":
        return str(v)
    if kind == "float":
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return repr(v)
    if kind == "str":
        return str(v)
    if kind == "iso":
        return v.isoformat()
    if kind == "ts":
        return v.isoformat(sep=" ")
    if kind == "bytes":
        return "\\x" + v.hex()
    if kind == "array":
        return array_text(v)
    if kind == "json":
        return json.dumps(json_value(v), ensure_ascii=False, separators=(",", ":"))
    raise ValueError(kind)


def sql_mode():
    cols = ", ".join(f"{n} {t}" for n, t, _ in COLUMNS)
    rows = [[literal(k, r[n]) for n, _, k in COLUMNS] for r in ROWS]
    print(json.dumps({"columns": cols, "names": NAMES, "rows": rows}, ensure_ascii=False))


# ---- pyfluss ----

def as_write(row):
    """pyfluss takes a MAP as a dict or pairs; pairs keep duplicate keys."""
    return {n: row.get(n) for n in NAMES}


async def connect(bootstrap):
    return await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))


async def write_mode(bootstrap, db, log_name, pk_name):
    conn = await connect(bootstrap)
    try:
        log = await conn.get_table(fluss.TablePath(db, log_name))
        w = log.new_append().create_writer()
        half = len(ROWS) // 2
        for r in ROWS[:half]:
            w.append(as_write(r))
        schema = log.arrow_schema
        batch = pa.RecordBatch.from_pylist([as_write(r) for r in ROWS[half:]], schema=schema)
        w.write_arrow_batch(batch)
        await w.flush()

        pk = await conn.get_table(fluss.TablePath(db, pk_name))
        u = pk.new_upsert().create_writer()
        for r in STALE:
            u.upsert(as_write(r))
        u.upsert(as_write(GONE))
        await u.flush()
        for r in ROWS:
            u.upsert(as_write(r))
        u.delete({"id": GONE["id"]})
        await u.flush()
    finally:
        await conn.close()


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def as_float32(v):
    """A FLOAT column holds the nearest float32."""
    return v if v is None else struct.unpack("<f", struct.pack("<f", v))[0]


def expected(row, padded):
    """What a reader finds of row. padded: the table was written by sqlgate,
    which stores a CHAR(n) value padded with spaces to n (as PostgreSQL
    keeps bpchar, and as Flink's cast to CHAR(n) does); pyfluss stores the
    string it is given."""
    out = {n: as_float32(row[n]) if n == "f32" else row[n] for n in NAMES}
    if padded and out["c"] is not None:
        out["c"] = out["c"].ljust(3)
    return out


def normalise(v):
    """pyarrow gives a nanosecond timestamp (TIMESTAMP(9)) as a pandas
    Timestamp: a datetime when it has no nanoseconds beyond microseconds."""
    if hasattr(v, "to_pydatetime") and getattr(v, "nanosecond", 0) == 0:
        return v.to_pydatetime()
    return v


def diff(what, got_rows, want_rows, padded):
    errs = []
    if len(got_rows) != len(want_rows):
        errs.append(f"{what}: {len(got_rows)} rows, want {len(want_rows)}")
    for g, w in zip(got_rows, want_rows):
        w = expected(w, padded)
        for n in NAMES:
            if not same(normalise(g.get(n)), w.get(n)):
                errs.append(f"{what} id {w['id']} column {n}: got {g.get(n)!r}, want {w.get(n)!r}")
    return errs


async def read_log(conn, db, name):
    t = await conn.get_table(fluss.TablePath(db, name))
    info = t.get_table_info()
    sc = await t.new_scan().create_record_batch_log_scanner()
    admin = conn.get_admin()
    ends = await admin.list_offsets(fluss.TablePath(db, name), list(range(info.num_buckets)), fluss.OffsetSpec.latest())
    sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(info.num_buckets)})
    rows, seen = [], 0
    want = sum(ends.values())
    deadline = asyncio.get_event_loop().time() + 60
    while seen < want and asyncio.get_event_loop().time() < deadline:
        tab = await sc.poll_arrow(1000)
        seen += tab.num_rows
        rows += tab.to_pylist()
    return sorted(rows, key=lambda r: r["id"])


async def read_pk(conn, db, name):
    t = await conn.get_table(fluss.TablePath(db, name))
    lk = t.new_lookup().create_lookuper()
    looked = []
    for r in ROWS:
        looked.append(await lk.lookup({"id": r["id"]}))
    missing = await lk.lookup({"id": GONE["id"]})
    missing2 = await lk.lookup({"id": 12345})

    # The changelog, replayed: the table's current state.
    info = t.get_table_info()
    admin = conn.get_admin()
    ends = await admin.list_offsets(fluss.TablePath(db, name), list(range(info.num_buckets)), fluss.OffsetSpec.latest())
    sc = await t.new_scan().create_log_scanner()
    sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(info.num_buckets)})
    state, seen = {}, {b: 0 for b in range(info.num_buckets)}
    deadline = asyncio.get_event_loop().time() + 60
    while any(seen[b] < ends[b] for b in seen) and asyncio.get_event_loop().time() < deadline:
        recs = await sc.poll(1000)
        for rec in recs:
            ct = rec.change_type.short_string()
            row = rec.row
            if ct in ("+I", "+U", "+A"):
                state[row["id"]] = row
            elif ct == "-D":
                state.pop(row["id"], None)
        for b, lst in recs.items():
            for rec in lst:
                seen[b.bucket_id] = max(seen[b.bucket_id], rec.offset + 1)
    replayed = [state[k] for k in sorted(state)]
    return looked, (missing, missing2), replayed


async def read_mode(bootstrap, db, pairs):
    conn = await connect(bootstrap)
    errs = []
    try:
        for log_name, pk_name in pairs:
            padded = not log_name.startswith("py_")
            errs += diff(f"{log_name} (Arrow scan)", await read_log(conn, db, log_name), ROWS, padded)
            looked, missing, replayed = await read_pk(conn, db, pk_name)
            if any(r is None for r in looked):
                errs.append(f"{pk_name}: lookup found no row for ids {[r['id'] for r, l in zip(ROWS, looked) if l is None]}")
            errs += diff(f"{pk_name} (lookup)", [l or {} for l in looked], ROWS, padded)
            if missing != (None, None):
                errs.append(f"{pk_name}: lookup of missing keys gave {missing!r}")
            errs += diff(f"{pk_name} (changelog replay)", replayed, ROWS, padded)
    finally:
        await conn.close()
    if errs:
        print("\n".join(errs), file=sys.stderr)
        sys.exit(1)


def main():
    mode = sys.argv[1]
    if mode == "sql":
        sql_mode()
    elif mode == "write":
        asyncio.run(write_mode(*sys.argv[2:6]))
    elif mode == "read":
        rest = sys.argv[4:]
        asyncio.run(read_mode(sys.argv[2], sys.argv[3], list(zip(rest[0::2], rest[1::2]))))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    quick_exit.run(main)
