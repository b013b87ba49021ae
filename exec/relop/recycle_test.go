package relop

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestRecycler: a freed buffer serves the next allocation of its size (and
// of no other), at most recycleKeep of a size are kept, and after close
// every buffer is back with the inner allocator, including one freed late.
func TestRecycler(t *testing.T) {
	inner := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r := newRecycler(inner)
	a := r.Allocate(4096)
	r.Free(a)
	cases := []struct {
		name  string
		size  int
		reuse bool
	}{
		{"other size", 1024, false},
		{"same size", 4096, true},
		{"same size, list empty", 4096, false},
	}
	var held [][]byte
	for _, c := range cases {
		b := r.Allocate(c.size)
		if got := len(b) == len(a) && &b[0] == &a[0]; got != c.reuse {
			t.Fatalf("%s: reused %v, want %v", c.name, got, c.reuse)
		}
		held = append(held, b)
	}
	for range recycleKeep + 3 {
		held = append(held, r.Allocate(512))
	}
	late := held[0]
	for _, b := range held[1:] {
		r.Free(b)
	}
	if n := len(r.free[512]); n != recycleKeep {
		t.Fatalf("%d buffers of 512 kept, want %d", n, recycleKeep)
	}
	r.close()
	r.Free(late)
	if n := inner.CurrentAlloc(); n != 0 {
		t.Fatalf("%d bytes not given back", n)
	}
}

// TestRecyclerFit: with fit, an allocation takes a kept buffer of its
// size, else the smallest kept one below twice its size; without fit,
// only its own size. Buffers of 3000, 4000 and 5000 bytes are kept.
func TestRecyclerFit(t *testing.T) {
	type take struct {
		size, want int  // the size asked for, the length returned
		reused     bool // a kept buffer
	}
	cases := []struct {
		name  string
		fit   bool
		takes []take
	}{
		{"own size first", true, []take{{4000, 4000, true}, {3000, 3000, true}}},
		{"smallest larger", true, []take{{2500, 3000, true}, {2500, 4000, true}, {2500, 2500, false}}},
		{"exact only", false, []take{{2500, 2500, false}, {4000, 4000, true}, {4000, 4000, false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inner := memory.NewCheckedAllocator(memory.NewGoAllocator())
			r := newRecycler(inner)
			r.fit = c.fit
			kept := map[*byte]bool{}
			var bs [][]byte
			for _, n := range []int{3000, 4000, 5000} {
				bs = append(bs, r.Allocate(n))
			}
			for _, b := range bs {
				kept[&b[0]] = true
				r.Free(b)
			}
			var held [][]byte
			for _, tk := range c.takes {
				b := r.Allocate(tk.size)
				if len(b) != tk.want || kept[&b[0]] != tk.reused {
					t.Fatalf("asked %d: got %d bytes (reused %v), want %d (%v)", tk.size, len(b), kept[&b[0]], tk.want, tk.reused)
				}
				held = append(held, b)
			}
			for _, b := range held {
				r.Free(b)
			}
			r.close()
			if n := inner.CurrentAlloc(); n != 0 {
				t.Fatalf("%d bytes not given back", n)
			}
		})
	}
}

// TestJoinRecyclesOutput: a radix join whose consumer releases each batch
// builds its output in recycled buffers (so the values must not depend on
// zeroed memory: the rows match the generic path's, NULLs included), and
// leaves no buffer behind once closed, even a batch released after Close.
func TestJoinRecyclesOutput(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	row := func(n int) [][]any {
		rows := make([][]any, n)
		for i := range rows {
			var k, v any = rng.IntN(n / 2), rng.IntN(100)
			if rng.IntN(20) == 0 {
				k = nil
			}
			if rng.IntN(7) == 0 {
				v = nil
			}
			rows[i] = []any{k, v}
		}
		return rows
	}
	schema := schemaOf(types.Int64Type, types.Int64Type)
	build, probe := row(3000), row(5000)
	for _, jt := range []JoinType{InnerJoin, LeftJoin, FullJoin} {
		t.Run(jt.String(), func(t *testing.T) {
			run := func(generic bool, mem memory.Allocator) (*HashJoin, []string, arrow.RecordBatch) {
				cfg := tinyRadix
				op := &HashJoin{Left: rowsSource(t, schema, probe, 300), Right: rowsSource(t, schema, build, 256),
					LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, generic: generic, BatchRows: 97, radix: &cfg, Alloc: mem}
				var rows []string
				var kept arrow.RecordBatch
				for {
					b, err := op.Next(context.Background())
					if err != nil {
						t.Fatal(err)
					}
					if b == nil {
						break
					}
					rows = append(rows, batchRows(b)...)
					if kept == nil {
						kept = b // released after Close
						continue
					}
					b.Release()
				}
				op.Close()
				return op, sorted(rows), kept
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			op, got, kept := run(false, mem)
			_, want, k2 := run(true, nil)
			k2.Release()
			equalRows(t, "recycled", got, want)
			if op.outMem == nil || op.orderedChunks == 0 {
				t.Fatalf("recycler %v, %d ordered chunks", op.outMem != nil, op.orderedChunks)
			}
			kept.Release()
			if n := mem.CurrentAlloc(); n != 0 {
				t.Fatalf("%d bytes not given back", n)
			}
		})
	}
}
