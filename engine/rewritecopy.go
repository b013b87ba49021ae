package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

// The copy of a table rewrite (rewrite.go): the old table's committed
// rows, batch by batch (its scan's batches: bounded memory), each
// converted (a column's USING or assignment cast, the rows read as the
// old table's schema gives them, missing values included), checked (NOT
// NULL, the CHECK constraints over the new columns, as PostgreSQL checks
// a rewritten table's constraints) and written to the staged table by
// one bulk upsert or append, which stages large writes on disk. A
// conversion's error (22P02, 22001, ...) or a failed check leaves
// nothing: the staged table is discarded. Rows written to the old table
// while it was copied make Replace fail (fluss.TableReplacer); the copy
// then runs again, at most rewriteAttempts times.

// rewriteAttempts is how many times a copy runs before the rewrite gives
// up with the 40001 of a table written throughout.
const rewriteAttempts = 3

// stagedRewrite is a rewrite's filled table, not yet in place: the staged
// replacement and the index tables of its unique constraints.
type stagedRewrite struct {
	st      fluss.StagedReplacement
	indexes []fluss.TablePath
}

// stageRewrite copies p's table into a staged table with desc and builds
// its unique indexes (rewriteunique.go), to be swapped in (swapRewrite) or
// discarded.
func (s *session) stageRewrite(ctx context.Context, rep fluss.TableReplacer, p *rewritePlan, desc fluss.TableDescriptor) (*stagedRewrite, error) {
	st, err := rep.StageReplacement(ctx, p.old.Path, desc)
	if err != nil {
		return nil, err
	}
	sr := &stagedRewrite{st: st}
	err = s.copyRows(ctx, p, st.Table())
	if err == nil {
		sr.indexes, err = s.buildStagedIndexes(ctx, st.Table())
	}
	if err != nil {
		s.discardRewrite(ctx, sr)
		return nil, err
	}
	if s.eng.rewriteCopied != nil {
		s.eng.rewriteCopied()
	}
	return sr, nil
}

// discardRewrite drops a staged rewrite that is not swapped in, whatever
// ended ctx (a cancelled statement leaves no staged table or index).
func (s *session) discardRewrite(ctx context.Context, sr *stagedRewrite) {
	ctx = context.WithoutCancel(ctx)
	_ = sr.st.Discard(ctx)
	s.dropIndexTables(ctx, sr.indexes)
}

// copyRows writes the old table's rows, converted, into dst.
func (s *session) copyRows(ctx context.Context, p *rewritePlan, dst fluss.Table) error {
	newInfo := dst.Info()
	convs := make([]binder.Expr, 0, len(p.cols))
	convAt := make([]int, len(p.cols)) // column -> index in convs, -1 for a copy
	for i, c := range p.cols {
		convAt[i] = -1
		if c.conv != nil {
			convAt[i] = len(convs)
			convs = append(convs, c.conv)
		}
	}
	lowered, err := lower.LowerExprs(convs)
	if err != nil {
		return err
	}
	checks, err := binder.TableChecks(ctx, s.eng.tables, newInfo)
	if err != nil {
		return err
	}
	var checkExprs []binder.Expr
	for _, c := range checks {
		checkExprs = append(checkExprs, c.Expr)
	}
	loweredChecks, err := lower.LowerExprs(checkExprs)
	if err != nil {
		return err
	}
	w, err := beginBulk(ctx, dst)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			w.Discard()
		}
	}()
	// the conversions run under the session's settings, as PostgreSQL's
	// rewrite does (a float converted to text keeps extra_float_digits)
	ec := &exec.EvalContext{Ctx: s.sessionCtx(ctx), Mem: s.eng.mem}
	missing := fluss.MissingOf(p.old.Descriptor)
	full := p.old.ArrowSchema()
	table := p.old.Path.Table
	var written int64 // (ADD PRIMARY KEY's check: addpk.go)
	err = s.eachBatch(ctx, p.old.Path, copyBatchRows, func(b arrow.RecordBatch) (bool, error) {
		if int(b.NumCols()) < len(p.old.Descriptor.Schema.Columns) {
			b.Retain() // (WidenRecord takes a reference; eachBatch releases its own)
			wide, err := missing.WidenRecord(b, full)
			if err != nil {
				return false, err
			}
			defer wide.Release()
			b = wide
		}
		if b.NumRows() == 0 {
			return false, nil
		}
		cols := make([]arrow.Array, len(p.cols))
		defer func() {
			for _, a := range cols {
				if a != nil {
					a.Release()
				}
			}
		}()
		fields := make([]arrow.Field, len(p.cols))
		for i, c := range p.cols {
			if k := convAt[i]; k >= 0 {
				v, err := lowered[k].Eval(ec, b)
				if err != nil {
					return false, err
				}
				cols[i] = v
			} else {
				cols[i] = b.Column(c.src)
				cols[i].Retain()
			}
			fields[i] = arrow.Field{Name: c.col.Name, Type: cols[i].DataType(), Nullable: true}
		}
		if name, ok := firstNull(p, cols); ok {
			return false, sqlerr.New(sqlerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", name, table)
		}
		rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())
		defer rec.Release()
		if len(loweredChecks) > 0 {
			k, err := firstFalse(ec, loweredChecks, rec) // altercheck.go
			if err != nil {
				return false, err
			}
			if k >= 0 {
				return false, sqlerr.New(checkViolationCode, "check constraint \"%s\" of relation \"%s\" is violated by some row", checks[k].Name, table)
			}
		}
		written += rec.NumRows()
		return false, w.Add(ctx, rec)
	})
	if err != nil {
		if p.addedPK {
			return s.checkAddedKeyCopy(ctx, p, dst, 0, err)
		}
		return err
	}
	committed = true
	if _, err = w.Commit(ctx); err != nil || !p.addedPK {
		return err
	}
	return s.checkAddedKeyCopy(ctx, p, dst, written, nil)
}

