package binder

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/functions"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindOrderItems is the ORDER BY binder, over sqlgate's tree. Following
// PostgreSQL, a key is an output-column ordinal, else a bare name of an
// output column, else an expression bound like the select list (added to
// proj as a hidden column; with DISTINCT that is an error, since the rows
// are already distinct). Without NULLS FIRST | LAST, PostgreSQL's default
// applies: NULLs sort as larger than every value, so they come last
// ascending and first descending.
func (b *binder) bindOrderItems(proj *Project, items []pt.OrderItem, bindOut func(pt.Expr) (Expr, error), distinct bool) ([]SortKey, error) {
	keys := make([]SortKey, 0, len(items))
	visible := len(proj.Cols) // the keys' hidden columns follow
	// notListed is DISTINCT's refusal of the first key outside the select
	// list, which PostgreSQL's transformDistinctClause reports once the
	// whole ORDER BY is bound
	var notListed *error
	if distinct {
		notListed = new(error)
	}
	for i, item := range items {
		k, err := b.bindOrderItem(proj, item, orderAt{visible: visible, place: listPlace{order: items[:i], kw: "order"}}, bindOut, notListed)
		if err != nil {
			return nil, err
		}
		if err := b.checkSortable(item.X, k.Expr.Type()); err != nil { // typeops.go
			return nil, err
		}
		keys = append(keys, k)
	}
	if notListed != nil && *notListed != nil {
		return nil, *notListed
	}
	return keys, nil
}

// orderAt is where an ORDER BY item stands: visible is the number of
// output columns its ordinals and names count (the hidden columns of the
// keys before it follow them), floor the offset of the item before it and
// first whether there is none (errAtOrdinal).
type orderAt struct {
	visible int
	place   listPlace
	clause  string // the clause its errors name: ORDER BY unless set (DISTINCT ON)
}

// clauseName is the clause at's errors name.
func (at orderAt) clauseName() string {
	if at.clause == "" {
		return "ORDER BY"
	}
	return at.clause
}

// listConstant classifies an ORDER BY, GROUP BY or DISTINCT ON item as
// PostgreSQL's findTargetlistEntrySQL92 does, before anything in it is
// bound: a constant as written (the grammar's A_Const, a number's minus
// signs folded into it by doNegate, parentheses dropped) is an output
// position n when it is an integer int4 holds (integer), and 42601's
// "non-integer constant" otherwise (a string, NULL, TRUE, a bit string, a
// decimal, an integer too wide); anything else (a cast, +1, a parameter)
// is an expression (isConst false). The window clauses and an
// aggregate's ORDER BY follow SQL99's rules, where a constant is a value.
func listConstant(e pt.Expr) (n int64, isConst, integer bool) {
	switch x := e.(type) {
	case *pt.Ordinal:
		if x.Param != nil {
			return 0, false, false
		}
		return int64(x.N), true, x.N <= math.MaxInt32
	case *pt.Literal:
		if x.Kind == pt.LitInt {
			return x.Int, true, x.Int >= 0 && x.Int <= math.MaxInt32
		}
		return 0, x.Kind != 0, false
	case *pt.Cast:
		// B'..' and X'..', which sql's rewrite reads as a cast of their
		// text, are bit-string constants
		if l, ok := x.X.(*pt.Literal); ok && x.Type == "pg__bit" && l.Kind == pt.LitString {
			return 0, true, false
		}
	case *pt.Unary:
		lit, odd, ok := pt.SignedLiteral(x)
		if !ok {
			return 0, false, false
		}
		switch lit.Kind {
		case pt.LitInt:
			if lit.Int < 0 || lit.Int > math.MaxInt32 {
				return 0, true, false
			}
			if odd {
				return -lit.Int, true, true
			}
			return lit.Int, true, true
		case pt.LitUint, pt.LitFloat, pt.LitDecimal:
			return 0, true, false
		}
	}
	return 0, false, false
}

