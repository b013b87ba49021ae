package embedded

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
)

// Distinct-count estimates: each table keeps one HyperLogLog sketch per
// column, over every non-null value written to it (appends and upserts;
// a delete or an overwritten value is not taken out, so on a primary-key
// table the estimate is an upper bound, like its row count).
//
// The writer hashes its record on its own goroutine (sketchRecord) and the
// committer folds the hashes into the table's sketch when the group commits,
// so the single committer pays one register update per value, not the
// hashing. A bulk append (COPY into a log table) folds each part into its
// own running registers as it stages it (addRecord), so its commit
// carries one dense delta per column. The sketch is persisted in pebble under prefixNDV, in the same
// batch as a group's state at most once per ndvPersistEvery and at Close, so
// a crash loses at most that interval's updates (the estimate lags; a
// table whose sketch was never persisted reports none).

var _ fluss.DistinctEstimator = (*tableHandle)(nil)

const (
	// hllP is the sketch's precision: 2^14 one-byte registers per column,
	// a standard error of 1.04/sqrt(2^14) = 0.8%.
	hllP = 14
	hllM = 1 << hllP

	// prefixNDV keys a table's persisted sketches: 'n' table(8) -> encodeNDV.
	prefixNDV = 'n'

	// ndvPersistEvery bounds how often a group commit also writes a
	// table's sketches (16 KiB per column).
	ndvPersistEvery = time.Second

	// sparseLimit: a record of more rows than this is folded into dense
	// registers by the writer rather than sent as one hash per value.
	sparseLimit = hllM / 4

	ndvFormat = 1
)

// ndvState is a table's sketches.
type ndvState struct {
	mu sync.Mutex
	// known is false for a table that has rows written before its
	// sketches were kept (or never persisted before a crash).
	known     bool
	regs      [][]uint8 // per column; nil until a value arrives
	dirty     bool
	persisted time.Time
}

// ndvDelta is what one write adds to the sketches, per column: either the
// packed (register<<6 | rank) of each value, or dense registers.
type ndvDelta struct {
	sparse [][]uint32
	dense  [][]uint8
}

// hllUpdate packs the register and rank of hash x.
func hllUpdate(x uint64) uint32 {
	idx := x >> (64 - hllP)
	rank := bits.LeadingZeros64(x<<hllP|1<<(hllP-1)) + 1
	return uint32(idx)<<6 | uint32(rank)
}

// mix64 is murmur3's finaliser: every input bit affects every output bit.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// hashBytes hashes b eight bytes at a time (the sketches are persisted, so
// the hash must not depend on the process, as maphash's seed does).
func hashBytes(b []byte) uint64 {
	h := uint64(len(b)) * 0x9e3779b97f4a7c15
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0x100000001b3
		h = bits.RotateLeft64(h, 31)
		b = b[8:]
	}
	var tail [8]byte
	copy(tail[:], b)
	h = (h ^ binary.LittleEndian.Uint64(tail[:])) * 0x100000001b3
	return mix64(h)
}

// sketchRecord hashes the values of rec's columns (those with target[i],
// or all when target is nil). Columns of a type it cannot hash get none.
func sketchRecord(rec arrow.RecordBatch, target []bool) *ndvDelta {
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	cols := int(rec.NumCols())
	if n*cols <= smallSketchValues && cols <= smallSketchCols {
		return sketchSmall(rec, target, cols)
	}
	return sketchLarge(rec, target, n, cols)
}

// A write of a few values (a one-row UPDATE or INSERT) is sketched into
// one allocation, its delta's slices pointing into storage of its own,
// instead of one for the delta, one for its column list, one per column
// and one for the hashes (bench/LEDGER.md, 2026-12-05).
const (
	smallSketchCols   = 4
	smallSketchValues = 8
)

