package relop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func winOp(t testing.TB, rows [][]any, c winCase, batch int, mem *MemoryAccount, dir string) *Window {
	in := schemaOf(winTypes...)
	keys := append([]SortKey{{Column: 1}}, c.orderBy()...)
	sorted := &rechunk{Operator: &Sort{Input: rowsSource(t, in, rows, batch), Keys: keys}, rows: int64(batch)}
	var arg types.T
	if c.spec.Arg >= 0 {
		arg = winTypes[c.spec.Arg]
	}
	rt, err := WindowResultType(c.spec.Func, arg)
	if err != nil {
		t.Fatal(err)
	}
	outTypes := append(append([]types.T(nil), winTypes...), rt)
	return &Window{Input: sorted, PartitionBy: []int{1}, OrderBy: c.orderBy(), Funcs: []WindowSpec{c.spec},
		Out: schemaOf(outTypes...), Mem: mem, SpillDir: dir}
}

func spillCases() []winCase {
	withFrame := func(s WindowSpec, f *Frame) WindowSpec { s.Frame = f; return s }
	lagC := wf("lag", 3)
	lagC.Offset = 6
	nthWhole := wf("nth_value", 4)
	nthWhole.Offset = 5
	nthWhole.Frame = fr(FrameRange, unbPre, unbFol)
	return append(winCases(),
		winCase{"sum-whole-rows", false, false, withFrame(wf("sum", 3), fr(FrameRows, unbPre, unbFol)), "sum(v)", "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"},
		winCase{"avg-whole-range", true, false, withFrame(wf("avg", 4), fr(FrameRange, unbPre, unbFol)), "avg(f)", "RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"},
		winCase{"count-rows-running", false, true, withFrame(wf("count", 3), fr(FrameRows, unbPre, cur)), "count(v)", "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"},
		winCase{"max-rows-ahead", false, false, withFrame(wf("max", 3), fr(FrameRows, unbPre, fol(3))), "max(v)", "ROWS BETWEEN UNBOUNDED PRECEDING AND 3 FOLLOWING"},
		winCase{"last_value-peers", true, false, wf("last_value", 0), "last_value(id)", ""},
		winCase{"first_value-current", true, true, withFrame(wf("first_value", 0), fr(FrameRange, cur, unbFol)), "first_value(id)", "RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING"},
		winCase{"last_value-sliding", false, false, withFrame(wf("last_value", 3), fr(FrameRows, pre(2), fol(1))), "last_value(v)", "ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING"},
		winCase{"nth_value-whole", true, false, nthWhole, "nth_value(f, c3)", "RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"},
		winCase{"lag-2", false, false, lagC, "lag(v, c2)", ""},
		winCase{"cume_dist-asc", true, false, wf("cume_dist", -1), "cume_dist()", ""},
		winCase{"percent_rank-desc", true, true, wf("percent_rank", -1), "percent_rank()", ""},
		winCase{"ntile-peers", true, false, wf("ntile", 6), "ntile(c2)", ""},
		// sliding frames, recomputed from a buffer of the frame
		winCase{"min-rows-behind", false, false, withFrame(wf("min", 3), fr(FrameRows, pre(3), pre(1))), "min(v)", "ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING"},
		winCase{"count-rows-ahead", false, true, withFrame(wf("count", -1), fr(FrameRows, fol(2), fol(5))), "count(*)", "ROWS BETWEEN 2 FOLLOWING AND 5 FOLLOWING"},
		winCase{"avg-peers-only", true, false, withFrame(wf("avg", 3), fr(FrameRange, cur, cur)), "avg(v)", "RANGE BETWEEN CURRENT ROW AND CURRENT ROW"},
		winCase{"max-rows-window", true, true, withFrame(wf("max", 4), fr(FrameRows, cur, fol(40))), "max(f)", "ROWS BETWEEN CURRENT ROW AND 40 FOLLOWING"},
		winCase{"sum-range-ahead", true, false, withFrame(wf("sum", 3), fr(FrameRange, unbPre, fol(2))), "sum(v)", "RANGE BETWEEN UNBOUNDED PRECEDING AND 2 FOLLOWING"},
		winCase{"min-range-sliding-desc", true, true, withFrame(wf("min", 3), fr(FrameRange, pre(1), fol(2))), "min(v)", "RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING"},
		winCase{"sum-rows-wide", false, false, withFrame(wf("sum", 3), fr(FrameRows, pre(300), fol(300))), "sum(v)", "ROWS BETWEEN 300 PRECEDING AND 300 FOLLOWING"},
	)
}

