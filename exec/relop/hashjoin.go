package relop

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// JoinType is the kind of join.
type JoinType uint8

// The join types. Semi and Anti emit left rows only.
const (
	InnerJoin JoinType = iota
	LeftJoin
	RightJoin
	FullJoin
	SemiJoin
	AntiJoin
)

var joinNames = [...]string{"inner", "left", "right", "full", "semi", "anti"}

func (t JoinType) String() string {
	if int(t) < len(joinNames) {
		return joinNames[t]
	}
	return "join?"
}

// emitsPairs reports whether the join's output has the right side's columns.
func (t JoinType) emitsPairs() bool { return t <= FullJoin }

// Residual is an extra join condition, evaluated on joined rows (left
// columns then right columns); rows where it is not true do not match.
// exec.Expr satisfies it.
type Residual interface {
	Eval(ec *exec.EvalContext, batch arrow.RecordBatch) (arrow.Array, error)
}

// ResidualFunc adapts a function to Residual.
type ResidualFunc func(batch arrow.RecordBatch) (arrow.Array, error)

// Eval calls f.
func (f ResidualFunc) Eval(_ *exec.EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	return f(batch)
}

// JoinSchema is the output schema of a join of left and right: left's
// fields, then right's for every type but Semi and Anti, all nullable.
func JoinSchema(left, right *arrow.Schema, t JoinType) *arrow.Schema {
	var fs []arrow.Field
	add := func(s *arrow.Schema) {
		for _, f := range s.Fields() {
			f.Nullable = true
			fs = append(fs, f)
		}
	}
	add(left)
	if t.emitsPairs() {
		add(right)
	}
	return arrow.NewSchema(fs, nil)
}

// HashJoin joins Left (the probe side, streamed) with Right (the build
// side, hashed) on LeftKeys[i] = RightKeys[i]. NULL keys never match. Each
// key pair must have the same type (the planner casts). With NullAware, an
// Anti join has NOT IN semantics: an empty build side keeps every left row;
// otherwise a NULL build key keeps none, and a left row with a NULL key is
// not kept. (With several keys, a build row with a NULL in any key counts
// as a NULL key, which is stricter than PostgreSQL's row comparison.)
//
// When the build side exceeds the memory limit and SpillDir is set, both
// sides are hash-partitioned to disk (grace hash join) and joined partition
// by partition; a partition whose build side still does not fit (a skewed
// key) is joined in build chunks, each a pass over the probe partition.
type HashJoin struct {
	Left, Right         exec.Operator
	LeftKeys, RightKeys []int
	Type                JoinType
	Residual            Residual
	EC                  *exec.EvalContext
	NullAware           bool
	// ProbeKeysProjected says Left is an *exec.Project computing the
	// probe keys over the probe side: the first probe batch is read from
	// under it before building, as PostgreSQL computes its outer keys
	// only once the hash table is built.
	ProbeKeysProjected bool
	Mem                *MemoryAccount
	SpillDir           string
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator
	// BatchRows is the output batch size (0: 8192).
	BatchRows int

	// generic forces the byte-encoded key path (tests compare the two).
	generic bool
	// radix, when set, replaces defaultRadix (tests reach the partitioned
	// table with small inputs).
	radix *radixConfig

	out, joined *arrow.Schema
	started     bool
	closed      bool
	hold        holding
	buildEmpty  bool
	buildNull   bool
	spilled     bool
	clock       *spillClock // the partitions' I/O time

	prober                 *prober
	buildParts, probeParts *partitions
	part                   int
	partBuild              *spillReader
	partMulti              bool
	partProbeRows          []bool
	pending                arrow.RecordBatch
	cross                  bool // nested loop: every probe row meets every build row
	multiChunk             int  // partitions joined in several build chunks
	partitioned            int  // tables built radix-partitioned (radixjoin.go)
	reordered              int  // of those, tables whose rows were put in partition order
	orderedChunks          int  // probe chunks joined in partition order
	dense                  int  // tables built as dense arrays (joinTable.finishDense)
	views                  int  // build columns gathered through a short text view
	// outMem allocates the joined pairs' buffers, reusing those of the
	// batches the consumer released (nil until needed; see outAlloc)
	outMem *recycler
}

// outAlloc is the allocator of the joined pairs: a recycler over Alloc
// when every column is gathered by gather's typed loops (which write
// every value and clear their bitmaps: recycled buffers are not zeroed),
// Alloc itself otherwise.
func (o *HashJoin) outAlloc() memory.Allocator {
	if o.outMem == nil {
		if !scatterable(o.joined) {
			return allocOr(o.Alloc)
		}
		o.outMem = newRecycler(allocOr(o.Alloc))
	}
	return o.outMem
}

func (o *HashJoin) Schema() *arrow.Schema {
	if o.out == nil {
		o.out = JoinSchema(o.Left.Schema(), o.Right.Schema(), o.Type)
	}
	return o.out
}

// Spilled reports whether the join partitioned its inputs to disk.
func (o *HashJoin) Spilled() bool { return o.spilled }

func (o *HashJoin) Close() {
	if o.closed {
		return
	}
	o.closed = true
	if o.prober != nil {
		o.prober.release()
	}
	if o.outMem != nil {
		o.outMem.close()
	}
	if o.partBuild != nil {
		o.partBuild.close()
	}
	if o.pending != nil {
		o.pending.Release()
	}
	o.buildParts.remove()
	o.probeParts.remove()
	o.hold.releaseAll()
	o.Left.Close()
	o.Right.Close()
}

func (o *HashJoin) ec() *exec.EvalContext {
	if o.EC == nil {
		o.EC = &exec.EvalContext{Mem: allocOr(o.Alloc)}
	}
	return o.EC
}

func (o *HashJoin) check() error {
	if o.cross {
		return nil
	}
	if len(o.LeftKeys) != len(o.RightKeys) || len(o.LeftKeys) == 0 {
		return sqlerr.New(sqlerr.InternalError, "hash join needs as many left keys as right keys (at least one)")
	}
	ls, rs := o.Left.Schema(), o.Right.Schema()
	for i := range o.LeftKeys {
		l, r := o.LeftKeys[i], o.RightKeys[i]
		if l < 0 || l >= ls.NumFields() || r < 0 || r >= rs.NumFields() {
			return sqlerr.New(sqlerr.InternalError, "hash join key column out of range")
		}
		lt, rt := ls.Field(l).Type, rs.Field(r).Type
		// a single integer key is compared as int64 whatever its width;
		// otherwise keys are compared by their encodings, which need equal types
		if !arrow.TypeEqual(lt, rt) && !(len(o.LeftKeys) == 1 && isIntClass(lt) && isIntClass(rt)) {
			return sqlerr.New(sqlerr.InternalError, "hash join key %d: %s = %s needs a cast", i, lt, rt)
		}
	}
	return nil
}

