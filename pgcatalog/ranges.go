package pgcatalog

import (
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/types"
)

// pg_range's rows: PostgreSQL 15's six built-in range types (pg_type has
// their rows, schema.go), each with its subtype, multirange type
// (types/multirange.go), the subtype's default btree
// operator class, and its canonical and subdiff functions (typeprocs.go).
func rangeRows() []row {
	mk := func(typ, sub, multi, opc, canonical, subdiff uint32) row {
		return row{"rngtypid": typ, "rngsubtype": sub, "rngmultitypid": multi, "rngcollation": uint32(0),
			"rngsubopc": opc, "rngcanonical": canonical, "rngsubdiff": subdiff}
	}
	return []row{
		mk(3904, 23, 4451, 1978, 3914, 3922),   // int4range
		mk(3906, 1700, 4532, 3125, 0, 3924),    // numrange
		mk(3908, 1114, 4533, 3128, 0, 3929),    // tsrange
		mk(3910, 1184, 4534, 3127, 0, 3930),    // tstzrange
		mk(3912, 1082, 4535, 3122, 3915, 3925), // daterange
		mk(3926, 20, 4536, 3124, 3928, 3923),   // int8range
	}
}

// polyRange rewrites the argument and result OIDs of a function over a
// range (functions/ranges.go has one overload per range type) into
// PostgreSQL's polymorphic signature: anyrange for the range, anyelement
// for its subtype, as pg_proc lists lower(anyrange) anyelement once. It
// reports whether the function takes a range.
func polyRange(ts []types.T, args []any, ret *uint32) bool {
	var sub types.T
	found := false
	for _, t := range ts {
		switch {
		case t.IsRange():
			sub, found = types.RangeSubtype(t.Variant), true
		case t.IsMultirange():
			sub, found = types.RangeSubtype(types.RangeOfMultirange(t.Variant)), true
		}
	}
	if !found {
		return false
	}
	subOID, _, _ := pgtypes.OIDOf(sub)
	for i, t := range ts {
		if t.IsRange() {
			args[i] = uint32(oidAnyRange)
		} else if t.IsMultirange() {
			args[i] = uint32(oidAnyMultirange)
		} else if args[i] == subOID {
			args[i] = uint32(oidAnyElement)
		}
	}
	rt, _ := pgtypes.RangeTypeOfOID(*ret)
	switch {
	case *ret == subOID:
		*ret = oidAnyElement
	case rt.IsMultirange():
		*ret = oidAnyMultirange
	case *ret != 16: // boolean stays
		*ret = oidAnyRange
	}
	return true
}

// oidAnyRange is anyrange (oidAnyElement: rows.go).
const oidAnyRange = 3831

// oidAnyMultirange is anymultirange.
const oidAnyMultirange = 4537
