package sql

// ORDER BY e USING op [NULLS FIRST | LAST] (in a query's, a window's or an
// aggregate's ORDER BY): TiDB's grammar has no USING there. The key reaches
// TiDB as
//
//	pg__using(e, 'op')
//
// (inside pg__nulls when NULLS follows), the operator's literal standing at
// the operator, where PostgreSQL points when it refuses one;
// OrderItemToTree reads it back as tree.OrderItem.Using.

// UsingMarker is the marker call of an ORDER BY key's USING operator.
const UsingMarker = "pg__using"

// orderUsing wraps the ORDER BY key before USING (token k) and its
// operator; s is where the key starts in out.
func (r *rewriter) orderUsing(out []item, k int) (item, int, bool) {
	s := r.orderItemStart(out)
	if s >= len(out) {
		return item{}, 0, false
	}
	op := r.toks[k+1]
	expr := out[s:]
	b := newComposite(expr[0].lead)
	b.add(UsingMarker+"(", expr[0].firstOrig())
	b.addItems(expr, true)
	b.add(", "+sqlQuote(op.text(r.src))+")", op.start)
	return b.it, s, true
}
