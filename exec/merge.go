package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// MERGE's checks around the writes it shares with INSERT, UPDATE and
// DELETE (binder.Merge, engine/merge.go).

// CheckMergeTargets fails with 21000 when two rows of batches (MERGE's
// join, each row's action number in column actionAt) pick an action that
// updates or deletes (changes) the same target row (its key in keyCols of
// info's primary key), as PostgreSQL's MERGE refuses to change a row a
// second time. only, when set (a second pass), limits the check to those
// keys.
func CheckMergeTargets(info fluss.TableInfo, batches []arrow.RecordBatch, actionAt int, keyCols []int, changes []int32, only map[string]bool) error {
	if len(changes) == 0 {
		return nil
	}
	kt := keyTypes(info)
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
				if keys, err = keyStrings(kt, b, keyCols); err != nil {
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

// InsertNew passes the rows Source yields for a primary-key table on,
// after locking their keys and checking that none exists in Table or comes
// twice (23505): MERGE's INSERT is PostgreSQL's, which a unique index
// refuses, not Fluss's upsert. Rows of a log table pass as they are.
type InsertNew struct {
	EC     *EvalContext
	Table  fluss.Table
	Source Operator
	seen   map[string]bool
}

func (o *InsertNew) Schema() *arrow.Schema { return o.Source.Schema() }
func (o *InsertNew) Close()                { o.Source.Close() }

// Next returns Source's next batch once its keys are checked.
func (o *InsertNew) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := o.Source.Next(ctx)
	if err != nil || b == nil {
		return b, err
	}
	info := o.Table.Info()
	if !info.HasPrimaryKey() || b.NumRows() == 0 {
		return b, nil
	}
	if err := o.check(ctx, info, b); err != nil {
		b.Release()
		return nil, err
	}
	return b, nil
}

func (o *InsertNew) check(ctx context.Context, info fluss.TableInfo, b arrow.RecordBatch) error {
	// a NULL in a NOT NULL column is refused first, as PostgreSQL checks
	// the row before its index does
	if err := fluss.CheckNotNull(info, b.Columns()); err != nil {
		return err
	}
	rec := array.NewRecordBatch(rowSchema(info), b.Columns(), b.NumRows())
	defer rec.Release()
	if err := lockInsert(ctx, o.Table, rec); err != nil {
		return err
	}
	schema := rec.Schema()
	var keyCols []int
	var fs []arrow.Field
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		i := info.ColumnIndex(k)
		keyCols = append(keyCols, i)
		fs = append(fs, schema.Field(i))
	}
	keys, err := keyStrings(keyTypes(info), rec, keyCols)
	if err != nil {
		return err
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	for _, k := range keys {
		if o.seen[k] {
			return duplicateKey(info)
		}
		o.seen[k] = true
	}
	cols := make([]arrow.Array, len(keyCols))
	for i, c := range keyCols {
		cols[i] = rec.Column(c)
	}
	probe := array.NewRecordBatch(arrow.NewSchema(fs, nil), cols, rec.NumRows())
	defer probe.Release()
	found, err := o.Table.Lookup(ctx, probe, []int{keyCols[0]})
	if err != nil {
		return err
	}
	if found != nil {
		n := found.NumRows()
		found.Release()
		if n > 0 {
			return duplicateKey(info)
		}
	}
	return nil
}
