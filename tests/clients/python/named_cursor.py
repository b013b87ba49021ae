"""psycopg2 server-side (named) cursors against one server.

Prints a JSON transcript of what each step returned (rows, rowcount,
errors by SQLSTATE); the Go test runs it against sqlgate and PostgreSQL 15
and compares the transcripts.
"""
import json
import sys

import psycopg2
import psycopg2.extras

ROWS = 2500


def main(dsn):
    out = []
    conn = psycopg2.connect(dsn)
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS nc_t")
    cur.execute("CREATE TABLE nc_t (id INT PRIMARY KEY, v TEXT)")
    psycopg2.extras.execute_values(cur, "INSERT INTO nc_t VALUES %s",
                                   [(i, "v%d" % i) for i in range(1, ROWS + 1)], page_size=1000)
    conn.commit()

    # itersize: iteration fetches FETCH FORWARD itersize at a time.
    nc = conn.cursor("nc_iter")
    nc.itersize = 100
    nc.execute("SELECT id, v FROM nc_t ORDER BY id")
    rows = list(nc)
    out.append(["iter", len(rows), rows[0], rows[-1], sum(r[0] for r in rows)])
    nc.close()

    # fetchone / fetchmany / fetchall and their rowcounts
    nc = conn.cursor("nc_fetch")
    nc.execute("SELECT id, v FROM nc_t WHERE id <= 20 ORDER BY id")
    out.append(["one", nc.fetchone(), nc.rowcount])
    out.append(["many", nc.fetchmany(7), nc.rowcount])
    out.append(["all", nc.fetchall(), nc.rowcount])
    out.append(["after", nc.fetchone(), nc.fetchall()])
    nc.close()
    conn.commit()

    # a SCROLL cursor: relative and absolute scrolls (MOVE)
    sc = conn.cursor("nc_scroll", scrollable=True)
    sc.execute("SELECT id FROM nc_t WHERE id <= 10 ORDER BY id")
    out.append(["s1", sc.fetchmany(3)])
    sc.scroll(-2)
    out.append(["s2", sc.fetchone()])
    sc.scroll(0, "absolute")
    out.append(["s3", sc.fetchone()])
    sc.scroll(5, "absolute")
    out.append(["s4", sc.fetchmany(2)])
    sc.scroll(3)
    out.append(["s5", sc.fetchall()])
    sc.close()
    conn.commit()

    # WITH HOLD: still readable after COMMIT
    hc = conn.cursor("nc_hold", withhold=True)
    hc.itersize = 50
    hc.execute("SELECT id FROM nc_t ORDER BY id")
    out.append(["h1", hc.fetchmany(5)])
    conn.commit()
    out.append(["h2", hc.fetchmany(5)])
    # is_scrollable is left out: a cursor declared without SCROLL is
    # scrollable in PostgreSQL when its plan can scan backward, and never in
    # sqlgate, which keeps such a cursor's memory bounded instead.
    cur.execute("SELECT name, is_holdable, is_binary FROM pg_cursors")
    out.append(["pg_cursors", cur.fetchall()])
    out.append(["h3", len(hc.fetchall())])
    hc.close()
    conn.commit()

    # NO SCROLL: backward motion fails with 55000
    fc = conn.cursor("nc_noscroll", scrollable=False)
    fc.execute("SELECT id FROM nc_t ORDER BY id")
    out.append(["f1", fc.fetchone()])
    try:
        fc.scroll(-1)
        out.append(["f2", "no error"])
    except psycopg2.Error as e:
        out.append(["f2", e.pgcode])
    conn.rollback()

    # a WITHOUT HOLD cursor ends with its transaction
    wc = conn.cursor("nc_gone")
    wc.execute("SELECT id FROM nc_t ORDER BY id")
    out.append(["w1", wc.fetchone()])
    conn.commit()
    try:
        wc.fetchone()
        out.append(["w2", "no error"])
    except psycopg2.Error as e:
        out.append(["w2", e.pgcode])
    conn.rollback()

    cur.execute("DROP TABLE nc_t")
    conn.commit()
    conn.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
