package binder

import (
	"github.com/sqlgate/sqlgate/exec/functions"
	"github.com/sqlgate/sqlgate/types"
)

// wholeRow binds a FROM item's alias used as a value (row_to_json(t) in
// SELECT row_to_json(t) FROM (...) t), which PostgreSQL reads as the whole
// row: a composite with one field per column of that FROM item, named and
// typed as the columns. ok is false when name is no alias of s, so the
// caller reports its own "column does not exist".
func (b *binder) wholeRow(s *scope, name string) (Expr, bool) {
	if s == nil || !s.tables[name] {
		return nil, false
	}
	t := types.T{Kind: types.Row}
	var args []Expr
	for i, c := range s.cols {
		if c.Table != name {
			continue
		}
		args = append(args, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		t.Fields = append(t.Fields, types.Field{Name: c.Name, Type: c.T.Nullable()})
	}
	if len(args) == 0 {
		return nil, false
	}
	return &FuncCall{Name: name + ".*", Args: args, T: t, Kernel: functions.WholeRowKernel(t)}, true
}