// smallDelta is an ndvDelta of at most smallSketchValues values over at
// most smallSketchCols columns, with their storage.
type smallDelta struct {
	ndvDelta
	cols [smallSketchCols][]uint32
	vals [smallSketchValues]uint32
}

// sketchSmall is sketchRecord of a record of at most smallSketchValues
// values and smallSketchCols columns: the same packed values.
func sketchSmall(rec arrow.RecordBatch, target []bool, cols int) *ndvDelta {
	sd := &smallDelta{}
	d := &sd.ndvDelta
	d.sparse = sd.cols[:cols]
	var local [smallSketchValues]uint64
	used := 0
	for c := range cols {
		if target != nil && !target[c] {
			continue
		}
		hashes, ok := hashColumn(local[:0], rec.Column(c))
		if !ok {
			continue
		}
		out := sd.vals[used : used+len(hashes) : used+len(hashes)]
		for i, x := range hashes {
			out[i] = hllUpdate(x)
		}
		used += len(hashes)
		d.sparse[c] = out
	}
	return d
}

// sketchLarge is sketchRecord of any record of n rows and cols columns.
func sketchLarge(rec arrow.RecordBatch, target []bool, n, cols int) *ndvDelta {
	d := &ndvDelta{}
	if n > sparseLimit {
		d.dense = make([][]uint8, cols)
	} else {
		d.sparse = make([][]uint32, cols)
	}
	var hashes []uint64 // one buffer for every column
	for c := range cols {
		if target != nil && !target[c] {
			continue
		}
		var ok bool
		if hashes, ok = hashColumn(hashes[:0], rec.Column(c)); !ok {
			continue
		}
		if d.dense != nil {
			regs := make([]uint8, hllM)
			for _, x := range hashes {
				u := hllUpdate(x)
				if r := uint8(u & 63); r > regs[u>>6] {
					regs[u>>6] = r
				}
			}
			d.dense[c] = regs
			continue
		}
		out := make([]uint32, len(hashes))
		for i, x := range hashes {
			out[i] = hllUpdate(x)
		}
		d.sparse[c] = out
	}
	return d
}

// addRecord returns d with the values of every column of rec added to its
// dense registers: sketchRecord and fold in one step, for a bulk append
// that sketches part after part (staged.go). The common columns (text and
// 4- or 8-byte fixed width: foldColumn) are hashed straight into the
// registers d already holds; the others through hashColumn into buf
// (returned, grown, for the next call). Either way a value's hash is
// sketchRecord's: the sketch is persisted.
func (d *ndvDelta) addRecord(rec arrow.RecordBatch, buf []uint64) (*ndvDelta, []uint64) {
	if rec.NumRows() == 0 {
		return d, buf
	}
	if d == nil {
		d = &ndvDelta{}
	}
	for c := range int(rec.NumCols()) {
		a := rec.Column(c)
		if a.NullN() == a.Len() {
			continue // no value: no registers, as hashColumn's none
		}
		if x, ok := a.(*array.String); ok {
			foldStrings(d.denseRegs(c), x)
			continue
		}
		if w := foldWidth(a); w != 0 {
			foldFixed(d.denseRegs(c), a, w)
			continue
		}
		var ok bool
		if buf, ok = hashColumn(buf[:0], a); !ok || len(buf) == 0 {
			continue
		}
		regs := d.denseRegs(c)
		for _, x := range buf {
			addHash(regs, x)
		}
	}
	return d, buf
}

// denseRegs is column c's dense registers, made when first needed.
func (d *ndvDelta) denseRegs(c int) *[hllM]uint8 {
	for len(d.dense) <= c {
		d.dense = append(d.dense, nil)
	}
	if d.dense[c] == nil {
		d.dense[c] = make([]uint8, hllM)
	}
	return (*[hllM]uint8)(d.dense[c])
}

