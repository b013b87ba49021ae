package binder

import "github.com/sqlgate/sqlgate/types"

// columnSizeFunc is the function pg_column_size(e) calls: PostgreSQL
// sizes a datum by how it was made, which the argument's type alone does
// not tell (functions/columnsize.go). A plain column of a stored table is
// read from a heap tuple, where a short value has a 1-byte varlena header
// (__pg_column_size_stored); an untyped literal is a C string
// (__pg_column_size_cstring); anything else is a computed value with a
// 4-byte header. A column passed on by a derived table counts as
// computed, where PostgreSQL (which flattens the subquery) still reads
// the tuple.
func columnSizeFunc(s *scope, e Expr) string {
	switch x := e.(type) {
	case *ColumnRef:
		if s != nil && x.Index >= 0 && x.Index < len(s.cols) && s.cols[x.Index].Name == x.Name && s.cols[x.Index].TableID != 0 {
			return "__pg_column_size_stored"
		}
	case *Const:
		if x.T.Kind == types.Unknown {
			return "__pg_column_size_cstring"
		}
	}
	return "pg_column_size"
}