// firstNull is the column PostgreSQL's rewrite names for a NULL in a NOT
// NULL column of the converted batch cols: of the first row that has
// one, its first such column (PostgreSQL checks row by row, each row's
// columns in order).
func firstNull(p *rewritePlan, cols []arrow.Array) (string, bool) {
	row, name := -1, ""
	for i, c := range p.cols {
		if !(c.col.Type.NotNull || c.checkNull) || cols[i].NullN() == 0 {
			continue
		}
		end := cols[i].Len()
		if row >= 0 {
			end = row // a later column counts only for an earlier row
		}
		for r := 0; r < end; r++ {
			if cols[i].IsNull(r) {
				row, name = r, c.col.Name
				break
			}
		}
	}
	return name, row >= 0
}

// copyBatchRows is the rows of the copy's batches: a bulk upsert encodes
// a part that large on two cores (fluss/embedded's bulkencode.go), and
// the store's default batch (8192 rows) made the copy of a primary-key
// table take twice COPY's time.
const copyBatchRows = 1 << 16

// eachBatch scans path's committed rows in batches of up to rows rows
// and calls f with each (f does not keep it) until f says stop.
func (s *session) eachBatch(ctx context.Context, path fluss.TablePath, rows int, f func(arrow.RecordBatch) (bool, error)) error {
	t, err := s.eng.store.Table(ctx, path)
	if err != nil {
		return err
	}
	return scanEach(ctx, t, fluss.ScanOptions{BatchRows: rows}, func(b arrow.RecordBatch) (bool, error) {
		defer b.Release()
		return f(b)
	})
}

// beginBulk starts the one write that fills a staged table: a bulk
// upsert of a primary-key table, a bulk append of a log table (both stage
// what does not fit in memory on disk).
func beginBulk(ctx context.Context, t fluss.Table) (fluss.BulkUpsert, error) {
	if t.Info().HasPrimaryKey() {
		if bu, ok := t.(fluss.BulkUpserter); ok {
			return bu.BeginUpsert(ctx)
		}
	} else if ba, ok := t.(fluss.BulkAppender); ok {
		return ba.BeginAppend(ctx)
	}
	if _, ok := t.(*fluss.PartitionedTable); ok {
		return &batchWrites{t: t, upsert: t.Info().HasPrimaryKey()}, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "this store cannot rewrite table \"%s\"", t.Info().Path.Table)
}

// batchWrites fills a staged partitioned table, which has no bulk write
// of its own (its batches go to its partitions: fluss.PartitionedTable),
// by one write a batch. Discard leaves what was written: the staged table
// is discarded whole (rewrite.go), and nobody reads it before Replace.
type batchWrites struct {
	t      fluss.Table
	upsert bool
	res    fluss.WriteResult
}

// Add implements fluss.BulkUpsert.
func (w *batchWrites) Add(ctx context.Context, rec arrow.RecordBatch) error {
	var r fluss.WriteResult
	var err error
	if w.upsert {
		r, err = w.t.Upsert(ctx, rec, fluss.UpsertOptions{})
	} else {
		r, err = w.t.Append(ctx, rec)
	}
	w.res.Rows += r.Rows
	return err
}

// Commit implements fluss.BulkUpsert.
func (w *batchWrites) Commit(ctx context.Context) (fluss.WriteResult, error) { return w.res, nil }

// Discard implements fluss.BulkUpsert.
func (w *batchWrites) Discard() {}

// cascadedViews are the views DROP COLUMN ... CASCADE took and the views
// over them, each once.
func (p *rewritePlan) cascadedViews() []views.View {
	var out []views.View
	seen := map[fluss.TablePath]bool{}
	var walk func(v views.View)
	walk = func(v views.View) {
		if seen[v.Path] {
			return
		}
		seen[v.Path] = true
		out = append(out, v)
		for _, d := range p.s.eng.meta.Views().Dependents(v.Path) {
			walk(d)
		}
	}
	for _, v := range p.dropViews {
		walk(v)
	}
	return out
}

// retargetViews makes the views that used table id from use id to.
func retargetViews(tx *meta.Tx, from, to int64) error {
	for _, v := range tx.Views.List("") {
		// (a partition's parent id apart from its uses: meta.Reconcile
		// may have moved those at the start after a crash)
		if !slices.ContainsFunc(v.Uses, func(u views.Relation) bool { return u.TableID == from }) &&
			(v.Partition == nil || v.Partition.ParentID != from) {
			continue
		}
		v.Uses = slices.Clone(v.Uses)
		for i := range v.Uses {
			if v.Uses[i].TableID == from {
				v.Uses[i].TableID = to
			}
		}
		if v.Partition != nil && v.Partition.ParentID == from { // a partition of the table (pgpartitions.go)
			part := *v.Partition
			part.ParentID = to
			v.Partition = &part
		}
		if _, err := tx.Views.Create(v, true); err != nil {
			return err
		}
	}
	return nil
}

// sequenceTypeOf is a sequence's data type for an integer column type
// ("" for another type).
func sequenceTypeOf(t types.T) string {
	switch t.Kind {
	case types.Int16:
		return "smallint"
	case types.Int32:
		return "integer"
	case types.Int64:
		return "bigint"
	}
	return ""
}
