package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// DMLToTree transforms an INSERT, UPDATE or DELETE of st (st.AST, or s, a
// statement inside it such as EXPLAIN's; nil: st.AST) into sqlgate's
// parsed tree, with the clauses the rewrite in front of TiDB keeps in st
// (RETURNING, UPDATE ... FROM, DELETE ... USING, ON CONFLICT's target and
// DO NOTHING, INSERT's alias, OVERRIDING, WHERE CURRENT OF). Expressions,
// and the clauses that are the queries' (the target, INSERT's query, FROM /
// USING, WITH), become the tree's through the query transformer
// (totree_query.go), the subqueries inside them included, so that the
// binder reads no TiDB node of a write. Another statement is 0A000; an
// expression or query the tree has no node for is a TransformError.
func DMLToTree(st *Statement, s ast.StmtNode) (pt.Statement, error) {
	var t Transformer
	return t.DMLToTree(st, s)
}

// DMLToTree is the package's DMLToTree.
func (t *Transformer) DMLToTree(st *Statement, s ast.StmtNode) (pt.Statement, error) {
	if s == nil {
		s = st.AST
	}
	qt := queryTransformer{Transformer: t, st: st}
	var out pt.Statement
	var err error
	switch n := s.(type) {
	case *ast.InsertStmt:
		out, err = qt.insertTree(st, n)
	case *ast.UpdateStmt:
		out, err = qt.updateTree(st, n)
	case *ast.DeleteStmt:
		out, err = qt.deleteTree(st, n)
	default:
		return nil, refusal(s, sqlerr.New(sqlerr.FeatureNotSupported, "statement %T is not a write", s))
	}
	if err == nil {
		err = qt.subqueries(out)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// dmlNameAt is a name TiDB keeps no offset for (a table's, an INSERT column
// list's, a SET target's): its first whole-word occurrence in the
// rewritten text, where the binder has always pointed such a name's errors.
func dmlNameAt(st *Statement, n ast.Node, name string) pt.At {
	a := at(n)
	if a.Offset == 0 && st != nil {
		a.Offset = dmlIdentOffset(st.Rewritten, name)
	}
	return a
}

// dmlIdentOffset returns the byte offset of the first whole-word, unquoted-
// string occurrence of name in text (ASCII case-insensitive), or 0. It
// compares in place rather than lowering the text: an INSERT's column
// names stand near its start, and the text of a 1000-row INSERT is long.
func dmlIdentOffset(text, name string) int {
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\'' {
			inString = !inString
			continue
		}
		if inString || len(text)-i < len(name) || !dmlEqualFold(text[i:i+len(name)], name) {
			continue
		}
		before := i == 0 || !dmlIdentByte(dmlLower(text[i-1]))
		after := i+len(name) >= len(text) || !dmlIdentByte(dmlLower(text[i+len(name)]))
		if before && after {
			return i
		}
	}
	return 0
}

func dmlLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func dmlEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if dmlLower(a[i]) != dmlLower(b[i]) {
			return false
		}
	}
	return true
}

func dmlIdentByte(c byte) bool {
	return c == '_' || c == '$' || c == '"' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}

// dmlTarget reads the single table a write names (TiDB's TableRefsClause),
// ok false when it names another kind of source or several tables.
func dmlTarget(refs *ast.TableRefsClause) (tn *ast.TableName, alias string, ok bool) {
	if refs == nil || refs.TableRefs == nil || refs.TableRefs.Right != nil {
		return nil, "", false
	}
	ts, isTS := refs.TableRefs.Left.(*ast.TableSource)
	if !isTS {
		return nil, "", false
	}
	tn, ok = ts.Source.(*ast.TableName)
	return tn, ts.AsName.O, ok
}

// dmlTargetTree transforms a write's target (nil when refs holds none).
func (t queryTransformer) dmlTargetTree(refs *ast.TableRefsClause) (pt.FromItem, error) {
	if refs == nil || refs.TableRefs == nil {
		return nil, nil
	}
	return t.from(refs.TableRefs)
}

