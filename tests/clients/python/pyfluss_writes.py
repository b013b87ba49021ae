"""Writes to a Fluss cluster with Fluss's own Python client (pyfluss), for
the SUBSCRIBE cluster test: the subscriptions sqlgate serves must see these
changes as Fluss's changelog has them.

    pyfluss_writes.py BOOTSTRAP DATABASE LOG_TABLE PK_TABLE

Appends (1, 'a'), (2, 'b'), (3, 'c') to LOG_TABLE (id INT, v TEXT); upserts
(1, 'x'), (2, 'y') into PK_TABLE (id INT PRIMARY KEY, v TEXT), then (1,
'x2') and deletes key 2. Leaves with os._exit once its output is flushed
(pyfluss 1.0.0 may abort while the interpreter tears its runtime down).
"""
import asyncio
import os
import sys
import traceback

import fluss


async def main(bootstrap, db, log_name, pk_name):
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))
    try:
        log = await conn.get_table(fluss.TablePath(db, log_name))
        w = log.new_append().create_writer()
        for i, v in ((1, "a"), (2, "b"), (3, "c")):
            w.append({"id": i, "v": v})
        await w.flush()

        pk = await conn.get_table(fluss.TablePath(db, pk_name))
        u = pk.new_upsert().create_writer()
        u.upsert({"id": 1, "v": "x"})
        u.upsert({"id": 2, "v": "y"})
        await u.flush()
        u.upsert({"id": 1, "v": "x2"})
        u.delete({"id": 2})
        await u.flush()
    finally:
        await conn.close()


status = 0
try:
    asyncio.run(main(*sys.argv[1:5]))
    print("ok")
except BaseException:  # noqa: BLE001 - reported, then the quick exit
    traceback.print_exc()
    status = 1
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
