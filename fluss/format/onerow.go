package format

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/internal/arrowrec"
	"github.com/sqlgate/sqlgate/types"
)

// OneRow decodes one compacted row (a point lookup's result) straight into
// a one-row record: each value is written once into a small slab that the
// arrays share, with the Data and buffer headers of all columns allocated
// together and the record holding its column list, instead of through
// builders that allocate, grow and hand over a few buffers per column. It
// serves rows whose projected columns are all of the common scalar kinds
// (NewOneRow says); it is immutable and safe for concurrent use.
type OneRow struct {
	schema *arrow.Schema
	nb     int
	cols   []oneCol
	// The slab bytes a row without NULLs needs beside its variable-width
	// values: Decode allocates exactly these, as every byte a lookup
	// allocates is paid again by the collector.
	nslab int
}

type oneCol struct {
	t     types.T
	kind  types.Kind
	wide  bool // Timestamp: nanoseconds of the millisecond follow
	nanos bool // Arrow timestamp in nanoseconds (else microseconds)
	out   int  // output position; -1 = not projected
	width int  // value bytes of a fixed-width kind (0 = variable)
	// skipper steps over a column left out (RowDecoder's way).
	skipper rowCol
}

// NewOneRow returns the decoder of rows of types ts projected to schema
// (pos[f] is table column f's output position, -1 = left out), or false
// when a projected column has a kind it does not build.
func NewOneRow(ts []types.T, pos []int, schema *arrow.Schema) (*OneRow, bool) {
	d := &OneRow{schema: schema, nb: (len(ts) + 7) / 8, cols: make([]oneCol, len(ts))}
	for f, t := range ts {
		c := &d.cols[f]
		c.t, c.kind, c.wide, c.out = t, t.Kind, t.Precision > 3, pos[f]
		c.skipper = rowCol{kind: t.Kind, wide: c.wide}
		c.skipper.skip, c.skipper.skipFixed = skipOf(t.Kind)
		if c.out < 0 {
			continue
		}
		c.width = fixedWidth(t.Kind)
		switch t.Kind {
		case types.Timestamp, types.TimestampTZ:
			ts, ok := schema.Field(c.out).Type.(*arrow.TimestampType)
			if !ok {
				return nil, false
			}
			c.nanos = ts.Unit == arrow.Nanosecond
		case types.Char, types.String, types.Bytes:
		default:
			if c.width == 0 {
				return nil, false
			}
		}
		if c.width > 0 {
			d.nslab += 8
		} else {
			d.nslab += 16 // offsets, and the value's padding to 8 bytes
		}
	}
	return d, true
}

// oneRowRecord is Decode's record with its column list inline (up to 8
// columns; more get a list of their own).
type oneRowRecord struct {
	arrowrec.Record
	inline [8]arrow.Array
}

// oneColStore is the Data of one output column and its buffer headers,
// allocated together for all of a record's columns.
type oneColStore struct {
	data array.Data
	hdrs [3]memory.Buffer // validity, values (offsets), variable-width data
	ptrs [3]*memory.Buffer
}

// set makes b the column's buffer i.
func (st *oneColStore) set(i int, b []byte) {
	st.hdrs[i].Reset(b)
	st.ptrs[i] = &st.hdrs[i]
}

// eachOutput walks row's fields: it steps over those left out of the
// projection and calls visit for each projected one, with its NULL flag and
// the bytes from its value on; visit returns the value's length (0 for a
// NULL). Decode and ReusableRow.Decode differ only in visit.
func (d *OneRow) eachOutput(row []byte, visit func(c *oneCol, null bool, b []byte) (int, error)) error {
	if len(row) < d.nb {
		return errShortRow
	}
	pos := d.nb
	for f := range d.cols {
		c := &d.cols[f]
		null := row[f>>3]&(1<<(f&7)) != 0
		var m int
		var err error
		if c.out >= 0 {
			m, err = visit(c, null, row[pos:])
		} else if !null {
			m, err = c.skipLeftOut(row[pos:])
		}
		if err != nil {
			return err
		}
		pos += m
	}
	return nil
}

