package embedded

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
)

// TestSketchAccuracy checks the HyperLogLog estimate against exact
// distinct counts, through the writer's path (sketchRecord, merge), both
// the dense (one big record) and the sparse (many small records) deltas.
func TestSketchAccuracy(t *testing.T) {
	cases := []struct {
		name     string
		distinct int
		repeat   int // each value written this many times
		batch    int // rows per record
		strings  bool
	}{
		{"1M distinct ints, dense", 1_000_000, 1, 1_000_000, false},
		{"1M distinct ints, sparse batches", 1_000_000, 1, 1000, false},
		{"100k distinct strings written 3 times", 100_000, 3, 50_000, true},
		{"1k distinct", 1000, 5, 700, false},
		{"10 distinct", 10, 100, 100, false},
	}
	for _, c := range cases {
		var st ndvState
		st.known = true
		total := c.distinct * c.repeat
		for start := 0; start < total; start += c.batch {
			n := min(c.batch, total-start)
			var a arrow.Array
			if c.strings {
				b := array.NewStringBuilder(memory.DefaultAllocator)
				for i := range n {
					b.Append(fmt.Sprintf("customer-%d", (start+i)%c.distinct))
				}
				a = b.NewArray()
				b.Release()
			} else {
				b := array.NewInt64Builder(memory.DefaultAllocator)
				for i := range n {
					b.Append(int64((start+i)%c.distinct) * 7919)
				}
				b.AppendNull() // nulls are not values
				a = b.NewArray()
				b.Release()
			}
			rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: a.DataType(), Nullable: true}}, nil), []arrow.Array{a}, int64(a.Len()))
			st.merge(sketchRecord(rec, nil), 1)
			rec.Release()
			a.Release()
		}
		got, ok := st.estimate(0)
		if !ok {
			t.Fatalf("%s: no estimate", c.name)
		}
		if rel := math.Abs(float64(got)-float64(c.distinct)) / float64(c.distinct); rel > 0.05 {
			t.Errorf("%s: estimate %d for %d distinct (%.1f%% off)", c.name, got, c.distinct, rel*100)
		}
	}
}

// TestDistinctEstimatesSurviveRestart writes a log table and a primary-key
// table, reopens the store and expects the same estimates; a dropped
// table's sketches go with it.
func TestDistinctEstimatesSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s := openStore(t, dir)
	lt := createTable(t, s, "lt", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("a", "b", "c")}, BucketCount: 3})
	pk := createTable(t, s, "pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "v"), PrimaryKey: []string{"id"}}, BucketCount: 2})
	if n, ok := lt.(fluss.DistinctEstimator).EstimateDistinct(0); !ok || n != 0 {
		t.Fatalf("empty table: %d %v", n, ok)
	}
	var rows [][]int32
	for i := range 5000 {
		rows = append(rows, []int32{int32(i), int32(i % 10), 7})
	}
	for i := 0; i < len(rows); i += 1000 {
		rec := intRecord([]string{"a", "b", "c"}, rows[i:i+1000]...)
		if _, err := lt.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	// the same 300 keys upserted twice: 300 distinct ids
	for range 2 {
		var kv [][]int32
		for i := range 300 {
			kv = append(kv, []int32{int32(i), int32(i % 3)})
		}
		rec := intRecord([]string{"id", "v"}, kv...)
		if _, err := pk.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	want := map[string][]int64{"lt": {5000, 10, 1}, "pk": {300, 3}}
	check := func(s *Store, when string) {
		for name, w := range want {
			tb, err := s.Table(ctx, path(name))
			if err != nil {
				t.Fatal(err)
			}
			for c, exact := range w {
				n, ok := tb.(fluss.DistinctEstimator).EstimateDistinct(c)
				if !ok || math.Abs(float64(n-exact)) > 0.03*float64(exact)+0.5 {
					t.Errorf("%s: %s column %d: estimate %d %v, want about %d", when, name, c, n, ok, exact)
				}
			}
		}
	}
	check(s, "before restart")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	check(s, "after restart")
	if err := s.DropTable(ctx, path("lt"), false); err != nil {
		t.Fatal(err)
	}
	if _, closer, err := s.db.Get(ndvKey(lt.Info().TableID)); err == nil {
		closer.Close()
		t.Errorf("a dropped table's sketches are still stored")
	}
	s.Close()
}

// BenchmarkSketchRecord is the writer's cost of the sketches per row of a
// four-column record (the committer's merge is separate).
func BenchmarkSketchRecord(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		rows := make([][]int32, n)
		for i := range rows {
			rows[i] = []int32{int32(i), int32(i % 100), int32(i * 3), 5}
		}
		rec := intRecord([]string{"a", "b", "c", "d"}, rows...)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var st ndvState
			for b.Loop() {
				st.merge(sketchRecord(rec, nil), 4)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
		})
		rec.Release()
	}
}

// TestNDVDecodeTakesNarrowerSketches: sketches persisted with fewer columns
// than the table now has (written before an ADD COLUMN, or by a table that
// never registered a value, as a partitioned table's parent after an ALTER)
// are read, the later columns as having no non-null value; wider sketches
// and damaged ones are refused.
func TestNDVDecodeTakesNarrowerSketches(t *testing.T) {
	reg := make([]uint8, hllM)
	reg[5] = 3
	tests := []struct {
		name   string
		state  *ndvState
		cols   int
		ok     bool
		filled []bool
	}{
		{"same width", &ndvState{regs: [][]uint8{reg, nil}}, 2, true, []bool{true, false}},
		{"added column", &ndvState{regs: [][]uint8{reg, reg}}, 3, true, []bool{true, true, false}},
		{"no registers", &ndvState{}, 3, true, []bool{false, false, false}},
		{"wider than the table", &ndvState{regs: [][]uint8{reg, reg, reg}}, 2, false, nil},
	}
	for _, tc := range tests {
		regs, ok := decodeNDV(tc.state.encode(), tc.cols)
		if ok != tc.ok {
			t.Fatalf("%s: ok %v, want %v", tc.name, ok, tc.ok)
		}
		if !ok {
			continue
		}
		if len(regs) != tc.cols {
			t.Fatalf("%s: %d columns, want %d", tc.name, len(regs), tc.cols)
		}
		for c, want := range tc.filled {
			if (regs[c] != nil) != want || (want && regs[c][5] != 3) {
				t.Errorf("%s: column %d registers %v, want present=%v", tc.name, c, regs[c] != nil, want)
			}
		}
	}
	if _, ok := decodeNDV(append((&ndvState{regs: [][]uint8{reg}}).encode(), 0), 1); ok {
		t.Error("a sketch with trailing bytes was read")
	}
}
