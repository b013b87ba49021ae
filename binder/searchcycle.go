package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The SEARCH and CYCLE clauses of a recursive WITH item, as PostgreSQL 15
// rewrites them (rewriteSearchAndCycle.c): each adds columns after the
// item's own, computed in the non-recursive term from the row and in the
// recursive term from the row and the working-table row it came from.
//
//	SEARCH DEPTH FIRST BY c SET seq     seq record[]: ARRAY[ROW(c)], then seq || ROW(c)
//	SEARCH BREADTH FIRST BY c SET seq   seq record: ROW(0, c), then ROW(depth + 1, c)
//	CYCLE c SET mark TO v DEFAULT d USING path
//	    mark: d, then CASE WHEN ROW(c) = ANY(path) THEN v ELSE d END
//	    path record[]: ARRAY[ROW(c)], then path || ROW(c)
//	    and the recursive term reads only working-table rows whose mark <> v
//
// The record and record[] values are order-preserving keys
// (functions/recordkey.go): they sort, compare and find cycles as
// PostgreSQL's do, but sqlgate cannot print them, so a query that sends
// one to the client is refused (refuseRecordOutput) and so is a cast of one.

func scError(sc *sql.SearchCycle, code sqlerr.Code, format string, args ...any) *sqlerr.Error {
	return sqlerr.New(code, format, args...).WithPosition(sc.ClausePos)
}

// searchCyclePlan is the bound form of a SEARCH/CYCLE clause.
type searchCyclePlan struct {
	sc                *sql.SearchCycle
	searchIdx         []int
	cycleIdx          []int
	searchTs, cycleTs []types.T
	markValue, markDf Expr
	extra             []Column // seq, mark, path: those present, in that order
}

// searchCycleForm is what the clause's checks need to know of the
// recursive item's two terms (recursive.go reads it from the parsed
// query).
type searchCycleForm struct {
	nonRecSelect, recSelect bool // each term is one SELECT
	// selfAtTop: the recursive reference is a FROM item of the recursive
	// SELECT itself, whose rows the added columns then carry
	selfAtTop bool
	// groups: the recursive SELECT groups, limits or uses window functions
	groups bool
}

// prepareSearchCycle checks a clause against the item's columns and terms
// (PostgreSQL's errors, in PostgreSQL's order) and binds its mark values.
func (b *binder) prepareSearchCycle(sc *sql.SearchCycle, name string, cols []Column, form searchCycleForm) (*searchCyclePlan, error) {
	if !form.nonRecSelect {
		return nil, scError(sc, sqlerr.FeatureNotSupported, "with a SEARCH or CYCLE clause, the left side of the UNION must be a SELECT")
	}
	if !form.recSelect {
		return nil, scError(sc, sqlerr.SyntaxError, "with a SEARCH or CYCLE clause, the right side of the UNION must be a SELECT")
	}
	p := &searchCyclePlan{sc: sc}
	find := func(what string, list []string) ([]int, []types.T, error) {
		var idx []int
		var ts []types.T
		seen := map[string]bool{}
		for _, c := range list {
			i := -1
			for j, col := range cols {
				if col.Name == c {
					i = j
					break
				}
			}
			if i < 0 {
				return nil, nil, scError(sc, sqlerr.SyntaxError, "%s column %q not in WITH query column list", what, c)
			}
			if seen[c] {
				return nil, nil, scError(sc, sqlerr.DuplicateColumn, "%s column %q specified more than once", what, c)
			}
			seen[c] = true
			if !functions.RecordKeyable(cols[i].T) {
				return nil, nil, scError(sc, sqlerr.FeatureNotSupported, "%s column %q of type %s is not supported", what, c, cols[i].T.PGName())
			}
			idx = append(idx, i)
			ts = append(ts, cols[i].T)
		}
		return idx, ts, nil
	}
	var err error
	if sc.Search {
		if p.searchIdx, p.searchTs, err = find("search", sc.SearchBy); err != nil {
			return nil, err
		}
	}
	if sc.Cycle {
		if p.cycleIdx, p.cycleTs, err = find("cycle", sc.CycleCols); err != nil {
			return nil, err
		}
		if sc.CycleMark == sc.CyclePath {
			return nil, scError(sc, sqlerr.SyntaxError, "cycle mark column name and cycle path column name are the same")
		}
	}
	if sc.Search && sc.Cycle {
		if sc.SearchSet == sc.CycleMark {
			return nil, scError(sc, sqlerr.SyntaxError, "search sequence column name and cycle mark column name are the same")
		}
		if sc.SearchSet == sc.CyclePath {
			return nil, scError(sc, sqlerr.SyntaxError, "search sequence column name and cycle path column name are the same")
		}
	}
	if !form.selfAtTop {
		return nil, scError(sc, sqlerr.FeatureNotSupported, "with a SEARCH or CYCLE clause, the recursive reference to WITH query %q must be at the top level of its right-hand SELECT", name)
	}
	if form.groups {
		return nil, scError(sc, sqlerr.FeatureNotSupported, "SEARCH or CYCLE with a recursive term that groups, limits or uses window functions is not supported")
	}
	if sc.Search {
		t := types.T{Kind: types.Bytes, Variant: types.RecordArray}
		if sc.BreadthFirst {
			t.Variant = types.Record
		}
		p.extra = append(p.extra, Column{Name: sc.SearchSet, T: t})
	}
	if sc.Cycle {
		if p.markValue, p.markDf, err = b.bindCycleMark(sc); err != nil {
			return nil, err
		}
		p.extra = append(p.extra, Column{Name: sc.CycleMark, T: p.markValue.Type()},
			Column{Name: sc.CyclePath, T: types.T{Kind: types.Bytes, Variant: types.RecordArray}})
	}
	return p, nil
}

