package relop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// join test tables: l(id int, k int, s text, v int) and r(id int, k int, s text, w int)
var joinTypes = []types.T{types.Int32Type, types.Int32Type, types.StringType, types.Int32Type}

func joinRows(n int, seed uint64, keys int, skew bool, nulls bool) [][]any {
	rng := rand.New(rand.NewPCG(seed, 5))
	rows := make([][]any, n)
	for i := range rows {
		var k any = rng.IntN(keys)
		if skew && rng.IntN(10) < 9 {
			k = 1
		}
		if nulls && rng.IntN(12) == 0 {
			k = nil
		}
		var s any = fmt.Sprintf("x%d", rng.IntN(3))
		if nulls && rng.IntN(15) == 0 {
			s = nil
		}
		rows[i] = []any{i, k, s, rng.IntN(100)}
	}
	return rows
}

type joinCase struct {
	name      string
	typ       JoinType
	lk, rk    []int
	residual  bool
	nullAware bool
	sql       string
}

func joinCases() []joinCase {
	var cs []joinCase
	for _, typ := range []JoinType{InnerJoin, LeftJoin, RightJoin, FullJoin, SemiJoin, AntiJoin} {
		for _, multi := range []bool{false, true} {
			for _, res := range []bool{false, true} {
				lk, rk := []int{1}, []int{1}
				on := "l.k = r.k"
				if multi {
					lk, rk = []int{1, 2}, []int{1, 2}
					on += " AND l.s = r.s"
				}
				if res {
					on += " AND l.v < r.w"
				}
				var sql string
				switch typ {
				case SemiJoin:
					sql = "SELECT l.* FROM l WHERE EXISTS (SELECT 1 FROM r WHERE " + on + ")"
				case AntiJoin:
					sql = "SELECT l.* FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE " + on + ")"
				default:
					sql = fmt.Sprintf("SELECT l.*, r.* FROM l %s JOIN r ON %s", map[JoinType]string{InnerJoin: "INNER", LeftJoin: "LEFT", RightJoin: "RIGHT", FullJoin: "FULL"}[typ], on)
				}
				cs = append(cs, joinCase{name: fmt.Sprintf("%s/multi=%v/residual=%v", typ, multi, res), typ: typ, lk: lk, rk: rk, residual: res, sql: sql})
			}
		}
	}
	cs = append(cs, joinCase{name: "not-in", typ: AntiJoin, lk: []int{1}, rk: []int{1}, nullAware: true, sql: "SELECT l.* FROM l WHERE l.k NOT IN (SELECT k FROM r)"})
	return cs
}

// lessVW is l.v < r.w over the joined row (left columns, then right).
func lessVW() Residual {
	return &exec.CmpExpr{Op: exec.Lt, L: &exec.ColExpr{Index: 3, T: types.Int32Type}, R: &exec.ColExpr{Index: 7, T: types.Int32Type}}
}

func runJoin(t testing.TB, l, r [][]any, c joinCase, mem *MemoryAccount, dir string) (*HashJoin, []string, error) {
	s := schemaOf(joinTypes...)
	op := &HashJoin{Left: rowsSource(t, s, l, 97), Right: rowsSource(t, s, r, 89), LeftKeys: c.lk, RightKeys: c.rk, Type: c.typ,
		NullAware: c.nullAware, Mem: mem, SpillDir: dir, BatchRows: 128}
	if c.residual {
		op.Residual = lessVW()
	}
	got, err := drainErr(op)
	return op, got, err
}