func (o *HashJoin) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.closed {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !o.started {
		o.started = true
		o.Schema()
		o.joined = JoinSchema(o.Left.Schema(), o.Right.Schema(), InnerJoin)
		o.hold = holding{acct: o.Mem}
		if err := o.check(); err != nil {
			return nil, err
		}
		if o.Type != RightJoin && o.Type != FullJoin {
			// PostgreSQL's hash join fetches its first outer tuple before
			// building the hash table (unless it must emit unmatched
			// inner rows) and ends over an empty outer side without
			// building it: the build side's keys are never computed, so
			// an error computing them is not the statement's.
			src := &o.Left
			if p, ok := o.Left.(*exec.Project); ok && o.ProbeKeysProjected {
				src = &p.Input
			}
			first, err := (*src).Next(ctx)
			if err != nil {
				return nil, err
			}
			if first == nil {
				return nil, nil
			}
			*src = &peekedOp{first: first, Operator: *src}
		}
		if err := o.build(ctx); err != nil {
			return nil, err
		}
		if o.buildParts == nil && o.prober != nil && (o.buildEmpty && o.Type == RightJoin ||
			o.prober.ht != nil && o.prober.ht.keyed == 0 && (o.Type == InnerJoin || o.Type == SemiJoin) && !o.cross) {
			// Nothing can match: the probe side is not read at all, as
			// PostgreSQL's hash join skips its outer side over a hash
			// table that is empty (rows with a NULL key are not in it),
			// so an error computing that side is not the statement's.
			// An inner or semi join without keys is PostgreSQL's nested
			// loop (nodeNestloop.c), which reads every outer row (its
			// restrictions and outputs computed) whatever the inner side
			// holds.
			o.prober.release()
			o.prober = nil
			o.hold.releaseAll()
			return nil, nil
		}
	}
	for {
		if o.prober != nil {
			b, err := o.prober.next(ctx)
			if err != nil || b != nil {
				return b, err
			}
			done := o.prober
			o.prober = nil
			done.release()
			o.hold.releaseAll()
			if done.mode == passFinal || o.buildParts == nil {
				if o.buildParts == nil {
					return nil, nil
				}
				o.part++
				if err := o.startPartition(ctx); err != nil {
					return nil, err
				}
				continue
			}
			if err := o.nextChunk(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if o.buildParts == nil || o.part >= spillFanout {
			return nil, nil
		}
		if err := o.startPartition(ctx); err != nil {
			return nil, err
		}
	}
}

// firstRowDecides reports whether the join's build side decides by its
// first row alone: a semi or anti join without keys or condition keeps
// (drops) every probe row when the build side has a row.
func (o *HashJoin) firstRowDecides() bool {
	return o.cross && o.Residual == nil && !o.NullAware && (o.Type == SemiJoin || o.Type == AntiJoin)
}

// build reads the build side into one in-memory table, or partitions both
// sides when it does not fit.
func (o *HashJoin) build(ctx context.Context) error {
	mem := allocOr(o.Alloc)
	ht := newHashTable(o.Right.Schema(), o.RightKeys, o.generic, o.radixConfig())
	ht.cross = o.cross
	rows := 0
	for {
		if err := ctx.Err(); err != nil {
			ht.release()
			return err
		}
		b, err := o.Right.Next(ctx)
		if err != nil {
			ht.release()
			return err
		}
		if b == nil {
			break
		}
		rows += int(b.NumRows())
		if o.buildParts != nil {
			err = o.writePart(mem, o.buildParts, b, o.RightKeys, true)
			b.Release()
			if err != nil {
				return err
			}
			continue
		}
		before := ht.size()
		err = ht.add(b)
		b.Release()
		if err != nil {
			ht.release()
			return err
		}
		if rows > 0 && o.firstRowDecides() {
			// PostgreSQL's nested loop semi (anti) join stops reading
			// its inner side at the first row that matches
			// (nodeNestloop.c, single_match), and without a join
			// condition that is the first row: the rows after it are
			// never read, their filters and outputs never computed, so
			// an error of one of them is not the statement's (a filter
			// below gives the rows before its failing one first and
			// keeps the error for its next batch: exec/roworder.go)
			break
		}
		o.buildNull = o.buildNull || ht.nullKeys
		if err := o.hold.grow(ht.size() - before); err != nil {
			if o.SpillDir == "" {
				ht.release()
				return err
			}
			// switch to grace hash join: partition what we hold and the rest
			o.hold.force(ht.size() - before)
			if err := o.startSpill(mem, ht); err != nil {
				ht.release()
				return err
			}
			ht.release()
			o.hold.releaseAll()
			ht = nil
		}
	}
	o.buildEmpty = rows == 0
	if o.buildParts == nil {
		if err := o.finishTable(ht); err != nil {
			ht.release()
			return err
		}
		o.prober = o.newProber(ht, o.Left, passOnly)
		return nil
	}
	// partition the probe side
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := o.Left.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		err = o.writePart(mem, o.probeParts, b, o.LeftKeys, false)
		b.Release()
		if err != nil {
			return err
		}
	}
	for _, ps := range []*partitions{o.buildParts, o.probeParts} {
		for _, f := range ps.files {
			if err := f.finish(); err != nil {
				return err
			}
		}
	}
	o.part = 0
	return o.startPartition(ctx)
}

func (o *HashJoin) startSpill(mem memory.Allocator, ht *hashTable) error {
	o.spilled = true
	seed := maphash.MakeSeed()
	var err error
	if o.buildParts, err = newPartitions(o.SpillDir, o.Right.Schema(), mem, seed, o.clockOf()); err != nil {
		return err
	}
	if o.probeParts, err = newPartitions(o.SpillDir, o.Left.Schema(), mem, seed, o.clockOf()); err != nil {
		return err
	}
	for _, b := range ht.batches {
		if err := o.writePart(mem, o.buildParts, b, o.RightKeys, true); err != nil {
			return err
		}
	}
	return nil
}

// writePart spreads a batch over partitions by the hash of its keys; rows
// with a NULL key never match and go to partition 0.
func (o *HashJoin) writePart(mem memory.Allocator, ps *partitions, b arrow.RecordBatch, keys []int, build bool) error {
	pk, nulls := partitionKeys(b, keys)
	if build {
		for _, isNull := range nulls {
			o.buildNull = o.buildNull || isNull
		}
	}
	return ps.write(mem, b, pk, nil)
}

// partitionKeys encodes join keys so that equal values of any integer
// width hash alike; NULL-keyed rows get an empty key.
func partitionKeys(b arrow.RecordBatch, keys []int) ([][]byte, []bool) {
	n := int(b.NumRows())
	out := make([][]byte, n)
	nulls := make([]bool, n)
	for _, k := range keys {
		col := b.Column(k)
		if isIntClass(col.DataType()) {
			get, _ := intClass(col)
			for i := 0; i < n; i++ {
				if col.IsNull(i) {
					nulls[i] = true
					continue
				}
				out[i] = binary.BigEndian.AppendUint64(out[i], uint64(get(i)))
			}
			continue
		}
		one := make([][]byte, n)
		if err := encodeColumn(col, SortKey{}, one); err != nil {
			for i := range one {
				one[i] = nil
			}
		}
		for i := 0; i < n; i++ {
			if col.IsNull(i) {
				nulls[i] = true
			}
			out[i] = append(out[i], one[i]...)
		}
	}
	for i := range out {
		if nulls[i] {
			out[i] = nil
		}
	}
	return out, nulls
}

// startPartition begins joining partition o.part (skipping empty ones).
func (o *HashJoin) startPartition(ctx context.Context) error {
	for ; o.part < spillFanout; o.part++ {
		bf, pf := o.buildParts.files[o.part], o.probeParts.files[o.part]
		if bf.rows == 0 && (pf.rows == 0 || o.Type == InnerJoin || o.Type == RightJoin || o.Type == SemiJoin) {
			continue
		}
		if bf.rows == 0 && pf.rows == 0 {
			continue
		}
		r, err := bf.open()
		if err != nil {
			return err
		}
		o.partBuild = r
		o.partMulti = false
		o.partProbeRows = nil
		return o.nextChunk(ctx)
	}
	return nil
}

// nextChunk loads as much of the partition's build side as memory allows
// and starts a pass over its probe side; after the last chunk of a
// multi-chunk partition it starts the final pass.
func (o *HashJoin) nextChunk(ctx context.Context) error {
	if o.partBuild == nil {
		// the partition's chunks are done
		if o.partMulti && (o.Type == LeftJoin || o.Type == FullJoin || o.Type == AntiJoin) {
			src, err := o.probeParts.files[o.part].open()
			if err != nil {
				return err
			}
			p := o.newProber(nil, &readerOp{r: src, schema: o.Left.Schema()}, passFinal)
			p.ever = o.partProbeRows
			o.prober = p
			return nil
		}
		o.part++
		return o.startPartition(ctx)
	}
	ht := newHashTable(o.Right.Schema(), o.RightKeys, o.generic, o.radixConfig())
	for {
		if err := ctx.Err(); err != nil {
			ht.release()
			return err
		}
		b, err := o.partBuild.next()
		if err != nil {
			ht.release()
			return err
		}
		if b == nil {
			o.partBuild.close()
			o.partBuild = nil
			break
		}
		before := ht.size()
		err = ht.add(b)
		b.Release()
		if err != nil {
			ht.release()
			return err
		}
		if err := o.hold.grow(ht.size() - before); err != nil {
			// keep at least one batch per chunk so that every pass progresses
			o.hold.force(ht.size() - before)
			break
		}
	}
	if o.partBuild != nil && !o.partMulti {
		o.partMulti = true
		o.multiChunk++
	}
	mode := passOnly
	if o.partMulti {
		mode = passChunk
	}
	if err := o.finishTable(ht); err != nil {
		ht.release()
		return err
	}
	src, err := o.probeParts.files[o.part].open()
	if err != nil {
		ht.release()
		return err
	}
	p := o.newProber(ht, &readerOp{r: src, schema: o.Left.Schema()}, mode)
	if mode == passChunk {
		p.ever = o.partProbeRows
		p.keepEver = func(e []bool) { o.partProbeRows = e }
	}
	o.prober = p
	return nil
}

func (o *HashJoin) radixConfig() *radixConfig {
	if o.radix != nil {
		return o.radix
	}
	c := defaultRadix
	return &c
}

// finishTable finishes a build table; a partitioned table's slots are
// sized per partition and a dense table's by the keys' span, known once
// finished, so what either holds is charged again. A partitioned table's
// rows are reordered by partition when the account can take their copy
// for a moment (else they stay in build order: the probe is slower).
func (o *HashJoin) finishTable(ht *hashTable) error {
	before := ht.size()
	var copyBytes int64
	reorder := ht.partitions() && scatterable(ht.schema)
	if reorder {
		for _, b := range ht.batches {
			copyBytes += batchBytes(b)
		}
		reorder = o.hold.grow(copyBytes) == nil
	}
	err := ht.finish(allocOr(o.Alloc), reorder)
	if reorder {
		o.hold.shrink(copyBytes)
	}
	if err != nil {
		return err
	}
	if ht.reordered {
		o.reordered++
	}
	if ints := ht.ints; ints != nil && (ints.pbits > 0 || ints.dense != nil) {
		if ints.dense != nil {
			o.dense++
		} else {
			o.partitioned++
		}
		if d := ht.size() - before; d > 0 {
			o.hold.force(d)
		} else {
			o.hold.shrink(-d)
		}
	}
	return nil
}

// peekedOp is an operator whose first batch was already read: it returns
// that batch first, then the rest.
type peekedOp struct {
	first arrow.RecordBatch
	exec.Operator
}

func (p *peekedOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if b := p.first; b != nil {
		p.first = nil
		return b, nil
	}
	return p.Operator.Next(ctx)
}

func (p *peekedOp) Close() {
	if p.first != nil {
		p.first.Release()
		p.first = nil
	}
	p.Operator.Close()
}

// readerOp adapts a spill reader to exec.Operator.
type readerOp struct {
	r      *spillReader
	schema *arrow.Schema
}

func (r *readerOp) Schema() *arrow.Schema { return r.schema }
func (r *readerOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.r == nil {
		return nil, nil
	}
	return r.r.next()
}
func (r *readerOp) Close() {
	if r.r != nil {
		r.r.close()
		r.r = nil
	}
}

// ---- the build-side hash table ----

type hashTable struct {
	cross   bool
	schema  *arrow.Schema
	keys    []int
	intKey  bool
	ints    *joinTable
	strs    map[string]int32
	batches []arrow.RecordBatch
	refs    []rowRef
	rows    int
	// reordered: the rows are one batch in partition order (finish)
	reordered bool
	next      []int32 // chain of rows with the same key
	matched   []bool
	nullKeys  bool
	keyed     int // rows whose keys are all non-NULL (that can match)
	held      int64
	i64       []int64
	// dups: some key has several rows (next chains are not all empty).
	dups bool
	// rowShift >= 0: every batch but the last has 1<<rowShift rows, so
	// row r is rowRef{r >> rowShift, r & mask} without reading refs.
	rowShift int
	lastRows int
}

func newHashTable(schema *arrow.Schema, keys []int, generic bool, radix *radixConfig) *hashTable {
	t := &hashTable{schema: schema, keys: keys, rowShift: -2}
	if len(keys) == 0 {
		return t
	}
	if len(keys) == 1 && !generic && isFixedKey(schema.Field(keys[0]).Type) {
		t.intKey = true
		t.ints = &joinTable{cfg: radix}
	} else {
		t.strs = make(map[string]int32)
	}
	return t
}

func (t *hashTable) size() int64 {
	if t.ints != nil {
		return t.held + t.ints.bytes()
	}
	return t.held
}

func (t *hashTable) release() {
	if t == nil {
		return
	}
	for _, b := range t.batches {
		b.Release()
	}
	t.batches = nil
	t.ints, t.strs, t.refs, t.next, t.matched = nil, nil, nil, nil, nil
}

func (t *hashTable) add(b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	bi := uint32(len(t.batches))
	switch {
	case t.rowShift == -2 && n&(n-1) == 0: // the first batch sets the size
		t.rowShift = bits.TrailingZeros(uint(n))
	case t.rowShift >= 0 && t.lastRows != 1<<t.rowShift:
		t.rowShift = -1 // a short batch before this one
	case t.rowShift >= 0 && n > 1<<t.rowShift:
		t.rowShift = -1
	case t.rowShift == -2:
		t.rowShift = -1
	}
	t.lastRows = n
	t.rows += n
	b.Retain()
	t.batches = append(t.batches, b)
	base := int32(t.rows - n)
	if t.rowShift < 0 {
		// rows are located by refs (ref); after equal batches, whose rows
		// were computed, list theirs first
		if len(t.refs) == 0 {
			for b, x := range t.batches[:bi] {
				for i := range int(x.NumRows()) {
					t.refs = append(t.refs, rowRef{uint32(b), uint32(i)})
				}
			}
		}
		for i := 0; i < n; i++ {
			t.refs = append(t.refs, rowRef{bi, uint32(i)})
		}
	}
	if !t.intKey {
		// the fixed-key table keeps duplicates in runs, not chains
		for i := 0; i < n; i++ {
			t.next = append(t.next, -1)
		}
	}
	t.held += batchBytes(b) + int64(n)*13
	if t.cross {
		t.keyed += n
		if base > 0 {
			t.next[base-1] = base
		}
		for i := 0; i < n-1; i++ {
			t.next[base+int32(i)] = base + int32(i) + 1
		}
		return nil
	}
	if t.intKey {
		col := b.Column(t.keys[0])
		t.i64 = fixedKeys(col, t.i64)
		var isNull func(int) bool
		if col.NullN() > 0 {
			isNull = col.IsNull
		}
		if t.ints.add(t.i64, isNull) {
			t.nullKeys = true
		}
		t.keyed += n - col.NullN()
		return nil
	}
	keys, nullRow, err := joinKeys(b, t.keys)
	if err != nil {
		return err
	}
	for i, k := range keys {
		if nullRow[i] {
			t.nullKeys = true
			continue
		}
		t.keyed++
		row := base + int32(i)
		if h, ok := t.strs[string(k)]; ok {
			t.next[row] = h
			t.dups = true
		} else {
			t.held += int64(len(k)) + 56
		}
		t.strs[string(k)] = row
	}
	return nil
}

// ref locates build row r; with equal power-of-two batches it is computed
// (refs is a random read, a cache miss per probe match on a large table).
func (t *hashTable) ref(r int32) rowRef {
	if t.rowShift >= 0 {
		return rowRef{uint32(r >> t.rowShift), uint32(r & (1<<t.rowShift - 1))}
	}
	return t.refs[r]
}

// partitions reports whether finish will partition the table.
func (t *hashTable) partitions() bool {
	ints := t.ints
	if t.cross || ints == nil || ints.cfg == nil || ints.cfg.bits(ints.nkeys) == 0 {
		return false
	}
	_, dense := ints.denseSpan()
	return !dense
}

// finish prepares the match flags of the build rows. With reorder, a
// partitioned table also copies its rows into one batch in partition
// order (see radixjoin.go), renumbering them.
func (t *hashTable) finish(mem memory.Allocator, reorder bool) error {
	if t.ints != nil {
		t.ints.renumber = reorder
		t.ints.finish()
		if order := t.ints.order; order != nil {
			t.ints.order = nil
			b, err := scatterBatch(mem, t.schema, t.batches, order, t.orderedKeyCol())
			if err != nil {
				return err
			}
			for _, x := range t.batches {
				x.Release()
			}
			// one batch: row r is rowRef{0, r}, computed by ref
			t.batches, t.refs, t.rowShift, t.reordered = []arrow.RecordBatch{b}, nil, 31, true
		}
	}
	t.matched = make([]bool, t.rows)
	t.held += int64(t.rows)
	return nil
}

// orderedKeyCol is nil, or one entry per column with the key column in
// the renumbered rows' order (joinTable.orderedKeys, when the column holds
// the int64s themselves), for scatterBatch.
func (t *hashTable) orderedKeyCol() []arrow.Array {
	keys := t.ints.orderedKeys
	t.ints.orderedKeys = nil
	kc := t.keys[0]
	dt := t.schema.Field(kc).Type
	if keys == nil || !isIntClass(dt) || exec.FixedWidth(dt) != 8 {
		return nil
	}
	pre := make([]arrow.Array, t.schema.NumFields())
	buf := memory.NewBufferBytes(asBytes(keys))
	pre[kc] = fixedWidthArray(dt, len(keys), nil, buf, 0)
	return pre
}

// joinKeys encodes the join keys of every row and flags rows with a NULL key.
func joinKeys(b arrow.RecordBatch, keys []int) ([][]byte, []bool, error) {
	n := int(b.NumRows())
	cols := b.Columns()
	ks := ascKeys(keys, nil) // bpchar = bpchar joins on keys the binder has trimmed
	bufs, _ := keyBuffers(n, keyWidthHint(cols, ks), nil)
	if err := encodeKeys(cols, ks, bufs); err != nil {
		return nil, nil, err
	}
	nulls := make([]bool, n)
	for _, k := range keys {
		if c := b.Column(k); c.NullN() > 0 {
			for i := 0; i < n; i++ {
				if c.IsNull(i) {
					nulls[i] = true
				}
			}
		}
	}
	return bufs, nulls, nil
}

// ---- probing ----

type passMode uint8

const (
	passOnly  passMode = iota // the whole build side is in the table
	passChunk                 // one build chunk of several
	passFinal                 // after all chunks: emit never-matched probe rows
)

// prober streams the probe side against one table.
type prober struct {
	j    *HashJoin
	ht   *hashTable
	src  exec.Operator
	mode passMode

	batch     arrow.RecordBatch
	heads     []int32  // first build row of each probe row's chain (-1: none)
	runs      []uint32 // fixed key: build rows of each probe row (0: none), at starts (joinTable.lookup)
	starts    []uint32
	i         int
	chain     int32
	off       uint32 // fixed key: the next row of the current probe row's run
	now       []bool // probe rows of the batch matched in this pass
	seqBase   int
	ever      []bool // multi-chunk: probe rows matched in any earlier chunk
	keepEver  func([]bool)
	queue     []arrow.RecordBatch
	err       error
	srcDone   bool
	rightDone bool
	rightPos  int
	// the candidate pairs of the next output batch: probe row (of batch)
	// and table row (hashTable.ref locates it)
	pl []uint32
	pb []int32
	// a partitioned table is probed in chunks of several batches (see read)
	chunkRows int               // rows the next chunk gathers (0: one batch)
	chunkHeld int64             // bytes of the current chunk charged to the account
	srcEOF    bool              // the source ended while a chunk was gathered
	carry     arrow.RecordBatch // read but left for the next chunk (no room)
	bufRows   int               // probe rows the per-row buffers are charged for
	// the batch is a chunk reordered by partition, its keys scattered in
	// the table's scratch (partitionOrder)
	ordered bool
	// chunkMem allocates the chunks' reordered copies (partitionOrder)
	chunkMem *recycler
	touched  byte // sums the bytes touchLines read, to keep the loads
	// the batch's own rows (unmatched, semi) still to emit, one output
	// batch per step, so that a chunk's are never all queued at once
	rest      []rowRef
	restPos   int
	finishing bool
	// views: per build column, its short text values packed one word a
	// row (shortView; nil: not built, or not such a column), tried once
	views     [][]uint64
	viewTried []bool
	viewBytes int64 // charged to the account for views
}

func (o *HashJoin) newProber(ht *hashTable, src exec.Operator, mode passMode) *prober {
	return &prober{j: o, ht: ht, src: src, mode: mode, chain: -2}
}

func (p *prober) release() {
	p.j.hold.shrink(p.viewBytes)
	p.views, p.viewBytes = nil, 0
	if p.batch != nil {
		p.batch.Release()
		p.batch = nil
	}
	for _, b := range p.queue {
		b.Release()
	}
	p.queue = nil
	if p.carry != nil {
		p.carry.Release()
		p.carry = nil
	}
	p.ht.release()
	if p.chunkMem != nil {
		p.chunkMem.close()
	}
	p.src.Close()
}

func (p *prober) batchRows() int { return rowsOr(p.j.BatchRows) }

// next returns the pass's next output batch, nil at the end of the pass.
func (p *prober) next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if len(p.queue) > 0 {
			b := p.queue[0]
			p.queue = p.queue[1:]
			return b, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if p.srcDone {
			if !p.rightDone {
				if err := p.emitUnmatchedBuild(); err != nil {
					return nil, err
				}
				continue
			}
			return nil, nil
		}
		if p.batch == nil {
			b, err := p.read(ctx)
			if err != nil {
				return nil, err
			}
			if b == nil {
				p.srcDone = true
				if p.keepEver != nil {
					p.keepEver(p.ever)
				}
				continue
			}
			if b.NumRows() == 0 {
				b.Release()
				continue
			}
			if err := p.startBatch(b); err != nil {
				b.Release()
				return nil, err
			}
		}
		if err := p.step(); err != nil {
			return nil, err
		}
		if p.err != nil {
			return nil, p.err
		}
	}
}