// Decode decodes row into a one-row record: the record with its column
// list, the columns' Data and buffer headers, the slab of their bytes and
// one array object per column.
func (d *OneRow) Decode(row []byte) (arrow.RecordBatch, error) {
	if len(row) < d.nb {
		return nil, errShortRow
	}
	n := d.schema.NumFields()
	// A NULL value needs a validity buffer (8 slab bytes).
	nulls := 0
	for f := range d.cols {
		if d.cols[f].out >= 0 && row[f>>3]&(1<<(f&7)) != 0 {
			nulls++
		}
	}
	// The variable-width values are parts of row, so len(row) bounds them.
	slab := make([]byte, 0, d.nslab+8*nulls+len(row))
	alloc := func(size int) []byte {
		need := (size + 7) &^ 7 // 8-byte aligned, as typed views need
		if len(slab)+need > cap(slab) {
			slab = make([]byte, 0, max(need, 64))
		}
		off := len(slab)
		slab = slab[:off+need]
		return slab[off : off+size : off+size]
	}
	rec := &oneRowRecord{}
	cols := rec.inline[:0]
	if n > len(rec.inline) {
		cols = make([]arrow.Array, 0, n)
	}
	cols = cols[:n]
	store := make([]oneColStore, n)
	err := d.eachOutput(row, func(c *oneCol, null bool, b []byte) (int, error) {
		st := &store[c.out]
		nullN, m, nb := 0, 0, 2
		if null {
			nullN = 1
			st.set(0, alloc(1)) // a zero validity bit
		}
		if c.width > 0 {
			v := alloc(c.width)
			if !null {
				var ok bool
				if m, ok = c.put(v, b); !ok {
					return 0, errShortRow
				}
			}
			st.set(1, v)
		} else {
			var val []byte
			if !null {
				var ok bool
				if val, m, ok = varValue(b); !ok {
					return 0, errShortRow
				}
			}
			offs := alloc(8)
			binary.LittleEndian.PutUint32(offs[4:], uint32(len(val)))
			data := alloc(len(val))
			copy(data, val) // row belongs to pebble's iterator
			st.set(1, offs)
			st.set(2, data)
			nb = 3
		}
		// A zero Data holds no reference: the array takes the one that
		// its last Release gives back.
		st.data.Reset(d.schema.Field(c.out).Type, 1, st.ptrs[:nb:nb], nil, nullN, 0)
		cols[c.out] = array.MakeFromData(&st.data)
		return m, nil
	})
	if err != nil {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
		return nil, err
	}
	rec.Init(d.schema, cols, 1)
	return rec, nil
}

// skipLeftOut steps over the value, at the start of b, of a column left
// out of the projection and returns its length.
func (c *oneCol) skipLeftOut(b []byte) (int, error) {
	if m, ok := c.skipper.skipValue(b); ok {
		return m, nil
	}
	if c.skipper.skip != skipGeneric {
		return 0, errShortRow
	}
	return DecodeValue(b, c.t, nil)
}

// varValue is the variable-width value at the start of b (its length, then
// its bytes) and the bytes it takes.
func varValue(b []byte) ([]byte, int, bool) {
	l, k := binary.Uvarint(b)
	if k <= 0 || l > uint64(len(b)-k) {
		return nil, 0, false
	}
	return b[k : k+int(l)], k + int(l), true
}

// fixedWidth is the width of an Arrow value of a fixed-width kind that
// putFixed writes (0: variable width, or a kind it does not).
func fixedWidth(k types.Kind) int {
	switch k {
	case types.Bool, types.Int8:
		return 1
	case types.Int16:
		return 2
	case types.Int32, types.Date, types.Float32:
		return 4
	case types.Int64, types.Float64, types.Timestamp, types.TimestampTZ:
		return 8
	}
	return 0
}

// put writes the Arrow value of the compacted value at the start of b into
// v and returns the compacted value's length.
func (c *oneCol) put(v, b []byte) (int, bool) { return putFixed(c.kind, c.wide, c.nanos, v, b) }

// putFixed writes the Arrow value of the compacted value of kind k at the
// start of b into v (fixedWidth(k) bytes) and returns the compacted
// value's length; a timestamp's nanoseconds of the millisecond follow when
// wide, and it is written in nanoseconds when nanos (else microseconds).
// One row's columns (OneRow) and a small batch's (EncodeRows) decode
// through it.
func putFixed(k types.Kind, wide, nanos bool, v, b []byte) (int, bool) {
	le := binary.LittleEndian
	switch k {
	case types.Bool:
		if len(b) < 1 {
			return 0, false
		}
		if b[0] != 0 {
			v[0] = 1
		}
		return 1, true
	case types.Int8:
		if len(b) < 1 {
			return 0, false
		}
		v[0] = b[0]
		return 1, true
	case types.Int16:
		if len(b) < 2 {
			return 0, false
		}
		copy(v, b[:2])
		return 2, true
	case types.Float32:
		if len(b) < 4 {
			return 0, false
		}
		copy(v, b[:4])
		return 4, true
	case types.Float64:
		if len(b) < 8 {
			return 0, false
		}
		copy(v, b[:8])
		return 8, true
	case types.Int32, types.Date:
		x, m := binary.Uvarint(b)
		if m <= 0 || x > math.MaxUint32 {
			return 0, false
		}
		le.PutUint32(v, uint32(x))
		return m, true
	case types.Int64:
		x, m := binary.Uvarint(b)
		if m <= 0 {
			return 0, false
		}
		le.PutUint64(v, x)
		return m, true
	case types.Timestamp, types.TimestampTZ:
		ms, m := binary.Uvarint(b)
		if m <= 0 {
			return 0, false
		}
		var nano int64
		if wide {
			x, k := binary.Uvarint(b[m:])
			if k <= 0 || x > math.MaxUint32 {
				return 0, false
			}
			nano, m = int64(int32(uint32(x))), m+k
		}
		ts := timestampOfParts(int64(ms), int32(nano), nanos)
		le.PutUint64(v, uint64(ts))
		return m, true
	}
	return 0, false
}

