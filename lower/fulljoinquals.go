package lower

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL runs a FULL JOIN only as a merge join or a hash join, and
// refuses at planning a FULL JOIN it can run as neither (0A000), where
// sqlgate's nested loop would answer. checkFullJoinQuals applies its rule
// (select_mergejoin_clauses, hash_inner_and_outer) to the condition of a
// join still FULL once folding and outer-join reduction are done (a WHERE
// that rejects a side's NULLs makes it LEFT, RIGHT or inner first, and then
// any condition goes):
//
//   - a hash join needs one conjunct that is a hashable equality between the
//     sides (an expression of left columns only = one of right columns only,
//     nothing volatile in it); its other conjuncts may be anything;
//   - a merge join needs every conjunct mergeable (such an equality, of
//     a type with a btree equality: bit strings have no hash one) or a constant (FULL JOIN ON false);
//   - a conjunct that is constant false or NULL (after folding) makes the
//     join's condition one the planner settles without either.
func checkFullJoinQuals(x *binder.Join) error {
	if x.Type != binder.FullJoin || x.Cond == nil {
		return nil
	}
	nl := len(x.Left.Columns())
	hashable, allMergeable := false, true
	for _, c := range qualConjuncts(nil, x.Cond) {
		if k, ok := c.(*binder.Const); ok {
			if falseOrNull(k) {
				return nil
			}
			continue
		}
		eq, ok := c.(*binder.BinaryOp)
		if !ok || eq.Op != binder.OpEq || !joinsSides(eq, nl) || containsVolatile(eq) {
			allMergeable = false
			continue
		}
		if hashableEquality(eq.L.Type()) {
			hashable = true
		}
	}
	if hashable || allMergeable {
		return nil
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "FULL JOIN is only supported with merge-joinable or hash-joinable join conditions")
}

// joinsSides reports whether one operand of eq reads only left columns and
// the other only right ones (each at least one): PostgreSQL's can_join and
// clause_sides_match_join. A correlated subquery reads the columns its
// Outer values read.
func joinsSides(eq *binder.BinaryOp, nl int) bool {
	l, r := sideBits(eq.L, nl, false), sideBits(eq.R, nl, false) // rules.go
	return (l == 1 && r == 2) || (l == 2 && r == 1)
}

// containsVolatile reports whether e calls a function PostgreSQL marks
// volatile (or a UDF, volatile unless declared otherwise): such a clause is
// neither hash- nor merge-joinable (check_hashjoinable, check_mergejoinable).
func containsVolatile(e binder.Expr) bool {
	found := false
	binder.Walk(e, func(x binder.Expr) {
		switch f := x.(type) {
		case *binder.FuncCall:
			found = found || f.Volatile || functions.VolatileInPostgres(f.Name)
		case *binder.UDFCall:
			found = true
		}
	})
	return found
}

// hashableEquality reports whether PostgreSQL's = on operands of type t can
// hash (oprcanhash): all of sqlgate's types but bit strings, whose equality
// is only btree-mergeable.
func hashableEquality(t types.T) bool {
	return !t.IsBitString()
}

// falseOrNull reports whether k is constant false or NULL: alike in a
// condition, which keeps only the rows it is true for.
func falseOrNull(k *binder.Const) bool {
	v, isBool := k.Value.(bool)
	return k.Value == nil || (isBool && !v)
}

// qualConjuncts appends e's conjuncts to out as PostgreSQL's
// canonicalize_qual leaves a condition: an OR drops its false and NULL
// arguments (alike in a condition) and is true when one is true, and
// conjuncts common to every argument of an OR are taken out of it
// ((A AND B) OR (A AND C) is A AND (B OR C); A OR A is A).
func qualConjuncts(out []binder.Expr, e binder.Expr) []binder.Expr {
	b, ok := e.(*binder.BinaryOp)
	if !ok || (b.Op != binder.OpAnd && b.Op != binder.OpOr) {
		return append(out, e)
	}
	if b.Op == binder.OpAnd {
		return qualConjuncts(qualConjuncts(out, b.L), b.R)
	}
	var args [][]binder.Expr // each argument's conjuncts
	for _, d := range disjuncts(nil, b) {
		if k, ok := d.(*binder.Const); ok {
			if falseOrNull(k) {
				continue
			}
			return out // a true argument: the OR is true
		}
		args = append(args, qualConjuncts(nil, d))
	}
	switch len(args) {
	case 0:
		return append(out, &binder.Const{Value: false, T: types.BoolType})
	case 1:
		return append(out, args[0]...)
	}
	// the conjuncts of the first argument every other one has
	var common []binder.Expr
	for _, c := range args[0] {
		inAll := true
		for _, a := range args[1:] {
			inAll = inAll && containsExpr(a, c)
		}
		if inAll {
			common = append(common, c)
		}
	}
	out = append(out, common...)
	if len(common) == 0 {
		return append(out, e)
	}
	var rest binder.Expr
	for _, a := range args {
		var left binder.Expr
		for _, c := range a {
			if containsExpr(common, c) {
				continue
			}
			left = andOf(left, c)
		}
		if left == nil {
			return out // A OR (A AND B) is A
		}
		if rest == nil {
			rest = left
		} else {
			rest = &binder.BinaryOp{Op: binder.OpOr, L: rest, R: left, T: types.BoolType}
		}
	}
	return append(out, rest)
}

// disjuncts appends e's OR-ed terms to out, left to right.
func disjuncts(out []binder.Expr, e binder.Expr) []binder.Expr {
	if b, ok := e.(*binder.BinaryOp); ok && b.Op == binder.OpOr {
		return disjuncts(disjuncts(out, b.L), b.R)
	}
	return append(out, e)
}

// containsExpr reports whether list holds an expression equal to e
// (PostgreSQL compares the clauses with equal()).
func containsExpr(list []binder.Expr, e binder.Expr) bool {
	k := exprKey(e)
	for _, x := range list {
		if exprKey(x) == k {
			return true
		}
	}
	return false
}

// exprKey identifies an expression: its printed form, which names a
// column without its side, and the columns it reads in order.
func exprKey(e binder.Expr) string {
	var sb strings.Builder
	sb.WriteString(e.String())
	binder.Walk(e, func(x binder.Expr) {
		if c, ok := x.(*binder.ColumnRef); ok {
			sb.WriteString(" $" + strconv.Itoa(c.Index))
		}
	})
	return sb.String()
}

// andOf is a AND b, b alone when a is nil.
func andOf(a, b binder.Expr) binder.Expr {
	if a == nil {
		return b
	}
	return &binder.BinaryOp{Op: binder.OpAnd, L: a, R: b, T: types.BoolType}
}
