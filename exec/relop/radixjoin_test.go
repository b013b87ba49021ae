package relop

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// tinyRadix partitions builds of any size into partitions of ~64 rows and
// probes in chunks of at most 2,000 rows, scattering from 128 keys: small
// tests then cross every path of radixjoin.go (several partitions, empty
// ones, chunks of several batches, key-by-key lookups).
var tinyRadix = radixConfig{minBuild: 2, partRows: 64, minProbe: 128, maxChunk: 2000}

// With renumber, the table numbers its rows anew (order): the rows of a key
// must then be consecutive numbers, in build order, and order a permutation.
func TestJoinTableRadixLookup(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 3, 100, 5000, 20000} {
		for _, renumber := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d/renumber=%v", n, renumber), func(t *testing.T) {
				radixLookupCase(t, rng, n, renumber, tinyRadix)
			})
		}
	}
	// few large partitions: thousands of keys each, several groups of
	// lookupPart's two passes
	big := radixConfig{minBuild: 2, partRows: 4096, minProbe: 128, maxChunk: 1 << 20}
	for _, renumber := range []bool{false, true} {
		t.Run(fmt.Sprintf("big partitions/renumber=%v", renumber), func(t *testing.T) {
			radixLookupCase(t, rng, 20000, renumber, big)
		})
	}
}

func radixLookupCase(t *testing.T, rng *rand.Rand, n int, renumber bool, cfg radixConfig) {
	keys := make([]int64, n)
	for i := range keys {
		switch rng.IntN(100) {
		case 0:
			keys[i] = math.MinInt64
		case 1:
			keys[i] = math.MaxInt64
		case 2, 3:
			keys[i] = 0
		default:
			keys[i] = int64(rng.IntN(n)) - int64(n/2)
		}
	}
	want := map[int64][]int32{}
	for r, k := range keys {
		want[k] = append(want[k], int32(r))
	}
	jt := &joinTable{cfg: &cfg, renumber: renumber}
	// in pieces of uneven sizes, as batches: the keys span segments
	for lo := 0; lo < n; {
		m := min(n-lo, 1+rng.IntN(3000))
		jt.add(keys[lo:lo+m], nil)
		lo += m
	}
	jt.finish()
	if jt.pbits == 0 {
		t.Fatal("table not partitioned")
	}
	if renumber {
		if len(jt.order) != n || !jt.consecutive || len(jt.perm) != 0 {
			t.Fatalf("order of %d rows, consecutive %v, perm %d", len(jt.order), jt.consecutive, len(jt.perm))
		}
		seen := make([]bool, n)
		for _, o := range jt.order {
			if int(o) >= n || seen[o] {
				t.Fatalf("order is not a permutation: %d", o)
			}
			seen[o] = true
		}
		for k, rows := range want {
			for i, r := range rows {
				rows[i] = int32(jt.order[r])
				if i > 0 && rows[i] != rows[i-1]+1 {
					t.Fatalf("key %d: rows %v not consecutive", k, rows)
				}
			}
		}
	}
	probe := make([]int64, 3*n)
	for i := range probe {
		if i < n {
			probe[i] = keys[i]
		} else {
			probe[i] = int64(rng.IntN(2*n)) - int64(n)
		}
	}
	probe = append(probe, math.MinInt64+1, math.MaxInt64-1)
	// a large lookup (scattered) and small ones (key by key)
	for _, step := range []int{len(probe), 50} {
		v, c := make([]uint32, step), make([]uint32, step)
		for lo := 0; lo < len(probe); lo += step {
			ks := probe[lo:min(lo+step, len(probe))]
			jt.lookup(ks, v, c)
			for i, k := range ks {
				var got []int32
				for j := uint32(0); j < c[i]; j++ {
					got = append(got, jt.row(v[i], c[i], j))
				}
				if !slices.Equal(got, want[k]) {
					t.Fatalf("key %d: rows %v, want %v", k, got, want[k])
				}
			}
		}
	}
	// in partition order, as a chunk reordered by partitionOrder is
	pk := make([]int64, len(probe))
	jt.scatterProbe([][]int64{probe[:n], probe[n:]}, pk, true)
	v, c := make([]uint32, len(probe)), make([]uint32, len(probe))
	jt.probeScattered(v, c, true)
	for j, k := range pk {
		if pk[jt.scratch.pos[j]] != probe[j] {
			t.Fatalf("probe key %d scattered to %d, which holds %d", j, jt.scratch.pos[j], pk[jt.scratch.pos[j]])
		}
		var got []int32
		for r := uint32(0); r < c[j]; r++ {
			got = append(got, jt.row(v[j], c[j], r))
		}
		if !slices.Equal(got, want[k]) {
			t.Fatalf("scattered key %d: rows %v, want %v", k, got, want[k])
		}
	}
}

