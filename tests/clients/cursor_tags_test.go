package clients

import (
	"context"
	"fmt"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestCursorTagsMatchPostgres runs DECLARE, FETCH, MOVE and CLOSE on
// sqlgate and PostgreSQL 15 and compares each command tag: FETCH n counts
// the rows returned, MOVE n the rows passed (MOVE 0 is 1 on a row, MOVE
// BACKWARD ALL counts from the position), as PostgreSQL reports them.
func TestCursorTagsMatchPostgres(t *testing.T) {
	pg := pgtest.Start(t)
	srv := startServer(t)
	host, port := hostPort(t, srv.Addr().String())
	stmts := []string{
		"CREATE TABLE tg (id INT PRIMARY KEY)", "INSERT INTO tg VALUES (1),(2),(3),(4),(5)",
		"BEGIN", "DECLARE c SCROLL CURSOR FOR SELECT id FROM tg ORDER BY id",
		"FETCH 2 FROM c", "MOVE 2 IN c", "MOVE 0 IN c", "FETCH 0 FROM c", "MOVE FORWARD ALL IN c",
		"MOVE 0 IN c", "MOVE BACKWARD ALL IN c", "MOVE ABSOLUTE 3 IN c", "MOVE BACKWARD ALL IN c",
		"MOVE LAST IN c", "MOVE BACKWARD ALL IN c", "MOVE ABSOLUTE 9 IN c", "FETCH BACKWARD ALL FROM c",
		"MOVE RELATIVE -1 IN c", "MOVE ABSOLUTE -1 IN c", "FETCH ALL FROM c", "MOVE -2 IN c",
		"FETCH RELATIVE 0 FROM c", "MOVE ABSOLUTE 0 IN c", "FETCH FORWARD 3 FROM c",
		"DECLARE f NO SCROLL CURSOR FOR SELECT id FROM tg ORDER BY id", "MOVE 3 IN f", "FETCH ALL FROM f",
		"CLOSE c", "CLOSE ALL", "COMMIT",
		"DECLARE h CURSOR WITH HOLD FOR SELECT id FROM tg ORDER BY id", "MOVE 1 IN h", "FETCH 9 FROM h", "CLOSE h",
		"DROP TABLE tg",
	}
	tags := func(url string) []string {
		conn := connectPgx(t, url)
		var out []string
		for _, s := range stmts {
			tag, err := conn.Exec(context.Background(), s)
			if err != nil {
				t.Fatalf("%s on %s: %v", s, url, err)
			}
			out = append(out, tag.String())
		}
		return out
	}
	want := tags(pg.ConnString())
	got := tags(fmt.Sprintf("postgres://sqlgate@%s:%s/sqlgate?sslmode=disable", host, port))
	for i, s := range stmts {
		if got[i] != want[i] {
			t.Errorf("%s: tag %q, PostgreSQL %q", s, got[i], want[i])
		}
	}
}
