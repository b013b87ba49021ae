package embedded

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The rename crash test: a child renames two primary-key tables, x_n to
// x_n+1 over and over, upserting key n into x_n before each rename and
// printing what each call acknowledged; it is killed with SIGKILL at a
// random moment, and the store reopened must hold each table exactly once,
// under a name no older than its last acknowledged rename and no newer
// than the rename it began, with its table id unchanged and every
// acknowledged row.
const renameCrashChildEnv = "SQLGATE_EMBEDDED_RENAMECRASH_CHILD"

var renameCrashTables = []string{"t", "u"}

// renameIndex reads n from the name x_n.
func renameIndex(name, x string) (int, bool) {
	rest, ok := strings.CutPrefix(name, x+"_")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil
}

func renamePath(x string, n int) fluss.TablePath {
	return fluss.TablePath{Database: fluss.DefaultDatabase, Table: fmt.Sprintf("%s_%d", x, n)}
}

func runRenameCrashChild(dir string) error {
	ctx := context.Background()
	s, err := Open(dir, Options{})
	if err != nil {
		return err
	}
	tables, err := s.ListTables(ctx, fluss.DefaultDatabase)
	if err != nil {
		return err
	}
	next := map[string]int{}
	for _, x := range renameCrashTables {
		found := false
		for _, info := range tables {
			if n, ok := renameIndex(info.Path.Table, x); ok {
				next[x], found = n, true
			}
		}
		if !found {
			d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2}
			if _, err := s.CreateTable(ctx, renamePath(x, 0), d, false); err != nil {
				return err
			}
		}
	}
	ack := func(format string, args ...any) {
		fmt.Fprintf(os.Stdout, format+"\n", args...)
	}
	for {
		for _, x := range renameCrashTables {
			n := next[x]
			tb, err := s.Table(ctx, renamePath(x, n))
			if err != nil {
				return err
			}
			rec := intRecord([]string{"k", "v"}, []int32{int32(n), int32(n)})
			_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
			rec.Release()
			if err != nil {
				return err
			}
			ack("row %s %d", x, n)
			ack("renaming %s %d", x, n)
			if _, err := s.RenameTable(ctx, renamePath(x, n), renamePath(x, n+1)); err != nil {
				return err
			}
			ack("renamed %s %d", x, n)
			next[x] = n + 1
		}
	}
}

// renameAcks is what the children acknowledged, per table, over every
// round (-1: nothing).
type renameAcks struct {
	row, renaming, renamed map[string]int
	ids                    map[string]int64
}

func TestCrashRename(t *testing.T) {
	if dir := os.Getenv(renameCrashChildEnv); dir != "" {
		if err := runRenameCrashChild(dir); err != nil {
			fmt.Fprintln(os.Stderr, "rename crash child:", err)
			os.Exit(2)
		}
		return
	}
	dir := t.TempDir()
	acks := renameAcks{row: map[string]int{}, renaming: map[string]int{}, renamed: map[string]int{}, ids: map[string]int64{}}
	for _, x := range renameCrashTables {
		acks.row[x], acks.renaming[x], acks.renamed[x] = -1, -1, -1
	}
	rounds := max(crashRounds()/2, 1)
	for round := 1; round <= rounds; round++ {
		killChild(t, "TestCrashRename", []string{renameCrashChildEnv + "=" + dir}, 200*time.Millisecond, func(line string) bool {
			var x string
			var n int
			switch {
			case scan(line, "row %s %d", &x, &n):
				acks.row[x] = max(acks.row[x], n)
			case scan(line, "renaming %s %d", &x, &n):
				acks.renaming[x] = max(acks.renaming[x], n)
			case scan(line, "renamed %s %d", &x, &n):
				acks.renamed[x] = max(acks.renamed[x], n)
			default:
				return false
			}
			return true
		})
		verifyRenameCrash(t, dir, acks)
	}
}

