package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// PostgreSQL's DML clauses that TiDB's MySQL grammar lacks.
//
// RETURNING, UPDATE ... FROM and DELETE ... USING are moved into extra
// SELECT statements appended to the rewritten text, so TiDB parses them
// with its own expression grammar and every AST offset still maps into
// the user's text through the one offset map:
//
//	UPDATE t SET a = o.a FROM o WHERE o.id = t.id RETURNING t.*
//	-> update t set a = o.a ; select * from o where o.id = t.id ; select t.*
//	DELETE FROM t USING o WHERE o.id = t.id
//	-> delete from t ; select * from o where o.id = t.id
//
// No clause moves: each keeps its place in the text, only the keyword
// in front of it changes, so nothing is reordered. The binder reads the
// extra statements from Statement.DMLFrom and Statement.Returning.

// dmlTail records which extra statements rewriteDML appended.
type dmlTail struct {
	from, returning bool
}

// rewriteDML rewrites the RETURNING clause of INSERT/UPDATE/DELETE, the
// FROM list of UPDATE and the USING list of DELETE (see above).
func rewriteDML(src string, toks []token, st *Statement) ([]token, error) {
	at := dmlVerb(src, toks)
	if at < 0 {
		return toks, nil
	}
	verb := toks[at].word(src)
	if verb == "INSERT" {
		var err error
		if toks, err = rewriteInsertTargets(src, toks, at); err != nil { // upsert.go
			return nil, err
		}
	}
	if verb == "UPDATE" {
		var err error
		if toks, err = rewriteUpdateSet(src, toks, at); err != nil { // upsert.go
			return nil, err
		}
	}
	fromAt, retAt, setSeen, whereSeen := -1, -1, false, false
	for i := range topLevel(src, toks, at+1, len(toks)) {
		t := toks[i]
		switch {
		case t.is(src, "RETURNING"):
			if retAt < 0 {
				retAt = i
			}
		case retAt >= 0:
		case t.is(src, "WHERE"):
			// FROM / USING after WHERE is PostgreSQL's syntax error too:
			// leave it where it is for TiDB to reject
			whereSeen = true
		case whereSeen:
		case verb == "UPDATE" && t.is(src, "SET"):
			setSeen = true
		case verb == "UPDATE" && setSeen && fromAt < 0 && t.is(src, "FROM") && !toks[i-1].is(src, "DISTINCT"):
			// (SET b = x IS DISTINCT FROM y: that FROM is the operator's)
			fromAt = i
		case verb == "DELETE" && i > at+2 && fromAt < 0 && t.is(src, "USING"):
			fromAt = i
		}
	}
	if fromAt < 0 && retAt < 0 {
		return toks, nil
	}
	if i := misplacedClause(src, toks, fromAt, retAt); i >= 0 {
		return nil, syntaxErrorAt(src, toks, i)
	}
	synth := func(at token, kind tokKind, text string) token {
		return token{kind: kind, start: at.start, end: at.start, lead: at.start, synth: text}
	}
	out := make([]token, 0, len(toks)+8)
	end := len(toks)
	if retAt >= 0 {
		end = retAt
	}
	if fromAt >= 0 {
		t := toks[fromAt]
		out = append(out, toks[:fromAt]...)
		out = append(out, synth(t, tkPunct, ";"), synth(t, tkIdent, "select"), synth(t, tkOp, "*"))
		if verb == "DELETE" {
			out = append(out, synth(t, tkIdent, "from"))
		} else {
			out = append(out, t)
		}
		out = append(out, toks[fromAt+1:end]...)
		st.tail.from = true
	} else {
		out = append(out, toks[:end]...)
	}
	if retAt >= 0 {
		t := toks[retAt]
		out = append(out, synth(t, tkPunct, ";"), synth(t, tkIdent, "select"))
		out = append(out, toks[retAt+1:]...)
		st.tail.returning = true
	}
	return out, nil
}

// misplacedClause returns the index of the first top-level keyword that
// PostgreSQL's grammar does not allow in a FROM (USING) list or after
// RETURNING, where a SELECT would take it, or -1: the error then points
// where PostgreSQL's does.
func misplacedClause(src string, toks []token, fromAt, retAt int) int {
	end := len(toks)
	if retAt >= 0 {
		end = retAt
	}
	bad := func(from, to int, returning bool) int {
		for i := range topLevel(src, toks, from, to) {
			t := toks[i]
			switch {
			case t.is(src, "GROUP"), t.is(src, "HAVING"), t.is(src, "ORDER"), t.is(src, "LIMIT"), t.is(src, "OFFSET"),
				t.is(src, "UNION"), t.is(src, "INTERSECT"), t.is(src, "EXCEPT"), t.is(src, "WINDOW"), t.is(src, "FETCH"):
				return i
			case returning && (t.is(src, "WHERE") || t.is(src, "INTO") || t.is(src, "FROM") && !toks[i-1].is(src, "DISTINCT")):
				return i
			}
		}
		return -1
	}
	if fromAt >= 0 {
		if i := bad(fromAt+1, end, false); i >= 0 {
			return i
		}
	}
	if retAt >= 0 {
		return bad(retAt+1, len(toks), true)
	}
	return -1
}

