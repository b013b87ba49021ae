"""W2 (SELECT * FROM events) into Python, for bench/flight.go.

Usage: w2.py adbc|psycopg2 URI ROWS WARMUPS RUNS. "adbc" reads through
the ADBC Flight SQL driver into a pyarrow Table, "psycopg2" through
psycopg2 into a pandas DataFrame. Prints a JSON list of rows per second,
one per measured run; exits non-zero when a run returns another row count.
"""
import json
import sys
import time

method, uri, rows, warmups, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
QUERY = "SELECT * FROM events"

if method == "adbc":
    import adbc_driver_flightsql.dbapi as flight_sql

    conn = flight_sql.connect(uri, autocommit=True)

    def once():
        cur = conn.cursor()
        cur.execute(QUERY)
        n = cur.fetch_arrow_table().num_rows
        cur.close()
        return n
elif method == "psycopg2":
    import pandas as pd
    import psycopg2

    conn = psycopg2.connect(uri)
    conn.autocommit = True

    def once():
        cur = conn.cursor()
        cur.execute(QUERY)
        df = pd.DataFrame(cur.fetchall(), columns=[d[0] for d in cur.description])
        cur.close()
        return len(df)
else:
    sys.exit("unknown method " + method)

out = []
for i in range(warmups + runs):
    start = time.perf_counter()
    n = once()
    elapsed = time.perf_counter() - start
    if n != rows:
        sys.exit("%s returned %d rows, want %d" % (method, n, rows))
    if i >= warmups:
        out.append(n / elapsed)
print(json.dumps(out))
