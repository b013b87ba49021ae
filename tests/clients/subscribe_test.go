package clients

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlgate/sqlgate/server"
)

// SUBSCRIBE through pgx (issue 28, acceptance 1): the cursor form with
// FETCH, bare SUBSCRIBE's rows as they come, resume from stored offsets,
// aborted transactions, cancel and statement_timeout.

// subscribeBackend is the store a subscription test runs on: the
// embedded store, or a Fluss cluster (subscribe_cluster_test.go), where
// UPDATE is 0A000 and a row is changed by INSERT of its key (an upsert,
// which Fluss's changelog records as -U/+U like an UPDATE).
type subscribeBackend struct {
	start      func(testing.TB) *server.Server
	upsertOnly bool
	// quiet is a FETCH timeout after which a FETCH without rows means
	// no more changes are coming (a cluster's follower asks the tablet
	// servers for changes every remote.Config.FollowWait at the least).
	quiet string
	// process, when set, starts the server as a child process for the
	// soak, which measures its memory apart from the test's clients.
	process func(*testing.T) *soakTarget
}

var embeddedBackend = subscribeBackend{start: startServer, quiet: "300ms", process: startServerProcess}

// change returns the statement that sets the columns of the row of table
// whose key is key: an UPDATE, or on a store without one an INSERT of
// the whole row (row, in table order).
func (be subscribeBackend) change(table, set, where, row string) string {
	if be.upsertOnly {
		return "INSERT INTO " + table + " VALUES " + row
	}
	return "UPDATE " + table + " SET " + set + " WHERE " + where
}

// change is one row of a subscription.
type change struct {
	kind   string
	bucket int32
	offset int64
	id     int32
	v      string
}

func (c change) String() string {
	return fmt.Sprintf("%s b%d@%d id=%d v=%s", c.kind, c.bucket, c.offset, c.id, c.v)
}

// fetchChanges runs FETCH on a subscription cursor until want changes
// came or a FETCH returned none within its timeout.
func fetchChanges(t *testing.T, conn *pgx.Conn, cursor string, want int) []change {
	t.Helper()
	var out []change
	for len(out) < want {
		rows, err := conn.Query(context.Background(), "FETCH 7 "+cursor+" WITH (timeout = '5s')")
		if err != nil {
			t.Fatalf("FETCH: %v", err)
		}
		n := 0
		for rows.Next() {
			var c change
			var ts *time.Time
			var v *string
			if err := rows.Scan(&c.kind, &c.bucket, &c.offset, &ts, &c.id, &v); err != nil {
				t.Fatalf("scan: %v", err)
			}
			if ts == nil {
				t.Fatalf("change without commit time: %v", c)
			}
			if v != nil {
				c.v = *v
			}
			out = append(out, c)
			n++
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("FETCH: %v", err)
		}
		if n == 0 {
			t.Fatalf("FETCH waited 5s without a row; have %d of %d changes: %v", len(out), want, out)
		}
		if n > 7 {
			t.Fatalf("FETCH 7 returned %d rows", n)
		}
	}
	return out
}

// checkOnce checks that each bucket's offsets come once, in order, with
// no gap from the first one.
func checkOnce(t *testing.T, got []change) {
	t.Helper()
	next := map[int32]int64{}
	for _, c := range got {
		if want, ok := next[c.bucket]; ok && c.offset != want {
			t.Fatalf("bucket %d: offset %d after %d (lost or duplicated change): %v", c.bucket, c.offset, want-1, got)
		}
		next[c.bucket] = c.offset + 1
	}
}

func TestSubscribeCursorPgx(t *testing.T) { subscribeCursorPgx(t, embeddedBackend) }

