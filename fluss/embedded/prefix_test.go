package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// readPrefix reads a whole ScanPrefix as rows of int32 values, sorted, and
// the number of stored rows it visited.
func readPrefix(t *testing.T, tb fluss.Table, keys arrow.RecordBatch, opts fluss.ScanOptions) ([][]int32, int64) {
	t.Helper()
	r, err := tb.(fluss.PrefixScanner).ScanPrefix(context.Background(), keys, opts)
	if err != nil {
		t.Fatalf("ScanPrefix: %v", err)
	}
	defer r.Close()
	var rows [][]int32
	for {
		rec, err := r.Next(context.Background())
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if rec == nil {
			break
		}
		if opts.BatchRows > 0 && rec.NumRows() > int64(opts.BatchRows) {
			t.Fatalf("batch of %d rows, asked for %d", rec.NumRows(), opts.BatchRows)
		}
		rows = append(rows, recordRows(rec)...)
		rec.Release()
	}
	slices.SortFunc(rows, slices.Compare)
	return rows, r.(*prefixScan).visited
}

func recordRows(rec arrow.RecordBatch) [][]int32 {
	var rows [][]int32
	for i := 0; i < int(rec.NumRows()); i++ {
		row := make([]int32, rec.NumCols())
		for c := range row {
			row[c] = rec.Column(c).(*array.Int32).Value(i)
		}
		rows = append(rows, row)
	}
	return rows
}

// TestScanPrefixMatchesScan compares prefix lookups with a filtered full
// scan on random data, for bucket keys that lead the primary key, that do
// not, and that list key columns in another order, through upserts and
// deletes.
func TestScanPrefixMatchesScan(t *testing.T) {
	layouts := []struct {
		pk, bk []string
		lead   bool
	}{
		{pk: []string{"a", "b"}, bk: []string{"a"}, lead: true},
		{pk: []string{"a", "b", "c"}, bk: []string{"a", "b"}, lead: true},
		{pk: []string{"b", "a"}, bk: []string{"a"}},
		{pk: []string{"a", "b", "c"}, bk: []string{"c", "a"}},
	}
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	defer s.Close()
	rng := rand.New(rand.NewPCG(7, uint64(len(layouts))))
	for li, l := range layouts {
		name := fmt.Sprintf("p%d", li)
		tb := createTable(t, s, name, fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("a", "b", "c", "v"), PrimaryKey: l.pk},
			BucketCount: 4, BucketKey: l.bk})
		bkCols := make([]int, len(l.bk))
		for i, n := range l.bk {
			bkCols[i] = tb.Info().ColumnIndex(n)
		}
		for round := 0; round < 6; round++ {
			var rows [][]int32
			for i := 0; i < 300; i++ {
				rows = append(rows, []int32{rng.Int32N(8) - 3, rng.Int32N(40), rng.Int32N(3), rng.Int32()})
			}
			rec := intRecord([]string{"a", "b", "c", "v"}, rows...)
			if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
				t.Fatal(err)
			}
			rec.Release()
			var dels [][]int32
			for i := 0; i < 40; i++ {
				r := rows[rng.IntN(len(rows))]
				k := make([]int32, len(l.pk))
				for j, n := range l.pk {
					k[j] = r[tb.Info().ColumnIndex(n)]
				}
				dels = append(dels, k)
			}
			keys := intRecord(l.pk, dels...)
			if _, err := tb.Delete(ctx, keys); err != nil {
				t.Fatal(err)
			}
			keys.Release()

			all, _ := scanAll(t, tb, fluss.ScanOptions{})
			table := recordRows(all)
			all.Release()
			for q := 0; q < 10; q++ {
				// one to four bucket keys, some repeated, some absent
				var want [][]int32
				var ks [][]int32
				for n := 1 + rng.IntN(4); n > 0; n-- {
					k := make([]int32, len(l.bk))
					for j := range k {
						k[j] = rng.Int32N(10) - 4
						if l.bk[j] == "c" {
							k[j] = rng.Int32N(4)
						}
					}
					ks = append(ks, k)
					if rng.IntN(3) == 0 {
						ks = append(ks, k)
					}
				}
				for _, r := range table {
					for _, k := range ks {
						match := true
						for j, c := range bkCols {
							match = match && r[c] == k[j]
						}
						if match {
							want = append(want, r)
							break
						}
					}
				}
				slices.SortFunc(want, slices.Compare)
				keys := intRecord(l.bk, ks...)
				got, visited := readPrefix(t, tb, keys, fluss.ScanOptions{BatchRows: 1 + rng.IntN(20)})
				if !slices.EqualFunc(got, want, slices.Equal) {
					t.Fatalf("layout %v/%v round %d keys %v:\n got %v\nwant %v", l.pk, l.bk, round, ks, got, want)
				}
				if l.lead && visited != int64(len(want)) {
					t.Errorf("layout %v/%v: visited %d rows for %d results; a leading bucket key reads only its own rows", l.pk, l.bk, visited, len(want))
				}
				if visited > int64(len(table)) {
					t.Errorf("visited %d rows of a %d-row table", visited, len(table))
				}
				// a limit and a projection
				if len(want) > 1 {
					got, _ := readPrefix(t, tb, keys, fluss.ScanOptions{Limit: 1, Projection: []int{3, 0}})
					if len(got) != 1 {
						t.Fatalf("limit 1: %d rows", len(got))
					}
				}
				keys.Release()
			}
		}
	}
}

