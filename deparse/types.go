package deparse

import (
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's type OIDs the deparser names.
const (
	oidBool        = 16
	oidBytea       = 17
	oidName        = 19
	oidInt8        = 20
	oidInt2        = 21
	oidInt4        = 23
	oidText        = 25
	oidJSON        = 114
	oidFloat4      = 700
	oidFloat8      = 701
	oidUnknown     = 705
	oidBPChar      = 1042
	oidVarchar     = 1043
	oidDate        = 1082
	oidTime        = 1083
	oidTimestamp   = 1114
	oidTimestampTZ = 1184
	oidInterval    = 1186
	oidTimeTZ      = 1266
	oidNumeric     = 1700
	oidRegclass    = 2205
	oidUUID        = 2950
	oidJSONB       = 3802

	oidAny                 = 2276
	oidAnyArray            = 2277
	oidAnyElement          = 2283
	oidAnyNonArray         = 2776
	oidAnyCompatible       = 5077
	oidAnyCompatibleArray  = 5078
	oidAnyCompatibleNonArr = 5079
	oidInternal            = 2281
	oidAnyEnum             = 3500
)

// typ is an expression's type as PostgreSQL's parse tree has it: the
// type's OID and modifier (-1 none), and sqlgate's type of it where one is
// known (for reading and printing constants).
type typ struct {
	oid uint32
	mod int32
	t   types.T
	// elem is an array type's element type (nil for others).
	elem *typ
	// base is a domain's base type and dom the domain (nil for others).
	base *typ
	dom  *types.Domain
}

var unknownType = typ{oid: oidUnknown, mod: -1}

// category is a type's typcategory and typispreferred (pg_type).
type category struct {
	cat       byte
	preferred bool
}

// proc is an operator or function of pg_operator / pg_proc: its name, its
// number of arguments and their types (an operator's prefix form has n 1
// and its argument in r), and its result type.
type proc struct {
	name string
	n    int
	l, r uint32
	ret  uint32
}

// args are a proc's argument types in order.
func (p proc) args() []uint32 {
	switch p.n {
	case 0:
		return nil
	case 1:
		if p.l == 0 {
			return []uint32{p.r}
		}
		return []uint32{p.l}
	}
	return []uint32{p.l, p.r}
}

// typeNames are the names of the catalog's types binder.ParseType reads,
// for the sqlgate type of a type the catalog tables name by OID.
var typeNames = map[uint32]string{
	oidBool: "boolean", oidBytea: "bytea", oidInt8: "bigint", oidInt2: "smallint", oidInt4: "integer",
	oidText: "text", oidJSON: "json", oidFloat4: "real", oidFloat8: "double precision", oidBPChar: "bpchar",
	oidVarchar: "varchar", oidDate: "date", oidTime: "time", oidTimestamp: "timestamp", oidTimestampTZ: "timestamptz",
	oidInterval: "interval", oidTimeTZ: "timetz", oidNumeric: "numeric", oidUUID: "uuid", oidJSONB: "jsonb",
	oidName: "name",
}

// typeOfT is the PostgreSQL type of a sqlgate type.
func typeOfT(t types.T) typ {
	t = t.Nullable()
	oid, mod, _ := pgtypes.OIDOf(t)
	out := typ{oid: oid, mod: mod, t: t}
	if t.Elem != nil {
		e := typeOfT(*t.Elem)
		out.elem = &e
	}
	return out
}

// typeOfOID is the type with OID oid and no modifier.
func typeOfOID(oid uint32) typ {
	if oid == oidUnknown {
		return unknownType
	}
	for elem, arr := range pgArrayTypes {
		if arr == oid {
			e := typeOfOID(elem)
			out := typ{oid: oid, mod: -1, elem: &e}
			if e.t.Kind != 0 {
				out.t = types.ArrayOf(e.t)
			}
			return out
		}
	}
	out := typ{oid: oid, mod: -1}
	if name, ok := typeNames[oid]; ok {
		if t, err := parseType(name); err == nil {
			out.t = t
			if oid == oidBPChar || oid == oidVarchar {
				out.t.Length = 0
			}
		}
	}
	return out
}

// arrayOf is the array type of elements of type e (oid 0 when the
// catalog tables know none).
func arrayOf(e typ) typ {
	out := typ{oid: arrayOID(e), mod: e.mod, elem: &e}
	if e.t.Kind != 0 {
		out.t = types.ArrayOf(e.t)
	}
	return out
}

// arrayOID is the array type of elements of type e (0: none known):
// the catalog tables' or an enum's.
func arrayOID(e typ) uint32 {
	if a := pgArrayTypes[e.oid]; a != 0 {
		return a
	}
	if d := e.enum(); d != nil {
		return d.ArrayOID
	}
	return 0
}

// enum is t's enum type (nil when t is none): a type the deparser meets
// has its sqlgate type, which knows its registry (types.T.EnumDef).
func (t typ) enum() *types.EnumType {
	if t.elem != nil || t.base != nil {
		return nil
	}
	return t.t.EnumDef()
}

// categoryOfType is t's category: an enum's is E.
func categoryOfType(t typ) category {
	if t.enum() != nil {
		return category{cat: 'E'}
	}
	return categoryOf(t.oid)
}

// categoryOf is the category of the built-in type oid.
func categoryOf(oid uint32) category {
	if c, ok := pgTypeCategories[oid]; ok {
		return c
	}
	return category{cat: 'U'}
}

// isPolymorphic reports whether oid is one of the pseudo-types a function
// or operator takes any type through.
func isPolymorphic(oid uint32) bool {
	switch oid {
	case oidAny, oidAnyArray, oidAnyElement, oidAnyNonArray, oidAnyCompatible, oidAnyCompatibleArray, oidAnyCompatibleNonArr, oidAnyEnum:
		return true
	}
	return false
}

// canCoerce reports whether a value of type from converts implicitly to
// to (PostgreSQL's can_coerce_type for one argument, COERCION_IMPLICIT).
func canCoerce(from typ, to uint32) bool {
	if from.base != nil && from.oid != to { // a domain converts as its base type
		return canCoerce(*from.base, to)
	}
	switch {
	case from.oid == to, from.oid == oidUnknown, to == oidAny:
		return true
	case to == oidAnyElement, to == oidAnyCompatible:
		return true
	case to == oidAnyNonArray, to == oidAnyCompatibleNonArr:
		return from.elem == nil
	case to == oidAnyArray, to == oidAnyCompatibleArray:
		return from.elem != nil
	case to == oidAnyEnum:
		return from.enum() != nil
	}
	if from.elem != nil {
		// an array converts as its elements do (find_coercion_pathway's
		// array coercion: varchar[] to text[])
		if t := typeOfOID(to); t.elem != nil {
			return canCoerce(*from.elem, t.elem.oid)
		}
	}
	return pgImplicitCasts[uint64(from.oid)<<32|uint64(to)]
}

// commonType is PostgreSQL's select_common_type over ts: the first known
// type, replaced by a later one of its category that it converts to
// implicitly but not back (a preferred type stays); text when all are
// unknown. ok is false when categories differ.
func commonType(ts []typ) (typ, bool) {
	var p typ
	found := false
	ts = baseTypes(ts)
	for _, t := range ts {
		if t.oid == oidUnknown {
			continue
		}
		if !found {
			p, found = t, true
			continue
		}
		if t.oid == p.oid {
			continue
		}
		pc, nc := categoryOfType(p), categoryOfType(t)
		if pc.cat != nc.cat {
			return typ{}, false
		}
		if !pc.preferred && canCoerce(p, t.oid) && !canCoerce(t, p.oid) {
			p = t
		}
	}
	if !found {
		return typeOfOID(oidText), true
	}
	// select_common_typmod: the modifier all the values share, else none
	// (an unknown literal has none)
	for _, t := range ts {
		if t.oid != p.oid || t.mod != p.mod {
			p.mod = -1
			break
		}
	}
	return p, true
}

// userTypeName is format_type's name of a user-defined type the
// deparser meets: an enum's or a domain's, schema-qualified outside
// public.
func userTypeName(t typ, visible func(string) bool) (string, bool) {
	var schema, name string
	if e := t.enum(); e != nil {
		schema, name = e.Schema, e.Name
	} else if d := t.dom; d != nil {
		schema, name = d.Schema, d.Name
	} else {
		return "", false
	}
	if visible(schema) {
		return quoteIdent(name), true
	}
	return quoteIdent(schema) + "." + quoteIdent(name), true
}

// columnType is a column's type as the parse tree has it: its domain
// over the base type, or the type.
func columnType(c Column) typ {
	t := typeOfT(c.Type)
	if c.Domain == nil {
		return t
	}
	return typ{oid: c.Domain.OID, mod: -1, t: t.t, base: &t, dom: c.Domain}
}

// baseTypes are ts with each domain replaced by its base type
// (select_common_type resolves domains as their base types).
func baseTypes(ts []typ) []typ {
	out := ts
	for i, t := range ts {
		if t.base != nil {
			if &out[0] == &ts[0] {
				out = append([]typ{}, ts...)
			}
			out[i] = *t.base
		}
	}
	return out
}

// toBaseTypes relabels the domain-typed arguments of an operator or
// function to their base types, as PostgreSQL's resolution does (the
// implicit cast ruleutils shows: (p)::integer).
func toBaseTypes(args []node) []node {
	var out []node
	for i, x := range args {
		if b := x.typeOf().base; b != nil {
			if out == nil {
				out = append([]node{}, args...)
			}
			out[i] = &coerceNode{arg: x, t: *b, form: castImplicit}
		}
	}
	if out == nil {
		return args
	}
	return out
}