// TestRadixJoinMatchesGeneric: the partitioned table, probed in chunks,
// gives what the byte-encoded generic path gives for every join type and
// every dataset of the fast-path tests (empty, one row, NULLs, 90% skew,
// MinInt64/MaxInt64, floats, timestamps), with output batches of 97 rows.
func TestRadixJoinMatchesGeneric(t *testing.T) {
	cs := fastCases()
	for i := range cs {
		if cs[i].name == "skew90-int32" {
			cs[i].keys = cs[i].keys[:500]
		}
	}
	for _, c := range cs {
		for _, other := range cs {
			// the large datasets are TestRadixJoinDefaults' kind
			if other.kt.String() != c.kt.String() || len(c.keys) > 5000 || len(other.keys) > 5000 {
				continue
			}
			for _, jt := range []JoinType{InnerJoin, LeftJoin, RightJoin, FullJoin, SemiJoin, AntiJoin} {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, other.name, jt), func(t *testing.T) {
					schema := schemaOf(c.kt, types.Int64Type)
					var radix *HashJoin
					run := func(generic bool) []string {
						cfg := tinyRadix
						op := &HashJoin{Left: rowsSource(t, schema, other.rows(), 300), Right: rowsSource(t, schema, c.rows(), 1024),
							LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, NullAware: jt == AntiJoin, generic: generic,
							BatchRows: 97, radix: &cfg}
						if !generic {
							radix = op
						}
						rows := drain(t, op)
						return sorted(rows)
					}
					equalRows(t, "radix", run(false), run(true))
					// (over an empty probe side only a right or full
					// join builds its table: PostgreSQL's order)
					built := len(other.keys) > 0 || jt == RightJoin || jt == FullJoin
					if len(c.keys) >= 2 && built && radix.partitioned != 1 {
						t.Fatalf("%d partitioned tables, want 1", radix.partitioned)
					}
				})
			}
		}
	}
}

// TestRadixJoinRunsResidualSpill: long runs of a hot key split across
// output batches, a residual, a NULL-aware anti join, and the grace hash
// join's partitions (spilled, some joined in several build chunks) built
// partitioned: as the generic path.
func TestRadixJoinRunsResidualSpill(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	build := skewedRows(rng, 2000, 500, skewKey{3, 10, 7}, skewKey{1, 30, nil}, skewKey{1, 30, math.MaxInt64})
	probe := skewedRows(rng, 1500, 700, skewKey{1, 20, nil}, skewKey{1, 50, 7}, skewKey{1, 30, math.MaxInt64})
	schema := schemaOf(types.Int64Type, types.Int64Type)
	residual := moduloResidual(3, 0)
	for _, jt := range []JoinType{InnerJoin, LeftJoin, RightJoin, FullJoin, SemiJoin, AntiJoin} {
		for _, res := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/residual=%v", jt, res), func(t *testing.T) {
				run := func(generic bool, mem *MemoryAccount, dir string) ([]string, *HashJoin) {
					cfg := tinyRadix
					op := &HashJoin{Left: rowsSource(t, schema, probe, 256), Right: rowsSource(t, schema, build, 512),
						LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, NullAware: jt == AntiJoin && !res,
						BatchRows: 100, Mem: mem, SpillDir: dir, generic: generic, radix: &cfg}
					if res {
						op.Residual = residual
					}
					return sorted(drain(t, op)), op
				}
				want, _ := run(true, nil, "")
				if len(want) == 0 && jt != AntiJoin {
					t.Fatal("no rows: the case tests nothing")
				}
				got, op := run(false, nil, "")
				equalRows(t, "radix", got, want)
				if op.partitioned != 1 {
					t.Fatalf("%d partitioned tables", op.partitioned)
				}
				got, op = run(false, NewMemoryAccount(48<<10), tempDir(t))
				equalRows(t, "radix spilled", got, want)
				if !op.Spilled() || op.partitioned == 0 {
					t.Fatalf("spilled %v, %d partitioned tables", op.Spilled(), op.partitioned)
				}
			})
		}
	}
}

