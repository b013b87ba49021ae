package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL 15's MERGE, which TiDB's grammar lacks. The rewrite reads the
// statement's clauses itself and hands TiDB their pieces as statements it
// can parse, every piece where it stands in the text (as dml.go does for
// UPDATE ... FROM), so that expressions are TiDB's and every offset maps
// back into the user's text:
//
//	MERGE INTO t AS a USING s ON a.id = s.id
//	  WHEN MATCHED AND s.x > 0 THEN UPDATE SET x = s.x
//	  WHEN NOT MATCHED THEN INSERT (id, x) VALUES (s.id, s.x)
//	-> select * from t AS a , s where a.id = s.id
//	   ; select s.x > 0 ; update merge_target set x = s.x
//	   ; insert into merge_target (id, x) values (s.id, s.x)
//
// A WITH in front (and EXPLAIN [ANALYZE]) stays in front of the first
// SELECT. Statement.Merge says which WHEN clause each extra statement
// belongs to; the transformer (mergeTree) builds the tree's pt.Merge.

// MergeStmt is a MERGE's clauses as the rewrite read them.
type MergeStmt struct {
	Clauses []MergeClause
	// nodes are TiDB's statements of the clauses, in order: each clause's
	// condition (a SELECT, when it has one), then its UPDATE or INSERT.
	nodes []ast.StmtNode
}

// MergeClause is one WHEN clause: its action, whether it has an AND
// condition, INSERT's OVERRIDING and DEFAULT VALUES, and where it starts.
type MergeClause struct {
	Matched       bool
	Action        pt.MergeAction
	HasCond       bool
	Overriding    string
	DefaultValues bool
	Offset        int
}

// mergeAt returns the index of the MERGE keyword of a statement that is a
// MERGE (after EXPLAIN's words and a WITH list), or -1. A table or column
// named merge stands elsewhere: the keyword opens the statement, or follows
// EXPLAIN's options, or the ')' that ends a WITH list.
func mergeAt(src string, toks []token) int {
	m := mergeScan{src: src, toks: toks}
	i := 0
	if toks[0].is(src, "EXPLAIN") {
		i = 1
		if i < len(toks) && toks[i].isPunct(src, "(") {
			i = m.closing(i) + 1
		} else {
			for i < len(toks) && (toks[i].is(src, "ANALYZE") || toks[i].is(src, "ANALYSE") || toks[i].is(src, "VERBOSE")) {
				i++
			}
		}
	}
	if i >= len(toks) {
		return -1
	}
	if toks[i].is(src, "MERGE") {
		return i
	}
	if !toks[i].is(src, "WITH") {
		return -1
	}
	depth := 0
	for j := i + 1; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.isPunct(src, "("):
			depth++
		case t.isPunct(src, ")"):
			depth--
		case depth != 0 || !toks[j-1].isPunct(src, ")"):
		case t.is(src, "MERGE"):
			return j
		case t.is(src, "SELECT") || t.is(src, "VALUES") || t.is(src, "TABLE") || t.is(src, "INSERT") || t.is(src, "UPDATE") || t.is(src, "DELETE"):
			return -1
		}
	}
	return -1
}

// mergeScan walks tokens at bracket and CASE depth zero.
type mergeScan struct {
	src  string
	toks []token
}

// until returns the index of the first token from i on at depth zero that
// is one of words (len(toks) when none).
func (m mergeScan) until(i int, words ...string) int {
	depth, cases := 0, 0
	for ; i < len(m.toks); i++ {
		t := m.toks[i]
		switch {
		case t.isPunct(m.src, "(") || t.isPunct(m.src, "["):
			depth++
		case t.isPunct(m.src, ")") || t.isPunct(m.src, "]"):
			depth--
		case depth != 0:
		case t.is(m.src, "CASE"):
			cases++
		case t.is(m.src, "END") && cases > 0:
			cases--
		case cases != 0:
		default:
			for _, w := range words {
				if t.is(m.src, w) {
					return i
				}
			}
		}
	}
	return i
}

