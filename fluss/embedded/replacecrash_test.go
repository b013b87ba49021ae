package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// The replace crash test: a child rewrites a primary-key table over and
// over (StageReplacement, a copy of its rows in small upserts, Replace),
// each generation g naming its value column v<g>, and upserts one new row
// between rewrites, printing what each call acknowledged. It is killed
// with SIGKILL at a random moment: during a copy, a Replace, or a write.
// The store reopened must hold the table once, of a generation no older
// than the last acknowledged Replace and no newer than the last one
// begun, with every acknowledged row (and at most the one in flight), and
// no files of a staged table.
const replaceCrashChildEnv = "SQLGATE_EMBEDDED_REPLACECRASH_CHILD"

func replaceDesc(g int) fluss.TableDescriptor {
	return fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"+strconv.Itoa(g)), PrimaryKey: []string{"k"}}, BucketCount: 2}
}

// replaceGeneration reads g from the table's value column v<g>.
func replaceGeneration(info fluss.TableInfo) int {
	g, err := strconv.Atoi(strings.TrimPrefix(info.Descriptor.Schema.Columns[1].Name, "v"))
	if err != nil {
		return -1
	}
	return g
}

// copyInto upserts src's rows into dst, 16 at a time, under dst's names.
func copyInto(ctx context.Context, src, dst fluss.Table) error {
	r, err := src.Scan(ctx, fluss.ScanOptions{BatchRows: 16})
	if err != nil {
		return err
	}
	defer r.Close()
	names := []string{}
	for _, c := range dst.Info().Descriptor.Schema.Columns {
		names = append(names, c.Name)
	}
	for {
		b, err := r.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		fs := make([]arrow.Field, len(names))
		for i, n := range names {
			fs[i] = arrow.Field{Name: n, Type: b.Column(i).DataType(), Nullable: true}
		}
		rec := array.NewRecordBatch(arrow.NewSchema(fs, nil), b.Columns(), b.NumRows())
		_, err = dst.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		b.Release()
		if err != nil {
			return err
		}
	}
}

func runReplaceCrashChild(dir string) error {
	ctx := context.Background()
	s, err := Open(dir, Options{})
	if err != nil {
		return err
	}
	p := path("r")
	info, err := s.GetTable(ctx, p)
	if err != nil {
		if info, err = s.CreateTable(ctx, p, replaceDesc(0), false); err != nil {
			return err
		}
	}
	g := replaceGeneration(info)
	ack := func(format string, args ...any) { fmt.Fprintf(os.Stdout, format+"\n", args...) }
	for {
		tb, err := s.Table(ctx, p)
		if err != nil {
			return err
		}
		rows, err := tableRows(ctx, tb)
		if err != nil {
			return err
		}
		n := int32(len(rows))
		rec := intRecord([]string{"k", "v" + strconv.Itoa(g)}, []int32{n, n})
		_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		if err != nil {
			return err
		}
		ack("row %d", n)
		st, err := s.StageReplacement(ctx, p, replaceDesc(g+1))
		if err != nil {
			return err
		}
		if err := copyInto(ctx, tb, st.Table()); err != nil {
			return err
		}
		ack("replacing %d", g+1)
		if _, err := st.Replace(ctx, nil); err != nil {
			return err
		}
		g++
		ack("replaced %d", g)
	}
}

// tableRows are tb's rows as (k, v) pairs, by k.
func tableRows(ctx context.Context, tb fluss.Table) ([][2]int32, error) {
	r, err := tb.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out [][2]int32
	for {
		b, err := r.Next(ctx)
		if err != nil || b == nil {
			slices.SortFunc(out, func(a, b [2]int32) int { return int(a[0] - b[0]) })
			return out, err
		}
		k, v := b.Column(0).(*array.Int32), b.Column(1).(*array.Int32)
		for i := 0; i < int(b.NumRows()); i++ {
			out = append(out, [2]int32{k.Value(i), v.Value(i)})
		}
		b.Release()
	}
}