// TestRadixJoinDefaults: at the default thresholds a 70,000-row build is
// partitioned when its keys are spread out (a thousand apart) and a dense
// array when they span 60,000 values, a 100,000-row probe side read in
// growing chunks (partitioned) or batch by batch; the result is the
// generic path's either way.
func TestRadixJoinDefaults(t *testing.T) {
	for _, tc := range []struct {
		name               string
		scale              int
		partitioned, dense int
	}{
		{"sparse", 1000, 1, 0},
		{"dense", 1, 0, 1},
	} {
		rng := rand.New(rand.NewPCG(2, 2))
		var build, probe [][]any
		for i := range 70_000 {
			build = append(build, []any{rng.IntN(60_000) * tc.scale, i})
		}
		for i := range 100_000 {
			probe = append(probe, []any{rng.IntN(120_000) * tc.scale, i})
		}
		schema := schemaOf(types.Int64Type, types.Int64Type)
		for _, jt := range []JoinType{InnerJoin, FullJoin, AntiJoin} {
			t.Run(tc.name+"/"+jt.String(), func(t *testing.T) {
				run := func(generic bool) ([]string, *HashJoin) {
					op := &HashJoin{Left: rowsSource(t, schema, probe, 8192), Right: rowsSource(t, schema, build, 8192),
						LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, generic: generic}
					return sorted(drain(t, op)), op
				}
				want, _ := run(true)
				got, op := run(false)
				equalRows(t, "radix", got, want)
				if op.partitioned != tc.partitioned || op.dense != tc.dense {
					t.Fatalf("%d partitioned tables, %d dense, want %d and %d", op.partitioned, op.dense, tc.partitioned, tc.dense)
				}
			})
		}
	}
}

// TestRadixJoinFirstBatchEarly: the first output batch of a partitioned
// join reads one probe batch (a LIMIT above stops early), later chunks
// grow, output batches stay within BatchRows, and the chunks' bytes are
// charged to the account and given back.
func TestRadixJoinFirstBatchEarly(t *testing.T) {
	var build, probe [][]any
	for i := range 5000 {
		build = append(build, []any{i % 2500, i})
	}
	for i := range 6000 {
		probe = append(probe, []any{i % 3000, i})
	}
	schema := schemaOf(types.Int64Type, types.Int64Type)
	left := rowsSource(t, schema, probe, 100)
	cfg := tinyRadix
	mem := NewMemoryAccount(1 << 30)
	op := &HashJoin{Left: left, Right: rowsSource(t, schema, build, 1000), LeftKeys: []int{0}, RightKeys: []int{0},
		BatchRows: 150, radix: &cfg, Mem: mem}
	ctx := context.Background()
	b, err := op.Next(ctx)
	if err != nil || b == nil {
		t.Fatal(b, err)
	}
	b.Release()
	if left.pos != 1 {
		t.Fatalf("the first batch read %d probe batches, want 1", left.pos)
	}
	total, maxRows := 1, int64(0)
	for {
		b, err := op.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		total++
		maxRows = max(maxRows, b.NumRows())
		if b.NumRows() > 150 {
			t.Fatalf("a batch of %d rows", b.NumRows())
		}
		b.Release()
	}
	if maxRows != 150 {
		t.Fatalf("largest batch %d rows", maxRows)
	}
	// 2500 matched keys x 2 probe rows x 2 build rows
	if want := 2500 * 2 * 2 / 150; total < want {
		t.Fatalf("%d batches", total)
	}
	op.Close()
	if u := mem.Used(); u != 0 {
		t.Fatalf("%d bytes still charged", u)
	}
}

