package relop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// sort test table: s(id int, k int, f double precision, t text, d numeric(10,2), b bigint)
var sortTypes = []types.T{types.Int32Type, types.Int32Type, types.Float64Type, types.StringType, types.DecimalType(10, 2), types.Int64Type}
var sortPGCols = []string{"id int", "k int", "f double precision", "t text", "d numeric(10,2)", "b bigint"}

func sortRows(n int, seed uint64, skew bool) [][]any {
	rng := rand.New(rand.NewPCG(seed, 3))
	words := []string{"", "a", "ab", "abc", "b", "B", "a b", "zz", "Ab", "\u00e9t\u00e9"}
	rows := make([][]any, n)
	for i := range rows {
		var k any = rng.IntN(50) - 25
		if skew && rng.IntN(10) < 9 {
			k = 7
		}
		if rng.IntN(10) == 0 {
			k = nil
		}
		fs := []any{nil, math.NaN(), math.Copysign(0, -1), 0.0, math.Inf(1), math.Inf(-1), 1.5, -2.25, 1e300}
		var f any = fs[rng.IntN(len(fs))]
		var t any = words[rng.IntN(len(words))]
		if rng.IntN(8) == 0 {
			t = nil
		}
		var d any = fmt.Sprintf("%d.%02d", rng.IntN(200)-100, rng.IntN(100))
		if rng.IntN(9) == 0 {
			d = nil
		}
		var b any = rng.IntN(1 << 20)
		if rng.IntN(11) == 0 {
			b = nil
		}
		rows[i] = []any{i, k, f, t, d, b}
	}
	return rows
}

func sortArrowRows(t testing.TB, rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		c := append([]any(nil), r...)
		if s, ok := c[4].(string); ok {
			c[4] = dec(t, s, 2)
		}
		out[i] = c
	}
	return out
}

type sortCase struct {
	name    string
	keys    []SortKey
	orderBy string // PostgreSQL's ORDER BY for the same keys
}

func sortCases() []sortCase {
	return []sortCase{
		{"int-asc", []SortKey{{Column: 1}}, "k"},
		{"int-desc-nulls-last", []SortKey{{Column: 1, Desc: true}}, "k DESC NULLS LAST"},
		{"int-asc-nulls-first", []SortKey{{Column: 1, NullsFirst: true}}, "k NULLS FIRST"},
		{"float", []SortKey{{Column: 2}}, "f"},
		{"float-desc", []SortKey{{Column: 2, Desc: true, NullsFirst: true}}, "f DESC"},
		{"text", []SortKey{{Column: 3}}, "t COLLATE \"C\""},
		{"text-desc", []SortKey{{Column: 3, Desc: true, NullsFirst: true}}, "t COLLATE \"C\" DESC"},
		{"numeric-int", []SortKey{{Column: 4, Desc: true}, {Column: 1, NullsFirst: true}}, "d DESC NULLS LAST, k NULLS FIRST"},
		{"multi", []SortKey{{Column: 3}, {Column: 2, Desc: true}, {Column: 5}}, "t COLLATE \"C\", f DESC NULLS LAST, b"},
		{"bigint", []SortKey{{Column: 5}}, "b"},
	}
}

func runSort(t testing.TB, rows [][]any, keys []SortKey, mem *MemoryAccount, dir string, batch int) (*Sort, []string, error) {
	op := &Sort{Input: rowsSource(t, schemaOf(sortTypes...), sortArrowRows(t, rows), batch), Keys: keys, Mem: mem, SpillDir: dir, BatchRows: 100}
	got, err := drainErr(op)
	return op, got, err
}

func TestSortSpillMatchesInMemory(t *testing.T) {
	t.Parallel()
	for _, skew := range []bool{false, true} {
		rows := sortRows(1500, 5, skew)
		for _, c := range sortCases() {
			t.Run(fmt.Sprintf("%s/skew=%v", c.name, skew), func(t *testing.T) {
				inMem, want, err := runSort(t, rows, c.keys, nil, "", 333)
				if err != nil {
					t.Fatal(err)
				}
				if inMem.StallNs() != 0 {
					t.Errorf("a sort in memory reports stall %d ns", inMem.StallNs())
				}
				if len(want) != len(rows) {
					t.Fatalf("got %d rows, want %d", len(want), len(rows))
				}
				dir := tempDir(t)
				mem := NewMemoryAccount(8 << 10)
				op, got, err := runSort(t, rows, c.keys, mem, dir, 333)
				if err != nil {
					t.Fatal(err)
				}
				equalRows(t, c.name, got, want)
				if !op.Spilled() {
					t.Error("no spill under an 8 KiB limit")
				}
				// the time its runs waited on the disk is its stall
				if op.StallNs() <= 0 {
					t.Errorf("a spilled sort reports stall %d ns", op.StallNs())
				}
				if n := spillFiles(t, dir); n != 0 {
					t.Errorf("%d spill files left", n)
				}
				if mem.Used() != 0 {
					t.Errorf("account holds %d bytes after Close", mem.Used())
				}
			})
		}
	}
}

func TestSortEmptyAndErrors(t *testing.T) {
	t.Parallel()
	_, got, err := runSort(t, nil, []SortKey{{Column: 1}}, nil, "", 10)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty input: %v %v", got, err)
	}
	_, _, err = runSort(t, sortRows(2000, 1, false), []SortKey{{Column: 1}}, NewMemoryAccount(4<<10), "", 100)
	if sqlerr.CodeOf(err) != sqlerr.OutOfMemory {
		t.Fatalf("no spill dir: got %v, want 53200", err)
	}
}

func TestTopN(t *testing.T) {
	t.Parallel()
	rows := sortRows(1000, 9, true)
	for _, c := range sortCases() {
		_, all, err := runSort(t, rows, c.keys, nil, "", 256)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int64{0, 1, 100, 5000} {
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				op := &TopN{Input: rowsSource(t, schemaOf(sortTypes...), sortArrowRows(t, rows), 64), Keys: c.keys, N: n, Mem: NewMemoryAccount(1 << 20), BatchRows: 50}
				got := drain(t, op)
				equalRows(t, "topn", got, all[:min(int(n), len(all))])
			})
		}
	}
}

func TestRadixSortStable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]keyRow, 5000)
	for i := range a {
		a[i] = keyRow{uint64(rng.IntN(50)) << 40, uint32(i)}
	}
	radixSort(a)
	for i := 1; i < len(a); i++ {
		if a[i-1].key > a[i].key || (a[i-1].key == a[i].key && a[i-1].row > a[i].row) {
			t.Fatalf("not stably sorted at %d", i)
		}
	}
}

var _ arrow.DataType
