package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/creack/pty"
	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// writeParquet writes rows (id, name) id = from..to-1 as a Parquet file.
func writeParquet(t *testing.T, path string, from, to int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	w, err := fileio.NewWriter(f, fileio.Parquet, schema, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	for lo := from; lo < to; lo += 10000 {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		names := array.NewStringBuilder(memory.DefaultAllocator)
		hi := min(lo+10000, to)
		for i := lo; i < hi; i++ {
			ids.Append(i)
			if i%7 == 0 {
				names.AppendNull()
			} else {
				names.Append(fmt.Sprintf("name %d", i))
			}
		}
		cols := []arrow.Array{ids.NewArray(), names.NewArray()}
		rec := array.NewRecordBatch(schema, cols, hi-lo)
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		cols[0].Release()
		cols[1].Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func sums(t *testing.T, url, table string) string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n, s, nulls int64
	if err := conn.QueryRow(context.Background(), "SELECT count(*), coalesce(sum(id), 0), count(*) - count(name) FROM "+table).Scan(&n, &s, &nulls); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d rows, sum %d, %d nulls", n, s, nulls)
}

// Under a pseudo-terminal sqlgate import draws a progress bar (percent,
// bytes, rows, rate, ETA) redrawn in place, then a summary.
func TestImportProgressBarOnTerminal(t *testing.T) {
	srv := testbin.StartServer(t, t.TempDir())
	url := "postgres://sqlgate@" + srv.Addr().String() + "/sqlgate?sslmode=disable"
	dir := t.TempDir()
	file := filepath.Join(dir, "people.parquet")
	writeParquet(t, file, 0, 50000)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var screen bytes.Buffer
	read := make(chan struct{})
	go func() {
		_, _ = io.Copy(&screen, ptmx) // until the pty is closed
		close(read)
	}()
	var stderr bytes.Buffer
	rc := importCommand([]string{"--url", url, "--create", "--state", filepath.Join(dir, "state.json"), file}, tty, &stderr)
	tty.Close()
	select {
	case <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("pty reader did not end")
	}
	if rc != 0 {
		t.Fatalf("import: rc %d: %s", rc, stderr.String())
	}
	out := screen.String()
	for _, want := range []string{"\r[", "-----] ", "  0% 0 B/", "ETA", "[########################] 100% ", "50,000 rows", " rows/s",
		"people.parquet -> people: 50,000 rows", "import: 1 file(s) done, 0 skipped (already imported), 0 failed: 50,000 rows"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, out)
		}
	}
	if got := sums(t, url, "people"); got != "50000 rows, sum 1249975000, 7143 nulls" {
		t.Errorf("people: %s", got)
	}
}

// Not on a terminal: plain lines, no carriage returns. A file that fails
// writes nothing and is tried again by the next run, which skips the
// files already imported (per-file resume).
func TestImportResumesPerFile(t *testing.T) {
	srv := testbin.StartServer(t, t.TempDir())
	url := "postgres://sqlgate@" + srv.Addr().String() + "/sqlgate?sslmode=disable"
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	writeParquet(t, a, 0, 1000)
	if err := os.WriteFile(b, []byte("PAR1 not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state.json")
	imp := func(files ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		rc := importCommand(append([]string{"--url", url, "--table", "t", "--create", "--state", state}, files...), &out, &errOut)
		return rc, out.String(), errOut.String()
	}
	rc, out, errOut := imp(a, b)
	if rc != 1 || !strings.Contains(errOut, `file "`+b+`" is not a valid Parquet file`) || strings.Contains(out, "\r") ||
		!strings.Contains(out, "import: 1 file(s) done, 0 skipped (already imported), 1 failed: 1,000 rows") {
		t.Fatalf("first run: rc %d\nstdout %q\nstderr %q", rc, out, errOut)
	}
	writeParquet(t, b, 1000, 3000)
	rc, out, errOut = imp(a, b)
	if rc != 0 || !strings.Contains(out, "import: 1 file(s) done, 1 skipped (already imported), 0 failed: 2,000 rows") {
		t.Fatalf("second run: rc %d\nstdout %q\nstderr %q", rc, out, errOut)
	}
	if got := sums(t, url, "t"); got != "3000 rows, sum 4498500, 429 nulls" {
		t.Errorf("t: %s", got)
	}
	// A file whose columns do not fit the table is refused before any row.
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "CREATE TABLE narrow (id INT NOT NULL, name STRING)"); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	if rc := importCommand([]string{"--url", url, "--table", "narrow", "--state", "", a}, &o, &e); rc != 1 ||
		!strings.Contains(e.String(), `column "id" of file "`+a+`" is bigint, which does not fit column "id" of table "narrow"`) {
		t.Errorf("into a narrower table: rc %d: %q", rc, e.String())
	}
	if got := sums(t, url, "narrow"); got != "0 rows, sum 0, 0 nulls" {
		t.Errorf("narrow: %s", got)
	}
}

