package binder

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// The leaves and operators of scalar expressions: column references,
// parameters and literals, the unary and binary operators with
// PostgreSQL's operator resolution (date/time arithmetic, character(n)
// comparison), and the coercions of unknown literals and parameters every
// clause shares.

// bindColumn binds a column name, [table.]name, or one of SQL's functions
// spelled without parentheses (CURRENT_USER ...), or a table alias as a
// value (the whole row).
func (b *binder) bindColumn(s *scope, at sourceNode, table, name string) (Expr, error) {
	if s == nil {
		if f, ok := sqlValueFunctions[name]; ok && table == "" {
			return b.callFunction(at, f, nil)
		}
		return nil, b.errAt(at, sqlerr.New(sqlerr.UndefinedColumn, "column %q does not exist", name))
	}
	e, err := b.resolve(s, at, table, name)
	if err != nil && table != "" && b.sqlParams != nil && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
		// in a SQL function's body, p.f where no FROM item is p: field
		// f of p, a parameter of a composite type (PostgreSQL's
		// sql_fn_post_column_ref, after the query's own names; without
		// such a field the name's error stands)
		if p, ok := b.compositeParam(s, at, table); ok && slices.ContainsFunc(p.Type().Fields, func(f types.Field) bool { return f.Name == name }) {
			return b.selectField(at, p, name)
		}
	}
	if err != nil && table == "" {
		// CURRENT_USER, SESSION_USER, USER, CURRENT_CATALOG and
		// CURRENT_SCHEMA are functions written without parentheses.
		if f, ok := sqlValueFunctions[name]; ok && sqlerr.CodeOf(err) == sqlerr.UndefinedColumn {
			return b.callFunction(at, f, nil)
		}
		if w, ok := b.wholeRow(s, name); ok && sqlerr.CodeOf(err) == sqlerr.UndefinedColumn {
			return w, nil // a table alias as a value: the whole row (wholerow.go)
		}
	}
	return e, err
}

// compositeParam is the SQL function parameter of a composite type named
// name, as the body being bound reads it; ok false when there is none.
func (b *binder) compositeParam(s *scope, at sourceNode, name string) (Expr, bool) {
	for _, c := range b.sqlParams.cols {
		if c.Name == name && c.T.Kind == types.Row {
			p, err := b.resolve(s, at, c.Table, name)
			return p, err == nil
		}
	}
	return nil, false
}

// bindParam binds the parameter marker at with index order among the
// statement's markers.
func (b *binder) bindParam(n sourceNode, order int) (Expr, error) {
	if order < 0 || order >= len(b.stmt.ParamNumbers) {
		return nil, b.errAt(n, sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $%d", order+1))
	}
	idx := b.stmt.ParamNumbers[order] - 1
	if b.sqlParams != nil { // a SQL function's body (sqlfunc.go)
		if idx >= len(b.sqlParams.cols) {
			return nil, b.errAt(n, sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $%d", idx+1))
		}
		return sqlParamRef(b.corr, idx), nil
	}
	for idx >= len(b.params) {
		b.params = append(b.params, types.UnknownType)
	}
	return &Param{Index: idx, T: b.params[idx]}, nil
}

// bindLiteral types a literal as PostgreSQL does: integers are int4 when
// they fit, else int8, else numeric; decimals are numeric; strings are
// unknown until context decides.
func (b *binder) bindLiteral(n sourceNode, v any, ok bool) (Expr, error) {
	if !ok {
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "this literal is not supported"))
	}
	// v, not x, goes into a constant: the value is boxed once already
	switch x := v.(type) {
	case nil:
		return b.newConst(nil, types.NullType), nil
	case bool:
		return b.newConst(v, types.BoolType), nil
	case int64:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return b.newConst(v, types.Int32Type), nil
		}
		return b.newConst(v, types.Int64Type), nil
	case float64:
		// The parser reads a literal with an exponent (1e-100) as a
		// double; PostgreSQL reads it as numeric. Its shortest text is
		// the literal as written for every literal a double holds exactly
		// enough to print back (up to 17 significant digits).
		if text, ok := b.literalText(n, x); ok {
			return numericLiteral(text)
		}
		return numericLiteral(strconv.FormatFloat(x, 'g', -1, 64))
	case decimalText:
		return numericLiteral(string(x))
	case string:
		c := b.newConst(v, types.UnknownType)
		if n != nil {
			c.At = n.OriginTextPosition() + 1
		}
		return c, nil
	case []byte:
		return &Const{Value: x, T: types.BytesType}, nil
	}
	return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "literal of Go type %T is not supported", v))
}

// literalText reads a number literal with an exponent as the statement
// writes it (1.50e3 keeps its digits and display scale: 1500.0 in
// PostgreSQL), when its text is there and reads as the parser's value.
func (b *binder) literalText(n sourceNode, v float64) (string, bool) {
	if b.stmt == nil {
		return "", false
	}
	text := b.stmt.Rewritten
	off := n.OriginTextPosition()
	if off < 0 || off >= len(text) {
		return "", false
	}
	end := off
	for end < len(text) && (text[end] >= '0' && text[end] <= '9' || text[end] == '.') {
		end++
	}
	if end < len(text) && (text[end] == 'e' || text[end] == 'E') {
		end++
		if end < len(text) && (text[end] == '+' || text[end] == '-') {
			end++
		}
		for end < len(text) && text[end] >= '0' && text[end] <= '9' {
			end++
		}
	}
	lit := text[off:end]
	if f, err := strconv.ParseFloat(lit, 64); err != nil || f != v {
		return "", false
	}
	return lit, true
}

// numericLiteral types a decimal literal as unconstrained numeric keeping
// every digit written (1.50 has display scale 2), as PostgreSQL does.
func numericLiteral(text string) (Expr, error) {
	v, err := numeric.Parse(text)
	if err != nil {
		return nil, err
	}
	return &Const{Value: v, T: types.NumericType}, nil
}

// negatedLiteral is an integer literal under prefix minus signs: under
// an odd number c is its negation, typed as PostgreSQL's grammar types it: doNegate writes the
// sign into the literal itself (through parentheses and again for each
// further minus), and make_const types the signed text by its value, so
// -2147483648 is an integer, -9223372036854775808 a bigint, and
// -(-2147483648) the bigint 2147483648; under an even number c is nil
// and lit is the literal to bind as written. ok is false for anything else
// (a cast, a unary plus or a column between a minus and the literal: a
// negation there keeps the operand's type).
func negatedLiteral(n *pt.Unary) (lit *pt.Literal, c *Const, ok bool) {
	lit, odd, ok := pt.SignedLiteral(n)
	if !ok || (lit.Kind != pt.LitInt && lit.Kind != pt.LitUint) || (lit.Kind == pt.LitInt && lit.Int < 0) {
		return nil, nil, false
	}
	switch {
	case !odd:
		return lit, nil, true // the literal itself: the caller binds it
	case lit.Kind == pt.LitInt && -lit.Int >= math.MinInt32:
		return lit, &Const{Value: -lit.Int, T: types.Int32Type}, true
	case lit.Kind == pt.LitInt:
		return lit, &Const{Value: -lit.Int, T: types.Int64Type}, true
	case lit.Uint == 1<<63:
		return lit, &Const{Value: int64(math.MinInt64), T: types.Int64Type}, true
	}
	return nil, nil, false // -numeric: the fold below
}

