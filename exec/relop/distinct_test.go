package relop

import (
	"fmt"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// distinct/set-op data reuse the sort table: (id, k, f, t, d, b); columns
// 1..3 (k, f, t) have many duplicates, NULLs, NaN and -0.
func projectRows(rows [][]any, cols ...int) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		for _, c := range cols {
			out[i] = append(out[i], r[c])
		}
	}
	return out
}

var kftTypes = []types.T{types.Int32Type, types.Float64Type, types.StringType}

func TestDistinct(t *testing.T) {
	t.Parallel()
	for _, skew := range []bool{false, true} {
		rows := projectRows(sortRows(1200, 41, skew), 1, 2, 3)
		for _, cols := range [][]int{nil, {0}, {1}, {2, 0}} {
			t.Run(fmt.Sprintf("skew=%v/cols=%v", skew, cols), func(t *testing.T) {
				want := drain(t, &Distinct{Input: rowsSource(t, schemaOf(kftTypes...), rows, 128), Columns: cols})
				dir := tempDir(t)
				mem := NewMemoryAccount(2 << 10)
				op := &Distinct{Input: rowsSource(t, schemaOf(kftTypes...), rows, 128), Columns: cols, Mem: mem, SpillDir: dir}
				got := drain(t, op)
				equalRows(t, "spilled", sorted(got), sorted(want))
				if !op.Spilled() && cols == nil {
					t.Error("no spill under 2 KiB")
				}
				if spillFiles(t, dir) != 0 || mem.Used() != 0 {
					t.Errorf("leftovers: %d files, %d bytes", spillFiles(t, dir), mem.Used())
				}
				// streaming keeps first occurrences: every distinct value once
				seen := map[string]bool{}
				for _, r := range want {
					if seen[r] && cols == nil {
						t.Fatalf("duplicate %q", r)
					}
					seen[r] = true
				}
			})
		}
	}
	if got := drain(t, &Distinct{Input: rowsSource(t, schemaOf(kftTypes...), nil, 10)}); len(got) != 0 {
		t.Fatalf("empty input: %v", got)
	}
}

func TestDistinctOn(t *testing.T) {
	t.Parallel()
	rows := sortRows(2000, 43, true)
	// DISTINCT ON (k) ... ORDER BY k, id keeps the smallest id per k
	sorted := &Sort{Input: rowsSource(t, schemaOf(sortTypes...), sortArrowRows(t, rows), 100), Keys: []SortKey{{Column: 1}, {Column: 0}}}
	got := drain(t, &DistinctOn{Input: sorted, Keys: []int{1}})
	minID := map[any]int{}
	for _, r := range rows {
		if id, ok := minID[r[1]]; !ok || r[0].(int) < id {
			minID[r[1]] = r[0].(int)
		}
	}
	if len(got) != len(minID) {
		t.Fatalf("got %d groups, want %d", len(got), len(minID))
	}
}

type setOpCase struct {
	kind SetOpKind
	all  bool
	sql  string
}

func setOpCases() []setOpCase {
	return []setOpCase{
		{Union, false, "UNION"}, {Union, true, "UNION ALL"},
		{Intersect, false, "INTERSECT"}, {Intersect, true, "INTERSECT ALL"},
		{Except, false, "EXCEPT"}, {Except, true, "EXCEPT ALL"},
	}
}

func runSetOp(t testing.TB, l, r [][]any, c setOpCase, mem *MemoryAccount, dir string) []string {
	s := schemaOf(kftTypes...)
	return drain(t, &SetOp{Left: rowsSource(t, s, l, 50), Right: rowsSource(t, s, r, 70), Kind: c.kind, All: c.all, Mem: mem, SpillDir: dir})
}

func TestSetOp(t *testing.T) {
	t.Parallel()
	l := [][]any{{1, 1.0, "a"}, {1, 1.0, "a"}, {1, 1.0, "a"}, {2, nil, nil}, {2, nil, nil}, {3, 0.0, "c"}}
	r := [][]any{{1, 1.0, "a"}, {1, 1.0, "a"}, {2, nil, nil}, {4, 4.0, "d"}}
	want := map[string][]string{
		"UNION":         {"1|1|a", "2|NULL|NULL", "3|0|c", "4|4|d"},
		"UNION ALL":     {"1|1|a", "1|1|a", "1|1|a", "1|1|a", "1|1|a", "2|NULL|NULL", "2|NULL|NULL", "2|NULL|NULL", "3|0|c", "4|4|d"},
		"INTERSECT":     {"1|1|a", "2|NULL|NULL"},
		"INTERSECT ALL": {"1|1|a", "1|1|a", "2|NULL|NULL"},
		"EXCEPT":        {"3|0|c"},
		"EXCEPT ALL":    {"1|1|a", "2|NULL|NULL", "3|0|c"},
	}
	for _, c := range setOpCases() {
		equalRows(t, c.sql, sorted(runSetOp(t, l, r, c, nil, "")), want[c.sql])
		var wantEmpty []string
		switch c.sql {
		case "UNION", "EXCEPT":
			wantEmpty = []string{"1|1|a", "2|NULL|NULL", "3|0|c"}
		case "UNION ALL", "EXCEPT ALL":
			wantEmpty = []string{"1|1|a", "1|1|a", "1|1|a", "2|NULL|NULL", "2|NULL|NULL", "3|0|c"}
		}
		equalRows(t, c.sql+" empty right", sorted(runSetOp(t, l, nil, c, nil, "")), wantEmpty)
		if got := runSetOp(t, nil, r, c, nil, ""); (c.kind != Union && len(got) != 0) || (c.kind == Union && len(got) == 0) {
			t.Errorf("%s with empty left: %v", c.sql, got)
		}
	}
	// -0 and +0, NaN and NaN are the same row
	z := [][]any{{1, 0.0, "x"}}
	nz := [][]any{{1, -0.0 * 1, "x"}}
	if got := runSetOp(t, z, nz, setOpCase{Intersect, false, ""}, nil, ""); len(got) != 1 {
		t.Fatalf("0 INTERSECT -0: %v", got)
	}
}
