"""SUBSCRIBE through a psycopg2 named (server-side) cursor.

psycopg2 declares the cursor (DECLARE "c" CURSOR WITHOUT HOLD FOR
SUBSCRIBE ...) and fetches with FETCH FORWARD n FROM "c", which waits for
rows. Another connection writes while this one reads; the script prints
each change it received, one per line, for the Go test to check. With a
second argument "upsert" it changes a row by INSERT of its key instead of
UPDATE (a Fluss cluster has no UPDATE).
"""
import sys

import psycopg2

dsn = sys.argv[1]
# "upsert": change a row by INSERT of its key (a Fluss cluster has no UPDATE).
upsert = len(sys.argv) > 2 and sys.argv[2] == "upsert"
w = psycopg2.connect(dsn)
w.autocommit = True
wc = w.cursor()
wc.execute("CREATE TABLE py_sub (id INT PRIMARY KEY, v TEXT)")

r = psycopg2.connect(dsn)
cur = r.cursor("sub")  # a named cursor: DECLARE on the first execute
cur.itersize = 3
cur.execute("SUBSCRIBE py_sub WITH (SNAPSHOT = false)")

wc.execute("INSERT INTO py_sub VALUES (1, 'one'), (2, 'two')")
got = cur.fetchmany(2)
if upsert:
    wc.execute("INSERT INTO py_sub VALUES (1, 'uno')")
else:
    wc.execute("UPDATE py_sub SET v = 'uno' WHERE id = 1")
got += cur.fetchmany(2)
# A transaction rolled back never reaches the subscriber.
w.autocommit = False
wc.execute("INSERT INTO py_sub VALUES (3, 'aborted')")
w.rollback()
w.autocommit = True
wc.execute("DELETE FROM py_sub WHERE id = 2")
got += cur.fetchmany(1)
for kind, bucket, offset, ts, id_, v in got:
    print(kind, bucket, offset, id_, v, ts is not None)
cur.close()
r.rollback()
r.close()
w.close()
