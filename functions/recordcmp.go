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
	return recordOpKernel(op, cmp)
}

// DissimilarRecordCompareKernel compares two record values whose field
// types differ (t = u over derived tables of int and text columns), as
// PostgreSQL's record_eq and record_cmp do at run time: fields are walked
// left to right and the walk stops at the first unequal pair, and only a
// pair reached with two different types, or reaching the end of one record
// with the pairs so far equal, is an error (42804). So (1, 1) = (2, 'x') is
// false where (1, 1) = (1, 'x') fails. NULL records follow
// RecordCompareKernel's rules and are never checked.
func DissimilarRecordCompareKernel(lt, rt types.T, op string) (Kernel, error) {
	cmp := func(a, b any) (int, error) { return CompareDissimilarRecords(lt, rt, a, b) }
	return recordOpKernel(op, cmp)
}

// CompareDissimilarRecords orders two non-NULL record values a (of type
// lt) and b (of rt) as record_cmp does when their field types may differ
// (DissimilarRecordCompareKernel's walk), for every construct that
// compares such records at run time: operators, GREATEST and LEAST, the
// duplicate removal of set operations.
func CompareDissimilarRecords(lt, rt types.T, a, b any) (int, error) {
	x, _ := a.([]any)
	y, _ := b.([]any)
	n := min(len(lt.Fields), len(rt.Fields))
	for i := 0; i < n; i++ {
		ft := lt.Fields[i].Type.Nullable()
		if !SameRecordFieldType(ft, rt.Fields[i].Type) {
			return 0, DissimilarColumns(ft, rt.Fields[i].Type, i)
		}
		xv, yv := field(x, i), field(y, i)
		switch {
		case xv == nil && yv == nil:
			continue
		case xv == nil:
			return 1, nil // a NULL field after every value
		case yv == nil:
			return -1, nil
		}
		c, err := CompareValuesAs(ft, xv, yv)
		if err != nil || c != 0 {
			return c, err
		}
	}
	if len(lt.Fields) != len(rt.Fields) {
		return 0, DifferentRecordLengths()
	}
	return 0, nil
}

// SameRecordFieldType reports whether record_cmp takes fields of types a
// and b for one type: the same PostgreSQL type (varchar(3) and varchar(8)
// are one, int and bigint or varchar and text are not); nested records
// only when their own fields are alike, sqlgate's values of two record
// layouts not comparing with each other.
func SameRecordFieldType(a, b types.T) bool {
	a, b = a.Nullable(), b.Nullable()
	if a.Kind == types.Row || b.Kind == types.Row {
		return a.Equal(b)
	}
	return a.Equal(b) || SamePGType(a, b)
}

// DissimilarColumns is record_cmp's refusal of fields a and b at
// (0-based) position i.
func DissimilarColumns(a, b types.T, i int) *sqlerr.Error {
	return sqlerr.New(sqlerr.DatatypeMismatch, "cannot compare dissimilar column types %s and %s at record column %d",
		recordFieldTypeName(a), recordFieldTypeName(b), i+1)
}

// recordFieldTypeName is how format_type names field type t: a varchar
// without a limit (Length -1, which PGName calls text) is still
// character varying.
func recordFieldTypeName(t types.T) string {
	if t.Kind == types.String && t.Variant == types.NoVariant && t.Length < 0 {
		return "character varying"
	}
	return t.PGName()
}

// DifferentRecordLengths is record_cmp's refusal of records whose common
// fields are equal but whose lengths differ.
func DifferentRecordLengths() *sqlerr.Error {
	return sqlerr.New(sqlerr.DatatypeMismatch, "cannot compare record types with different numbers of columns")
}

// recordOpKernel is record operator op over two record values whose
// non-NULL pairs cmp orders: NULL when either record is (IS [NOT] DISTINCT
// FROM: whether exactly one is).
func recordOpKernel(op string, cmp func(a, b any) (int, error)) (Kernel, error) {
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

// field is record value x's field i (nil past its end).
func field(x []any, i int) any {
	if i < len(x) {
		return x[i]
	}
	return nil
}
