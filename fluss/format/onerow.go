package format

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// OneRow decodes one compacted row (a point lookup's result) straight into
// a one-row record: each value is written once into a small slab that the
// arrays share, with the buffer headers of all columns allocated together,
// instead of through builders that allocate, grow and hand over a few
// buffers per column. It serves rows whose projected columns are all of
// the common scalar kinds (NewOneRow says); it is immutable and safe for
// concurrent use.
type OneRow struct {
	schema *arrow.Schema
	nb     int
	cols   []oneCol
	// The buffers a row without NULLs needs (one for a fixed-width column,
	// two for a variable-width one), their buffer slots (plus a validity
	// slot per column), and the slab bytes, beside the variable-width
	// values: Decode allocates exactly these, as every byte a lookup
	// allocates is paid again by the collector.
	nbufs, nslots, nslab int
}

type oneCol struct {
	t     types.T
	kind  types.Kind
	wide  bool // Timestamp: nanoseconds of the millisecond follow
	nanos bool // Arrow timestamp in nanoseconds (else microseconds)
	out   int  // output position; -1 = not projected
	width int  // value bytes of a fixed-width kind (0 = variable)
	slot  int  // its first buffer slot (validity) in Decode's slots
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
		switch t.Kind {
		case types.Bool, types.Int8:
			c.width = 1
		case types.Int16:
			c.width = 2
		case types.Int32, types.Date, types.Float32:
			c.width = 4
		case types.Int64, types.Float64:
			c.width = 8
		case types.Timestamp, types.TimestampTZ:
			c.width = 8
			ts, ok := schema.Field(c.out).Type.(*arrow.TimestampType)
			if !ok {
				return nil, false
			}
			c.nanos = ts.Unit == arrow.Nanosecond
		case types.Char, types.String, types.Bytes:
		default:
			return nil, false
		}
		c.slot = d.nslots
		if c.width > 0 {
			d.nbufs, d.nslots, d.nslab = d.nbufs+1, d.nslots+2, d.nslab+8
		} else {
			// Offsets, and the value's padding to 8 bytes.
			d.nbufs, d.nslots, d.nslab = d.nbufs+2, d.nslots+3, d.nslab+16
		}
	}
	return d, true
}

// Decode decodes row into a one-row record.
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
	hdrs := make([]memory.Buffer, d.nbufs+nulls)
	ptrs := make([]*memory.Buffer, d.nslots)
	buf := func(i int, b []byte) {
		h := &hdrs[0]
		hdrs = hdrs[1:]
		h.Reset(b)
		ptrs[i] = h
	}
	// NewRecordBatch copies cols: a projection of up to 16 columns keeps
	// them on the stack.
	var stackCols [16]arrow.Array
	cols := stackCols[:0]
	if n > len(stackCols) {
		cols = make([]arrow.Array, 0, n)
	}
	cols = cols[:n]
	release := func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}
	pos := d.nb
	for f := range d.cols {
		c := &d.cols[f]
		null := row[f>>3]&(1<<(f&7)) != 0
		if c.out < 0 {
			if !null {
				m, ok := c.skipper.skipValue(row[pos:])
				if !ok {
					if c.skipper.skip != skipGeneric {
						release()
						return nil, errShortRow
					}
					var err error
					if m, err = DecodeValue(row[pos:], c.t, nil); err != nil {
						release()
						return nil, err
					}
				}
				pos += m
			}
			continue
		}
		o, p := c.out, c.slot
		nullN := 0
		if null {
			nullN = 1
			buf(p, alloc(1)) // a zero validity bit
		}
		b := row[pos:]
		var m int
		if c.width > 0 {
			v := alloc(c.width)
			if !null {
				var ok bool
				if m, ok = c.put(v, b); !ok {
					release()
					return nil, errShortRow
				}
			}
			buf(p+1, v)
		} else {
			var val []byte
			if !null {
				l, k := binary.Uvarint(b)
				if k <= 0 || l > uint64(len(b)-k) {
					release()
					return nil, errShortRow
				}
				val, m = b[k:k+int(l)], k+int(l)
			}
			offs := alloc(8)
			binary.LittleEndian.PutUint32(offs[4:], uint32(len(val)))
			data := alloc(len(val))
			copy(data, val) // row belongs to pebble's iterator
			buf(p+1, offs)
			buf(p+2, data)
		}
		pos += m
		nb := 2
		if c.width == 0 {
			nb = 3
		}
		data := array.NewData(d.schema.Field(o).Type, 1, ptrs[p:p+nb:p+nb], nil, nullN, 0)
		cols[o] = array.MakeFromData(data)
		data.Release()
	}
	rec := array.NewRecordBatch(d.schema, cols, 1)
	release()
	return rec, nil
}

// put writes the Arrow value of the compacted value at the start of b into
// v and returns the compacted value's length.
func (c *oneCol) put(v, b []byte) (int, bool) {
	le := binary.LittleEndian
	switch c.kind {
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
		if c.wide {
			x, k := binary.Uvarint(b[m:])
			if k <= 0 || x > math.MaxUint32 {
				return 0, false
			}
			nano, m = int64(int32(uint32(x))), m+k
		}
		ts := int64(ms)*1000 + nano/1000
		if c.nanos {
			ts = int64(ms)*1_000_000 + nano
		}
		le.PutUint64(v, uint64(ts))
		return m, true
	}
	return 0, false
}