// closing returns the index of the ')' that closes the '(' at i.
func (m mergeScan) closing(i int) int {
	depth := 0
	for ; i < len(m.toks); i++ {
		switch {
		case m.toks[i].isPunct(m.src, "("):
			depth++
		case m.toks[i].isPunct(m.src, ")"):
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// rewriteMerge rewrites a MERGE (toks[at] is its keyword) as above.
func rewriteMerge(src string, toks []token, at int, st *Statement) ([]token, error) {
	m := mergeScan{src: src, toks: toks}
	synth := func(t token, kind tokKind, text string) token {
		return token{kind: kind, start: t.start, end: t.start, lead: t.start, synth: text}
	}
	i := at + 1
	if i >= len(toks) || !toks[i].is(src, "INTO") {
		return nil, syntaxErrorAt(src, toks, i)
	}
	i++
	using := m.until(i, "USING")
	if using == i || using >= len(toks) {
		return nil, syntaxErrorAt(src, toks, using)
	}
	on := m.until(using+1, "ON", "WHEN")
	if on == using+1 || on >= len(toks) || !toks[on].is(src, "ON") {
		return nil, syntaxErrorAt(src, toks, on)
	}
	// The source's own JOIN ... ON clauses come before MERGE's ON: the
	// last top-level ON before the first WHEN is MERGE's.
	firstWhen := m.until(on+1, "WHEN")
	for j := m.until(on+1, "ON"); j < firstWhen; j = m.until(j+1, "ON") {
		on = j
	}
	if firstWhen == on+1 || firstWhen >= len(toks) {
		return nil, syntaxErrorAt(src, toks, firstWhen)
	}
	out := make([]token, 0, len(toks)+16)
	out = append(out, toks[:at]...)
	out = append(out, synth(toks[at], tkIdent, "select"), synth(toks[at], tkOp, "*"), synth(toks[at], tkIdent, "from"))
	out = append(out, toks[i:using]...)
	out = append(out, synth(toks[using], tkPunct, ","))
	// a join as the source is parenthesised, so that TiDB's FROM list
	// holds the target and the source side by side
	joined := m.until(using+1, "JOIN") < on
	if joined {
		out = append(out, synth(toks[using+1], tkPunct, "("))
	}
	out = append(out, toks[using+1:on]...)
	if joined {
		out = append(out, synth(toks[on], tkPunct, ")"))
	}
	out = append(out, synth(toks[on], tkIdent, "where"))
	out = append(out, toks[on+1:firstWhen]...)
	ms := &MergeStmt{}
	for i = firstWhen; i < len(toks); {
		if !toks[i].is(src, "WHEN") {
			return nil, syntaxErrorAt(src, toks, i)
		}
		c := MergeClause{Offset: toks[i].start, Matched: true}
		i++
		if i < len(toks) && toks[i].is(src, "NOT") {
			c.Matched = false
			i++
		}
		if i >= len(toks) || !toks[i].is(src, "MATCHED") {
			return nil, syntaxErrorAt(src, toks, i)
		}
		i++
		if i < len(toks) && toks[i].is(src, "AND") {
			then := m.until(i+1, "THEN", "WHEN")
			if then == i+1 || then >= len(toks) || !toks[then].is(src, "THEN") {
				return nil, syntaxErrorAt(src, toks, then)
			}
			c.HasCond = true
			out = append(out, synth(toks[i], tkPunct, ";"), synth(toks[i], tkIdent, "select"))
			out = append(out, toks[i+1:then]...)
			i = then
		}
		if i >= len(toks) || !toks[i].is(src, "THEN") {
			return nil, syntaxErrorAt(src, toks, i)
		}
		i++
		if i >= len(toks) {
			return nil, syntaxErrorAt(src, toks, i)
		}
		verb := toks[i]
		switch {
		case c.Matched && verb.is(src, "UPDATE"):
			c.Action = pt.MergeUpdate
			if i+1 >= len(toks) || !toks[i+1].is(src, "SET") {
				return nil, syntaxErrorAt(src, toks, i+1)
			}
			end := m.until(i+2, "WHEN", "RETURNING")
			if end == i+2 {
				return nil, syntaxErrorAt(src, toks, end)
			}
			// the SET list as UPDATE's: SET (a, b) = (..) | (SELECT ..)
			// expanded (upsert.go)
			set, err := rewriteMultiAssign(src, toks[:end:end], i+2, end)
			if err != nil {
				return nil, err
			}
			out = append(out, synth(verb, tkPunct, ";"), verb, synth(verb, tkIdent, "merge_target"))
			out = append(out, set[i+1:]...)
			i = end
		case c.Matched && verb.is(src, "DELETE"):
			c.Action = pt.MergeDelete
			i++
		case verb.is(src, "DO"):
			if i+1 >= len(toks) || !toks[i+1].is(src, "NOTHING") {
				return nil, syntaxErrorAt(src, toks, i+1)
			}
			c.Action = pt.MergeNothing
			i += 2
		case !c.Matched && verb.is(src, "INSERT"):
			c.Action = pt.MergeInsert
			out = append(out, synth(verb, tkPunct, ";"), verb, synth(verb, tkIdent, "into"), synth(verb, tkIdent, "merge_target"))
			i++
			bare := i // DEFAULT VALUES stands right after INSERT only
			if i < len(toks) && toks[i].isPunct(src, "(") {
				cl := m.closing(i)
				if cl >= len(toks) {
					return nil, syntaxErrorAt(src, toks, cl)
				}
				out = append(out, toks[i:cl+1]...)
				i = cl + 1
			}
			if i < len(toks) && toks[i].is(src, "OVERRIDING") {
				if i+2 >= len(toks) || !(toks[i+1].is(src, "SYSTEM") || toks[i+1].is(src, "USER")) {
					return nil, syntaxErrorAt(src, toks, i+1)
				}
				if !toks[i+2].is(src, "VALUE") {
					return nil, syntaxErrorAt(src, toks, i+2)
				}
				c.Overriding = strings.ToLower(toks[i+1].text(src))
				i += 3
			}
			switch {
			case i < len(toks) && toks[i].is(src, "DEFAULT"):
				if i != bare {
					return nil, syntaxErrorAt(src, toks, i)
				}
				if i+1 >= len(toks) || !toks[i+1].is(src, "VALUES") {
					return nil, syntaxErrorAt(src, toks, i+1)
				}
				c.DefaultValues = true
				t := toks[i]
				out = append(out, synth(t, tkIdent, "values"), synth(t, tkPunct, "("), synth(t, tkPunct, ")"))
				i += 2
			case i < len(toks) && toks[i].is(src, "VALUES"):
				if i+1 >= len(toks) || !toks[i+1].isPunct(src, "(") {
					return nil, syntaxErrorAt(src, toks, i+1)
				}
				if i+2 < len(toks) && toks[i+2].isPunct(src, ")") {
					return nil, syntaxErrorAt(src, toks, i+2) // VALUES () is no row in PostgreSQL
				}
				cl := m.closing(i + 1)
				if cl >= len(toks) {
					return nil, syntaxErrorAt(src, toks, cl)
				}
				out = append(out, toks[i:cl+1]...)
				i = cl + 1
			default:
				return nil, syntaxErrorAt(src, toks, i)
			}
		default:
			return nil, syntaxErrorAt(src, toks, i)
		}
		ms.Clauses = append(ms.Clauses, c)
	}
	st.Merge = ms
	return out, nil
}

// takeMerge moves the clauses' statements out of nodes (the first is the
// MERGE's own SELECT, or EXPLAIN of it).
func (ms *MergeStmt) take(nodes []ast.StmtNode) ([]ast.StmtNode, error) {
	want := 1
	for _, c := range ms.Clauses {
		if c.HasCond {
			want++
		}
		if c.Action == pt.MergeUpdate || c.Action == pt.MergeInsert {
			want++
		}
	}
	if len(nodes) != want {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error in MERGE")
	}
	ms.nodes = nodes[1:]
	return nodes[:1], nil
}

// mergeTree transforms a MERGE (st.AST its SELECT, or EXPLAIN of it).
func (t queryTransformer) mergeTree(st *Statement, sel *ast.SelectStmt) (*pt.Merge, error) {
	m := &pt.Merge{At: at(sel)}
	var err error
	if sel.With != nil {
		if sel.With.IsRecursive {
			return nil, sqlerr.New(sqlerr.SyntaxError, "WITH RECURSIVE is not supported for MERGE statement") // 42601, as PostgreSQL 15
		}
		if m.With, err = t.with(sel.With); err != nil {
			return nil, err
		}
	}
	if sel.From == nil || sel.From.TableRefs == nil || sel.From.TableRefs.Right == nil {
		return nil, refusal(sel, sqlerr.New(sqlerr.SyntaxError, "syntax error in MERGE"))
	}
	j := sel.From.TableRefs
	left := j.Left
	if lj, ok := left.(*ast.Join); ok && lj.Right == nil {
		left = lj.Left
	}
	target, ok := left.(*ast.TableSource)
	if !ok {
		return nil, refusal(sel, sqlerr.New(sqlerr.SyntaxError, "syntax error in MERGE"))
	}
	if tn, ok := target.Source.(*ast.TableName); ok {
		m.Table, m.Alias = tableName(tn), target.AsName.O
	}
	if m.Target, err = t.from(&ast.Join{Left: left}); err != nil {
		return nil, err
	}
	source := j.Right
	if sj, ok := source.(*ast.Join); ok && sj.Right == nil {
		source = sj.Left
	}
	if m.Source, err = t.from(&ast.Join{Left: source}); err != nil {
		return nil, err
	}
	if m.On, err = t.ToTree(sel.Where); err != nil {
		return nil, err
	}
	nodes := st.Merge.nodes
	next := func() ast.StmtNode {
		n := nodes[0]
		nodes = nodes[1:]
		return n
	}
	for _, c := range st.Merge.Clauses {
		mc := &pt.MergeClause{At: pt.At{Offset: c.Offset}, Matched: c.Matched, Action: c.Action, Overriding: c.Overriding}
		if c.HasCond {
			s, ok := next().(*ast.SelectStmt)
			if !ok || s.Fields == nil || len(s.Fields.Fields) != 1 || s.From != nil || !plainSelect(s) || s.Fields.Fields[0].WildCard != nil {
				return nil, refusal(sel, sqlerr.New(sqlerr.SyntaxError, "syntax error in a WHEN condition of MERGE"))
			}
			if mc.Cond, err = t.ToTree(s.Fields.Fields[0].Expr); err != nil {
				return nil, err
			}
		}
		switch c.Action {
		case pt.MergeUpdate:
			u, ok := next().(*ast.UpdateStmt)
			if !ok || u.Where != nil || u.Order != nil || u.Limit != nil {
				return nil, refusal(sel, sqlerr.New(sqlerr.SyntaxError, "syntax error in UPDATE of MERGE"))
			}
			if mc.Set, err = t.dmlAssignments(st, u.List); err != nil {
				return nil, err
			}
		case pt.MergeInsert:
			ins, ok := next().(*ast.InsertStmt)
			if !ok || ins.Select != nil || len(ins.Lists) != 1 || len(ins.OnDuplicate) > 0 {
				return nil, refusal(sel, sqlerr.New(sqlerr.SyntaxError, "syntax error in INSERT of MERGE"))
			}
			for _, col := range ins.Columns {
				mc.Columns = append(mc.Columns, &pt.InsertColumn{At: dmlNameAt(st, col, col.Name.O), Name: col.Name.O})
			}
			if mc.Values, err = t.exprs(ins.Lists[0]); err != nil {
				return nil, err
			}
			if mc.Values == nil && !c.DefaultValues {
				mc.Values = []pt.Expr{}
			}
		}
		m.Clauses = append(m.Clauses, mc)
	}
	if err := t.subqueries(m); err != nil {
		return nil, err
	}
	return m, nil
}

// mergeStatement transforms st when it is a MERGE or EXPLAIN of one (ok
// false otherwise).
func (t *Transformer) mergeStatement(st *Statement) (pt.Statement, bool, error) {
	if st.Merge == nil {
		return nil, false, nil
	}
	qt := queryTransformer{Transformer: t, st: st}
	switch n := st.AST.(type) {
	case *ast.SelectStmt:
		m, err := qt.mergeTree(st, n)
		return m, true, err
	case *ast.ExplainStmt:
		if sel, ok := n.Stmt.(*ast.SelectStmt); ok {
			m, err := qt.mergeTree(st, sel)
			if err != nil {
				return nil, true, err
			}
			return &pt.Explain{At: at(n), Analyze: n.Analyze, Stmt: m}, true, nil
		}
	}
	return nil, true, sqlerr.New(sqlerr.SyntaxError, "syntax error in MERGE")
}

// rewriteMergeStatement rewrites a MERGE whose keyword is toks[at]: after
// EXPLAIN's own rewrite when it explains one (the words in front stay).
func rewriteMergeStatement(src string, toks []token, at int, st *Statement) ([]token, error) {
	if toks[0].is(src, "EXPLAIN") {
		n := len(toks)
		out, err := rewriteExplain(src, toks, st)
		if err != nil {
			return nil, err
		}
		toks, at = out, at+len(out)-n
	}
	return rewriteMerge(src, toks, at, st)
}
