package server

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestStatUserTables: the pg_stat views and the pg_stat_get_* functions
// count what a workload did to a table: scans by kind, rows written, the
// live estimate, and the database's transactions.
func TestStatUserTables(t *testing.T) {
	srv := metricsServer(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var commits0 int64
	if err := conn.QueryRow(ctx, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").Scan(&commits0); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE su (id INT PRIMARY KEY, v INT)",
		"INSERT INTO su VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)",
		"SELECT * FROM su",              // a scan returning 5 rows
		"SELECT v FROM su WHERE id = 2", // a key lookup
		"UPDATE su SET v = 0 WHERE v > 3",
		"DELETE FROM su WHERE id = 1",
	} {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	var seq, seqRead, idx, idxFetch, ins, upd, del, live int64
	if err := conn.QueryRow(ctx, `SELECT seq_scan, seq_tup_read, idx_scan, idx_tup_fetch, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup
		FROM pg_stat_user_tables WHERE relname = 'su'`).Scan(&seq, &seqRead, &idx, &idxFetch, &ins, &upd, &del, &live); err != nil {
		t.Fatal(err)
	}
	// scans: the SELECT *, the UPDATE's and the DELETE's (sqlgate reads
	// the whole table to find the rows of a non-key predicate; the DELETE
	// by key is a lookup)
	if seq < 2 || seqRead < 5 || idx < 1 || idxFetch < 1 || ins != 5 || upd != 2 || del != 1 || live < 4 {
		t.Errorf("pg_stat_user_tables: seq_scan %d seq_tup_read %d idx_scan %d idx_tup_fetch %d n_tup_ins %d n_tup_upd %d n_tup_del %d n_live_tup %d",
			seq, seqRead, idx, idxFetch, ins, upd, del, live)
	}
	var fnScans, fnIns, fnLive int64
	if err := conn.QueryRow(ctx, "SELECT pg_stat_get_numscans('su'::regclass), pg_stat_get_tuples_inserted('su'::regclass), pg_stat_get_live_tuples('su'::regclass)").
		Scan(&fnScans, &fnIns, &fnLive); err != nil {
		t.Fatal(err)
	}
	if fnScans != seq || fnIns != ins || fnLive != live {
		t.Errorf("pg_stat_get_*: numscans %d tuples_inserted %d live_tuples %d, the view says %d %d %d", fnScans, fnIns, fnLive, seq, ins, live)
	}
	var idxScans int64
	if err := conn.QueryRow(ctx, "SELECT idx_scan FROM pg_stat_user_indexes WHERE relname = 'su'").Scan(&idxScans); err != nil || idxScans != idx {
		t.Errorf("pg_stat_user_indexes.idx_scan %d, %v; the table's idx_scan %d", idxScans, err, idx)
	}
	var commits, backends int64
	if err := conn.QueryRow(ctx, "SELECT xact_commit, numbackends FROM pg_stat_database WHERE datname = current_database()").Scan(&commits, &backends); err != nil {
		t.Fatal(err)
	}
	if commits-commits0 < 6 || backends != 1 {
		t.Errorf("pg_stat_database: xact_commit moved by %d (want at least 6), numbackends %d", commits-commits0, backends)
	}
	// Unknown relations count nothing, as in PostgreSQL.
	var zero int64
	if err := conn.QueryRow(ctx, "SELECT pg_stat_get_numscans(1)").Scan(&zero); err != nil || zero != 0 {
		t.Errorf("pg_stat_get_numscans(1) = %d, %v", zero, err)
	}
}

// TestProgressCopy: a COPY FROM STDIN shows in pg_stat_progress_copy while
// it runs, with the bytes it received, and leaves it when it ends.
func TestProgressCopy(t *testing.T) {
	srv := metricsServer(t)
	ctx := context.Background()
	loader, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer loader.Close(ctx)
	watcher, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close(ctx)
	if _, err := loader.Exec(ctx, "CREATE TABLE pc (id INT PRIMARY KEY, v TEXT)"); err != nil {
		t.Fatal(err)
	}
	var pid int32
	if err := loader.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := loader.PgConn().CopyFrom(ctx, pr, "COPY pc FROM STDIN")
		done <- err
	}()
	const first = "1\ta\n2\tb\n3\tc\n"
	if _, err := pw.Write([]byte(first)); err != nil {
		t.Fatal(err)
	}
	var command, typ string
	var relOK bool
	var bytes int64
	waitFor(t, func() bool {
		err := watcher.QueryRow(ctx, `SELECT command, type, relid = 'pc'::regclass, bytes_processed FROM pg_stat_progress_copy WHERE pid = $1`, pid).
			Scan(&command, &typ, &relOK, &bytes)
		return err == nil && bytes >= int64(len(first))
	})
	if command != "COPY FROM" || typ != "PIPE" || !relOK {
		t.Errorf("pg_stat_progress_copy: %q %q relid matches %v bytes %d", command, typ, relOK, bytes)
	}
	var state string
	if err := watcher.QueryRow(ctx, "SELECT state FROM pg_stat_activity WHERE pid = $1", pid).Scan(&state); err != nil || state != "active" {
		t.Errorf("the copying session's state: %q %v", state, err)
	}
	pw.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("COPY did not end")
	}
	var n int
	if err := watcher.QueryRow(ctx, "SELECT count(*) FROM pg_stat_progress_copy").Scan(&n); err != nil || n != 0 {
		t.Errorf("after the COPY: %d rows, %v", n, err)
	}
	if err := watcher.QueryRow(ctx, "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'pc'").Scan(&n); err != nil || n != 3 {
		t.Errorf("COPY's rows in n_tup_ins: %d, %v", n, err)
	}
}

