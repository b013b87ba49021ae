package relop

import (
	"bytes"
	"context"
	"github.com/sqlgate/sqlgate/types"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Distinct streams the first row of each distinct value of Columns (nil:
// all columns); NULLs are equal to each other, floats compare as in
// PostgreSQL. Over the memory limit with a SpillDir, rows of values not
// yet seen go to hash partitions, each deduplicated afterwards.
type Distinct struct {
	Input   exec.Operator
	Columns []int
	// Forms are the key forms of Columns (all columns when Columns is
	// nil), by position (SortKey.Form); nil: all as stored.
	Forms    []types.KeyForm
	Mem      *MemoryAccount
	SpillDir string
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator

	level   int
	clock   *spillClock // the spill's I/O time, shared with the partitions' operators
	started bool
	closed  bool
	hold    holding
	seen    map[string]struct{}
	parts   *partitions
	drain   partitionDrain
	spilled bool
}

func (o *Distinct) Schema() *arrow.Schema { return o.Input.Schema() }

// Spilled reports whether rows went to disk.
func (o *Distinct) Spilled() bool { return o.spilled }

func (o *Distinct) Close() {
	if o.closed {
		return
	}
	o.closed = true
	o.seen = nil
	o.drain.close()
	o.parts.remove()
	o.hold.releaseAll()
	o.Input.Close()
}

func (o *Distinct) keys() []SortKey {
	cols := o.Columns
	if cols == nil {
		cols = make([]int, o.Input.Schema().NumFields())
		for i := range cols {
			cols[i] = i
		}
	}
	return ascKeys(cols, o.Forms)
}

func (o *Distinct) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.closed {
		return nil, nil
	}
	if !o.started {
		o.started = true
		o.hold = holding{acct: o.Mem}
		o.seen = make(map[string]struct{})
	}
	mem := allocOr(o.Alloc)
	keySpec := o.keys()
	for o.seen != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			// input done: free the set, then deduplicate the partitions
			o.seen = nil
			o.hold.releaseAll()
			if o.parts != nil {
				for _, f := range o.parts.files {
					if err := f.finish(); err != nil {
						return nil, err
					}
				}
			}
			break
		}
		out, err := o.filter(mem, b, keySpec)
		b.Release()
		if err != nil || out != nil {
			return out, err
		}
	}
	return o.drain.next(ctx, o.parts, func(src exec.Operator) exec.Operator {
		return &Distinct{Input: src, Columns: o.Columns, Forms: o.Forms, Mem: o.Mem, SpillDir: o.SpillDir, Alloc: o.Alloc, level: o.level + 1, clock: o.clockOf()}
	})
}

// filter returns the batch's rows whose value is new (nil if none).
func (o *Distinct) filter(mem memory.Allocator, b arrow.RecordBatch, keySpec []SortKey) (arrow.RecordBatch, error) {
	keys, err := encodeBatchKeys(b, keySpec)
	if err != nil {
		return nil, err
	}
	var emit []rowRef
	var spill []int32
	var grown int64
	for i, k := range keys {
		if _, ok := o.seen[string(k)]; ok {
			continue
		}
		if o.parts != nil {
			spill = append(spill, int32(i))
			continue
		}
		o.seen[string(k)] = struct{}{}
		grown += int64(len(k)) + 48
		emit = append(emit, rowRef{0, uint32(i)})
	}
	if err := o.hold.grow(grown); err != nil {
		if o.SpillDir == "" || o.level >= maxSpillDepth {
			return nil, err
		}
		o.hold.force(grown)
		parts, err := newPartitions(o.SpillDir, o.Schema(), mem, maphash.MakeSeed(), o.clockOf())
		if err != nil {
			return nil, err
		}
		o.parts = parts
		o.spilled = true
	}
	if len(spill) > 0 {
		if err := o.parts.write(mem, b, keys, spill); err != nil {
			return nil, err
		}
	}
	if len(emit) == 0 {
		return nil, nil
	}
	return gatherBatch(mem, o.Schema(), []arrow.RecordBatch{b}, emit)
}

// DistinctOn keeps the first row of each run of equal Keys (DISTINCT ON);
// its input is sorted by Keys first, so the runs are the groups.
type DistinctOn struct {
	Input exec.Operator
	Keys  []int
	// Forms are Keys' key forms by position (SortKey.Form); nil: all
	// as stored.
	Forms []types.KeyForm
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator

	last    []byte
	hasLast bool
}

func (o *DistinctOn) Schema() *arrow.Schema { return o.Input.Schema() }
func (o *DistinctOn) Close()                { o.Input.Close() }
func (o *DistinctOn) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.Input.Next(ctx)
		if err != nil || b == nil {
			return b, err
		}
		keys, err := encodeBatchKeys(b, ascKeys(o.Keys, o.Forms))
		if err != nil {
			b.Release()
			return nil, err
		}
		var emit []rowRef
		for i, k := range keys {
			if o.hasLast && bytes.Equal(k, o.last) {
				continue
			}
			o.last = append(o.last[:0], k...)
			o.hasLast = true
			emit = append(emit, rowRef{0, uint32(i)})
		}
		if len(emit) == 0 {
			b.Release()
			continue
		}
		if len(emit) == int(b.NumRows()) {
			return b, nil
		}
		out, err := gatherBatch(allocOr(o.Alloc), o.Schema(), []arrow.RecordBatch{b}, emit)
		b.Release()
		return out, err
	}
}

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

// The set operations.
const (
	Union SetOpKind = iota
	Intersect
	Except
)

