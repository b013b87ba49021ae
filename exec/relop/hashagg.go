package relop

import (
	"context"
	"encoding/binary"
	"errors"
	"github.com/sqlgate/sqlgate/types"
	"hash/maphash"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// AggSpec is one aggregate call.
type AggSpec struct {
	// Func is the aggregate's name: count, sum, avg, min, max, bool_and,
	// bool_or, every, string_agg, array_agg, stddev, stddev_samp,
	// stddev_pop, variance, var_samp, var_pop.
	Func string
	// Arg is the argument's input column; -1 for count(*).
	Arg int
	// Distinct aggregates each distinct (non-NULL) argument value once.
	Distinct bool
	// Form is the argument's key form (SortKey.Form): a bpchar's DISTINCT
	// values compare without trailing blanks, a jsonb's as jsonb.
	Form types.KeyForm
	// Money marks sum's argument as money (an int64 of cents): a sum
	// past int64 is cash_pl's "money out of range", not bigint's.
	Money bool
	// Filter is a boolean input column (FILTER (WHERE ...)); only rows
	// where it is true are aggregated. -1: none.
	Filter int
	// OrderBy orders the values of string_agg and array_agg.
	OrderBy []SortKeySpec
	// Sep is string_agg's separator column (-1 otherwise).
	Sep int
	// X is the second argument's column of the aggregates over (Y, X)
	// pairs (corr, covar_*, regr_*; Arg is Y); unused otherwise.
	X int
	// Arrays marks array_agg(anyarray) (binder.AggCall.Arrays): NULL,
	// empty and unequal arrays are errors (arrayaggarrays.go).
	Arrays bool
}

// HashAggregate groups its input by GroupBy and computes Aggs per group.
// Out lists the group columns (in GroupBy order) and then the aggregates,
// typed as AggResultType says. Without GroupBy it emits exactly one row,
// even for an empty input. Output order is unspecified.
//
// When Mem refuses to grow and SpillDir is set, groups already in the table
// keep aggregating in memory while rows of new groups are written to hash
// partitions on disk, each aggregated afterwards in turn (recursively, with
// a fresh hash seed), as PostgreSQL's hash aggregation spills.
type HashAggregate struct {
	Input   exec.Operator
	GroupBy []int
	// Forms are GroupBy's key forms (SortKey.Form), by position in
	// GroupBy; nil: all as stored.
	Forms    []types.KeyForm
	Aggs     []AggSpec
	Out      *arrow.Schema
	Mem      *MemoryAccount
	SpillDir string
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator
	// BatchRows is the output batch size (0: 8192).
	BatchRows int
	// GroupOrder is the sort by the group keys (input columns) that
	// PostgreSQL's GroupAggregate reads its input in, when it has an
	// aggregate with ORDER BY or DISTINCT and the input is not sorted so
	// already: the order its groups finish in (groupfinish.go).
	GroupOrder []SortKey

	// generic forces the byte-encoded key path (tests compare the two).
	generic bool

	level     int
	started   bool
	hold      holding
	table     *groupTable
	accs      []accumulator
	emitted   int
	ids       []uint32
	parts     *partitions
	drain     partitionDrain
	closed    bool
	spilled   bool
	clock     *spillClock // the spill's I/O time, shared with the partitions' operators
	seedLevel maphash.Seed
	fused     *fusedSum // the one-pass loop, when the aggregation qualifies (fusedsum.go)
}

// maxSpillDepth bounds recursive repartitioning.
const maxSpillDepth = 8

func (o *HashAggregate) Schema() *arrow.Schema { return o.Out }

func (o *HashAggregate) alloc() memory.Allocator {
	if o.Alloc == nil {
		return memory.DefaultAllocator
	}
	return o.Alloc
}

func (o *HashAggregate) batchRows() int {
	if o.BatchRows <= 0 {
		return defaultBatchRows
	}
	return o.BatchRows
}

// Spilled reports whether the operator wrote partitions to disk.
func (o *HashAggregate) Spilled() bool { return o.spilled }

func (o *HashAggregate) Close() {
	if o.closed {
		return
	}
	o.closed = true
	o.dropTable()
	o.drain.close()
	o.parts.remove()
	o.Input.Close()
}

func (o *HashAggregate) dropTable() {
	if o.table != nil {
		o.table.release()
		o.table = nil
	}
	o.accs = nil
	o.hold.releaseAll()
}

func (o *HashAggregate) init() error {
	in := o.Input.Schema()
	if o.Out == nil || o.Out.NumFields() != len(o.GroupBy)+len(o.Aggs) {
		return sqlerr.New(sqlerr.InternalError, "hash aggregate: output schema must have %d columns", len(o.GroupBy)+len(o.Aggs))
	}
	for _, c := range o.GroupBy {
		if c < 0 || c >= in.NumFields() {
			return sqlerr.New(sqlerr.InternalError, "hash aggregate: group column %d out of range", c)
		}
	}
	o.hold = holding{acct: o.Mem}
	o.table = newGroupTable(in, ascKeys(o.GroupBy, o.Forms), o.generic)
	o.accs = make([]accumulator, len(o.Aggs))
	for i, a := range o.Aggs {
		acc, err := newAccumulator(a, in, o.Out.Field(len(o.GroupBy)+i).Type)
		if err != nil {
			return err
		}
		o.accs[i] = acc
		// the table counts the rows it assigns, which are the rows
		// update sees unless FILTER or DISTINCT selects among them
		if s, ok := acc.(countSharer); ok && a.Filter < 0 && !a.Distinct {
			if o.table.rows == nil {
				o.table.rows = &groupCounts{}
			}
			s.shareCounts(o.table.rows)
		}
	}
	if len(o.GroupBy) == 0 {
		o.table.n = 1 // the one group exists even for an empty input
		if o.table.rows != nil {
			o.table.rows.n = make([]int64, 1)
		}
		for _, acc := range o.accs {
			acc.resize(1)
		}
	}
	o.seedLevel = maphash.MakeSeed()
	o.fused = newFusedSum(o)
	return nil
}

func (o *HashAggregate) stateBytes() int64 {
	n := o.table.size()
	for _, a := range o.accs {
		n += a.size()
	}
	return n
}

// consume aggregates the whole input. Without GROUP BY, over a filter (a
// Selector, exec/operator.go), it takes the filter's input batches with the
// rows kept rather than the kept rows copied out (W4: count, sum and avg
// over the rows of a WHERE); the accumulators add the selected rows where
// they are. (With GROUP BY the group table would need the selection too.)
func (o *HashAggregate) consume(ctx context.Context) error {
	mem := o.alloc()
	var groups []uint32
	var sel []int32
	src, selecting := o.Input.(exec.Selector)
	selecting = selecting && len(o.GroupBy) == 0 && src.CanSelect()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var b arrow.RecordBatch
		var rows []int32
		var err error
		if selecting {
			b, rows, err = src.NextSelected(ctx)
		} else {
			b, err = o.Input.Next(ctx)
		}
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		err = o.consumeBatch(mem, b, rows, &groups, &sel)
		b.Release()
		if err != nil {
			return err
		}
	}
}

