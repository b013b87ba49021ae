"""Drives sqlgate's Flight SQL endpoint with the ADBC Flight SQL driver
(PyPI adbc-driver-flightsql) and pyarrow, as a data scientist would.

Usage: adbc_client.py URI USER PASSWORD. The table alltypes (every Fluss
type) exists with three rows, and pycopy and pybuilt are empty copies of
it (pycreated is made here; pyrows is replaced and pyreplaced made by
mode="replace"); flightsql/adbc_test.go compares what this writes with the PostgreSQL
side. Prints one line per check; exits non-zero on the first failure.
"""
import datetime
import decimal
import sys

import adbc_driver_flightsql.dbapi as flight_sql
import adbc_driver_manager
import pyarrow as pa

uri, user, password = sys.argv[1:4]


def connect(pw):
    return flight_sql.connect(uri, db_kwargs={"username": user, "password": pw})


def check(cond, what):
    if not cond:
        print("FAIL", what)
        sys.exit(1)
    print("ok", what)


# a wrong password is refused with the SQLSTATE
try:
    connect("wrong").cursor().execute("SELECT 1")
    check(False, "wrong password refused")
except adbc_driver_manager.Error as e:
    check("28P01" in str(e), "wrong password refused: " + str(e).splitlines()[0])

conn = connect(password)
cur = conn.cursor()

# a query into a pyarrow table: nested columns are native Arrow types
cur.execute("SELECT * FROM alltypes ORDER BY id")
tbl = cur.fetch_arrow_table()
check(tbl.num_rows == 3, "query rows")
check(pa.types.is_list(tbl.schema.field("arr").type), "ARRAY is a list")
check(pa.types.is_map(tbl.schema.field("m").type), "MAP is a map")
check(pa.types.is_struct(tbl.schema.field("r").type), "ROW is a struct")
check(tbl.column("r").to_pylist()[0] == {"a": 7, "b": "seven"}, "ROW value")
check(tbl.column("m").to_pylist()[0] == [("k1", 1), ("k2", None)], "MAP value")
check(tbl.column("dec").to_pylist()[0] == decimal.Decimal("12.34"), "DECIMAL value")

# DDL and DML through execute() take effect as the call returns (the
# driver prepares the next statement before it fetches this one's result)
cur.execute("CREATE TABLE pyddl (id INT, tags ARRAY<STRING>)")
cur.execute("INSERT INTO pyddl VALUES (1, ARRAY['a', 'b'])")
cur.execute("SELECT tags FROM pyddl")
check(cur.fetchall() == [(["a", "b"],)], "DDL and DML through execute()")
schema = conn.adbc_get_table_schema("pyddl")
check(schema.names == ["id", "tags"] and pa.types.is_list(schema.field("tags").type), "adbc_get_table_schema")

# parameters
cur.execute("SELECT id, s FROM alltypes WHERE id = $1", parameters=(1,))
check(cur.fetchall() == [(1, "hello")], "query with a parameter")
cur.execute("SELECT count(*) FROM alltypes WHERE id > $1 AND s = $2", parameters=(0, "hello"))
check(cur.fetchone()[0] == 1, "query with two parameters")

# ingest what was read (every type, nested ones included)
n = cur.adbc_ingest("pycopy", tbl, mode="append")
check(n == 3, "adbc_ingest of the query's table")

# ADBC's default mode creates the table from the pyarrow schema
n = cur.adbc_ingest("pycreated", tbl)
check(n == 3, "adbc_ingest creating its table")