// TestScanPrefixReadsOneBucketRange checks the cost on a table of many
// tenants: a prefix lookup visits its tenant's rows only.
func TestScanPrefixReadsOneBucketRange(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	defer s.Close()
	tb := createTable(t, s, "tenants", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("tenant", "id", "v"), PrimaryKey: []string{"tenant", "id"}},
		BucketCount: 2, BucketKey: []string{"tenant"}})
	var rows [][]int32
	for tenant := int32(0); tenant < 100; tenant++ {
		for id := int32(0); id < 50; id++ {
			rows = append(rows, []int32{tenant, id, tenant * id})
		}
	}
	rec := intRecord([]string{"tenant", "id", "v"}, rows...)
	defer rec.Release()
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	keys := intRecord([]string{"tenant"}, []int32{42})
	defer keys.Release()
	got, visited := readPrefix(t, tb, keys, fluss.ScanOptions{})
	if len(got) != 50 || visited != 50 || got[0][0] != 42 || got[49][1] != 49 {
		t.Fatalf("tenant 42: %d rows, visited %d", len(got), visited)
	}
	// a NULL key matches nothing; a repeated key counts once
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	ib.AppendNull()
	ib.AppendValues([]int32{7, 7}, nil)
	col := ib.NewArray()
	ib.Release()
	withNull := array.NewRecordBatch(keys.Schema(), []arrow.Array{col}, 3)
	col.Release()
	defer withNull.Release()
	if got, _ := readPrefix(t, tb, withNull, fluss.ScanOptions{}); len(got) != 50 || got[0][0] != 7 {
		t.Fatalf("NULL, 7, 7: %d rows", len(got))
	}
	// the wrong number of key columns is refused
	two := intRecord([]string{"tenant", "id"}, []int32{1, 2})
	defer two.Release()
	if _, err := tb.(fluss.PrefixScanner).ScanPrefix(ctx, two, fluss.ScanOptions{}); sqlerr.CodeOf(err) != sqlerr.InvalidColumnReference {
		t.Fatalf("two key columns: %v", err)
	}
	// a log table has no prefix lookup
	lt := createTable(t, s, "log", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("tenant")}})
	if _, err := lt.(fluss.PrefixScanner).ScanPrefix(ctx, keys, fluss.ScanOptions{}); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Fatalf("log table: %v", err)
	}
}