// bindCycleMark binds CYCLE's TO and DEFAULT values (true and false when
// not written), resolved to one type as a UNION's columns are.
func (b *binder) bindCycleMark(sc *sql.SearchCycle) (Expr, Expr, error) {
	if sc.MarkValue == "" {
		return &Const{Value: true, T: types.BoolType}, &Const{Value: false, T: types.BoolType}, nil
	}
	sts, err := sql.NewParser().Parse("SELECT " + sc.MarkValue + " UNION ALL SELECT " + sc.MarkDflt)
	if err != nil || len(sts) != 1 {
		return nil, nil, scError(sc, sqlerr.SyntaxError, "cycle mark value and default must be constants")
	}
	saved := b.stmt
	b.stmt = sts[0]
	n, _, err := b.bindSubqueryPlan(nil, sts[0].AST)
	b.stmt = saved
	if err != nil {
		return nil, nil, err
	}
	set, ok := n.(*SetOp)
	if !ok {
		return nil, nil, scError(sc, sqlerr.SyntaxError, "cycle mark value and default must be constants")
	}
	value, ok1 := constOf(set.Left)
	dflt, ok2 := constOf(set.Right)
	if !ok1 || !ok2 {
		return nil, nil, scError(sc, sqlerr.FeatureNotSupported, "cycle mark value and default must be constants")
	}
	return value, dflt, nil
}

// constOf is the one expression of a one-row, one-column projection (a
// branch of the mark values' UNION, cast to the common type).
func constOf(n Node) (Expr, bool) {
	p, ok := n.(*Project)
	if !ok || len(p.Exprs) != 1 {
		return nil, false
	}
	if inner, ok := p.Input.(*Project); ok && len(inner.Exprs) == 1 {
		if ref, ok := p.Exprs[0].(*ColumnRef); ok && ref.Index == 0 {
			return inner.Exprs[0], true
		}
		// a cast of the inner value
		return substituteRefs(p.Exprs[0], inner.Exprs), true
	}
	return p.Exprs[0], true
}

// substituteRefs replaces ColumnRef i of e by exprs[i].
func substituteRefs(e Expr, exprs []Expr) Expr {
	switch x := e.(type) {
	case *ColumnRef:
		return exprs[x.Index]
	case *Cast:
		c := *x
		c.X = substituteRefs(x.X, exprs)
		return &c
	}
	return e
}