// peakAllocator records the most bytes it had allocated at once.
type peakAllocator struct {
	memory.Allocator
	cur, peak int
}

func (a *peakAllocator) add(n int) {
	a.cur += n
	a.peak = max(a.peak, a.cur)
}

func (a *peakAllocator) Allocate(n int) []byte {
	a.add(n)
	return a.Allocator.Allocate(n)
}

func (a *peakAllocator) Reallocate(n int, b []byte) []byte {
	a.add(n - len(b))
	return a.Allocator.Reallocate(n, b)
}

func (a *peakAllocator) Free(b []byte) {
	a.add(-len(b))
	a.Allocator.Free(b)
}

// TestRadixJoinChunkWithinLimit: under a memory limit, a partitioned join
// whose probe chunks could grow to 200,000 rows keeps the Arrow bytes it
// holds (the chunk, its combined copy and the output it has queued, e.g.
// the unmatched rows of a left or anti join) within the limit, charges no
// more than the limit, gives the result of an unlimited join, and returns
// every byte after Close.
func TestRadixJoinChunkWithinLimit(t *testing.T) {
	var build, probe [][]any
	for i := range 2000 {
		build = append(build, []any{i, i})
	}
	for i := range 200_000 {
		probe = append(probe, []any{i % 4000, i})
	}
	schema := schemaOf(types.Int64Type, types.Int64Type)
	const limit = 1 << 20
	for _, jt := range []JoinType{InnerJoin, LeftJoin, FullJoin, SemiJoin, AntiJoin} {
		t.Run(jt.String(), func(t *testing.T) {
			cfg := radixConfig{minBuild: 2, partRows: 64, minProbe: 128, maxChunk: 1 << 20}
			want := sorted(drain(t, &HashJoin{Left: rowsSource(t, schema, probe, 1000), Right: rowsSource(t, schema, build, 1000),
				LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, generic: true}))
			alloc := &peakAllocator{Allocator: memory.NewGoAllocator()}
			mem := NewMemoryAccount(limit)
			op := &HashJoin{Left: rowsSource(t, schema, probe, 1000), Right: rowsSource(t, schema, build, 1000),
				LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, BatchRows: 1000, radix: &cfg, Mem: mem, Alloc: alloc}
			var got []string
			for {
				b, err := op.Next(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				for i := 0; i < int(b.NumRows()); i++ {
					cells := make([]string, b.NumCols())
					for c := range cells {
						cells[c] = formatCell(b.Column(c), i)
					}
					got = append(got, strings.Join(cells, "|"))
				}
				b.Release()
			}
			equalRows(t, "limited", sorted(got), want)
			if op.partitioned != 1 {
				t.Fatalf("%d partitioned tables", op.partitioned)
			}
			if held := alloc.peak; held > limit {
				t.Fatalf("the join held %d bytes of Arrow buffers, limit %d", held, limit)
			}
			if p := mem.Peak(); p > limit || p == 0 {
				t.Fatalf("peak charge %d, limit %d", p, limit)
			}
			op.Close()
			if u := mem.Used(); u != 0 {
				t.Fatalf("%d bytes still charged", u)
			}
			if a := alloc.cur; a != 0 {
				t.Fatalf("%d bytes still allocated", a)
			}
			// closed in the middle of a chunk's rows: everything given back
			op = &HashJoin{Left: rowsSource(t, schema, probe, 1000), Right: rowsSource(t, schema, build, 1000),
				LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, BatchRows: 1000, radix: &cfg, Mem: mem, Alloc: alloc}
			for range 20 {
				b, err := op.Next(context.Background())
				if err != nil || b == nil {
					t.Fatal(b, err)
				}
				b.Release()
			}
			op.Close()
			if u, a := mem.Used(), alloc.cur; u != 0 || a != 0 {
				t.Fatalf("closed early: %d bytes still charged, %d allocated", u, a)
			}
		})
	}
}

// TestRadixJoinPartitionOrder: sides carrying every scattered type (with
// NULLs) are joined in partition order (the build table and the probe
// chunks reordered) and give the generic path's rows for every join type,
// also under a limit of the unlimited join's peak charge. With a list
// column (not scattered) the table keeps build order and the rows are the
// same.
func TestRadixJoinPartitionOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	schema, rows := payloadRows(t, rng, 3000)
	for _, r := range rows {
		if r[0] != nil {
			r[0] = rng.IntN(600) // int16 keys with short runs of duplicates
		}
	}
	build, probe := rows[:2000], rows[1000:]
	list := schemaOf(types.Int16Type, types.T{Kind: types.Array, Elem: &types.Int64Type})
	var lbuild, lprobe [][]any
	for _, r := range build {
		lbuild = append(lbuild, []any{r[0], []any{r[2], r[1]}})
	}
	for _, r := range probe {
		lprobe = append(lprobe, []any{r[0], []any{r[2]}})
	}
	run := func(s *arrow.Schema, build, probe [][]any, jt JoinType, generic bool, mem *MemoryAccount) ([]string, *HashJoin) {
		op := &HashJoin{Left: rowsSource(t, s, probe, 300), Right: rowsSource(t, s, build, 512),
			LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, generic: generic, BatchRows: 700, radix: &tinyRadix, Mem: mem}
		return sorted(drain(t, op)), op
	}
	for _, jt := range []JoinType{InnerJoin, LeftJoin, RightJoin, FullJoin, SemiJoin, AntiJoin} {
		t.Run(jt.String(), func(t *testing.T) {
			want, _ := run(schema, build, probe, jt, true, nil)
			mem := NewMemoryAccount(1 << 30)
			got, op := run(schema, build, probe, jt, false, mem)
			equalRows(t, "partition order", got, want)
			if op.partitioned != 1 || op.reordered != 1 || op.orderedChunks == 0 {
				t.Fatalf("%d partitioned, %d reordered tables, %d ordered chunks", op.partitioned, op.reordered, op.orderedChunks)
			}
			equalRows(t, "accounted", sorted(drain(t, &HashJoin{Left: rowsSource(t, schema, probe, 300),
				Right: rowsSource(t, schema, build, 512), LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt,
				radix: &tinyRadix, Mem: NewMemoryAccount(mem.Peak())})), want)
			want, _ = run(list, lbuild, lprobe, jt, true, nil)
			got, op = run(list, lbuild, lprobe, jt, false, nil)
			equalRows(t, "list", got, want)
			if op.partitioned != 1 || op.reordered != 0 || op.orderedChunks != 0 {
				t.Fatalf("list: %d partitioned, %d reordered tables, %d ordered chunks", op.partitioned, op.reordered, op.orderedChunks)
			}
		})
	}
}

