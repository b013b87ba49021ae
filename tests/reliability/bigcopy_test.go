package reliability

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestBigCopyBoundedMemory is issue 33's acceptance 3 at any size: a COPY
// of SQLGATE_BIGCOPY_ROWS generated six-column rows (200,000 by default;
// `make soak-copy` runs 100M) into a primary-key table and into a log table
// completes with the server's peak RSS under 1 GiB and every row visible
// after it; a COPY killed with SIGKILL part way (before it commits) leaves
// no row visible after the restart, and no staging behind. It logs each
// COPY's time, rate and the server's peak RSS (VmHWM) for bench/LEDGER.md.
func TestBigCopyBoundedMemory(t *testing.T) {
	rows := int64(envInt(t, "SQLGATE_BIGCOPY_ROWS", 200_000))
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	dir := t.TempDir()
	proc := startProcess(t, bin, dir)
	conn := connect(t, proc.connString())
	const cols = "(id BIGINT%s, a INT, b BIGINT, c DOUBLE PRECISION, d BOOLEAN, e TEXT)"
	// SQLGATE_BIGCOPY_TABLES=pk or =log runs one of the two.
	for _, kind := range strings.Split(cmp.Or(os.Getenv("SQLGATE_BIGCOPY_TABLES"), "pk,log"), ",") {
		table, pk := "big_"+kind, ""
		if kind == "pk" {
			pk = " PRIMARY KEY"
		}
		mustExec(t, conn, "CREATE TABLE "+table+" "+fmt.Sprintf(cols, pk))
		// A fresh server, so that its peak RSS is this COPY's, not that
		// of the queries before (a scan fills pebble's block cache).
		proc.kill()
		proc = startProcess(t, bin, dir)
		conn = connect(t, proc.connString())
		began := time.Now()
		n, err := conn.CopyFrom(context.Background(), pgx.Identifier{table}, []string{"id", "a", "b", "c", "d", "e"}, newBigRows(rows, nil))
		if err != nil || n != rows {
			t.Fatalf("COPY %d rows into %s: %d, %v", rows, table, n, err)
		}
		took := time.Since(began)
		hwm := peakRSS(t, proc)
		t.Logf("COPY %d rows into %s: %v, %.0f rows/s, server peak RSS %d MiB", rows, table, took.Round(time.Millisecond), float64(rows)/took.Seconds(), hwm>>20)
		if hwm >= 1<<30 {
			t.Errorf("COPY into %s: server peak RSS %d MiB, want under 1 GiB", table, hwm>>20)
		}
		var count, sum int64
		if err := conn.QueryRow(context.Background(), "SELECT count(*), sum(id)::BIGINT FROM "+table).Scan(&count, &sum); err != nil {
			t.Fatal(err)
		}
		if count != rows || sum != rows*(rows-1)/2 {
			t.Fatalf("%s after COPY: count %d, sum %d; want %d, %d", table, count, sum, rows, rows*(rows-1)/2)
		}
		// Each table is dropped once checked: at 100M rows the disk
		// holds one at a time.
		mustExec(t, conn, "DROP TABLE "+table)
	}

	// Killed part way: nothing of the COPY after the restart.
	for _, kind := range strings.Split(cmp.Or(os.Getenv("SQLGATE_BIGCOPY_TABLES"), "pk,log"), ",") {
		table, pk := "cut_"+kind, ""
		if kind == "pk" {
			pk = " PRIMARY KEY"
		}
		mustExec(t, conn, "CREATE TABLE "+table+" "+fmt.Sprintf(cols, pk))
		killAt := min(rows/2, 20_000_000)
		_, err := conn.CopyFrom(context.Background(), pgx.Identifier{table}, []string{"id", "a", "b", "c", "d", "e"}, newBigRows(rows, func(i int64) bool {
			if i == killAt {
				proc.kill()
				return true
			}
			return false
		}))
		if err == nil {
			t.Fatalf("COPY into %s survived the server's SIGKILL", table)
		}
		proc = startProcess(t, bin, dir)
		conn = connect(t, proc.connString())
		var count int64
		if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&count); err != nil {
			t.Fatal(err)
		}
		if count != 0 {
			t.Fatalf("%s: %d rows of a COPY killed before it completed", table, count)
		}
		if ents, _ := os.ReadDir(filepath.Join(dir, "staging")); len(ents) > 0 {
			t.Fatalf("staging holds %d entries after the restart", len(ents))
		}
		mustExec(t, conn, "DROP TABLE "+table)
	}
}

// bigRows generates rows 0..n-1 of the six columns for CopyFrom; stop,
// when set, is asked before each row whether to end the COPY with an error.
type bigRows struct {
	i, n int64
	stop func(int64) bool
	vals []any
	err  error
}

func newBigRows(n int64, stop func(int64) bool) *bigRows {
	return &bigRows{i: -1, n: n, stop: stop, vals: make([]any, 6)}
}

var bigNames = [...]string{"ab", "cde", "fghi", "j"}

func (r *bigRows) Next() bool {
	r.i++
	if r.i >= r.n {
		return false
	}
	if r.stop != nil && r.stop(r.i) {
		r.err = errors.New("stopped")
		return false
	}
	i := r.i
	r.vals[0], r.vals[1], r.vals[2], r.vals[3], r.vals[4], r.vals[5] = i, int32(i%1000), i*7, float64(i)*0.5, i%2 == 0, bigNames[i%4]
	return true
}

func (r *bigRows) Values() ([]any, error) { return r.vals, nil }
func (r *bigRows) Err() error             { return r.err }

// peakRSS is the server's peak resident set size (VmHWM), in bytes.
func peakRSS(t *testing.T, p *process) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatalf("reading the server's peak RSS: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in the server's status")
	return 0
}
