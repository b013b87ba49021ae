package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Collations, as PostgreSQL's parse_collate.c derives them. Every
// collation sqlgate has orders strings by their bytes (sql.KnownCollation),
// so a collation never changes a result here: what the derivation decides
// is which statements PostgreSQL refuses.
//
//   - x COLLATE name (bindCollate): x of a type without collations is
//     42804, an unknown name 42704 (an ICU collation, which sqlgate cannot
//     order by, 0A000); the value is x, with an explicit collation.
//   - Each expression's collation is derived bottom-up (collationOf): a
//     column has its declared collation (implicit), any other value of a
//     collatable type the default (implicit; name's is "C"), a node's
//     children merge (mergeCollation): explicit beats implicit beats none,
//     two different explicit collations are 42P21 at the second COLLATE,
//     two different non-default implicit ones are a conflict, which
//     an explicit one above resolves.
//   - A sort or group key (ORDER BY, GROUP BY, DISTINCT [ON], an
//     aggregate's DISTINCT or ORDER BY) whose collation is a conflict is
//     42P21 "collation mismatch between implicit collations" at the second
//     column (parse_collate.c's TargetEntry check).
//
// The derivation runs once the statement is bound (checkCollations), over
// the bound plan, when the statement wrote a COLLATE or reads a column
// declared with one: the errors of every clause's binding come first, as
// PostgreSQL assigns collations after it has transformed the query.

// collStrength is a derivation's strength, weakest first
// (parse_collate.c's CollateStrength).
type collStrength uint8

const (
	collNone collStrength = iota
	collImplicit
	collConflict
	collExplicit
)

// collState is an expression's derived collation: name and where it comes
// from (at: a COLLATE clause or a column reference, nil elsewhere), and for
// a conflict the second collation and its place.
type collState struct {
	strength collStrength
	name     string
	at       sourceNode
	name2    string
	at2      sourceNode
}

// collMark is what binding recorded of one expression: the collation of
// a COLLATE clause (explicit) or of a column declared with one (implicit),
// and the place.
type collMark struct {
	name     string
	explicit bool
	at       sourceNode
}

// defaultCollation is the name of the database's default collation.
const defaultCollation = "default"

// collatableType reports whether values of t have a collation: the string
// types and name (PostgreSQL's type_is_collatable), and arrays of them.
func collatableType(t types.T) bool {
	return collatable(t) || t.ArrayLeaf().Kind == types.Name
}

// typeCollation is the collation a value of t has when nothing else gives
// it one: name's is "C", the other collatable types' the default.
func typeCollation(t types.T) string {
	if t.ArrayLeaf().Kind == types.Name {
		return "C"
	}
	return defaultCollation
}

// markCollation records m for e. A leaf is copied first: a column
// reference or constant may stand for more than one place (x COLLATE "C"
// marks its own x, not every x); other nodes are made where they are
// bound, a later mark (x COLLATE a COLLATE b) replacing an earlier.
func (b *binder) markCollation(e Expr, m collMark) Expr {
	switch x := e.(type) {
	case *ColumnRef:
		c := *x
		e = &c
	case *Const:
		c := *x
		e = &c
	case *Param:
		c := *x
		e = &c
	}
	if b.collMarks == nil {
		b.collMarks = map[Expr]collMark{}
	}
	b.collMarks[e] = m
	return e
}

// keepCollation gives to, a value made of from (an unknown literal given
// its type), from's mark.
func (b *binder) keepCollation(from, to Expr) {
	if m, ok := b.collMarks[from]; ok && to != from {
		b.collMarks[to] = m
	}
}

// bindCollate binds x COLLATE name (parse_expr.c's transformCollateClause):
// x's type must be collatable (or unknown: a literal stays one, its
// collation kept when it is given a type) before the name is looked up.
func (b *binder) bindCollate(s *scope, n *pt.Collate) (Expr, error) {
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	if t := x.Type(); !collatableType(t) && !isUnknown(t) {
		return nil, b.errAt(&n.NameAt, types.CollationsNotSupported(typeNameOf(t)))
	}
	name, lerr := lookupCollation(n.Name)
	if lerr != nil {
		return nil, b.errAt(&n.NameAt, lerr)
	}
	return b.markCollation(x, collMark{name: name, explicit: true, at: &n.NameAt}), nil
}