// ReusableRow is a one-row record that a OneRow decodes rows into again
// and again, rewriting its columns' memory in place: a prepared point
// lookup whose row goes straight to the client builds no arrays at all.
// It is handed out only while nobody holds it (arrowrec's kept record),
// and whoever receives it must keep nothing of it past Release, since the
// next lookup rewrites it. Safe for concurrent use: a second lookup while
// the record is out decodes a fresh record instead.
type ReusableRow struct {
	arrowrec.Record
	d     *OneRow
	store []*reusableCol // by output position
}

// reusableCol is one column of a ReusableRow: its array's Data, the buffer
// headers (validity, always present; values or offsets; variable-width
// data) and their memory.
type reusableCol struct {
	oneColStore
	valid []byte // one byte: the row's validity bit
	vals  []byte // a fixed-width value, or the variable-width value's room
	offs  []byte // variable width: the offsets 0 and the value's length
}

// minReusableRoom is the room a variable-width column starts with; a
// longer value replaces the column with one of twice its length.
const minReusableRoom = 64

// NewReusable returns a ReusableRow of d's rows labelled with out, which
// must have d's column types (under any names); nil when it does not.
func (d *OneRow) NewReusable(out *arrow.Schema) *ReusableRow {
	if out.NumFields() != d.schema.NumFields() {
		return nil
	}
	for i := range out.NumFields() {
		if !arrow.TypeEqual(out.Field(i).Type, d.schema.Field(i).Type) {
			return nil
		}
	}
	r := &ReusableRow{d: d, store: make([]*reusableCol, out.NumFields())}
	cols := make([]arrow.Array, out.NumFields())
	for f := range d.cols {
		if c := &d.cols[f]; c.out >= 0 {
			cols[c.out] = r.newCol(c, minReusableRoom)
		}
	}
	r.InitKept(out, cols, 1)
	return r
}

// For reports whether r decodes d's rows labelled with out.
func (r *ReusableRow) For(d *OneRow, out *arrow.Schema) bool {
	return r.d == d && r.Schema() == out
}

// newCol builds the array of output column c.out (a NULL, until a row is
// decoded into it), with room bytes for a variable-width value.
func (r *ReusableRow) newCol(c *oneCol, room int) arrow.Array {
	st := &reusableCol{}
	// 8-byte aligned parts of one allocation, as typed views need.
	slab := make([]byte, 8+max(c.width, 8+room))
	st.valid = slab[:1:1]
	st.set(0, st.valid)
	nb := 2
	if c.width > 0 {
		st.vals = slab[8 : 8+c.width : 8+c.width]
		st.set(1, st.vals)
	} else {
		st.offs, st.vals = slab[8:16:16], slab[16:]
		st.set(1, st.offs)
		st.set(2, st.vals) // longer than the value: the offsets bound it
		nb = 3
	}
	st.data.Reset(r.d.schema.Field(c.out).Type, 1, st.ptrs[:nb:nb], nil, 1, 0)
	r.store[c.out] = st
	return array.MakeFromData(&st.data)
}

// Decode decodes row into r and returns r with one reference, or false
// when r is out (the caller decodes a fresh record then).
func (r *ReusableRow) Decode(row []byte) (arrow.RecordBatch, bool, error) {
	if !r.Claim() {
		return nil, false, nil
	}
	err := r.d.eachOutput(row, func(c *oneCol, null bool, b []byte) (int, error) {
		st := r.store[c.out]
		m := 0
		if c.width > 0 {
			clear(st.vals)
			if !null {
				var ok bool
				if m, ok = c.put(st.vals, b); !ok {
					return 0, errShortRow
				}
			}
		} else {
			var val []byte
			if !null {
				var ok bool
				if val, m, ok = varValue(b); !ok {
					return 0, errShortRow
				}
			}
			if len(val) > len(st.vals) {
				r.ReplaceColumn(c.out, r.newCol(c, 2*len(val)))
				st = r.store[c.out]
			}
			copy(st.vals, val) // row belongs to pebble's iterator
			binary.LittleEndian.PutUint32(st.offs[4:], uint32(len(val)))
		}
		nullN := 0
		if null {
			nullN = 1
		}
		st.valid[0] = byte(1 - nullN)
		st.data.SetNullN(nullN)
		return m, nil
	})
	if err != nil {
		r.Release()
		return nil, true, err
	}
	return r, true, nil
}
