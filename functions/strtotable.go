package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/types"
)

// string_to_table(text, delimiter [, null_string]) is string_to_array's
// elements as rows (PostgreSQL 15): no rows for a NULL string, one per
// character for a NULL delimiter.
func resolveStringToTable(args []types.T) *SetFunc {
	want := textArgs23(args)
	if want == nil {
		return nil
	}
	return &SetFunc{Name: "string_to_table", Args: want, Ret: tText, Rows: stringToTableRows}
}

func stringToTableRows(_ context.Context, args []any) (func() (any, bool, error), error) {
	v, err := stringToArray(args)
	if err != nil {
		return nil, err
	}
	items, _ := v.([]any)
	return listRows(items), nil
}