func TestHashJoinSpillMatchesInMemory(t *testing.T) {
	t.Parallel()
	for _, skew := range []bool{false, true} {
		nl, nr := 500, 400
		if skew { // the hot key's output is |l|*|r|*0.81 rows
			nl, nr = 150, 100
		}
		l := joinRows(nl, 1, 40, skew, true)
		r := joinRows(nr, 2, 40, skew, true)
		for _, c := range joinCases() {
			t.Run(fmt.Sprintf("%s/skew=%v", c.name, skew), func(t *testing.T) {
				_, want, err := runJoin(t, l, r, c, nil, "")
				if err != nil {
					t.Fatal(err)
				}
				dir := tempDir(t)
				mem := NewMemoryAccount(2 << 10)
				op, got, err := runJoin(t, l, r, c, mem, dir)
				if err != nil {
					t.Fatal(err)
				}
				equalRows(t, c.name, sorted(got), sorted(want))
				if !op.Spilled() {
					t.Error("no spill under a 2 KiB limit")
				}
				if skew && len(c.lk) == 1 && op.multiChunk == 0 {
					t.Error("the hot key's partition should need several build chunks")
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

func TestHashJoinEdgeCases(t *testing.T) {
	t.Parallel()
	s := schemaOf(joinTypes...)
	l := [][]any{{1, 1, "a", 1}, {2, nil, "b", 2}, {3, 2, "c", 3}}
	cases := []struct {
		name  string
		right [][]any
		typ   JoinType
		na    bool
		want  []string
	}{
		{"not-in-empty-build", nil, AntiJoin, true, []string{"1|1|a|1", "2|NULL|b|2", "3|2|c|3"}},
		{"not-in-null-build", [][]any{{9, nil, "z", 0}}, AntiJoin, true, nil},
		{"not-in-plain", [][]any{{9, 1, "z", 0}}, AntiJoin, true, []string{"3|2|c|3"}},
		{"not-exists-null-build", [][]any{{9, nil, "z", 0}}, AntiJoin, false, []string{"1|1|a|1", "2|NULL|b|2", "3|2|c|3"}},
		{"null-keys-never-match", [][]any{{9, nil, "z", 0}}, InnerJoin, false, nil},
		{"full-empty-build", nil, FullJoin, false, []string{"1|1|a|1|NULL|NULL|NULL|NULL", "2|NULL|b|2|NULL|NULL|NULL|NULL", "3|2|c|3|NULL|NULL|NULL|NULL"}},
		{"right-unmatched", [][]any{{9, 5, "z", 0}, {8, 1, "y", 0}}, RightJoin, false, []string{"1|1|a|1|8|1|y|0", "NULL|NULL|NULL|NULL|9|5|z|0"}},
	}
	for _, c := range cases {
		op := &HashJoin{Left: rowsSource(t, s, l, 2), Right: rowsSource(t, s, c.right, 2), LeftKeys: []int{1}, RightKeys: []int{1}, Type: c.typ, NullAware: c.na}
		equalRows(t, c.name, sorted(drain(t, op)), sorted(c.want))
	}
	// over the limit without a spill directory
	op := &HashJoin{Left: rowsSource(t, s, l, 2), Right: rowsSource(t, s, joinRows(2000, 3, 10, false, false), 100), LeftKeys: []int{1}, RightKeys: []int{1}, Mem: NewMemoryAccount(1 << 10)}
	if _, err := drainErr(op); sqlerr.CodeOf(err) != sqlerr.OutOfMemory {
		t.Fatalf("got %v, want 53200", err)
	}
}

func TestNestedLoopJoin(t *testing.T) {
	t.Parallel()
	s := schemaOf(joinTypes...)
	l := joinRows(150, 4, 10, false, true)
	r := joinRows(100, 5, 10, false, true)
	for _, typ := range []JoinType{InnerJoin, LeftJoin, RightJoin, FullJoin, SemiJoin, AntiJoin} {
		// k = k AND v < w through a nested loop equals the hash join
		cond := &exec.LogicExpr{And: true,
			L: &exec.CmpExpr{Op: exec.Eq, L: &exec.ColExpr{Index: 1, T: types.Int32Type}, R: &exec.ColExpr{Index: 5, T: types.Int32Type}},
			R: lessVW().(exec.Expr)}
		nl := &NestedLoopJoin{Left: rowsSource(t, s, l, 64), Right: rowsSource(t, s, r, 64), Type: typ, Cond: cond, BatchRows: 100}
		_, want, err := runJoin(t, l, r, joinCase{typ: typ, lk: []int{1}, rk: []int{1}, residual: true}, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		equalRows(t, typ.String(), sorted(drain(t, nl)), sorted(want))
	}
	cj := NewCrossJoin(rowsSource(t, s, l[:30], 7), rowsSource(t, s, r[:20], 3), nil)
	if got := drain(t, cj); len(got) != 600 {
		t.Fatalf("cross join: %d rows, want 600", len(got))
	}
	empty := NewCrossJoin(rowsSource(t, s, l[:30], 7), rowsSource(t, s, nil, 3), nil)
	if got := drain(t, empty); len(got) != 0 {
		t.Fatalf("cross join with empty side: %d rows", len(got))
	}
}

// TestHashTableRefs: build rows are located by computation while the
// batches are equal powers of two, by refs once they are not (listing the
// earlier batches' rows then), in every order of batch sizes.
func TestHashTableRefs(t *testing.T) {
	schema := schemaOf(types.Int64Type, types.Int64Type)
	for _, sizes := range [][]int{{256, 256, 100}, {256, 256, 100, 256}, {256, 512}, {100, 256}, {64, 64, 64}, {1, 1, 3}} {
		t.Run(fmt.Sprint(sizes), func(t *testing.T) {
			ht := newHashTable(schema, []int{0}, false, nil)
			defer ht.release()
			var want []rowRef
			for b, n := range sizes {
				rows := make([][]any, n)
				for i := range rows {
					rows[i] = []any{i, len(want) + i}
				}
				bt := buildBatch(t, schema, rows)
				if err := ht.add(bt); err != nil {
					t.Fatal(err)
				}
				bt.Release()
				for i := range n {
					want = append(want, rowRef{uint32(b), uint32(i)})
				}
			}
			for r, w := range want {
				if got := ht.ref(int32(r)); got != w {
					t.Fatalf("row %d: %v, want %v", r, got, w)
				}
			}
		})
	}
}

func TestMinMax(t *testing.T) {
	for _, tc := range []struct {
		s      []int32
		lo, hi int32
	}{
		{[]int32{5}, 5, 5},
		{[]int32{3, 1, 2}, 1, 3},
		{[]int32{-7, 9, 0, 9, -7}, -7, 9},
		{[]int32{1 << 30, 0, 1<<31 - 1}, 0, 1<<31 - 1},
	} {
		if lo, hi := minMax(tc.s); lo != tc.lo || hi != tc.hi {
			t.Errorf("minMax(%v) = %d, %d, want %d, %d", tc.s, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestDenseJoinMatchesGeneric: joins whose build keys span few values
// (a dense table) give the byte-encoded path's rows, for every join type,
// with NULL keys on both sides, a hot key, a residual, and under a
// memory limit that spills (the partitions' tables dense too); a table
// whose keys are spread out is not dense.
func TestDenseJoinMatchesGeneric(t *testing.T) {
	for _, skew := range []bool{false, true} {
		l := joinRows(600, 3, 50, skew, true)
		r := joinRows(300, 4, 50, skew, true)
		for _, c := range joinCases() {
			if len(c.lk) != 1 {
				continue
			}
			t.Run(fmt.Sprintf("%s/skew=%v", c.name, skew), func(t *testing.T) {
				run := func(generic bool, mem *MemoryAccount, dir string) ([]string, *HashJoin) {
					s := schemaOf(joinTypes...)
					op := &HashJoin{Left: rowsSource(t, s, l, 97), Right: rowsSource(t, s, r, 89), LeftKeys: c.lk, RightKeys: c.rk, Type: c.typ,
						NullAware: c.nullAware, BatchRows: 128, generic: generic, Mem: mem, SpillDir: dir}
					if c.residual {
						op.Residual = lessVW()
					}
					return sorted(drain(t, op)), op
				}
				want, _ := run(true, nil, "")
				got, op := run(false, nil, "")
				equalRows(t, c.name, got, want)
				if op.dense != 1 {
					t.Fatalf("%d dense tables, want 1", op.dense)
				}
				got, op = run(false, NewMemoryAccount(2<<10), tempDir(t))
				equalRows(t, c.name+" spilled", got, want)
				if !op.Spilled() || op.dense == 0 {
					t.Fatalf("spilled %v, %d dense tables", op.Spilled(), op.dense)
				}
			})
		}
	}
	// keys a million apart: 300 rows span 49M values
	spread := joinRows(300, 4, 50, false, true)
	for _, row := range spread {
		if k, ok := row[1].(int); ok {
			row[1] = k * 1_000_000
		}
	}
	s := schemaOf(joinTypes...)
	op := &HashJoin{Left: rowsSource(t, s, spread, 97), Right: rowsSource(t, s, spread, 89), LeftKeys: []int{1}, RightKeys: []int{1}}
	if rows := drain(t, op); len(rows) == 0 || op.dense != 0 {
		t.Fatalf("%d rows, %d dense tables", len(rows), op.dense)
	}
}

func TestConsecutiveRun(t *testing.T) {
	for _, c := range []struct {
		pl   []uint32
		want bool
	}{
		{nil, false},
		{[]uint32{7}, true},
		{[]uint32{3, 4, 5, 6}, true},
		{[]uint32{3, 4, 6}, false},       // a row without a match
		{[]uint32{3, 3, 4}, false},       // a row with two
		{[]uint32{3, 3, 5, 5}, false},    // both, the span equal to a run's
		{[]uint32{0, 1, 1, 2, 4}, false}, // both, differently placed
	} {
		if got := consecutiveRun(c.pl); got != c.want {
			t.Errorf("%v: %v, want %v", c.pl, got, c.want)
		}
	}
}

// TestJoinSlicesProbeRuns: an output batch whose probe rows are a run of
// consecutive rows each matched once (a foreign key joined to its
// primary key) has the probe batch's columns sliced (sharing its
// buffers), any other has them gathered; the rows are the join's either
// way. Misses, NULL keys and a duplicated build key break the runs.
func TestJoinSlicesProbeRuns(t *testing.T) {
	schema := schemaOf(types.Int32Type, types.StringType, types.Int64Type)
	var build [][]any
	for k := range 100 {
		build = append(build, []any{k, fmt.Sprint("u", k), k * 10})
	}
	for _, c := range []struct {
		name string
		key  func(i int) any // probe row i's key
		dup  bool            // key 5 has a second build row
	}{
		{"all match once", func(i int) any { return (i * 37) % 100 }, false},
		{"some miss", func(i int) any { return (i * 37) % 120 }, false},
		{"NULL keys", func(i int) any {
			if i%7 == 0 {
				return nil
			}
			return i % 100
		}, false},
		{"a duplicate", func(i int) any {
			if i%9 == 0 {
				return 5
			}
			return (i * 37) % 100
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := build
			if c.dup {
				b = append(slices.Clone(build), []any{5, "dup", 0})
			}
			var probe, want [][]any
			for i := range 1000 {
				k := c.key(i)
				probe = append(probe, []any{k, fmt.Sprint("e", i), i})
				for _, r := range b {
					if k != nil && r[0] == k {
						want = append(want, append(slices.Clone(probe[i]), r...))
					}
				}
			}
			left := rowsSource(t, schema, probe, 256)
			op := &HashJoin{Left: left, Right: rowsSource(t, schema, b, 64), LeftKeys: []int{0}, RightKeys: []int{0}, BatchRows: 100}
			var got []string
			sliced, gathered := 0, 0
			for {
				out, err := op.Next(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if out == nil {
					break
				}
				got = append(got, batchRows(out)...)
				ids := out.Column(2).(*array.Int64).Int64Values()
				run := true
				for i := 1; i < len(ids); i++ {
					run = run && ids[i] == ids[i-1]+1
				}
				shared := false
				for _, pb := range left.batches {
					shared = shared || out.Column(1).Data().Buffers()[2] == pb.Column(1).Data().Buffers()[2]
				}
				if shared != run {
					t.Fatalf("probe rows %v: sliced %v", ids, shared)
				}
				if shared {
					sliced++
				} else {
					gathered++
				}
				out.Release()
			}
			op.Close()
			equalRows(t, c.name, sorted(got), sorted(drain(t, rowsSource(t, op.Schema(), want, 1000))))
			if all := c.name == "all match once"; all && (sliced == 0 || gathered > 0) || !all && gathered == 0 {
				t.Fatalf("%d output batches sliced, %d gathered", sliced, gathered)
			}
		})
	}
}

// TestJoinShortTextView: a build text column of values of at most 7 bytes
// (NULLs among them or not) is gathered through a short text view, one
// with a longer value as before, with the join's rows either way (inner
// and left: the unmatched rows' NULLs come from the other path), the
// view charged to the account while the join runs and given back.
func TestJoinShortTextView(t *testing.T) {
	schema := schemaOf(types.Int32Type, types.StringType)
	for _, c := range []struct {
		name string
		text func(k int) any
		view bool
	}{
		{"codes", func(k int) any { return fmt.Sprint("c", k%20) }, true},
		{"NULLs", func(k int) any {
			if k%3 == 0 {
				return nil
			}
			return fmt.Sprint(k)
		}, true},
		{"a long value", func(k int) any {
			if k == 77 {
				return "longer than seven"
			}
			return "s"
		}, false},
	} {
		for _, typ := range []JoinType{InnerJoin, LeftJoin} {
			t.Run(c.name+"/"+typ.String(), func(t *testing.T) {
				var build, probe, want [][]any
				for k := range 200 {
					build = append(build, []any{k, c.text(k)})
				}
				for i := range 2000 {
					k := (i * 53) % 260
					probe = append(probe, []any{k, fmt.Sprint("e", i)})
					switch {
					case k < 200:
						want = append(want, []any{k, fmt.Sprint("e", i), k, c.text(k)})
					case typ == LeftJoin:
						want = append(want, []any{k, fmt.Sprint("e", i), nil, nil})
					}
				}
				mem := NewMemoryAccount(1 << 30)
				op := &HashJoin{Left: rowsSource(t, schema, probe, 512), Right: rowsSource(t, schema, build, 64),
					LeftKeys: []int{0}, RightKeys: []int{0}, Type: typ, Mem: mem, BatchRows: 300}
				out, err := op.Next(context.Background())
				if err != nil || out == nil {
					t.Fatal(err)
				}
				got := batchRows(out)
				out.Release()
				if p := op.prober; c.view && (p.viewBytes != 200*8 || mem.Used() < p.viewBytes) {
					t.Fatalf("view of %d bytes, %d held", p.viewBytes, mem.Used())
				}
				got = append(got, drain(t, op)...)
				equalRows(t, c.name, sorted(got), sorted(drain(t, rowsSource(t, op.Schema(), want, 1000))))
				if (op.views == 1) != c.view {
					t.Fatalf("%d views", op.views)
				}
				if mem.Used() != 0 {
					t.Fatalf("%d bytes held after Close", mem.Used())
				}
			})
		}
	}
}

// failingOp fails its first Next: a build side whose keys cannot be
// computed.
type failingOp struct{ schema *arrow.Schema }

func (f failingOp) Schema() *arrow.Schema { return f.schema }
func (f failingOp) Next(context.Context) (arrow.RecordBatch, error) {
	return nil, sqlerr.New(sqlerr.InvalidDatetimeFormat, "invalid input syntax for type date: %q", "abc")
}
func (failingOp) Close() {}

// TestHashJoinEmptyProbeBuildsNothing: PostgreSQL's hash join reads its
// first outer (probe) row before building the hash table, and over an
// empty outer side ends without building it, except when it must emit the
// inner side's unmatched rows (right and full joins): the build side's
// error is then not raised.
func TestHashJoinEmptyProbeBuildsNothing(t *testing.T) {
	schema := schemaOf(types.Int64Type)
	for _, tc := range []struct {
		jt     JoinType
		probe  [][]any
		raises bool
	}{
		{InnerJoin, nil, false},
		{LeftJoin, nil, false},
		{SemiJoin, nil, false},
		{AntiJoin, nil, false},
		{RightJoin, nil, true},
		{FullJoin, nil, true},
		{InnerJoin, [][]any{{1}}, true},
		{LeftJoin, [][]any{{1}}, true},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.jt, len(tc.probe)), func(t *testing.T) {
			op := &HashJoin{Left: rowsSource(t, schema, tc.probe, 10), Right: failingOp{schema},
				LeftKeys: []int{0}, RightKeys: []int{0}, Type: tc.jt}
			defer op.Close()
			b, err := op.Next(context.Background())
			if b != nil {
				b.Release()
			}
			if raised := err != nil; raised != tc.raises {
				t.Fatalf("error %v, want raised=%v", err, tc.raises)
			}
			if err != nil && sqlerr.CodeOf(err) != sqlerr.InvalidDatetimeFormat {
				t.Fatalf("error %v, want the build side's", err)
			}
		})
	}
}