// addHash folds hash x into dense registers: hllUpdate's register and
// rank, the register indexed through an array pointer so that the loops
// below check no bounds.
func addHash(regs *[hllM]uint8, x uint64) {
	idx := x >> (64 - hllP)
	rank := uint8(bits.LeadingZeros64(x<<hllP|1<<(hllP-1)) + 1)
	regs[idx] = max(regs[idx], rank)
}

// foldStrings adds the hash of each non-null value of a to regs
// (hashColumn's hashBytes of the value's bytes, read at their offsets).
func foldStrings(regs *[hllM]uint8, a *array.String) {
	offs := a.ValueOffsets() // a's own, absolute in the value buffer
	var data []byte
	if bufs := a.Data().Buffers(); len(bufs) > 2 && bufs[2] != nil {
		data = bufs[2].Bytes()
	}
	noNulls := a.NullN() == 0
	for i := range a.Len() {
		if noNulls || a.IsValid(i) {
			addHash(regs, hashBytes(data[offs[i]:offs[i+1]]))
		}
	}
}

// foldWidth is the byte width of a's values when foldFixed takes them: 4
// or 8, the widths hashColumn's fixed-width path hashes as one word; 0
// for any other column.
func foldWidth(a arrow.Array) int {
	switch a.(type) {
	case *array.String, *array.LargeString, *array.Binary, *array.Boolean:
		return 0 // hashColumn's own cases
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || (fw.BitWidth() != 32 && fw.BitWidth() != 64) {
		return 0
	}
	if bufs := a.Data().Buffers(); len(bufs) < 2 || bufs[1] == nil {
		return 0
	}
	return fw.BitWidth() / 8
}

// foldFixed adds the hash of each non-null value of a, of width w (4 or
// 8, foldWidth), to regs: hashColumn's mix64 of the value and its width.
func foldFixed(regs *[hllM]uint8, a arrow.Array, w int) {
	n, off := a.Len(), a.Data().Offset()
	data := a.Data().Buffers()[1].Bytes()[off*w : (off+n)*w]
	noNulls := a.NullN() == 0
	seed := uint64(w) << 56
	if w == 4 {
		for i := range n {
			if noNulls || a.IsValid(i) {
				addHash(regs, mix64(uint64(binary.LittleEndian.Uint32(data[i*4:]))^seed))
			}
		}
		return
	}
	for i := range n {
		if noNulls || a.IsValid(i) {
			addHash(regs, mix64(binary.LittleEndian.Uint64(data[i*8:])^seed))
		}
	}
}

// fold returns d with o's values added, as dense registers: the sum of a
// bulk upsert's parts, whose values together are many. Either may be nil.
func (d *ndvDelta) fold(o *ndvDelta) *ndvDelta {
	if o == nil {
		return d
	}
	if d == nil {
		d = &ndvDelta{}
	}
	reg := func(c int) []uint8 {
		for len(d.dense) <= c {
			d.dense = append(d.dense, nil)
		}
		if d.dense[c] == nil {
			d.dense[c] = make([]uint8, hllM)
		}
		return d.dense[c]
	}
	o.addTo(max(len(o.sparse), len(o.dense)), reg)
	return d
}

// hashColumn appends the hash of each non-null value of a to out; false
// when a's type is not one it hashes.
func hashColumn(out []uint64, a arrow.Array) ([]uint64, bool) {
	switch x := a.(type) {
	case *array.String:
		for i := range x.Len() {
			if x.IsValid(i) {
				out = append(out, hashBytes(unsafeBytes(x.Value(i))))
			}
		}
		return out, true
	case *array.LargeString:
		for i := range x.Len() {
			if x.IsValid(i) {
				out = append(out, hashBytes(unsafeBytes(x.Value(i))))
			}
		}
		return out, true
	case *array.Binary:
		for i := range x.Len() {
			if x.IsValid(i) {
				out = append(out, hashBytes(x.Value(i)))
			}
		}
		return out, true
	case *array.Boolean:
		for i := range x.Len() {
			if x.IsValid(i) {
				v := uint64(0)
				if x.Value(i) {
					v = 1
				}
				out = append(out, mix64(v+0x9e3779b97f4a7c15))
			}
		}
		return out, true
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth() < 8 || fw.BitWidth()%8 != 0 {
		return out, false
	}
	w := fw.BitWidth() / 8
	bufs := a.Data().Buffers()
	if len(bufs) < 2 || bufs[1] == nil {
		return out, false
	}
	n, off := a.Len(), a.Data().Offset()
	data := bufs[1].Bytes()[off*w : (off+n)*w]
	noNulls := a.NullN() == 0
	seed := uint64(w) << 56
	switch w {
	case 4:
		for i := range n {
			if noNulls || a.IsValid(i) {
				out = append(out, mix64(uint64(binary.LittleEndian.Uint32(data[i*4:]))^seed))
			}
		}
	case 8:
		for i := range n {
			if noNulls || a.IsValid(i) {
				out = append(out, mix64(binary.LittleEndian.Uint64(data[i*8:])^seed))
			}
		}
	default:
		for i := range n {
			if !noNulls && a.IsNull(i) {
				continue
			}
			v := data[i*w : (i+1)*w]
			if w < 8 {
				var b [8]byte
				copy(b[:], v)
				out = append(out, mix64(binary.LittleEndian.Uint64(b[:])^seed))
			} else {
				out = append(out, hashBytes(v))
			}
		}
	}
	return out, true
}

// addTo folds d's values of each column c < cols into the registers reg(c)
// returns.
func (d *ndvDelta) addTo(cols int, reg func(c int) []uint8) {
	for c, vals := range d.sparse {
		if c >= cols || vals == nil {
			continue
		}
		r := reg(c)
		for _, u := range vals {
			if v := uint8(u & 63); v > r[u>>6] {
				r[u>>6] = v
			}
		}
	}
	for c, dr := range d.dense {
		if c >= cols || dr == nil {
			continue
		}
		r := reg(c)
		for i, v := range dr {
			r[i] = max(r[i], v)
		}
	}
}

// merge folds a write's delta into the sketches.
func (s *ndvState) merge(d *ndvDelta, cols int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.regs == nil {
		s.regs = make([][]uint8, cols)
	}
	reg := func(c int) []uint8 {
		if s.regs[c] == nil {
			s.regs[c] = make([]uint8, hllM)
		}
		return s.regs[c]
	}
	d.addTo(cols, reg)
	s.dirty = true
}

// estimate is column c's distinct count; ok is false when it is not kept.
func (s *ndvState) estimate(c int) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.known {
		return 0, false
	}
	if c >= len(s.regs) || s.regs[c] == nil {
		return 0, true // no non-null value yet
	}
	return hllEstimate(s.regs[c]), true
}

// hllEstimate is HyperLogLog's estimate with linear counting for small
// cardinalities (64-bit hashes need no large-range correction).
func hllEstimate(regs []uint8) int64 {
	m := float64(len(regs))
	sum, zeros := 0.0, 0
	for _, r := range regs {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	alpha := 0.7213 / (1 + 1.079/m)
	e := alpha * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros))
	}
	return int64(math.Round(e))
}