// listPosition is the output position an ORDER BY, GROUP BY or DISTINCT
// ON item names by an integer constant (ok), with PostgreSQL's errors for
// a position outside the list's visible columns (42P10) and for another
// constant (42601), both at the constant; clause names the list.
func (b *binder) listPosition(e pt.Expr, visible int, place listPlace, clause string) (idx int, ok bool, err error) {
	n, isConst, integer := listConstant(e)
	if off, ok := b.boolOrdinal(e, place); ok {
		// TRUE or FALSE, which TiDB's grammar made position 1 or 0
		return 0, false, b.errAtOffset(off, sqlerr.New(sqlerr.SyntaxError, "non-integer constant in %s", clause))
	}
	switch {
	case !isConst:
		return 0, false, nil
	case !integer:
		return 0, false, b.errAtOrdinal(e, place, sqlerr.New(sqlerr.SyntaxError, "non-integer constant in %s", clause))
	case n < 1 || n > int64(visible):
		return 0, false, b.errAtOrdinal(e, place, sqlerr.New(sqlerr.InvalidColumnReference, "%s position %d is not in select list", clause, n))
	}
	return int(n) - 1, true, nil
}

// bindOrderItem binds one ORDER BY item (bindOrderItems).
//
// notListed is set under SELECT DISTINCT: a key outside the select list
// is refused there, the first refusal kept (bindOrderItems).
func (b *binder) bindOrderItem(proj *Project, item pt.OrderItem, at orderAt, bindOut func(pt.Expr) (Expr, error), notListed *error) (SortKey, error) {
	expr := item.X
	idx, err := b.orderKeyColumn(proj, expr, at)
	if err != nil {
		return SortKey{}, err
	}
	if idx < 0 {
		e, err := bindOut(expr)
		if err != nil {
			return SortKey{}, err
		}
		e = b.resolveUnknown(e, types.StringType)
		for i, pe := range proj.Exprs {
			if sameExpr(pe, e) {
				idx = i
				break
			}
		}
		if idx < 0 {
			if notListed != nil && *notListed == nil {
				*notListed = b.errAt(expr, sqlerr.New(sqlerr.InvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list"))
			}
			proj.Exprs = append(proj.Exprs, e)
			proj.Cols = append(proj.Cols, Column{Name: "?sort?", T: e.Type().Nullable()})
			idx = len(proj.Cols) - 1
		}
	}
	if isUnknown(proj.Exprs[idx].Type()) {
		// an output kept unknown (INSERT's query, a set operation's
		// branch) is text once sorted by, as PostgreSQL's
		// addTargetToSortList makes it
		proj.Exprs[idx] = b.resolveUnknown(proj.Exprs[idx], types.StringType)
		proj.Cols[idx].T = proj.Exprs[idx].Type().Nullable()
	}
	c := proj.Cols[idx]
	if err := b.applyUsing(&item, c.T); err != nil { // typeops.go
		return SortKey{}, err
	}
	nullsFirst := nullsFirst(item)
	// a type without ordering or equality at all (json[]) is refused by
	// the caller, as a sort key or a DISTINCT ON key (typeops.go)
	if ord, eq := typeSortOps(c.T); !ord && !eq {
		return SortKey{Expr: b.newColumnRef(idx, c.Name, c.T)}, nil
	}
	if c.T.IsNested() && !orderableArray(c.T) && !orderableRecord(c.T) && !isEnumArray(c.T) {
		return SortKey{}, b.errAt(expr, sqlerr.New(sqlerr.UndefinedFunction, "could not identify an ordering operator for type %s", c.T.PGName()).
			WithHint("Use an explicit ordering operator or modify the query."))
	}
	if _, ok := enumLeaf(c.T); ok || hasTextOrder(c.T) {
		// an enum (or an array of one) sorts by its declaration order: by
		// its rank, a hidden column (enumops.go), one per enum column:
		// DISTINCT ON's keys and ORDER BY's name the same one
		r := b.enumKey(proj.Exprs[idx])
		idx = slices.IndexFunc(proj.Exprs, func(e Expr) bool { return sameExpr(e, r) })
		if idx < 0 {
			proj.Exprs = append(proj.Exprs, r)
			proj.Cols = append(proj.Cols, Column{Name: "?sort?", T: r.Type()})
			idx = len(proj.Cols) - 1
		}
		c = proj.Cols[idx]
	}
	return SortKey{Expr: b.newColumnRef(idx, c.Name, c.T), Desc: item.Desc, NullsFirst: nullsFirst}, nil
}

// orderKeyColumn returns the visible output column an ORDER BY item names
// by ordinal or by alias, or -1 when it is an expression to bind over the
// input.
func (b *binder) orderKeyColumn(proj *Project, e pt.Expr, at orderAt) (int, error) {
	cols := proj.Cols[:at.visible]
	if idx, ok, err := b.listPosition(e, len(cols), at.place, at.clauseName()); ok || err != nil {
		return idx, err
	}
	switch x := e.(type) {
	case *pt.ColumnRef:
		if x.Table != "" {
			return -1, nil
		}
		found := -1
		for i, c := range cols {
			if c.Name == x.Name {
				if found >= 0 && !sameExpr(proj.Exprs[found], proj.Exprs[i]) {
					return 0, b.errAt(e, sqlerr.New(sqlerr.AmbiguousColumn, "%s %q is ambiguous", at.clauseName(), x.Name))
				}
				if found < 0 {
					found = i
				}
			}
		}
		return found, nil
	}
	return -1, nil
}

// sameExpr reports whether two bound expressions are the same computation:
// the same shape, types, constants and column positions (names alone do not
// tell a.id from b.id).
func sameExpr(a, b Expr) bool { return SameExpr(a, b) }

// SameExpr reports whether a and b have the same exprKey: they compute the
// same value over the same row. The common cases are answered without
// rendering the keys (a rendering is a handful of allocations through fmt,
// and folding asks this of every operand of an OR of equalities): the same
// node, or two column references, whose keys are equal exactly when their
// positions and types are (T.String is a function of the type's fields,
// which NotNull and Same compare).
func SameExpr(a, b Expr) bool {
	if a == b {
		return true
	}
	if x, ok := a.(*ColumnRef); ok {
		if y, ok := b.(*ColumnRef); ok {
			return x.Index == y.Index && x.T.NotNull == y.T.NotNull && x.T.Same(&y.T)
		}
	}
	return exprKey(a) == exprKey(b)
}

// exprKey renders an expression with its column positions and types.
func exprKey(e Expr) string {
	var sb strings.Builder
	var walk func(Expr)
	walk = func(e Expr) {
		switch x := e.(type) {
		case *ColumnRef:
			fmt.Fprintf(&sb, "col%d:%s", x.Index, x.T)
			return
		case *OuterRef:
			fmt.Fprintf(&sb, "outer%d:%s", x.Slot, x.T)
			return
		case *Param:
			fmt.Fprintf(&sb, "$%d:%s", x.Index, x.T)
			return
		case *Const:
			fmt.Fprintf(&sb, "const(%T %v):%s", x.Value, x.Value, x.T)
			return
		case *Subquery:
			// Two bindings of the same subquery text are the same value.
			fmt.Fprintf(&sb, "subquery%d(%s;", x.Mode, planKey(x.Plan))
			for _, o := range x.Outer {
				sb.WriteString(exprKey(o) + ",")
			}
			if x.X != nil {
				sb.WriteString(x.Op.String() + exprKey(x.X))
			}
			sb.WriteString(")")
			return
		}
		fmt.Fprintf(&sb, "%T:%s(", e, e.Type())
		if b, ok := e.(*BinaryOp); ok {
			sb.WriteString(b.Op.String())
		}
		if u, ok := e.(*UnaryOp); ok {
			sb.WriteString(u.Op.String())
		}
		if f, ok := e.(*FuncCall); ok {
			sb.WriteString(f.Name)
		}
		if n, ok := e.(*IsNull); ok && n.Not {
			sb.WriteString("not")
		}
		MapChildren(e, func(c Expr) (Expr, error) {
			walk(c)
			sb.WriteString(",")
			return c, nil
		})
		sb.WriteString(")")
	}
	walk(e)
	return sb.String()
}

// bindLimitTree is the LIMIT/OFFSET binder: constants or parameters of
// type bigint (count or offset nil: none).
//
// from is the query's FROM items (nil: none): PostgreSQL binds the
// operands over them, so a column is an error of its type or, once typed,
// 42P10 (checkExprIsVarFree); an operand holding a subquery binds over
// none, as before. An enclosing query's columns are in scope either way,
// as in PostgreSQL (a correlated subquery's LIMIT o.n, a SQL function
// body's LIMIT of a parameter).
func (b *binder) bindLimitTree(input Node, count, offset pt.Expr, from *scope) (Node, error) {
	lim := &Limit{Input: input}
	var outer *scope
	if b.outer != nil {
		outer = &scope{} // no column of its own: names resolve outward
	}
	bind := func(e pt.Expr) (Expr, error) {
		s := from
		if s != nil && containsSubqueryTree(e) {
			s = nil
		}
		in := s
		if in == nil {
			in = outer
		}
		x, err := b.bindTree(in, e)
		if err != nil {
			if s == nil && from != nil {
				// a subquery's reference to the query's own FROM items
				// fails over none: PostgreSQL binds the operand over them
				// (its error, if any, is the statement's), then refuses
				// the variable (42P10, contain_vars_of_level) where it
				// stands
				if ref := limitSubqueryVar(b, e, from, err); ref != nil {
					if _, ferr := b.bindTree(from, e); ferr != nil {
						return nil, ferr
					}
					return nil, b.errAt(ref, sqlerr.New(sqlerr.InvalidColumnReference, "argument of %s must not contain variables", limitClause(e, offset)))
				}
			}
			return nil, err
		}
		if x, err = b.limitOperand(e, x); err != nil || s == nil {
			return x, err
		}
		var ref *pt.ColumnRef
		pt.Inspect(e, func(n pt.Node) bool {
			if c, ok := n.(*pt.ColumnRef); ok && ref == nil && s.has(c.Table, c.Name) {
				ref = c
			}
			return ref == nil
		})
		if ref != nil {
			return nil, b.errAt(ref, sqlerr.New(sqlerr.InvalidColumnReference, "argument of %s must not contain variables", limitClause(e, offset)))
		}
		return x, nil
	}
	// OFFSET first, as PostgreSQL's transformSelectStmt: of two errors,
	// OFFSET's is reported
	var err error
	if offset != nil {
		restore := b.refuseAggregates("OFFSET") // agglevels.go
		lim.Offset, err = bind(offset)
		if restore(); err != nil {
			return nil, err
		}
	}
	if count != nil {
		restore := b.refuseAggregates("LIMIT")
		lim.Count, err = bind(count)
		if restore(); err != nil {
			return nil, err
		}
	}
	return lim, nil
}

// limitClause names the clause of operand e (offset: OFFSET's).
func limitClause(e, offset pt.Expr) string {
	if e == offset {
		return "OFFSET"
	}
	return "LIMIT"
}

// limitSubqueryVar is the column reference of LIMIT / OFFSET operand e
// (one holding a subquery, bound over no FROM item) that err, an unknown
// column or table, is about when it names one of the query's FROM items
// (LIMIT (SELECT t.a)), or nil.
func limitSubqueryVar(b *binder, e pt.Expr, from *scope, err error) *pt.ColumnRef {
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.UndefinedColumn && se.Code != sqlerr.UndefinedTable {
		return nil
	}
	var ref *pt.ColumnRef
	pt.Inspect(e, func(n pt.Node) bool {
		if c, ok := n.(*pt.ColumnRef); ok && ref == nil && from.has(c.Table, c.Name) &&
			b.errAt(c, sqlerr.New(se.Code, "")).Position == se.Position {
			ref = c
		}
		return ref == nil
	})
	return ref
}

// bindLimitClauses binds c's LIMIT / OFFSET / FETCH over input (input
// itself when there is none).
func (b *binder) bindLimitClauses(input Node, c *pt.QueryClauses, from *scope) (Node, error) {
	if c.Limit == nil && c.Offset == nil {
		return input, nil
	}
	n, err := b.bindLimitTree(input, c.Limit, c.Offset, from)
	if err != nil || !c.WithTies {
		return n, err
	}
	return b.bindTies(n.(*Limit), c.Limit)
}

// limitOperand types a bound LIMIT or OFFSET operand (written at n) as
// bigint.
func (b *binder) limitOperand(n sourceNode, x Expr) (Expr, error) {
	if isUnknown(x.Type()) {
		return b.coerceUnknown(n, x, types.Int64Type)
	}
	// numeric and the floats reach bigint by their assignment casts
	// (coerce_to_specific_type), rounded: LIMIT 1.5 is LIMIT 2
	if !x.Type().IsNumeric() || x.Type().IsEnum() {
		return nil, b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "argument of LIMIT must be type bigint, not type %s", x.Type().PGName()))
	}
	return b.castTo(x, types.Int64Type), nil
}

