package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// fakeProgress records the file COPYs an engine reports.
type fakeProgress struct {
	copies []*fakeCopy
}

type fakeCopy struct {
	pid           int32
	rel           uint32
	what          string // command and type: "COPY FROM FILE"
	total         int64
	bytes, tuples int64
	done          bool
}

func (f *fakeProgress) StartFileCopy(pid int32, relOID uint32, command, typ string, total int64) pgwire.CopyProgress {
	c := &fakeCopy{pid: pid, rel: relOID, what: command + " " + typ, total: total}
	f.copies = append(f.copies, c)
	return c
}
func (c *fakeCopy) Add(b, t int64) { c.bytes += b; c.tuples += t }
func (c *fakeCopy) Done()          { c.done = true }

// execSQL runs every statement of text on s, draining their results.
func execSQL(t *testing.T, s pgwire.Session, text string) {
	t.Helper()
	if err := tryExec(s, text); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
}

func tryExec(s pgwire.Session, text string) error {
	return execUnder(context.Background(), s, text) // ddlcancel_internal_test.go
}

// TestFileCopyProgress: every server-side file COPY reports itself for
// pg_stat_progress_copy as PostgreSQL 15 does: COPY TO / COPY FROM of
// type FILE on the table's OID (0 for COPY (query) TO), the bytes written
// or read (a COPY FROM's total being the file's size), the rows, and Done
// at the end, for every file format; a failing COPY is Done too. Without a
// registry nothing fails.
func TestFileCopyProgress(t *testing.T) {
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	dir := t.TempDir()
	fd, err := fileio.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fp := &fakeProgress{}
	e := New(store, Options{CopyProgress: fp, FileDir: fd})
	s, err := e.NewSession(context.Background(), pgwire.SessionInfo{User: "u", Database: "d", ProcessID: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	execSQL(t, s, "CREATE TABLE src (id INT PRIMARY KEY, v STRING); CREATE TABLE dst (id INT PRIMARY KEY, v STRING)")
	execSQL(t, s, "INSERT INTO src SELECT i, 'value ' || i FROM generate_series(1, 5000) AS g(i)")
	srcOID := s.(*session).tableOID(t, "src")
	dstOID := s.(*session).tableOID(t, "dst")
	const rows = 5000
	for _, format := range []string{"csv", "text", "binary", "parquet", "arrow"} {
		t.Run(format, func(t *testing.T) {
			file := "p." + format
			fp.copies = nil
			execSQL(t, s, fmt.Sprintf("COPY src TO '%s' (FORMAT %s)", file, format))
			execSQL(t, s, fmt.Sprintf("DELETE FROM dst; COPY dst FROM '%s' (FORMAT %s)", file, format))
			execSQL(t, s, fmt.Sprintf("COPY (SELECT id FROM src WHERE id <= 10) TO 'q.%s' (FORMAT %s)", format, format))
			st, err := os.Stat(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			if len(fp.copies) != 3 {
				t.Fatalf("%d copies reported, want 3", len(fp.copies))
			}
			to, from, query := fp.copies[0], fp.copies[1], fp.copies[2]
			if to.what != "COPY TO FILE" || to.rel != srcOID || to.total != 0 || to.bytes != st.Size() || to.tuples != rows || !to.done || to.pid != 3 {
				t.Errorf("COPY TO: %+v (file of %d bytes, table OID %d)", *to, st.Size(), srcOID)
			}
			// the text formats are read once through; a columnar file's
			// reader skips its magic and may read its footer twice
			read := from.bytes == st.Size()
			if format == "parquet" || format == "arrow" {
				read = from.bytes*10 >= st.Size()*9 && from.bytes*10 <= st.Size()*11
			}
			if from.what != "COPY FROM FILE" || from.rel != dstOID || from.total != st.Size() || !read || from.tuples != rows || !from.done {
				t.Errorf("COPY FROM: %+v (file of %d bytes, table OID %d)", *from, st.Size(), dstOID)
			}
			if query.what != "COPY TO FILE" || query.rel != 0 || query.tuples != 10 || !query.done {
				t.Errorf("COPY (query) TO: %+v", *query)
			}
		})
	}
	// a COPY that fails part way still leaves the view
	if err := os.WriteFile(filepath.Join(dir, "bad.csv"), []byte("1,a\nx,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fp.copies = nil
	if err := tryExec(s, "COPY dst FROM 'bad.csv' (FORMAT csv)"); err == nil {
		t.Fatal("COPY of a bad file succeeded")
	}
	if len(fp.copies) != 1 || !fp.copies[0].done || fp.copies[0].total != 8 {
		t.Errorf("failed COPY FROM: %+v", fp.copies)
	}
	// without a registry the COPY runs all the same
	e2 := New(store, Options{FileDir: fd})
	s2, err := e2.NewSession(context.Background(), pgwire.SessionInfo{User: "u", Database: "d", ProcessID: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	execSQL(t, s2, "COPY src TO 'plain.csv' (FORMAT csv)")
}

// tableOID is the OID a table's columns carry in RowDescription.
func (s *session) tableOID(t *testing.T, table string) uint32 {
	t.Helper()
	stmts, err := s.Prepare(context.Background(), "SELECT id FROM "+table, nil)
	if err != nil {
		t.Fatal(err)
	}
	oid := stmts[0].Columns()[0].TableOID
	if oid == 0 {
		t.Fatalf("no table OID for %s", table)
	}
	return oid
}
