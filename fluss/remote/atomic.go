package remote

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// WriteAtomically implements fluss.AtomicWriter for the groups Fluss can
// write as one: the writes of one table (a transaction's, or one statement
// of several batches such as INSERT ... SELECT). They are merged into one
// write per bucket: a primary-key table's upserts and deletes into one
// KvRecordBatch (the engine hands over each key's final state once, so
// their order does not matter), a log table's appends into one log batch.
// Fluss applies one bucket's batch entirely or not at all; a group whose
// rows fall in several buckets is one request per bucket, the guarantee a
// single statement's write has on this store (Store). Writes to several
// tables fail with 0A000: Fluss has no write spanning tables.
func (s *Store) WriteAtomically(ctx context.Context, writes []fluss.TableWrite) ([]fluss.WriteResult, error) {
	out := make([]fluss.WriteResult, len(writes))
	if len(writes) == 0 {
		return out, nil
	}
	first := writes[0]
	for _, w := range writes[1:] {
		if w.TableID != first.TableID {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported,
				"a transaction that writes more than one table (\"%s\" and \"%s\") is not supported on a Fluss cluster: Fluss has no atomic write across tables", first.Path.Table, w.Path.Table).
				WithHint("Write one table per transaction.")
		}
	}
	ft, err := s.Table(ctx, first.Path)
	if err != nil {
		return nil, err
	}
	if ft.Info().IsPartitioned() {
		return writePartitioned(ctx, ft, writes) // partitions.go
	}
	t := ft.(*table)
	if t.info.TableID != first.TableID {
		return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table %q was dropped and re-created while the transaction ran", first.Path.Table)
	}
	for i, w := range writes {
		out[i].Rows = w.Rec.NumRows()
	}
	if !t.info.HasPrimaryKey() {
		return out, t.appendAll(ctx, writes)
	}
	recs := map[int32][]format.KvRecord{}
	var n int64
	for _, w := range writes {
		switch w.Kind {
		case fluss.WriteUpsert:
			if w.Opts.IgnoreExisting {
				return nil, errNoConditionalWrite()
			}
			err = t.upsertRecords(w.Rec, recs)
		case fluss.WriteDelete:
			err = t.deleteRecords(w.Rec, recs)
		default:
			err = errAppendToPK(t.info.Path)
		}
		if err != nil {
			return nil, err
		}
		n += w.Rec.NumRows()
	}
	if _, err := t.put(ctx, recs, nil, n); err != nil {
		return nil, err
	}
	return out, nil
}

// appendAll appends every write's rows to the log table as one record.
func (t *table) appendAll(ctx context.Context, writes []fluss.TableWrite) error {
	recs := make([]arrow.RecordBatch, 0, len(writes))
	for _, w := range writes {
		if w.Kind != fluss.WriteAppend {
			return sqlerr.New(sqlerr.FeatureNotSupported, "upsert into log table \"%s\" is not supported", t.info.Path.Table)
		}
		recs = append(recs, w.Rec)
	}
	rec, err := concatRecords(recs)
	if err != nil {
		return err
	}
	defer rec.Release()
	_, err = t.Append(ctx, rec)
	return err
}

// concatRecords is one record of recs' rows, in order (recs share a schema).
func concatRecords(recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(recs) == 1 {
		recs[0].Retain()
		return recs[0], nil
	}
	schema := recs[0].Schema()
	cols := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	parts := make([]arrow.Array, len(recs))
	for c := range cols {
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "merging a transaction's rows: %v", err)
		}
		cols[c] = a
	}
	return array.NewRecordBatch(schema, cols, rows), nil
}

var _ fluss.AtomicWriter = (*Store)(nil)

func errAppendToPK(p fluss.TablePath) error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "append to primary-key table \"%s\" is not supported; use an upsert", p.Table)
}

// errNoConditionalWrite: Fluss has no conditional put, and a lookup then a
// put would let a concurrent writer's row be overwritten.
func errNoConditionalWrite() error {
	return sqlerr.New(sqlerr.FeatureNotSupported,
		"INSERT ... ON CONFLICT DO NOTHING (and INSERT checking for duplicate keys) is not supported on a Fluss cluster: Fluss has no conditional write")
}