// planKey renders a plan's shape and expressions, to compare subqueries.
func planKey(n Node) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%T(", n)
	if sc, ok := n.(*Scan); ok {
		fmt.Fprintf(&sb, "table%d:%v:%v", sc.Table.TableID, sc.Changelog, sc.Binlog)
	}
	nodeExprs(n, func(e Expr) { sb.WriteString(exprKey(e) + ";") })
	for _, c := range n.Children() {
		sb.WriteString(planKey(c))
	}
	sb.WriteString(")")
	return sb.String()
}

// orderableArray reports whether ORDER BY can sort array type t as
// PostgreSQL's array_cmp does with relop's key encoding of lists (the
// elements in storage order, then their number, then the dimensions): an
// array of any dimensions whose innermost elements have an order of their
// own. json has no order; jsonb's is not its text's.
func orderableArray(t types.T) bool {
	if t.Kind != types.Array || t.Elem == nil || t.Variant.IsVector() {
		return false
	}
	e := functions.ArrayElementType(t)
	if e.IsNested() {
		return orderableRecord(e)
	}
	// jsonb has btree order (relop's keys encode it); json has none; the
	// keyed types sort as arrays of their keys (textorder.go)
	return !(e.Kind == types.String && e.Variant != 0 && e.Variant != types.JSONB) || hasTextOrder(e)
}

