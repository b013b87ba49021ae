package clients

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestCopyErrors(t *testing.T) {
	srv := startServer(t)
	conn := connectPgx(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, "CREATE TABLE ce (id INT NOT NULL, name TEXT, PRIMARY KEY (id))")
	pg := conn.PgConn()
	copyIn := func(sql, data string) (string, error) {
		tag, err := pg.CopyFrom(ctx, strings.NewReader(data), sql)
		return tag.String(), err
	}
	code := func(err error) string {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return pe.Code
		}
		return ""
	}
	tests := []struct {
		sql, data, code string
	}{
		{"COPY nope FROM STDIN", "", "42P01"},
		{"COPY ce (id, nope) FROM STDIN", "", "42703"},
		{"COPY ce FROM '/etc/passwd'", "", "0A000"},
		{"COPY ce FROM STDIN (FORMAT xml)", "", "22023"},
		{"COPY ce FROM STDIN", "1\tx\n1\t\\N\n\\N\tz\n", "23502"},
		{"COPY ce FROM STDIN (FORMAT binary)", "not binary", "22P04"},
	}
	for _, tt := range tests {
		_, err := copyIn(tt.sql, tt.data)
		if code(err) != tt.code {
			t.Errorf("%s: got %v, want %s", tt.sql, err, tt.code)
		}
	}
	// A primary-key table upserts, as INSERT does: the last row of a key wins.
	if tag, err := copyIn("COPY ce FROM STDIN", "1\tone\n2\ttwo\n1\tuno\n"); err != nil || tag != "COPY 3" {
		t.Fatalf("copy into a primary-key table: %s %v", tag, err)
	}
	var name string
	if err := conn.QueryRow(ctx, "SELECT name FROM ce WHERE id = 1").Scan(&name); err != nil || name != "uno" {
		t.Fatalf("after copy: %q %v", name, err)
	}
	// COPY TO of something that is not a SELECT.
	var sink strings.Builder
	if _, err := pg.CopyTo(ctx, &sink, "COPY (INSERT INTO ce VALUES (9, 'x')) TO STDOUT"); code(err) != "0A000" {
		t.Errorf("COPY (INSERT) TO: %v", err)
	}
	// Inside a transaction block COPY FROM joins the transaction: its rows
	// are visible there, and gone after ROLLBACK; a bad line fails the block.
	mustExec(t, conn, "BEGIN")
	sink.Reset()
	if tag, err := pg.CopyTo(ctx, &sink, "COPY ce TO STDOUT"); err != nil || tag.String() != "COPY 2" || sink.String() != "1\tuno\n2\ttwo\n" && sink.String() != "2\ttwo\n1\tuno\n" {
		t.Errorf("COPY TO in a block: %v %v %q", tag, err, sink.String())
	}
	if tag, err := copyIn("COPY ce FROM STDIN", "5\tfive\n"); err != nil || tag != "COPY 1" {
		t.Errorf("COPY FROM in a block: %v %v", tag, err)
	}
	var inBlock int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM ce").Scan(&inBlock); err != nil || inBlock != 3 {
		t.Errorf("rows inside the block: %d %v", inBlock, err)
	}
	if _, err := copyIn("COPY ce FROM STDIN", "x\tbad\n"); code(err) != "22P02" {
		t.Errorf("bad COPY FROM in a block: %v", err)
	}
	if _, err := pg.CopyTo(ctx, &sink, "COPY ce TO STDOUT"); code(err) != "25P02" {
		t.Errorf("COPY in a failed block: %v", err)
	}
	mustExec(t, conn, "ROLLBACK")
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM ce").Scan(&n); err != nil || n != 2 {
		t.Fatalf("rows: %d %v", n, err)
	}
}

// failingRows is a pgx CopyFrom source of rows (id, name) 1..total that,
// at row failAt, fails (cancel nil) or cancels cancel.
type failingRows struct {
	next, total, failAt int
	cancel              context.CancelFunc
}

func (s *failingRows) Next() bool {
	if s.next == s.failAt && s.cancel != nil {
		s.cancel()
		time.Sleep(50 * time.Millisecond) // let pgx see the cancel while it sends
	}
	if s.next == s.failAt && s.cancel == nil || s.next == s.total {
		return false
	}
	s.next++
	return true
}
func (s *failingRows) Values() ([]any, error) {
	return []any{int32(s.next), "row " + strconv.Itoa(s.next)}, nil
}
func (s *failingRows) Err() error {
	if s.next == s.failAt && s.cancel == nil {
		return errors.New("the source broke")
	}
	return nil
}

// TestCopyAbortedMidStream: a binary COPY into a primary-key table that the
// client abandons after tens of thousands of rows (CopyFail, or its context
// cancelled) keeps none of them, and the connection goes on.
func TestCopyAbortedMidStream(t *testing.T) {
	srv := startServer(t)
	conn := connectPgx(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, "CREATE TABLE mid (id INT PRIMARY KEY, name TEXT)")
	count := func() int {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM mid").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	cols := []string{"id", "name"}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"mid"}, cols, &failingRows{total: 100000, failAt: 40000}); err == nil {
		t.Fatal("COPY whose source failed succeeded")
	}
	if n := count(); n != 0 {
		t.Fatalf("an abandoned COPY left %d rows", n)
	}
	cctx, cancel := context.WithCancel(ctx)
	if _, err := conn.CopyFrom(cctx, pgx.Identifier{"mid"}, cols, &failingRows{total: 100000, failAt: 30000, cancel: cancel}); err == nil {
		t.Fatal("cancelled COPY succeeded")
	}
	cancel()
	if conn.IsClosed() {
		conn = connectPgx(t, srv.ConnString())
	}
	if n := count(); n != 0 {
		t.Fatalf("a cancelled COPY left %d rows", n)
	}
	if got, err := conn.CopyFrom(ctx, pgx.Identifier{"mid"}, cols, &failingRows{total: 150000, failAt: -1}); err != nil || got != 150000 {
		t.Fatalf("COPY after the aborted ones: %d, %v", got, err)
	}
	if n := count(); n != 150000 {
		t.Fatalf("%d rows after COPY 150000", n)
	}
}
