package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// A query's LIMIT / OFFSET / FETCH tail in PostgreSQL's forms. TiDB's
// grammar takes only LIMIT n [OFFSET m] with n and m an unsigned integer
// or a parameter; PostgreSQL takes any expression (LIMIT 2+3, LIMIT
// (SELECT 3), OFFSET $1*2), LIMIT ALL, LIMIT NULL, OFFSET n ROW|ROWS, the
// clauses in either order, and FETCH FIRST|NEXT [n] ROW|ROWS ONLY | WITH
// TIES. A tail TiDB cannot parse is replaced by the marker
//
//	ORDER BY pg__limit('only'|'ties', count, offset)
//
// (appended to the query's ORDER BY as its last item when it has one),
// count or offset pg__open() when absent and NULL for LIMIT ALL (as
// PostgreSQL's grammar makes it). QueryToTree takes the marker back out
// into QueryClauses (LimitMarker), so the tree and everything after it see
// PostgreSQL's clauses.

// LimitMarker is the name of the marker function of a LIMIT / OFFSET /
// FETCH tail TiDB's grammar cannot read.
const LimitMarker = "pg__limit"

// limitTail is a parsed tail: token ranges [from, to) of the count and
// offset expressions (from < 0: absent).
type limitTail struct {
	count, offset [2]int
	countAll      bool // LIMIT ALL
	fetchOne      bool // FETCH FIRST ROW ONLY: the count 1 is implicit
	ties          bool
	tidb          bool // LIMIT n [OFFSET m] as TiDB reads them
	end           int  // the token after the tail
}

// limitTailEnds are the words that end a LIMIT or OFFSET expression at
// its query's level.
var limitTailEnds = map[string]bool{
	"LIMIT": true, "OFFSET": true, "FETCH": true, "FOR": true, "ON": true, "WITH": true,
	"RETURNING": true, "UNION": true, "INTERSECT": true, "EXCEPT": true,
}

// limitExprEnd is the end of the expression starting at token s: the
// first token at its level that ends it, or j.
func (r *rewriter) limitExprEnd(s, j int) int {
	for k := s; k < j; k++ {
		t := r.toks[k]
		switch {
		case t.isPunct(r.src, "(") || t.isPunct(r.src, "["):
			m := r.matchClose(k, j)
			if m < 0 {
				return j
			}
			k = m
		case t.isPunct(r.src, ",") || t.isPunct(r.src, ";") || t.isPunct(r.src, ")"):
			return k
		case t.kind == tkIdent && limitTailEnds[t.word(r.src)]:
			return k
		}
	}
	return j
}

