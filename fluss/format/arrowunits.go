package format

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// The Arrow inside a log batch is Fluss's (ArrowUtils.toArrowType): TIME(0)
// Time32 seconds, TIME(1-3) Time32 milliseconds, TIME(4-6) Time64
// microseconds, TIME(7-9) Time64 nanoseconds; TIMESTAMP and TIMESTAMP_LTZ
// (0) seconds, (1-3) milliseconds, (4-6) microseconds, (7-9) nanoseconds,
// with no time zone on the field. The engine keeps its own units
// (types.T.ArrowType: TIME(0-3) milliseconds, TIMESTAMP(0-6) microseconds,
// TIMESTAMP_LTZ with zone "UTC"), which its kernels assume, so the log-batch
// encoder and decoders convert at the boundary, losslessly: a value finer
// than its column's precision is an error on the way out, never rounded.

// WireType is the Arrow type Fluss writes in log batches for a column of
// type t.
func WireType(t types.T) arrow.DataType {
	switch t.Kind {
	case types.Time:
		switch {
		case t.Precision == 0:
			return arrow.FixedWidthTypes.Time32s
		case t.Precision <= 3:
			return arrow.FixedWidthTypes.Time32ms
		case t.Precision <= 6:
			return arrow.FixedWidthTypes.Time64us
		}
		return arrow.FixedWidthTypes.Time64ns
	case types.Timestamp, types.TimestampTZ:
		return &arrow.TimestampType{Unit: wireTimestampUnit(t.Precision)}
	case types.Array:
		return arrow.ListOfField(arrow.Field{Name: "element", Type: WireType(*t.Elem), Nullable: !t.Elem.NotNull})
	case types.Map:
		m := arrow.MapOf(WireType(*t.Key), WireType(*t.Elem))
		m.SetItemNullable(!t.Elem.NotNull)
		return m
	case types.Row:
		fs := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = arrow.Field{Name: f.Name, Type: WireType(f.Type), Nullable: !f.Type.NotNull}
		}
		return arrow.StructOf(fs...)
	}
	return t.ArrowType()
}

func wireTimestampUnit(p int) arrow.TimeUnit {
	switch {
	case p == 0:
		return arrow.Second
	case p <= 3:
		return arrow.Millisecond
	case p <= 6:
		return arrow.Microsecond
	}
	return arrow.Nanosecond
}

// WireSchema is the Arrow schema of log batches of a table whose columns
// are s's fields, of types ts.
func WireSchema(s *arrow.Schema, ts []types.T) *arrow.Schema {
	fs := make([]arrow.Field, len(ts))
	for i, t := range ts {
		f := s.Field(i)
		fs[i] = arrow.Field{Name: f.Name, Type: WireType(t), Nullable: f.Nullable}
	}
	return arrow.NewSchema(fs, nil)
}

// needsConv reports whether a column of type t is held differently in the
// engine and in a log batch (other units, or a zone on the field).
func needsConv(t types.T) bool {
	switch t.Kind {
	case types.Time:
		return t.Precision == 0
	case types.Timestamp:
		return t.Precision <= 3
	case types.TimestampTZ:
		return true
	case types.Array:
		return needsConv(*t.Elem)
	case types.Map:
		return needsConv(*t.Key) || needsConv(*t.Elem)
	case types.Row:
		for _, f := range t.Fields {
			if needsConv(f.Type) {
				return true
			}
		}
	}
	return false
}

// unitFactor is how many engine units of a column of type t make one of its
// log-batch units (1: the same unit).
func unitFactor(t types.T) int64 {
	switch t.Kind {
	case types.Time:
		if t.Precision == 0 {
			return 1000 // milliseconds per second
		}
	case types.Timestamp, types.TimestampTZ:
		switch {
		case t.Precision == 0:
			return 1_000_000 // microseconds per second
		case t.Precision <= 3:
			return 1000 // microseconds per millisecond
		}
	}
	return 1
}

