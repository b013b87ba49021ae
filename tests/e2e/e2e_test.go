package e2e

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestPsqlNewcomerSession is issue 2's acceptance 2: CREATE, INSERT and a
// SELECT with arithmetic, filter and order, shown in psql's usual table.
func TestPsqlNewcomerSession(t *testing.T) {
	srv := startServer(t)
	host, port, _ := net.SplitHostPort(srv.Addr().String())
	psql := func(sql string) string {
		t.Helper()
		out, err := exec.Command("psql", "-X", "-h", host, "-p", port, "-U", "sqlgate", "-d", "sqlgate", "-c", sql).CombinedOutput()
		if err != nil {
			t.Fatalf("psql -c %q: %v\n%s", sql, err, out)
		}
		return string(out)
	}
	if got := psql("CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(20), score DOUBLE PRECISION)"); got != "CREATE TABLE\n" {
		t.Errorf("CREATE TABLE printed %q", got)
	}
	if got := psql("INSERT INTO t VALUES (1, 'ann', 1.5), (2, 'bob', 0.5), (3, 'cy', 4)"); got != "INSERT 0 3\n" {
		t.Errorf("INSERT printed %q", got)
	}
	want := ` id | ?column? 
----+----------
  1 |        3
  3 |        8
(2 rows)

`
	if got := psql("SELECT id, score * 2 FROM t WHERE score > 1 ORDER BY id"); got != want {
		t.Errorf("SELECT printed\n%s\nwant\n%s", got, want)
	}
}

// TestPgxDefaultMode is acceptance 4: pgx in its default mode (prepare,
// describe, binary parameters and results) runs parameterised statements.
func TestPgxDefaultMode(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, `CREATE TABLE events (id BIGINT PRIMARY KEY, n INT, ok BOOLEAN, score DOUBLE PRECISION, at TIMESTAMP(6), note TEXT)`)
	at := time.Date(2024, 3, 1, 12, 30, 45, 123456000, time.UTC)
	for i := int64(1); i <= 3; i++ {
		tag := mustExec(t, conn, `INSERT INTO events (id, n, ok, score, at, note) VALUES ($1, $2, $3, $4, $5, $6)`,
			i, int32(i*10), i%2 == 1, float64(i)+0.25, at.Add(time.Duration(i)*time.Hour), "note")
		if tag.String() != "INSERT 0 1" {
			t.Errorf("tag %q", tag)
		}
	}
	var (
		n     int32
		ok    bool
		score float64
		gotAt time.Time
		note  string
	)
	err := conn.QueryRow(ctx, `SELECT n, ok, score, at, note FROM events WHERE id = $1`, int64(2)).Scan(&n, &ok, &score, &gotAt, &note)
	if err != nil {
		t.Fatal(err)
	}
	if n != 20 || ok || score != 2.25 || !gotAt.Equal(at.Add(2*time.Hour)) || note != "note" {
		t.Errorf("got n=%d ok=%v score=%v at=%v note=%q", n, ok, score, gotAt, note)
	}
	// A parameter compared with an expression, and a NULL parameter.
	rows, err := conn.Query(ctx, `SELECT id FROM events WHERE n * 2 >= $1 ORDER BY id DESC`, 40)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 || ids[0] != 3 || ids[1] != 2 {
		t.Errorf("ids %v", ids)
	}
	mustExec(t, conn, `INSERT INTO events (id, note) VALUES ($1, $2)`, int64(4), nil)
	var nullNote *string
	if err := conn.QueryRow(ctx, `SELECT note FROM events WHERE id = 4`).Scan(&nullNote); err != nil || nullNote != nil {
		t.Errorf("NULL note: %v %v", nullNote, err)
	}
	// The simple protocol (pgx interpolates, quoting every value).
	var cnt int64
	err = conn.QueryRow(ctx, `SELECT id FROM events WHERE id = $1`, pgx.QueryExecModeSimpleProtocol, int64(3)).Scan(&cnt)
	if err != nil || cnt != 3 {
		t.Errorf("simple protocol: %v %v", cnt, err)
	}
}

// TestErrorsKeepConnection is acceptance 6.
func TestErrorsKeepConnection(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, `CREATE TABLE t (id INT, name TEXT)`)
	cases := []struct {
		sql      string
		code     string
		position int32
	}{
		{"SELEC 1", "42601", 1},
		{"SELECT id FROM t WHERE", "42601", 23},
		{"SELECT 1 FROM missing", "42P01", 15},
		{"SELECT nope FROM t", "42703", 8},
		{"SELECT id FROM t WHERE name", "42804", 0},
		{"INSERT INTO t (id, nope) VALUES (1, 2)", "42703", 20},
		{"SELECT 1/0", "22012", 0},
		{"SELECT 2147483647 + 1", "22003", 0},
	}
	for _, c := range cases {
		_, err := conn.Exec(ctx, c.sql)
		pe := pgError(t, err)
		if pe.Code != c.code {
			t.Errorf("%s: code %s (%s), want %s", c.sql, pe.Code, pe.Message, c.code)
		}
		if c.position != 0 && pe.Position != c.position {
			t.Errorf("%s: position %d, want %d (%s)", c.sql, pe.Position, c.position, pe.Message)
		}
		var one int32
		if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("connection unusable after %q: %v", c.sql, err)
		}
	}
}

// TestKill9KeepsAcknowledgedRows is acceptance 3: SIGKILL right after an
// INSERT returned; the rows are there after a restart on the same directory.
func TestKill9KeepsAcknowledgedRows(t *testing.T) {
	dir := t.TempDir()
	p := startProcess(t, dir)
	conn := connect(t, p.connString())
	mustExec(t, conn, `CREATE TABLE log (id BIGINT, v TEXT)`)
	mustExec(t, conn, `CREATE TABLE kv (id BIGINT PRIMARY KEY, v TEXT)`)
	mustExec(t, conn, `INSERT INTO log VALUES (1, 'a'), (2, 'b'), (3, 'c')`)
	mustExec(t, conn, `INSERT INTO kv VALUES (1, 'a'), (2, 'b')`)
	mustExec(t, conn, `INSERT INTO kv VALUES (2, 'B')`)
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()

	p2 := startProcess(t, dir)
	conn2 := connect(t, p2.connString())
	var got []string
	rows, err := conn2.Query(context.Background(), `SELECT id, v FROM log ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var v string
		rows.Scan(&id, &v)
		got = append(got, v)
	}
	if rows.Err() != nil || strings.Join(got, ",") != "a,b,c" {
		t.Errorf("log after kill -9: %v %v", got, rows.Err())
	}
	var v string
	if err := conn2.QueryRow(context.Background(), `SELECT v FROM kv WHERE id = 2`).Scan(&v); err != nil || v != "B" {
		t.Errorf("kv after kill -9: %q %v", v, err)
	}
}

// TestSigtermStopsCleanly: SIGTERM ends serve with status 0.
func TestSigtermStopsCleanly(t *testing.T) {
	p := startProcess(t, t.TempDir())
	conn := connect(t, p.connString())
	mustExec(t, conn, `CREATE TABLE t (id INT)`)
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("sqlgate did not stop on SIGTERM")
	}
}
