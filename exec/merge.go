package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// MERGE's checks around the writes it shares with INSERT, UPDATE and
// DELETE (binder.Merge, engine/merge.go).

// CheckTargets fails with 21000 when two rows of batches (MERGE's join,
// each row's action number in column actionAt) pick an action that
// updates or deletes (changes) the same target row, as PostgreSQL's MERGE
// refuses to change a row a second time. only, when set (a second pass),
// limits the check to those keys.
func (m MergeRows) CheckTargets(batches []arrow.RecordBatch, actionAt int, changes []int32, only map[string]bool) error {
	if len(changes) == 0 {
		return nil
	}
	kt := keyTypes(m.Info)
	seen := map[string]bool{}
	for _, b := range batches {
		acts, ok := b.Column(actionAt).(*array.Int32)
		if !ok {
			return sqlerr.New(sqlerr.InternalError, "MERGE action column of type %s", b.Column(actionAt).DataType())
		}
		var keys []string
		for r := 0; r < int(b.NumRows()); r++ {
			if acts.IsNull(r) || !changing(acts.Value(r), changes) {
				continue
			}
			if keys == nil {
				var err error
				if keys, err = m.keys(kt, b); err != nil {
					return err
				}
			}
			k := keys[r]
			if only != nil && !only[k] {
				continue
			}
			if seen[k] {
				return sqlerr.New(sqlerr.CardinalityViolation, "MERGE command cannot affect row a second time").
					WithHint("Ensure that not more than one source row matches any one target row.")
			}
			seen[k] = true
		}
	}
	return nil
}

func changing(a int32, changes []int32) bool {
	for _, c := range changes {
		if a == c {
			return true
		}
	}
	return false
}

// MergeRows locates a MERGE's join rows' parts (binder.Merge): the target's
// key columns, the matched marker (NULL: no target row joined) and the
// source's columns [SourceFrom, SourceTo).
type MergeRows struct {
	Info                 fluss.TableInfo
	KeyCols              []int
	MatchedAt            int
	SourceFrom, SourceTo int
}

// keys are the target keys of b's rows, as the store and the row locks
// encode them ("" where no target row joined).
func (m MergeRows) keys(kt []types.T, b arrow.RecordBatch) ([]string, error) {
	arrs := make([]arrow.Array, len(m.KeyCols))
	for i, c := range m.KeyCols {
		arrs[i] = b.Column(c)
	}
	marker := b.Column(m.MatchedAt)
	out := make([]string, b.NumRows())
	var buf []byte
	var err error
	for r := range out {
		if marker.IsNull(r) {
			continue
		}
		if buf, err = format.AppendKey(buf[:0], kt, arrs, r); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a key: %v", err)
		}
		out[r] = string(buf)
	}
	return out, nil
}

func releaseAll(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// RecheckRows are the join rows a MERGE's second pass re-checks
// (binder.Merge.Recheck), built from its first pass's (batches): each row
// joined to a target whose key is in rc.Deferred, with the target's columns
// replaced by its newest version as t reads it now (found; followed to its
// new key when a concurrent UPDATE moved it, rc.Moved), or, where the
// target is gone, as a row that joins none (gone: NULLs and a NULL marker,
// which the WHEN NOT MATCHED clauses take, as in PostgreSQL 15). The
// caller releases both.
func (m MergeRows) RecheckRows(ctx context.Context, ec *EvalContext, t fluss.Table, batches []arrow.RecordBatch, rc *Recheck) (found, gone []arrow.RecordBatch, err error) {
	kt := keyTypes(t.Info())
	fail := func(err error) ([]arrow.RecordBatch, []arrow.RecordBatch, error) {
		releaseAll(found)
		releaseAll(gone)
		return nil, nil, err
	}
	for _, b := range batches {
		keys, err := m.keys(kt, b)
		if err != nil {
			return fail(err)
		}
		var idx []int32
		for r, k := range keys {
			if k != "" && rc.Deferred[k] {
				idx = append(idx, int32(r))
			}
		}
		if len(idx) == 0 {
			continue
		}
		rows, err := takeRows(ec, b, idx)
		if err != nil {
			return fail(err)
		}
		newest, at, err := newestVersions(ctx, ec, t, rows, m.KeyCols, rc.Moved)
		if err != nil {
			rows.Release()
			return fail(err)
		}
		var ti, fi, gi []int32
		for r, j := range at {
			if j >= 0 {
				ti, fi = append(ti, j), append(fi, int32(r))
			} else {
				gi = append(gi, int32(r))
			}
		}
		if len(fi) > 0 {
			f, err := m.withTarget(ec, rows, fi, newest, ti)
			if err != nil {
				rows.Release()
				releaseIf(newest)
				return fail(err)
			}
			found = append(found, f)
		}
		releaseIf(newest)
		if len(gi) > 0 {
			g, err := m.Unmatched(ec, rows, gi)
			if err != nil {
				rows.Release()
				return fail(err)
			}
			gone = append(gone, g)
		}
		rows.Release()
	}
	return found, gone, nil
}

// withTarget is rows ri of b (join rows), up to the action column, with
// their target columns taken from rows ti of newest (the table's rows).
func (m MergeRows) withTarget(ec *EvalContext, b arrow.RecordBatch, ri []int32, newest arrow.RecordBatch, ti []int32) (arrow.RecordBatch, error) {
	src, err := takeRows(ec, b, ri)
	if err != nil {
		return nil, err
	}
	defer src.Release()
	tgt, err := takeRows(ec, newest, ti)
	if err != nil {
		return nil, err
	}
	defer tgt.Release()
	cols := append([]arrow.Array(nil), src.Columns()[:m.SourceTo]...)
	copy(cols, tgt.Columns()) // the target's columns come first
	fields := src.Schema().Fields()[:m.SourceTo]
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, src.NumRows()), nil
}