// toWire returns column a (engine type t) as Fluss writes it in a log
// batch, sharing a's buffers where the units agree.
func toWire(a arrow.Array, t types.T) (arrow.Array, error) {
	d, err := convertData(a.Data(), t, true)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

// fromWire returns column a (as read from a log batch, of column type t)
// in the engine's representation.
func fromWire(a arrow.Array, t types.T) arrow.Array {
	d, _ := convertData(a.Data(), t, false) // widening never fails
	defer d.Release()
	return array.MakeFromData(d)
}

// convertData converts d (a column of type t) to the log batch's
// representation (toWire) or back to the engine's.
func convertData(d arrow.ArrayData, t types.T, toWire bool) (arrow.ArrayData, error) {
	target := t.ArrowType()
	if toWire {
		target = WireType(t)
	}
	switch t.Kind {
	case types.Array:
		c, err := convertData(d.Children()[0], *t.Elem, toWire)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		return array.NewData(target, d.Len(), d.Buffers(), []arrow.ArrayData{c}, d.NullN(), d.Offset()), nil
	case types.Map:
		entries := d.Children()[0]
		k, err := convertData(entries.Children()[0], *t.Key, toWire)
		if err != nil {
			return nil, err
		}
		defer k.Release()
		v, err := convertData(entries.Children()[1], *t.Elem, toWire)
		if err != nil {
			return nil, err
		}
		defer v.Release()
		e := array.NewData(target.(*arrow.MapType).Elem(), entries.Len(), entries.Buffers(), []arrow.ArrayData{k, v}, entries.NullN(), entries.Offset())
		defer e.Release()
		return array.NewData(target, d.Len(), d.Buffers(), []arrow.ArrayData{e}, d.NullN(), d.Offset()), nil
	case types.Row:
		cs := make([]arrow.ArrayData, len(t.Fields))
		defer func() {
			for _, c := range cs {
				if c != nil {
					c.Release()
				}
			}
		}()
		for i, f := range t.Fields {
			var err error
			if cs[i], err = convertData(d.Children()[i], f.Type, toWire); err != nil {
				return nil, err
			}
		}
		return array.NewData(target, d.Len(), d.Buffers(), cs, d.NullN(), d.Offset()), nil
	}
	f := unitFactor(t)
	bufs := d.Buffers()
	if f == 1 || d.Offset()+d.Len() == 0 || len(bufs) < 2 || bufs[1] == nil {
		// the same unit, or no values (an empty child of NULL lists may
		// have no buffers at all)
		return array.NewData(target, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset()), nil
	}
	// Values [0, offset+len) of the buffer are converted (the nulls' too,
	// harmlessly), so that the offset and validity bitmap stay as they are.
	n := d.Offset() + d.Len()
	valid := func(i int) bool {
		return bufs[0] == nil || bitutil.BitIsSet(bufs[0].Bytes(), i)
	}
	le := binary.LittleEndian
	var out []byte
	if t.Kind == types.Time { // Time32: milliseconds <-> seconds
		in := bufs[1].Bytes()
		out = make([]byte, 4*n)
		for i := 0; i < n; i++ {
			v := int32(le.Uint32(in[4*i:]))
			if toWire {
				if v%int32(f) != 0 && valid(i) && i >= d.Offset() {
					return nil, fmt.Errorf("%s value %d ms has digits below its precision", t, v)
				}
				v /= int32(f)
			} else {
				v *= int32(f)
			}
			le.PutUint32(out[4*i:], uint32(v))
		}
	} else {
		in := bufs[1].Bytes()
		out = make([]byte, 8*n)
		for i := 0; i < n; i++ {
			v := int64(le.Uint64(in[8*i:]))
			if v == math.MaxInt64 || v == math.MinInt64 {
				// infinity and -infinity (types/infinity.go) are the
				// extreme values in every unit
			} else if toWire {
				q, r := floorDivMod(v, f)
				if r != 0 && valid(i) && i >= d.Offset() {
					return nil, fmt.Errorf("%s value %d µs has digits below its precision", t, v)
				}
				v = q
			} else {
				v *= f
			}
			le.PutUint64(out[8*i:], uint64(v))
		}
	}
	return array.NewData(target, d.Len(), []*memory.Buffer{bufs[0], memory.NewBufferBytes(out)}, nil, d.NullN(), d.Offset()), nil
}

// wireRecord returns rec (columns of types ts) as Fluss writes it in a log
// batch: rec itself, retained, when no column differs.
func wireRecord(rec arrow.RecordBatch, ts []types.T) (arrow.RecordBatch, error) {
	if len(ts) != int(rec.NumCols()) {
		return nil, fmt.Errorf("%d column types for a record of %d columns", len(ts), rec.NumCols())
	}
	conv := false
	for _, t := range ts {
		conv = conv || needsConv(t)
	}
	if !conv {
		rec.Retain()
		return rec, nil
	}
	cols := make([]arrow.Array, len(ts))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, t := range ts {
		var err error
		if cols[i], err = toWire(rec.Column(i), t); err != nil {
			return nil, fmt.Errorf("column %q: %w", rec.ColumnName(i), err)
		}
	}
	return array.NewRecordBatch(WireSchema(rec.Schema(), ts), cols, rec.NumRows()), nil
}
