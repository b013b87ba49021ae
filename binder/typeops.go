package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// typeSortOps is the one rule for which of the operators sorting,
// grouping and comparing need a type has in PostgreSQL: ordering (a
// default btree "<" and its comparison function, for ORDER BY, window
// ORDER BY, an ordered aggregate, GREATEST and LEAST) and equality (a
// default btree or hash "=", for GROUP BY, DISTINCT, PARTITION BY, UNION,
// INTERSECT, EXCEPT). json, jsonpath, anyarray and the geometric types have neither; aclitem
// and xid have hash equality only; pg_node_tree, binary-coercible to text,
// has text's; an array has what its element type has (vectors, whose
// operators are oid's and int2's, have both). The nested types' own rules
// (order.go: orderableArray, orderableRecord) stay where they are.
func typeSortOps(t types.T) (ordering, equality bool) {
	if t.Kind == types.Array && t.Elem != nil && !t.Variant.IsVector() {
		return typeSortOps(*t.Elem)
	}
	switch t.Variant {
	case types.JSON, types.JSONPath, types.AnyArray,
		types.GeoPoint, types.GeoLSeg, types.GeoLine, types.GeoBox, types.GeoPath, types.GeoPolygon, types.GeoCircle:
		// the geometric types have no btree or hash opclass
		return false, false
	case types.AclItem, types.Xid:
		return false, true
	}
	return true, true
}

// errNoOrdering is PostgreSQL's error for a sort key of a type without an
// ordering operator (get_sort_group_operators).
func errNoOrdering(t types.T) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedFunction, "could not identify an ordering operator for type %s", t.PGName()).
		WithHint("Use an explicit ordering operator or modify the query.")
}

// errNoEquality is PostgreSQL's error for a grouping key of a type
// without an equality operator (get_sort_group_operators).
func errNoEquality(t types.T) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedFunction, "could not identify an equality operator for type %s", t.PGName())
}

// errNoComparison is PostgreSQL's error for GREATEST or LEAST over a type
// without an ordering operator: found when the expression is made ready
// to run (after the literals' input), so it has no position.
func errNoComparison(t types.T) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedFunction, "could not identify a comparison function for type %s", t.PGName())
}

// checkSortable refuses an ORDER BY key of type t, at node.
func (b *binder) checkSortable(node sourceNode, t types.T) error {
	if ord, _ := typeSortOps(t); !ord {
		return b.errAt(node, errNoOrdering(t))
	}
	return nil
}

// checkGroupable refuses a grouping key of type t, at node.
func (b *binder) checkGroupable(node sourceNode, t types.T) error {
	if _, eq := typeSortOps(t); !eq {
		return b.errAt(node, errNoEquality(t))
	}
	return nil
}

// checkDistinctArg refuses an aggregate's DISTINCT argument of type t, at
// node: PostgreSQL sorts the inputs, so a type with equality alone (xid)
// is refused too.
func (b *binder) checkDistinctArg(node sourceNode, t types.T) error {
	if err := b.checkGroupable(node, t); err != nil {
		return err
	}
	if ord, _ := typeSortOps(t); !ord {
		return b.errAt(node, sqlerr.New(sqlerr.UndefinedFunction, "could not identify an ordering operator for type %s", t.PGName()).
			WithDetail("Aggregates with DISTINCT must be able to sort their inputs."))
	}
	return nil
}

// checkPartitionKey refuses a window's PARTITION BY key of type t, at
// node: PostgreSQL sorts the partitions, so a type with equality alone
// (xid) is refused too, when the plan is made (no position).
func (b *binder) checkPartitionKey(node sourceNode, t types.T) error {
	if err := b.checkGroupable(node, t); err != nil {
		return err
	}
	if ord, _ := typeSortOps(t); !ord {
		return sqlerr.New(sqlerr.FeatureNotSupported, "could not implement window PARTITION BY").
			WithDetail("Window partitioning columns must be of sortable datatypes.")
	}
	return nil
}

// checkSetOpKeys refuses a set operation that compares rows (all but UNION
// ALL) over a column of a type without equality, at the column's
// expression in the leftmost branch, where PostgreSQL points.
func (b *binder) checkSetOpKeys(so *pt.SetOp, cols []Column) error {
	if so.Op == pt.Union && so.All {
		return nil
	}
	for i, c := range cols {
		if _, eq := typeSortOps(c.T); !eq {
			return b.errAt(leftmostTarget(so, i), errNoEquality(c.T))
		}
	}
	return nil
}

// leftmostTarget is output column i's expression in q's leftmost SELECT
// (nil when that is no plain select list item, e.g. a VALUES row).
func leftmostTarget(q pt.Query, i int) sourceNode {
	for {
		switch x := q.(type) {
		case *pt.SetOp:
			q = x.L
			continue
		case *pt.Select:
			if i < len(x.Targets) {
				if _, star := x.Targets[i].X.(*pt.Star); !star {
					return x.Targets[i].X
				}
			}
		}
		return nil
	}
}

// checkDistinctTargets refuses SELECT DISTINCT over a column of a type
// without equality, at its select-list item.
func (b *binder) checkDistinctTargets(targets []*pt.Target, cols []Column) error {
	for i, c := range cols {
		if _, eq := typeSortOps(c.T); !eq {
			var at sourceNode
			if len(targets) == len(cols) {
				at = targets[i].X
			}
			return b.errAt(at, errNoEquality(c.T))
		}
	}
	return nil
}

// applyUsing reads ORDER BY key USING op (item.Using) for a key of type t
// as the direction it names: "<" ascending, ">" descending (whose NULLS
// default is FIRST, as DESC's). PostgreSQL takes only a type's btree "<"
// or ">" there: another comparison is 42809, any other operator (or "<" on
// a type without ordering) the operator that does not exist, at the
// operator.
func (b *binder) applyUsing(item *pt.OrderItem, t types.T) error {
	switch op := item.Using; op {
	case "":
		return nil
	case "<", ">":
		if ord, _ := typeSortOps(t); !ord || t.Kind == types.Map || (t.IsNested() && !orderableArray(t) && !orderableRecord(t) && !isEnumArray(t)) {
			return b.errAt(item.UsingAt, noBinaryOperator(op, t, t))
		}
		item.Desc = op == ">"
		return nil
	case "<=", ">=", "=", "<>", "!=":
		return b.errAt(item.UsingAt, errNotOrderingOp(op))
	}
	if textOperators[item.Using] && (t.Kind == types.String || t.Kind == types.Char) && t.Variant == types.NoVariant {
		return b.errAt(item.UsingAt, errNotOrderingOp(item.Using)) // an operator text has
	}
	return b.errAt(item.UsingAt, noBinaryOperator(item.Using, t, t))
}

// textOperators are the boolean operators text has besides comparisons
// (LIKE's, the regular expressions', starts-with, the pattern comparisons).
var textOperators = map[string]bool{
	"~~": true, "!~~": true, "~~*": true, "!~~*": true, "~": true, "!~": true, "~*": true, "!~*": true,
	"^@": true, "~<~": true, "~<=~": true, "~>=~": true, "~>~": true,
}

// errNotOrderingOp is PostgreSQL's refusal of an operator that exists but
// does not order (USING <=, USING ~~ on text).
func errNotOrderingOp(op string) *sqlerr.Error {
	return sqlerr.New(sqlerr.WrongObjectType, "operator %s is not a valid ordering operator", op).
		WithHint(`Ordering operators must be "<" or ">" members of btree operator families.`)
}
