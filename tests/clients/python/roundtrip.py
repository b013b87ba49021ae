"""Round-trips sqlgate's scalar types through psycopg2 (client-side
interpolation over the simple protocol, as SQLAlchemy uses it): INSERTs with
parameters, a SELECT, a comparison of every value, an error and recovery.
Prints "OK" and exits 0, or lists mismatches and exits 1.
Usage: python3 roundtrip.py DSN"""
import datetime
import decimal
import sys

import psycopg2

TEXT1 = "héllo ☃ \"quote\" \\back\ttab\nnewline 'single'"
TS1 = datetime.datetime(9999, 12, 31, 23, 59, 59, 999999)
TS2 = datetime.datetime(1, 1, 1, 0, 0, 0)
UTC = datetime.timezone.utc
ROWS = [
    (1, 9223372036854775807, 2147483647, 32767, 1.7976931348623157e308, 3.4028235e38, True, TEXT1, "varchar ✓",
     decimal.Decimal("9999999999999999.9999"), datetime.date(2261, 12, 31), TS1, TS1.replace(tzinfo=UTC), b"\x00\xff\\"),
    (2, -9223372036854775808, -2147483648, -32768, -2.2250738585072014e-308, -1.1754944e-38, False, "", "",
     decimal.Decimal("-9999999999999999.9999"), datetime.date(1678, 1, 1), TS2, TS2.replace(tzinfo=UTC), b""),
    (3,) + (None,) * 13,
]
COLS = "id, i8, i4, i2, f8, f4, b, t, v, n, d, ts, tz, bin"


def normalise(row):
    out = []
    for v in row:
        if isinstance(v, memoryview):
            v = bytes(v)
        if isinstance(v, datetime.datetime) and v.tzinfo is not None:
            v = v.astimezone(UTC)
        out.append(v)
    return tuple(out)


def main():
    errors = []
    conn = psycopg2.connect(sys.argv[1])
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("CREATE TABLE rt_psycopg2 (id INT, i8 BIGINT, i4 INT, i2 SMALLINT, f8 DOUBLE, f4 REAL, b BOOLEAN, t TEXT, "
                "v VARCHAR(20), n DECIMAL(20,4), d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, bin BYTEA)")
    for row in ROWS:
        cur.execute("INSERT INTO rt_psycopg2 (" + COLS + ") VALUES (" + ", ".join(["%s"] * 14) + ")", row)
    cur.execute("SELECT " + COLS + " FROM rt_psycopg2 ORDER BY id")
    got = [normalise(r) for r in cur.fetchall()]
    if len(got) != len(ROWS):
        errors.append("read %d rows, want %d" % (len(got), len(ROWS)))
    for i, (g, w) in enumerate(zip(got, ROWS)):
        for k, (a, b) in enumerate(zip(g, w)):
            if k == 5 and a is not None:  # real: compare at float32 precision
                a, b = float("%.7g" % a), float("%.7g" % b)
            if a != b:
                errors.append("row %d column %d: got %r, want %r" % (i + 1, k + 1, a, b))
    try:
        cur.execute("SELECT nope FROM rt_psycopg2")
        errors.append("bad column accepted")
    except psycopg2.Error as e:
        if e.pgcode != "42703":
            errors.append("bad column: SQLSTATE %s" % e.pgcode)
    # psycopg2 without autocommit wraps statements in BEGIN ... ROLLBACK.
    conn.autocommit = False
    cur = conn.cursor()
    cur.execute("SELECT count(*) FROM rt_psycopg2")
    if cur.fetchone()[0] != 3:
        errors.append("count in a transaction block")
    conn.rollback()
    conn.close()
    if errors:
        print("\n".join(errors))
        sys.exit(1)
    print("OK")


main()