func (b *binder) bindUnary(s *scope, n *pt.Unary) (Expr, error) {
	if n.Op == pt.UNot {
		if e, ok, err := b.bindBangPrefix(s, n); ok { // operators.go
			return e, err
		}
	}
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case pt.UPlus:
		return b.bindPrefixPlus(n, x) // operators.go
	case pt.UMinus:
		if err := prefixMinusAmbiguity(x); err != nil { // operators.go
			return nil, b.errAt(n, err)
		}
		if lit, c, ok := negatedLiteral(n); ok {
			if c != nil {
				return c, nil
			}
			return b.bindTree(s, lit) // an even number of minus signs
		}
		// Fold -constant where the type stays: the negation a run would
		// compute. (a typed datetime constant holds an int64 too: no -
		// takes it)
		if c, ok := x.(*Const); ok && c.Value != nil && c.T.IsNumeric() {
			switch v := c.Value.(type) {
			case int64:
				// Fold only when the result fits; otherwise the negation
				// runs and reports 22003 as PostgreSQL does.
				if lo, hi := types.IntRange(c.T.Kind); v != math.MinInt64 && -v >= lo && -v <= hi {
					return &Const{Value: -v, T: c.T}, nil
				}
			case float64:
				return &Const{Value: -v, T: c.T}, nil
			case *apd.Decimal:
				if c.T.Kind == types.Decimal && c.T.Precision == 0 {
					return &Const{Value: numeric.Neg(v), T: c.T}, nil
				}
			}
		}
		if x.Type().Kind == types.Interval {
			return b.callFunction(n, "__interval_um", []Expr{x})
		}
		if x.Type().IsMoney() {
			return nil, b.errAt(n, noOperator("-", x.Type())) // money has no prefix -
		}
		x = b.resolveUnknown(x, types.Float64Type)
		if !x.Type().IsNumeric() && x.Type().Kind != types.Null {
			return nil, b.errAt(n, noOperator("-", x.Type()))
		}
		t := x.Type().Nullable()
		if t.Kind == types.Decimal {
			t = types.NumericType // -x of a numeric(p,s) is numeric, as in PostgreSQL
		}
		return &UnaryOp{Op: OpNeg, X: x, T: t}, nil
	case pt.UNot:
		x, err = b.coerce(n.X, x, types.BoolType, "argument of NOT")
		if err != nil {
			return nil, err
		}
		return &UnaryOp{Op: OpNot, X: x, T: types.BoolType}, nil
	}
	return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "operator %d is not supported", n.Op))
}

var binaryOps = map[pt.BinaryOp]Op{
	pt.Add: OpAdd, pt.Sub: OpSub, pt.Mul: OpMul, pt.Div: OpDiv, pt.IntDiv: OpDiv,
	pt.Mod: OpMod, pt.Eq: OpEq, pt.Ne: OpNe, pt.Lt: OpLt, pt.Le: OpLe,
	pt.Gt: OpGt, pt.Ge: OpGe, pt.And: OpAnd, pt.Or: OpOr,
	pt.NotDistinct: OpIsNotDistinct,
}

// unsupportedOps name MySQL's operators the grammar takes and sqlgate
// refuses, as TiDB spells them.
var unsupportedOps = map[pt.BinaryOp]string{pt.Xor: "xor", pt.BitXor: "bitxor"}

func (b *binder) bindBinary(s *scope, n *pt.Binary) (Expr, error) {
	if bop, isBit := bitwiseOps[n.Op]; isBit {
		return b.bindBitwise(s, n, bop)
	}
	if name, refused := unsupportedOps[n.Op]; refused {
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "operator %s is not supported", name))
	}
	op, ok := binaryOps[n.Op]
	if !ok {
		if n.Op == pt.Pow {
			// a ^ b: power(a, b), as PostgreSQL's ^ is
			e, err := b.bindFuncCall(s, &pt.FuncCall{At: n.At, Name: "power", Args: []pt.Expr{n.L, n.R}})
			if err != nil {
				return nil, b.asPowerOperatorError(s, n, err) // operators.go
			}
			return e, nil
		}
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "operator %d is not supported", n.Op))
	}
	if op >= OpEq && op <= OpGe {
		if e, ok, err := b.bindRowCompareSubquery(s, n, op); ok { // subquery.go
			return e, err
		}
	}
	l, err := b.bindTree(s, n.L)
	if err != nil {
		return nil, err
	}
	r, err := b.bindTree(s, n.R)
	if err != nil {
		return nil, err
	}
	if op >= OpEq && op <= OpGe {
		l, r = b.plainRecordOperand(n.L, l), b.plainRecordOperand(n.R, r) // recordcast.go
	}
	return b.makeBinary(n, op, l, r)
}

