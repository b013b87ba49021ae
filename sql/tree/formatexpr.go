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