// Unmatched is rows ri of b (join rows, or rows of the recheck plan,
// which start with them) as rows that join no target: the target's
// columns and the marker NULL, the source's kept.
func (m MergeRows) Unmatched(ec *EvalContext, b arrow.RecordBatch, ri []int32) (arrow.RecordBatch, error) {
	src, err := takeRows(ec, b, ri)
	if err != nil {
		return nil, err
	}
	defer src.Release()
	n := int(src.NumRows())
	cols := make([]arrow.Array, 0, m.SourceTo)
	fields := src.Schema().Fields()[:m.SourceTo]
	for c := 0; c < m.SourceTo; c++ {
		if c <= m.MatchedAt {
			nulls := array.MakeArrayOfNull(ec.Mem, src.Column(c).DataType(), n)
			defer nulls.Release()
			cols = append(cols, nulls)
			continue
		}
		cols = append(cols, src.Column(c))
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n)), nil
}

// RecheckSplit splits rows of a MERGE's recheck plan (binder.Merge.Recheck:
// Rows' columns, then whether ON holds) into the join rows to write (ON
// holds; its column dropped) and, as rows that join no target (Unmatched),
// those whose target row no longer joins their source row. b is released.
func (m MergeRows) RecheckSplit(ec *EvalContext, b arrow.RecordBatch) (keep, unmatched arrow.RecordBatch, err error) {
	defer b.Release()
	last := int(b.NumCols()) - 1
	on, ok := b.Column(last).(*array.Boolean)
	if !ok {
		return nil, nil, sqlerr.New(sqlerr.InternalError, "MERGE recheck column of type %s", b.Column(last).DataType())
	}
	var yes, no []int32
	for r := 0; r < int(b.NumRows()); r++ {
		if on.IsValid(r) && on.Value(r) {
			yes = append(yes, int32(r))
		} else {
			no = append(no, int32(r))
		}
	}
	trimmed := withoutLast(b)
	defer trimmed.Release()
	if keep, err = takeRows(ec, trimmed, yes); err != nil {
		return nil, nil, err
	}
	if len(no) > 0 {
		if unmatched, err = m.Unmatched(ec, b, no); err != nil {
			keep.Release()
			return nil, nil, err
		}
	}
	return keep, unmatched, nil
}

// Trim drops the last column of b (the recheck plan's ON result) from
// rows of a MERGE's recheck plan. b is released.
func (m MergeRows) Trim(b arrow.RecordBatch) arrow.RecordBatch {
	defer b.Release()
	return withoutLast(b)
}

// withoutLast is b without its last column.
func withoutLast(b arrow.RecordBatch) arrow.RecordBatch {
	last := int(b.NumCols()) - 1
	return array.NewRecordBatch(arrow.NewSchema(b.Schema().Fields()[:last], nil), b.Columns()[:last], b.NumRows())
}