// makeBinary types a binary operator with PostgreSQL's operator resolution,
// reduced to the families sqlgate has: both sides are brought to a common
// type (an unknown literal or parameter takes the other side's type).
func (b *binder) makeBinary(n sourceNode, op Op, l, r Expr) (Expr, error) {
	// The operands' types are read once and again only after an operand
	// is replaced: Type is an interface call returning a 72-byte T, and a
	// statement binds dozens of operators.
	lt, rt := l.Type(), r.Type()
	if op == OpAnd || op == OpOr {
		var err error
		// The operands are nearly always boolean already: the error text is
		// built only when one is not.
		if lt.Kind != types.Bool {
			if l, err = b.coerce(n, l, types.BoolType, "argument of "+op.String()); err != nil {
				return nil, err
			}
		}
		if rt.Kind != types.Bool {
			if r, err = b.coerce(n, r, types.BoolType, "argument of "+op.String()); err != nil {
				return nil, err
			}
		}
		if b.srf != nil && len(b.srf.calls) > 0 { // a SELECT list's set-returning calls (srf.go)
			for _, x := range []Expr{l, r} {
				if err := b.setArgument(n, x, "argument of "+op.String()); err != nil {
					return nil, err
				}
			}
		}
		return b.newBinaryOp(op, l, r, types.BoolType), nil
	}
	if op.IsComparison() {
		if e, ok := nullRecordComparison(op, l, r); ok {
			return e, nil
		}
	}
	if lt.Kind == types.Row && rt.Kind == types.Row && op.IsComparison() {
		return b.makeRowComparison(n, op, l, r)
	}
	if lt.IsGeometric() || rt.IsGeometric() {
		if e, ok, err := b.geometricOperator(n, op.String(), []Expr{l, r}); ok { // geometric.go
			return e, err
		}
	}
	if (op >= OpEq && op <= OpGe || op == OpIsDistinct || op == OpIsNotDistinct) && noJSONComparison(lt, rt) {
		return nil, b.binaryOpError(n, op, lt, rt)
	}
	if isJSONBComparison(op, lt, rt) {
		return b.bindJSONBCompare(n, op, l, r) // jsonbops.go
	}
	if op == OpSub && isUnknown(lt) && (textOperand(rt) && !isUnknown(rt) || rt.Kind == types.Array && rt.Elem != nil && textOperand(*rt.Elem)) {
		// 'x' - text: jsonb - text is the only - taking text, so the
		// literal is read as jsonb
		var err error
		if l, err = b.coerceUnknown(n, l, types.JSONBType); err != nil {
			return nil, err
		}
		lt = l.Type()
	}
	if op == OpSub && isJSONBType(lt) {
		return b.bindJSONBDelete(n, l, r) // jsonbops.go
	}
	if e, ok, err := b.inetArithmetic(n, op, l, r, lt, rt); ok { // netops.go
		return e, err
	}
	if e, ok, err := b.moneyArithmetic(n, op, l, r, lt, rt); ok { // smalltypes.go
		return e, err
	}
	if err := b.macComparison(n, op, lt, rt); err != nil { // smalltypes.go
		return nil, err
	}
	if op.IsArithmetic() {
		if e, ok, err := b.rangeArithmetic(n, op, l, r, lt, rt); ok { // ranges.go
			return e, err
		}
	}
	if op.IsArithmetic() && (noArithmetic(op, lt, rt, true) || noArithmetic(op, rt, lt, false)) {
		// 'x' + true: PostgreSQL looks for boolean + boolean, finds none
		// and names the literal's type; converting the literal first would
		// report its text instead
		return nil, b.binaryOpError(n, op, lt, rt)
	}
	if op.IsArithmetic() && isUnknown(lt) && isUnknown(rt) {
		// '1' + '2': every numeric + is a candidate and none is preferred
		if op == OpMod && b.spelledAsCall(n, "mod") {
			return nil, b.errAt(n, functions.NotUnique("mod", []types.T{namedOperand(lt), namedOperand(rt)}))
		}
		return nil, b.errAtOperator(n, op.String(), sqlerr.New(sqlerr.AmbiguousFunction,
			"operator is not unique: unknown %s unknown", op.String()).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts."))
	}
	if op.IsComparison() {
		l2, r2, ok, err := b.regconfigComparison(n, l, r, lt, rt) // regconfigops.go
		if err != nil {
			return nil, err
		}
		if ok {
			l, r = l2, r2
			lt, rt = l.Type(), r.Type()
		}
	}
	if isUnknown(lt) != isUnknown(rt) {
		var err error
		if l, r, err = b.coerceUnknownDatetimeOperand(n, op, l, r); err != nil {
			return nil, err
		}
		lt, rt = l.Type(), r.Type()
	}
	// An unknown side takes the other side's type; two unknowns are text.
	switch {
	case isUnknown(lt) && isUnknown(rt):
		l, r = b.resolveUnknown(l, types.StringType), b.resolveUnknown(r, types.StringType)
		lt, rt = l.Type(), r.Type()
	case isUnknown(lt):
		var err error
		if l, err = b.coerceUnknown(n, l, operandType(rt)); err != nil {
			return nil, err
		}
		lt = l.Type()
	case isUnknown(rt):
		var err error
		if r, err = b.coerceUnknown(n, r, operandType(lt)); err != nil {
			return nil, err
		}
		rt = r.Type()
	}
	if lt.Variant == types.Enum || rt.Variant == types.Enum || isEnumArray(lt) || isEnumArray(rt) {
		// enums order by their declaration (enumops.go)
		var err error
		if l, r, err = b.enumComparison(n, op, l, r, lt, rt); err != nil {
			return nil, err
		}
		lt, rt = l.Type(), r.Type()
	}
	if rangeLike(lt) || rangeLike(rt) {
		if err := b.rangeComparison(n, op, lt, rt); err != nil { // ranges.go
			return nil, err
		}
	}
	if isInetType(lt) && isInetType(rt) {
		l, r = b.inetComparison(op, l, r, lt, rt) // netops.go
		lt, rt = l.Type(), r.Type()
	} else if hasTextOrder(lt) {
		l, r = b.textOrderComparison(op, l, r, lt, rt) // textorder.go, ranges too
		lt, rt = l.Type(), r.Type()
	}
	if op.IsComparison() && (lt.Kind == types.Array || rt.Kind == types.Array) {
		if _, ok := textOrderLeaf(lt); ok && rt.Kind == types.Array && functions.SamePGType(lt, rt) {
			l, r, _ = keyedOperands(op, l, r) // arrays of keys (textorder.go)
		}
		return b.makeArrayComparison(n, op, l, r)
	}
	// (the kinds are tested here first: the call copies both types)
	if isDatetimeOperator(op, lt.Kind, rt.Kind) {
		if op == OpAdd && lt.Kind == types.Time && rt.Kind == types.Time {
			// time + interval and interval + time both take it, time
			// casting implicitly to interval
			return nil, b.errAtOperator(n, op.String(), sqlerr.New(sqlerr.AmbiguousFunction,
				"operator is not unique: %s + %s", lt.PGName(), rt.PGName()).
				WithHint("Could not choose a best candidate operator. You might need to add explicit type casts."))
		}
		t, ok := datetimeArithmetic(op, lt, rt)
		if !ok {
			t, ok = timeAsInterval(op, lt, rt)
		}
		if ok {
			if t.swap { // integer + date, interval + timestamp, 2 * interval ...
				l, r = r, l
			}
			return b.callFunction(n, t.fn, []Expr{b.castTo(l, t.args[0]), b.castTo(r, t.args[1])})
		}
	}
	var common types.T
	ok := true
	if lt.Same(&rt) {
		common = lt.Nullable() // commonType's first case, without its copies
	} else {
		common, ok = commonType(lt, rt)
	}
	if !ok {
		return nil, b.binaryOpError(n, op, lt, rt)
	}
	if op.IsComparison() {
		common = bpcharComparison(lt, rt, common)
	}
	resT := common.Nullable()
	switch {
	case op.IsComparison():
		if common.IsNested() {
			return nil, b.binaryOpError(n, op, lt, rt)
		}
		resT = types.BoolType
	case op.IsArithmetic():
		if !common.IsNumeric() {
			return nil, b.binaryOpError(n, op, lt, rt)
		}
		if common.Kind == types.Int8 {
			common = types.Int16Type
		}
		if op == OpMod && common.IsFloat() {
			// PostgreSQL has % for integers and numeric only
			return nil, b.binaryOpError(n, op, lt, rt)
		}
		resT = common.Nullable()
		if common.Kind == types.Decimal {
			// numeric arithmetic: each value keeps its own display scale
			// and the result's follows numeric.c's rules per value. A
			// DECIMAL(p,s) operand stays decimal128 (the kernel reads it
			// at its scale, and keeps decimal128 arithmetic where that
			// gives the same digits); integers become numeric.
			return b.newBinaryOp(op, b.castTo(l, operandDecimal(lt)), b.castTo(r, operandDecimal(rt)), types.NumericType), nil
		}
	}
	if op.IsComparison() && common.Kind == types.Char {
		// bpchar compares without its trailing blanks (bpcharcmp): each
		// operand as bpchar, then as text, which drops them (exec's
		// cast). Next to text PostgreSQL picks text's operator instead,
		// and text keeps its blanks.
		if op == OpEq || op == OpNe {
			if l2, r2, ok := b.sameWidthChars(l, lt, r, rt); ok {
				return b.newBinaryOp(op, l2, r2, resT), nil
			}
		}
		text := types.StringType
		if !isPlainText(lt) && !isPlainText(rt) {
			l, r = b.castTyped(l, &lt, &common), b.castTyped(r, &rt, &common)
			lt, rt = common, common
		}
		return b.newBinaryOp(op, b.castTyped(l, &lt, &text), b.castTyped(r, &rt, &text), resT), nil
	}
	return b.newBinaryOp(op, b.castTyped(l, &lt, &common), b.castTyped(r, &rt, &common), resT), nil
}

// sameWidthChars brings x = y between character(n) and character(n), or a
// literal that fits n characters, to two values padded to n characters,
// equal exactly when bpchar's equality (trailing blanks dropped) says so:
// the comparison of a character(n) key column with a literal keeps the
// column bare, as key lookups and partition pruning look for it. ok is
// false when the operands are anything else.
func (b *binder) sameWidthChars(l Expr, lt types.T, r Expr, rt types.T) (Expr, Expr, bool) {
	if lt.Kind != types.Char || rt.Kind != types.Char {
		return nil, nil, false
	}
	if lt.Length > 0 && lt.Length == rt.Length {
		return l, r, true
	}
	if s, ok := padChar(r, lt.Length); ok {
		return l, b.newConst(s, lt.Nullable()), true
	}
	if s, ok := padChar(l, rt.Length); ok {
		return b.newConst(s, rt.Nullable()), r, true
	}
	return nil, nil, false
}

// padChar is the string constant e padded to n characters, when its text
// without trailing blanks has at most n.
func padChar(e Expr, n int) (string, bool) {
	c, ok := e.(*Const)
	if !ok || n <= 0 {
		return "", false
	}
	s, ok := c.Value.(string)
	if !ok {
		return "", false
	}
	s = strings.TrimRight(s, " ")
	k := utf8.RuneCountInString(s)
	if k > n {
		return "", false
	}
	return s + strings.Repeat(" ", n-k), true
}

// isPlainText reports text itself (not varchar, json or another String).
func isPlainText(t types.T) bool {
	return t.Kind == types.String && t.Length == 0 && t.Variant == types.NoVariant
}

// datetimeOp is the function behind one of PostgreSQL's date/time
// operators, with the argument types it takes (after swapping the operands
// when swap is set).
type datetimeOp struct {
	fn   string
	swap bool
	args [2]types.T
}

// datetimeArithmetic resolves PostgreSQL's date, time, timestamp and
// interval operators: date ± integer, date - date, date + time,
// timestamp[tz] ± interval (a date taken as a timestamp), time ± interval,
// timestamp[tz] - timestamp[tz], interval ± interval and interval * / a
// number, each with its commuted form where PostgreSQL has one. A
// timestamp next to a timestamptz is taken as timestamptz, as PostgreSQL's
// implicit cast does.
func datetimeArithmetic(op Op, l, r types.T) (datetimeOp, bool) {
	// Every operator below is + - * or / with a date/time or interval
	// operand: the rest (nearly every operator bound) return before the
	// operand types below are built.
	if !isDatetimeOperator(op, l.Kind, r.Kind) {
		return datetimeOp{}, false
	}
	ts, tstz := types.TimestampType(6), types.TimestampTZType(6)
	iv, f8, i4 := types.T{Kind: types.Interval}, types.Float64Type, types.Int32Type
	tm := types.T{Kind: types.Time, Precision: 6}
	small := func(t types.T) bool { return t.Kind == types.Int16 || t.Kind == types.Int32 || t.Kind == types.Int8 }
	stamp := func(t types.T) bool {
		return t.Kind == types.Date || t.Kind == types.Timestamp || t.Kind == types.TimestampTZ
	}
	// the timestamp type a date/timestamp/timestamptz operand computes in
	stampOf := func(a, b types.T) (types.T, string) {
		if a.Kind == types.TimestampTZ || b.Kind == types.TimestampTZ {
			return tstz, "__tstz"
		}
		return ts, "__ts"
	}
	isIv := func(t types.T) bool { return t.Kind == types.Interval }
	d := types.DateType
	switch {
	case op == OpAdd && l.Kind == types.Date && small(r):
		return datetimeOp{"__date_pl_days", false, [2]types.T{d, i4}}, true
	case op == OpAdd && small(l) && r.Kind == types.Date:
		return datetimeOp{"__date_pl_days", true, [2]types.T{d, i4}}, true
	case op == OpSub && l.Kind == types.Date && small(r):
		return datetimeOp{"__date_mi_days", false, [2]types.T{d, i4}}, true
	case op == OpSub && l.Kind == types.Date && r.Kind == types.Date:
		return datetimeOp{"__date_mi_date", false, [2]types.T{d, d}}, true
	case op == OpAdd && l.Kind == types.Date && r.Kind == types.Time:
		return datetimeOp{"__date_pl_time", false, [2]types.T{d, tm}}, true
	case op == OpAdd && l.Kind == types.Time && r.Kind == types.Date:
		return datetimeOp{"__date_pl_time", true, [2]types.T{d, tm}}, true
	case (op == OpAdd || op == OpSub) && stamp(l) && isIv(r):
		t, prefix := stampOf(l, l)
		return datetimeOp{prefix + map[Op]string{OpAdd: "_pl_interval", OpSub: "_mi_interval"}[op], false, [2]types.T{t, iv}}, true
	case op == OpAdd && isIv(l) && stamp(r):
		t, prefix := stampOf(r, r)
		return datetimeOp{prefix + "_pl_interval", true, [2]types.T{t, iv}}, true
	case (op == OpAdd || op == OpSub) && l.Kind == types.Time && isIv(r):
		return datetimeOp{map[Op]string{OpAdd: "__time_pl_interval", OpSub: "__time_mi_interval"}[op], false, [2]types.T{tm, iv}}, true
	case op == OpAdd && isIv(l) && r.Kind == types.Time:
		return datetimeOp{"__time_pl_interval", true, [2]types.T{tm, iv}}, true
	case (op == OpAdd || op == OpSub) && l.Kind == types.TimeTZ && isIv(r):
		return datetimeOp{map[Op]string{OpAdd: "__timetz_pl_interval", OpSub: "__timetz_mi_interval"}[op], false, [2]types.T{types.TimeTZType(6), iv}}, true
	case op == OpAdd && isIv(l) && r.Kind == types.TimeTZ:
		return datetimeOp{"__timetz_pl_interval", true, [2]types.T{types.TimeTZType(6), iv}}, true
	case op == OpAdd && l.Kind == types.Date && r.Kind == types.TimeTZ:
		return datetimeOp{"__date_pl_timetz", false, [2]types.T{d, types.TimeTZType(6)}}, true
	case op == OpAdd && l.Kind == types.TimeTZ && r.Kind == types.Date:
		return datetimeOp{"__date_pl_timetz", true, [2]types.T{d, types.TimeTZType(6)}}, true
	case op == OpSub && stamp(l) && stamp(r) && !(l.Kind == types.Date && r.Kind == types.Date):
		t, prefix := stampOf(l, r)
		return datetimeOp{prefix + "_mi" + prefix[1:], false, [2]types.T{t, t}}, true
	case (op == OpAdd || op == OpSub) && isIv(l) && isIv(r):
		return datetimeOp{map[Op]string{OpAdd: "__interval_pl", OpSub: "__interval_mi"}[op], false, [2]types.T{iv, iv}}, true
	case (op == OpMul || op == OpDiv) && isIv(l) && r.IsNumeric():
		return datetimeOp{map[Op]string{OpMul: "__interval_mul", OpDiv: "__interval_div"}[op], false, [2]types.T{iv, f8}}, true
	case op == OpMul && l.IsNumeric() && isIv(r):
		return datetimeOp{"__interval_mul", true, [2]types.T{iv, f8}}, true
	}
	return datetimeOp{}, false
}

// timeAsInterval is datetimeArithmetic after PostgreSQL's implicit cast of
// time to interval, for the operators time has none of its own for:
// timestamp + time, date - time, time - time, 2 * time, time / 2 ...
func timeAsInterval(op Op, l, r types.T) (datetimeOp, bool) {
	iv := types.T{Kind: types.Interval}
	if l.Kind == types.Time {
		if t, ok := datetimeArithmetic(op, iv, r); ok {
			return t, true
		}
	}
	if r.Kind == types.Time {
		if l.Kind == types.Time {
			return datetimeArithmetic(op, iv, iv)
		}
		return datetimeArithmetic(op, l, iv)
	}
	return datetimeOp{}, false
}

// isDatetimeOperator reports whether op on operands of kinds l and r may
// be one of datetimeArithmetic's operators.
func isDatetimeOperator(op Op, l, r types.Kind) bool {
	return (op == OpAdd || op == OpSub || op == OpMul || op == OpDiv) && (isDatetimeKind(l) || isDatetimeKind(r))
}

// isDatetimeKind reports whether k is a date, time, timestamp[tz] or
// interval: the kinds datetimeArithmetic's operators take.
func isDatetimeKind(k types.Kind) bool {
	switch k {
	case types.Date, types.Time, types.Timestamp, types.TimestampTZ, types.Interval, types.TimeTZ:
		return true
	}
	return false
}

// coerceUnknownDatetimeOperand types an unknown literal next to a date/time
// operand where PostgreSQL's operator resolution does not simply give it
// the other side's type: timestamp[tz] + '1 day' and time + '1 hour' take
// an interval (no timestamp + timestamp operator exists), interval * '2'
// a double, and date + '...' is ambiguous (date + integer, + interval and
// + time all fit).
func (b *binder) coerceUnknownDatetimeOperand(n sourceNode, op Op, l, r Expr) (Expr, Expr, error) {
	unknownLeft := isUnknown(l.Type())
	known := l.Type()
	if unknownLeft {
		known = r.Type()
	}
	var target types.T
	switch {
	case op == OpAdd && (known.Kind == types.Timestamp || known.Kind == types.TimestampTZ || known.Kind == types.Time || known.Kind == types.TimeTZ):
		target = types.T{Kind: types.Interval}
	case (op == OpMul || (op == OpDiv && !unknownLeft)) && (known.Kind == types.Interval || known.Kind == types.Time):
		// time has no * or / of its own: PostgreSQL reads it as the
		// interval it casts to implicitly, and the literal as interval's
		// float8 factor
		target = types.Float64Type
	case op == OpAdd && known.Kind == types.Date:
		lt, rt := l.Type(), r.Type()
		if isUnknown(lt) {
			lt = types.UnknownType
		}
		if isUnknown(rt) {
			rt = types.UnknownType
		}
		return nil, nil, b.errAt(n, sqlerr.New(sqlerr.AmbiguousFunction, "operator is not unique: %s + %s", lt.PGName(), rt.PGName()).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts."))
	default:
		return l, r, nil
	}
	var err error
	if unknownLeft {
		l, err = b.coerceUnknown(n, l, target)
	} else {
		r, err = b.coerceUnknown(n, r, target)
	}
	return l, r, err
}

func isUnknown(t types.T) bool { return t.Kind == types.Unknown || t.Kind == types.Null }

// operandType is the type an unknown operand takes next to t.
func operandType(t types.T) types.T {
	t = t.Nullable()
	if t.IsComposite() {
		// record = record's operand: the literal is an anonymous record's,
		// which has no input (composite.go)
		t.TypeOID = 0
		return t
	}
	if t.Kind == types.Char {
		// bpchar = 'abc ' is bpchar's operator: the literal as bpchar of
		// any length, compared without its trailing blanks
		return types.T{Kind: types.Char}
	}
	if t.IsBitString() {
		t.Length = 0 // read by bit_in without the typmod (bitstring.go)
		return t
	}
	if t.Kind == types.String && t.Variant == types.QChar {
		// "char" = 'ab' reads the literal as "char", its first byte
		return t
	}
	if t.IsString() && !functions.OwnStringType(t) {
		// compared as text: a literal longer than a varchar(n) is just unequal
		return types.StringType
	}
	return t // a uuid's literal is a uuid (checked as one), not text
}

// operandDecimal is the type an operand has in numeric arithmetic: a
// DECIMAL(p,s) or numeric as it is, anything else numeric.
func operandDecimal(t types.T) types.T {
	if t.Kind == types.Decimal {
		return t.Nullable()
	}
	return types.NumericType
}

// isBoundedString reports bpchar and varchar(n), the string types that
// are neither text nor name.
func isBoundedString(t types.T) bool {
	return t.Kind == types.Char || t.Kind == types.String && t.Variant == types.NoVariant && t.Length > 0
}

// resultCommonType is the type select_common_type gives two inputs of
// one result (CASE, COALESCE, UNION, VALUES, a FULL JOIN's merged USING
// column): commonType's, except that real with an integer or numeric
// stays real. Both convert to real implicitly and real to neither, so
// PostgreSQL keeps real there (pg_typeof(coalesce(1.5::float4, 2)) is
// real), where its arithmetic picks the float8 operators (commonType).
func resultCommonType(a, b types.T) (types.T, bool) {
	if t, ok, handled := oidResult(a, b); handled { // regconfigops.go
		return t, ok
	}
	if a.IsNumeric() && b.IsNumeric() && (a.Kind == types.Float32) != (b.Kind == types.Float32) && a.Kind != types.Float64 && b.Kind != types.Float64 {
		return types.Float32Type, true
	}
	if qa, qb := a.Variant == types.QChar && a.Kind == types.String, b.Variant == types.QChar && b.Kind == types.String; qa != qb &&
		!isUnknown(a) && !isUnknown(b) && a.Kind != types.Null && b.Kind != types.Null {
		// "char" is of its own category (Z): with text, varchar, bpchar
		// or name it has no common type (42804)
		return types.T{}, false
	}
	if a.Kind == types.Name && isBoundedString(b) || isBoundedString(a) && b.Kind == types.Name {
		// bpchar and varchar convert to name implicitly, name to them
		// only by assignment, and none is preferred: name, whichever
		// comes first (text, preferred, keeps text)
		return types.T{Kind: types.Name}, true
	}
	return commonType(a, b)
}

// selectCommonType is the type of one result whose inputs have types ins
// (a CASE, COALESCE, a VALUES column, a set operation's column, an IN
// list): PostgreSQL's select_common_type, whose whole-list rule
// (pgCommonTypeError) refuses first, the type then folded pairwise with
// resultCommonType,
// where an unknown input (an untyped literal or NULL) takes the others'
// type and all unknown is text; and select_common_typmod, where the result
// keeps a type modifier only when every input has it (withLiteralInput
// otherwise: an unknown input has none). implicitNull counts an unknown
// input the construct adds (CASE's missing ELSE). There is no 1-byte
// integer result type: "char" arithmetic results are smallint. Where two
// inputs have no common type it returns the index of the later one and
// noCommonType's error for what.
func selectCommonType(what string, ins []types.T, implicitNull bool) (types.T, int, *sqlerr.Error) {
	// PostgreSQL's rule over the whole list decides whether the inputs
	// have a type and which input a refusal is at (the first known
	// input's category, a later one's one-way conversion, every input's
	// conversion), before the fold below picks the type and modifier
	if chosen, bad, err := pgCommonTypeError(what, ins, implicitNull); err != nil {
		return chosen, bad, err
	}
	var t, first types.T
	have, sawUnknown, sameMod := false, implicitNull, true
	for i, in := range ins {
		if isUnknown(in) {
			sawUnknown = true
			continue
		}
		if !have {
			t, first, have = in.Nullable(), in, true
			continue
		}
		sameMod = sameMod && sameTypmod(first, in)
		c, ok := resultCommonType(t, in)
		if !ok {
			return t, i, noCommonType(what, t, in)
		}
		t = c
	}
	if !have {
		return types.StringType, -1, nil
	}
	if chosen, _, err := functions.CommonTypeAt(what, ins); err == nil && !functions.SamePGType(chosen, t) {
		// the whole-list rule's type where the fold's is another of its
		// category (name, text, name is name: the first input's, which
		// text does not replace, both converting each way)
		t = chosen.Nullable()
	}
	if sawUnknown || !sameMod || !sameTypmod(t, first) {
		t = withLiteralInput(t)
	}
	if t.Kind == types.Int8 {
		t = types.Int16Type
	}
	return t.Nullable(), -1, nil
}

// sameTypmod reports whether in has type t with its type modifier:
// PostgreSQL's select_common_typmod keeps a result's modifier only when
// every input has it, so COALESCE of a varchar(3) and a char(3) is varchar,
// not varchar(3).
func sameTypmod(t, in types.T) bool {
	return functions.SamePGType(in, t) && in.Length == t.Length && in.Precision == t.Precision && in.Scale == t.Scale
}

// withLiteralInput is the type of a result of type t (CASE, COALESCE,
// UNION, VALUES) one of whose inputs is an untyped literal: PostgreSQL
// coerces the literal to the type without a type modifier, so the inputs'
// modifiers disagree and the result has none (select_common_typmod):
// numeric(5,2) becomes numeric ('7' stays 7, not 7.00), timestamp(0)
// timestamp (the literal keeps its fraction), char(n) bpchar, varchar(n)
// varchar.
func withLiteralInput(t types.T) types.T {
	switch t.Kind {
	case types.Decimal:
		if t.Precision != 0 {
			t.Precision, t.Scale = 0, 0
		}
	case types.Timestamp, types.TimestampTZ, types.Time:
		t.Precision = 6
	case types.Char:
		t.Length = 0
	case types.String:
		if t.Length > 0 {
			t.Length = -1
		}
	}
	return t
}

// bpcharComparison is the type a comparison of a character(n) with a
// character varying compares as, in either order: PostgreSQL has no
// bpchar-varchar operator and picks bpchar's (varchar converts to bpchar
// implicitly), so trailing spaces do not count ('a '::varchar =
// 'a'::char(3) is true). commonType keeps the first of the two, as
// select_common_type does for a result, which made the varchar-first
// comparison a text one. Against text, PostgreSQL compares as text.
func bpcharComparison(lt, rt, common types.T) types.T {
	isVarchar := func(t types.T) bool { return t.Kind == types.String && t.Length != 0 }
	if lt.Kind == types.Char && isVarchar(rt) || rt.Kind == types.Char && isVarchar(lt) {
		return types.T{Kind: types.Char}
	}
	return common
}

// commonType is the type both operands are cast to: the same kind, or the
// wider of two numeric kinds (int < numeric < float), or text for text/char.
func commonType(a, b types.T) (types.T, bool) {
	a, b = a.Nullable(), b.Nullable()
	if a.Equal(b) {
		return a, true // e.g. two varchar(20) stay varchar(20)
	}
	if a.Kind == types.Null {
		return b, true
	}
	if b.Kind == types.Null {
		return a, true
	}
	if a.Kind == types.Row && len(a.Fields) == 0 && b.IsAnonRecord() {
		return b, true // NULL::record takes the other record's type
	}
	if b.Kind == types.Row && len(b.Fields) == 0 && a.IsAnonRecord() {
		return a, true
	}
	if a.IsAnonRecord() && b.IsAnonRecord() {
		// field by field (functions.CommonType's commonRecord):
		// PostgreSQL's two records are one type, record
		t, err := functions.CommonType("", []types.T{a, b})
		return t, err == nil
	}
	if a.Kind == types.Array || b.Kind == types.Array {
		// by the elements, as PostgreSQL's select_common_type does with
		// its array coercions: int[] and numeric[] are numeric[], int[]
		// and text[] nothing
		if a.Kind != b.Kind {
			return types.T{}, false
		}
		t, err := functions.CommonType("", []types.T{a, b})
		return t, err == nil
	}
	if a.IsBitString() || b.IsBitString() {
		return bitCommonType(a, b) // bitstring.go
	}
	if a.IsMacAddr() && b.IsMacAddr() {
		return a, true // each converts implicitly to the other: the first is kept
	}
	if isInetType(a) && isInetType(b) {
		return types.InetType, true // cidr converts implicitly to inet (netops.go)
	}
	if functions.OwnStringType(a) || functions.OwnStringType(b) {
		// json, jsonb and uuid convert implicitly to no other type
		if functions.SamePGType(a, b) {
			return a, true
		}
		return types.T{}, false
	}
	if a.IsMoney() || b.IsMoney() {
		return types.T{}, false // money converts implicitly to no other type
	}
	if a.IsNumeric() && b.IsNumeric() {
		switch {
		case a.Kind == types.Float64 || b.Kind == types.Float64:
			return types.Float64Type, true
		case a.Kind == types.Float32 && b.Kind == types.Float32:
			return types.Float32Type, true
		case a.Kind == types.Float32 || b.Kind == types.Float32:
			// PostgreSQL resolves real op int and real op numeric to the
			// float8 operators (SELECT pg_typeof(1 + 1.5::float4) is double precision)
			return types.Float64Type, true
		case a.Kind == types.Decimal || b.Kind == types.Decimal:
			// two different DECIMAL(p,s), or a decimal and an integer:
			// numeric holds both exactly
			return types.NumericType, true
		}
		if a.Kind >= b.Kind {
			return a, true
		}
		return b, true
	}
	// oid compares with integers (PostgreSQL casts int4 to oid implicitly).
	if a.Kind == types.Oid && b.IsInteger() || b.Kind == types.Oid && a.IsInteger() {
		return types.T{Kind: types.Oid}, true
	}
	if (a.Kind == types.Name && b.IsString()) || (b.Kind == types.Name && a.IsString()) {
		return types.StringType, true
	}
	if a.IsString() && b.IsString() {
		// PostgreSQL's select_common_type keeps the first of two string
		// types that convert to each other implicitly (varchar then text
		// is varchar); a length limit only survives when both agree.
		if a.Kind == types.String && a.Length != 0 && a.Length != b.Length {
			a.Length = -1 // varchar without a limit, see types.T.Length
		}
		if a.Kind == types.Char && a.Length != b.Length {
			a.Length = 0 // bpchar without a length, see types.T.Length
		}
		return a, true
	}
	if (a.Kind == types.Timestamp || a.Kind == types.TimestampTZ) && (b.Kind == types.Timestamp || b.Kind == types.TimestampTZ) {
		p := max(a.Precision, b.Precision)
		if a.Kind == types.TimestampTZ || b.Kind == types.TimestampTZ {
			return types.TimestampTZType(p), true
		}
		return types.TimestampType(p), true
	}
	if a.Kind == types.Date && (b.Kind == types.Timestamp || b.Kind == types.TimestampTZ) {
		return b, true
	}
	if b.Kind == types.Date && (a.Kind == types.Timestamp || a.Kind == types.TimestampTZ) {
		return a, true
	}
	if (a.Kind == types.Bytes || a.Kind == types.Binary) && (b.Kind == types.Bytes || b.Kind == types.Binary) {
		return types.BytesType, true
	}
	if t, ok := timeTZCommon(a, b); ok { // timetz.go
		return t, true
	}
	if a.Kind == b.Kind && !a.IsNested() {
		if a.Kind == types.Time {
			return types.T{Kind: types.Time, Precision: max(a.Precision, b.Precision)}, true
		}
		return a, true
	}
	return types.T{}, false
}

// castTo wraps e in a Cast when its type differs from t.
func (b *binder) castTo(e Expr, t types.T) Expr {
	et := e.Type()
	return b.castTyped(e, &et, &t)
}

// castTyped is castTo of e, whose type et the caller has at hand (the
// types by pointer: a T is 72 bytes, and operators cast both operands).
func (b *binder) castTyped(e Expr, et, t *types.T) Expr {
	// Equal compares the types and not their top-level NOT NULL, which is
	// what matters here: no copies with NOT NULL cleared are needed.
	if et.Same(t) {
		return e
	}
	if c, ok := e.(*Const); ok && c.Value == nil {
		return b.newConst(nil, t.Nullable())
	}
	if et.Kind == types.Char && t.Kind == types.Name {
		// bpchar_name drops the trailing blanks, as bpchar's text does
		e = b.newCast(e, types.StringType)
	}
	return b.newCast(e, t.Nullable())
}

// resolveUnknown gives an unknown-typed literal or parameter the type t
// (used where context says nothing else, e.g. SELECT 'x' is text).
func (b *binder) resolveUnknown(e Expr, t types.T) Expr {
	if !isUnknown(e.Type()) {
		return e
	}
	if p, ok := e.(*Param); ok && t.Kind == types.String {
		// A parameter nothing else types stays unspecified (OID 0 in
		// ParameterDescription, so drivers may send any value as text);
		// its value is used as text.
		return &Param{Index: p.Index, T: types.StringType}
	}
	out, err := b.coerceUnknown(nil, e, t)
	if err != nil {
		return e
	}
	return out
}

// coerceUnknown converts an unknown literal to t now (so a bad literal is a
// bind-time 22P02, as in PostgreSQL), or infers an untyped parameter's type.
// The value keeps a collation a COLLATE clause gave the literal
// (collate.go).
func (b *binder) coerceUnknown(n sourceNode, e Expr, t types.T) (Expr, error) {
	out, err := b.coerceUnknownValue(n, e, t)
	if err == nil && len(b.collMarks) > 0 {
		b.keepCollation(e, out) // collate.go
	}
	return out, err
}

func (b *binder) coerceUnknownValue(n sourceNode, e Expr, t types.T) (Expr, error) {
	t = t.Nullable()
	if c, ok := e.(*Const); ok && c.Value != nil && isUnknown(c.T) && t.Variant.IsReg() {
		// 'name' as a regclass, regtype, ... argument looks the name up,
		// as 'name'::regclass does (pg_partition_ancestors('t'))
		if err := b.regLiteral(c, t.Variant); err != nil {
			return nil, err
		}
		return b.callFunction(n, t.Variant.Name()+"_in", []Expr{b.resolveUnknown(e, types.StringType)})
	}
	switch x := e.(type) {
	case *Const:
		if x.Value == nil {
			return b.newConst(nil, t), nil
		}
		s, ok := x.Value.(string)
		if !ok {
			return e, nil
		}
		var v any
		var err error
		if isAnonRecordInput(t) {
			err = anonRecordInput() // recordcast.go
		} else if t.Kind == types.Array {
			v, err = b.parseArrayLiteral(s, t)
		} else if (t.Kind == types.String || t.Kind == types.Unknown) && t.Length <= 0 && t.Variant == types.NoVariant {
			// text as written, as ParseTextIn gives it: the literal's
			// value is already that string, boxed once
			v = x.Value
		} else if t.Kind == types.Interval {
			// A literal is read with the qualifier (INTERVAL '1' DAY is a
			// day), as PostgreSQL passes the typmod to interval_in for a
			// constant; a run-time text -> interval cast reads it without
			// and then truncates (exec's cast, types.ParseTextIn).
			// (in IntervalStyle sql_standard a leading minus negates
			// every field)
			v, err = types.ParseIntervalAsStyle(s, t, functions.StyleOf(b.ctx).Interval)
		} else {
			// A timestamptz literal without an offset is in the session's
			// zone, a date in numbers only in its DateStyle's order.
			v, err = types.ParseTextStyle(s, t, functions.LocationOf(b.ctx), functions.TransactionTime(b.ctx), functions.StyleOf(b.ctx))
		}
		if err != nil {
			if se := sqlerr.As(err); se != nil && x.At > 0 && b.stmt != nil {
				return nil, se.WithPosition(b.stmt.Position(x.At - 1))
			}
			if se := sqlerr.As(err); se != nil && n != nil {
				return nil, b.errAt(n, se)
			}
			return nil, err
		}
		return b.newConst(v, t), nil
	case *Param:
		if b.params[x.Index].Kind == types.Unknown {
			b.params[x.Index] = t
		}
		return &Param{Index: x.Index, T: b.params[x.Index]}, nil
	}
	return e, nil
}

// coerce converts e to target where PostgreSQL would do it implicitly in an
// assignment-free context (WHERE, AND/OR/NOT arguments), else 42804.
func (b *binder) coerce(n sourceNode, e Expr, target types.T, what string) (Expr, error) {
	if target.Kind == types.Bool && b.srf != nil && len(b.srf.calls) > 0 {
		if err := b.setArgument(n, e, what); err != nil { // srf.go
			return nil, err
		}
	}
	if isUnknown(e.Type()) {
		return b.coerceUnknown(n, e, target)
	}
	if e.Type().Kind == target.Kind {
		return e, nil
	}
	return nil, b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "%s must be type %s, not type %s", what, target.PGName(), e.Type().PGName()))
}

