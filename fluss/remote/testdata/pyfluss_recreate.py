"""Drops a table and creates it again with other columns through pyfluss
(Fluss's own Python client), then upserts one row: a change of the table
that no sqlgate server announces (tablecache_cluster_test.go).

    pyfluss_recreate.py BOOTSTRAP DATABASE TABLE
"""
import asyncio
import sys

import quick_exit

import fluss
import pyarrow as pa


async def main(bootstrap, db, name):
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))
    try:
        admin = conn.get_admin()
        path = fluss.TablePath(db, name)
        await admin.drop_table(path, False)
        schema = fluss.Schema(pa.schema([pa.field("id", pa.int32(), nullable=False), pa.field("z", pa.int64())]), primary_keys=["id"])
        await admin.create_table(path, fluss.TableDescriptor(schema, bucket_count=1), False)
        for _ in range(100):  # the new table's bucket needs a leader
            try:
                t = await conn.get_table(path)
                u = t.new_upsert().create_writer()
                u.upsert({"id": 1, "z": 42})
                await u.flush()
                return
            except Exception:  # noqa: BLE001 - retried until the leader is there
                await asyncio.sleep(0.1)
        raise SystemExit("the re-created table took no write")
    finally:
        await conn.close()


if __name__ == "__main__":
    quick_exit.run(lambda: asyncio.run(main(*sys.argv[1:4])))
