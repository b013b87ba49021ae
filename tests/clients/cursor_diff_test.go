package clients

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestCursorStatementsMatchPostgres (issue 28, acceptance 2) runs a table
// of cursor statements on sqlgate and on PostgreSQL 15, one simple Query
// each (a few through the extended protocol), and compares what each
// returned: rows (with their format: a BINARY cursor's rows are compared
// byte for byte), command tags, and errors by SQLSTATE (34000, 25P01,
// 42P03, 55000, 25P02, 42P02 ...), including WITH HOLD across COMMIT and
// cursors dropped by ROLLBACK and ROLLBACK TO.
func TestCursorStatementsMatchPostgres(t *testing.T) {
	type step = cursorStep
	s := func(q string) step { return step{sql: q} }
	steps := []step{
		s("CREATE TABLE cd (id INT PRIMARY KEY, v TEXT)"),
		s("INSERT INTO cd VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, NULL)"),
		s("CREATE TABLE cd2 (id INT PRIMARY KEY, w TEXT)"),
		s("INSERT INTO cd2 VALUES (1, 'x'), (3, 'y'), (5, 'z')"),
		s("FETCH 1 FROM nosuch"),
		s("DECLARE c CURSOR FOR SELECT id FROM cd ORDER BY id"),
		s("CLOSE nosuch"),
		// NO SCROLL: forward only.
		s("BEGIN"),
		s("DECLARE c NO SCROLL CURSOR FOR SELECT id, v FROM cd ORDER BY id"),
		s("FETCH 2 FROM c"),
		s("FETCH NEXT FROM c"),
		s("MOVE 1 IN c"),
		s("FETCH FORWARD 5 FROM c"),
		s("FETCH NEXT FROM c"),
		s("FETCH PRIOR FROM c"),
		s("FETCH 1 FROM c"),
		s("ROLLBACK"),
		s("BEGIN"),
		s("DECLARE c NO SCROLL CURSOR FOR SELECT id FROM cd ORDER BY id"),
		s("FETCH ABSOLUTE 2 FROM c"),
		s("FETCH RELATIVE 2 FROM c"),
		s("FETCH FIRST FROM c"),
		s("ROLLBACK"),
		s("BEGIN"),
		s("DECLARE c NO SCROLL CURSOR FOR SELECT id FROM cd ORDER BY id"),
		s("FETCH BACKWARD 1 FROM c"),
		s("ROLLBACK"),
		// SCROLL: every direction.
		s("BEGIN"),
		s("DECLARE s SCROLL CURSOR FOR SELECT id, v FROM cd ORDER BY id"),
		s("FETCH LAST FROM s"),
		s("FETCH PRIOR FROM s"),
		s("FETCH ABSOLUTE 2 FROM s"),
		s("FETCH RELATIVE 2 FROM s"),
		s("FETCH RELATIVE 0 FROM s"),
		s("FETCH BACKWARD 2 FROM s"),
		s("FETCH ABSOLUTE -2 FROM s"),
		s("FETCH ALL FROM s"),
		s("FETCH BACKWARD ALL FROM s"),
		s("MOVE ABSOLUTE 0 IN s"),
		s("FETCH FIRST FROM s"),
		s("FETCH ABSOLUTE 99 FROM s"),
		s("FETCH PRIOR FROM s"),
		s("DECLARE s CURSOR FOR SELECT 1"),
		s("ROLLBACK"),
		// WITH HOLD across COMMIT; ROLLBACK drops the hold cursors it declared.
		s("BEGIN"),
		s("DECLARE h CURSOR WITH HOLD FOR SELECT id FROM cd ORDER BY id"),
		s("FETCH 1 FROM h"),
		s("COMMIT"),
		s("FETCH 2 FROM h"),
		s("SELECT name, is_holdable, is_scrollable FROM pg_cursors ORDER BY name"),
		s("FETCH BACKWARD 2 FROM h"),
		s("FETCH ABSOLUTE 5 FROM h"),
		s("UPDATE cd SET v = 'changed' WHERE id = 4"),
		s("FETCH 1 FROM h"),
		s("CLOSE h"),
		s("CLOSE h"),
		s("BEGIN"),
		s("DECLARE h2 CURSOR WITH HOLD FOR SELECT 1"),
		s("ROLLBACK"),
		s("FETCH h2"),
		s("DECLARE h3 CURSOR WITH HOLD FOR SELECT id FROM cd WHERE id > 4 ORDER BY id"),
		s("FETCH ALL FROM h3"),
		s("DECLARE h4 NO SCROLL CURSOR WITH HOLD FOR SELECT id FROM cd ORDER BY id"),
		s("FETCH 2 FROM h4"),
		s("FETCH PRIOR FROM h4"),
		s("SELECT name, is_scrollable FROM pg_cursors ORDER BY name"),
		s("CLOSE ALL"),
		s("SELECT count(*) FROM pg_cursors"),
		// Savepoints and failed blocks.
		s("BEGIN"),
		s("DECLARE k CURSOR FOR SELECT id FROM cd ORDER BY id"),
		s("SAVEPOINT a"),
		s("DECLARE sp CURSOR FOR SELECT 1"),
		s("ROLLBACK TO a"),
		s("FETCH sp"),
		s("ROLLBACK TO a"),
		s("FETCH k"),
		s("SELECT 1 / 0"),
		s("FETCH k"),
		s("ROLLBACK"),
		// BINARY: the rows' bytes are compared.
		s("BEGIN"),
		s("DECLARE b BINARY CURSOR FOR SELECT id, v, id::bigint * 1000 AS big FROM cd WHERE id <= 2 ORDER BY id"),
		s("FETCH ALL FROM b"),
		s("COMMIT"),
		// Parameters: the extended protocol binds them; a simple Query has none.
		s("BEGIN"),
		{sql: "DECLARE p CURSOR FOR SELECT id, v FROM cd WHERE id > $1 ORDER BY id", params: []string{"3"}},
		s("FETCH ALL FROM p"),
		s("DECLARE q CURSOR FOR SELECT id FROM cd WHERE id = $1"),
		s("ROLLBACK"),
	}
	// Neither SCROLL nor NO SCROLL: the cursor scrolls when PostgreSQL's
	// plan for its query can run backward (engine/cursorscroll.go), WITH
	// HOLD or not. MOVE's counts and errors, and pg_cursors.is_scrollable,
	// are compared for each kind of plan (rows are not: some queries have
	// no ORDER BY).
	for _, q := range implicitScrollQueries {
		steps = append(steps, s("BEGIN"), s("DECLARE d CURSOR FOR "+q),
			s("SELECT is_scrollable FROM pg_cursors WHERE name = 'd'"),
			s("MOVE 2 IN d"), s("MOVE BACKWARD 1 IN d"), s("MOVE ABSOLUTE 1 IN d"), s("MOVE LAST IN d"), s("ROLLBACK"),
			s("DECLARE dh CURSOR WITH HOLD FOR "+q),
			s("SELECT is_scrollable FROM pg_cursors WHERE name = 'dh'"),
			s("MOVE FORWARD ALL IN dh"), s("MOVE BACKWARD 2 IN dh"), s("CLOSE dh"))
	}
	steps = append(steps,
		// A cursor over a query that locks rows must be read only.
		s("BEGIN"),
		s("DECLARE x SCROLL CURSOR FOR SELECT id FROM cd FOR UPDATE"),
		s("ROLLBACK"),
		s("BEGIN"),
		s("DECLARE x CURSOR WITH HOLD FOR SELECT id FROM cd ORDER BY id FOR SHARE"),
		s("ROLLBACK"),
		s("BEGIN"),
		s("DECLARE x NO SCROLL CURSOR FOR SELECT id FROM cd ORDER BY id FOR UPDATE"),
		s("FETCH 2 FROM x"),
		s("ROLLBACK"),
		s("BEGIN"),
		s("DECLARE r CURSOR FOR SELECT id, v FROM cd ORDER BY id"),
		s("FETCH 3 FROM r"),
		s("FETCH BACKWARD 2 FROM r"),
		s("FETCH LAST FROM r"),
		s("FETCH ABSOLUTE 2 FROM r"),
		s("ROLLBACK"))
	steps = append(steps, currentOfSteps...)
	steps = append(steps,
		s("DROP TABLE cd"),
		s("DROP TABLE cd2"))
	run := func(connString string) []string {
		conn := connectPgx(t, connString).PgConn()
		ctx := context.Background()
		var out []string
		for _, st := range steps {
			var res []*pgconn.Result
			var err error
			if st.params != nil {
				args := make([][]byte, len(st.params))
				for i, p := range st.params {
					args[i] = []byte(p)
				}
				r := conn.ExecParams(ctx, st.sql, args, nil, nil, nil).Read()
				res, err = []*pgconn.Result{r}, r.Err
			} else {
				res, err = conn.Exec(ctx, st.sql).ReadAll()
			}
			if err != nil {
				out = append(out, "ERROR "+sqlState(err))
				continue
			}
			var parts []string
			for _, r := range res {
				var rows []string
				for _, row := range r.Rows {
					vals := make([]string, len(row))
					for i, v := range row {
						switch {
						case v == nil:
							vals[i] = "NULL"
						case r.FieldDescriptions[i].Format == 1:
							vals[i] = "0x" + hex.EncodeToString(v)
						default:
							vals[i] = string(v)
						}
					}
					rows = append(rows, strings.Join(vals, "|"))
				}
				parts = append(parts, fmt.Sprintf("%s [%s]", r.CommandTag, strings.Join(rows, "; ")))
			}
			out = append(out, strings.Join(parts, " / "))
		}
		return out
	}
	pg := pgtest.Start(t)
	want := run(pg.ConnString())
	srv := startServer(t)
	got := run(srv.ConnString())
	declared := ""
	for i, st := range steps {
		if strings.HasPrefix(st.sql, "DECLARE") {
			declared = st.sql
		}
		if got[i] != want[i] {
			t.Errorf("%s (after %s)\n  sqlgate:    %s\n  postgresql: %s", st.sql, declared, got[i], want[i])
		}
	}
}