func noOperator(op string, t types.T) *sqlerr.Error {
	t = namedOperand(t) // operators.go
	return sqlerr.New(sqlerr.UndefinedFunction, "operator does not exist: %s %s", op, t.OperandName()).
		WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
}

// noArithmetic reports an unknown-typed literal u beside an operand of type
// t that has no arithmetic operator op (boolean, text, bytea, arrays; * and /
// of dates and times), where no reading of the literal can make it exist.
func noArithmetic(op Op, u, t types.T, uLeft bool) bool {
	if !isUnknown(u) || isUnknown(t) {
		return false
	}
	switch t.Kind {
	case types.Bool, types.String, types.Char, types.Name, types.Bytes, types.Binary, types.Array:
		return true
	case types.Date, types.TimeTZ, types.Timestamp, types.TimestampTZ:
		return op == OpMul || op == OpDiv || op == OpMod // only + and - exist
	case types.Time, types.Interval:
		// time casts to interval, which has * and / by a number but
		// nothing divided by it, and no %
		return op == OpMod || op == OpDiv && uLeft
	case types.Float32, types.Float64:
		return op == OpMod // % is for integers and numeric
	}
	return false
}

// binaryOpError is the 42883 of binary operator op between types lt and
// rt, at the operator. IS [NOT] DISTINCT FROM is PostgreSQL's = made
// NULL-safe: its lookup is ='s and so is the error's name; the rewrite
// spells it <=>, placed at IS, where PostgreSQL points.
func (b *binder) binaryOpError(n sourceNode, op Op, lt, rt types.T) *sqlerr.Error {
	if op == OpIsDistinct || op == OpIsNotDistinct {
		return b.errAtOperator(n, "<=>", noBinaryOperator("=", lt, rt))
	}
	if op == OpMod && b.spelledAsCall(n, "mod") {
		// mod(a, b), which TiDB's grammar parses as a % b: PostgreSQL
		// resolves the function, and names it
		return b.errAt(n, functions.UndefinedFunction("mod", []types.T{namedOperand(lt), namedOperand(rt)}))
	}
	return b.operatorError(n, op.String(), lt, rt)
}