// consumeBatch aggregates the rows of b that rows lists (nil: all; only
// without GROUP BY).
func (o *HashAggregate) consumeBatch(mem memory.Allocator, b arrow.RecordBatch, rows []int32, groupsBuf *[]uint32, selBuf *[]int32) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	groups := resize(*groupsBuf, n) // assign sets every row's group
	*groupsBuf = groups
	if rows == nil && o.parts == nil && o.fused != nil {
		done := o.fused.run(o.table, b)
		if done == n {
			return nil
		}
		if done > 0 {
			// the rest (from a row with a new key) the general way
			b = b.NewSlice(int64(done), int64(n))
			defer b.Release()
			n -= done
			groups = groups[:n]
		}
	}
	var base []int32 // rows to aggregate; nil = all
	if rows != nil {
		// the one group: every row's is 0, the selected rows are counted
		clear(groups)
		if o.table.rows != nil {
			o.table.rows.n[0] += int64(len(rows))
		}
		base = rows
	} else if o.parts == nil {
		if err := o.table.assign(mem, b, groups, true, nil); err != nil {
			return err
		}
	} else {
		missing := make([]int32, 0)
		if err := o.table.assign(mem, b, groups, false, &missing); err != nil {
			return err
		}
		if len(missing) > 0 {
			keys, err := encodeBatchKeys(b, o.table.keys)
			if err != nil {
				return err
			}
			if err := o.parts.write(mem, b, keys, missing); err != nil {
				return err
			}
		}
		base = make([]int32, 0, n-len(missing))
		for i, g := range groups {
			if g != missingGroup {
				base = append(base, int32(i))
			}
		}
		if len(base) == 0 {
			return nil
		}
	}
	for _, acc := range o.accs {
		acc.resize(o.table.n)
	}
	cols := b.Columns()
	// PostgreSQL advances every aggregate for a row before the next row
	// (advance_aggregates), so of the errors that name their row
	// (rowError) the first row's is the statement's, and for that row
	// the first aggregate's: after one, the later aggregates take only
	// the rows before it.
	var first *rowError
	var before []int32
	for i, spec := range o.Aggs {
		rows := base
		if spec.Filter >= 0 {
			rows = filterRows(cols[spec.Filter], base, (*selBuf)[:0])
			*selBuf = rows
			if len(rows) == 0 {
				continue
			}
		}
		if first != nil {
			if before = rowsBefore(rows, first.row, before[:0]); len(before) == 0 {
				continue
			}
			rows = before
		}
		err := o.accs[i].update(cols, groups, rows)
		var re rowError
		switch {
		case err == nil:
		case errors.As(err, &re):
			first = &re
		case first != nil:
			return first.err
		default:
			return err
		}
	}
	if first != nil {
		return first.err
	}
	// charge the growth; over the limit, switch to spilling new groups
	delta := o.stateBytes() - o.hold.n
	if delta > 0 {
		if err := o.hold.grow(delta); err != nil {
			if o.SpillDir == "" || len(o.GroupBy) == 0 || o.level >= maxSpillDepth {
				return err
			}
			o.hold.force(delta)
			if o.parts == nil {
				parts, perr := newPartitions(o.SpillDir, o.Input.Schema(), mem, o.seedLevel, o.clockOf())
				if perr != nil {
					return perr
				}
				o.parts = parts
				o.spilled = true
			}
		}
	}
	return nil
}