# ingest a table built from Python values against the table's schema
rows = [
    {"id": 1, "b": True, "ti": 1, "si": 2, "i": 3, "bi": 4, "f": 1.5, "d": 2.25, "dec": decimal.Decimal("12.34"),
     "s": "hello", "c": "abc", "by": b"\x01\x02", "bin": b"\x01\x02\x03", "dt": datetime.date(2024, 1, 2),
     "tm": datetime.time(12, 34, 56), "ts": datetime.datetime(2024, 1, 2, 3, 4, 5, 123456),
     "tz": datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc), "arr": [1, None, 3],
     "m": [("k1", 1), ("k2", None)], "r": {"a": 7, "b": "seven"},
     "nested": [{"x": 1, "y": ["a", None]}, {"x": 2, "y": None}]},
    {"id": 2},
    {"id": 3, "b": False, "ti": -1, "si": -2, "i": -3, "bi": -4, "f": -0.5, "d": 1e100, "dec": decimal.Decimal("-0.01"),
     "s": "", "c": "x  ", "by": b"", "bin": b"\x00\x00\x00", "dt": datetime.date(1999, 12, 31),
     "tm": datetime.time(0, 0, 0), "ts": datetime.datetime(1970, 1, 1),
     "tz": datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc), "arr": [], "m": [("z", 0)],
     "r": {"a": None, "b": None}, "nested": []},
]
built = pa.Table.from_pylist(rows, schema=tbl.schema)
n = cur.adbc_ingest("pybuilt", built, mode="append")
check(n == 3, "adbc_ingest of a table built in Python")

# representation-only differences are converted (large_string), others
# refused naming the column
large = pa.table({"id": pa.array([3], pa.int32()), "s": pa.array(["three"], pa.large_string())})
check(cur.adbc_ingest("pyrows", large, mode="append") == 1, "a large_string column converted")
conn.commit()
# (an error fails the transaction block, as in PostgreSQL: refuse on a
# connection of its own in autocommit mode)
other = flight_sql.connect(uri, db_kwargs={"username": user, "password": password}, autocommit=True)
try:
    other.cursor().adbc_ingest("pycopy", large, mode="append")
    check(False, "a batch missing columns is refused")
except adbc_driver_manager.Error as e:
    check("42703" in str(e) and '"b"' in str(e), "a batch missing columns is refused naming the column")
other.close()

# an update with parameter rows (the driver runs them in a transaction:
# ADBC's DB-API turns autocommit off)
cur.executemany("INSERT INTO pyrows VALUES ($1, $2)", [(1, "one"), (2, "two")])
conn.commit()
cur.execute("SELECT id, s FROM pyrows ORDER BY id")
check(cur.fetchall() == [(1, "one"), (2, "two"), (3, "three")], "executemany")
cur.close()
conn.close()

# mode="replace": the table is made again from the pyarrow table's schema
# (in a transaction, as the DB-API runs it) and loaded with it
conn = connect(password)
cur = conn.cursor()
repl_schema = pa.schema([pa.field("k", pa.int64(), nullable=False), pa.field("v", pa.string())])
repl = pa.Table.from_arrays([pa.array([1, 2], pa.int64()), pa.array(["x", None])], schema=repl_schema)
check(cur.adbc_ingest("pyrows", repl, mode="replace") == 2, "adbc_ingest replacing a table")
conn.commit()
cur.execute("SELECT k, v FROM pyrows ORDER BY k")
check(cur.fetchall() == [(1, "x"), (2, None)], "the replaced table's rows")
# a rejected batch leaves the table as it was (autocommit)
other = flight_sql.connect(uri, db_kwargs={"username": user, "password": password}, autocommit=True)
bad = pa.Table.from_arrays([pa.array([3, None], pa.int64()), pa.array(["y", "z"])], schema=repl_schema)
try:
    other.cursor().adbc_ingest("pyrows", bad, mode="replace")
    check(False, "a replace with a NULL in a NOT NULL column is refused")
except adbc_driver_manager.Error as e:
    check("23502" in str(e) and '"k"' in str(e), "a replace with a NULL in a NOT NULL column is refused naming it")
cur.execute("SELECT k, v FROM pyrows ORDER BY k")
check(cur.fetchall() == [(1, "x"), (2, None)], "a refused replace leaves the table as it was")
# replace in autocommit mode, into a table that does not exist yet
check(other.cursor().adbc_ingest("pyreplaced", repl, mode="replace") == 2, "adbc_ingest replace creating its table")
other.close()
cur.close()
conn.close()
