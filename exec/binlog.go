package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// binlogPairer turns changelog batches (_change_type, _log_offset,
// _commit_timestamp, then the table's columns) into $binlog rows
// (_change_type, _log_offset, _commit_timestamp, before, after), as
// Fluss's BinlogRowConverter does: insert -> (NULL, row); delete ->
// (row, NULL); an update_before and the update_after that follows it ->
// one "update" row with the update_before's offset and time. The
// update_before may end one batch and its update_after start the next.
type binlogPairer struct {
	out *arrow.Schema
	// pending is the update_before waiting for its update_after: row
	// pendingRow of batch pending (retained).
	pending    arrow.RecordBatch
	pendingRow int
}

const binlogMeta = 3 // metadata columns before the table's columns

func (p *binlogPairer) close() {
	if p.pending != nil {
		p.pending.Release()
		p.pending = nil
	}
}

// convert returns the binlog rows of one changelog batch (possibly none).
func (p *binlogPairer) convert(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	mem := memory.DefaultAllocator
	bld := array.NewRecordBuilder(mem, p.out)
	defer bld.Release()
	kinds, ok := b.Column(0).(*array.String)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "binlog: change type column is %s", b.Column(0).DataType())
	}
	before := bld.Field(3).(*array.StructBuilder)
	after := bld.Field(4).(*array.StructBuilder)
	row := func(sb *array.StructBuilder, src arrow.RecordBatch, r int) error {
		if src == nil {
			sb.AppendNull()
			return nil
		}
		sb.Append(true)
		for f := 0; f < sb.NumField(); f++ {
			if err := format.AppendFrom(sb.FieldBuilder(f), src.Column(binlogMeta+f), r); err != nil {
				return sqlerr.Wrap(err, sqlerr.InternalError, "binlog: %v", err)
			}
		}
		return nil
	}
	emit := func(kind string, meta arrow.RecordBatch, mr int, old arrow.RecordBatch, or int, cur arrow.RecordBatch, cr int) error {
		bld.Field(0).(*array.StringBuilder).Append(kind)
		for c := 1; c < binlogMeta; c++ {
			if err := format.AppendFrom(bld.Field(c), meta.Column(c), mr); err != nil {
				return sqlerr.Wrap(err, sqlerr.InternalError, "binlog: %v", err)
			}
		}
		if err := row(before, old, or); err != nil {
			return err
		}
		return row(after, cur, cr)
	}
	for r := 0; r < int(b.NumRows()); r++ {
		var err error
		switch kinds.Value(r) {
		case "insert":
			err = emit("insert", b, r, nil, 0, b, r)
		case "delete":
			err = emit("delete", b, r, b, r, nil, 0)
		case "update_before":
			p.close()
			b.Retain()
			p.pending, p.pendingRow = b, r
		case "update_after":
			if p.pending == nil {
				return nil, sqlerr.New(sqlerr.DataCorrupted, "binlog: an update_after without its update_before at offset %v", b.Column(1).ValueStr(r))
			}
			err = emit("update", p.pending, p.pendingRow, p.pending, p.pendingRow, b, r)
			p.close()
		default:
			return nil, sqlerr.New(sqlerr.FeatureNotSupported,
				"$binlog virtual table does not support change type: %s. $binlog is only supported for primary key tables.", kinds.Value(r))
		}
		if err != nil {
			return nil, err
		}
	}
	return bld.NewRecordBatch(), nil
}
