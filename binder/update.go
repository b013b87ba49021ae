package binder

import (
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Update rewrites the rows of a primary-key table that Source selects:
// Source yields the new rows (every column, in table order) and, when
// KeyChanged is set, after them the primary key each row had before (which
// is deleted first), then the RETURNING values (Returning.At). One scan
// feeds both, so they always agree. With FROM (Joined), a target row can
// come several times; it is updated once, with the first one.
type Update struct {
	Table      fluss.TableInfo
	Source     Node
	KeyChanged bool
	// UniqueChanged: SET assigns a column of a UNIQUE constraint, which a
	// foreign key may reference: the rows are locked FOR UPDATE, as
	// PostgreSQL locks a row whose unique-indexed column an UPDATE changes
	// (a concurrent referencing row's FOR KEY SHARE waits for it).
	UniqueChanged bool
	Joined        bool
	Returning     *Returning
	// Via is the view the UPDATE names when it writes the view's base
	// table (viewwrite.go); nil for a table.
	Via *View
	// ViewChecks: as Insert's, over each new row.
	ViewChecks []ViewCheck
	// Recheck (Joined): the re-check of a row a concurrent transaction
	// changed (recheck.go); nil re-runs the plan over that row.
	Recheck *Recheck
	params  []types.T
}

// Delete removes the rows of a primary-key table whose keys Keys yields
// (the primary-key columns, in key order, then the RETURNING values at
// Returning.At). With USING (Joined) a key can come several times.
type Delete struct {
	Table     fluss.TableInfo
	Keys      Node
	Joined    bool
	Returning *Returning
	// Via: as Update's.
	Via *View
	// Recheck: as Update's.
	Recheck *Recheck
	params  []types.T
}

func (s *Update) Params() []types.T { return s.params }
func (s *Delete) Params() []types.T { return s.params }

// writableTable binds the single target table of UPDATE/DELETE (target:
// its clause) and checks that it is a primary-key table: a Fluss log table
// is append-only.
func (b *binder) writableTable(target pt.FromItem, verb string) (*Scan, error) {
	n, err := b.bindWriteTarget(target, verb) // dmledge.go
	if err != nil {
		return nil, err
	}
	scan, ok := n.(*Scan)
	if !ok || scan.Changelog {
		return nil, sqlerr.NotSupported(verb + " of this target")
	}
	if !scan.Table.HasPrimaryKey() {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot %s table %q: it is a log table (no primary key), which is append-only", verb, scan.Table.Path.Table).
			WithHint("Only primary-key tables support UPDATE and DELETE.")
	}
	return scan, nil
}

// bindUpdateTree binds an UPDATE (a statement's, EXPLAIN's; exprbind.go's
// bindStatement).
func (b *binder) bindUpdateTree(up *pt.Update) (Statement, error) {
	if up.Refused != "" {
		return nil, sqlerr.NotSupported(up.Refused)
	}
	if up.With != nil { // the WITH queries are visible to the whole statement
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWriteWith(up.With, up); err != nil {
			return nil, err
		}
	}
	via, err := b.viewUpdate(up) // viewwrite.go
	if err != nil {
		return nil, err
	}
	scan, err := b.writableTable(up.Target, "update")
	if err != nil {
		return nil, err
	}
	info := scan.Table
	b.assignInto = scan // domains.go
	input, err := b.bindDMLFrom(scan, up.From, up.NoFromList, up.Where, up)
	if err != nil {
		return nil, err
	}
	newRows, _, keyChanged, uniqueChanged, err := b.bindSetList(scan, newScope(input), input, up.Set)
	if err != nil {
		if up.Returning != nil {
			// PostgreSQL's transformUpdateStmt binds RETURNING before
			// the SET list: an error of both is RETURNING's. The new row
			// has the old one's names and types, so the input's scope
			// finds the same errors.
			if _, rerr := b.bindReturning(newScope(input), up.Returning, nil, up); rerr != nil {
				return nil, rerr
			}
		}
		return nil, err
	}
	cols := info.Descriptor.Schema.Columns
	out := &Update{Table: info, KeyChanged: keyChanged, UniqueChanged: uniqueChanged, Joined: up.From != nil, Via: via}
	if out.ViewChecks, err = b.bindViewChecks(scan); err != nil { // viewcheck.go
		return nil, err
	}
	if up.Returning == nil {
		if keyChanged {
			old := keyProjection(input, info)
			newRows.Exprs = append(newRows.Exprs, old.Exprs...)
			for _, c := range old.Cols {
				c.Name = "old_" + c.Name
				newRows.Cols = append(newRows.Cols, c)
			}
		}
		if out.Joined {
			out.Recheck = b.joinedRecheck(newRows, input, len(cols))
		}
		out.Source, out.params = b.finishParams(newRows), b.params
		return out, nil
	}
	// RETURNING sees the new row under the target's name and the FROM
	// tables' columns: newRows passes those through, then carries the old
	// key, which no name reaches.
	ncols, nin := len(cols), len(input.Columns())
	for i := ncols; i < nin; i++ {
		c := input.Columns()[i]
		newRows.Exprs = append(newRows.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		newRows.Cols = append(newRows.Cols, c)
	}
	sc := &scope{tables: map[string]bool{}}
	for i, c := range newRows.Cols {
		if i < ncols {
			c.Table, c.TableID, c.Ordinal = scan.Alias, info.TableID, i+1
		}
		if c.Table != "" {
			sc.tables[c.Table] = true
		}
		sc.cols = append(sc.cols, c)
	}
	oldAt := len(newRows.Exprs)
	if keyChanged {
		old := keyProjection(input, info)
		newRows.Exprs = append(newRows.Exprs, old.Exprs...)
		newRows.Cols = append(newRows.Cols, old.Cols...)
	}
	ret, err := b.bindReturning(sc, up.Returning, nil, up)
	if err != nil {
		return nil, err
	}
	src := &Project{Input: newRows}
	pass := func(i int) {
		c := newRows.Cols[i]
		src.Exprs = append(src.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		src.Cols = append(src.Cols, c)
	}
	for i := 0; i < ncols; i++ {
		pass(i)
	}
	for i := oldAt; i < len(newRows.Cols); i++ {
		pass(i)
	}
	out.Returning = &Returning{Cols: ret.Cols, At: len(src.Exprs)}
	src.Exprs = append(src.Exprs, ret.Exprs...)
	src.Cols = append(src.Cols, ret.Cols...)
	if out.Joined {
		out.Recheck = b.joinedRecheck(src, input, ncols)
	}
	out.Source, out.params = b.finishParams(src), b.params
	return out, nil
}

// bindDMLFrom binds the rows UPDATE and DELETE read: the target's scan,
// joined with UPDATE ... FROM's (DELETE ... USING's) tables when there
// are some, filtered by WHERE (which the parser moved with them). stmt is
// the write, whose clauses may read the whole rows of those tables.
func (b *binder) bindDMLFrom(scan *Scan, from pt.FromItem, noList bool, where pt.Expr, stmt pt.Node) (Node, error) {
	var input Node = scan
	if from != nil || noList {
		other, err := b.bindWriteFrom(from, noList, stmt) // dmledge.go
		if err != nil {
			return nil, err
		}
		if err := checkDuplicateAliases(scan, other); err != nil {
			return nil, err
		}
		input = NewJoin(scan, other, CrossJoin, nil)
	}
	if where == nil {
		return input, nil
	}
	restore := b.refuseSetCalls("WHERE")      // PostgreSQL's place name (srf.go)
	restoreAgg := b.refuseAggregates("WHERE") // agglevels.go
	cond, err := b.bindTree(newScope(input), where)
	restoreAgg()
	restore()
	if err != nil {
		return nil, err
	}
	if cond, err = b.coerce(where, cond, types.BoolType, "argument of WHERE"); err != nil {
		return nil, err
	}
	return &Filter{Input: input, Cond: cond}, nil
}

// keyProjection projects the primary-key columns of a table's rows, in key order.
func keyProjection(input Node, info fluss.TableInfo) *Project {
	p := &Project{Input: input}
	cols := info.Descriptor.Schema.Columns
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		i := info.ColumnIndex(k)
		p.Exprs = append(p.Exprs, &ColumnRef{Index: i, Name: k, T: cols[i].Type})
		p.Cols = append(p.Cols, Column{Name: k, T: cols[i].Type})
	}
	return p
}

// bindDeleteTree binds a DELETE (a statement's, EXPLAIN's; exprbind.go's
// bindStatement).
func (b *binder) bindDeleteTree(del *pt.Delete) (Statement, error) {
	if del.Refused != "" {
		return nil, sqlerr.NotSupported(del.Refused)
	}
	if del.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWriteWith(del.With, del); err != nil {
			return nil, err
		}
	}
	via, err := b.viewDelete(del) // viewwrite.go
	if err != nil {
		return nil, err
	}
	scan, err := b.writableTable(del.Target, "delete from")
	if err != nil {
		return nil, err
	}
	input, err := b.bindDMLFrom(scan, del.Using, del.NoUsingList, del.Where, del)
	if err != nil {
		return nil, err
	}
	keys := keyProjection(input, scan.Table)
	out := &Delete{Table: scan.Table, Joined: del.Using != nil, Via: via}
	if del.Returning != nil {
		// RETURNING sees the deleted row and the USING tables' columns.
		ret, err := b.bindReturning(newScope(input), del.Returning, nil, del)
		if err != nil {
			return nil, err
		}
		out.Returning = &Returning{Cols: ret.Cols, At: len(keys.Exprs)}
		keys.Exprs = append(keys.Exprs, ret.Exprs...)
		keys.Cols = append(keys.Cols, ret.Cols...)
	}
	if out.Joined {
		out.Recheck = b.joinedRecheck(keys, input, len(scan.Columns()))
	}
	out.Keys, out.params = b.finishParams(keys), b.params
	return out, nil
}

// bindSetList binds UPDATE's SET list (MERGE's UPDATE SET's) over s, the
// scope of input, whose first columns are the target's: the new rows, every
// column in table order (the generated ones computed from the new row), and
// whether SET changes the key or a UNIQUE constraint's column; assigned
// holds each column's SET value (nil where SET does not name it). Columns
// appended to newRows.Exprs may read input's columns by their indexes:
// the projections under it pass them through.
func (b *binder) bindSetList(scan *Scan, s *scope, input Node, list []*pt.Assignment) (newRows *Project, assigned []Expr, keyChanged, uniqueChanged bool, err error) {
	info := scan.Table
	cols := info.Descriptor.Schema.Columns
	fail := func(err error) (*Project, []Expr, bool, bool, error) { return nil, nil, false, false, err }
	// PostgreSQL's order, which decides which of several errors is the
	// statement's: transformUpdateTargetList transforms every SET value
	// first (transformTargetList: 42702, 42703 of the values), then finds
	// each target column and converts its value to the column's type, in
	// the order written (42703 of the column, 42804); the rewriter
	// (rewriteTargetListIU) then refuses a second assignment to a column,
	// in the order written (42601), and a value other than DEFAULT for an
	// identity ALWAYS or generated column, in the table's column order
	// (428C9).
	values := make([]Expr, len(list))
	for k, a := range list {
		if _, isDefault := a.Value.(*pt.Default); !isDefault {
			if values[k], err = b.bindUpdateValue(s, a.Value); err != nil {
				return fail(err)
			}
		}
		if err := deferredSetError(list, k); err != nil {
			return fail(err)
		}
	}
	at := make([]int, len(list)) // the column each assignment names
	steps := make([]*subscriptedStep, len(list))
	for k, a := range list {
		if a.Table != "" {
			// SET t.col is PostgreSQL's field col of a column t
			return fail(fieldTargetError(b, a, info))
		}
		idx := info.ColumnIndex(a.Column)
		if idx < 0 {
			return fail(b.errAt(a, sqlerr.New(sqlerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column, info.Path.Table)))
		}
		at[k] = idx
		if a.Target != nil && values[k] != nil { // col[..] = value: arrayassign.go
			if steps[k], err = b.bindSubscriptedTarget(s, a, values[k], cols[idx].Type, info.Path.Table); err != nil {
				return fail(err)
			}
			continue
		}
		if values[k] != nil {
			if values[k], err = b.assign(a.Value, values[k], a.Column, cols[idx].Type, info.Path.Table); err != nil {
				return fail(err)
			}
		}
	}
	items, err := b.sameColumnItems(list, at, len(cols)) // the assignments of each column
	if err != nil {
		return fail(err)
	}
	set := make([]Expr, len(cols))
	for idx, ks := range items {
		if len(ks) == 0 {
			continue
		}
		k := ks[0] + 1
		a := list[k-1]
		_, isDefault := a.Value.(*pt.Default)
		if !isDefault {
			if err = refuseIdentityUpdate(info, idx); err != nil { // coldefs.go
				return fail(err)
			}
		}
		if gen, err := b.generatedAssignment(info, idx, a.Value); gen != nil || err != nil { // generated.go
			if err != nil {
				return fail(err)
			}
			set[idx] = gen
			continue
		}
		if a.Target != nil {
			// each item over the one before, the first over the old value
			var chain []*subscriptedStep
			for _, j := range ks {
				chain = append(chain, steps[j])
			}
			set[idx] = applySubscripted(&ColumnRef{Index: idx, Name: cols[idx].Name, T: cols[idx].Type}, chain, cols[idx].Type)
			continue
		}
		if !isDefault {
			set[idx] = values[k-1]
			continue
		}
		e, err := b.columnDefault(info, idx) // coldefs.go
		if err == nil {
			e, err = b.assign(a.Value, e, a.Column, cols[idx].Type, info.Path.Table)
		}
		if err != nil {
			return fail(err)
		}
		set[idx] = e
	}
	newRows = &Project{Input: input}
	pkIdx := map[int]bool{}
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		pkIdx[info.ColumnIndex(k)] = true
	}
	for i, c := range cols {
		e := set[i]
		if e == nil {
			e = &ColumnRef{Index: i, Name: c.Name, T: c.Type}
		} else if pkIdx[i] {
			keyChanged = true
		}
		newRows.Exprs = append(newRows.Exprs, e)
		newRows.Cols = append(newRows.Cols, Column{Name: c.Name, T: c.Type.Nullable()})
	}
	// the generated columns are computed from the new row (generated.go)
	if newRows, err = b.generatedUpdate(info, newRows); err != nil {
		return nil, nil, false, false, err
	}
	keyChanged = keyChanged || generatedKey(info, pkIdx)
	for _, u := range fluss.MetaOf(info.Descriptor).Uniques {
		for _, c := range u.Columns {
			uniqueChanged = uniqueChanged || c < len(set) && set[c] != nil
		}
	}
	return newRows, set, keyChanged, uniqueChanged, nil
}

// deferredSetError is the error of a multiple-column SET item that
// PostgreSQL refuses while it analyses the SET list, once list[k], the
// item's last marker assignment (sql.DeferredSetError), was bound; nil
// for any other assignment.
func deferredSetError(list []*pt.Assignment, k int) error {
	err, ok := sql.DeferredSetError(list[k].Column)
	if !ok || k+1 < len(list) && list[k+1].Column == list[k].Column {
		return nil
	}
	return err
}