// spelledAsCall reports whether the text of n is a call of name (mod(a, b)
// rather than a % b).
func (b *binder) spelledAsCall(n sourceNode, name string) bool {
	if n == nil || b.stmt == nil {
		return false
	}
	text, start := b.stmt.Rewritten, n.OriginTextPosition()
	if start < 0 || start+len(name) > len(text) || !strings.EqualFold(text[start:start+len(name)], name) {
		return false
	}
	rest := strings.TrimLeft(text[start+len(name):], " \t\r\n")
	return strings.HasPrefix(rest, "(")
}

func noBinaryOperator(op string, l, r types.T) *sqlerr.Error {
	l, r = namedOperand(l), namedOperand(r) // operators.go
	return sqlerr.New(sqlerr.UndefinedFunction, "operator does not exist: %s %s %s", l.OperandName(), op, r.OperandName()).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// sqlValueFunctions are SQL's parameterless functions spelled without
// parentheses, which TiDB reads as column names when it does not know them.
var sqlValueFunctions = map[string]string{
	"current_user": "current_user", "session_user": "session_user", "user": "user",
	"current_catalog": "current_catalog", "current_schema": "current_schema", "current_role": "current_role",
}

// pgCommonTypeError is select_common_type's error over all of ins, and
// the index of the input it is about, checked before the pairwise fold
// (nil when PostgreSQL's whole-list rule finds a type): the
// category of each input is checked against the type chosen so far,
// which only a non-preferred type's one-way implicit conversion moves
// (42804, at the input of the other category), then every input must
// convert to the type chosen (42846 at the first that does not: three
// types of one category can fail where each pair would not). CASE's
// conversion names its ELSE result (the first input, when written) as
// CASE/ELSE and the others as CASE/WHEN (transformCaseExpr). With 42846
// it returns the type chosen too.
func pgCommonTypeError(what string, ins []types.T, implicitNull bool) (types.T, int, *sqlerr.Error) {
	chosen, bad, err := functions.CommonTypeAt(what, ins)
	e := sqlerr.As(err)
	if e == nil || bad < 0 {
		return types.T{}, -1, nil
	}
	if e.Code == sqlerr.CannotCoerce && what == "CASE" {
		ctx := "CASE/WHEN"
		if bad == 0 && !implicitNull {
			ctx = "CASE/ELSE"
		}
		_, _, err = functions.CommonTypeAt(ctx, ins)
		e = sqlerr.As(err)
	}
	return chosen, bad, e
}

// noCommonType is the error of a construct (what: "UNION", "VALUES",
// "CASE", "COALESCE"...) whose inputs of types a (the type chosen so far)
// and b have no common type, as PostgreSQL words it (functions.CommonType):
// 42804 "types a and b cannot be matched" between categories, 42846 "could
// not convert type x to y" within one (two arrays, json and uuid), where a
// CASE says "CASE/WHEN" (transformCaseExpr's coerce_to_common_type
// context).
func noCommonType(what string, a, b types.T) *sqlerr.Error {
	ts := []types.T{a, b}
	_, err := functions.CommonType(what, ts)
	if e := sqlerr.As(err); e != nil && e.Code == sqlerr.CannotCoerce && what == "CASE" {
		_, err = functions.CommonType("CASE/WHEN", ts)
	}
	if e := sqlerr.As(err); e != nil {
		return e
	}
	// the binder's pairwise rules (commonType) refuse a pair that
	// select_common_type would take
	return sqlerr.New(sqlerr.DatatypeMismatch, "%s types %s and %s cannot be matched", what, a.PGName(), b.PGName())
}