// parseLimitTail parses the tail starting at token k (LIMIT, OFFSET or
// FETCH) and ending before j.
func (r *rewriter) parseLimitTail(k, j int) (limitTail, error) {
	lt := limitTail{count: [2]int{-1, -1}, offset: [2]int{-1, -1}, end: k}
	var words []string
	simple := func(rg [2]int) bool {
		if rg[0] < 0 {
			return true
		}
		if rg[1]-rg[0] != 1 {
			return false
		}
		t := r.toks[rg[0]]
		if t.kind == tkParam {
			return true
		}
		if t.kind != tkNumber {
			return false
		}
		for _, c := range t.text(r.src) {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	pos := k
	for pos < j {
		t := r.toks[pos]
		w := t.word(r.src)
		switch w {
		case "LIMIT":
			if lt.count[0] >= 0 || lt.countAll || lt.fetchOne {
				return lt, r.errNear(pos)
			}
			e := r.limitExprEnd(pos+1, j)
			if e == pos+1 {
				return lt, r.errNear(e)
			}
			if e < j && r.toks[e].isPunct(r.src, ",") {
				return lt, sqlerr.New(sqlerr.SyntaxError, "LIMIT #,# syntax is not supported").
					WithHint("Use separate LIMIT and OFFSET clauses.").WithPosition(charPos(r.src, t.start))
			}
			if e == pos+2 && r.toks[pos+1].is(r.src, "ALL") {
				lt.countAll = true
			} else {
				lt.count = [2]int{pos + 1, e}
			}
			pos = e
		case "OFFSET":
			if lt.offset[0] >= 0 {
				return lt, r.errNear(pos)
			}
			e := r.limitExprEnd(pos+1, j)
			if e == pos+1 {
				return lt, r.errNear(e)
			}
			to := e
			if e-pos > 2 && (r.toks[e-1].is(r.src, "ROW") || r.toks[e-1].is(r.src, "ROWS")) {
				// OFFSET n ROW | ROWS takes FETCH's value (a c_expr or a
				// signed number), not any expression
				end, err := r.fetchValueEnd(pos+1, e)
				if err != nil {
					return lt, err
				}
				to = end
				w = "OFFSET ROWS"
			}
			lt.offset = [2]int{pos + 1, to}
			pos = e
		case "FETCH":
			if lt.count[0] >= 0 || lt.countAll || lt.fetchOne {
				return lt, r.errNear(pos)
			}
			if pos+1 >= j || !(r.toks[pos+1].is(r.src, "FIRST") || r.toks[pos+1].is(r.src, "NEXT")) {
				return lt, r.errNear(pos + 1)
			}
			s := pos + 2
			e, err := r.fetchValueEnd(s, j)
			if err != nil {
				return lt, err
			}
			if e == s {
				lt.fetchOne = true
			} else {
				lt.count = [2]int{s, e}
			}
			// e is ROW or ROWS
			switch {
			case e+1 < j && r.toks[e+1].is(r.src, "ONLY"):
				pos = e + 2
			case e+2 < j && r.toks[e+1].is(r.src, "WITH") && r.toks[e+2].is(r.src, "TIES"):
				lt.ties = true
				pos = e + 3
			default:
				return lt, r.errNear(e + 1)
			}
		default:
			lt.end = pos
			lt.tidb = lt.tidbForm(words, simple)
			return lt, nil
		}
		words = append(words, w)
	}
	lt.end = pos
	lt.tidb = lt.tidbForm(words, simple)
	return lt, nil
}

// tidbForm reports whether the tail is one TiDB's grammar reads as
// PostgreSQL does (then it is left as it is).
func (lt *limitTail) tidbForm(words []string, simple func([2]int) bool) bool {
	if lt.ties || lt.countAll || lt.fetchOne || !simple(lt.count) || !simple(lt.offset) {
		return false
	}
	// (OFFSET alone, which TiDB's grammar does not take, is the marker's)
	switch len(words) {
	case 1:
		return words[0] == "LIMIT"
	case 2:
		return words[0] == "LIMIT" && words[1] == "OFFSET"
	}
	return false
}

// fetchValueEnd finds the ROW or ROWS ending FETCH FIRST's count, which
// starts at token s: PostgreSQL's select_fetch_first_value, a c_expr (a
// constant, a parameter, a name, a call or a parenthesised expression) or a
// signed number; anything else is its syntax error.
func (r *rewriter) fetchValueEnd(s, j int) (int, error) {
	k := s
	if k < j && (r.toks[k].isPunct(r.src, "+") || r.toks[k].isPunct(r.src, "-")) {
		k++
		if k >= j || r.toks[k].kind != tkNumber {
			return 0, r.errNear(k)
		}
		k++
	} else if k < j && !(r.toks[k].is(r.src, "ROW") || r.toks[k].is(r.src, "ROWS")) {
		t := r.toks[k]
		switch {
		case t.isPunct(r.src, "("):
			m := r.matchClose(k, j)
			if m < 0 {
				return 0, r.errNear(j)
			}
			k = m + 1
		case t.kind == tkIdent || t.kind == tkQIdent:
			k++
			for k+1 < j && r.toks[k].isPunct(r.src, ".") {
				k += 2
			}
			if k < j && r.toks[k].isPunct(r.src, "(") {
				m := r.matchClose(k, j)
				if m < 0 {
					return 0, r.errNear(j)
				}
				k = m + 1
			}
		case t.kind == tkNumber || t.kind == tkParam || t.kind == tkString || t.kind == tkEString || t.kind == tkDollar:
			k++
		default:
			return 0, r.errNear(k)
		}
	}
	if k >= j || !(r.toks[k].is(r.src, "ROW") || r.toks[k].is(r.src, "ROWS")) {
		return 0, r.errNear(k)
	}
	return k, nil
}

// limitTailItem rewrites the tail lt (starting at token k) into the
// pg__limit marker, as the ORDER BY's last item when out (the query's
// items so far, at its level) has an ORDER BY.
func (r *rewriter) limitTailItem(out []item, k int, lt limitTail) (item, error) {
	hasOrder := r.walkLevelBack(out, func(_ int, t token) bool { return t.is(r.src, "ORDER") }) == levelStopped
	if lt.ties && !hasOrder {
		return item{}, sqlerr.New(sqlerr.SyntaxError, "WITH TIES cannot be specified without ORDER BY clause")
	}
	t := r.toks[k]
	b := newComposite(r.leadOf(t))
	if hasOrder {
		b.add(", "+LimitMarker+"(", t.start)
	} else {
		b.add("ORDER BY "+LimitMarker+"(", t.start)
	}
	if lt.ties {
		b.add("'ties', ", t.start)
	} else {
		b.add("'only', ", t.start)
	}
	operand := func(rg [2]int, none string) error {
		if rg[0] < 0 {
			b.add(none, t.start)
			return nil
		}
		items, err := r.run(rg[0], rg[1])
		if err != nil {
			return err
		}
		b.add("(", r.toks[rg[0]].start)
		b.addItems(items, true)
		b.add(")", r.toks[rg[1]-1].end)
		return nil
	}
	switch {
	case lt.countAll:
		b.add("NULL", t.start)
	case lt.fetchOne:
		b.add("1", t.start)
	default:
		if err := operand(lt.count, "pg__open()"); err != nil {
			return item{}, err
		}
	}
	b.add(", ", t.start)
	if err := operand(lt.offset, "pg__open()"); err != nil {
		return item{}, err
	}
	b.add(")", t.start)
	return b.it, nil
}

// splitLimitMarker takes the pg__limit marker (limitTailItem) off the end
// of an ORDER BY's items: the order left (nil when the marker was its
// only item) and the marker (nil when there is none).
func splitLimitMarker(order *ast.OrderByClause) (*ast.OrderByClause, *ast.FuncCallExpr) {
	if order == nil || len(order.Items) == 0 {
		return order, nil
	}
	last := order.Items[len(order.Items)-1]
	f, ok := last.Expr.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != LimitMarker || len(f.Args) != 3 {
		return order, nil
	}
	if len(order.Items) == 1 {
		return nil, f
	}
	rest := *order
	rest.Items = order.Items[:len(order.Items)-1]
	return &rest, f
}

// limitMarkerToTree fills c's LIMIT, OFFSET and WITH TIES from the marker.
func (t *Transformer) limitMarkerToTree(c *pt.QueryClauses, f *ast.FuncCallExpr) error {
	kind, _ := markerString(f.Args[0])
	c.WithTies = kind == "ties"
	c.LimitAt = f.OriginTextPosition()
	operand := func(e ast.ExprNode) (pt.Expr, error) {
		if g, ok := e.(*ast.FuncCallExpr); ok && g.FnName.L == "pg__open" && len(g.Args) == 0 {
			return nil, nil
		}
		return t.ToTree(e)
	}
	var err error
	if c.Limit, err = operand(f.Args[1]); err != nil {
		return err
	}
	c.Offset, err = operand(f.Args[2])
	return err
}