// refs returns ColumnRefs of cols' columns idx.
func refs(cols []Column, idx []int) []Expr {
	out := make([]Expr, len(idx))
	for k, i := range idx {
		out[k] = &ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T}
	}
	return out
}

// nonRecursive adds the clause's columns to the non-recursive
// term's rows (cols are the item's own columns, the term's output).
func (p *searchCyclePlan) nonRecursive(n Node, cols []Column) Node {
	proj := &Project{Input: n, Exprs: refs(cols, allIdx(len(cols))), Cols: append([]Column(nil), cols...)}
	if p.sc.Search {
		k := functions.RecordArrayKernel(p.searchTs, false)
		if p.sc.BreadthFirst {
			k = functions.BreadthKernel(p.searchTs, false)
		}
		proj.Exprs = append(proj.Exprs, &FuncCall{Name: "pg__search_seq", Args: refs(cols, p.searchIdx), T: p.extra[0].T, Kernel: k})
	}
	if p.sc.Cycle {
		proj.Exprs = append(proj.Exprs, p.markDf,
			&FuncCall{Name: "pg__cycle_path", Args: refs(cols, p.cycleIdx), T: p.extra[len(p.extra)-1].T, Kernel: functions.RecordArrayKernel(p.cycleTs, false)})
	}
	proj.Cols = append(proj.Cols, p.extra...)
	return proj
}

// searchCycleRecursive adds the clause's columns to the recursive term's rows: rec's
// columns are the item's own (already of its types) followed by the
// working-table row's clause columns, which the binder added to the
// recursive SELECT's list.
func (b *binder) searchCycleRecursive(p *searchCyclePlan, rec Node, cols []Column) (Node, error) {
	in := rec.Columns()
	base := len(cols)
	wt := func(k int) Expr { return &ColumnRef{Index: base + k, Name: in[base+k].Name, T: in[base+k].T} }
	var out Node = rec
	if p.sc.Cycle {
		// rows of a cycle are not followed further: mark <> v
		markAt := 0
		if p.sc.Search {
			markAt = 1
		}
		cond, err := b.makeBinary(nil, OpNe, wt(markAt), p.markValue)
		if err != nil {
			return nil, err
		}
		out = &Filter{Input: rec, Cond: cond}
	}
	proj := &Project{Input: out, Exprs: refs(in, allIdx(base)), Cols: append([]Column(nil), cols...)}
	k := 0
	if p.sc.Search {
		kern := functions.RecordArrayKernel(p.searchTs, true)
		if p.sc.BreadthFirst {
			kern = functions.BreadthKernel(p.searchTs, true)
		}
		proj.Exprs = append(proj.Exprs, &FuncCall{Name: "pg__search_seq", Args: append([]Expr{wt(k)}, refs(in, p.searchIdx)...), T: p.extra[0].T, Kernel: kern})
		k++
	}
	if p.sc.Cycle {
		path := wt(k + 1)
		member := &FuncCall{Name: "pg__cycle_member", Args: append([]Expr{path}, refs(in, p.cycleIdx)...), T: types.BoolType, Kernel: functions.MemberKernel(p.cycleTs)}
		mark := &Case{Whens: []When{{Cond: member, Result: p.markValue}}, Else: p.markDf, T: p.markValue.Type()}
		proj.Exprs = append(proj.Exprs, mark,
			&FuncCall{Name: "pg__cycle_path", Args: append([]Expr{path}, refs(in, p.cycleIdx)...), T: p.extra[len(p.extra)-1].T, Kernel: functions.RecordArrayKernel(p.cycleTs, true)})
	}
	proj.Cols = append(proj.Cols, p.extra...)
	return proj, nil
}