func subscribeCursorPgx(t *testing.T, be subscribeBackend) {
	srv := be.start(t)
	ctx := context.Background()
	w := connectPgx(t, srv.ConnString())
	sub := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE sk (id INT PRIMARY KEY, v TEXT) WITH ('bucket.num' = '3')")
	mustExec(t, sub, "BEGIN")
	mustExec(t, sub, "DECLARE c CURSOR FOR SUBSCRIBE sk WITH (SNAPSHOT = false)")
	// The writes, with the changes each makes (per key, in order).
	mustExec(t, w, "INSERT INTO sk VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')")
	mustExec(t, w, be.change("sk", "v = v || '2'", "id IN (1, 3)", "(1, 'a2'), (3, 'c2')"))
	tx, err := w.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO sk VALUES (99, 'aborted')"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, be.change("sk", "v = 'aborted'", "id = 2", "(2, 'aborted')")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	mustExec(t, w, "DELETE FROM sk WHERE id = 4")
	mustExec(t, w, "BEGIN; INSERT INTO sk VALUES (5, 'e'); "+be.change("sk", "v = 'b3'", "id = 2", "(2, 'b3')")+"; COMMIT")
	want := map[int32][]string{
		1: {"+I a", "-U a", "+U a2"},
		2: {"+I b", "-U b", "+U b3"},
		3: {"+I c", "-U c", "+U c2"},
		4: {"+I d", "-D d"},
		5: {"+I e"},
	}
	total := 0
	for _, w := range want {
		total += len(w)
	}
	got := fetchChanges(t, sub, "c", total)
	checkOnce(t, got)
	byKey := map[int32][]string{}
	for _, c := range got {
		byKey[c.id] = append(byKey[c.id], c.kind+" "+c.v)
	}
	if fmt.Sprint(byKey) != fmt.Sprint(want) {
		t.Fatalf("changes per key:\n got %v\nwant %v\nall: %v", byKey, want, got)
	}
	// Nothing more: a FETCH with a short timeout returns no row.
	rows, err := sub.Query(ctx, "FETCH ALL c WITH (timeout = '"+be.quiet+"')")
	if err != nil {
		t.Fatal(err)
	}
	extra := 0
	for rows.Next() {
		extra++
	}
	if rows.Err() != nil || extra != 0 {
		t.Fatalf("FETCH after the last change: %d rows, %v", extra, rows.Err())
	}
	// Backward motion is PostgreSQL's error for a NO SCROLL cursor.
	_, err = sub.Exec(ctx, "FETCH BACKWARD 1 c")
	if code := sqlState(err); code != "55000" {
		t.Fatalf("FETCH BACKWARD on a subscription: %v (want 55000)", err)
	}
	mustExec(t, sub, "ROLLBACK")
	// The cursor ended with its transaction.
	mustExec(t, sub, "BEGIN")
	if _, err := sub.Exec(ctx, "FETCH 1 c"); sqlState(err) != "34000" {
		t.Fatalf("FETCH after the transaction: %v (want 34000)", err)
	}
	mustExec(t, sub, "ROLLBACK")
}

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// TestSubscribeResumeExact reads a log table's changes in two
// subscriptions, the second started from the offsets the first one's
// client stored, and checks that together they are every change once:
// equal to one subscription from the earliest offsets.
func TestSubscribeResumeExact(t *testing.T) { subscribeResumeExact(t, embeddedBackend) }