// orderableRecord reports whether t is an anonymous record (ROW(a, b))
// whose fields all have an order: records compare field by field, a NULL
// field after every value (relop's keys encode a struct so).
func orderableRecord(t types.T) bool {
	if !t.IsAnonRecord() {
		return false
	}
	for _, f := range t.Fields {
		ft := f.Type
		switch {
		case ft.Kind == types.Array:
			if !orderableArray(ft) {
				return false
			}
		case ft.IsNested():
			if !orderableRecord(ft) {
				return false
			}
		case ft.Kind == types.String && ft.Variant != 0 && ft.Variant != types.JSONB:
			return false
		}
	}
	return true
}

// listPlace is where an ORDER BY or GROUP BY item stands in its list:
// the items before it (order or exprs) and base, the list's own place (0
// for ORDER BY, the select list's end for GROUP BY). Only an error at an
// ordinal needs the offset it leads to (before), so binding carries the
// list and the text is searched when an error asks.
type listPlace struct {
	order []pt.OrderItem
	exprs []pt.Expr
	base  int
	kw    string // the word before BY that starts the list: "order", "group"
}

// before is where the item follows its list's earlier items: the offset
// of the last of them whose place is known (the base when none is), and
// whether none is (first: then the item follows BY).
func (b *binder) before(p listPlace) (floor int, first bool) {
	floor, first = p.base, true
	for _, it := range p.order {
		floor, first = b.placeAfter(it.X, floor, first, p.kw)
	}
	for _, x := range p.exprs {
		floor, first = b.placeAfter(x, floor, first, p.kw)
	}
	return floor, first
}