func allIdx(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// refuseRecordOutput refuses a query that would send a SEARCH/CYCLE record
// or record[] column to the client: sqlgate cannot print PostgreSQL's
// composite values.
func refuseRecordOutput(n Node) error {
	for _, c := range n.Columns() {
		if holdsRecord(c.T) {
			return sqlerr.New(sqlerr.FeatureNotSupported, "column %q of type %s cannot be sent: sqlgate does not represent PostgreSQL's record values", c.Name, c.T.PGName()).
				WithHint("Use the SEARCH or CYCLE column in ORDER BY or WHERE, and select the other columns.")
		}
	}
	return nil
}

// refusePseudoColumns is PostgreSQL's error for a table column of type
// record or record[] (CREATE TABLE AS of a SEARCH/CYCLE column).
func refusePseudoColumns(n Node) error {
	for _, c := range n.Columns() {
		if c.T.Variant.IsRecord() {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "column %q has pseudo-type %s", c.Name, c.T.PGName())
		}
	}
	return nil
}

// holdsRecord reports whether t is or contains (arrays, rows, maps) a
// SEARCH/CYCLE record type.
func holdsRecord(t types.T) bool {
	if t.Variant.IsRecord() {
		return true
	}
	if t.Elem != nil && holdsRecord(*t.Elem) || t.Key != nil && holdsRecord(*t.Key) {
		return true
	}
	for _, f := range t.Fields {
		if holdsRecord(f.Type) {
			return true
		}
	}
	return false
}

// refuseRecordArgs refuses a function call on a SEARCH/CYCLE record
// value, other than the aggregates and functions that only compare or
// pass it on (PostgreSQL's record[] has array functions; these keys do not).
func refuseRecordArgs(name string, args []types.T) *sqlerr.Error {
	switch name {
	case "count", "min", "max", "coalesce", "nullif", "greatest", "least", "pg_typeof":
		return nil
	}
	for _, t := range args {
		if holdsRecord(t) {
			return sqlerr.New(sqlerr.FeatureNotSupported, "function %s of a value of type %s is not supported", name, t.PGName())
		}
	}
	return nil
}

// refuseRecordCast refuses a cast of a SEARCH/CYCLE record column.
func refuseRecordCast(from types.T) *sqlerr.Error {
	if from.Variant.IsRecord() {
		return sqlerr.New(sqlerr.FeatureNotSupported, "casting a value of type %s is not supported", from.PGName())
	}
	return nil
}

// searchCycleUnion builds the RecursiveUnion of an item with a SEARCH or
// CYCLE clause: the recursive term's own columns are checked and cast as
// without one (bindRecursiveUnion), then both terms get the clause's
// columns.
func (b *binder) searchCycleUnion(name string, p *searchCyclePlan, nonRec, rec Node, cols, allCols []Column, wt *WorkTable, all bool) (Node, error) {
	in := rec.Columns()
	if len(in) != len(allCols) {
		return nil, sqlerr.New(sqlerr.SyntaxError, "each UNION query must have the same number of columns")
	}
	own := &Project{Input: rec, Exprs: refs(in, allIdx(len(cols))), Cols: in[:len(cols):len(cols)]}
	u, err := b.makeSetOp(nonRec, own, Union, all)
	if err != nil {
		return nil, err
	}
	for i, c := range u.Columns() {
		if !c.T.Nullable().Equal(cols[i].T) {
			return nil, recursiveTypeMismatch(name, i, cols[i].T, c.T)
		}
	}
	cast := &Project{Input: rec}
	for i, c := range in {
		var e Expr = &ColumnRef{Index: i, Name: c.Name, T: c.T}
		t := c.T
		if i < len(cols) {
			e, t = b.castTo(e, cols[i].T), cols[i].T
		}
		cast.Exprs = append(cast.Exprs, e)
		cast.Cols = append(cast.Cols, Column{Name: c.Name, T: t})
	}
	recFull, err := b.searchCycleRecursive(p, cast, cols)
	if err != nil {
		return nil, err
	}
	return &RecursiveUnion{Name: name, NonRec: p.nonRecursive(nonRec, cols), Rec: recFull, All: all, WT: wt, cols: allCols}, nil
}
