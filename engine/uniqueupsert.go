package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// INSERT ... ON CONFLICT (cols) | ON CONSTRAINT name DO UPDATE whose
// arbiter is a unique constraint (unique.go): the row a proposed row
// conflicts with is found through the constraint's index, and the
// proposed row is given that row's primary key, so that exec.Insert's
// merge (which finds the existing row by key) updates it, as PostgreSQL
// updates the conflicting row. A proposed row whose value no row holds is
// inserted as it is. The rows passed on carry, after the table's
// columns, their primary-key columns as proposed (exec.Insert.ProposedKeys):
// EXCLUDED is the proposed row, every column as written, in PostgreSQL.

// arbiterSource is an INSERT's source whose rows are given the key of
// the row holding their value of ui.
type arbiterSource struct {
	exec.Operator
	ec *exec.EvalContext
	pt *pendingTable
	ui *uniqueIndex
	// seen are the values the statement inserted so far (no row held
	// them): a second row with one would update the row the first one
	// inserted, PostgreSQL's 21000.
	seen map[string]bool
	// inserted are the keys of the rows the statement inserts (rows the
	// arbiter does not refuse): a later row with one collides with it.
	inserted map[string]bool
	// pending is the 21000 of a value proposed again, or the NOT NULL or
	// CHECK violation of a proposed row, after the rows before it were
	// passed on.
	pending error
	// rest are the rows from a second proposal of a value an existing
	// row holds on, passed on after the rows before it were written, so
	// that exec.Insert's merge sees whether the first one updated the row.
	rest arrow.RecordBatch
	// single: DO UPDATE assigns a column of the arbiter, so a proposal
	// may move a value onto or off the row a later one conflicts with:
	// the rows are passed on one at a time, each probed after the ones
	// before it were merged, as PostgreSQL's ExecInsert probes each
	// proposed row against the rows the command wrote so far (a row this
	// command updated is its 21000, a value moved away is no conflict).
	single bool
}

// reproposed is the first row of b whose arbiter value the statement
// inserted before (in an earlier batch), -1 when none is. A value
// that an existing row holds is not one: each of its proposals is given
// that row's key and exec.Insert's merge refuses the second only when
// the first updated the row (PostgreSQL's ExecOnConflictUpdate: the
// 21000 is for a row this command wrote; a proposal DO UPDATE's WHERE
// skipped wrote nothing).
func (a *arbiterSource) reproposed(b arrow.RecordBatch) int {
	u, cols := a.pt.uq, a.ui.c.Columns
	vals := make([]any, b.NumCols())
	for r := range int(b.NumRows()) {
		for _, c := range cols {
			vals[c] = types.ValueAt(b.Column(c), r)
		}
		// (heldAgain split the batch at a value's second row)
		if k := u.keyOf(vals, cols); k != "" && a.seen[k] {
			return r
		}
	}
	return -1
}

// heldAgain is the first row of b, after its first, whose arbiter value
// an earlier row of b proposed (0 when none is): the batch is split there
// so that the rows before it are written first; reproposed then refuses
// the value if the statement inserted it.
func (a *arbiterSource) heldAgain(b arrow.RecordBatch) int {
	u, cols := a.pt.uq, a.ui.c.Columns
	vals := make([]any, b.NumCols())
	batch := map[string]bool{}
	for r := range int(b.NumRows()) {
		for _, c := range cols {
			vals[c] = types.ValueAt(b.Column(c), r)
		}
		if k := u.keyOf(vals, cols); k != "" {
			if batch[k] {
				return r
			}
			batch[k] = true
		}
	}
	return 0
}

// arbiterSource wraps src when the INSERT's ON CONFLICT DO UPDATE (merge:
// its expressions, one per table column) names a unique constraint of t
// (arbiter), else returns src; wrapped reports whether it did: the
// wrapper checks the proposed rows' constraints
// (exec.Insert.ProposedChecked) and carries their proposed keys
// (exec.Insert.ProposedKeys).
func arbiterSourceOf(ec *exec.EvalContext, t fluss.Table, src exec.Operator, arbiter string, merge []binder.Expr) (out exec.Operator, wrapped bool) {
	pt, ok := t.(*pendingTable)
	if !ok || pt.uq == nil || merge == nil || arbiter == "" {
		return src, false
	}
	for _, ui := range pt.uq.cons {
		if ui.c.Name == arbiter {
			single := false
			for _, c := range ui.c.Columns {
				// a column DO UPDATE leaves is the existing row's own (an
				// expression over the existing row, then the proposed
				// one); SET u = excluded.u, an ORM's usual list, leaves
				// it too: the conflict was on an equal value
				ref, ok := merge[c].(*binder.ColumnRef)
				if !ok || ref.Index != c && ref.Index != len(merge)+c {
					single = true
				}
			}
			return &arbiterSource{Operator: src, ec: ec, pt: pt, ui: ui, seen: map[string]bool{}, inserted: map[string]bool{}, single: single}, true
		}
	}
	return src, false
}