// encode is the persisted form: format, column count, then per column a
// presence byte and, if present, its registers.
func (s *ndvState) encode() []byte {
	out := []byte{ndvFormat}
	out = binary.AppendUvarint(out, uint64(len(s.regs)))
	for _, r := range s.regs {
		if r == nil {
			out = append(out, 0)
			continue
		}
		out = append(out, 1)
		out = append(out, r...)
	}
	return out
}

func decodeNDV(b []byte, cols int) ([][]uint8, bool) {
	if len(b) < 1 || b[0] != ndvFormat {
		return nil, false
	}
	n, k := binary.Uvarint(b[1:])
	if k <= 0 || n > uint64(cols) {
		return nil, false
	}
	b = b[1+k:]
	// Fewer columns than the table has: the sketches were written before
	// an ALTER TABLE ADD COLUMN (or by a table that never registered a
	// value, such as a partitioned table's parent, whose registers are
	// empty); the columns after them have no registers, which estimate
	// reads as "no non-null value yet", as replaced gives an added column.
	regs := make([][]uint8, cols)
	for c := range regs[:n] {
		if len(b) < 1 {
			return nil, false
		}
		present := b[0]
		b = b[1:]
		if present == 0 {
			continue
		}
		if len(b) < hllM {
			return nil, false
		}
		regs[c] = append([]uint8(nil), b[:hllM]...)
		b = b[hllM:]
	}
	return regs, len(b) == 0
}