func subscribeResumeExact(t *testing.T, be subscribeBackend) {
	srv := be.start(t)
	ctx := context.Background()
	w := connectPgx(t, srv.ConnString())
	sub := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE rl (id INT, v TEXT) WITH ('bucket.num' = '4', 'bucket.key' = 'id')")
	for i := range 20 {
		mustExec(t, w, fmt.Sprintf("INSERT INTO rl VALUES (%d, 'r%d'), (%d, 'r%d')", 2*i, 2*i, 2*i+1, 2*i+1))
	}
	read := func(from string, n int) []change {
		mustExec(t, sub, "BEGIN")
		mustExec(t, sub, "DECLARE r CURSOR FOR SUBSCRIBE rl FROM "+from)
		got := fetchChanges(t, sub, "r", n)
		mustExec(t, sub, "COMMIT")
		return got
	}
	all := read("EARLIEST", 40)
	checkOnce(t, all)
	first := all[:17]
	stored := map[int32]int64{}
	for _, c := range first {
		stored[c.bucket] = c.offset + 1 // the next offset to read
	}
	var parts []string
	for b, o := range stored {
		parts = append(parts, fmt.Sprintf("%d:%d", b, o))
	}
	// More changes after the first client stopped.
	mustExec(t, w, "INSERT INTO rl VALUES (100, 'late'), (101, 'late')")
	rest := read("OFFSETS '{"+strings.Join(parts, ", ")+"}'", 40-17+2)
	seen := map[string]int{}
	for _, c := range append(append([]change(nil), first...), rest...) {
		seen[fmt.Sprintf("b%d@%d", c.bucket, c.offset)]++
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("change %s delivered %d times", k, n)
		}
	}
	if len(seen) != 42 {
		t.Fatalf("first + resumed = %d distinct changes, want 42\nfirst %v\nrest %v", len(seen), first, rest)
	}
	for _, c := range rest {
		if c.kind != "+A" {
			t.Fatalf("log table change type %q, want +A", c.kind)
		}
	}
	// A stored offset past a bucket's end and a bucket the table lacks.
	if _, err := sub.Exec(ctx, "BEGIN; DECLARE x CURSOR FOR SUBSCRIBE rl FROM OFFSETS '{7:0}'"); sqlState(err) != "22023" {
		t.Fatalf("OFFSETS naming bucket 7 of 4: %v (want 22023)", err)
	}
	mustExec(t, sub, "ROLLBACK")
}

// TestSubscribeSnapshot checks that a snapshot and the changes after it
// meet exactly while a writer runs: replaying snapshot then changes gives
// the table's final state.
func TestSubscribeSnapshot(t *testing.T) { subscribeSnapshot(t, embeddedBackend) }

func subscribeSnapshot(t *testing.T, be subscribeBackend) {
	srv := be.start(t)
	ctx := context.Background()
	w := connectPgx(t, srv.ConnString())
	sub := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE ss (id INT PRIMARY KEY, v INT) WITH ('bucket.num' = '2')")
	for i := range 50 {
		mustExec(t, w, fmt.Sprintf("INSERT INTO ss VALUES (%d, 0)", i))
	}
	done := make(chan error, 1)
	go func() {
		for k := 1; k <= 40; k++ {
			if _, err := w.Exec(ctx, be.change("ss", fmt.Sprintf("v = %d", k), fmt.Sprintf("id = %d", k%50), fmt.Sprintf("(%d, %d)", k%50, k))); err != nil {
				done <- err
				return
			}
		}
		_, err := w.Exec(ctx, "DELETE FROM ss WHERE id = 49")
		done <- err
	}()
	mustExec(t, sub, "BEGIN")
	mustExec(t, sub, "DECLARE s CURSOR FOR SUBSCRIBE (SELECT id, v FROM ss) WITH (PROGRESS = false)")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	state := map[int32]int32{}
	for {
		rows, err := sub.Query(ctx, "FETCH 100 s WITH (timeout = '"+be.quiet+"')")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var kind string
			var bucket int32
			var off *int64
			var ts *time.Time
			var id, v int32
			if err := rows.Scan(&kind, &bucket, &off, &ts, &id, &v); err != nil {
				t.Fatal(err)
			}
			switch kind {
			case "+I", "+U":
				state[id] = v
			case "-U", "-D":
				if cur, ok := state[id]; !ok || cur != v {
					t.Fatalf("%s of id %d v %d, but the replayed state has %d (present %v)", kind, id, v, cur, ok)
				}
				delete(state, id)
			}
			n++
		}
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		if n == 0 {
			break
		}
	}
	mustExec(t, sub, "COMMIT")
	want := map[int32]int32{}
	rows, err := w.Query(ctx, "SELECT id, v FROM ss")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, v int32
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		want[id] = v
	}
	if fmt.Sprint(state) != fmt.Sprint(want) {
		t.Fatalf("snapshot + changes replayed:\n%v\ntable:\n%v", state, want)
	}
}

// TestSubscribeRowsStream reads a bare SUBSCRIBE's rows as they come
// (each insert's row arrives before the next insert), then cancels it
// with a CancelRequest: the statement ends with 57014 and the connection
// serves the next query.
func TestSubscribeRowsStream(t *testing.T) { subscribeRowsStream(t, embeddedBackend) }