func TestCrashReplace(t *testing.T) {
	if dir := os.Getenv(replaceCrashChildEnv); dir != "" {
		if err := runReplaceCrashChild(dir); err != nil {
			fmt.Fprintln(os.Stderr, "replace crash child:", err)
			os.Exit(2)
		}
		return
	}
	dir := t.TempDir()
	row, replacing, replaced := -1, 0, 0
	rounds := max(crashRounds()/2, 1)
	for round := 1; round <= rounds; round++ {
		killChild(t, "TestCrashReplace", []string{replaceCrashChildEnv + "=" + dir}, 300*time.Millisecond, func(line string) bool {
			var n int
			switch {
			case scan(line, "row %d", &n):
				row = max(row, n)
			case scan(line, "replacing %d", &n):
				replacing = max(replacing, n)
			case scan(line, "replaced %d", &n):
				replaced = max(replaced, n)
			default:
				return false
			}
			return true
		})
		s := reopenAfterKill(t, dir)
		tables, err := s.ListTables(context.Background(), fluss.DefaultDatabase)
		if err != nil || len(tables) != 1 {
			t.Fatalf("round %d: tables %v (%v), want r alone", round, tables, err)
		}
		g := replaceGeneration(tables[0])
		if g < replaced || g > replacing+1 {
			t.Fatalf("round %d: generation %d after SIGKILL, acknowledged %d, begun %d", round, g, replaced, replacing)
		}
		tb, err := s.Table(context.Background(), path("r"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := tableRows(context.Background(), tb)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) < row+1 || len(rows) > row+2 {
			t.Fatalf("round %d: %d rows, acknowledged %d", round, len(rows), row+1)
		}
		for i, r := range rows {
			if r != [2]int32{int32(i), int32(i)} {
				t.Fatalf("round %d: row %d is %v", round, i, r)
			}
		}
		ents, err := os.ReadDir(filepath.Join(dir, "tables"))
		if err != nil {
			t.Fatal(err)
		}
		if len(ents) != 1 || ents[0].Name() != strconv.FormatInt(tables[0].TableID, 10) {
			t.Fatalf("round %d: table directories %v, want the live table's %d alone", round, ents, tables[0].TableID)
		}
		row = len(rows) - 1
		replaced, replacing = g, g
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReplaceTable: a staged replacement reads and writes on its own, the
// old table is read until Replace, Discard leaves nothing, and a write to
// the old table after staging makes Replace fail with 40001 and keep the
// old table working.
func TestReplaceTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	defer func() { s.Close() }()
	tb := createTable(t, s, "r", replaceDesc(0))
	rec := intRecord([]string{"k", "v0"}, []int32{1, 1}, []int32{2, 2})
	writeRows(t, tb, true, rec)
	rec.Release()

	st, err := s.StageReplacement(ctx, path("r"), replaceDesc(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := copyInto(ctx, tb, st.Table()); err != nil {
		t.Fatal(err)
	}
	// a write to the old table since staging: the copy missed it
	late := intRecord([]string{"k", "v0"}, []int32{3, 3})
	writeRows(t, tb, true, late)
	late.Release()
	if _, err := st.Replace(ctx, nil); err == nil || !strings.Contains(err.Error(), "while it was rewritten") {
		t.Fatalf("Replace after a write: %v, want 40001", err)
	}
	if rows, err := tableRows(ctx, tb); err != nil || len(rows) != 3 {
		t.Fatalf("old table after a refused Replace: %v %v", rows, err)
	}
	if err := st.Discard(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = s.StageReplacement(ctx, path("r"), replaceDesc(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := copyInto(ctx, tb, st.Table()); err != nil {
		t.Fatal(err)
	}
	info, err := st.Replace(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := replaceGeneration(info); got != 1 || info.TableID == tb.Info().TableID {
		t.Fatalf("replaced table %+v", info)
	}
	if _, err := tb.Upsert(ctx, intRecord([]string{"k", "v0"}, []int32{9, 9}), fluss.UpsertOptions{}); err == nil {
		t.Fatal("the replaced table took a write")
	}
	s = reopenClean(t, s, dir)
	nt, err := s.Table(ctx, path("r"))
	if err != nil {
		t.Fatal(err)
	}
	if rows, err := tableRows(ctx, nt); err != nil || !slices.Equal(rows, [][2]int32{{1, 1}, {2, 2}, {3, 3}}) || replaceGeneration(nt.Info()) != 1 {
		t.Fatalf("after reopen: %v %v %v", rows, err, nt.Info().Descriptor.Schema.Columns)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "tables"))
	if len(ents) != 1 {
		t.Fatalf("table directories %v, want one", ents)
	}
}
