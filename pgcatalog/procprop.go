package pgcatalog

import (
	"sync"

	"github.com/sqlgate/sqlgate/internal/pgproc"
)

// procProp is what PostgreSQL 15's pg_proc says of one built-in
// signature beyond its types (internal/pgproc, generated from it): a
// client reading provolatile to decide whether it may cache a call, or
// pg_get_functiondef's text, sees PostgreSQL's own answer.
type procProp = pgproc.Prop

// builtinProp is PostgreSQL's pg_proc properties of a built-in: its exact
// signature's, else those all the name's overloads share; ok false when
// neither is known.
func builtinProp(p procInfo) (procProp, bool) {
	// pg_proc's VARIADIC parameter is the array type; the signature
	// lists its element
	return pgproc.Lookup(p.name, pgArgs(p))
}

// langOID is the pg_language OID of a built-in's language.
func langOID(name string) uint32 {
	switch name {
	case "sql":
		return langSQL
	case "c":
		return langC
	}
	return langInternal
}

// arrayTypeOf is the OID of the array type of element type oid (pg_type's
// typarray), oid itself when pgTypes has no array of it.
func arrayTypeOf(oid uint32) uint32 {
	for _, t := range pgTypes {
		if t.oid == oid && t.array != 0 {
			return t.array
		}
	}
	return oid
}

// Volatility is PostgreSQL 15's provolatile ('i', 's' or 'v') of the
// built-in name(args), args its argument types' OIDs: its exact
// signature's (immutable extract(text, date), stable extract(text,
// timestamptz)), else the one all the name's overloads share; ok false
// when neither is known. The planner folds a call of an immutable one
// whose arguments are constants, as PostgreSQL's eval_const_expressions
// does.
func Volatility(name string, args []uint32) (byte, bool) {
	pp, ok := pgproc.Lookup(name, args)
	return pp.Volatile, ok
}

// IOVolatility is PostgreSQL 15's provolatile of type oid's input
// function (typinput), or of its output function (typoutput) when output
// is set: a cast from text to the type (from the type to text) is an I/O
// conversion calling it, which the planner computes for a constant when
// it is immutable (cidr_in, jsonb_out) and leaves to execution when
// stable (date_in, array_out). ok false when the type is not known.
func IOVolatility(oid uint32, output bool) (byte, bool) {
	v, ok := ioVolatilities()[oid]
	if !ok {
		return 0, false
	}
	if output {
		return v[1], v[1] != 0
	}
	return v[0], v[0] != 0
}

// ioVolatilities are the provolatile of each type's input and output
// functions (0: not known), worked out once: the planner asks for every
// cast of a text constant, and finding the function is a scan of
// typeProcInfos.
var ioVolatilities = sync.OnceValue(func() map[uint32][2]byte {
	byOID := make(map[uint32]procInfo, len(typeProcInfos))
	for _, p := range typeProcInfos {
		byOID[p.oid] = p
	}
	out := make(map[uint32][2]byte, len(typeProcs))
	for oid, procs := range typeProcs {
		var v [2]byte
		for i, fn := range procs[:2] {
			if p, ok := byOID[fn]; ok {
				if pp, ok := builtinProp(p); ok {
					v[i] = pp.Volatile
				}
			}
		}
		out[oid] = v
	}
	return out
})