// sqlgate export writes a table to each format; the Parquet and CSV files
// come back in with sqlgate import.
func TestExportImportRoundTrip(t *testing.T) {
	srv := testbin.StartServer(t, t.TempDir())
	url := "postgres://sqlgate@" + srv.Addr().String() + "/sqlgate?sslmode=disable"
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "src.parquet"), 0, 5000)
	var out, errOut bytes.Buffer
	if rc := importCommand([]string{"--url", url, "--create", "--state", "", filepath.Join(dir, "src.parquet")}, &out, &errOut); rc != 0 {
		t.Fatalf("import: %s", errOut.String())
	}
	want := sums(t, url, "src")
	// A CSV file with other COPY options.
	semi := filepath.Join(dir, "semi.csv")
	if err := os.WriteFile(semi, []byte("id;name\n1;NA\n2;x;y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	setup, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := setup.Exec(context.Background(), "CREATE TABLE semi (id BIGINT NOT NULL, name STRING)"); err != nil {
		t.Fatal(err)
	}
	setup.Close(context.Background())
	if rc := importCommand([]string{"--url", url, "--state", "", "--copy-options", "DELIMITER ';', NULL 'NA'", semi}, &out, &errOut); rc != 1 ||
		!strings.Contains(errOut.String(), "extra data after last expected column") {
		t.Errorf("semi.csv with a bad line: rc %d %q", rc, errOut.String())
	}
	if err := os.WriteFile(semi, []byte("id;name\n1;NA\n2;x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if rc := importCommand([]string{"--url", url, "--state", "", "--copy-options", "DELIMITER ';', NULL 'NA'", semi}, &out, &errOut); rc != 0 {
		t.Errorf("semi.csv: %s", errOut.String())
	}
	if got := sums(t, url, "semi"); got != "2 rows, sum 3, 1 nulls" {
		t.Errorf("semi: %s", got)
	}
	for _, f := range []string{"back.parquet", "back.arrow", "back.csv"} {
		out.Reset()
		errOut.Reset()
		path := filepath.Join(dir, f)
		if rc := exportCommand([]string{"--url", url, "--table", "src", path}, &out, &errOut); rc != 0 {
			t.Fatalf("export %s: %s", f, errOut.String())
		}
		if !strings.Contains(out.String(), "export: 1 file(s) done") || !strings.Contains(out.String(), "5,000 rows") {
			t.Errorf("export %s: %q", f, out.String())
		}
		table := strings.ReplaceAll(f, ".", "_")
		args := []string{"--url", url, "--table", table, "--state", "", path}
		if !strings.HasSuffix(f, ".csv") {
			args = append([]string{"--create"}, args...)
		} else {
			conn, err := pgx.Connect(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(context.Background(), "CREATE TABLE "+table+" (id BIGINT NOT NULL, name STRING)"); err != nil {
				t.Fatal(err)
			}
			conn.Close(context.Background())
		}
		if rc := importCommand(args, &out, &errOut); rc != 0 {
			t.Fatalf("import %s: %s", f, errOut.String())
		}
		if got := sums(t, url, table); got != want {
			t.Errorf("%s: %s, want %s", table, got, want)
		}
	}
}

// A table of every Fluss type goes out with sqlgate export and back in
// with sqlgate import, nested MAP and ROW values as such (DESCRIBE gives
// export the exact types).
func TestExportImportEveryType(t *testing.T) {
	srv := testbin.StartServer(t, t.TempDir())
	url := "postgres://sqlgate@" + srv.Addr().String() + "/sqlgate?sslmode=disable"
	dir := t.TempDir()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	ctx := context.Background()
	cols := `(id INT NOT NULL, b BOOLEAN, i8 TINYINT, dec DECIMAL(20,4), c CHAR(3), bin BINARY(2), d DATE, t TIME,
		ts TIMESTAMP(6), tz TIMESTAMP_LTZ(3), a ARRAY<ARRAY<INT>>, m MAP<STRING, ROW<x INT, y ARRAY<STRING>>>, r ROW<p INT, q MAP<INT, STRING>>, PRIMARY KEY (id))`
	for _, q := range []string{"CREATE TABLE src " + cols, "CREATE TABLE dst " + cols,
		`INSERT INTO src VALUES (1, true, -3, 12.3456, 'ab', '\x0102', '2024-02-29', '12:34:56', '2024-01-02 03:04:05.678901',
			'2024-01-02 03:04:05.678+00', ARRAY[ARRAY[1, NULL], ARRAY[3, 4]], MAP['k', ROW(1, ARRAY['z', NULL]), 'n', NULL], ROW(NULL, MAP[1, 'v', 2, NULL])),
			(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	rows := func(table string) string {
		var b strings.Builder
		r, err := conn.Query(ctx, "SELECT x::text FROM (SELECT * FROM "+table+") x ORDER BY id", pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatal(err)
		}
		for r.Next() {
			var s string
			if err := r.Scan(&s); err != nil {
				t.Fatal(err)
			}
			b.WriteString(s + "\n")
		}
		return b.String()
	}
	for _, f := range []string{"all.parquet", "all.arrow"} {
		path := filepath.Join(dir, f)
		var out, errOut bytes.Buffer
		if rc := exportCommand([]string{"--url", url, "--table", "src", path}, &out, &errOut); rc != 0 {
			t.Fatalf("export %s: %s", f, errOut.String())
		}
		if rc := importCommand([]string{"--url", url, "--table", "dst", "--state", "", path}, &out, &errOut); rc != 0 {
			t.Fatalf("import %s: %s", f, errOut.String())
		}
		if got, want := rows("dst"), rows("src"); got != want {
			t.Errorf("%s:\n got %s\nwant %s", f, got, want)
		}
		if _, err := conn.Exec(ctx, "TRUNCATE dst"); err != nil {
			t.Fatal(err)
		}
	}
}