// placeAfter moves floor and first (before) past the list item x: to
// its offset, or for an ordinal without one where errAtOrdinal finds it.
func (b *binder) placeAfter(x pt.Expr, floor int, first bool, kw string) (int, bool) {
	if x == nil {
		return floor, first
	}
	if p := x.Pos(); p > 0 {
		return max(floor, p), false
	}
	if o, ok := x.(*pt.Ordinal); ok && b.stmt != nil {
		if off := ordinalOffset(b.stmt.Rewritten, floor, o.N, first, kw); off > 0 {
			return off, false
		}
	}
	return floor, first
}

// errAtOrdinal is errAt for an ORDER BY or GROUP BY position outside the
// select list: TiDB's grammar turns the number into a position node
// without its offset (the fast parser keeps it), so then the number is
// looked for in the text after what precedes it (the list's previous
// item, or the select list: place), after BY when it is its list's first
// item.
func (b *binder) errAtOrdinal(e pt.Expr, place listPlace, err *sqlerr.Error) *sqlerr.Error {
	if n, ok := e.(*pt.Ordinal); ok && e.Pos() == 0 && b.stmt != nil {
		floor, first := b.before(place)
		if off := ordinalOffset(b.stmt.Rewritten, floor, n.N, first, place.kw); off > 0 {
			return err.WithPosition(b.stmt.Position(off))
		}
	}
	return b.errAt(e, err)
}

