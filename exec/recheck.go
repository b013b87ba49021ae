package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// A joined write's recheck (binder.Recheck; PostgreSQL's EvalPlanQual for
// UPDATE ... FROM and DELETE ... USING): the first pass keeps the source
// rows of the targets it deferred (Recheck.Keep), RecheckRows pairs each
// with its target's newest version, and the second pass evaluates the
// write's plan over those pairs only.

// RecheckRows builds a joined write's recheck rows from the first pass's
// kept rows (rc.Kept, their target keys in rc.KeptKey, the other tables'
// columns from column from on): each is the target row's newest version,
// as t reads it now (all its columns, in table order; followed to its new
// key when a concurrent UPDATE moved it, rc.Moved), followed by those
// columns. A row whose target is gone is dropped: it is not written. The
// caller releases the rows.
func RecheckRows(ctx context.Context, ec *EvalContext, t fluss.Table, rc *Recheck, from int) ([]arrow.RecordBatch, error) {
	var out []arrow.RecordBatch
	fail := func(err error) ([]arrow.RecordBatch, error) {
		releaseAll(out)
		return nil, err
	}
	for _, b := range rc.Kept {
		found, at, err := newestVersions(ctx, ec, t, b, rc.KeptKey, rc.Moved)
		if err != nil {
			return fail(err)
		}
		var ti, bi []int32
		for r, j := range at {
			if j >= 0 {
				ti, bi = append(ti, j), append(bi, int32(r))
			}
		}
		if len(bi) == 0 {
			releaseIf(found)
			continue
		}
		tgt, err := takeRows(ec, found, ti)
		found.Release()
		if err != nil {
			return fail(err)
		}
		oth, err := takeRows(ec, b, bi)
		if err != nil {
			tgt.Release()
			return fail(err)
		}
		cols := append(append([]arrow.Array(nil), tgt.Columns()...), oth.Columns()[from:]...)
		fields := append(append([]arrow.Field(nil), tgt.Schema().Fields()...), oth.Schema().Fields()[from:]...)
		out = append(out, array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(bi))))
		tgt.Release()
		oth.Release()
	}
	return out, nil
}

func releaseIf(b arrow.RecordBatch) {
	if b != nil {
		b.Release()
	}
}
