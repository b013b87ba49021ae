"""pyfluss's side of TestClusterPyflussPartitions (partitions_cluster_test.go).

One data set, ROWS, of a table partitioned by region (several partitions,
a DATE, a BIGINT and a STRING with NULLs beside the keys). Modes:

  sql                         print the table's columns (sqlgate DDL) and ROWS
                              as PostgreSQL text literals (JSON)
  write BOOTSTRAP DB LOG PK   pyfluss writes ROWS to the partitioned log table
                              (appends) and primary-key table (upserts, over an
                              older version of a row); it creates the partitions
                              first (CreatePartition)
  read BOOTSTRAP DB LOG PK    pyfluss reads each table: the log table by a scan
                              of every partition's buckets, the primary-key
                              table by a lookup of every key (and a missing
                              one), and lists the partitions; every value must
                              equal ROWS exactly
  partitions BOOTSTRAP DB T   print the table's partitions' names (JSON)

Exit status 1 with the differences on stderr when a value differs.
"""
import asyncio
import datetime as dt
import json
import sys

import quick_exit

import fluss

COLUMNS = [
    ("region", "STRING NOT NULL"),
    ("id", "INT NOT NULL"),
    ("v", "BIGINT"),
    ("s", "STRING"),
    ("d", "DATE"),
]
NAMES = [c[0] for c in COLUMNS]
PK = ["region", "id"]

ROWS = [
    {"region": "eu", "id": 1, "v": 10, "s": "un", "d": dt.date(2024, 1, 1)},
    {"region": "eu", "id": 2, "v": None, "s": "deux ✓", "d": None},
    {"region": "us", "id": 1, "v": -2**63, "s": None, "d": dt.date(1969, 12, 31)},
    {"region": "us-west_2", "id": 7, "v": 2**63 - 1, "s": "", "d": dt.date(2000, 2, 29)},
    {"region": "apac", "id": 3, "v": 0, "s": "it's", "d": dt.date(9999, 12, 31)},
]
REGIONS = sorted({r["region"] for r in ROWS})


def literal(v):
    if v is None:
        return None
    return v.isoformat() if isinstance(v, dt.date) else str(v)


def sql_mode():
    print(json.dumps({
        "Columns": ", ".join(f"{n} {t}" for n, t in COLUMNS),
        "Rows": [[literal(r[n]) for n in NAMES] for r in ROWS],
        "Partitions": REGIONS,
    }))


async def connect(bootstrap):
    return await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))


async def write_mode(bootstrap, db, log_name, pk_name):
    conn = await connect(bootstrap)
    try:
        admin = conn.get_admin()
        for name in (log_name, pk_name):
            for region in REGIONS:
                await admin.create_partition(fluss.TablePath(db, name), {"region": region}, True)
        log = await conn.get_table(fluss.TablePath(db, log_name))
        w = log.new_append().create_writer()
        for r in ROWS:
            w.append(r)
        await w.flush()
        pk = await conn.get_table(fluss.TablePath(db, pk_name))
        u = pk.new_upsert().create_writer()
        u.upsert({**ROWS[0], "v": 999, "s": "old"})
        await u.flush()
        for r in ROWS:
            u.upsert(r)
        await u.flush()
    finally:
        await conn.close()


def normalise(row):
    out = {}
    for n in NAMES:
        v = row.get(n)
        if hasattr(v, "as_py"):
            v = v.as_py()
        if isinstance(v, dt.datetime):
            v = v.date()
        out[n] = v
    return out


def key(r):
    return (r["region"], r["id"])


async def read_log(conn, admin, db, name):
    path = fluss.TablePath(db, name)
    t = await conn.get_table(path)
    info = t.get_table_info()
    parts = await admin.list_partition_infos(path)
    sc = await t.new_scan().create_record_batch_log_scanner()
    ends = {}
    for p in parts:
        offs = await admin.list_partition_offsets(path, p.partition_name, list(range(info.num_buckets)), fluss.OffsetSpec.latest())
        for b, o in offs.items():
            if o > 0:
                ends[(p.partition_id, b)] = o
    if ends:
        sc.subscribe_partition_buckets({pb: fluss.EARLIEST_OFFSET for pb in ends})
    rows = []
    seen = 0
    want = sum(ends.values())
    deadline = asyncio.get_event_loop().time() + 60
    while seen < want and asyncio.get_event_loop().time() < deadline:
        tab = await sc.poll_arrow(1000)
        seen += tab.num_rows
        rows += tab.to_pylist()
    return sorted((normalise(r) for r in rows), key=key), sorted(p.partition_name for p in parts)


async def read_pk(conn, admin, db, name):
    path = fluss.TablePath(db, name)
    t = await conn.get_table(path)
    lk = t.new_lookup().create_lookuper()
    looked = []
    for r in ROWS:
        got = await lk.lookup({"region": r["region"], "id": r["id"]})
        looked.append(normalise(got) if got is not None else None)
    missing = await lk.lookup({"region": "eu", "id": 12345})
    parts = await admin.list_partition_infos(path)
    return looked, missing, sorted(p.partition_name for p in parts)


async def read_mode(bootstrap, db, log_name, pk_name):
    conn = await connect(bootstrap)
    errs = []
    try:
        admin = conn.get_admin()
        want = sorted((normalise(r) for r in ROWS), key=key)
        got, parts = await read_log(conn, admin, db, log_name)
        if got != want:
            errs.append(f"{log_name} (scan): got {got!r}\nwant {want!r}")
        if parts != REGIONS:
            errs.append(f"{log_name}: partitions {parts}, want {REGIONS}")
        looked, missing, parts = await read_pk(conn, admin, db, pk_name)
        for r, l in zip(ROWS, looked):
            if l != normalise(r):
                errs.append(f"{pk_name} (lookup {key(r)}): got {l!r}, want {normalise(r)!r}")
        if missing is not None:
            errs.append(f"{pk_name}: lookup of a missing key gave {missing!r}")
        if parts != REGIONS:
            errs.append(f"{pk_name}: partitions {parts}, want {REGIONS}")
    finally:
        await conn.close()
    if errs:
        print("\n".join(errs), file=sys.stderr)
        return 1
    return 0


async def partitions_mode(bootstrap, db, name):
    conn = await connect(bootstrap)
    try:
        admin = conn.get_admin()
        parts = await admin.list_partition_infos(fluss.TablePath(db, name))
        print(json.dumps(sorted(p.partition_name for p in parts)))
    finally:
        await conn.close()


def main():
    mode = sys.argv[1]
    status = 0
    if mode == "sql":
        sql_mode()
    elif mode == "write":
        asyncio.run(write_mode(*sys.argv[2:6]))
    elif mode == "read":
        status = asyncio.run(read_mode(*sys.argv[2:6]))
    elif mode == "partitions":
        asyncio.run(partitions_mode(*sys.argv[2:5]))
    else:
        print(f"unknown mode {mode}", file=sys.stderr)
        status = 2
    return status


if __name__ == "__main__":
    quick_exit.run(main)
