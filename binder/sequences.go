package binder

import (
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ResolveSequence applies CREATE SEQUENCE's (old nil) or ALTER SEQUENCE's
// options to a definition with PostgreSQL's rules (sequence.c's
// init_params): defaults by the increment's sign and the data type,
// bounds within the type, START and RESTART within the bounds, each with
// PostgreSQL's 22023 message. restart is ALTER's RESTART value (nil: none).
func ResolveSequence(name string, old *fluss.SequenceDef, o sql.SequenceOptions) (def fluss.SequenceDef, restart *int64, err error) {
	bad := func(format string, args ...any) (fluss.SequenceDef, *int64, error) {
		return fluss.SequenceDef{}, nil, sqlerr.New(sqlerr.InvalidParameterValue, format, args...)
	}
	if old != nil {
		def = *old
	} else {
		def = fluss.SequenceDef{Type: "bigint", Increment: 1, Cache: 1}
	}
	typeChanged := false
	if o.Type != "" {
		switch o.Type {
		case "smallint", "int2":
			def.Type = "smallint"
		case "integer", "int", "int4":
			def.Type = "integer"
		case "bigint", "int8":
			def.Type = "bigint"
		default:
			return bad("sequence type must be smallint, integer, or bigint")
		}
		typeChanged = old != nil && old.Type != def.Type
	}
	lo, hi := fluss.SequenceTypeRange(def.Type)
	if o.Increment != nil {
		if *o.Increment == 0 {
			return bad("INCREMENT must not be zero")
		}
		def.Increment = *o.Increment
	}
	if o.Cycle != nil {
		def.Cycle = *o.Cycle
	}
	// MAXVALUE / MINVALUE: given, NO (the default), or kept; a type change
	// moves a bound that was the old type's limit to the new type's.
	oldLo, oldHi := int64(0), int64(0)
	if old != nil {
		oldLo, oldHi = fluss.SequenceTypeRange(old.Type)
	}
	switch {
	case o.MaxValue != nil:
		def.Max = *o.MaxValue
	case o.NoMaxValue || old == nil || typeChanged && (old.Max == oldHi || old.Max == -1 && old.Increment < 0):
		def.Max = hi
		if def.Increment < 0 {
			def.Max = -1
		}
	}
	switch {
	case o.MinValue != nil:
		def.Min = *o.MinValue
	case o.NoMinValue || old == nil || typeChanged && (old.Min == oldLo || old.Min == 1 && old.Increment > 0):
		def.Min = lo
		if def.Increment > 0 {
			def.Min = 1
		}
	}
	if def.Max < lo || def.Max > hi {
		return bad("MAXVALUE (%d) is out of range for sequence data type %s", def.Max, def.Type)
	}
	if def.Min < lo || def.Min > hi {
		return bad("MINVALUE (%d) is out of range for sequence data type %s", def.Min, def.Type)
	}
	if def.Min >= def.Max {
		return bad("MINVALUE (%d) must be less than MAXVALUE (%d)", def.Min, def.Max)
	}
	switch {
	case o.Start != nil:
		def.Start = *o.Start
	case old == nil:
		def.Start = def.Min
		if def.Increment < 0 {
			def.Start = def.Max
		}
	}
	if def.Start < def.Min {
		return bad("START value (%d) cannot be less than MINVALUE (%d)", def.Start, def.Min)
	}
	if def.Start > def.Max {
		return bad("START value (%d) cannot be greater than MAXVALUE (%d)", def.Start, def.Max)
	}
	if o.Restart {
		r := def.Start
		if o.RestartWith != nil {
			r = *o.RestartWith
		}
		if r < def.Min {
			return bad("RESTART value (%d) cannot be less than MINVALUE (%d)", r, def.Min)
		}
		if r > def.Max {
			return bad("RESTART value (%d) cannot be greater than MAXVALUE (%d)", r, def.Max)
		}
		restart = &r
	}
	if o.Cache != nil {
		if *o.Cache <= 0 {
			return bad("CACHE (%d) must be greater than zero", *o.Cache)
		}
		def.Cache = *o.Cache
	}
	return def, restart, nil
}
