package binder

import (
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// wholeRow binds a FROM item's alias used as a value (row_to_json(t) in
// SELECT row_to_json(t) FROM (...) t), which PostgreSQL reads as the whole
// row: a composite with one field per column of that FROM item, named and
// typed as the columns. ok is false when name is no alias of s, so the
// caller reports its own "column does not exist".
//
// The value is typed as a record (AnonRecord) so that it prints, compares,
// orders, groups and aggregates as PostgreSQL's row value does: record_out's
// "(1,x)" text, not JSON. PostgreSQL types a derived table's whole row as
// record (2249) and a table's as the table's composite type; sqlgate has no
// per-table composite type, so both travel as record 2249, whose text
// output is the same. The fields keep the column names, so row_to_json(t)
// and (t).a still see them.
func (b *binder) wholeRow(s *scope, name string) (Expr, bool) {
	if s == nil || !s.hasTable(name) {
		return nil, false
	}
	t := types.T{Kind: types.Row, Variant: types.AnonRecord}
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
	return &FuncCall{Name: name + wholeRowSuffix, Args: args, T: t, Kernel: functions.WholeRowKernel(t)}, true
}

// wholeRowSuffix ends the name of a whole-row reference's FuncCall
// ("t.*", PostgreSQL's name for it in errors); no other call is so named.
const wholeRowSuffix = ".*"

// isWholeRow reports whether f is a whole-row reference (wholeRow's).
func isWholeRow(f *FuncCall) bool { return strings.HasSuffix(f.Name, wholeRowSuffix) }

// bindFuncArg binds argument a of function name. (a, b) is bound here
// only as the argument of row_to_json/to_json (a composite with fields f1,
// f2, ... as PostgreSQL names them); ROW constructors elsewhere are the
// value-constructor binder's.
func (b *binder) bindFuncArg(s *scope, name string, a pt.Expr) (Expr, error) {
	r, ok := a.(*pt.Row)
	if !ok || r.Explicit || (name != "row_to_json" && name != "to_json") {
		return b.bindTree(s, a)
	}
	t := types.T{Kind: types.Row}
	args := make([]Expr, len(r.Fields))
	for i, v := range r.Fields {
		e, err := b.bindTree(s, v)
		if err != nil {
			return nil, err
		}
		if isUnknown(e.Type()) {
			e = b.resolveUnknown(e, types.StringType)
		}
		args[i] = e
		t.Fields = append(t.Fields, types.Field{Name: fmt.Sprintf("f%d", i+1), Type: e.Type().Nullable()})
	}
	return &FuncCall{Name: "row", Args: args, T: t, Kernel: functions.WholeRowKernel(t)}, nil
}