// lookupCollation finds a COLLATE clause's collation: a name sqlgate has,
// unqualified or in pg_catalog (PostgreSQL's get_collation_oid over the
// search path, where pg_catalog's are the only ones).
func lookupCollation(parts []string) (string, *sqlerr.Error) {
	name := parts[len(parts)-1]
	if len(parts) == 1 || len(parts) == 2 && parts[0] == "pg_catalog" {
		if sql.KnownCollation(name) {
			return name, nil
		}
		if strings.HasSuffix(name, "-x-icu") {
			return "", sqlerr.New(sqlerr.FeatureNotSupported, "collation %q is an ICU collation, which sqlgate does not have", name).
				WithHint("sqlgate orders strings by their bytes, as the collations \"C\", \"POSIX\", \"C.utf8\", \"ucs_basic\" and \"default\" do.")
		}
	}
	return "", sqlerr.New(sqlerr.UndefinedObject, "collation %q for encoding \"UTF8\" does not exist", strings.Join(parts, "."))
}

// mergeCollation merges a child's state into its parent's (parse_collate.c's
// merge step): a stronger state wins, two explicit ones must agree, and of
// two implicit ones a non-default beats the default while two different
// non-defaults conflict.
func (b *binder) mergeCollation(ctx *collState, c collState) error {
	switch {
	case c.strength > ctx.strength:
		*ctx = c
	case c.strength < ctx.strength || c.name == ctx.name:
	case c.strength == collExplicit:
		return b.errAt(c.at, sqlerr.New(sqlerr.CollationMismatch, "collation mismatch between explicit collations %q and %q", ctx.name, c.name))
	case c.strength == collImplicit:
		switch {
		case ctx.name == defaultCollation:
			*ctx = c
		case c.name != defaultCollation:
			ctx.strength, ctx.name2, ctx.at2 = collConflict, c.name, c.at
		}
	}
	return nil
}

// collationOf derives e's collation, failing on two explicit collations
// that meet.
func (b *binder) collationOf(e Expr) (collState, error) {
	var ctx collState
	var err error
	switch x := e.(type) {
	case *ColumnRef, *Const, *Param, *OuterRef:
		// leaves
	case *Subquery:
		// its first column's collation, implicit; the subquery's own
		// expressions are checked with its plan
	case *Case:
		// the conditions are boolean: only the results merge
		for _, w := range x.Whens {
			if _, err := b.collationOf(w.Cond); err != nil {
				return collState{}, err
			}
			if err := b.mergeChild(&ctx, w.Result); err != nil {
				return collState{}, err
			}
		}
		if x.Else != nil {
			err = b.mergeChild(&ctx, x.Else)
		}
	default:
		_, err = MapChildren(e, func(c Expr) (Expr, error) {
			return c, b.mergeChild(&ctx, c)
		})
	}
	if err != nil {
		return collState{}, err
	}
	if m, ok := b.collMarks[e]; ok { // (its children checked first)
		if m.explicit {
			return collState{strength: collExplicit, name: m.name, at: m.at}, nil
		}
		return collState{strength: collImplicit, name: m.name, at: m.at}, nil
	}
	t := e.Type()
	switch {
	case !collatableType(t):
		return collState{}, nil
	case ctx.strength > collNone:
		return ctx, nil
	}
	return collState{strength: collImplicit, name: typeCollation(t)}, nil
}

// mergeChild derives c's collation and merges it into ctx.
func (b *binder) mergeChild(ctx *collState, c Expr) error {
	st, err := b.collationOf(c)
	if err != nil {
		return err
	}
	return b.mergeCollation(ctx, st)
}