// TestRadixReorderWithinLimit: a partitioned table is put in partition
// order only when the account can take the copy of its rows beside it;
// the copy is given back after.
func TestRadixReorderWithinLimit(t *testing.T) {
	schema, rows := payloadRows(t, rand.New(rand.NewPCG(1, 9)), 2000)
	batches := rowsSource(t, schema, rows, 256).batches
	var copyBytes int64
	for _, b := range batches {
		copyBytes += batchBytes(b)
	}
	for _, room := range []int64{copyBytes, copyBytes - 1, copyBytes / 2, 0} {
		t.Run(fmt.Sprint(room), func(t *testing.T) {
			ht := newHashTable(schema, []int{2}, false, &tinyRadix)
			defer ht.release()
			for _, b := range batches {
				if err := ht.add(b); err != nil {
					t.Fatal(err)
				}
			}
			o := &HashJoin{Mem: NewMemoryAccount(ht.size() + room)}
			o.hold = holding{acct: o.Mem}
			if err := o.hold.grow(ht.size()); err != nil {
				t.Fatal(err)
			}
			if err := o.finishTable(ht); err != nil {
				t.Fatal(err)
			}
			if ht.reordered != (room == copyBytes) || o.partitioned != 1 {
				t.Fatalf("room %d of %d: reordered %v, %d partitioned", room, copyBytes, ht.reordered, o.partitioned)
			}
			if o.Mem.Peak() > o.Mem.limit {
				t.Fatalf("peak %d over the limit", o.Mem.Peak())
			}
			// every row is still found, at its key
			for r, row := range rows {
				if row[2] == nil {
					continue
				}
				v, n := ht.ints.find(int64(row[2].(int)))
				if n != 1 || formatCell(ht.batches[ht.ref(int32(v)).b].Column(7), int(ht.ref(int32(v)).r)) != formatCell(batches[r/256].Column(7), r%256) {
					t.Fatalf("row %d: table row %d (%d rows)", r, v, n)
				}
			}
		})
	}
}

