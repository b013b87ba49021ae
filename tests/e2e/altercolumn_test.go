package e2e

import (
	"bytes"
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestAddColumnDefaultSurvivesRestart: the rows stored before ALTER TABLE
// ... ADD COLUMN ... DEFAULT read its value (through a scan, a lookup by
// key, COPY TO and the changelog), a NOT NULL set by ALTER TABLE is
// enforced, and both outlive a restart of the server, as pg_attribute
// shows them.
func TestAddColumnDefaultSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	srv := startServerIn(t, dir)
	conn := connect(t, srv.ConnString())
	mustExec(t, conn, "CREATE TABLE mpk (id int PRIMARY KEY, a text)")
	mustExec(t, conn, "CREATE TABLE mlog (id int, a text)")
	for _, tbl := range []string{"mpk", "mlog"} {
		mustExec(t, conn, "INSERT INTO "+tbl+" VALUES (1, 'x'), (2, NULL)")
		mustExec(t, conn, "ALTER TABLE "+tbl+" ADD COLUMN n int DEFAULT 42 NOT NULL, ADD COLUMN s text DEFAULT 'two words'")
		mustExec(t, conn, "ALTER TABLE "+tbl+" ALTER COLUMN n DROP DEFAULT")
		mustExec(t, conn, "INSERT INTO "+tbl+" VALUES (3, 'y', 7, NULL)")
	}
	check := func(conn *pgx.Conn, when string) {
		t.Helper()
		for _, tbl := range []string{"mpk", "mlog"} {
			var rows string
			if err := conn.QueryRow(ctx, "SELECT string_agg(id || ':' || n || ':' || coalesce(s, 'NULL'), ',' ORDER BY id) FROM "+tbl).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if rows != "1:42:two words,2:42:two words,3:7:NULL" {
				t.Errorf("%s %s: rows %s", tbl, when, rows)
			}
			var buf bytes.Buffer
			if _, err := conn.PgConn().CopyTo(ctx, &buf, "COPY (SELECT id, n, s FROM "+tbl+" ORDER BY id) TO STDOUT"); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != "1\t42\ttwo words\n2\t42\ttwo words\n3\t7\t\\N\n" {
				t.Errorf("%s %s: COPY TO %q", tbl, when, got)
			}
			var buf2 bytes.Buffer
			if _, err := conn.PgConn().CopyTo(ctx, &buf2, "COPY "+tbl+" TO STDOUT"); err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(buf2.Bytes(), []byte("\t42\ttwo words\n")); n != 2 {
				t.Errorf("%s %s: COPY t TO: %q", tbl, when, buf2.String())
			}
			_, err := conn.Exec(ctx, "INSERT INTO "+tbl+" (id) VALUES (9)")
			if pe := pgError(t, err); pe.Code != "23502" || pe.Detail != "Failing row contains (9, null, null, two words)." {
				t.Errorf("%s %s: a NULL in the NOT NULL column: %v (%s)", tbl, when, err, pe.Detail)
			}
			var missing, notNull string
			if err := conn.QueryRow(ctx, "SELECT string_agg(attname || '=' || coalesce(attmissingval::text, '-'), ' ' ORDER BY attnum), string_agg(attname, ' ' ORDER BY attnum) FILTER (WHERE attnotnull) FROM pg_attribute WHERE attrelid = '"+tbl+"'::regclass AND attnum > 0").Scan(&missing, &notNull); err != nil {
				t.Fatal(err)
			}
			if missing != `id=- a=- n={42} s={"two words"}` {
				t.Errorf("%s %s: missing values %s", tbl, when, missing)
			}
			if want := map[string]string{"mpk": "id n", "mlog": "n"}[tbl]; notNull != want {
				t.Errorf("%s %s: NOT NULL columns %s, want %s", tbl, when, notNull, want)
			}
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT n FROM mpk WHERE id = 2").Scan(&n); err != nil || n != 42 {
			t.Errorf("lookup %s: %d (%v)", when, n, err)
		}
		var cl string
		if err := conn.QueryRow(ctx, "SELECT string_agg(id || ':' || n, ',' ORDER BY id) FROM mlog$changelog").Scan(&cl); err != nil || cl != "1:42,2:42,3:7" {
			t.Errorf("changelog %s: %s (%v)", when, cl, err)
		}
	}
	check(conn, "before restart")
	conn.Close(ctx)
	if err := srv.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	srv = startServerIn(t, dir)
	conn = connect(t, srv.ConnString())
	defer conn.Close(ctx)
	check(conn, "after restart")
}