// startBatch looks up the chain heads of a new probe batch.
func (p *prober) startBatch(b arrow.RecordBatch) error {
	p.batch = b
	n := int(b.NumRows())
	p.i, p.chain, p.off = 0, -2, 0
	// kept between batches (a chunk's fresh megabyte is a page fault per
	// 4 KiB), as chunkRowBytes counts it
	p.now = resize(p.now, n)
	clear(p.now)
	if p.mode == passChunk || p.mode == passFinal {
		p.ever = grow(p.ever, p.seqBase+n)
	}
	if p.mode == passFinal {
		return nil
	}
	ht := p.ht
	if ht.intKey {
		col := b.Column(p.j.LeftKeys[0])
		p.runs = resize(p.runs, n)
		p.starts = resize(p.starts, n)
		if p.ordered {
			ht.ints.probeScattered(p.starts, p.runs, true)
		} else {
			ht.i64 = fixedKeys(col, ht.i64)
			ht.ints.lookup(ht.i64, p.starts, p.runs)
		}
		if col.NullN() > 0 {
			for i := range p.runs {
				if col.IsNull(i) {
					p.runs[i] = 0
				}
			}
		}
		return nil
	}
	p.heads = resize(p.heads, n)
	if ht.cross {
		h := int32(-1)
		if ht.rows > 0 {
			h = 0
		}
		for i := range p.heads {
			p.heads[i] = h
		}
		return nil
	}
	keys, nulls, err := joinKeys(b, p.j.LeftKeys)
	if err != nil {
		return err
	}
	for i, k := range keys {
		h, ok := ht.strs[string(k)]
		if !ok || nulls[i] {
			h = -1
		}
		p.heads[i] = h
	}
	return nil
}