// cursorStep is one statement of TestCursorStatementsMatchPostgres.
type cursorStep struct {
	sql    string
	params []string // extended protocol with these text parameters
}

// currentOfSteps are UPDATE / DELETE ... WHERE CURRENT OF (issue 28,
// acceptance 2): the row each kind of cursor is on, RETURNING, and
// PostgreSQL's errors (34000, and 24000 for a cursor not on a row, not a
// simple scan of the table, held from a committed transaction, or without
// a FOR UPDATE of the table). The cursors' queries have one row each or
// an order both systems share (a scan of a small key table in key order).
var currentOfSteps = func() []cursorStep {
	var out []cursorStep
	for _, q := range []string{
		"BEGIN",
		"UPDATE cd SET v = 'x' WHERE CURRENT OF nosuch",
		"ROLLBACK",
		"DELETE FROM cd WHERE CURRENT OF nosuch",
		// A plain scan, moved forward row by row.
		"BEGIN",
		"DECLARE u CURSOR FOR SELECT id, v FROM cd WHERE id >= 2 AND id <= 4",
		"UPDATE cd SET v = 'before' WHERE CURRENT OF u",
		"FETCH u",
		"UPDATE cd SET v = 'u1' WHERE CURRENT OF u RETURNING id, v, v || '!' AS w",
		"FETCH RELATIVE 0 FROM u",
		"FETCH u",
		"DELETE FROM cd WHERE CURRENT OF u RETURNING *",
		"DELETE FROM cd WHERE CURRENT OF u",
		"UPDATE cd SET v = 'gone' WHERE CURRENT OF u",
		"FETCH u",
		"UPDATE cd SET v = upper(v) WHERE CURRENT OF u",
		"FETCH u",
		"UPDATE cd SET v = 'past' WHERE CURRENT OF u",
		"UPDATE cd2 SET w = 'other' WHERE CURRENT OF u",
		"SELECT id, v FROM cd ORDER BY id",
		"ROLLBACK",
		// Cursors that are not a simple scan of the table.
		"BEGIN",
		"DECLARE j CURSOR FOR SELECT cd.id, w FROM cd JOIN cd2 ON cd.id = cd2.id WHERE cd.id = 3",
		"FETCH j",
		"UPDATE cd SET v = 'j' WHERE CURRENT OF j",
		"ROLLBACK",
		"BEGIN",
		"DECLARE g CURSOR FOR SELECT count(*) FROM cd",
		"FETCH g",
		"DELETE FROM cd WHERE CURRENT OF g",
		"ROLLBACK",
		"BEGIN",
		"DECLARE k CURSOR FOR SELECT 1 AS id",
		"FETCH k",
		"DELETE FROM cd WHERE CURRENT OF k",
		"ROLLBACK",
		// FOR UPDATE: the locked table decides.
		"BEGIN",
		"DECLARE f CURSOR FOR SELECT id, v FROM cd WHERE id = 5 FOR UPDATE",
		"DELETE FROM cd WHERE CURRENT OF f",
		"FETCH f",
		"UPDATE cd SET v = 'locked' WHERE CURRENT OF f RETURNING id, v",
		"UPDATE cd2 SET w = 'locked' WHERE CURRENT OF f",
		"ROLLBACK",
		// A scrollable cursor moved backward; a subquery in its FROM.
		"BEGIN",
		"DECLARE b SCROLL CURSOR FOR SELECT * FROM (SELECT id, v FROM cd WHERE id < 4) s WHERE id > 1",
		"FETCH LAST FROM b",
		"FETCH PRIOR FROM b",
		"UPDATE cd SET v = 'back' WHERE CURRENT OF b RETURNING id, v",
		"FETCH PRIOR FROM b",
		"UPDATE cd SET v = 'start' WHERE CURRENT OF b",
		"ROLLBACK",
		// WITH HOLD: usable in its transaction, not after its COMMIT.
		"BEGIN",
		"DECLARE h CURSOR WITH HOLD FOR SELECT id FROM cd WHERE id = 1",
		"FETCH h",
		"UPDATE cd SET v = 'held' WHERE CURRENT OF h RETURNING v",
		"COMMIT",
		"BEGIN",
		"UPDATE cd SET v = 'held2' WHERE CURRENT OF h",
		"ROLLBACK",
		"CLOSE h",
		"SELECT id, v FROM cd ORDER BY id",
		"UPDATE cd SET v = 'a' WHERE id = 1",
	} {
		out = append(out, cursorStep{sql: q})
	}
	// The extended protocol: the statement's own parameters, a quoted
	// cursor name, a NO SCROLL cursor that has passed rows.
	return append(out, cursorStep{sql: "BEGIN"},
		cursorStep{sql: `DECLARE "Cur X" NO SCROLL CURSOR FOR SELECT id, v FROM cd WHERE id >= 2 AND id <= 4`},
		cursorStep{sql: `MOVE 2 IN "Cur X"`},
		cursorStep{sql: `UPDATE cd SET v = $1 WHERE CURRENT OF "Cur X" RETURNING id, v`, params: []string{"ext"}},
		cursorStep{sql: `DELETE FROM cd WHERE CURRENT OF "cur x"`, params: []string{}},
		cursorStep{sql: "ROLLBACK"})
}()

