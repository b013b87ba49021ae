//go:build fluss_cluster

package remote

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

func openStore(t *testing.T) *Store {
	t.Helper()
	s, err := OpenStore(ctxT(t), Config{Bootstrap: strings.Split(bootstrap, ",")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// drain reads a scan to the end and renders its rows sorted.
func drain(t *testing.T, r fluss.RecordReader) []string {
	t.Helper()
	defer r.Close()
	var out []string
	for {
		rec, err := r.Next(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			break
		}
		out = append(out, renderRows(rec)...)
		rec.Release()
	}
	slices.Sort(out)
	return out
}

func renderRows(rec arrow.RecordBatch) []string {
	var out []string
	for i := 0; i < int(rec.NumRows()); i++ {
		var parts []string
		for _, c := range rec.Columns() {
			if c.IsNull(i) {
				parts = append(parts, "NULL")
			} else {
				parts = append(parts, c.ValueStr(i))
			}
		}
		out = append(out, "("+strings.Join(parts, ",")+")")
	}
	return out
}

func TestClusterStore(t *testing.T) {
	s := openStore(t)
	ctx := ctxT(t)
	db := testDB(t, s.Client())
	logPath := fluss.TablePath{Database: db, Table: "log"}
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4}, BucketCount: 3, BucketKey: []string{"id"},
		Properties: map[string]string{"table.log.arrow.compression.type": "NONE"}}
	if _, err := s.CreateTable(ctx, logPath, desc, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTable(ctx, logPath, desc, false); sqlerr.CodeOf(err) != sqlerr.DuplicateTable {
		t.Fatalf("second CreateTable: %v, want 42P07", err)
	}
	if _, err := s.Table(ctx, fluss.TablePath{Database: db, Table: "nope"}); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Fatalf("missing table: %v, want 42P01", err)
	}
	lt, err := s.Table(ctx, logPath)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for round := 0; round < 3; round++ {
		var rows []row
		for i := 0; i < 40; i++ {
			id := int32(round*1000 + i)
			r := row{id: id, v: float64(id) * 1.5, big: -int64(id)}
			if i%3 != 0 {
				r.name = strp(fmt.Sprintf("r%d", id))
			}
			rows = append(rows, r)
		}
		rec := buildRecord(lt.Info().ArrowSchema(), rows)
		if res, err := lt.Append(ctx, rec); err != nil || res.Rows != 40 {
			t.Fatalf("Append = %v, %v", res, err)
		}
		want = append(want, renderRows(rec)...)
		rec.Release()
	}
	slices.Sort(want)
	r, err := lt.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := drain(t, r); !slices.Equal(got, want) {
		t.Fatalf("log scan: %d rows, want %d:\n got %v\nwant %v", len(got), len(want), got, want)
	}
	r, err = lt.Scan(ctx, fluss.ScanOptions{Projection: []int{3, 0}, Limit: 7})
	if err != nil {
		t.Fatal(err)
	}
	if got := drain(t, r); len(got) != 7 {
		t.Fatalf("limited scan gave %d rows: %v", len(got), got)
	}

	// A primary-key table: upsert, replace, delete, look up, scan.
	pkPath := fluss.TablePath{Database: db, Table: "pk"}
	pdesc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4, PrimaryKey: []string{"id"}}, BucketCount: 2}
	if _, err := s.CreateTable(ctx, pkPath, pdesc, false); err != nil {
		t.Fatal(err)
	}
	pt, err := s.Table(ctx, pkPath)
	if err != nil {
		t.Fatal(err)
	}
	schema := pt.Info().ArrowSchema()
	var first []row
	for i := int32(0); i < 30; i++ {
		r := row{id: i, v: float64(i), big: int64(i) * 7}
		if i%4 != 0 {
			r.name = strp(fmt.Sprintf("k%d", i))
		}
		first = append(first, r)
	}
	rec := buildRecord(schema, first)
	if _, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	rec = buildRecord(schema, []row{{id: 3, name: strp("three"), v: 3.5, big: 33}, {id: 99, v: 9, big: 9}})
	if _, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if _, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{IgnoreExisting: true}); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Fatalf("IgnoreExisting: %v, want 0A000", err)
	}
	// A partial update writes only its target columns: key 6 keeps v and big.
	prec := buildRecord(schema, []row{{id: 6, name: strp("partial")}})
	if _, err := pt.Upsert(ctx, prec, fluss.UpsertOptions{TargetColumns: []string{"id", "name"}}); err != nil {
		t.Fatalf("partial update: %v", err)
	}
	prec.Release()
	kb := array.NewInt32Builder(memory.DefaultAllocator)
	kb.AppendValues([]int32{4, 5, 1000}, nil)
	ka := kb.NewArray()
	keys := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, nil), []arrow.Array{ka}, 3)
	if _, err := pt.Delete(ctx, keys); err != nil {
		t.Fatal(err)
	}
	state := map[int32]row{}
	for _, r := range first {
		state[r.id] = r
	}
	state[3] = row{id: 3, name: strp("three"), v: 3.5, big: 33}
	state[6] = row{id: 6, name: strp("partial"), v: 6, big: 42}
	state[99] = row{id: 99, v: 9, big: 9}
	delete(state, 4)
	delete(state, 5)
	var wantRows []row
	for _, r := range state {
		wantRows = append(wantRows, r)
	}
	wrec := buildRecord(schema, wantRows)
	wantPK := renderRows(wrec)
	wrec.Release()
	slices.Sort(wantPK)
	r, err = pt.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := drain(t, r); !slices.Equal(got, wantPK) {
		t.Fatalf("pk scan:\n got %v\nwant %v", got, wantPK)
	}
	// Lookup of present, deleted and missing keys, projected.
	kb.AppendValues([]int32{3, 4, 99, 7, 12345}, nil)
	ka2 := kb.NewArray()
	keys2 := array.NewRecordBatch(keys.Schema(), []arrow.Array{ka2}, 5)
	got, err := pt.Lookup(ctx, keys2, []int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(renderRows(got), ""); g != "(three,3)(NULL,99)(k7,7)" {
		t.Fatalf("Lookup = %s", g)
	}
	got.Release()
	if err := s.DropTable(ctx, pkPath, false); err != nil {
		t.Fatal(err)
	}
	if err := s.DropTable(ctx, pkPath, false); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Fatalf("drop twice: %v", err)
	}
	tabs, err := s.ListTables(ctx, db)
	if err != nil || len(tabs) != 1 || tabs[0].Path != logPath {
		t.Fatalf("ListTables = %v, %v", tabs, err)
	}
}