func (t queryTransformer) insertTree(st *Statement, n *ast.InsertStmt) (pt.Statement, error) {
	ins := &pt.Insert{At: at(n), Alias: st.InsertAlias, Overriding: st.Overriding}
	switch {
	case n.IsReplace:
		ins.Refused = "REPLACE"
	case n.Setlist:
		ins.Refused = "INSERT ... SET"
	}
	if tn, _, ok := dmlTarget(n.Table); ok {
		ins.Table = tableName(tn)
	}
	var err error
	if ins.Target, err = t.dmlTargetTree(n.Table); err != nil {
		return nil, err
	}
	if len(n.Columns) > 0 {
		ins.Columns = make([]*pt.InsertColumn, len(n.Columns))
		floor := 0 // where the previous column's name ends
		for i, c := range n.Columns {
			a := at(c)
			if a.Offset == 0 && st != nil && floor < len(st.Rewritten) {
				// after the previous column: a name written twice is
				// refused at its second place, as PostgreSQL's
				if off := dmlIdentOffset(st.Rewritten[floor:], c.Name.O); off > 0 || floor == 0 {
					a.Offset = floor + off
				}
			}
			if a.Offset > 0 {
				floor = a.Offset + len(c.Name.O)
			}
			ins.Columns[i] = &pt.InsertColumn{At: a, Name: c.Name.O}
		}
	}
	if fi := st.fastInsert; fi.stmt == n && n != nil {
		ins.Rows = fi.rows // read into the tree by the fast path
	} else if n.Lists != nil {
		ins.Rows = make([][]pt.Expr, len(n.Lists))
		for i, row := range n.Lists {
			r, err := t.exprs(row)
			if err != nil {
				return nil, err
			}
			if r == nil {
				r = []pt.Expr{}
			}
			ins.Rows[i] = r
		}
	} else if rows, with, ok, err := t.withValuesRows(st, n.Select); ok || err != nil {
		if err != nil {
			return nil, err
		}
		ins.Rows, ins.With = rows, with
	} else if n.Select != nil {
		if ins.Query, err = t.query(n.Select); err != nil {
			return nil, err
		}
		if sel, ok := n.Select.(*ast.SelectStmt); ok {
			ins.QuerySelect = true
			ins.PlainQuery = sel.Kind == ast.SelectStmtKindSelect && !sel.Distinct && sel.GroupBy == nil && sel.Having == nil && sel.OrderBy == nil
			if sel.With != nil && dmlStartsWith(st.Text, "with") {
				ins.With = ins.Query.Clauses().With
			}
		}
	}
	if len(n.OnDuplicate) > 0 || st.OnConflictDoNothing || st.ConflictTarget != nil {
		oc := &pt.OnConflict{DoNothing: st.OnConflictDoNothing, Target: st.ConflictTarget, TargetPos: st.ConflictTargetPos, Constraint: st.ConflictConstraint}
		if oc.Update, err = t.dmlAssignments(st, n.OnDuplicate); err != nil {
			return nil, err
		}
		// the WHERE clauses the rewrite carried as marker assignments
		// (upsert.go), last in the list
	markers:
		for len(oc.Update) > 0 {
			last := oc.Update[len(oc.Update)-1]
			switch last.Column {
			case ConflictWhereMarker:
				oc.Where = last.Value
			case ConflictTargetWhereMarker:
				oc.TargetWhere = last.Value
			default:
				break markers
			}
			oc.Update = oc.Update[:len(oc.Update)-1]
		}
		ins.OnConflict = oc
	}
	ins.Returning, err = t.dmlReturning(st)
	return ins, err
}

// withValuesRows reads back the rows of WITH ... INSERT ... VALUES (or
// DEFAULT VALUES), which the rewrite made INSERT ... WITH ... SELECT *
// FROM (VALUES ..) AS a marker (withdml.go's hoistWithIntoInsert), and
// the WITH, which the whole statement sees. ok is false for another
// query.
func (t queryTransformer) withValuesRows(st *Statement, q ast.ResultSetNode) ([][]pt.Expr, *pt.With, bool, error) {
	sel, ok := q.(*ast.SelectStmt)
	if !ok || sel.With == nil || sel.From == nil || sel.From.TableRefs == nil || sel.From.TableRefs.Right != nil || !dmlStartsWith(st.Text, "with") {
		return nil, nil, false, nil
	}
	ts, ok := sel.From.TableRefs.Left.(*ast.TableSource)
	if !ok || ts.AsName.L != insertValuesMarker && ts.AsName.L != defaultValuesMarker {
		return nil, nil, false, nil
	}
	vs, ok := ts.Source.(*ast.SelectStmt)
	if !ok || vs.Kind != ast.SelectStmtKindValues {
		return nil, nil, false, nil
	}
	with, err := t.with(sel.With)
	if err != nil {
		return nil, nil, true, err
	}
	if ts.AsName.L == defaultValuesMarker {
		return [][]pt.Expr{{}}, with, true, nil // MySQL's () VALUES (): every column its default
	}
	rows := make([][]pt.Expr, len(vs.Lists))
	for i, r := range vs.Lists {
		if rows[i], err = t.exprs(r.Values); err != nil {
			return nil, nil, true, err
		}
	}
	return rows, with, true, nil
}

func (t queryTransformer) dmlAssignments(st *Statement, list []*ast.Assignment) ([]*pt.Assignment, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := make([]*pt.Assignment, len(list))
	for i, a := range list {
		// col[..] = value arrives as col = pg__indirect(col[..], (value))
		// (upsert.go's subscripted items)
		var target pt.Expr
		e := a.Expr
		if f, ok := e.(*ast.FuncCallExpr); ok && f.FnName.L == subscriptedSetMarker && len(f.Args) == 2 {
			var err error
			if target, err = t.toTree(f.Args[0]); err != nil {
				return nil, err
			}
			e = f.Args[1]
		}
		v, err := t.toTree(e)
		if err != nil {
			return nil, err
		}
		out[i] = &pt.Assignment{At: dmlNameAt(st, a.Column, a.Column.Name.O), Table: a.Column.Table.O, Column: a.Column.Name.O, Value: v, Target: target}
	}
	return out, nil
}