// step produces pairs of the current batch up to one output batch, and
// the batch's unmatched or semi rows once it is done.
func (p *prober) step() error {
	j := p.j
	n := int(p.batch.NumRows())
	if p.finishing {
		p.drainRows()
		return nil
	}
	if p.mode == passFinal {
		p.finishBatch()
		return nil
	}
	needPairs := j.Type.emitsPairs() || j.Residual != nil
	switch {
	case !needPairs && p.ht.intKey:
		for i := 0; i < n; i++ {
			p.now[i] = p.runs[i] > 0
		}
		p.i = n
	case !needPairs:
		for i := 0; i < n; i++ {
			p.now[i] = p.heads[i] >= 0
		}
		p.i = n
	case p.ht.intKey:
		p.intPairs(n)
		if len(p.pl) > 0 {
			if err := p.emitPairs(); err != nil {
				return err
			}
		}
	default:
		p.pl, p.pb = p.pl[:0], p.pb[:0]
		limit := p.batchRows()
		if ht := p.ht; !ht.cross && !ht.dups && p.chain == -2 {
			// unique build keys: a match is one pair, found without
			// reading next
			heads := p.heads[:n]
			i := p.i
			for ; i < n && len(p.pl) < limit; i++ {
				h := heads[i]
				if h < 0 {
					continue
				}
				p.pl = append(p.pl, uint32(i))
				p.pb = append(p.pb, h)
			}
			p.i = i
		}
		for p.i < n && len(p.pl) < limit {
			if p.chain == -2 {
				p.chain = p.heads[p.i]
			}
			for p.chain >= 0 && len(p.pl) < limit {
				p.pl = append(p.pl, uint32(p.i))
				p.pb = append(p.pb, p.chain)
				p.chain = p.ht.next[p.chain]
			}
			if p.chain < 0 {
				p.i++
				p.chain = -2
			}
		}
		if len(p.pl) > 0 {
			if err := p.emitPairs(); err != nil {
				return err
			}
		}
	}
	if p.i >= n {
		p.finishBatch()
	}
	return nil
}

