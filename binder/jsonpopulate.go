package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// json_populate_record and its family (functions/jsonpopulate.go) return
// the row type of their first argument: in a select list a composite
// value, in FROM one column per field. A first argument of type record
// (NULL::record, ROW(..)) names no fields: FROM then takes them from a
// column definition list, as PostgreSQL's does for a function returning
// record.

// isPopulateScalar reports whether name is json[b]_populate_record, the
// family's functions that return one row.
func isPopulateScalar(name string) bool {
	switch strings.ToLower(name) {
	case "json_populate_record", "jsonb_populate_record":
		return true
	}
	return false
}

// bindPopulateCall binds json[b]_populate_record(base, doc [, bool]) as a
// scalar call returning base's row type.
func (b *binder) bindPopulateCall(n sourceNode, name string, args []Expr) (Expr, error) {
	name = strings.ToLower(name)
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	row, want, err := functions.ResolvePopulate(name, ts)
	if err != nil {
		return nil, b.populateErr(n, err)
	}
	if err := b.castPopulateArgs(n, args, want); err != nil {
		return nil, err
	}
	return &FuncCall{Name: name, Args: args, T: row, Kernel: functions.PopulateRecordKernel(name, row)}, nil
}

// castPopulateArgs casts a populate call's arguments to want (the JSON
// literal of an unknown type read as json or jsonb).
func (b *binder) castPopulateArgs(n sourceNode, args []Expr, want []types.T) error {
	for i := range args {
		var err error
		if isUnknown(args[i].Type()) || args[i].Type().Kind == types.Null {
			if args[i], err = b.coerceUnknown(n, args[i], want[i]); err != nil {
				return err
			}
		} else {
			args[i] = b.castTo(args[i], want[i])
		}
	}
	return nil
}

// bindPopulateTable binds a populate_record function in FROM: its row
// type's fields (the column definition list's when the first argument is
// a record) are the item's columns, named by the column aliases first.
func (b *binder) bindPopulateTable(s *scope, f *pt.FuncCall, name, alias string, ord bool, colNames []string, defs []pt.FuncColumn) (Node, error) {
	name = strings.ToLower(name)
	args, err := b.bindTreeList(s, f.Args)
	if err != nil {
		return nil, err
	}
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	set := !isPopulateScalar(name)
	if len(ts) > 0 && ts[0].Kind == types.Row && !ts[0].IsComposite() {
		// a record: the column definition list says what it holds
		if len(defs) == 0 {
			return nil, b.errAt(f, sqlerr.New(sqlerr.SyntaxError, "a column definition list is required for functions returning \"record\""))
		}
		if ord {
			return nil, b.errAt(defs[0], sqlerr.New(sqlerr.SyntaxError, "WITH ORDINALITY cannot be used with a column definition list").
				WithHint("Put the column definition list inside ROWS FROM()."))
		}
		fields, err := b.columnDefFields(f, defs)
		if err != nil {
			return nil, err
		}
		row := types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: fields}
		names := make([]string, len(fields))
		for k, fl := range fields {
			names[k] = fl.Name
		}
		if base := ts[0]; len(base.Fields) > 0 {
			// a ROW(..) base is the row type the function returns (its
			// keys f1, f2, ..), which must match the list, as
			// PostgreSQL's tupledesc_match checks
			if err := matchColumnDefs(base, fields); err != nil {
				return nil, err
			}
			row = base.Nullable()
		}
		want, err := functions.PopulateArgsFor(name, row, ts)
		if err != nil {
			return nil, b.errAt(f, sqlerr.As(err))
		}
		if err := b.castPopulateArgs(f, args, want); err != nil {
			return nil, err
		}
		return b.expandRowTableFunc(f, &TableFunc{Func: functions.PopulateRecordSet(name, row, set, len(args)), Args: args}, alias, names)
	}
	row, want, err := functions.ResolvePopulate(name, ts)
	if err != nil {
		return nil, b.populateErr(f, err)
	}
	if len(defs) > 0 {
		return nil, b.errAt(defs[0], sqlerr.New(sqlerr.SyntaxError, "a column definition list is redundant for a function returning a named composite type"))
	}
	if err := b.castPopulateArgs(f, args, want); err != nil {
		return nil, err
	}
	return b.expandRowTableFunc(f, &TableFunc{Func: functions.PopulateRecordSet(name, row, set, len(args)), Args: args, Ordinality: ord}, alias, colNames)
}

// populateErr places a resolution error: PostgreSQL points at the call
// for a function that does not exist, and not for what its own code finds
// wrong with the first argument when it runs.
func (b *binder) populateErr(n sourceNode, err error) error {
	se := sqlerr.As(err)
	if se.Code == sqlerr.UndefinedFunction {
		return b.errAt(n, se)
	}
	return se
}

// matchColumnDefs is tupledesc_match: the row a function returns must
// have the column definition list's number of columns and types.
func matchColumnDefs(ret types.T, defs []types.Field) error {
	mismatch := func() *sqlerr.Error {
		return sqlerr.New(sqlerr.DatatypeMismatch, "function return row and query-specified return row do not match")
	}
	if len(ret.Fields) != len(defs) {
		return mismatch().WithDetail("Returned row contains %d attributes, but query expects %d.", len(ret.Fields), len(defs))
	}
	for k, fl := range ret.Fields {
		if !fl.Type.Nullable().Equal(defs[k].Type.Nullable()) {
			return mismatch().WithDetail("Returned type %s at ordinal position %d, but query expects %s.", fl.Type.PGName(), k+1, defs[k].Type.PGName())
		}
	}
	return nil
}
