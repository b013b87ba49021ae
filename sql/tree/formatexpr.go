package tree

// subscripted writes the subscripted operand of x[..] up to its "[":
// in parentheses, except for the inner subscript of a chain (x[a][b]),
// which the parentheses would make two subscripts of their own.
func (f *formatter) subscripted(x Expr, chained bool) {
	if chained {
		f.expr(x)
		f.WriteString("[")
		return
	}
	f.WriteString("(")
	f.expr(x)
	f.WriteString(")[")
}

// subscriptBody writes what stands between a subscript's brackets: the
// index of x[i], or lo:hi of a slice (either bound may be absent).
func (f *formatter) subscriptBody(e Expr) {
	switch n := e.(type) {
	case *Subscript:
		f.expr(n.Index)
	case *Slice:
		if n.Lo != nil {
			f.expr(n.Lo)
		}
		f.WriteString(":")
		if n.Hi != nil {
			f.expr(n.Hi)
		}
	}
}