// TestWindowSpill: with a tiny memory limit the big partition spills and
// every function that can stream gives the unlimited run's answer; the
// others fail with 53200 naming the function. No spill file survives.
//
// 1,200 rows: every one of the 7 partitions spills (8 KiB limit) in three
// of the four skew/batch runs, and the skewed one (~1,050 rows) is longer
// than the widest frame (601 rows, 300 PRECEDING to 300 FOLLOWING), so
// every frame slides through it; 3,000 rows crossed nothing more (the
// skewed run with 128-row batches spilled its second partition too, which
// the other runs' seven spills cover) and cost 2.5 times as much, most of
// exec/relop's time under the race detector (batches of 7 rows through
// Arrow IPC files).
func TestWindowSpill(t *testing.T) {
	t.Parallel()
	for _, skew := range []bool{false, true} {
		rows := winRows(1200, 7, skew)
		for _, c := range spillCases() {
			want, err := runWindow(t, rows, c, 1000, nil)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for _, batch := range []int{7, 128} {
				dir := tempDir(t)
				op := winOp(t, rows, c, batch, NewMemoryAccount(8<<10), dir)
				got, err := drainErr(op)
				what := fmt.Sprintf("%s/skew=%v/batch=%d", c.name, skew, batch)
				if n := spillFiles(t, dir); n != 0 {
					t.Errorf("%s: %d spill files left", what, n)
				}
				if !winSpillable(c.spec) {
					if sqlerr.CodeOf(err) != sqlerr.OutOfMemory || !strings.Contains(err.Error(), c.spec.Func) {
						t.Errorf("%s: got %v, want 53200 naming %s", what, err, c.spec.Func)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if op.Spills() == 0 {
					t.Errorf("%s: nothing spilled", what)
				}
				for i, r := range got {
					cells := strings.Split(r, "|")
					got[i] = cells[0] + "|" + cells[len(cells)-1]
				}
				equalRows(t, what, sorted(got), sorted(want))
			}
		}
	}
}

// TestWindowSpillNonConstantOffset: lag with a per-row offset cannot stream.
func TestWindowSpillNonConstantOffset(t *testing.T) {
	t.Parallel()
	rows := winRows(2000, 3, true)
	for i, r := range rows {
		r[6] = i % 3
	}
	lag := wf("lag", 3)
	lag.Offset = 6
	dir := tempDir(t)
	op := winOp(t, rows, winCase{spec: lag}, 50, NewMemoryAccount(8<<10), dir)
	_, err := drainErr(op)
	if sqlerr.CodeOf(err) != sqlerr.OutOfMemory || !strings.Contains(err.Error(), "lag") {
		t.Fatalf("got %v, want 53200 naming lag", err)
	}
	if n := spillFiles(t, dir); n != 0 {
		t.Errorf("%d spill files left", n)
	}
}

// TestWindowSpillCancel: cancelling while the partition spills or is
// emitted returns the context's error and removes the files.
func TestWindowSpillCancel(t *testing.T) {
	t.Parallel()
	rows := winRows(5000, 5, true)
	for _, after := range []int{0, 1, 3} {
		dir := tempDir(t)
		op := winOp(t, rows, winCase{peers: true, spec: wf("sum", 3)}, 64, NewMemoryAccount(8<<10), dir)
		ctx, cancel := context.WithCancel(context.Background())
		var err error
		for i := 0; ; i++ {
			if i == after {
				cancel()
			}
			b, e := op.Next(ctx)
			if e != nil || b == nil {
				err = e
				break
			}
			b.Release()
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("after %d: got %v, want context.Canceled", after, err)
		}
		op.Close()
		cancel()
		if n := spillFiles(t, dir); n != 0 {
			t.Errorf("after %d: %d spill files left", after, n)
		}
	}
}

// rechunk cuts its input's batches into batches of at most rows rows, so
// that a partition reaches Window over many batches.
type rechunk struct {
	exec.Operator
	rows int64
	cur  arrow.RecordBatch
	off  int64
}

func (r *rechunk) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for r.cur == nil || r.off >= r.cur.NumRows() {
		if r.cur != nil {
			r.cur.Release()
			r.cur = nil
		}
		b, err := r.Operator.Next(ctx)
		if err != nil || b == nil {
			return nil, err
		}
		r.cur, r.off = b, 0
	}
	end := min(r.off+r.rows, r.cur.NumRows())
	out := r.cur.NewSlice(r.off, end)
	r.off = end
	return out, nil
}

func (r *rechunk) Close() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.Operator.Close()
}

// TestWindowSpillSeveralFuncs: one Window computing several functions over
// a spilled partition lines their columns up with the rows.
func TestWindowSpillSeveralFuncs(t *testing.T) {
	t.Parallel()
	rows := winRows(4000, 11, true)
	lead := wf("lead", 3)
	lead.Offset, lead.Default = 6, 7
	funcs := []WindowSpec{wf("rank", -1), wf("sum", 3), lead, wf("last_value", 0), wf("cume_dist", -1)}
	outTypes := append([]types.T(nil), winTypes...)
	for _, f := range funcs {
		var arg types.T
		if f.Arg >= 0 {
			arg = winTypes[f.Arg]
		}
		rt, err := WindowResultType(f.Func, arg)
		if err != nil {
			t.Fatal(err)
		}
		outTypes = append(outTypes, rt)
	}
	order := []SortKeySpec{{Column: 2}}
	run := func(mem *MemoryAccount, dir string) (*Window, []string, error) {
		in := schemaOf(winTypes...)
		src := &rechunk{Operator: &Sort{Input: rowsSource(t, in, rows, 100), Keys: append([]SortKey{{Column: 1}}, order...)}, rows: 33}
		op := &Window{Input: src, PartitionBy: []int{1}, OrderBy: order, Funcs: funcs, Out: schemaOf(outTypes...), Mem: mem, SpillDir: dir}
		got, err := drainErr(op)
		return op, got, err
	}
	_, want, err := run(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := tempDir(t)
	mem := NewMemoryAccount(16 << 10)
	op, got, err := run(mem, dir)
	if err != nil {
		t.Fatal(err)
	}
	// every byte charged (forced cursor batches included) is given back
	if mem.Used() != 0 {
		t.Errorf("%d bytes still charged after the query", mem.Used())
	}
	if op.Spills() == 0 {
		t.Error("nothing spilled")
	}
	if n := spillFiles(t, dir); n != 0 {
		t.Errorf("%d spill files left", n)
	}
	equalRows(t, "several", sorted(got), sorted(want))
}