// ordinalOffset is the offset of the first whole number n in text after
// floor, outside quotes, that follows BY (kw BY when kw is set: "order",
// "group"; or, unless afterBy, a comma): where a list of ORDER BY or
// GROUP BY keys puts it; or 0.
func ordinalOffset(text string, floor, n int, afterBy bool, kw string) int {
	return listItemOffset(text, floor, strconv.Itoa(n), afterBy, isNumberByte, kw)
}

// listItemOffset is the offset of the first token tok (lower case) in
// text after floor, outside quotes, not inside a longer token (part: the
// bytes that would continue it), that follows BY (or, unless afterBy, a
// comma at the list's own depth, not one inside an item's parentheses:
// ORDER BY coalesce(x, true), 1; kw BY when kw is set); or 0.
func listItemOffset(text string, floor int, tok string, afterBy bool, part func(byte) bool, kw string) int {
	text = strings.ToLower(text)
	inString := false
	// depth counts the parentheses opened since floor or the last BY;
	// floor may stand inside an item's (the rewritten text's
	// pg__nulls(x, 'first')), whose closing leaves it at 0
	depth := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\'' {
			inString = !inString
			continue
		}
		if inString || i <= floor {
			continue
		}
		switch {
		case text[i] == '(':
			depth++
		case text[i] == ')':
			depth = max(depth-1, 0)
		case strings.HasPrefix(text[i:], "by") && !isIdentByte(text[i-1]) && (i+2 == len(text) || !isIdentByte(text[i+2])):
			depth = 0
		}
		if !strings.HasPrefix(text[i:], tok) {
			continue
		}
		end := i + len(tok)
		if part(text[i-1]) || (end < len(text) && part(text[end])) {
			continue
		}
		prev := strings.TrimRight(text[:i], " \t\r\n")
		if (!afterBy && depth == 0 && strings.HasSuffix(prev, ",")) ||
			(strings.HasSuffix(prev, "by") && (len(prev) == 2 || !isIdentByte(prev[len(prev)-3])) && endsWithWord(prev[:len(prev)-2], kw)) {
			return i
		}
	}
	return 0
}

// endsWithWord reports whether text, blanks trimmed, ends with the whole
// word kw (always when kw is "").
func endsWithWord(text, kw string) bool {
	if kw == "" {
		return true
	}
	text = strings.TrimRight(text, " \t\r\n")
	return strings.HasSuffix(text, kw) && (len(text) == len(kw) || !isIdentByte(text[len(text)-len(kw)-1]))
}