// implicitScrollQueries are queries of every kind of plan whose
// scrollability PostgreSQL decides from the plan (ExecSupportsBackwardScan).
var implicitScrollQueries = []string{
	"SELECT id, v FROM cd",
	"TABLE cd",
	"SELECT id FROM cd WHERE id > 2",
	"SELECT id + 1, upper(v) FROM cd",
	"SELECT id FROM cd WHERE id = 3",
	"SELECT id FROM cd ORDER BY v",
	"SELECT id FROM cd ORDER BY id LIMIT 3",
	"SELECT id FROM cd ORDER BY id OFFSET 2",
	"SELECT id FROM cd LIMIT 4",
	"SELECT count(*) FROM cd",
	"SELECT max(id) FROM cd",
	"SELECT v, count(*) FROM cd GROUP BY v",
	"SELECT v, count(*) FROM cd GROUP BY v ORDER BY v",
	"SELECT v, count(*) FROM cd GROUP BY v HAVING count(*) > 0",
	"SELECT DISTINCT v FROM cd",
	"SELECT DISTINCT v FROM cd ORDER BY v",
	"SELECT DISTINCT ON (v) id, v FROM cd ORDER BY v, id",
	"SELECT 1",
	"SELECT 1 WHERE true",
	"SELECT 1 UNION ALL SELECT 2",
	"SELECT id FROM cd UNION ALL SELECT id FROM cd2",
	"SELECT id FROM cd UNION SELECT id FROM cd2",
	"SELECT id FROM cd INTERSECT SELECT id FROM cd2",
	"SELECT id FROM cd EXCEPT ALL SELECT id FROM cd2",
	"(SELECT id FROM cd UNION SELECT id FROM cd2) ORDER BY 1",
	"SELECT cd.id, w FROM cd JOIN cd2 ON cd.id = cd2.id",
	"SELECT cd.id, w FROM cd LEFT JOIN cd2 ON cd.id = cd2.id",
	"SELECT cd.id, w FROM cd JOIN cd2 ON cd.id = cd2.id ORDER BY w",
	"SELECT cd.id FROM cd, cd2",
	"SELECT * FROM generate_series(1, 5)",
	"SELECT * FROM generate_series(1, 5) g WHERE g > 2",
	"VALUES (1), (2), (3)",
	"SELECT generate_series(1, 3)",
	"SELECT id, generate_series(1, 2) FROM cd",
	"SELECT id, row_number() OVER () FROM cd",
	"SELECT id, sum(id) OVER (ORDER BY id) FROM cd ORDER BY id",
	"SELECT id FROM cd FOR UPDATE",
	"SELECT id FROM cd ORDER BY id FOR SHARE",
	"SELECT * FROM (SELECT id FROM cd WHERE id < 4) s",
	"SELECT * FROM (SELECT v, count(*) FROM cd GROUP BY v) s",
	"WITH w AS (SELECT id FROM cd) SELECT * FROM w",
	"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r",
	"SELECT id FROM cd WHERE id IN (SELECT id FROM cd2)",
	"SELECT id FROM cd WHERE EXISTS (SELECT 1 FROM cd2 WHERE cd2.id = cd.id)",
	"SELECT id FROM cd WHERE NOT EXISTS (SELECT 1 FROM cd2 WHERE cd2.id = cd.id)",
	"SELECT id FROM cd WHERE EXISTS (SELECT 1 FROM cd2) AND id > 1",
	"SELECT id FROM cd WHERE id > 1 AND id IN (SELECT id FROM cd2)",
	"SELECT id FROM cd WHERE id IN (SELECT id FROM cd2 WHERE cd2.w > cd.v)",
	"SELECT id, sum(id) OVER (ORDER BY id) FROM cd ORDER BY id DESC",
	"SELECT id, rank() OVER (PARTITION BY v ORDER BY id) FROM cd ORDER BY v",
	"SELECT id, row_number() OVER () FROM cd ORDER BY id",
	"SELECT id FROM cd WHERE id NOT IN (SELECT id FROM cd2)",
	"SELECT id, (SELECT max(id) FROM cd2) FROM cd",
	"SELECT id FROM cd WHERE false",
	"SELECT l.id FROM cd l, LATERAL (SELECT w FROM cd2 WHERE cd2.id = l.id) x",
}