// intPairs collects the next pairs of a fixed-key probe batch, up to one
// output batch: a probe row with one build row is one pair; the rows of a
// duplicated key come from its run in perm, resumed at p.off when the
// previous output batch filled up in the middle of it.
func (p *prober) intPairs(n int) {
	ht := p.ht
	limit := p.batchRows()
	// 4 entries of slack: see consecutivePairs
	p.pl, p.pb = resize(p.pl, limit+4), resize(p.pb, limit+4)
	pl, pb := p.pl, p.pb
	runs, starts := p.runs[:n], p.starts[:n]
	if ht.ints.consecutive {
		var k int
		p.i, p.off, k = consecutivePairs(pl, pb, runs, starts, p.i, p.off, limit)
		p.pl, p.pb = pl[:k], pb[:k]
		return
	}
	// locals: the stores to pl and pb could alias fields of p
	i, k, off, perm := p.i, 0, p.off, ht.ints.perm
	for i < n && k < limit {
		c := runs[i]
		if c <= 1 {
			// no row or one: written either way, kept when c is 1 (no
			// branch to mispredict on random keys)
			pl[k], pb[k] = uint32(i), int32(starts[i])
			k += int(c)
			i++
			continue
		}
		run := perm[starts[i]:][:c]
		for off < c && k < limit {
			pl[k], pb[k] = uint32(i), run[off]
			k++
			off++
		}
		if off == c {
			off = 0
			i++
		}
	}
	p.i, p.off = i, off
	p.pl, p.pb = pl[:k], pb[:k]
}