// dmlVerb returns the index of the INSERT, UPDATE or DELETE keyword of a
// statement, after a WITH clause (whose queries are parenthesised), or -1.
func dmlVerb(src string, toks []token) int {
	depth := 0
	for i, t := range toks {
		switch {
		case t.isPunct(src, "("):
			depth++
		case t.isPunct(src, ")"):
			depth--
		case depth != 0:
		case t.is(src, "INSERT") || t.is(src, "UPDATE") || t.is(src, "DELETE"):
			return i
		case t.is(src, "SELECT") || t.is(src, "VALUES") || t.is(src, "TABLE"):
			return -1
		}
		if i == 0 && !t.is(src, "WITH") {
			return -1
		}
	}
	return -1
}

// takeTail moves the extra statements rewriteDML asked for from nodes into
// st, returning the main statement's nodes.
// A statement that is not of the expected shape (RETURNING 1 UNION ...,
// FROM o ORDER BY x) stays in nodes, which the caller rejects as a syntax
// error, as PostgreSQL's grammar does.
func (st *Statement) takeTail(nodes []ast.StmtNode) []ast.StmtNode {
	if st.tail.returning && len(nodes) > 1 {
		if sel, ok := nodes[len(nodes)-1].(*ast.SelectStmt); ok && plainSelect(sel) && sel.From == nil && sel.Where == nil {
			st.Returning = sel.Fields
			nodes = nodes[:len(nodes)-1]
		}
	}
	if st.tail.from && len(nodes) > 1 {
		if sel, ok := nodes[len(nodes)-1].(*ast.SelectStmt); ok && plainSelect(sel) {
			st.DMLFrom = sel
			nodes = nodes[:len(nodes)-1]
		}
	}
	return nodes
}

// plainSelect reports whether sel has no clause beyond its list, FROM and
// WHERE.
func plainSelect(sel *ast.SelectStmt) bool {
	return !sel.Distinct && sel.GroupBy == nil && sel.Having == nil && sel.WindowSpecs == nil && sel.OrderBy == nil &&
		sel.Limit == nil && sel.LockInfo == nil && sel.SelectIntoOpt == nil && sel.With == nil && sel.Kind == ast.SelectStmtKindSelect &&
		len(sel.TableHints) == 0
}

// rewriteSymmetric turns x BETWEEN SYMMETRIC a AND b into x BETWEEN
// pg__symmetric(a) AND b (the binder swaps the bounds as PostgreSQL does)
// and drops ASYMMETRIC, the default. The lower bound of BETWEEN cannot
// hold a top-level AND, so the first AND at its bracket and CASE depth ends
// it.
func rewriteSymmetric(src string, toks []token) []token {
	found := false
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].is(src, "BETWEEN") && (toks[i+1].is(src, "SYMMETRIC") || toks[i+1].is(src, "ASYMMETRIC")) {
			found = true
			break
		}
	}
	if !found {
		return toks
	}
	out := make([]token, 0, len(toks)+4)
	// closeAt[k] is set when a ')' must be inserted before toks[k].
	closeAt := map[int]bool{}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if closeAt[i] {
			out = append(out, token{kind: tkPunct, start: t.start, end: t.start, lead: t.start, synth: ")"})
		}
		out = append(out, t)
		if !t.is(src, "BETWEEN") || i+1 >= len(toks) {
			continue
		}
		next := toks[i+1]
		if next.is(src, "ASYMMETRIC") {
			i++
			continue
		}
		if !next.is(src, "SYMMETRIC") {
			continue
		}
		and := -1
		depth := 0
		for k := i + 2; k < len(toks) && and < 0; k++ {
			switch {
			case toks[k].isPunct(src, "(") || toks[k].isPunct(src, "[") || toks[k].is(src, "CASE"):
				depth++
			case toks[k].isPunct(src, ")") || toks[k].isPunct(src, "]") || toks[k].is(src, "END"):
				depth--
			case depth == 0 && toks[k].is(src, "AND"):
				and = k
			}
			if depth < 0 {
				break
			}
		}
		if and < 0 {
			continue // no AND: leave SYMMETRIC for TiDB to reject
		}
		out = append(out, token{kind: tkIdent, start: next.start, end: next.start, lead: next.lead, synth: "pg__symmetric"},
			token{kind: tkPunct, start: next.end, end: next.end, lead: next.end, synth: "("})
		closeAt[and] = true
		i++
	}
	return out
}

// rewriteInsertAlias removes the alias of INSERT INTO t AS alias, which
// TiDB's grammar lacks, recording it in st.InsertAlias.
func rewriteInsertAlias(src string, toks []token, st *Statement) []token {
	if len(toks) < 5 || !toks[0].is(src, "INSERT") || !toks[1].is(src, "INTO") {
		return toks
	}
	i := 3 // after the table name
	if i+1 < len(toks) && toks[i].isPunct(src, ".") {
		i += 2
	}
	if i+1 >= len(toks) || !toks[i].is(src, "AS") {
		return toks
	}
	alias, ok := identName(src, toks[i+1])
	if !ok {
		return toks
	}
	st.InsertAlias = alias
	return append(append(make([]token, 0, len(toks)-2), toks[:i]...), toks[i+2:]...)
}
