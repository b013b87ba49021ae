package pgproc

import (
	"sort"
	"strconv"
	"strings"
)

// Prop is one signature's pg_proc properties.
type Prop struct {
	Volatile  byte // provolatile: 'i', 's' or 'v'
	Strict    bool // proisstrict
	Parallel  byte // proparallel: 's', 'r' or 'u'
	Src       string
	Lang      string // pg_language.lanname: internal, sql or c
	Support   string // prosupport's name, "" for none
	Cost      float32
	Body      string // a LANGUAGE sql function's SQL-standard body (RETURN ..., BEGIN ATOMIC ...)
	Leakproof bool
	// Args is pg_get_function_arguments' text for a function with
	// argument names, defaults or VARIADIC ("" for the others)
	Args string
	// Bin is probin: the shared library of a LANGUAGE c function ("" for
	// the others), which pg_get_functiondef prints before its symbol
	Bin string
}

// byName are the properties every PostgreSQL overload of a name shares
// (volatility, strictness and parallel safety; the rest cleared), for a
// signature sqlgate spells with other argument types (its polymorphic
// "any" where PostgreSQL has anyelement). A name whose overloads differ
// in them is absent.
var byName = func() map[string]Prop {
	out := map[string]Prop{}
	mixed := map[string]bool{}
	for k, p := range props {
		name := k[:strings.IndexByte(k, '(')]
		if cur, ok := out[name]; ok && (cur.Volatile != p.Volatile || cur.Strict != p.Strict || cur.Parallel != p.Parallel) {
			mixed[name] = true
		}
		out[name] = Prop{Volatile: p.Volatile, Strict: p.Strict, Parallel: p.Parallel}
	}
	for name := range mixed {
		delete(out, name)
	}
	return out
}()

// Signature is the key of name(args): the name and the argument type
// OIDs, as pg_proc's proname and proargtypes.
func Signature(name string, args []uint32) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatUint(uint64(a), 10))
	}
	b.WriteByte(')')
	return b.String()
}

// Of is the properties of the signature sig (Signature's form).
func Of(sig string) (Prop, bool) {
	p, ok := props[sig]
	return p, ok
}

// ByName is the volatility, strictness and parallel safety every
// overload of name shares; ok false when they differ or name is unknown.
func ByName(name string) (Prop, bool) {
	p, ok := byName[name]
	return p, ok
}

// Lookup is the properties of name(args): the exact signature's, else
// those all the name's overloads share.
func Lookup(name string, args []uint32) (Prop, bool) {
	// the key built on the stack: the planner asks this of every call
	var buf [64]byte
	key := append(buf[:0], name...)
	key = append(key, '(')
	for i, a := range args {
		if i > 0 {
			key = append(key, ',')
		}
		key = strconv.AppendUint(key, uint64(a), 10)
	}
	key = append(key, ')')
	if p, ok := props[string(key)]; ok {
		return p, true
	}
	return ByName(name)
}

// Signatures lists every signature held, sorted.
func Signatures() []string {
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
