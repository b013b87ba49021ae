package fluss

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss/format"
)

// ChangeTypeName is the $changelog spelling of a Fluss change type.
func ChangeTypeName(c format.ChangeType) string {
	switch c {
	case format.UpdateBefore:
		return "update_before"
	case format.UpdateAfter:
		return "update_after"
	case format.Delete:
		return "delete"
	}
	return "insert" // AppendOnly and Insert
}

// ChangelogRecord prepends the $changelog metadata columns (ChangelogColumns:
// change type, log offset, commit time) to a decoded log batch's rows; the
// caller releases the record. A store reading its bucket logs builds its
// changelog scan's rows with it, and so does a follow (SUBSCRIBE) for
// every subscriber of every batch: the metadata columns are written
// straight into their buffers, not through builders.
func ChangelogRecord(b format.Batch) arrow.RecordBatch {
	n := int(b.Record.NumRows())
	var kinds []string
	if b.Changes == nil {
		kinds = []string{"insert"}
	} else {
		kinds = make([]string, n)
		for i := range kinds {
			if i < len(b.Changes) {
				kinds[i] = ChangeTypeName(b.Changes[i])
			} else {
				kinds[i] = "insert"
			}
		}
	}
	off := make([]int64, n)
	for i := range off {
		off[i] = b.Header.BaseOffset + int64(i)
	}
	tsType := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	ts := make([]arrow.Timestamp, n)
	for i := range ts {
		ts[i] = arrow.Timestamp(b.Header.CommitTimestamp * 1000)
	}
	cols := []arrow.Array{StringColumn(kinds, n),
		arrayOf(arrow.PrimitiveTypes.Int64, n, nil, arrow.Int64Traits.CastToBytes(off)),
		arrayOf(tsType, n, nil, arrow.TimestampTraits.CastToBytes(ts))}
	cols = append(cols, b.Record.Columns()...)
	for _, c := range b.Record.Columns() {
		c.Retain()
	}
	fields := []arrow.Field{{Name: ChangeTypeColumn, Type: arrow.BinaryTypes.String}, {Name: LogOffsetColumn, Type: arrow.PrimitiveTypes.Int64},
		{Name: CommitTimestampColumn, Type: tsType}}
	fields = append(fields, b.Record.Schema().Fields()...)
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// StringColumn is a text column of n values without NULLs: vals[i], or
// vals[0] for every row when vals has one value. Its buffers are written
// directly (no builder), for the metadata columns added to every row of
// a changelog.
func StringColumn(vals []string, n int) arrow.Array {
	offs := make([]int32, n+1)
	size := 0
	if len(vals) == 1 {
		size = n * len(vals[0])
	} else {
		for _, v := range vals[:n] {
			size += len(v)
		}
	}
	data := make([]byte, 0, size)
	for i := range n {
		v := vals[0]
		if len(vals) > 1 {
			v = vals[i]
		}
		data = append(data, v...)
		offs[i+1] = int32(len(data))
	}
	return arrayOf(arrow.BinaryTypes.String, n, arrow.Int32Traits.CastToBytes(offs), data)
}

// Int32Column is a column of n copies of v.
func Int32Column(v int32, n int) arrow.Array {
	vals := make([]int32, n)
	for i := range vals {
		vals[i] = v
	}
	return arrayOf(arrow.PrimitiveTypes.Int32, n, nil, arrow.Int32Traits.CastToBytes(vals))
}

// arrayOf is an array of type t without NULLs over Go memory: a
// fixed-width type's values, or a string's offsets and data.
func arrayOf(t arrow.DataType, n int, offsets, values []byte) arrow.Array {
	bufs := []*memory.Buffer{nil, memory.NewBufferBytes(values)}
	if offsets != nil {
		bufs = []*memory.Buffer{nil, memory.NewBufferBytes(offsets), memory.NewBufferBytes(values)}
	}
	d := array.NewData(t, n, bufs, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}