// consecutivePairs is intPairs for a table whose rows of a key are
// consecutive (from starts[i], runs[i] of them), from probe row i and the
// offset off in its run, up to limit pairs; it returns where the next call
// resumes and the pairs written. A run of up to 4 rows is written as 4
// pairs whatever its length (the slack of pl and pb takes the excess) and
// kept as long as it is: random keys give runs of 0, 1, 2, ... rows, and
// branching on the length would be mispredicted at every other row.
func consecutivePairs(pl []uint32, pb []int32, runs, starts []uint32, i int, off uint32, limit int) (int, uint32, int) {
	n := len(runs)
	pl, pb = pl[:limit+4], pb[:limit+4]
	k := 0
	for i < n && k < limit {
		c, s := runs[i], int32(starts[i])
		if off == 0 && c <= 4 && k+int(c) <= limit {
			u := uint32(i)
			pl[k], pl[k+1], pl[k+2], pl[k+3] = u, u, u, u
			pb[k], pb[k+1], pb[k+2], pb[k+3] = s, s+1, s+2, s+3
			k += int(c)
			i++
			continue
		}
		for off < c && k < limit {
			pl[k], pb[k] = uint32(i), s+int32(off)
			k++
			off++
		}
		if off == c {
			off = 0
			i++
		}
	}
	return i, off, k
}

// emitPairs evaluates the residual on the candidate pairs, records matches
// and queues the matching pairs for joins that output them.
func (p *prober) emitPairs() error {
	j := p.j
	mem := j.outAlloc()
	joined, err := p.pairsBatch(mem, j.joined)
	if err != nil {
		return err
	}
	if j.Residual == nil {
		// every candidate pair matches
		if j.Type != InnerJoin && j.Type != RightJoin || p.mode != passOnly {
			for _, l := range p.pl {
				p.now[l] = true
			}
		}
		if j.Type == RightJoin || j.Type == FullJoin {
			for _, b := range p.pb {
				p.ht.matched[b] = true
			}
		}
		if !j.Type.emitsPairs() {
			joined.Release()
			return nil
		}
		p.queue = append(p.queue, joined)
		return nil
	}
	keep := make([]bool, len(p.pl))
	if j.Residual != nil {
		mask, err := j.Residual.Eval(j.ec(), joined)
		if err != nil {
			joined.Release()
			return err
		}
		mb, ok := mask.(*array.Boolean)
		if !ok {
			mask.Release()
			joined.Release()
			return sqlerr.New(sqlerr.DatatypeMismatch, "join condition must be boolean, not %s", mask.DataType())
		}
		for i := range keep {
			keep[i] = mb.IsValid(i) && mb.Value(i)
		}
		mask.Release()
	} else {
		for i := range keep {
			keep[i] = true
		}
	}
	var rows []int
	for i, k := range keep {
		if !k {
			continue
		}
		p.now[p.pl[i]] = true
		rows = append(rows, i)
	}
	// mark build rows matched (refs point into the table's batches)
	if j.Type == RightJoin || j.Type == FullJoin {
		for _, i := range rows {
			p.ht.matched[p.pb[i]] = true
		}
	}
	if !j.Type.emitsPairs() {
		joined.Release()
		return nil
	}
	if len(rows) == len(keep) {
		p.queue = append(p.queue, joined)
		return nil
	}
	defer joined.Release()
	if len(rows) == 0 {
		return nil
	}
	refs := make([]rowRef, len(rows))
	for k, i := range rows {
		refs[k] = rowRef{0, uint32(i)}
	}
	out, err := gatherBatch(mem, j.out, []arrow.RecordBatch{joined}, refs)
	if err != nil {
		return err
	}
	p.queue = append(p.queue, out)
	return nil
}

