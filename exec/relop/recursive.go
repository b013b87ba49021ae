package relop

import (
	"context"
	"github.com/sqlgate/sqlgate/types"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// RecursiveUnion evaluates a recursive WITH query as PostgreSQL's
// nodeRecursiveunion.c does: it emits the non-recursive term's rows and
// keeps them as the working table; then, while the working table holds
// rows, it runs the recursive term (whose WorkTableScan reads the working
// table), emits its rows, and makes them the next working table. Without
// All, a row equal to one emitted before is dropped (and not fed back), so
// a graph with cycles ends.
//
// It streams: rows go out as they are produced, so a LIMIT above it stops
// an unbounded recursion. The working tables are charged to Mem and spill
// to SpillDir past its limit; the set of rows seen (UNION) cannot spill,
// so it fails with 53200 past the limit. ctx is checked at every batch
// and every iteration (cancel, statement_timeout), and MaxIterations
// bounds the recursion's depth with a 54000 error.
type RecursiveUnion struct {
	// Name is the WITH query's, for errors.
	Name   string
	NonRec exec.Operator
	// BuildRec instantiates the recursive term over WT; it is called once
	// per iteration, each operator closed before the next is built.
	BuildRec func() (exec.Operator, error)
	WT       *WorkTable
	// Out is the schema of every batch (the non-recursive term's types).
	Out *arrow.Schema
	All bool
	// Forms are the columns' key forms by position (SortKey.Form) for
	// UNION's duplicate check; nil: all as stored.
	Forms         []types.KeyForm
	MaxIterations int // <= 0: unbounded
	Mem           *MemoryAccount
	SpillDir      string
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator

	started, done, closed bool
	cur                   exec.Operator // the term being read (NonRec, or a built recursive term)
	next                  *rowStore     // the rows the current term produced
	seen                  map[string]struct{}
	seenHold              holding
	iterations            int
	spilled               bool
}

// WorkTable is the working table a RecursiveUnion shares with the
// WorkTableScan of its recursive term.
type WorkTable struct {
	rows *rowStore
}

// NewWorkTable returns an empty working table.
func NewWorkTable() *WorkTable { return &WorkTable{} }

// WorkTableScan reads the current working table of a RecursiveUnion.
type WorkTableScan struct {
	WT  *WorkTable
	Out *arrow.Schema

	r      *storeReader
	opened bool
}

func (o *WorkTableScan) Schema() *arrow.Schema { return o.Out }
func (o *WorkTableScan) Close() {
	if o.r != nil {
		o.r.close()
		o.r = nil
	}
}
func (o *WorkTableScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !o.opened {
		o.opened = true
		if o.WT.rows == nil {
			return nil, nil
		}
		r, err := o.WT.rows.reader()
		if err != nil {
			return nil, err
		}
		o.r = r
	}
	return o.r.nextAs(o.Out)
}

func (o *RecursiveUnion) Schema() *arrow.Schema { return o.Out }

// Spilled reports whether a working table went to disk.
func (o *RecursiveUnion) Spilled() bool { return o.spilled }

// Iterations is the number of times the recursive term ran.
func (o *RecursiveUnion) Iterations() int { return o.iterations }

func (o *RecursiveUnion) Close() {
	if o.closed {
		return
	}
	o.closed = true
	if o.cur != nil && o.cur != o.NonRec {
		o.cur.Close()
	}
	o.cur = nil
	o.NonRec.Close()
	o.next.release()
	o.next = nil
	if o.WT != nil {
		o.WT.rows.release()
		o.WT.rows = nil
	}
	o.seen = nil
	o.seenHold.releaseAll()
}

func (o *RecursiveUnion) newStore() *rowStore {
	return &rowStore{schema: o.Out, mem: allocOr(o.Alloc), spillDir: o.SpillDir, hold: holding{acct: o.Mem}}
}

func (o *RecursiveUnion) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.closed || o.done {
		return nil, nil
	}
	if !o.started {
		o.started = true
		o.cur = o.NonRec
		o.next = o.newStore()
		o.seenHold = holding{acct: o.Mem}
		if !o.All {
			o.seen = map[string]struct{}{}
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.cur.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			if err := o.nextIteration(); err != nil || o.done {
				return nil, err
			}
			continue
		}
		out := arrowWithSchema(o.Out, b)
		b.Release()
		if !o.All {
			kept, err := o.dedup(out)
			out.Release()
			if err != nil {
				return nil, err
			}
			if kept == nil {
				continue
			}
			out = kept
		}
		if out.NumRows() == 0 {
			out.Release()
			continue
		}
		if err := o.next.add(out); err != nil {
			out.Release()
			return nil, err
		}
		o.spilled = o.spilled || o.next.file != nil
		return out, nil
	}
}