// boolOrdinal reports whether e is a position TiDB's grammar made of
// TRUE or FALSE (its integers 1 and 0), and where the word is: the number
// is not where errAtOrdinal looks for it, and the word is.
func (b *binder) boolOrdinal(e pt.Expr, place listPlace) (int, bool) {
	o, ok := e.(*pt.Ordinal)
	if !ok || o.Param != nil || o.Pos() != 0 || (o.N != 0 && o.N != 1) || b.stmt == nil {
		return 0, false
	}
	floor, first := b.before(place)
	text := b.stmt.Rewritten
	word := []string{"false", "true"}[o.N]
	off := listItemOffset(text, floor, word, first, isIdentByte, place.kw)
	if num := ordinalOffset(text, floor, o.N, first, place.kw); off == 0 || num > 0 && num < off {
		return 0, false // the number comes first
	}
	return off, true
}

// isNumberByte reports whether c continues a number or a name around one.
func isNumberByte(c byte) bool { return isIdentByte(c) || c == '.' }

// bindTies is FETCH FIRST count ROWS WITH TIES over lim's sort (count
// the clause as written): PostgreSQL skips offset rows, keeps count rows,
// then every row that ties with the last under the ORDER BY. Over the
// sorted rows, numbered p (row_number) with rank r (the number of the
// first of their peers), that is p > offset AND r <= offset + count AND
// count > 0. A Limit above keeps PostgreSQL's errors for a negative count
// or offset (each passed on only when negative).
func (b *binder) bindTies(lim *Limit, count pt.Expr) (Node, error) {
	if l, ok := count.(*pt.Literal); ok && l.Kind == pt.LitNull {
		return nil, sqlerr.New(sqlerr.InvalidRowCountInLimitClause, "row count cannot be null in FETCH FIRST ... WITH TIES clause") // no position, as PostgreSQL
	}
	s, ok := lim.Input.(*Sort)
	if !ok {
		return nil, b.errAt(count, sqlerr.New(sqlerr.FeatureNotSupported, "WITH TIES is not implemented here"))
	}
	width := len(s.Columns())
	i64 := types.Int64Type
	win := addWindows(s.Input, []WindowCall{
		{Func: "rank", Order: s.Keys, T: i64},
		{Func: "row_number", Order: s.Keys, T: i64},
	})
	zero := &Const{Value: int64(0), T: i64}
	offset := Expr(zero)
	if lim.Offset != nil {
		offset = &Coalesce{Args: []Expr{lim.Offset, zero}, T: i64}
	}
	rank := &ColumnRef{Index: width, Name: "rank", T: i64}
	num := &ColumnRef{Index: width + 1, Name: "row_number", T: i64}
	bin := func(op Op, l, r Expr) Expr {
		t := types.BoolType
		if op == OpAdd {
			t = i64
		}
		return &BinaryOp{Op: op, L: l, R: r, T: t}
	}
	cond := bin(OpAnd, bin(OpAnd, bin(OpGt, num, offset), bin(OpLe, rank, bin(OpAdd, offset, lim.Count))), bin(OpGt, lim.Count, zero))
	var n Node = &Sort{Input: &Filter{Input: win, Cond: cond}, Keys: s.Keys}
	negative := func(e Expr) Expr {
		if e == nil {
			return nil
		}
		return &Case{Whens: []When{{Cond: bin(OpLt, e, zero), Result: e}}, T: i64}
	}
	n = &Limit{Input: n, Count: negative(lim.Count), Offset: negative(lim.Offset)}
	return dropHidden(n, width), nil
}

// containsSubqueryTree reports whether a tree expression holds a query (a
// subquery of any kind).
func containsSubqueryTree(e pt.Expr) bool {
	found := false
	pt.Inspect(e, func(n pt.Node) bool {
		switch n.(type) {
		case pt.Query, *pt.Subquery, *pt.Exists, *pt.ArraySubquery:
			found = true
		}
		return !found
	})
	return found
}