// pairsBatch builds the joined rows of the candidate pairs (pl, pb).
func (p *prober) pairsBatch(mem memory.Allocator, schema *arrow.Schema) (arrow.RecordBatch, error) {
	nl := p.batchLeftCols()
	cols := make([]arrow.Array, 0, schema.NumFields())
	var refs []rowRef // the table's rows when they are in several batches
	lo, hi := int32(-1), int32(-1)
	shared := p.sharedKeyCol()
	// first, n: the pairs' probe rows are the run first..first+n-1 of the
	// batch (each matched one build row, as every row of a foreign key
	// joined to its primary key does): the probe columns are slices of
	// the batch's, not copies
	first, n := int64(-1), int64(len(p.pl))
	if consecutiveRun(p.pl) {
		first = int64(p.pl[0])
	}
	for c := 0; c < schema.NumFields(); c++ {
		var a arrow.Array
		var err error
		switch ht := p.ht; {
		case c == shared:
			// the build key of a pair equals its probe key, gathered
			// already (left columns come first)
			a = cols[p.j.LeftKeys[0]]
			a.Retain()
		case c < nl && first >= 0:
			a = array.NewSlice(p.batch.Column(c), first, first+n)
		case c < nl:
			a, err = gatherIdx(mem, schema.Field(c).Type, p.batch.Column(c), p.pl)
		case p.shortView(c-nl) != nil:
			a = gatherShort(mem, schema.Field(c).Type, p.views[c-nl], p.pb)
		case len(ht.batches) == 1 && ht.rowShift >= 0:
			// one batch: the table rows are its positions
			col := ht.batches[0].Column(c - nl)
			if w := exec.FixedWidth(col.DataType()); w > 0 && ht.reordered && len(p.pb) > 0 {
				if lo < 0 {
					lo, hi = minMax(p.pb)
				}
				// rows in partition order fall in a narrow range: reading
				// it in order first (streaming) is cheaper than a miss per
				// cache line in random order
				if int(hi-lo) < 4*len(p.pb) {
					vals := col.Data().Buffers()[1].Bytes()[col.Data().Offset()*w:]
					p.touched += touchLines(vals[int(lo)*w : int(hi+1)*w])
				}
			}
			a, err = gatherIdx(mem, schema.Field(c).Type, col, castInt32s(p.pb))
		default:
			if refs == nil {
				refs = make([]rowRef, len(p.pb))
				for i, r := range p.pb {
					refs[i] = ht.ref(r)
				}
			}
			srcs := make([]arrow.Array, len(ht.batches))
			for i, b := range ht.batches {
				srcs[i] = b.Column(c - nl)
			}
			a, err = gather(mem, schema.Field(c).Type, srcs, refs)
		}
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols = append(cols, a)
	}
	out := array.NewRecordBatch(schema, cols, int64(len(p.pl)))
	releaseAll(cols)
	return out, nil
}

// shortView returns build column c's view (see shortTextView), building
// it at the first call: only for a text or bytea column, in a pass of the
// whole build side (one table: a multi-pass join's tables each live for
// one pass), when the account takes its 8 bytes a row.
func (p *prober) shortView(c int) []uint64 {
	ht := p.ht
	if p.viewTried == nil {
		p.views, p.viewTried = make([][]uint64, ht.schema.NumFields()), make([]bool, ht.schema.NumFields())
	}
	if p.viewTried[c] {
		return p.views[c]
	}
	p.viewTried[c] = true
	if id := ht.schema.Field(c).Type.ID(); p.mode != passOnly || id != arrow.STRING && id != arrow.BINARY || ht.rows == 0 {
		return nil
	}
	n := int64(ht.rows) * 8
	if p.j.hold.grow(n) != nil {
		return nil
	}
	v := shortTextView(ht.batches, c, ht.rows)
	if v == nil {
		p.j.hold.shrink(n)
		return nil
	}
	p.views[c], p.viewBytes = v, p.viewBytes+n
	p.j.views++
	return v
}

// consecutiveRun reports whether pl is a run of consecutive rows, r,
// r+1, ... (not empty). A pass over it costs far less than the gathers
// it saves; its span alone would not tell (a row without a match and a
// row with two cancel out).
func consecutiveRun(pl []uint32) bool {
	if len(pl) == 0 || int(pl[len(pl)-1]-pl[0]) != len(pl)-1 {
		return false
	}
	for i := 1; i < len(pl); i++ {
		if pl[i] != pl[i-1]+1 {
			return false
		}
	}
	return true
}