func (t queryTransformer) dmlReturning(st *Statement) (*pt.Returning, error) {
	if st.Returning == nil {
		return nil, nil
	}
	r := &pt.Returning{At: at(st.Returning), Items: make([]*pt.ReturningItem, len(st.Returning.Fields))}
	for i, f := range st.Returning.Fields {
		it := &pt.ReturningItem{At: pt.At{Offset: f.Offset, Src: f}, Alias: f.AsName.O}
		if f.WildCard != nil {
			it.Star, it.Table = true, f.WildCard.Table.O
		} else {
			x, err := t.toTree(f.Expr)
			if err != nil {
				return nil, err
			}
			it.X = x
		}
		r.Items[i] = it
	}
	return r, nil
}

// writeRefusal names the MySQL forms of UPDATE and DELETE the binder
// refuses.
func writeRefusal(verb string, multi bool, order *ast.OrderByClause, limit *ast.Limit) string {
	switch {
	case multi && verb == "UPDATE":
		return "UPDATE of several tables"
	case multi:
		return "MySQL's multiple-table DELETE"
	case order != nil || limit != nil:
		return verb + " ... ORDER BY / LIMIT"
	}
	return ""
}

// dmlFromWhere reads the FROM / USING list and the WHERE the rewrite moved
// into st.DMLFrom (with its WHERE), else the statement's own WHERE; noList
// says FROM / USING was written without a table list.
func (t queryTransformer) dmlFromWhere(st *Statement, where ast.ExprNode) (from pt.FromItem, w pt.Expr, noList bool, err error) {
	if f := st.DMLFrom; f != nil {
		if f.From != nil && f.From.TableRefs != nil {
			if from, err = t.from(f.From.TableRefs); err != nil {
				return nil, nil, false, err
			}
		} else {
			noList = true
		}
		if where != nil { // the parser moves WHERE along with FROM / USING
			return nil, nil, false, refusal(where, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %q", "WHERE"))
		}
		where = f.Where
	}
	w, err = t.ToTree(where)
	return from, w, noList, err
}

// dmlWithTree transforms a WITH written in front of UPDATE or DELETE.
func (t queryTransformer) dmlWithTree(w *ast.WithClause) (*pt.With, error) {
	if w == nil {
		return nil, nil
	}
	return t.with(w)
}

func (t queryTransformer) updateTree(st *Statement, n *ast.UpdateStmt) (pt.Statement, error) {
	u := &pt.Update{At: at(n), Refused: writeRefusal("UPDATE", n.MultipleTable, n.Order, n.Limit)}
	if tn, alias, ok := dmlTarget(n.TableRefs); ok {
		u.Table, u.Alias = tableName(tn), alias
	}
	var err error
	if u.With, err = t.dmlWithTree(n.With); err != nil {
		return nil, err
	}
	if u.Target, err = t.dmlTargetTree(n.TableRefs); err != nil {
		return nil, err
	}
	if u.Set, err = t.dmlAssignments(st, n.List); err != nil {
		return nil, err
	}
	if u.From, u.Where, u.NoFromList, err = t.dmlFromWhere(st, n.Where); err != nil {
		return nil, err
	}
	if st.CurrentOf != nil {
		u.CurrentOf = st.CurrentOf.Cursor
	}
	u.Returning, err = t.dmlReturning(st)
	return u, err
}

func (t queryTransformer) deleteTree(st *Statement, n *ast.DeleteStmt) (pt.Statement, error) {
	d := &pt.Delete{At: at(n), Refused: writeRefusal("DELETE", n.IsMultiTable, n.Order, n.Limit)}
	if tn, alias, ok := dmlTarget(n.TableRefs); ok {
		d.Table, d.Alias = tableName(tn), alias
	}
	var err error
	if d.With, err = t.dmlWithTree(n.With); err != nil {
		return nil, err
	}
	if d.Target, err = t.dmlTargetTree(n.TableRefs); err != nil {
		return nil, err
	}
	if d.Using, d.Where, d.NoUsingList, err = t.dmlFromWhere(st, n.Where); err != nil {
		return nil, err
	}
	if st.CurrentOf != nil {
		d.CurrentOf = st.CurrentOf.Cursor
	}
	d.Returning, err = t.dmlReturning(st)
	return d, err
}

// dmlStartsWith reports whether text's first word, after blanks and
// comments, is word (lower case), in any case.
func dmlStartsWith(text, word string) bool {
	for {
		text = strings.TrimLeft(text, " \t\r\n\f")
		switch {
		case strings.HasPrefix(text, "--"):
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				return false
			}
			text = text[i+1:]
		case strings.HasPrefix(text, "/*"):
			i := strings.Index(text, "*/")
			if i < 0 {
				return false
			}
			text = text[i+2:]
		default:
			if len(text) < len(word) || !strings.EqualFold(text[:len(word)], word) {
				return false
			}
			rest := text[len(word):]
			return rest == "" || !(rest[0] == '_' || rest[0] >= '0' && rest[0] <= '9' || rest[0] >= 'a' && rest[0] <= 'z' || rest[0] >= 'A' && rest[0] <= 'Z')
		}
	}
}
