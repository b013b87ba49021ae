"""pyfluss over tables sqlgate altered with ADD COLUMN ... DEFAULT ... NOT NULL
(fluss/remote/pyfluss_cluster_test.go, TestClusterPyflussMissingValue).

    python pyfluss_missing.py BOOTSTRAP DB LOG_TABLE PK_TABLE

Reads the log table's rows and looks up keys 1 and 2 of the primary-key
table (rows sqlgate wrote before the ALTER), prints them as JSON, then
writes id 10 with n NULL and id 11 with n 9 to both tables: the Fluss
columns are nullable, so pyfluss may.
"""
import asyncio
import json
import sys

import fluss
import quick_exit


async def main(bootstrap, db, log_name, pk_name):
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))
    try:
        out = {}
        t = await conn.get_table(fluss.TablePath(db, log_name))
        info = t.get_table_info()
        ends = await conn.get_admin().list_offsets(fluss.TablePath(db, log_name), list(range(info.num_buckets)), fluss.OffsetSpec.latest())
        sc = await t.new_scan().create_record_batch_log_scanner()
        sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(info.num_buckets)})
        rows, seen = [], 0
        deadline = asyncio.get_event_loop().time() + 60
        while seen < sum(ends.values()) and asyncio.get_event_loop().time() < deadline:
            tab = await sc.poll_arrow(1000)
            seen += tab.num_rows
            rows += tab.to_pylist()
        out["log"] = sorted(rows, key=lambda r: r["id"])
        pk = await conn.get_table(fluss.TablePath(db, pk_name))
        lk = pk.new_lookup().create_lookuper()
        out["pk"] = [await lk.lookup({"id": k}) for k in (1, 2)]

        w = t.new_append().create_writer()
        w.append({"id": 10, "a": "p", "n": None})
        w.append({"id": 11, "a": "q", "n": 9})
        await w.flush()
        u = pk.new_upsert().create_writer()
        u.upsert({"id": 10, "a": "p", "n": None})
        u.upsert({"id": 11, "a": "q", "n": 9})
        await u.flush()
        print(json.dumps(out, default=str))
    finally:
        await conn.close()


if __name__ == "__main__":
    quick_exit.run(lambda: asyncio.run(main(*sys.argv[1:5])))