// minMax is the least and the greatest of s (not empty), found in one
// pass instead of two.
func minMax(s []int32) (lo, hi int32) {
	lo, hi = s[0], s[0]
	for _, x := range s[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// sharedKeyCol is the output column of the build key when it can be the
// probe key column's copy (-1: it is gathered): pairs match on one integer
// key of the same type on both sides, so the two keys of a pair are the
// same value, and neither is NULL (NULL keys never match).
func (p *prober) sharedKeyCol() int {
	j := p.j
	if !p.ht.intKey || len(j.LeftKeys) != 1 {
		return -1
	}
	lt := j.Left.Schema().Field(j.LeftKeys[0]).Type
	if !isIntClass(lt) || !arrow.TypeEqual(lt, j.Right.Schema().Field(j.RightKeys[0]).Type) {
		return -1
	}
	return p.batchLeftCols() + j.RightKeys[0]
}

// pairBatch builds joined rows: left columns from the probe batch, right
// columns from the table (nullBatch refs give NULLs).
func (p *prober) pairBatch(mem memory.Allocator, schema *arrow.Schema, l, r []rowRef) (arrow.RecordBatch, error) {
	nl := p.batchLeftCols()
	cols := make([]arrow.Array, 0, schema.NumFields())
	for c := 0; c < nl; c++ {
		var src []arrow.Array
		if p.batch != nil {
			src = []arrow.Array{p.batch.Column(c)}
		}
		a, err := gather(mem, schema.Field(c).Type, src, l)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols = append(cols, a)
	}
	for c := nl; c < schema.NumFields(); c++ {
		var srcs []arrow.Array
		if p.ht != nil {
			srcs = make([]arrow.Array, len(p.ht.batches))
			for i, b := range p.ht.batches {
				srcs[i] = b.Column(c - nl)
			}
		}
		a, err := gather(mem, schema.Field(c).Type, srcs, r)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols = append(cols, a)
	}
	out := array.NewRecordBatch(schema, cols, int64(len(l)))
	releaseAll(cols)
	return out, nil
}

func (p *prober) batchLeftCols() int { return p.j.Left.Schema().NumFields() }

// finishBatch collects the batch's rows that a left, full, semi or anti
// join outputs on their own and starts emitting them (drainRows).
func (p *prober) finishBatch() {
	j := p.j
	n := int(p.batch.NumRows())
	everAt := func(i int) bool { return p.ever != nil && p.seqBase+i < len(p.ever) && p.ever[p.seqBase+i] }
	rows := p.rest[:0]
	switch j.Type {
	case SemiJoin:
		if p.mode != passFinal {
			for i := 0; i < n; i++ {
				if p.now[i] && !everAt(i) {
					rows = append(rows, rowRef{0, uint32(i)})
				}
			}
		}
	case LeftJoin, FullJoin, AntiJoin:
		if p.mode == passChunk {
			break
		}
		for i := 0; i < n; i++ {
			matched := p.now[i]
			if p.mode == passFinal {
				matched = everAt(i)
			}
			if !matched && p.antiKeeps(i) {
				rows = append(rows, rowRef{0, uint32(i)})
			}
		}
	}
	if p.mode == passChunk {
		for i := 0; i < n; i++ {
			if p.now[i] {
				p.ever[p.seqBase+i] = true
			}
		}
	}
	p.rest, p.restPos, p.finishing = rows, 0, true
	p.drainRows()
}

// drainRows queues the next output batch of the batch's own rows; after
// the last it moves to the next probe batch.
func (p *prober) drainRows() {
	j := p.j
	if p.restPos < len(p.rest) {
		end := min(p.restPos+p.batchRows(), len(p.rest))
		p.queueRows(p.rest[p.restPos:end])
		p.restPos = end
		if p.restPos < len(p.rest) && p.err == nil {
			return
		}
	}
	p.finishing = false
	p.seqBase += int(p.batch.NumRows())
	p.batch.Release()
	p.batch = nil
	if p.chunkHeld > 0 {
		j.hold.shrink(p.chunkHeld)
		p.chunkHeld = 0
	}
}

// antiKeeps applies NOT IN's NULL rules to an unmatched probe row.
func (p *prober) antiKeeps(i int) bool {
	j := p.j
	if j.Type != AntiJoin || !j.NullAware || j.buildEmpty {
		return true
	}
	if j.buildNull {
		return false
	}
	for _, k := range j.LeftKeys {
		if p.batch.Column(k).IsNull(i) {
			return false
		}
	}
	return true
}

// queueRows queues probe rows alone (semi, anti) or with NULLs on the
// right, in output batches.
func (p *prober) queueRows(rows []rowRef) {
	mem := allocOr(p.j.Alloc)
	for lo := 0; lo < len(rows); lo += p.batchRows() {
		part := rows[lo:min(lo+p.batchRows(), len(rows))]
		var b arrow.RecordBatch
		var err error
		if p.j.Type.emitsPairs() {
			nulls := make([]rowRef, len(part))
			for i := range nulls {
				nulls[i] = rowRef{nullBatch, 0}
			}
			b, err = p.pairBatch(mem, p.j.out, part, nulls)
		} else {
			b, err = gatherBatch(mem, p.j.out, []arrow.RecordBatch{p.batch}, part)
		}
		if err != nil {
			p.err = err
			return
		}
		p.queue = append(p.queue, b)
	}
}

// emitUnmatchedBuild queues the table's never-matched rows (right, full).
func (p *prober) emitUnmatchedBuild() error {
	j := p.j
	if p.mode == passFinal || (j.Type != RightJoin && j.Type != FullJoin) || p.ht == nil {
		p.rightDone = true
		return nil
	}
	var l, r []rowRef
	for p.rightPos < p.ht.rows && len(r) < p.batchRows() {
		if !p.ht.matched[p.rightPos] {
			l = append(l, rowRef{nullBatch, 0})
			r = append(r, p.ht.ref(int32(p.rightPos)))
		}
		p.rightPos++
	}
	if p.rightPos >= p.ht.rows {
		p.rightDone = true
	}
	if len(r) == 0 {
		return nil
	}
	b, err := p.pairBatch(allocOr(j.Alloc), j.out, l, r)
	if err != nil {
		return err
	}
	p.queue = append(p.queue, b)
	return nil
}

// NestedLoopJoin joins every left row with every right row (the right side
// is materialised) and keeps the pairs where Cond is true (nil: all pairs,
// a cross join). All join types are supported; Semi and Anti give EXISTS
// and NOT EXISTS with non-equality conditions. It does not spill: the right
// side must fit in Mem.
type NestedLoopJoin struct {
	Left, Right exec.Operator
	Type        JoinType
	Cond        Residual
	EC          *exec.EvalContext
	Mem         *MemoryAccount
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator
	// BatchRows is the output batch size (0: 8192).
	BatchRows int

	j *HashJoin
}

// NewCrossJoin returns the cross product of left and right.
func NewCrossJoin(left, right exec.Operator, mem *MemoryAccount) *NestedLoopJoin {
	return &NestedLoopJoin{Left: left, Right: right, Type: InnerJoin, Mem: mem}
}

func (o *NestedLoopJoin) inner() *HashJoin {
	if o.j == nil {
		o.j = &HashJoin{Left: o.Left, Right: o.Right, Type: o.Type, Residual: o.Cond, EC: o.EC, Mem: o.Mem,
			Alloc: o.Alloc, BatchRows: o.BatchRows, cross: true}
	}
	return o.j
}

func (o *NestedLoopJoin) Schema() *arrow.Schema { return o.inner().Schema() }
func (o *NestedLoopJoin) Close()                { o.inner().Close() }
func (o *NestedLoopJoin) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return o.inner().Next(ctx)
}
