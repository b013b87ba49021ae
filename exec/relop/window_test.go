package relop

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// window table w(id, p, o, v, f, c3, c2, cm1): partition p (NULLs, skew),
// order o (duplicates, NULLs), constants for ntile / offsets / defaults.
var winTypes = []types.T{types.Int32Type, types.Int32Type, types.Int32Type, types.Int64Type, types.Float64Type, types.Int32Type, types.Int32Type, types.Int64Type}
var winPGCols = []string{"id int", "p int", "o int", "v bigint", "f double precision", "c3 int", "c2 int", "cm1 bigint"}

func winRows(n int, seed uint64, skew bool) [][]any {
	rng := rand.New(rand.NewPCG(seed, 9))
	rows := make([][]any, n)
	for i := range rows {
		var p any = rng.IntN(6)
		if skew && rng.IntN(10) < 9 {
			p = 2
		}
		if rng.IntN(20) == 0 {
			p = nil
		}
		var o any = rng.IntN(15)
		if rng.IntN(12) == 0 {
			o = nil
		}
		var v any = rng.IntN(100) - 30
		if rng.IntN(10) == 0 {
			v = nil
		}
		var f any = float64(rng.IntN(40)) / 4
		if rng.IntN(10) == 0 {
			f = nil
		}
		rows[i] = []any{i, p, o, v, f, 3, 2, -1}
	}
	return rows
}

type winCase struct {
	name  string
	peers bool // ORDER BY o (peers) rather than o, id
	desc  bool
	spec  WindowSpec
	sql   string // the window function call, without OVER
	frame string // PostgreSQL's frame clause
}

func fr(mode FrameMode, s, e FrameBound) *Frame { return &Frame{Mode: mode, Start: s, End: e} }

var (
	unbPre = FrameBound{Kind: UnboundedPreceding}
	unbFol = FrameBound{Kind: UnboundedFollowing}
	cur    = FrameBound{Kind: CurrentRow}
	pre    = func(n int64) FrameBound { return FrameBound{Kind: Preceding, Offset: n} }
	fol    = func(n int64) FrameBound { return FrameBound{Kind: Following, Offset: n} }
)

func wf(fn string, arg int) WindowSpec {
	return WindowSpec{Func: fn, Arg: arg, Offset: -1, Default: -1}
}

func winCases() []winCase {
	lead := wf("lead", 3)
	lead.Offset, lead.Default = 6, 7
	lag0 := wf("lag", 4)
	nth := wf("nth_value", 3)
	nth.Offset = 6
	nth.Frame = fr(FrameRows, pre(1), fol(1))
	withFrame := func(s WindowSpec, f *Frame) WindowSpec { s.Frame = f; return s }
	return []winCase{
		{"rank", true, false, wf("rank", -1), "rank()", ""},
		{"dense_rank", true, false, wf("dense_rank", -1), "dense_rank()", ""},
		{"percent_rank", true, false, wf("percent_rank", -1), "percent_rank()", ""},
		{"cume_dist", true, true, wf("cume_dist", -1), "cume_dist()", ""},
		{"sum-default", true, false, wf("sum", 3), "sum(v)", ""},
		{"count-star", true, false, wf("count", -1), "count(*)", ""},
		{"count-avg", true, false, wf("avg", 3), "avg(v)", ""},
		{"min-max", true, true, wf("max", 4), "max(f)", ""},
		{"min", true, false, wf("min", 3), "min(v)", ""},
		{"range-offsets", true, false, withFrame(wf("sum", 3), fr(FrameRange, pre(2), fol(1))), "sum(v)", "RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING"},
		{"range-offsets-desc", true, true, withFrame(wf("count", 3), fr(FrameRange, pre(3), pre(1))), "count(v)", "RANGE BETWEEN 3 PRECEDING AND 1 PRECEDING"},
		{"range-current-unbounded", true, false, withFrame(wf("max", 4), fr(FrameRange, cur, unbFol)), "max(f)", "RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING"},
		{"row_number", false, false, wf("row_number", -1), "row_number()", ""},
		{"ntile", false, false, wf("ntile", 5), "ntile(c3)", ""},
		{"lag", false, false, wf("lag", 3), "lag(v)", ""},
		{"lead-offset-default", false, true, lead, "lead(v, c2, cm1)", ""},
		{"lag-float", false, false, lag0, "lag(f)", ""},
		{"first_value", false, false, wf("first_value", 3), "first_value(v)", ""},
		{"last_value", false, false, wf("last_value", 3), "last_value(v)", ""},
		{"nth_value", false, false, nth, "nth_value(v, c2)", "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING"},
		{"rows-sliding-sum", false, false, withFrame(wf("sum", 3), fr(FrameRows, pre(1), fol(1))), "sum(v)", "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING"},
		{"rows-lagging-avg", false, false, withFrame(wf("avg", 4), fr(FrameRows, unbPre, pre(2))), "avg(f)", "ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING"},
		{"rows-tail-count", false, true, withFrame(wf("count", -1), fr(FrameRows, fol(2), unbFol)), "count(*)", "ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING"},
		{"last-value-whole", false, false, withFrame(wf("last_value", 4), fr(FrameRows, unbPre, unbFol)), "last_value(f)", "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"},
		// GROUPS counts peer groups; without offsets it is RANGE's frame
		{"groups-sum-around", true, false, withFrame(wf("sum", 3), fr(FrameGroups, pre(1), fol(2))), "sum(v)", "GROUPS BETWEEN 1 PRECEDING AND 2 FOLLOWING"},
		{"groups-count-behind-desc", true, true, withFrame(wf("count", -1), fr(FrameGroups, pre(3), pre(1))), "count(*)", "GROUPS BETWEEN 3 PRECEDING AND 1 PRECEDING"},
		{"groups-running", true, false, withFrame(wf("max", 4), fr(FrameGroups, unbPre, cur)), "max(f)", "GROUPS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"},
		// EXCLUDE: whole peer groups in the frame keep the answers independent of peer order
		{"range-exclude-ties", true, false, withFrame(wf("sum", 3), excl(fr(FrameRange, unbPre, cur), ExcludeTies)), "sum(v)", "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES"},
		{"groups-exclude-group", true, true, withFrame(wf("count", 3), excl(fr(FrameGroups, pre(1), fol(1)), ExcludeGroup)), "count(v)", "GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP"},
		{"rows-exclude-current", false, false, withFrame(wf("first_value", 3), excl(fr(FrameRows, pre(1), fol(1)), ExcludeCurrentRow)), "first_value(v)", "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW"},
		{"rows-exclude-current-last", false, true, withFrame(wf("last_value", 3), excl(fr(FrameRows, pre(2), cur), ExcludeCurrentRow)), "last_value(v)", "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW"},
	}
}

