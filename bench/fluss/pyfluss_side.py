"""pyfluss 1.0.0's side of bench/fluss (issue 26, acceptance 6): the same
work sqlgate's side does, through Fluss's own Python client. Each mode
prints one JSON object on stdout.

  append BOOTSTRAP DB TABLE N        write rows 0..N-1 (bench/fluss's generator)
                                     as Arrow batches of 64k rows, then flush
  scan BOOTSTRAP DB TABLE            Arrow scan of every bucket from the earliest
                                     offset to the latest; rows and sum(id)
  lookup BOOTSTRAP DB TABLE KEYS SECONDS CONC
                                     CONC concurrent lookups by primary key, keys
                                     cycling through 0..KEYS-1, for SECONDS
"""
import asyncio
import json
import sys
import time

import fluss
import pyarrow as pa
import pyarrow.compute as pc


async def connect(bootstrap):
    return await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))


def batch(schema, lo, hi):
    """Rows lo..hi-1 as bench/fluss/main.go's row() makes them."""
    ids = pa.array(range(lo, hi), pa.int64())
    name = pc.binary_join_element_wise("name-", pc.cast(pc.remainder(ids, 1000), pa.string()), "")
    amount = pc.divide(pc.cast(pc.remainder(ids, 10000), pa.float64()), 100.0)
    qty = pc.cast(pc.remainder(ids, 50), pa.int32())
    return pa.RecordBatch.from_arrays([ids, name, amount, qty], schema=schema)


async def append(bootstrap, db, table, n):
    conn = await connect(bootstrap)
    try:
        t = await conn.get_table(fluss.TablePath(db, table))
        schema = t.arrow_schema
        batches = [batch(schema, lo, min(n, lo + 65536)) for lo in range(0, n, 65536)]
        start = time.perf_counter()
        w = t.new_append().create_writer()
        for b in batches:
            w.write_arrow_batch(b)
        await w.flush()
        return {"rows": n, "seconds": time.perf_counter() - start}
    finally:
        await conn.close()


async def scan(bootstrap, db, table):
    conn = await connect(bootstrap)
    try:
        start = time.perf_counter()
        t = await conn.get_table(fluss.TablePath(db, table))
        info = t.get_table_info()
        ends = await conn.get_admin().list_offsets(fluss.TablePath(db, table), list(range(info.num_buckets)),
                                                   fluss.OffsetSpec.latest())
        want = sum(ends.values())
        sc = await t.new_scan().create_record_batch_log_scanner()
        sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(info.num_buckets)})
        seen, total = 0, 0
        deadline = time.perf_counter() + 600
        while seen < want and time.perf_counter() < deadline:
            tab = await sc.poll_arrow(1000)
            seen += tab.num_rows
            if tab.num_rows:
                total += pc.sum(tab.column("id")).as_py()
        return {"rows": seen, "sum_id": total, "seconds": time.perf_counter() - start}
    finally:
        await conn.close()


async def lookup(bootstrap, db, table, keys, seconds, conc):
    conn = await connect(bootstrap)
    try:
        t = await conn.get_table(fluss.TablePath(db, table))
        # One Lookuper per worker, as one per sqlgate connection.
        lks = [t.new_lookup().create_lookuper() for _ in range(conc)]
        for k in range(min(keys, 20)):  # warm-up: connections, metadata
            await lks[0].lookup({"id": k})
        done, found, lat = [0], [0], []
        stop = time.perf_counter() + seconds

        async def worker(w):
            k = w * 7919
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                r = await lks[w].lookup({"id": k % keys})
                lat.append(time.perf_counter() - t0)
                done[0] += 1
                found[0] += r is not None
                k += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker(w) for w in range(conc)))
        el = time.perf_counter() - start
        lat.sort()
        return {"lookups": done[0], "found": found[0], "seconds": el, "qps": done[0] / el,
                "p50_ms": 1000 * lat[len(lat) // 2] if lat else 0}
    finally:
        await conn.close()


def main():
    mode, bs, db, table = sys.argv[1:5]
    rest = [int(float(a)) for a in sys.argv[5:]]
    if mode == "append":
        out = asyncio.run(append(bs, db, table, *rest))
    elif mode == "scan":
        out = asyncio.run(scan(bs, db, table))
    elif mode == "lookup":
        out = asyncio.run(lookup(bs, db, table, *rest))
    else:
        sys.exit(f"unknown mode {mode}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