// sortKeyCollation checks a sort or group key: its collation must not be
// a conflict of implicit collations.
func (b *binder) sortKeyCollation(e Expr) error {
	st, err := b.collationOf(e)
	if err != nil || st.strength != collConflict {
		return err
	}
	return b.errAt(st.at2, sqlerr.New(sqlerr.CollationMismatch, "collation mismatch between implicit collations %q and %q", st.name, st.name2).
		WithHint("You can choose the collation by applying the COLLATE clause to one or both expressions."))
}

// checkCollations derives the collations of a bound statement's
// expressions, when it has any COLLATE clause or column with a collation.
func (b *binder) checkCollations(st Statement) error {
	if len(b.collMarks) == 0 {
		return nil
	}
	var plans []Node
	switch x := st.(type) {
	case *Query:
		plans = append(plans, x.Plan)
	case *Insert:
		plans = append(plans, x.Source)
	case *Update:
		plans = append(plans, x.Source)
	case *Delete:
		plans = append(plans, x.Keys)
	case *CreateTable:
		plans = append(plans, x.Source)
	}
	for _, p := range plans {
		if p != nil {
			if err := b.checkPlanCollations(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkPlanCollations checks n's expressions and its inputs', subqueries
// included, the sort and group keys with sortKeyCollation.
func (b *binder) checkPlanCollations(n Node) error {
	var err error
	check := func(e Expr, key bool) {
		if err != nil || e == nil {
			return
		}
		if key {
			err = b.sortKeyCollation(e)
		} else {
			_, err = b.collationOf(e)
		}
		if err == nil {
			Walk(e, func(x Expr) {
				if q, ok := x.(*Subquery); ok && err == nil && q.Plan != nil {
					err = b.checkPlanCollations(q.Plan)
				}
			})
		}
	}
	switch x := n.(type) {
	case *Sort:
		for _, k := range x.Keys {
			check(keyExpr(x.Input, k.Expr), true)
		}
	case *Aggregate:
		for _, k := range x.GroupBy {
			check(keyExpr(x.Input, k), true)
		}
		nodeExprs(n, func(e Expr) { check(e, false) })
	case *Distinct:
		// SELECT DISTINCT: every output column is a key
		if p, ok := x.Input.(*Project); ok {
			for _, e := range p.Exprs {
				check(keyExpr(p.Input, e), true)
			}
		}
	default:
		nodeExprs(n, func(e Expr) { check(e, false) })
	}
	if err != nil {
		return err
	}
	for _, c := range n.Children() {
		if err := b.checkPlanCollations(c); err != nil {
			return err
		}
	}
	return nil
}

// noteScanCollations sets the Collation of each of cols, a scan of
// table's columns, declared with a COLLATE clause. Most tables have none:
// their properties are looked at for a column's collation key before the
// metadata is read.
func noteScanCollations(table fluss.TableInfo, cols []Column) {
	if !propertiesHave(table.Descriptor, func(k, _ string) bool { return strings.HasSuffix(k, ".collation") }) { // domains.go
		return
	}
	m := fluss.MetaOf(table.Descriptor)
	for i := range cols {
		cols[i].Collation = m.Column(i).Collation
	}
}

// keyExpr is the expression a sort or group key over input stands for:
// a reference to a projection's column is that column's expression (ORDER
// BY 1, DISTINCT), through projections over projections.
func keyExpr(input Node, e Expr) Expr {
	for {
		ref, ok := e.(*ColumnRef)
		p, isProject := input.(*Project)
		if !ok || !isProject || ref.Index < 0 || ref.Index >= len(p.Exprs) {
			return e
		}
		e, input = p.Exprs[ref.Index], p.Input
	}
}

// ColumnCollation is the collation ALTER COLUMN ... TYPE t [COLLATE name]
// keeps for the column ("" the type's default): name, which t must have
// collations for (42804).
func ColumnCollation(t types.T, name string) (string, error) {
	switch {
	case name == "":
		return "", nil
	case !collatableType(t):
		return "", types.CollationsNotSupported(typeNameOf(t))
	case name == defaultCollation:
		return "", nil
	}
	return name, nil
}
