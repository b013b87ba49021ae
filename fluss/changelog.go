package fluss

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss/format"
)

// ChangeTypeNames are the $changelog spellings of Fluss's change types.
var ChangeTypeNames = map[format.ChangeType]string{
	format.AppendOnly: "insert", format.Insert: "insert", format.UpdateBefore: "update_before",
	format.UpdateAfter: "update_after", format.Delete: "delete",
}

// ChangelogRecord prepends the $changelog metadata columns (ChangelogColumns:
// change type, log offset, commit time) to a decoded log batch's rows; the
// caller releases the record. A store reading its bucket logs builds its
// changelog scan's rows with it.
func ChangelogRecord(b format.Batch) arrow.RecordBatch {
	n := int(b.Record.NumRows())
	mem := memory.DefaultAllocator
	ct := array.NewStringBuilder(mem)
	off := array.NewInt64Builder(mem)
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
	defer ct.Release()
	defer off.Release()
	defer ts.Release()
	for i := 0; i < n; i++ {
		kind := "insert"
		if b.Changes != nil && i < len(b.Changes) {
			kind = ChangeTypeNames[b.Changes[i]]
		}
		ct.Append(kind)
		off.Append(b.Header.BaseOffset + int64(i))
		ts.Append(arrow.Timestamp(b.Header.CommitTimestamp * 1000))
	}
	cols := []arrow.Array{ct.NewArray(), off.NewArray(), ts.NewArray()}
	cols = append(cols, b.Record.Columns()...)
	for _, c := range b.Record.Columns() {
		c.Retain()
	}
	fields := []arrow.Field{{Name: ChangeTypeColumn, Type: arrow.BinaryTypes.String}, {Name: LogOffsetColumn, Type: arrow.PrimitiveTypes.Int64},
		{Name: CommitTimestampColumn, Type: cols[2].DataType()}}
	fields = append(fields, b.Record.Schema().Fields()...)
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec
}
