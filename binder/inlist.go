package binder

import (
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindInList binds x IN (a, b, ...) and x NOT IN (a, b, ...) as
// PostgreSQL's transformAExprIn does. When two or more items read no
// column of this query and have, with x, a common type (not a record),
// they are converted to it and compared with x as x = ANY (ARRAY[...])
// would compare them: '01' IN ('1', 2) is true (all integers), where a
// comparison per item compared '01' with '1' as text; their comparisons
// are joined by Eager ORs (ANDs), which compute every item before any
// comparison decides, as PostgreSQL builds the array first (so 1 IN (1,
// now()::text::int) fails, where an OR would stop at 1 = 1). The other items
// (those reading columns, or all when there is no such type) are compared
// one by one, x = a OR x = b ..., with SQL's three-valued logic; NOT IN
// is x <> a AND x <> b ... (its errors name <>). x is bound once per
// comparison, as the expansion would bind it, so every comparison types
// its own copy (a parameter or literal x takes each item's type in turn,
// as PostgreSQL's does). Errors point at the IN (or NOT) keyword, the
// place PostgreSQL gives the expansion's operators.
func (b *binder) bindInList(s *scope, n *pt.InList) (Expr, error) {
	if len(n.List) == 0 {
		return nil, b.errAt(n, sqlerr.NotSupported("IN with an empty list"))
	}
	at := &expansion{b: b, from: n, end: n.List[0].Pos(), kw: "in"}
	cmp, join := OpEq, OpOr
	if n.Not {
		cmp, join = OpNe, OpAnd
	}
	var e Expr
	add := func(c Expr) (err error) {
		if e == nil {
			e = c
		} else {
			e, err = b.makeBinary(at, join, e, c)
		}
		return err
	}
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	items := make([]Expr, len(n.List))
	for i, item := range n.List {
		if items[i], err = b.bindTree(s, item); err != nil {
			return nil, err
		}
	}
	pairwise, err := b.inListArray(at, x, items, cmp, add)
	if err != nil {
		return nil, err
	}
	for _, item := range pairwise {
		l, err := b.bindTree(s, n.X)
		if err != nil {
			return nil, err
		}
		c, err := b.makeBinary(at, cmp, l, item)
		if err != nil {
			return nil, err
		}
		if err := add(c); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// inListArray compares x with the items of x IN (...) that read no column
// of this query, converted to their common type with x (PostgreSQL's
// ScalarArrayOpExpr branch), handing each comparison to add, and returns
// the items left to compare one by one: those that read columns, or all
// when fewer than two do not or they have no common type.
func (b *binder) inListArray(at sourceNode, x Expr, items []Expr, cmp Op, add func(Expr) error) ([]Expr, error) {
	// room for x too (all, below): one allocation for the list
	consts := make([]Expr, 0, len(items)+1)
	var vars []Expr
	for _, e := range items {
		if readsColumns(e) {
			vars = append(vars, e)
		} else {
			consts = append(consts, e)
		}
	}
	if len(consts) < 2 {
		return items, nil
	}
	// the common type of x and then the items (transformAExprIn's
	// select_common_type: where two types convert to each other, as
	// regconfig and oid, x's is kept); x converted last: PostgreSQL
	// converts the items (building the array) before x (resolving the
	// operator), so an item's error comes first
	all := append(consts, x)
	ins := make([]types.T, 0, len(all))
	ins = append(ins, b.commonInputType(x))
	for _, e := range consts {
		ins = append(ins, b.commonInputType(e))
	}
	t, _, noType := selectCommonType("IN", ins, false) // exprops.go
	if noType != nil || t.Kind == types.Row {
		return items, nil // no array of them: one comparison per item
	}
	unified, err := b.unifyTo(at, all, nil, t) // conditional.go
	if err != nil {
		return nil, err
	}
	ux := unified[len(consts)]
	join := OpOr
	if cmp == OpNe {
		join = OpAnd
	}
	// one chain of Eager joins: every item is computed before any
	// comparison decides, as PostgreSQL's array is built first
	var group Expr
	for _, item := range unified[:len(consts)] {
		c, err := b.makeBinary(at, cmp, ux, item)
		if err != nil {
			return nil, err
		}
		if group == nil {
			group = c
			continue
		}
		if group, err = b.makeBinary(at, join, group, c); err != nil {
			return nil, err
		}
		if j, ok := group.(*BinaryOp); ok {
			j.Eager = true
		}
	}
	if err := add(group); err != nil {
		return nil, err
	}
	return vars, nil
}

// readsColumns reports whether e reads a column of this query (a
// correlated subquery's outer values included): PostgreSQL's
// contain_vars_of_level(e, 0).
func readsColumns(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		if _, ok := x.(*ColumnRef); ok {
			found = true
		}
	})
	return found
}

// bindBetween binds x BETWEEN a AND b as x >= a AND x <= b, and x NOT
// BETWEEN a AND b as x < a OR x > b; SYMMETRIC as the same over (a, b) OR
// over (b, a) (AND for NOT): PostgreSQL's expansions (transformAExprBetween),
// NULL bounds included, their errors at the BETWEEN (or NOT) keyword. x is
// bound for each comparison as the expansion would bind it.
func (b *binder) bindBetween(s *scope, n *pt.Between) (Expr, error) {
	at := &expansion{b: b, from: n, end: n.Lo.Pos(), kw: "between"}
	ordered := func(lo, hi pt.Expr) (Expr, error) {
		geLo, leHi, join := OpGe, OpLe, OpAnd
		if n.Not {
			geLo, leHi, join = OpLt, OpGt, OpOr
		}
		l, err := b.bindComparison(s, at, geLo, n.X, lo)
		if err != nil {
			return nil, err
		}
		h, err := b.bindComparison(s, at, leHi, n.X, hi)
		if err != nil {
			return nil, err
		}
		return b.makeBinary(at, join, l, h)
	}
	e, err := ordered(n.Lo, n.Hi)
	if err != nil || !n.Symmetric {
		return e, err
	}
	swapped, err := ordered(n.Hi, n.Lo)
	if err != nil {
		return nil, err
	}
	join := OpOr
	if n.Not {
		join = OpAnd
	}
	return b.makeBinary(at, join, e, swapped)
}

// bindComparison binds x op y from syntax, x bound afresh for this one
// comparison: the expansions of IN and BETWEEN bind their left operand once
// per comparison, so each comparison types its own copy.
func (b *binder) bindComparison(s *scope, at *expansion, op Op, x, y pt.Expr) (Expr, error) {
	l, err := b.bindTree(s, x)
	if err != nil {
		return nil, err
	}
	r, err := b.bindTree(s, y)
	if err != nil {
		return nil, err
	}
	return b.makeBinary(at, op, l, r)
}

// keywordOffset is the text offset of the keyword kw of an expression
// that starts at n and whose right-hand part starts at end (x IN (...),
// x BETWEEN a ...), or of the NOT before it: the place PostgreSQL's
// grammar gives the expression (its @2). The last whole-word kw before end
// is the keyword, as the left operand's text comes before it. 0 (no
// place) when the text does not spell it there.
func (b *binder) keywordOffset(n sourceNode, end int, kw string) int {
	if b.stmt == nil {
		return 0
	}
	text, start := b.stmt.Rewritten, n.OriginTextPosition()
	if start >= end || end > len(text) {
		return 0
	}
	lower := strings.ToLower(text[start:end])
	i := len(lower)
	for {
		if i = strings.LastIndex(lower[:i], kw); i < 0 {
			return 0
		}
		if wholeWord(lower, i, len(kw)) {
			break
		}
	}
	before := strings.TrimRight(lower[:i], " \t\r\n")
	if strings.HasSuffix(before, "not") && wholeWord(before, len(before)-3, 3) {
		i = len(before) - 3
	}
	return start + i
}

// wholeWord reports whether s[i:i+n] is not part of a longer identifier.
func wholeWord(s string, i, n int) bool {
	return (i == 0 || !isIdentByte(s[i-1])) && (i+n >= len(s) || !isIdentByte(s[i+n]))
}

// expansion is the syntax node errors name for the operators of an
// expansion (x IN (a, b) is x = a OR x = b): the place of the keyword the
// expansion comes from (0 when unknown: errAt then reports none), either
// known (at) or found in the text when an error asks for it (kw between
// from's start and end: keywordOffset), so that binding, which rarely
// fails, does not search the text. (The binder used to embed a 240-byte
// TiDB operator node for this.)
type expansion struct {
	at   int
	b    *binder
	from sourceNode
	end  int
	kw   string
}

func (e *expansion) OriginTextPosition() int {
	if e.b != nil {
		return e.b.keywordOffset(e.from, e.end, e.kw)
	}
	return e.at
}