// TestConsecutivePairs: resumed call after call, consecutivePairs lists
// every (probe row, table row) pair of the runs once, in order, at most
// limit per call, for runs shorter, as long as and longer than the 4 it
// writes at once, and limits that cut runs.
func TestConsecutivePairs(t *testing.T) {
	cases := []struct {
		name  string
		runs  []uint32
		limit int
	}{
		{"empty", nil, 8},
		{"no matches", []uint32{0, 0, 0}, 8},
		{"short runs", []uint32{1, 0, 2, 3, 4, 1, 0, 1}, 100},
		{"long runs", []uint32{5, 0, 9, 1, 17}, 100},
		{"limit cuts runs", []uint32{3, 4, 1, 2, 5, 0, 4, 4}, 3},
		{"limit 1", []uint32{2, 0, 4, 1, 6}, 1},
		{"limit 4", []uint32{4, 4, 3, 1, 4, 7}, 4},
		{"limit 5", []uint32{4, 4, 3, 1, 4, 7}, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			starts := make([]uint32, len(c.runs))
			var want [][2]int32
			next := uint32(10)
			for i, r := range c.runs {
				starts[i] = next
				for j := range r {
					want = append(want, [2]int32{int32(i), int32(next + j)})
				}
				next += r + 3
			}
			pl, pb := make([]uint32, c.limit+4), make([]int32, c.limit+4)
			var got [][2]int32
			i, off := 0, uint32(0)
			for calls := 0; i < len(c.runs); calls++ {
				if calls > len(want)+len(c.runs) {
					t.Fatal("no progress")
				}
				var k int
				i, off, k = consecutivePairs(pl, pb, c.runs, starts, i, off, c.limit)
				if k > c.limit {
					t.Fatalf("%d pairs, limit %d", k, c.limit)
				}
				for x := range k {
					got = append(got, [2]int32{int32(pl[x]), pb[x]})
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("pairs %v, want %v", got, want)
			}
		})
	}
}

// TestSharedKeyCol: a pair's build key column is the copy of its probe key
// column only for one integer key of the same type on both sides.
func TestSharedKeyCol(t *testing.T) {
	cases := []struct {
		name        string
		left, right types.T
		keys        int
		want        int // output column, -1: gathered
	}{
		{"int64", types.Int64Type, types.Int64Type, 1, 2 + 0},
		{"int32", types.Int32Type, types.Int32Type, 1, 2 + 0},
		{"int32 = int64", types.Int32Type, types.Int64Type, 1, -1},
		{"float64", types.Float64Type, types.Float64Type, 1, -1},
		{"two keys", types.Int64Type, types.Int64Type, 2, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ls, rs := schemaOf(c.left, types.Int64Type), schemaOf(c.right, types.Int64Type)
			keys := []int{0, 1}[:c.keys]
			j := &HashJoin{Left: rowsSource(t, ls, nil, 8), Right: rowsSource(t, rs, nil, 8), LeftKeys: keys, RightKeys: keys}
			ht := newHashTable(rs, keys, false, nil)
			if got := j.newProber(ht, j.Left, passOnly).sharedKeyCol(); got != c.want {
				t.Fatalf("shared column %d, want %d", got, c.want)
			}
		})
	}
}

