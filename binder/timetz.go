package binder

import "github.com/sqlgate/sqlgate/types"

// This file holds the binder's rules for time with time zone (timetz, a
// query-only type: types/timetz.go), as PostgreSQL 15's pg_cast and
// operator resolution have them.

// timeTZCastable reports whether an explicit cast between a and b exists
// that involves timetz beyond the text casts every type has: time ->
// timetz (implicit in PostgreSQL: the session's offset today), timestamptz
// -> timetz (the wall time and offset in the session's zone), timetz ->
// time (the time part), and timetz -> timetz (rounded to the target's
// precision). PostgreSQL has no cast between timetz and timestamp, date
// or interval.
func timeTZCastable(a, b types.T) bool {
	if b.Kind != types.TimeTZ && a.Kind != types.TimeTZ {
		return false
	}
	switch {
	case b.Kind == types.TimeTZ:
		return a.Kind == types.Time || a.Kind == types.TimestampTZ || a.Kind == types.TimeTZ
	default:
		return b.Kind == types.Time
	}
}

// timeTZCommon is the type a timetz and another operand compare and
// unify in: two timetz keep the larger precision, and a time next to a
// timetz becomes a timetz (PostgreSQL's implicit time -> timetz cast).
func timeTZCommon(a, b types.T) (types.T, bool) {
	switch {
	case a.Kind == types.TimeTZ && b.Kind == types.TimeTZ:
		return types.TimeTZType(max(a.Precision, b.Precision)), true
	case a.Kind == types.TimeTZ && b.Kind == types.Time:
		return types.TimeTZType(a.Precision), true
	case a.Kind == types.Time && b.Kind == types.TimeTZ:
		return types.TimeTZType(b.Precision), true
	}
	return types.T{}, false
}
