package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// json_to_record, jsonb_to_record, json_to_recordset and
// jsonb_to_recordset: functions returning record, which PostgreSQL lets a
// FROM item call only with a column definition list
// (FROM json_to_record(j) AS x(a int, b text)). They are the
// populate_record family (jsonpopulate.go) with a NULL base of the row
// type the list describes: each column reads its JSON value as
// populate_record_field does.

// ReturnsRecord reports whether name is a built-in function returning
// record, which needs a column definition list in FROM.
func ReturnsRecord(name string) bool {
	switch strings.ToLower(name) {
	case "json_to_record", "jsonb_to_record", "json_to_recordset", "jsonb_to_recordset":
		return true
	}
	return false
}

// ResolveRecordFunc resolves a function returning record whose columns
// are row's fields (its column definition list): nil when there is no
// such function for arguments of types args.
func ResolveRecordFunc(name string, args []types.T, row types.T) *SetFunc {
	lname := strings.ToLower(name)
	if !ReturnsRecord(lname) || len(args) != 1 {
		return nil
	}
	jt := tJSON
	if strings.HasPrefix(lname, "jsonb_") {
		jt = tJSONB
	}
	if a := args[0]; pgTypeOf(a) != pgUnknown && !(a.Kind == types.String && a.Variant == jt.Variant) {
		return nil
	}
	pop := PopulateRecordSet(lname, row, strings.HasSuffix(lname, "recordset"), 2)
	return &SetFunc{Name: lname, Args: []types.T{jt}, Ret: row, Rows: func(ctx context.Context, v []any) (func() (any, bool, error), error) {
		return pop.Rows(ctx, []any{nil, v[0]})
	}}
}

func expectedJSONArray(key string) error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "expected JSON array").
		WithHint("See the value of key %q.", key)
}