func ndvKey(tableID int64) []byte { return tablePrefix(prefixNDV, tableID) }

// loadNDV reads a reopened table's sketches. Without any, the table's
// distinct counts are known only if it has no rows.
func (s *Store) loadNDV(t *tableState) error {
	v, closer, err := s.db.Get(ndvKey(t.info.TableID))
	if err == pebble.ErrNotFound {
		var rows int64
		for _, b := range t.buckets {
			rows += b.next
		}
		t.ndv.known = rows == 0
		return nil
	}
	if err != nil {
		return ioErr(err, "reading the distinct-count sketches of %s", t.info.Path)
	}
	defer closer.Close()
	regs, ok := decodeNDV(v, len(t.colTypes))
	if !ok {
		// A sketch is an estimate: an unreadable one is dropped, not fatal.
		s.log.Warn("ignoring unreadable distinct-count sketches", "table", t.info.Path.String())
		return nil
	}
	t.ndv.known, t.ndv.regs = true, regs
	return nil
}

// foldNDV adds the committed requests' deltas to their tables' sketches
// and writes the sketches due for persistence into kv.
func (s *Store) foldNDV(kv stateWriter, reqs []*request, live []bool) error {
	var touched []*tableState
	for i, r := range reqs {
		if !live[i] || r.ndv == nil {
			continue
		}
		r.table.ndv.merge(r.ndv, len(r.table.colTypes))
		touched = append(touched, r.table)
	}
	now := time.Now()
	for _, t := range touched {
		if err := t.ndv.persistInto(kv, t.info.TableID, now, false); err != nil {
			return err
		}
	}
	return nil
}

// persistInto writes the sketches into kv when they changed and the last
// write is ndvPersistEvery old (or always, with force).
func (s *ndvState) persistInto(kv stateWriter, tableID int64, now time.Time, force bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dirty || !s.known || (!force && now.Sub(s.persisted) < ndvPersistEvery) {
		return nil
	}
	if err := kv.Set(ndvKey(tableID), s.encode(), nil); err != nil {
		return ioErr(err, "writing distinct-count sketches")
	}
	s.dirty, s.persisted = false, now
	return nil
}

// persistNDV writes every changed sketch (at Close).
func (s *Store) persistNDV() error {
	kv := s.db.NewBatch()
	defer kv.Close()
	now := time.Now()
	for _, t := range s.tables {
		if err := t.ndv.persistInto(kv, t.info.TableID, now, true); err != nil {
			return err
		}
	}
	if kv.Empty() {
		return nil
	}
	if err := kv.Commit(pebble.Sync); err != nil {
		return ioErr(err, "writing distinct-count sketches")
	}
	return nil
}

// EstimateDistinct implements fluss.DistinctEstimator.
func (h *tableHandle) EstimateDistinct(column int) (int64, bool) {
	if column < 0 || column >= len(h.t.colTypes) {
		return 0, false
	}
	n, ok := h.t.ndv.estimate(column)
	if !ok {
		return 0, false
	}
	return min(n, h.EstimateRows()), true
}

// unsafeBytes views s's bytes without copying; they are only hashed.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
