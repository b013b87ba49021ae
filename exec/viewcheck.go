package exec

import (
	"context"
	"maps"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ViewCheck is the WITH CHECK OPTION condition of a view an INSERT or
// UPDATE writes through (binder.ViewCheck): Cond, over the base table's
// row as written, must be true (false and NULL fail, as
// ExecWithCheckOptions' ExecQual has it), else 44000 names View.
type ViewCheck struct {
	View string
	Cond Expr
	// Partition: View is a partition of a PostgreSQL-partitioned table
	// and Cond its partition constraint, which fails with 23514 before the
	// row is written (binder.ViewCheck).
	Partition bool
}

// failedViewCheck is the first row of rec (the table's columns) that
// fails one of checks, and the first such check in list order (the
// innermost view first, as PostgreSQL's rewriter lists them); row -1 when
// every row passes. skip, when set, says which rows are not written
// (ON CONFLICT DO NOTHING's), whose checks do not run.
func failedViewCheck(ec *EvalContext, checks []ViewCheck, rec arrow.RecordBatch, skip func(int) bool) (row, check int, err error) {
	row, check = -1, -1
	for k, c := range checks {
		res, err := c.Cond.Eval(ec, rec)
		if err != nil {
			return -1, -1, err
		}
		b, ok := res.(*array.Boolean)
		if !ok {
			res.Release()
			return -1, -1, sqlerr.New(sqlerr.InternalError, "a view's check option evaluated to %s, not a boolean", res.DataType())
		}
		end := b.Len()
		if row >= 0 {
			end = row // only an earlier row changes the report
		}
		for i := 0; i < end; i++ {
			if (b.IsNull(i) || !b.Value(i)) && (skip == nil || !skip(i)) {
				row, check = i, k
				break
			}
		}
		b.Release()
	}
	return row, check, nil
}

// viewCheckError is the 44000 of row of rec failing checks[k].
func viewCheckError(ec *EvalContext, info fluss.TableInfo, c ViewCheck, rec arrow.RecordBatch, row int) error {
	texts := fluss.RowTexts(info, rec.Columns(), row, ec.Location(), ec.Style())
	if c.Partition {
		return sqlerr.PartitionConstraintViolation(c.View, texts)
	}
	return sqlerr.ViewCheckViolation(c.View, texts)
}

// checkViews runs Insert's view checks over rec before write writes it:
// PostgreSQL checks a row's views after it wrote the row, so when row r
// fails, the rows up to r (r too) are written first, and a constraint
// one of them breaks (row r's own unique constraint) is the error.
// write writes such a prefix; proposed are the keys written before rec
// (ON CONFLICT DO NOTHING skips a row whose key exists or came before).
func (o *Insert) checkViews(ctx context.Context, info fluss.TableInfo, rec arrow.RecordBatch, proposed map[string]bool, write func(arrow.RecordBatch) error) error {
	var skip func(int) bool
	if o.IgnoreExisting && info.HasPrimaryKey() {
		seen := maps.Clone(proposed)
		if seen == nil {
			seen = map[string]bool{}
		}
		keep, _, err := absentIndexes(ctx, o.Table, rec, seen)
		if err != nil {
			return err
		}
		kept := make(map[int]bool, len(keep))
		for _, r := range keep {
			kept[int(r)] = true
		}
		skip = func(i int) bool { return !kept[i] }
	}
	row, k, err := failedViewCheck(o.EC, o.ViewChecks, rec, skip)
	if err != nil || row < 0 {
		return err
	}
	prefix := rec.NewSlice(0, int64(row+1))
	defer prefix.Release()
	if err := write(prefix); err != nil {
		return err
	}
	return viewCheckError(o.EC, info, o.ViewChecks[k], rec, row)
}

// partitionCheckRow is the first row of rec failing a partition's
// constraint among checks (ViewCheck.Partition) and its error; row -1
// (and the error, if evaluating failed) when none does.
func partitionCheckRow(ec *EvalContext, info fluss.TableInfo, checks []ViewCheck, rec arrow.RecordBatch) (int, error) {
	var parts []ViewCheck
	for _, c := range checks {
		if c.Partition {
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		return -1, nil
	}
	row, k, err := failedViewCheck(ec, parts, rec, nil)
	if err != nil || row < 0 {
		return -1, err
	}
	return row, viewCheckError(ec, info, parts[k], rec, row)
}
