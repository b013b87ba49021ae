package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// INSERT ... ON CONFLICT (cols) | ON CONSTRAINT name DO UPDATE whose
// arbiter is a unique constraint (unique.go): the row a proposed row
// conflicts with is found through the constraint's index, and the
// proposed row is given that row's primary key, so that exec.Insert's
// merge (which finds the existing row by key) updates it, as PostgreSQL
// updates the conflicting row. A proposed row whose value no row holds is
// inserted as it is.

// arbiterSource is an INSERT's source whose rows are given the key of
// the row holding their value of ui.
type arbiterSource struct {
	exec.Operator
	pt *pendingTable
	ui *uniqueIndex
	// seen are the values the statement proposed so far: a second row
	// with one would insert or update the row the first one did.
	seen map[string]bool
	// inserted are the keys of the rows the statement inserts (rows the
	// arbiter does not refuse): a later row with one collides with it.
	inserted map[string]bool
	// pending is the 21000 of a value proposed again, after the rows
	// before it were passed on.
	pending error
}

// reproposed is the first row of b whose arbiter value the statement
// proposed before (in b or an earlier batch), -1 when none is.
func (a *arbiterSource) reproposed(b arrow.RecordBatch) int {
	u, cols := a.pt.uq, a.ui.c.Columns
	vals := make([]any, b.NumCols())
	batch := map[string]bool{}
	for r := range int(b.NumRows()) {
		for _, c := range cols {
			vals[c] = types.ValueAt(b.Column(c), r)
		}
		if k := u.keyOf(vals, cols); k != "" {
			if a.seen[k] || batch[k] {
				return r
			}
			batch[k] = true
		}
	}
	return -1
}

// arbiterSource wraps src when the INSERT's ON CONFLICT DO UPDATE names
// a unique constraint of t (arbiter), else returns src.
func arbiterSourceOf(t fluss.Table, src exec.Operator, arbiter string, merging bool) exec.Operator {
	pt, ok := t.(*pendingTable)
	if !ok || pt.uq == nil || !merging || arbiter == "" {
		return src
	}
	for _, ui := range pt.uq.cons {
		if ui.c.Name == arbiter {
			return &arbiterSource{Operator: src, pt: pt, ui: ui, seen: map[string]bool{}, inserted: map[string]bool{}}
		}
	}
	return src
}

// Next implements exec.Operator.
func (a *arbiterSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if a.pending != nil {
		return nil, a.pending
	}
	b, err := a.Operator.Next(ctx)
	if err != nil || b == nil {
		return b, err
	}
	u, ui := a.pt.uq, a.ui
	// A value proposed a second time is 21000 at its row; PostgreSQL
	// merged the rows before it first, so those are passed on alone (their
	// own failure, a CHECK's, is the error if they meet one), then 21000.
	if cut := a.reproposed(b); cut >= 0 {
		err := sqlerr.New(sqlerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
			WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
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
			a.seen[k] = true // reproposed: none is seen twice
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
				b.Release()
				return nil, u.keyViolation(row)
			}
			if !had {
				a.inserted[row.key] = true
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
		return b, nil
	}
	out := make([][]any, n)
	for r := range rows {
		out[r] = rows[r].vals
	}
	rec, err := buildRows(b.Schema(), out) // fk.go
	b.Release()
	return rec, err
}