// A finished partition table is sized for its distinct keys, not its rows:
// at most 2/3 full (a miss stops within a few slots) and at least 1/3 full
// (when not the minimum size), whatever the duplicates.
func TestRadixPartsSizedByDistinctKeys(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rows     int
		distinct int
	}{
		{"all distinct", 20000, 20000},
		{"8 rows a key", 20000, 2500},
		{"one key", 5000, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys := make([]int64, tc.rows)
			for i := range keys {
				keys[i] = int64(i % tc.distinct)
			}
			cfg := tinyRadix
			jt := &joinTable{cfg: &cfg}
			jt.add(keys, nil)
			jt.finish()
			if jt.pbits == 0 {
				t.Fatal("table not partitioned")
			}
			slots, keysSeen := 0, 0
			for p, part := range jt.parts {
				d := 0
				for _, e := range part.slots {
					if e.n > 0 {
						d++
					}
				}
				keysSeen += d
				slots += len(part.slots)
				if 3*d > 2*len(part.slots) || (len(part.slots) > 16 && 3*d < len(part.slots)) {
					t.Fatalf("partition %d: %d keys in %d slots", p, d, len(part.slots))
				}
			}
			if keysSeen != tc.distinct || slots != jt.nslots {
				t.Fatalf("%d keys in %d slots (nslots %d), want %d keys", keysSeen, slots, jt.nslots, tc.distinct)
			}
			if got, want := jt.bytes(), int64(slots)*joinSlotBytes+int64(len(jt.perm))*4; got != want {
				t.Fatalf("bytes %d, want %d", got, want)
			}
		})
	}
}

func TestCompactCap(t *testing.T) {
	for _, tc := range []struct{ d, want int }{
		{0, 16}, {1, 16}, {10, 16}, {11, 32}, {21, 32}, {22, 64}, {4940, 8192}, {5461, 8192}, {5462, 16384},
	} {
		if got := compactCap(tc.d); got != tc.want {
			t.Errorf("compactCap(%d) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

// TestRadixJoinOrderedBuildKeys: a reordered table whose int64 keys have
// no NULL takes its key column from the table (joinTable.orderedKeys)
// instead of scattering it. The output's build keys must be their rows'
// (those of the unmatched build rows of right and full joins are read
// from the table), each beside its row's payload.
func TestRadixJoinOrderedBuildKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	schema := schemaOf(types.Int64Type, types.Int64Type)
	var build, probe [][]any
	for i := range 3000 {
		// runs of duplicates, keys beyond int32 too (never matched)
		k := rng.IntN(1500)
		if i%7 == 0 {
			k += 1 << 40
		}
		build = append(build, []any{k, i})
	}
	for i := range 2500 {
		probe = append(probe, []any{rng.IntN(2000), -i})
	}
	for _, jt := range []JoinType{InnerJoin, LeftJoin, RightJoin, FullJoin} {
		t.Run(jt.String(), func(t *testing.T) {
			run := func(generic bool) ([]string, *HashJoin) {
				op := &HashJoin{Left: rowsSource(t, schema, probe, 300), Right: rowsSource(t, schema, build, 512),
					LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, generic: generic, BatchRows: 700, radix: &tinyRadix}
				return sorted(drain(t, op)), op
			}
			want, _ := run(true)
			got, op := run(false)
			equalRows(t, "ordered keys", got, want)
			if op.partitioned != 1 || op.reordered != 1 {
				t.Fatalf("%d partitioned, %d reordered tables", op.partitioned, op.reordered)
			}
		})
	}
}