func subscribeRowsStream(t *testing.T, be subscribeBackend) {
	srv := be.start(t)
	w := connectPgx(t, srv.ConnString())
	sub := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE rs (id INT, v TEXT)")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	insert := func(i int) error {
		_, err := w.Exec(context.Background(), fmt.Sprintf("INSERT INTO rs VALUES (%d, 'x'), (%d, 'y')", 2*i, 2*i+1))
		return err
	}
	// pgx's Query returns at the first row (the statement's description
	// is cached): the first insert comes while it waits.
	first := make(chan error, 1)
	go func() {
		time.Sleep(300 * time.Millisecond)
		first <- insert(0)
	}()
	rows, err := sub.Query(ctx, "SUBSCRIBE (SELECT id FROM rs WHERE id % 2 = 0) WITH (SNAPSHOT = false)")
	if err != nil {
		t.Fatal(err)
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if i > 0 {
			if err := insert(i); err != nil {
				t.Fatal(err)
			}
		}
		if !rows.Next() {
			t.Fatalf("row %d: %v", i, rows.Err())
		}
		var kind string
		var bucket int32
		var off int64
		var ts time.Time
		var id int32
		if err := rows.Scan(&kind, &bucket, &off, &ts, &id); err != nil {
			t.Fatal(err)
		}
		if kind != "+A" || id != int32(2*i) || off != int64(2*i) {
			t.Fatalf("row %d: %s offset %d id %d", i, kind, off, id)
		}
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		_ = sub.PgConn().CancelRequest(context.Background())
	}()
	for rows.Next() {
	}
	if sqlState(rows.Err()) != "57014" {
		t.Fatalf("a cancelled subscription ended with %v (want 57014)", rows.Err())
	}
	rows.Close()
	var one int
	if err := sub.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("the connection after a cancelled subscription: %v", err)
	}
	// statement_timeout ends a subscription with 57014 too.
	mustExec(t, sub, "SET statement_timeout = '200ms'")
	start := time.Now()
	_, err = sub.Exec(context.Background(), "COPY (SUBSCRIBE rs) TO STDOUT")
	if sqlState(err) != "57014" {
		t.Fatalf("COPY (SUBSCRIBE) under statement_timeout: %v (want 57014)", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("statement_timeout took %v to end the subscription", d)
	}
}

// TestSubscribeRefusals: queries whose answer is not per change, WITH
// HOLD, and cursors outside a transaction block.
func TestSubscribeRefusals(t *testing.T) { subscribeRefusals(t, embeddedBackend) }

func subscribeRefusals(t *testing.T, be subscribeBackend) {
	srv := be.start(t)
	c := connectPgx(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, c, "CREATE TABLE rf (id INT, g INT)")
	mustExec(t, c, "CREATE TABLE rf2 (id INT)")
	for _, q := range []string{
		"SUBSCRIBE (SELECT g, count(*) FROM rf GROUP BY g)",
		"SUBSCRIBE (SELECT count(*) FROM rf)",
		"SUBSCRIBE (SELECT * FROM rf ORDER BY id)",
		"SUBSCRIBE (SELECT * FROM rf LIMIT 3)",
		"SUBSCRIBE (SELECT * FROM rf JOIN rf2 USING (id))",
		"SUBSCRIBE (SELECT * FROM rf WHERE id IN (SELECT id FROM rf2))",
		"SUBSCRIBE (SELECT DISTINCT g FROM rf)",
	} {
		if _, err := c.Exec(ctx, q); sqlState(err) != "0A000" {
			t.Errorf("%s: %v (want 0A000)", q, err)
		}
	}
	if _, err := c.Exec(ctx, "SUBSCRIBE nosuch"); sqlState(err) != "42P01" {
		t.Errorf("SUBSCRIBE nosuch: %v (want 42P01)", err)
	}
	if _, err := c.Exec(ctx, "DECLARE c CURSOR FOR SUBSCRIBE rf"); sqlState(err) != "25P01" {
		t.Errorf("DECLARE outside a block: %v (want 25P01)", err)
	}
	if _, err := c.Exec(ctx, "DECLARE c CURSOR WITH HOLD FOR SUBSCRIBE rf"); sqlState(err) != "0A000" {
		t.Errorf("DECLARE WITH HOLD: %v (want 0A000)", err)
	}
	if _, err := c.Exec(ctx, "SUBSCRIBE rf WITH (SNAPSHOT = true) FROM EARLIEST"); sqlState(err) != "22023" {
		t.Errorf("SNAPSHOT with FROM: %v (want 22023)", err)
	}
}