// excl is f with an EXCLUDE clause.
func excl(f *Frame, e Exclusion) *Frame { f.Exclude = e; return f }

func (c winCase) orderBy() []SortKeySpec {
	o := SortKeySpec{Column: 2, Desc: c.desc, NullsFirst: c.desc}
	if c.peers {
		return []SortKeySpec{o}
	}
	return []SortKeySpec{o, {Column: 0}}
}

func (c winCase) pgSQL() string {
	dir := ""
	if c.desc {
		dir = " DESC"
	}
	order := "o" + dir
	if !c.peers {
		order += ", id"
	}
	return fmt.Sprintf("SELECT id, %s OVER (PARTITION BY p ORDER BY %s %s) FROM w", c.sql, order, c.frame)
}

func runWindow(t testing.TB, rows [][]any, c winCase, batch int, mem *MemoryAccount) ([]string, error) {
	in := schemaOf(winTypes...)
	keys := append([]SortKey{{Column: 1}}, c.orderBy()...)
	sorted := &Sort{Input: rowsSource(t, in, rows, batch), Keys: keys}
	var arg types.T
	if c.spec.Arg >= 0 {
		arg = winTypes[c.spec.Arg]
	}
	rt, err := WindowResultType(c.spec.Func, arg)
	if err != nil {
		t.Fatal(err)
	}
	outTypes := append(append([]types.T(nil), winTypes...), rt)
	op := &Window{Input: sorted, PartitionBy: []int{1}, OrderBy: c.orderBy(), Funcs: []WindowSpec{c.spec}, Out: schemaOf(outTypes...), Mem: mem}
	got, err := drainErr(op)
	if err != nil {
		return nil, err
	}
	// keep id and the result
	for i, r := range got {
		cells := strings.Split(r, "|")
		got[i] = cells[0] + "|" + cells[len(cells)-1]
	}
	return got, nil
}

func TestWindowBatchingInvariant(t *testing.T) {
	t.Parallel()
	// results must not depend on where batches split partitions
	for _, skew := range []bool{false, true} {
		rows := winRows(300, 3, skew)
		for _, c := range winCases() {
			want, err := runWindow(t, rows, c, 1000, nil)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for _, batch := range []int{3, 64} {
				got, err := runWindow(t, rows, c, batch, NewMemoryAccount(1<<20))
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				equalRows(t, fmt.Sprintf("%s/batch=%d", c.name, batch), sorted(got), sorted(want))
			}
		}
	}
}

func TestWindowEdgeCases(t *testing.T) {
	t.Parallel()
	c := winCases()[0]
	if got, err := runWindow(t, nil, c, 10, nil); err != nil || len(got) != 0 {
		t.Fatalf("empty input: %v %v", got, err)
	}
	// a partition that exceeds the memory limit
	if _, err := runWindow(t, winRows(3000, 1, true), c, 100, NewMemoryAccount(4<<10)); sqlerr.CodeOf(err) != sqlerr.OutOfMemory {
		t.Fatalf("got %v, want 53200", err)
	}
	// ntile(0)
	rows := winRows(10, 1, false)
	for _, r := range rows {
		r[5] = 0
	}
	bad := winCase{spec: wf("ntile", 5), peers: true}
	if _, err := runWindow(t, rows, bad, 10, nil); sqlerr.CodeOf(err) != "22014" {
		t.Fatalf("ntile(0): %v", err)
	}
}

var _ arrow.DataType