// SetOp combines two inputs of the same column types with PostgreSQL's
// duplicate rules: UNION ALL concatenates, UNION removes duplicates,
// INTERSECT ALL keeps min(m, n) copies of a row that appears m times on the
// left and n on the right, EXCEPT ALL keeps max(m - n, 0), and the forms
// without ALL keep one copy of the qualifying rows. NULLs are equal here.
// INTERSECT and EXCEPT hold the distinct rows of both sides with their
// counts and must fit in Mem; UNION's duplicate removal spills like
// Distinct.
type SetOp struct {
	Left, Right exec.Operator
	Kind        SetOpKind
	All         bool
	// Forms are the columns' key forms by position (SortKey.Form);
	// nil: all as stored.
	Forms    []types.KeyForm
	Mem      *MemoryAccount
	SpillDir string
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator

	started bool
	closed  bool
	hold    holding
	union   exec.Operator
	table   *groupTable
	left    []int64
	right   []int64
	next    int
	done    int64
}

func (o *SetOp) Schema() *arrow.Schema { return o.Left.Schema() }

func (o *SetOp) Close() {
	if o.closed {
		return
	}
	o.closed = true
	if o.union != nil {
		o.union.Close() // closes Left and Right through concat
	} else {
		o.Left.Close()
		o.Right.Close()
	}
	if o.table != nil {
		o.table.release()
	}
	o.hold.releaseAll()
}

func (o *SetOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.closed {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !o.started {
		o.started = true
		o.hold = holding{acct: o.Mem}
		if o.Left.Schema().NumFields() != o.Right.Schema().NumFields() {
			return nil, sqlerr.New(sqlerr.SyntaxError, "each %s query must have the same number of columns", []string{"UNION", "INTERSECT", "EXCEPT"}[o.Kind])
		}
		if o.Kind == Union {
			o.union = &concat{inputs: []exec.Operator{o.Left, o.Right}}
			if !o.All {
				o.union = &Distinct{Input: o.union, Forms: o.Forms, Mem: o.Mem, SpillDir: o.SpillDir, Alloc: o.Alloc}
			}
		} else if err := o.count(ctx); err != nil {
			return nil, err
		}
	}
	if o.union != nil {
		return o.union.Next(ctx)
	}
	return o.emit()
}

// count reads both sides into a table of distinct rows with their counts
// on each side; each row is represented by its first left occurrence, as
// PostgreSQL's hashed set operation does (it matters for -0 and +0).
func (o *SetOp) count(ctx context.Context) error {
	mem := allocOr(o.Alloc)
	o.table = newGroupTable(o.Left.Schema(), ascKeys(allColumns(o.Left.Schema().NumFields()), o.Forms), false)
	var groups []uint32
	for side, in := range []exec.Operator{o.Left, o.Right} {
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			b, err := in.Next(ctx)
			if err != nil {
				return err
			}
			if b == nil {
				break
			}
			n := int(b.NumRows())
			groups = grow(groups[:0], n)[:n]
			var missing []int32
			before := o.table.size()
			if side == 0 {
				err = o.table.assign(mem, b, groups, true, nil)
			} else {
				err = o.table.assign(mem, b, groups, false, &missing)
			}
			b.Release()
			if err != nil {
				return err
			}
			o.left = grow(o.left, o.table.n)
			o.right = grow(o.right, o.table.n)
			for _, g := range groups {
				if g == missingGroup {
					continue
				}
				if side == 0 {
					o.left[g]++
				} else {
					o.right[g]++
				}
			}
			if err := o.hold.grow(o.table.size() - before + int64(o.table.n-len(o.left))*16); err != nil {
				return err
			}
		}
	}
	return nil
}

// emit returns the next batch of qualifying rows.
func (o *SetOp) emit() (arrow.RecordBatch, error) {
	var refs []rowRef
	for o.next < o.table.n && len(refs) < defaultBatchRows {
		g := o.next
		l, r := o.left[g], o.right[g]
		var copies int64
		switch {
		case o.Kind == Intersect && o.All:
			copies = min(l, r)
		case o.Kind == Intersect:
			if l > 0 && r > 0 {
				copies = 1
			}
		case o.All:
			copies = max(l-r, 0)
		default:
			if l > 0 && r == 0 {
				copies = 1
			}
		}
		copies -= o.done
		chunk := min(copies, int64(defaultBatchRows-len(refs)))
		for i := int64(0); i < chunk; i++ {
			refs = append(refs, o.table.keyRefs[g])
		}
		if chunk < copies {
			o.done += chunk
			break
		}
		o.done = 0
		o.next++
	}
	if len(refs) == 0 {
		return nil, nil
	}
	return gatherBatch(allocOr(o.Alloc), o.Schema(), o.table.keyStore, refs)
}

func allColumns(n int) []int {
	cols := make([]int, n)
	for i := range cols {
		cols[i] = i
	}
	return cols
}

// concat streams its inputs one after the other (UNION ALL).
type concat struct {
	inputs []exec.Operator
	pos    int
}

func (c *concat) Schema() *arrow.Schema { return c.inputs[0].Schema() }
func (c *concat) Close() {
	for _, in := range c.inputs {
		in.Close()
	}
}
func (c *concat) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for c.pos < len(c.inputs) {
		b, err := c.inputs[c.pos].Next(ctx)
		if err != nil {
			return nil, err
		}
		if b != nil {
			if c.pos > 0 && !c.inputs[0].Schema().Equal(b.Schema()) {
				// the right input's column names differ: the left's names win
				out := arrowWithSchema(c.inputs[0].Schema(), b)
				b.Release()
				return out, nil
			}
			return b, nil
		}
		c.pos++
	}
	return nil, nil
}