// withProposedKeys is rec's columns followed by the primary-key columns
// of proposed (the same rows as proposed): exec.Insert.ProposedKeys.
func (a *arbiterSource) withProposedKeys(rec, proposed arrow.RecordBatch) arrow.RecordBatch {
	cols := append([]arrow.Array{}, rec.Columns()...)
	fields := append([]arrow.Field{}, rec.Schema().Fields()...)
	for _, c := range a.pt.uq.pk {
		cols = append(cols, proposed.Column(c))
		fields = append(fields, proposed.Schema().Field(c))
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
}

// Next implements exec.Operator.
func (a *arbiterSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if a.pending != nil {
		return nil, a.pending
	}
	b := a.rest
	a.rest = nil
	if b == nil {
		var err error
		if b, err = a.Operator.Next(ctx); err != nil || b == nil {
			return b, err
		}
	}
	split := a.heldAgain(b)
	if a.single && b.NumRows() > 1 {
		split = 1
	}
	if split > 0 {
		a.rest = b.NewSlice(int64(split), b.NumRows())
		prefix := b.NewSlice(0, int64(split))
		b.Release()
		b = prefix
	}
	u, ui := a.pt.uq, a.ui
	// A value proposed a second time is 21000 at its row, and a row that
	// fails NOT NULL or a CHECK constraint as proposed fails before its
	// arbiter is probed (PostgreSQL's ExecInsert runs ExecConstraints
	// first; the failing row shown is the proposed one, not the one
	// given the conflicting row's key below); PostgreSQL merged the rows
	// before it first, so those are passed on alone (their own failure,
	// a CHECK's, is the error if they meet one), then the row's error.
	cut, err := a.reproposed(b), error(nil)
	if cut >= 0 {
		err = exec.AffectedTwice()
	}
	upTo := b
	if cut >= 0 {
		upTo = b.NewSlice(0, int64(cut+1)) // the row's own constraints first
	}
	row, cerr := exec.RowConstraintFailure(ctx, a.ec, a.pt, upTo)
	if upTo != b {
		upTo.Release()
	}
	if cerr != nil && row < 0 {
		b.Release()
		return nil, cerr
	}
	if cerr != nil {
		cut, err = row, cerr
	}
	if cut >= 0 {
		if cut == 0 {
			b.Release()
			return nil, err
		}
		a.pending = err
		prefix := b.NewSlice(0, int64(cut))
		b.Release()
		b = prefix
	}
	n := int(b.NumRows())
	rows := make([]uniqueRow, n)
	want := map[string][]any{}
	for r := range rows {
		vals := make([]any, b.NumCols())
		for c := range vals {
			vals[c] = types.ValueAt(b.Column(c), r)
		}
		rows[r] = uniqueRow{key: u.keyOf(vals, u.pk), vals: vals}
		if k := u.keyOf(vals, ui.c.Columns); k != "" {
			want[k] = u.entry(ui, rows[r])
		}
	}
	st := newIndexState()
	if err := u.load(ctx, ui, want, st); err != nil {
		b.Release()
		return nil, err
	}
	cur, err := u.current(ctx, a.pt, rows) // the rows holding the proposed keys
	if err != nil {
		b.Release()
		return nil, err
	}
	changed := false
	for r, row := range rows {
		k := u.keyOf(row.vals, ui.c.Columns)
		held := false
		if k != "" {
			if held, err = u.conflicts(ctx, a.pt, ui, st, k, row.key); err != nil {
				b.Release()
				return nil, err
			}
		}
		if !held {
			// The arbiter refuses the row only when the row with its key
			// holds its value (the merge updates that row); else the row is
			// a plain insert, which the primary key refuses when a row (or
			// an earlier proposed one) has its key: 23505 as PostgreSQL.
			old, had := cur[row.key]
			if had && (k == "" || u.keyOf(old.vals, ui.c.Columns) != k) || a.inserted[row.key] {
				if r == 0 {
					b.Release()
					return nil, u.keyViolation(row)
				}
				// the rows before it are merged first (one of them may
				// be PostgreSQL's error, a 21000 the merge finds)
				a.pending = u.keyViolation(row)
				prefix := b.NewSlice(0, int64(r))
				b.Release()
				b, n, rows = prefix, r, rows[:r]
				break
			}
			if !had {
				a.inserted[row.key] = true
				if k != "" {
					a.seen[k] = true // inserted with the value: reproposed refuses it again
				}
			}
			continue
		}
		e := st.loaded[k]
		for i, c := range u.pk {
			rows[r].vals[c] = e[len(ui.c.Columns)+i]
		}
		changed = true
	}
	if !changed {
		out := a.withProposedKeys(b, b)
		b.Release()
		return out, nil
	}
	vals := make([][]any, n)
	for r := range rows {
		vals[r] = rows[r].vals
	}
	rec, err := buildRows(b.Schema(), vals) // fk.go
	if err != nil {
		b.Release()
		return nil, err
	}
	out := a.withProposedKeys(rec, b)
	rec.Release()
	b.Release()
	return out, nil
}

// Close implements exec.Operator: the rows not passed on are released.
func (a *arbiterSource) Close() {
	if a.rest != nil {
		a.rest.Release()
		a.rest = nil
	}
	a.Operator.Close()
}

// upsertKeyLock reports whether ON CONFLICT DO UPDATE's SET (merge, one
// expression per column of info, a column it does not assign its own
// ColumnRef) assigns a column of a UNIQUE constraint: then the rows it
// updates are locked FOR UPDATE, else FOR NO KEY UPDATE, as PostgreSQL's
// ExecUpdateLockMode chooses (the primary key's columns cannot be
// assigned: binder.bindOnConflictUpdate).
func upsertKeyLock(info fluss.TableInfo, merge []binder.Expr) bool {
	for _, u := range fluss.MetaOf(info.Descriptor).Uniques {
		for _, c := range u.Columns {
			if c >= len(merge) {
				continue
			}
			if ref, ok := merge[c].(*binder.ColumnRef); !ok || ref.Index != c {
				return true
			}
		}
	}
	return false
}