// TestSubscribeProgressAndTimestamp: PROGRESS rows follow the changes
// they cover, and FROM TIMESTAMP leaves out what committed before it.
func TestSubscribeProgressAndTimestamp(t *testing.T) {
	subscribeProgressAndTimestamp(t, embeddedBackend)
}

func subscribeProgressAndTimestamp(t *testing.T, be subscribeBackend) {
	srv := be.start(t)
	ctx := context.Background()
	w := connectPgx(t, srv.ConnString())
	sub := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE pt (id INT)")
	mustExec(t, w, "INSERT INTO pt VALUES (1), (2)")
	time.Sleep(20 * time.Millisecond)
	var cut time.Time
	if err := w.QueryRow(ctx, "SELECT now()").Scan(&cut); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	mustExec(t, w, "INSERT INTO pt VALUES (3)")
	mustExec(t, sub, "BEGIN")
	mustExec(t, sub, fmt.Sprintf("DECLARE c CURSOR FOR SUBSCRIBE pt WITH (PROGRESS) FROM TIMESTAMP '%s'", cut.UTC().Format(time.RFC3339Nano)))
	type row struct {
		kind *string
		off  *int64
		ts   *time.Time
		id   *int32
	}
	fetch := func() []row {
		rows, err := sub.Query(ctx, "FETCH ALL c WITH (timeout = '2s')")
		if err != nil {
			t.Fatal(err)
		}
		var out []row
		for rows.Next() {
			var r row
			var bucket *int32
			if err := rows.Scan(&r.kind, &bucket, &r.off, &r.ts, &r.id); err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		return out
	}
	got := fetch()
	for len(got) < 2 {
		got = append(got, fetch()...)
	}
	if got[0].kind == nil || *got[0].kind != "+A" || *got[0].id != 3 || *got[0].off != 2 {
		t.Fatalf("first row from the timestamp: %v %v %v (want +A, id 3, offset 2)", *got[0].kind, *got[0].id, *got[0].off)
	}
	p := got[1]
	if p.kind != nil || p.off != nil || p.id != nil || p.ts == nil || !p.ts.Equal(*got[0].ts) {
		t.Fatalf("PROGRESS row after the change: kind %v off %v id %v ts %v (change at %v)", p.kind, p.off, p.id, p.ts, got[0].ts)
	}
	mustExec(t, sub, "COMMIT")
}

// TestSubscribePgCancelBackend: pg_cancel_backend from another session
// ends a waiting subscription with 57014; its connection goes on.
func TestSubscribePgCancelBackend(t *testing.T) { subscribePgCancelBackend(t, embeddedBackend) }

func subscribePgCancelBackend(t *testing.T, be subscribeBackend) {
	srv := be.start(t)
	ctx := context.Background()
	w := connectPgx(t, srv.ConnString())
	sub := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE cb (id INT)")
	var pid int32
	if err := sub.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := sub.PgConn().Exec(ctx, "COPY (SUBSCRIBE cb) TO STDOUT").ReadAll()
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ok bool
		if err := w.QueryRow(ctx, "SELECT pg_cancel_backend($1)", pid).Scan(&ok); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if sqlState(err) != "57014" {
				t.Fatalf("a subscription ended by pg_cancel_backend: %v (want 57014)", err)
			}
			var one int
			if err := sub.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
				t.Fatalf("the session after pg_cancel_backend: %v", err)
			}
			return
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("pg_cancel_backend did not end the subscription within 10s")
		}
	}
}