// rowError is an aggregate's error at row row of its input batch.
type rowError struct {
	row int
	err error
}

func (e rowError) Error() string { return e.err.Error() }
func (e rowError) Unwrap() error { return e.err }

// rowsBefore returns the rows of base (nil: all) before row r.
func rowsBefore(base []int32, r int, buf []int32) []int32 {
	if base == nil {
		for i := 0; i < r; i++ {
			buf = append(buf, int32(i))
		}
		return buf
	}
	n, _ := slices.BinarySearch(base, int32(r))
	return append(buf, base[:n]...)
}

// filterRows returns the rows of base (nil: all) where the boolean column is true.
func filterRows(col arrow.Array, base []int32, buf []int32) []int32 {
	f, ok := col.(*array.Boolean)
	if !ok {
		return buf[:0]
	}
	out := buf[:0]
	forRows(f.Len(), base, func(i int) {
		if f.IsValid(i) && f.Value(i) {
			out = append(out, int32(i))
		}
	})
	return out
}

func (o *HashAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.closed {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !o.started {
		o.started = true
		if err := o.init(); err != nil {
			return nil, err
		}
		if err := o.consume(ctx); err != nil {
			return nil, err
		}
		if o.parts != nil {
			for _, f := range o.parts.files {
				if err := f.finish(); err != nil {
					return nil, err
				}
			}
		}
		if err := o.checkGroups(o.alloc()); err != nil {
			return nil, err
		}
	}
	if o.table != nil {
		if o.emitted < o.table.n {
			return o.emit()
		}
		o.dropTable()
	}
	return o.drain.next(ctx, o.parts, func(src exec.Operator) exec.Operator {
		return &HashAggregate{Input: src, GroupBy: o.GroupBy, Forms: o.Forms, Aggs: o.Aggs, Out: o.Out, Mem: o.Mem,
			SpillDir: o.SpillDir, Alloc: o.Alloc, BatchRows: o.BatchRows, GroupOrder: o.GroupOrder, level: o.level + 1, generic: o.generic, clock: o.clockOf()}
	})
}

func (o *HashAggregate) emit() (arrow.RecordBatch, error) {
	mem := o.alloc()
	lo := o.emitted
	hi := min(lo+o.batchRows(), o.table.n)
	o.emitted = hi
	o.ids = o.ids[:0]
	for g := lo; g < hi; g++ {
		o.ids = append(o.ids, uint32(g))
	}
	cols := make([]arrow.Array, 0, o.Out.NumFields())
	keyCols, err := o.table.keysOf(mem, lo, hi)
	if err != nil {
		return nil, err
	}
	cols = append(cols, keyCols...)
	for _, acc := range o.accs {
		a, err := acc.finish(mem, o.ids)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols = append(cols, a)
	}
	out := array.NewRecordBatch(o.Out, cols, int64(hi-lo))
	releaseAll(cols)
	return out, nil
}

// ---- the group table ----

const missingGroup = ^uint32(0)

// varBytes is a text or bytea column's values: ValueBytes starts at the
// first value's offset.
type varBytes interface {
	ValueOffsets() []int32
	ValueBytes() []byte
}

// denseKeys is the first size of the array of integer keys looked up by
// direct indexing; it grows, by powers of two up to maxDenseKeys, while
// that holds at most denseSparsity slots per group: 16 bytes a group at
// most, less than the hash table's 24 (two slots of 12 bytes), so the
// memory account, and with it spilling, sees no more than before (W7's
// user ids 1..100000 end in one array of 128Ki: lookups in 512 KiB
// instead of a hash table's 3 MiB).
const (
	denseKeys     = 1 << 14
	maxDenseKeys  = 1 << 20
	denseSparsity = 4
)

// growDense widens the dense array to cover key v when the keys so far are
// dense enough, moving the keys it now covers out of the hash table (a key
// below len(dense) is always looked up there, never in ints).
func (t *groupTable) growDense(v int64) {
	size := max(denseKeys, len(t.dense))
	for size <= int(v) {
		size *= 2
	}
	if size > denseKeys && size > denseSparsity*(t.n+1) {
		return
	}
	dense := make([]uint32, size)
	copy(dense, t.dense)
	t.held += int64(size-len(t.dense)) * 4
	if t.ints.n > 0 {
		rest := newIntTable()
		for i, g := range t.ints.vals {
			if g == 0 {
				continue
			}
			if k := t.ints.keys[i]; uint64(k) < uint64(size) {
				dense[k] = uint32(g) // both hold group+1
			} else {
				rest.put(k, g-1)
			}
		}
		t.ints = rest
	}
	t.dense = dense
}

// groupTable maps group keys to dense group ids. A single integer-like key
// uses direct indexing for small non-negative values and an open-addressing
// intTable for the rest; other keys use their byte encoding in a map. The key values of
// each group are kept in small compacted batches (the first row of each new
// group per input batch), not by retaining input batches.
type groupTable struct {
	keys      []SortKey // ascending, over keyCols
	keyCols   []int
	keySchema *arrow.Schema
	intKey    bool
	strKey    bool // one text or bytea key: its bytes key strs, NULL is nullGroup
	ints      *intTable
	dense     []uint32 // group+1 of keys in [0, denseKeys), 0 = none
	nullGroup uint32
	strs      map[string]uint32
	shorts    *intTable // the text key's values of at most 7 bytes (shortKey)
	n         int
	keyStore  []arrow.RecordBatch
	keyRefs   []rowRef
	held      int64
	i64       []int64
	arena     []byte
	newRows   []rowRef
	// rows, when set, counts each group's rows as assign gives them their
	// group (HashAggregate's shared counts, aggfuncs.go's groupCounts).
	rows *groupCounts
}

func newGroupTable(in *arrow.Schema, keys []SortKey, generic bool) *groupTable {
	fs := make([]arrow.Field, len(keys))
	keyCols := make([]int, len(keys))
	for i, k := range keys {
		fs[i] = in.Field(k.Column)
		keyCols[i] = k.Column
	}
	t := &groupTable{keys: keys, keyCols: keyCols, keySchema: arrow.NewSchema(fs, nil), nullGroup: missingGroup}
	if len(keyCols) == 1 && !generic && isFixedKey(in.Field(keyCols[0]).Type) {
		t.intKey = true
		t.ints = newIntTable()
	} else {
		t.strs = make(map[string]uint32)
		if len(keyCols) == 1 && !generic && keys[0].Form == types.KeyAsStored {
			id := in.Field(keyCols[0]).Type.ID()
			t.strKey = id == arrow.STRING || id == arrow.BINARY
		}
	}
	return t
}

func (t *groupTable) size() int64 {
	n := t.held + int64(len(t.keyRefs))*8
	if t.rows != nil {
		n += int64(cap(t.rows.n)) * 8
	}
	if t.ints != nil {
		n += t.ints.bytes()
	}
	if t.shorts != nil {
		n += t.shorts.bytes()
	}
	return n
}

func (t *groupTable) release() {
	for _, b := range t.keyStore {
		b.Release()
	}
	t.keyStore = nil
}

// assign sets groups[i] for every row of b. With insert, unknown keys get
// new groups; without, they get missingGroup and are listed in missing.
// With rows set, it also counts each group's rows (missing ones aside).
func (t *groupTable) assign(mem memory.Allocator, b arrow.RecordBatch, groups []uint32, insert bool, missing *[]int32) error {
	n := int(b.NumRows())
	if len(t.keyCols) == 0 {
		for i := range groups {
			groups[i] = 0
		}
		if t.rows != nil {
			t.rows.n[0] += int64(n)
		}
		return nil
	}
	t.newRows = t.newRows[:0]
	// strGroup gives row i the group of its byte key k (a text key's bytes,
	// or the encoded key of several or other columns).
	strGroup := func(i int, k []byte) {
		g, ok := t.strs[string(k)]
		if !ok {
			if !insert {
				groups[i] = missingGroup
				*missing = append(*missing, int32(i))
				return
			}
			g = t.newGroup(i)
			t.strs[string(k)] = g
			t.held += int64(len(k)) + 56
		}
		groups[i] = g
	}
	if t.intKey {
		t.assignInts(b.Column(t.keyCols[0]), groups, insert, missing)
	} else if vb, ok := b.Column(t.keyCols[0]).(varBytes); ok && t.strKey {
		// One text key (W7's country): its bytes are the map's key as
		// they are, without the byte encoding of several typed columns.
		// A key of at most 7 bytes is looked up as one word (its bytes and
		// its length, shortKey) in an integer table: W7's country codes,
		// without a string hash and a Go map's probe a row.
		col := b.Column(t.keyCols[0])
		nulls := col.NullN() > 0
		offs, data := vb.ValueOffsets(), vb.ValueBytes()
		base := offs[0]
		if t.shorts == nil {
			t.shorts = newIntTable()
		}
		for i := range n {
			if nulls && col.IsNull(i) {
				if t.nullGroup == missingGroup {
					if !insert {
						groups[i] = missingGroup
						*missing = append(*missing, int32(i))
						continue
					}
					t.nullGroup = t.newGroup(i)
				}
				groups[i] = t.nullGroup
				continue
			}
			lo, hi := int(offs[i]-base), int(offs[i+1]-base)
			if hi-lo > 7 {
				strGroup(i, data[lo:hi])
				continue
			}
			key := shortKey(data, lo, hi)
			if !insert {
				g, ok := t.shorts.get(key)
				if !ok {
					groups[i] = missingGroup
					*missing = append(*missing, int32(i))
					continue
				}
				groups[i] = uint32(g)
				continue
			}
			g, added := t.shorts.getOrPut(key, int32(t.n))
			if added {
				t.newGroup(i)
			}
			groups[i] = uint32(g)
		}
	} else {
		if t.strKey {
			return sqlerr.New(sqlerr.InternalError, "group key column %d: %s is not text", t.keyCols[0], b.Column(t.keyCols[0]).DataType())
		}
		cols := b.Columns()
		keys := t.keys
		var bufs [][]byte
		bufs, t.arena = keyBuffers(n, keyWidthHint(cols, keys), t.arena)
		if err := encodeKeys(cols, keys, bufs); err != nil {
			return err
		}
		for i, k := range bufs {
			strGroup(i, k)
		}
	}
	if t.rows != nil && !t.intKey {
		// the integer key's loops count as they go; these paths are
		// dominated by their hashing, so a second pass costs little
		c := t.rows.n
		for _, g := range groups {
			if g != missingGroup {
				c[g]++
			}
		}
	}
	if len(t.newRows) == 0 {
		return nil
	}
	kcols := make([]arrow.Array, len(t.keyCols))
	for i, c := range t.keyCols {
		kcols[i] = b.Column(c)
	}
	kb := array.NewRecordBatch(t.keySchema, kcols, int64(n))
	compact, err := gatherBatch(mem, t.keySchema, []arrow.RecordBatch{kb}, t.newRows)
	kb.Release()
	if err != nil {
		return err
	}
	bi := uint32(len(t.keyStore))
	t.keyStore = append(t.keyStore, compact)
	t.held += batchBytes(compact)
	for j := range t.newRows {
		t.keyRefs = append(t.keyRefs, rowRef{bi, uint32(j)})
	}
	return nil
}

// shortKey is the text or bytea value data[lo:hi] of at most 7 bytes as
// one word: its bytes, little-endian, below its length in the top byte, so
// that two such values have equal words exactly when they are equal.
func shortKey(data []byte, lo, hi int) int64 {
	l := hi - lo
	var w uint64
	if lo+8 <= len(data) {
		w = binary.LittleEndian.Uint64(data[lo:]) & (1<<(8*l) - 1)
	} else {
		for j := l - 1; j >= 0; j-- {
			w = w<<8 | uint64(data[lo+j])
		}
	}
	return int64(w | uint64(l)<<56)
}

// newGroup adds a group whose key is row i's.
func (t *groupTable) newGroup(i int) uint32 {
	g := uint32(t.n)
	t.n++
	t.newRows = append(t.newRows, rowRef{0, uint32(i)})
	if t.rows != nil {
		t.rows.n = append(t.rows.n, 0)
	}
	return g
}

// assignInts is assign for one integer-like key. Each physical width is
// read as it is, by a loop instantiated per width that widens in a
// register, rather than copied into an int64 buffer first (a pass over the
// batch and 8 bytes a row of traffic: a fifth of the 100-group
// aggregation's time). Float keys, whose equal values (0 and -0, NaNs)
// need normalising, are converted into t.i64 first.
func (t *groupTable) assignInts(col arrow.Array, groups []uint32, insert bool, missing *[]int32) {
	switch x := col.(type) {
	case *array.Int8:
		assignIntKeys(t, x.Int8Values(), col, groups, insert, missing)
	case *array.Int16:
		assignIntKeys(t, x.Int16Values(), col, groups, insert, missing)
	case *array.Int32:
		assignIntKeys(t, x.Int32Values(), col, groups, insert, missing)
	case *array.Int64:
		assignIntKeys(t, x.Int64Values(), col, groups, insert, missing)
	case *array.Date32:
		assignIntKeys(t, x.Date32Values(), col, groups, insert, missing)
	case *array.Date64:
		assignIntKeys(t, x.Date64Values(), col, groups, insert, missing)
	case *array.Time32:
		assignIntKeys(t, x.Time32Values(), col, groups, insert, missing)
	case *array.Time64:
		assignIntKeys(t, x.Time64Values(), col, groups, insert, missing)
	case *array.Timestamp:
		assignIntKeys(t, x.TimestampValues(), col, groups, insert, missing)
	case *array.Duration:
		assignIntKeys(t, x.DurationValues(), col, groups, insert, missing)
	default:
		t.i64 = fixedKeys(col, t.i64)
		assignIntKeys(t, t.i64, col, groups, insert, missing)
	}
}

// physInt is the physical integer types of integer-like key columns.
type physInt interface {
	~int8 | ~int16 | ~int32 | ~int64
}

func assignIntKeys[T physInt](t *groupTable, vals []T, col arrow.Array, groups []uint32, insert bool, missing *[]int32) {
	nulls := col.NullN() > 0
	groups = groups[:len(vals)]
	for i := 0; i < len(vals); i++ {
		if nulls {
			if col.IsNull(i) {
				t.assignInt(i, 0, true, groups, insert, missing)
				continue
			}
			if v := int64(vals[i]); uint64(v) < uint64(len(t.dense)) {
				if d := t.dense[v]; d != 0 {
					groups[i] = d - 1
					if t.rows != nil {
						t.rows.n[d-1]++
					}
					continue
				}
			}
		} else {
			// the common case first, in a loop the compiler keeps
			// tight: a run of small keys of groups that already exist
			if t.rows != nil {
				i = denseRunCounting(t.dense, t.rows.n, vals, groups, i)
			} else {
				i = denseRun(t.dense, vals, groups, i)
			}
			if i == len(vals) {
				break
			}
		}
		t.assignInt(i, int64(vals[i]), false, groups, insert, missing)
	}
}

// denseRun gives rows from i on the groups of their keys in dense while
// each key has one, returning the first row that has not.
func denseRun[T physInt](dense []uint32, vals []T, groups []uint32, i int) int {
	for ; i < len(vals) && i < len(groups); i++ {
		v := int64(vals[i])
		if uint64(v) >= uint64(len(dense)) {
			break
		}
		d := dense[v]
		if d == 0 {
			break
		}
		groups[i] = d - 1
	}
	return i
}

// denseRunCounting is denseRun counting each group's rows as it goes.
func denseRunCounting[T physInt](dense []uint32, counts []int64, vals []T, groups []uint32, i int) int {
	for ; i < len(vals) && i < len(groups); i++ {
		v := int64(vals[i])
		if uint64(v) >= uint64(len(dense)) {
			break
		}
		d := dense[v]
		if d == 0 {
			break
		}
		groups[i] = d - 1
		counts[d-1]++
	}
	return i
}

// assignInt gives row i (key v, or NULL) its group: the slow path of
// assignIntKeys (new groups, negative and large keys, NULL).
func (t *groupTable) assignInt(i int, v int64, null bool, groups []uint32, insert bool, missing *[]int32) {
	var g uint32
	switch {
	case null:
		if t.nullGroup == missingGroup {
			if !insert {
				groups[i] = missingGroup
				*missing = append(*missing, int32(i))
				return
			}
			t.nullGroup = t.newGroup(i)
		}
		g = t.nullGroup
	default:
		// small non-negative keys index a dense array: no hashing
		if uint64(v) >= uint64(len(t.dense)) && uint64(v) < maxDenseKeys {
			t.growDense(v)
		}
		if uint64(v) < uint64(len(t.dense)) {
			if d := t.dense[v]; d != 0 {
				g = d - 1
				break
			}
			if !insert {
				groups[i] = missingGroup
				*missing = append(*missing, int32(i))
				return
			}
			g = t.newGroup(i)
			t.dense[v] = g + 1
			break
		}
		if !insert {
			gg, ok := t.ints.get(v)
			if !ok {
				groups[i] = missingGroup
				*missing = append(*missing, int32(i))
				return
			}
			g = uint32(gg)
			break
		}
		gg, added := t.ints.getOrPut(v, int32(t.n))
		if added {
			t.newGroup(i)
		}
		g = uint32(gg)
	}
	groups[i] = g
	if t.rows != nil {
		t.rows.n[g]++
	}
}

// keysOf builds the key columns of groups [lo, hi).
func (t *groupTable) keysOf(mem memory.Allocator, lo, hi int) ([]arrow.Array, error) {
	if len(t.keyCols) == 0 {
		return nil, nil
	}
	out, err := gatherBatch(mem, t.keySchema, t.keyStore, t.keyRefs[lo:hi])
	if err != nil {
		return nil, err
	}
	defer out.Release()
	cols := make([]arrow.Array, len(t.keyCols))
	for i := range cols {
		cols[i] = out.Column(i)
		cols[i].Retain()
	}
	return cols, nil
}
