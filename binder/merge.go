package binder

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Merge is PostgreSQL 15's MERGE. Rows joins the target with the source
// (a right join when a WHEN NOT MATCHED clause exists, else an inner
// join) and gives each row, in its last column (ActionAt), the number of
// the first WHEN clause whose condition holds (1-based; 0: none). The
// engine runs Rows once, before anything is written, checks that no
// target row is updated or deleted twice (Changes, KeyCols: 21000), hands
// the rows to Rel, and runs the actions as the writes they are: Delete,
// then each UPDATE clause's Update, then each INSERT clause's Insert,
// all of them reading Rel (their rows filtered by action number), so that
// every clause sees the target as the statement found it.
type Merge struct {
	Table    fluss.TableInfo
	Rows     Node
	Rel      *MergeRows
	ActionAt int
	KeyCols  []int
	// MatchedAt is the column of Rows that is NULL where no target row
	// joined; the source's columns follow it, up to ActionAt.
	MatchedAt int
	Changes   []int32
	// ReadsTarget: the ON condition, a WHEN condition or a SET value reads
	// a column of the target, which needs SELECT on it (PostgreSQL checks
	// SELECT on the columns read only: an insert-only MERGE ON false, as
	// dbt emits, needs INSERT alone).
	ReadsTarget bool
	Updates     []*Update
	Delete      *Delete
	Inserts     []*Insert
	// Recheck re-evaluates join rows whose target row a concurrent
	// transaction changed (PostgreSQL's EvalPlanQual): Rel holds rows of
	// Rows' join columns (the target's newest version, or NULLs and a NULL
	// marker where it no longer joins), and Plan yields, over them, Rows'
	// columns (the WHEN clause picked again, from the first) and then
	// whether the ON condition holds.
	Recheck *Recheck
	params  []types.T
}

func (s *Merge) Params() []types.T { return s.params }

// MergeRows is the relation MERGE's actions read (a FileRelation): the
// rows of Merge.Rows, which the engine runs and sets (Set) before it builds
// the actions' plans. The binder only names it.
type MergeRows struct {
	cols    []FileColumn
	batches []arrow.RecordBatch
}

// Set hands the relation the rows the actions read (still owned by the
// caller, which releases them after the actions ran).
func (r *MergeRows) Set(batches []arrow.RecordBatch) { r.batches = batches }

func (r *MergeRows) Columns() []FileColumn { return r.cols }
func (r *MergeRows) String() string        { return "merge rows" }

// Open implements FileRelation: the rows, each batch retained for the reader.
func (r *MergeRows) Open(context.Context) (FileRows, error) {
	return &mergeRowsReader{batches: r.batches}, nil
}

type mergeRowsReader struct{ batches []arrow.RecordBatch }

func (m *mergeRowsReader) Next(context.Context) (arrow.RecordBatch, error) {
	if len(m.batches) == 0 {
		return nil, nil
	}
	b := m.batches[0]
	m.batches = m.batches[1:]
	b.Retain()
	return b, nil
}

func (m *mergeRowsReader) Close() { m.batches = nil }

