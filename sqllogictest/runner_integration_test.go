package sqllogictest

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// freshDatabases returns an Options.Connect that gives every file its own
// database in srv, dropped after the file.
func freshDatabases(t *testing.T, srv *pgtest.Server) func(ctx context.Context, file string) (string, func(), error) {
	var n atomic.Int64
	var adminMu sync.Mutex // one admin statement at a time on one connection
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatalf("admin connection: %v", err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })
	adminExec := func(sql string) error {
		adminMu.Lock()
		defer adminMu.Unlock()
		_, err := admin.Exec(ctx, sql)
		return err
	}
	return func(ctx context.Context, file string) (string, func(), error) {
		name := fmt.Sprintf("slt_%d", n.Add(1))
		if err := adminExec("CREATE DATABASE " + name); err != nil {
			return "", nil, err
		}
		cfg, err := pgx.ParseConfig(srv.ConnString())
		if err != nil {
			return "", nil, err
		}
		conn := fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, name)
		cleanup := func() {
			if err := adminExec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
				t.Errorf("drop %s: %v", name, err)
			}
		}
		return conn, cleanup, nil
	}
}

func corpus(names ...string) []string {
	var files []string
	for _, n := range names {
		files = append(files, filepath.Join("testdata", "runner", n))
	}
	return files
}

type counts struct{ passed, failed, skipped int }

func TestRunCorpusAgainstPostgreSQL(t *testing.T) {
	srv := pgtest.Start(t)
	connect := freshDatabases(t, srv)

	passing := corpus("basic.slt", "crlf.test", "halt.slt", "include.slt")
	wantPerFile := map[string]counts{
		"basic.slt":   {26, 0, 3},
		"crlf.test":   {7, 0, 0},
		"halt.slt":    {3, 0, 0},
		"include.slt": {4, 0, 1},
		"failing.slt": {4, 11, 1},
	}
	// The failing file's records, by line, and a fragment of each message.
	wantFailures := []struct {
		line int
		want string
	}{
		{11, "expected: too\n  got:      two"},
		{20, "expected: 2 values hashing to 00000000000000000000000000000000"},
		{26, "statement failed: ERROR: duplicate key value"},
		{30, "expected an error, but it succeeded"},
		{34, "expected an error with SQLSTATE 42P01\n  got:      ERROR: duplicate key value"},
		{38, "query has 3 type letters (III) but returned 2 columns"},
		{49, "label same-label"},
		{55, "expected 5 rows affected\n  got:      2 (UPDATE 2)"},
		{59, `unsupported record type "frobnicate"`},
		{62, "expected 1 result lines, got 2"},
		{68, "timed out after 2s"},
	}

	tests := []struct {
		name     string
		files    []string
		parallel int
		want     string
	}{
		{"passing corpus sequential", passing, 1, "40 passed, 0 failed, 4 skipped"},
		{"everything in parallel", append(passing, corpus("failing.slt")...), 3, "44 passed, 11 failed, 5 skipped"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			sum, err := Run(ctx, tc.files, Options{
				Label:         "postgresql",
				Connect:       connect,
				Out:           &out,
				Parallel:      tc.parallel,
				RecordTimeout: 2 * time.Second,
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := sum.String(); got != tc.want {
				t.Errorf("summary = %q, want %q\noutput:\n%s", got, tc.want, out.String())
			}
			if len(sum.Files) != len(tc.files) {
				t.Fatalf("got %d file summaries, want %d", len(sum.Files), len(tc.files))
			}
			for i, fs := range sum.Files {
				if fs.File != tc.files[i] {
					t.Errorf("file summary %d is %s, want %s (input order)", i, fs.File, tc.files[i])
				}
				base := filepath.Base(fs.File)
				if got, want := (counts{fs.Passed, fs.Failed, fs.Skipped}), wantPerFile[base]; got != want {
					t.Errorf("%s: counts %+v, want %+v", base, got, want)
				}
				if base != "failing.slt" {
					for _, f := range fs.Failures {
						t.Errorf("unexpected failure: %s", f)
					}
					continue
				}
				if len(fs.Failures) != len(wantFailures) {
					t.Errorf("failing.slt: %d failures, want %d:\n%s", len(fs.Failures), len(wantFailures), out.String())
				}
				for j, wf := range wantFailures {
					if j >= len(fs.Failures) {
						break
					}
					f := fs.Failures[j]
					if f.Line != wf.line || !strings.Contains(f.Message, wf.want) {
						t.Errorf("failure %d = %s\nwant line %d containing %q", j, f, wf.line, wf.want)
					}
					prefix := fmt.Sprintf("%s:%d: ", fs.File, wf.line)
					if !strings.Contains(out.String(), prefix) {
						t.Errorf("output lacks %q", prefix)
					}
				}
			}
			if strings.Count(out.String(), "\nok   ")+strings.Count("\n"+out.String(), "\nFAIL ") < 1 {
				t.Errorf("no per-file count lines in output:\n%s", out.String())
			}
		})
	}
}

func TestRunReportsUnreadableFileAndConnectErrors(t *testing.T) {
	var out bytes.Buffer
	connectErr := func(ctx context.Context, file string) (string, func(), error) {
		return "", nil, fmt.Errorf("no target for %s", file)
	}
	sum, err := Run(context.Background(), []string{"testdata/runner/does-not-exist.slt", "testdata/runner/halt.slt"},
		Options{Connect: connectErr, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sum.String(), "0 passed, 2 failed"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	for _, want := range []string{"does-not-exist.slt:0: cannot read file", "halt.slt:0: cannot set up a target: no target"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := Run(context.Background(), nil, Options{}); err == nil {
		t.Error("Run without Connect succeeded")
	}
}

func TestSameTargetSharesOneServer(t *testing.T) {
	srv := pgtest.Start(t)
	var out bytes.Buffer
	// halt.slt creates table h and inserts one row: on the same target the
	// second run fails on CREATE TABLE and then sees two rows.
	files := corpus("halt.slt")
	opts := Options{Label: "postgresql", Connect: SameTarget(srv.ConnString()), Out: &out}
	first, err := Run(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Run(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	if first.String() != "3 passed, 0 failed" || second.String() != "1 passed, 2 failed" {
		t.Errorf("first run %q, second run %q; want 3/0 then 1/2\n%s", first, second, out.String())
	}
	if !strings.Contains(out.String(), `halt.slt:1: statement failed: ERROR: relation "h" already exists`) {
		t.Errorf("second run did not report the existing table:\n%s", out.String())
	}
}
