package pgcatalog

import "github.com/sqlgate/sqlgate/internal/pgproc"

// procProp is what PostgreSQL 15's pg_proc says of one built-in
// signature beyond its types (internal/pgproc, generated from it): a
// client reading provolatile to decide whether it may cache a call, or
// pg_get_functiondef's text, sees PostgreSQL's own answer.
type procProp = pgproc.Prop

// builtinProp is PostgreSQL's pg_proc properties of a built-in: its exact
// signature's, else those all the name's overloads share; ok false when
// neither is known.
func builtinProp(p procInfo) (procProp, bool) {
	args := make([]uint32, len(p.args))
	for i, a := range p.args {
		args[i] = a.(uint32)
		if p.varArgs && i == len(p.args)-1 && args[i] != oidAny {
			// pg_proc's VARIADIC parameter is the array type; the
			// signature lists its element
			args[i] = arrayTypeOf(args[i])
		}
	}
	return pgproc.Lookup(p.name, args)
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