// bindMergeTree binds a MERGE (a statement's, EXPLAIN's).
func (b *binder) bindMergeTree(m *pt.Merge) (Statement, error) {
	if m.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWriteWith(m.With, m); err != nil {
			return nil, err
		}
	}
	tn, err := b.bindWriteTarget(m.Target, "MERGE")
	if err != nil {
		return nil, err
	}
	scan, ok := tn.(*Scan)
	if !ok || scan.Changelog {
		name := ""
		if m.Table != nil {
			name = m.Table.Name
		}
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot execute MERGE on relation %q", name).
			WithDetail("This operation is not supported for views.")
	}
	info := scan.Table
	notMatched := false
	unconditional := map[bool]bool{} // per group, an unconditional clause seen
	for _, c := range m.Clauses {
		if unconditional[c.Matched] {
			return nil, sqlerr.New(sqlerr.SyntaxError, "unreachable WHEN clause specified after unconditional WHEN clause")
		}
		unconditional[c.Matched] = c.Cond == nil
		notMatched = notMatched || !c.Matched
		if (c.Action == pt.MergeUpdate || c.Action == pt.MergeDelete) && !info.HasPrimaryKey() {
			// a log table is append-only, as UPDATE and DELETE find it
			verb := map[bool]string{true: "update", false: "delete from"}[c.Action == pt.MergeUpdate]
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot %s table %q: it is a log table (no primary key), which is append-only", verb, info.Path.Table).
				WithHint("Only primary-key tables support UPDATE and DELETE; a MERGE into a log table may only INSERT.")
		}
	}
	b.assignInto = scan                             // domains.go
	src, err := b.bindWriteFrom(m.Source, false, m) // dmledge.go
	if err != nil {
		return nil, err
	}
	for _, c := range src.Columns() {
		if c.Table == scan.Alias {
			return nil, sqlerr.New(sqlerr.DuplicateAlias, "name %q specified more than once", c.Table).
				WithDetail("The name is used both as MERGE target table and data source.")
		}
	}
	// The target with a marker column that is NULL only where no target
	// row joined (WHEN NOT MATCHED); no unquoted name reaches it.
	ncols := len(scan.Columns())
	tgt := &Project{Input: scan}
	for i, c := range scan.Columns() {
		tgt.Exprs = append(tgt.Exprs, b.newColumnRef(i, c.Name, c.T))
		tgt.Cols = append(tgt.Cols, c)
	}
	tgt.Exprs = append(tgt.Exprs, b.newConst(true, types.BoolType))
	tgt.Cols = append(tgt.Cols, Column{Name: "?matched?", T: types.BoolType})
	jt := InnerJoin
	if notMatched {
		jt = RightJoin
	}
	join := NewJoin(tgt, src, jt, nil)
	restore := b.refuseSetCalls("JOIN conditions")
	restoreAgg := b.refuseAggregates("JOIN conditions")
	on, err := b.bindTree(newScope(join), m.On)
	restoreAgg()
	restore()
	if err != nil {
		return nil, err
	}
	if join.Cond, err = b.coerce(m.On, on, types.BoolType, "argument of JOIN/ON"); err != nil {
		return nil, err
	}
	// reads reports whether e, bound over the join's columns (or over
	// the merge rows, which start with them), reads a target column; a
	// correlated subquery's reads are its Outer expressions.
	reads := func(e Expr) bool {
		found := false
		Walk(e, func(x Expr) {
			if r, ok := x.(*ColumnRef); ok && r.Index < ncols {
				found = true
			}
		})
		return found
	}
	readsTarget := reads(join.Cond)
	jcols := join.Columns()
	marker := b.newColumnRef(ncols, "?matched?", jcols[ncols].T)
	// WHEN NOT MATCHED reads the source's columns only: the target's
	// are unnamed in its scope.
	nmCols := append([]Column(nil), jcols...)
	for i := 0; i <= ncols; i++ {
		nmCols[i] = Column{T: jcols[i].T}
	}
	scopes := map[bool]*scope{true: newScope(join), false: {cols: nmCols}}
	action := &Case{T: types.Int32Type, Else: b.newConst(int64(0), types.Int32Type)}
	rows := &Project{Input: join}
	for i, c := range jcols {
		rows.Exprs = append(rows.Exprs, b.newColumnRef(i, c.Name, c.T))
		rows.Cols = append(rows.Cols, c)
	}
	rows.Exprs = append(rows.Exprs, action)
	rows.Cols = append(rows.Cols, Column{Name: "merge_action", T: types.Int32Type})
	out := &Merge{Table: info, ActionAt: len(jcols), MatchedAt: ncols, Rel: &MergeRows{}}
	for _, c := range rows.Cols {
		out.Rel.cols = append(out.Rel.cols, FileColumn{Name: c.Name, Type: c.T})
	}
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		out.KeyCols = append(out.KeyCols, info.ColumnIndex(k))
	}
	rel := &FileTable{File: out.Rel, cols: rows.Cols}
	actionRef := b.newColumnRef(out.ActionAt, "merge_action", types.Int32Type)
	picked := func(ks ...int32) *Filter {
		var cond Expr
		for _, k := range ks {
			var eq Expr = &BinaryOp{Op: OpEq, L: actionRef, R: b.newConst(int64(k), types.Int32Type), T: types.BoolType}
			if cond != nil {
				eq = &BinaryOp{Op: OpOr, L: cond, R: eq, T: types.BoolType}
			}
			cond = eq
		}
		return &Filter{Input: rel, Cond: cond}
	}
	var deletes []int32
	// Each clause's condition, then its action, clause by clause: the order
	// PostgreSQL binds them in, which a parameter's type is inferred from.
	for k, c := range m.Clauses {
		var cond Expr = &IsNull{X: marker, Not: c.Matched}
		if c.Cond != nil {
			restore := b.refuseSetCalls("MERGE WHEN conditions")
			restoreAgg := b.refuseAggregates("MERGE WHEN conditions")
			e, err := b.bindTree(scopes[c.Matched], c.Cond)
			restoreAgg()
			restore()
			if err != nil {
				return nil, targetUnreachable(scan, err)
			}
			if e, err = b.coerce(c.Cond, e, types.BoolType, "argument of WHEN"); err != nil {
				return nil, err
			}
			readsTarget = readsTarget || reads(e)
			cond = &BinaryOp{Op: OpAnd, L: cond, R: e, T: types.BoolType}
		}
		action.Whens = append(action.Whens, When{Cond: cond, Result: b.newConst(int64(k+1), types.Int32Type)})
		num := int32(k + 1)
		switch c.Action {
		case pt.MergeDelete:
			deletes = append(deletes, num)
			out.Changes = append(out.Changes, num)
		case pt.MergeUpdate:
			out.Changes = append(out.Changes, num)
			in := picked(num)
			newRows, assigned, keyChanged, uniqueChanged, err := b.bindSetList(scan, scopes[true], in, c.Set) // update.go
			if err != nil {
				return nil, err
			}
			for _, a := range c.Set {
				if _, isDefault := a.Value.(*pt.Default); !isDefault {
					readsTarget = readsTarget || reads(assigned[info.ColumnIndex(a.Column)])
				}
			}
			if keyChanged {
				old := keyProjection(in, info)
				newRows.Exprs = append(newRows.Exprs, old.Exprs...)
				for _, oc := range old.Cols {
					oc.Name = "old_" + oc.Name
					newRows.Cols = append(newRows.Cols, oc)
				}
			}
			out.Updates = append(out.Updates, &Update{Table: info, Source: newRows, KeyChanged: keyChanged, UniqueChanged: uniqueChanged})
		case pt.MergeInsert:
			ins, err := b.bindMergeInsert(info, scopes[false], picked(num), c)
			if err != nil {
				return nil, targetUnreachable(scan, err)
			}
			out.Inserts = append(out.Inserts, ins)
		}
	}
	if deletes != nil {
		out.Delete = &Delete{Table: info, Keys: keyProjection(picked(deletes...), info)}
	}
	rrel := &MergeRows{}
	for _, c := range jcols {
		rrel.cols = append(rrel.cols, FileColumn{Name: c.Name, Type: c.T})
	}
	again := &Project{Input: &FileTable{File: rrel, cols: jcols}, Exprs: append([]Expr(nil), rows.Exprs...), Cols: append([]Column(nil), rows.Cols...)}
	again.Exprs = append(again.Exprs, join.Cond)
	again.Cols = append(again.Cols, Column{Name: "?on?", T: types.BoolType})
	out.Recheck = &Recheck{Rel: rrel, Plan: again}
	// parameters typed by every part, stamped into all of them
	out.Rows = b.finishParams(rows)
	out.Recheck.Plan = b.finishParams(again)
	for _, u := range out.Updates {
		u.Source = b.finishParams(u.Source)
	}
	if out.Delete != nil {
		out.Delete.Keys = b.finishParams(out.Delete.Keys)
	}
	for _, ins := range out.Inserts {
		ins.Source = b.finishParams(ins.Source)
	}
	out.ReadsTarget = readsTarget
	out.params = b.params
	return out, nil
}

