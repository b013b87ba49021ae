package sql

import (
	"reflect"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// DMLToTree transforms an INSERT, UPDATE or DELETE of st (st.AST, or s, a
// statement inside it such as EXPLAIN's; nil: st.AST) into sqlgate's
// parsed tree, with the clauses the rewrite in front of TiDB keeps in st
// (RETURNING, UPDATE ... FROM, DELETE ... USING, ON CONFLICT's target and
// DO NOTHING, INSERT's alias, OVERRIDING, WHERE CURRENT OF). Expressions
// become the tree's; the clauses that are the queries' (INSERT's query,
// FROM / USING, WITH) are carried as pt.WriteClause (Src: TiDB's node) until
// the queries move onto the tree. Another statement is 0A000; an
// expression the tree has no node for is ToTree's TransformError.
func DMLToTree(st *Statement, s ast.StmtNode) (pt.Statement, error) {
	var t Transformer
	return t.DMLToTree(st, s)
}

// DMLToTree is the package's DMLToTree.
func (t *Transformer) DMLToTree(st *Statement, s ast.StmtNode) (pt.Statement, error) {
	if s == nil {
		s = st.AST
	}
	switch n := s.(type) {
	case *ast.InsertStmt:
		return t.insertTree(st, n)
	case *ast.UpdateStmt:
		return t.updateTree(st, n)
	case *ast.DeleteStmt:
		return t.deleteTree(st, n)
	}
	return nil, &TransformError{s, sqlerr.New(sqlerr.FeatureNotSupported, "statement %T is not a write", s)}
}

// DMLTree is DMLToTree for the binder, which holds the statement as the
// any its callers hand it (the binder names none of TiDB's types).
func (t *Transformer) DMLTree(st *Statement, s any) (pt.Statement, error) {
	n, _ := s.(ast.StmtNode)
	return t.DMLToTree(st, n)
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

func dmlClause(n ast.Node) *pt.WriteClause {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return nil
	}
	return &pt.WriteClause{At: at(n)}
}

func (t *Transformer) insertTree(st *Statement, n *ast.InsertStmt) (pt.Statement, error) {
	ins := &pt.Insert{At: at(n), Target: dmlClause(n.Table), Alias: st.InsertAlias, Overriding: st.Overriding}
	switch {
	case n.IsReplace:
		ins.Refused = "REPLACE"
	case n.Setlist:
		ins.Refused = "INSERT ... SET"
	}
	if tn, _, ok := dmlTarget(n.Table); ok {
		ins.Table = tableName(tn)
	}
	if len(n.Columns) > 0 {
		ins.Columns = make([]*pt.InsertColumn, len(n.Columns))
		for i, c := range n.Columns {
			ins.Columns[i] = &pt.InsertColumn{At: dmlNameAt(st, c, c.Name.O), Name: c.Name.O}
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
	} else if n.Select != nil {
		ins.Query = dmlClause(n.Select)
		if sel, ok := n.Select.(*ast.SelectStmt); ok {
			ins.QuerySelect = true
			ins.PlainQuery = sel.Kind == ast.SelectStmtKindSelect && !sel.Distinct && sel.GroupBy == nil && sel.Having == nil && sel.OrderBy == nil
			if sel.With != nil && dmlStartsWith(st.Text, "with") {
				ins.With = dmlClause(sel.With)
			}
		}
	}
	if len(n.OnDuplicate) > 0 || st.OnConflictDoNothing || st.ConflictTarget != nil {
		oc := &pt.OnConflict{DoNothing: st.OnConflictDoNothing, Target: st.ConflictTarget, TargetPos: st.ConflictTargetPos}
		var err error
		if oc.Update, err = t.dmlAssignments(st, n.OnDuplicate); err != nil {
			return nil, err
		}
		ins.OnConflict = oc
	}
	var err error
	ins.Returning, err = t.dmlReturning(st)
	return ins, err
}

func (t *Transformer) dmlAssignments(st *Statement, list []*ast.Assignment) ([]*pt.Assignment, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := make([]*pt.Assignment, len(list))
	for i, a := range list {
		v, err := t.toTree(a.Expr)
		if err != nil {
			return nil, err
		}
		out[i] = &pt.Assignment{At: dmlNameAt(st, a.Column, a.Column.Name.O), Table: a.Column.Table.O, Column: a.Column.Name.O, Value: v}
	}
	return out, nil
}

func (t *Transformer) dmlReturning(st *Statement) (*pt.Returning, error) {
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
// into st.DMLFrom (with its WHERE), else the statement's own WHERE.
func (t *Transformer) dmlFromWhere(st *Statement, where ast.ExprNode) (*pt.WriteClause, pt.Expr, error) {
	var from *pt.WriteClause
	if f := st.DMLFrom; f != nil {
		from = &pt.WriteClause{At: pt.At{Offset: f.OriginTextPosition()}}
		if f.From != nil {
			from.Src = f.From
		}
		if where != nil { // the parser moves WHERE along with FROM / USING
			return nil, nil, &TransformError{where, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %q", "WHERE")}
		}
		where = f.Where
	}
	w, err := t.ToTree(where)
	return from, w, err
}

func (t *Transformer) updateTree(st *Statement, n *ast.UpdateStmt) (pt.Statement, error) {
	u := &pt.Update{At: at(n), Target: dmlClause(n.TableRefs), With: dmlClause(dmlWith(n.With)),
		Refused: writeRefusal("UPDATE", n.MultipleTable, n.Order, n.Limit)}
	if tn, alias, ok := dmlTarget(n.TableRefs); ok {
		u.Table, u.Alias = tableName(tn), alias
	}
	var err error
	if u.Set, err = t.dmlAssignments(st, n.List); err != nil {
		return nil, err
	}
	if u.From, u.Where, err = t.dmlFromWhere(st, n.Where); err != nil {
		return nil, err
	}
	if st.CurrentOf != nil {
		u.CurrentOf = st.CurrentOf.Cursor
	}
	u.Returning, err = t.dmlReturning(st)
	return u, err
}

func (t *Transformer) deleteTree(st *Statement, n *ast.DeleteStmt) (pt.Statement, error) {
	d := &pt.Delete{At: at(n), Target: dmlClause(n.TableRefs), With: dmlClause(dmlWith(n.With)),
		Refused: writeRefusal("DELETE", n.IsMultiTable, n.Order, n.Limit)}
	if tn, alias, ok := dmlTarget(n.TableRefs); ok {
		d.Table, d.Alias = tableName(tn), alias
	}
	var err error
	if d.Using, d.Where, err = t.dmlFromWhere(st, n.Where); err != nil {
		return nil, err
	}
	if st.CurrentOf != nil {
		d.CurrentOf = st.CurrentOf.Cursor
	}
	d.Returning, err = t.dmlReturning(st)
	return d, err
}

// dmlWith is w as an ast.Node, nil (not a typed nil) when there is none.
func dmlWith(w *ast.WithClause) ast.Node {
	if w == nil {
		return nil
	}
	return w
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