// TestProgressCopyFile: a server-side file COPY shows in
// pg_stat_progress_copy as PostgreSQL 15 shows it: COPY FROM of type
// FILE on its table, bytes_total the file's size and bytes_processed what
// was read so far (here while the COPY waits for a key another
// transaction inserted), and leaves the view when it ends; a COPY (query)
// TO STDOUT has relid 0.
func TestProgressCopyFile(t *testing.T) {
	dir := t.TempDir()
	srv, err := Start(context.Background(), Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), FileDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(ctx)
	})
	ctx := context.Background()
	connect := func() *pgx.Conn {
		c, err := pgx.Connect(ctx, srv.ConnString())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(ctx) })
		return c
	}
	holder, loader, watcher := connect(), connect(), connect()
	var data strings.Builder
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&data, "%d,row %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "rows.csv"), []byte(data.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"CREATE TABLE pf (id INT PRIMARY KEY, v TEXT)", "BEGIN", "INSERT INTO pf VALUES (1, 'held')"} {
		if _, err := holder.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	pid := pidOf(t, loader)
	done := make(chan error, 1)
	go func() {
		_, err := loader.Exec(ctx, "COPY pf FROM 'rows.csv' (FORMAT csv)")
		done <- err
	}()
	var command, typ string
	var relOK bool
	var processed, total int64
	waitFor(t, func() bool {
		err := watcher.QueryRow(ctx, `SELECT command, type, relid = 'pf'::regclass, bytes_processed, bytes_total
			FROM pg_stat_progress_copy WHERE pid = $1`, pid).Scan(&command, &typ, &relOK, &processed, &total)
		return err == nil && processed > 0
	})
	if command != "COPY FROM" || typ != "FILE" || !relOK || total != int64(data.Len()) || processed > total {
		t.Errorf("pg_stat_progress_copy: %q %q relid matches %v, %d of %d bytes (file of %d)", command, typ, relOK, processed, total, data.Len())
	}
	if _, err := holder.Exec(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the file COPY did not end")
	}
	var n int
	if err := watcher.QueryRow(ctx, "SELECT count(*) FROM pg_stat_progress_copy").Scan(&n); err != nil || n != 0 {
		t.Errorf("after the COPY: %d rows, %v", n, err)
	}

	// COPY (query) TO STDOUT: the client reads nothing until the view was
	// seen, so the COPY waits for it with the socket full
	pr, pw := io.Pipe()
	go func() {
		_, err := loader.PgConn().CopyTo(ctx, pw, "COPY (SELECT id, v FROM pf, generate_series(1, 50)) TO STDOUT")
		pw.CloseWithError(err)
	}()
	var rel uint32
	waitFor(t, func() bool {
		err := watcher.QueryRow(ctx, "SELECT command, type, relid FROM pg_stat_progress_copy WHERE pid = $1", pid).Scan(&command, &typ, &rel)
		return err == nil
	})
	if command != "COPY TO" || typ != "PIPE" || rel != 0 {
		t.Errorf("COPY (query) TO STDOUT: %q %q relid %d, want relid 0", command, typ, rel)
	}
	if _, err := io.Copy(io.Discard, pr); err != nil {
		t.Fatal(err)
	}
}