// bindMergeInsert binds a WHEN NOT MATCHED clause's INSERT over in (the
// clause's rows), its values over s, as INSERT ... VALUES binds one row:
// the column list, OVERRIDING, defaults, identity and generated columns.
func (b *binder) bindMergeInsert(info fluss.TableInfo, s *scope, in Node, c *pt.MergeClause) (*Insert, error) {
	tableCols := info.Descriptor.Schema.Columns
	var target []int
	if len(c.Columns) == 0 {
		for i := range tableCols {
			target = append(target, i)
		}
		if len(c.Values) > len(target) {
			return nil, b.errAt(c.Values[len(target)], sqlerr.New(sqlerr.SyntaxError, "INSERT has more expressions than target columns"))
		}
		target = target[:len(c.Values)]
	} else {
		seen := map[int]bool{}
		for _, cn := range c.Columns {
			idx := info.ColumnIndex(cn.Name)
			if idx < 0 {
				return nil, b.errAt(cn, sqlerr.New(sqlerr.UndefinedColumn, "column %q of relation %q does not exist", cn.Name, info.Path.Table))
			}
			if seen[idx] {
				return nil, b.errAt(cn, sqlerr.New(sqlerr.DuplicateColumn, "column %q specified more than once", cn.Name))
			}
			seen[idx] = true
			target = append(target, idx)
		}
		if len(c.Values) > len(target) {
			return nil, b.errAt(c.Values[len(target)], sqlerr.New(sqlerr.SyntaxError, "INSERT has more expressions than target columns"))
		}
		if len(c.Values) < len(target) {
			return nil, b.errAt(c.Columns[len(c.Values)], sqlerr.New(sqlerr.SyntaxError, "INSERT has more target columns than expressions"))
		}
	}
	provided := make([]int, len(tableCols))
	for i := range provided {
		provided[i] = -1
	}
	for pos, idx := range target {
		provided[idx] = pos
	}
	asInsert := &pt.Insert{At: c.At, Columns: c.Columns, Overriding: c.Overriding, Rows: [][]pt.Expr{c.Values}}
	overridden, err := b.insertOverride(info, provided, asInsert, nil) // insert.go
	if err != nil {
		return nil, err
	}
	if err := refuseGeneratedInsert(info, provided, asInsert, nil); err != nil { // generated.go
		return nil, err
	}
	p := &Project{Input: in}
	for i, col := range tableCols {
		var e Expr
		if pos := provided[i]; pos >= 0 && !overridden[i] {
			v := c.Values[pos]
			if _, isDefault := v.(*pt.Default); isDefault {
				e, err = b.columnDefault(info, i)
			} else if e, err = b.bindTree(s, v); err == nil {
				e, err = b.assign(v, e, col.Name, col.Type, info.Path.Table)
			}
		} else {
			e, err = b.columnDefault(info, i) // coldefs.go
		}
		if err != nil {
			return nil, err
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, Column{Name: col.Name, T: col.Type.Nullable()})
	}
	source, err := b.generatedRow(info, p) // generated.go
	if err != nil {
		return nil, err
	}
	return &Insert{Table: info, Source: source}, nil
}

// targetUnreachable is PostgreSQL's wording for err, met binding a WHEN
// NOT MATCHED clause, when it is a qualified reference to the target, whose
// columns are unnamed in that clause's scope (no target row exists there):
// the entry exists but cannot be referenced. Resolution decides, not the
// name's spelling, so that a subquery's own FROM item of the same name
// (NOT EXISTS (SELECT 1 FROM tg WHERE tg.v = s.v)) reads that item.
func targetUnreachable(scan *Scan, err error) error {
	e := sqlerr.As(err)
	if e == nil || e.Code != sqlerr.UndefinedTable || e.Message != missingFromEntry(scan.Alias).Message {
		return err
	}
	out := invalidFromEntry(sqlerr.UndefinedTable, scan.Alias).
		WithHint("There is an entry for table %q, but it cannot be referenced from this part of the query.", scan.Alias)
	out.Position = e.Position
	return out
}