func verifyRenameCrash(t *testing.T, dir string, acks renameAcks) {
	t.Helper()
	ctx := context.Background()
	s := reopenAfterKill(t, dir)
	defer s.Close()
	tables, err := s.ListTables(ctx, fluss.DefaultDatabase)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != len(renameCrashTables) {
		t.Fatalf("%d tables after SIGKILL, want %d: %v", len(tables), len(renameCrashTables), tables)
	}
	for _, x := range renameCrashTables {
		var info fluss.TableInfo
		m, found := 0, 0
		for _, ti := range tables {
			if n, ok := renameIndex(ti.Path.Table, x); ok {
				info, m = ti, n
				found++
			}
		}
		if found != 1 {
			t.Fatalf("table %s is there %d times: %v", x, found, tables)
		}
		// Its name: no older than the last acknowledged rename, no newer
		// than the last one begun.
		if m < acks.renamed[x]+1 || m > acks.renaming[x]+1 {
			t.Fatalf("table %s is %s: renamed %d acknowledged, renaming %d begun", x, info.Path.Table, acks.renamed[x], acks.renaming[x])
		}
		if id, ok := acks.ids[x]; ok && id != info.TableID {
			t.Fatalf("table %s has id %d, was %d: a rename must keep the table", x, info.TableID, id)
		}
		acks.ids[x] = info.TableID
		tb, err := s.Table(ctx, info.Path)
		if err != nil {
			t.Fatal(err)
		}
		rec, _ := scanAll(t, tb, fluss.ScanOptions{Projection: []int{0}})
		var keys []int
		if rec != nil {
			col := rec.Column(0).(*array.Int32)
			for i := 0; i < col.Len(); i++ {
				keys = append(keys, int(col.Value(i)))
			}
			rec.Release()
		}
		sort.Ints(keys)
		// Keys 0..n, each written to x_n before it was renamed: every
		// acknowledged one, and none past the current name's.
		for i, k := range keys {
			if k != i {
				t.Fatalf("table %s keys %v: not 0..n", x, keys)
			}
		}
		if len(keys) < acks.row[x]+1 || len(keys) > m+1 {
			t.Fatalf("table %s (%s) keys %v: %d acknowledged", x, info.Path.Table, keys, acks.row[x]+1)
		}
	}
	t.Logf("renamed t %d, u %d times", acks.renamed["t"]+1, acks.renamed["u"]+1)
}

// TestRenameTable: the embedded store renames a table in place (same id,
// rows, writes under the new name), refuses a taken or missing name, and
// keeps the rename across a reopen.
func TestRenameTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 1}
	a := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "a"}
	b := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "b"}
	c := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "c"}
	infoA, err := s.CreateTable(ctx, a, d, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTable(ctx, c, fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k")}, BucketCount: 1}, false); err != nil {
		t.Fatal(err)
	}
	old, _ := s.Table(ctx, a)
	rec := intRecord([]string{"k", "v"}, []int32{1, 10})
	if _, err := old.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, errOf(s.RenameTable(ctx, a, c)), sqlerr.DuplicateTable, "c")
	wantCode(t, errOf(s.RenameTable(ctx, b, c)), sqlerr.UndefinedTable, "b")
	got, err := s.RenameTable(ctx, a, b)
	if err != nil || got.TableID != infoA.TableID || got.Path != b {
		t.Fatalf("RenameTable: %+v %v", got, err)
	}
	// the handle of the old name writes nothing more
	if _, err := old.Upsert(ctx, rec, fluss.UpsertOptions{}); err == nil {
		t.Fatal("a write through the old name's handle succeeded")
	}
	rec.Release()
	if _, err := s.GetTable(ctx, a); err == nil {
		t.Fatal("the old name is still there")
	}
	tb, err := s.Table(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	rec = intRecord([]string{"k", "v"}, []int32{2, 20})
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tb, err = s.Table(ctx, b)
	if err != nil || tb.Info().TableID != infoA.TableID {
		t.Fatalf("after reopen: %v", err)
	}
	r, n := scanAll(t, tb, fluss.ScanOptions{})
	if r == nil || r.NumRows() != 2 {
		t.Fatalf("after reopen: %d rows in %d batches", func() int64 {
			if r == nil {
				return 0
			}
			return r.NumRows()
		}(), n)
	}
	r.Release()
}

func errOf(_ fluss.TableInfo, err error) error { return err }

// TestRenamePartitionedTable: a partitioned table keeps its partitions and
// their rows under its new name, takes writes into new partitions there,
// and is found so after a reopen.
func TestRenamePartitionedTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTable(ctx, path("pt"), partDesc(nil), false); err != nil {
		t.Fatal(err)
	}
	write := func(name string, rows ...[]int32) {
		t.Helper()
		tb, err := s.Table(ctx, path(name))
		if err != nil {
			t.Fatal(err)
		}
		rec := intRecord([]string{"p", "k", "v"}, rows...)
		defer rec.Release()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	write("pt", []int32{1, 1, 10}, []int32{2, 1, 20})
	if _, err := s.RenameTable(ctx, path("pt"), path("pt2")); err != nil {
		t.Fatal(err)
	}
	write("pt2", []int32{3, 1, 30})
	check := func() {
		t.Helper()
		if got := partitionNames(t, s, path("pt2")); !slices.Equal(got, []string{"1", "2", "3"}) {
			t.Fatalf("partitions %v", got)
		}
		tb, err := s.Table(ctx, path("pt2"))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := scanAll(t, tb, fluss.ScanOptions{Projection: []int{2}})
		vs := int32Values(got, 0)
		slices.Sort(vs)
		if !slices.Equal(vs, []int32{10, 20, 30}) {
			t.Fatalf("scan: %v", vs)
		}
		if _, err := s.GetTable(ctx, path("pt")); err == nil {
			t.Fatal("the old name is still there")
		}
	}
	check()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check()
}
