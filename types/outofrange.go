package types

import "github.com/sqlgate/sqlgate/sqlerr"

// IntOutOfRange is PostgreSQL's 22003 for an integer value that does not fit
// its type, worded as int2.c/int.c/int8.c word it: "smallint out of range",
// "integer out of range" or "bigint out of range" (TINYINT, which PostgreSQL
// lacks, is reported as smallint, the type a client sees for it).
func IntOutOfRange(t T) error {
	switch t.Kind {
	case Int8, Int16:
		return sqlerr.New(sqlerr.NumericValueOutOfRange, "smallint out of range")
	case Int32:
		return sqlerr.New(sqlerr.NumericValueOutOfRange, "integer out of range")
	}
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "bigint out of range")
}

// CompareFloat64 is PostgreSQL's float order (float.c's float8_cmp_internal):
// NaN equals NaN and sorts above every other value; -0 equals +0.
func CompareFloat64(a, b float64) int {
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
