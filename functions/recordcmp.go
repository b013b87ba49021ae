package functions

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// RecordCompareKernel compares two record values (struct arrays of the same
// field types) as PostgreSQL's record operators do when the operands are
// not both row constructors (record_eq, record_lt ... and btrecordcmp):
// field by field, two NULL fields equal and a NULL field after every value,
// so the result is NULL only when a whole record is. op is "=", "<>",
// "<", "<=", ">", ">=", "IS DISTINCT FROM" or "IS NOT DISTINCT FROM".
func RecordCompareKernel(t types.T, op string) (Kernel, error) {
	cmp := func(a, b any) (int, error) { return CompareValuesAs(t, a, b) }
	switch op {
	case "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		want := op == "IS DISTINCT FROM"
		return valueKernel(types.BoolType, func(args []any) (any, error) {
			a, b := args[0], args[1]
			if a == nil || b == nil {
				return (a == nil) != (b == nil) == want, nil
			}
			c, err := cmp(a, b)
			return (c != 0) == want, err
		}), nil
	}
	test, ok := CompareOp(op)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "record comparison %s", op)
	}
	return valueKernel(types.BoolType, func(args []any) (any, error) {
		if args[0] == nil || args[1] == nil {
			return nil, nil
		}
		c, err := cmp(args[0], args[1])
		if err != nil {
			return nil, err
		}
		return test(c), nil
	}), nil
}
