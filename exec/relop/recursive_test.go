package relop

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// stepOp is a recursive term over a one-bigint-column working table: each
// row n becomes f(n) rows (next returns them; none drops the row).
type stepOp struct {
	in   exec.Operator
	next func(n int64) []int64
}

func (o *stepOp) Schema() *arrow.Schema { return o.in.Schema() }
func (o *stepOp) Close()                { o.in.Close() }
func (o *stepOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		b, err := o.in.Next(ctx)
		if err != nil || b == nil {
			return b, err
		}
		col := b.Column(0).(*array.Int64)
		bld := array.NewInt64Builder(memory.DefaultAllocator)
		for i := 0; i < col.Len(); i++ {
			for _, v := range o.next(col.Value(i)) {
				bld.Append(v)
			}
		}
		b.Release()
		arr := bld.NewArray()
		bld.Release()
		if arr.Len() == 0 {
			arr.Release()
			continue
		}
		out := array.NewRecordBatch(o.in.Schema(), []arrow.Array{arr}, int64(arr.Len()))
		arr.Release()
		return out, nil
	}
}

// recursion builds a RecursiveUnion over the non-recursive rows start
// whose recursive term maps each working-table row by next.
func recursion(t testing.TB, start []int64, all bool, next func(int64) []int64) *RecursiveUnion {
	s := schemaOf(types.Int64Type)
	rows := make([][]any, len(start))
	for i, v := range start {
		rows[i] = []any{int(v)}
	}
	wt := NewWorkTable()
	return &RecursiveUnion{Name: "t", NonRec: rowsSource(t, s, rows, 1000), WT: wt, Out: s, All: all,
		BuildRec: func() (exec.Operator, error) {
			return &stepOp{in: &WorkTableScan{WT: wt, Out: s}, next: next}, nil
		}}
}

func intRows(t testing.TB, rows []string) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		v, err := strconv.ParseInt(r, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = v
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func upTo(limit int64) func(int64) []int64 {
	return func(n int64) []int64 {
		if n >= limit {
			return nil
		}
		return []int64{n + 1}
	}
}

// TestRecursiveUnionIterates: UNION ALL counts; UNION ends on a cycle and
// drops the rows seen before, in the non-recursive term too.
func TestRecursiveUnionIterates(t *testing.T) {
	t.Parallel()
	op := recursion(t, []int64{1}, true, upTo(500))
	got := intRows(t, drain(t, op))
	if len(got) != 500 || got[0] != 1 || got[499] != 500 {
		t.Fatalf("UNION ALL 1..500: %d rows, %v..%v", len(got), got[0], got[len(got)-1])
	}
	if op.Iterations() != 500 { // the 500th run produced nothing
		t.Errorf("iterations = %d, want 500", op.Iterations())
	}
	// a cycle 0 -> 1 -> ... -> 9 -> 0, and its duplicates in the start rows
	ring := func(n int64) []int64 { return []int64{(n + 1) % 10, (n + 1) % 10} }
	got = intRows(t, drain(t, recursion(t, []int64{3, 3, 4}, false, ring)))
	if len(got) != 10 {
		t.Fatalf("UNION over a ring of 10: %v", got)
	}
	for i, v := range got {
		if v != int64(i) {
			t.Fatalf("UNION over a ring of 10: %v", got)
		}
	}
	// UNION ALL keeps the duplicates the term produces
	got = intRows(t, drain(t, recursion(t, []int64{1, 1}, true, upTo(3))))
	if len(got) != 6 {
		t.Errorf("UNION ALL with duplicate rows: %v", got)
	}
}

// TestRecursiveUnionSpills: working tables larger than the memory limit go
// to disk and come back whole; the files are gone after Close. Without a
// spill directory the limit is a 53200 error, as it is for UNION's set of
// rows seen, which cannot spill.
func TestRecursiveUnionSpills(t *testing.T) {
	t.Parallel()
	start := make([]int64, 20000)
	for i := range start {
		start[i] = int64(i) * 100
	}
	step := func(n int64) []int64 {
		if n%100 >= 5 {
			return nil
		}
		return []int64{n + 1}
	}
	dir := tempDir(t)
	op := recursion(t, start, true, step)
	op.Mem, op.SpillDir = NewMemoryAccount(64<<10), dir
	got := intRows(t, drain(t, op))
	if len(got) != 6*len(start) {
		t.Fatalf("got %d rows, want %d", len(got), 6*len(start))
	}
	for i, v := range got {
		if want := int64(i/6)*100 + int64(i%6); v != want {
			t.Fatalf("row %d = %d, want %d", i, v, want)
		}
	}
	if !op.Spilled() {
		t.Error("a 20000-row working table within 64 KiB did not spill")
	}
	if n := spillFiles(t, dir); n != 0 {
		t.Errorf("%d spill files left after Close", n)
	}
	if op.Mem.Used() != 0 {
		t.Errorf("%d bytes still charged after Close", op.Mem.Used())
	}

	op = recursion(t, start, true, step)
	op.Mem = NewMemoryAccount(64 << 10)
	if _, err := drainErr(op); sqlerr.As(err) == nil || sqlerr.As(err).Code != sqlerr.OutOfMemory {
		t.Errorf("without a spill directory: %v, want 53200", err)
	}
	op = recursion(t, start, false, step)
	op.Mem, op.SpillDir = NewMemoryAccount(64<<10), dir
	if _, err := drainErr(op); sqlerr.As(err) == nil || sqlerr.As(err).Code != sqlerr.OutOfMemory {
		t.Errorf("UNION's set of rows past the limit: %v, want 53200", err)
	}
	if n := spillFiles(t, dir); n != 0 {
		t.Errorf("%d spill files left after an error", n)
	}
}

// TestRecursiveUnionBound: a recursion that never ends fails after
// MaxIterations with 54000, and stops when its reader stops pulling.
func TestRecursiveUnionBound(t *testing.T) {
	t.Parallel()
	forever := func(n int64) []int64 { return []int64{n + 1} }
	op := recursion(t, []int64{1}, true, forever)
	op.MaxIterations = 1000
	rows, err := drainErr(op)
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.ProgramLimitExceeded {
		t.Fatalf("unbounded recursion: %v, want 54000", err)
	}
	if len(rows) != 1001 {
		t.Errorf("%d rows before the error, want 1001", len(rows))
	}
	// a LIMIT above it: pull a few rows and close
	op = recursion(t, []int64{1}, true, forever)
	for i := 0; i < 5; i++ {
		b, err := op.Next(context.Background())
		if err != nil || b == nil {
			t.Fatalf("row %d: %v %v", i, b, err)
		}
		b.Release()
	}
	op.Close()
	op.Close()
}

// TestRecursiveUnionCancel: cancel and a statement timeout reach an
// unbounded recursion (each iteration checks the context).
func TestRecursiveUnionCancel(t *testing.T) {
	t.Parallel()
	forever := func(n int64) []int64 { return []int64{n + 1} }
	ctx, cancel := context.WithCancel(context.Background())
	op := recursion(t, []int64{1}, true, forever)
	for i := 0; i < 10; i++ {
		b, err := op.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
	}
	cancel()
	if _, err := op.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next after cancel = %v", err)
	}
	op.Close()

	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	op = recursion(t, []int64{1}, false, forever)
	done := make(chan error, 1)
	go func() {
		defer op.Close()
		for {
			b, err := op.Next(ctx)
			if err != nil || b == nil {
				done <- err
				return
			}
			b.Release()
		}
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("after the timeout: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the recursion did not stop at its context's deadline")
	}
}