// nextIteration ends the term being read: the rows it produced become the
// working table and the recursive term runs over them, or, when it
// produced none, the recursion is done.
func (o *RecursiveUnion) nextIteration() error {
	if o.cur != o.NonRec {
		o.cur.Close()
	}
	o.cur = nil
	if o.next.rows == 0 {
		o.done = true
		o.next.release()
		o.WT.rows.release()
		o.WT.rows = nil
		return nil
	}
	o.iterations++
	if o.MaxIterations > 0 && o.iterations > o.MaxIterations {
		return sqlerr.New(sqlerr.ProgramLimitExceeded, "recursive query %q exceeded %d iterations", o.Name, o.MaxIterations).WithHint(
			"The recursive term still produced rows after %d runs; add a condition to it that ends the recursion, or a LIMIT to the query that reads it.", o.MaxIterations)
	}
	o.WT.rows.release()
	o.WT.rows = o.next
	o.next = o.newStore()
	op, err := o.BuildRec()
	if err != nil {
		return err
	}
	o.cur = op
	return nil
}

// dedup returns the rows of b not seen before (nil when none), adding them
// to the set of seen rows.
func (o *RecursiveUnion) dedup(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]int, b.NumCols())
	for i := range cols {
		cols[i] = i
	}
	keys, err := encodeBatchKeys(b, ascKeys(cols, o.Forms))
	if err != nil {
		return nil, err
	}
	var emit []rowRef
	var grown int64
	for i, k := range keys {
		if _, ok := o.seen[string(k)]; ok {
			continue
		}
		o.seen[string(k)] = struct{}{}
		grown += int64(len(k)) + 48
		emit = append(emit, rowRef{0, uint32(i)})
	}
	if err := o.seenHold.grow(grown); err != nil {
		return nil, err
	}
	if len(emit) == 0 {
		return nil, nil
	}
	if len(emit) == len(keys) {
		b.Retain()
		return b, nil
	}
	return gatherBatch(allocOr(o.Alloc), o.Out, []arrow.RecordBatch{b}, emit)
}

// rowStore keeps batches in order: in memory, charged to an account, and
// once the account's limit is reached (with a spill directory) in a spill
// file, the batches held so far first.
type rowStore struct {
	schema   *arrow.Schema
	mem      memory.Allocator
	spillDir string
	hold     holding
	batches  []arrow.RecordBatch
	file     *spillFile
	rows     int64
}

func (s *rowStore) add(b arrow.RecordBatch) error {
	s.rows += b.NumRows()
	if s.file != nil {
		return s.file.write(b)
	}
	if err := s.hold.grow(batchBytes(b)); err != nil {
		if s.spillDir == "" {
			return err
		}
		f, ferr := newSpillFile(s.spillDir, s.schema, s.mem, nil)
		if ferr != nil {
			return ferr
		}
		s.file = f
		for _, old := range s.batches {
			if err := f.write(old); err != nil {
				return err
			}
			old.Release()
		}
		s.batches = nil
		s.hold.releaseAll()
		return f.write(b)
	}
	b.Retain()
	s.batches = append(s.batches, b)
	return nil
}

// release frees the store (nil: nothing).
func (s *rowStore) release() {
	if s == nil {
		return
	}
	for _, b := range s.batches {
		b.Release()
	}
	s.batches = nil
	s.hold.releaseAll()
	if s.file != nil {
		s.file.remove()
		s.file = nil
	}
	s.rows = 0
}

// storeReader returns a store's batches in the order they were added.
type storeReader struct {
	s    *rowStore
	i    int
	file *spillReader
}

func (s *rowStore) reader() (*storeReader, error) {
	r := &storeReader{s: s}
	if s.file != nil {
		fr, err := s.file.open()
		if err != nil {
			return nil, err
		}
		r.file = fr
	}
	return r, nil
}

func (r *storeReader) next() (arrow.RecordBatch, error) {
	if r.i < len(r.s.batches) {
		b := r.s.batches[r.i]
		r.i++
		b.Retain()
		return b, nil
	}
	if r.file != nil {
		return r.file.next()
	}
	return nil, nil
}

// nextAs is next with the batch under schema out; a nil reader (a store
// never opened) has no rows.
func (r *storeReader) nextAs(out *arrow.Schema) (arrow.RecordBatch, error) {
	if r == nil {
		return nil, nil
	}
	b, err := r.next()
	if err != nil || b == nil {
		return nil, err
	}
	o := arrowWithSchema(out, b)
	b.Release()
	return o, nil
}

func (r *storeReader) close() {
	if r.file != nil {
		r.file.close()
		r.file = nil
	}
}
