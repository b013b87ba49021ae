package pgcatalog

import (
	"fmt"
	"strconv"
	"strings"
)

// procProp is what PostgreSQL 15's pg_proc says of one built-in
// signature beyond its types (procprops.go, generated from it): a
// client reading provolatile to decide whether it may cache a call, or
// pg_get_functiondef's text, sees PostgreSQL's own answer.
type procProp struct {
	volatile  byte // provolatile: 'i', 's' or 'v'
	strict    bool
	parallel  byte // proparallel: 's', 'r' or 'u'
	src       string
	lang      string // pg_language.lanname: internal, sql or c
	support   string // prosupport's name, "" for none
	cost      float32
	body      string // a LANGUAGE sql function's SQL-standard body (RETURN ..., BEGIN ATOMIC ...)
	leakproof bool
	// args is pg_get_function_arguments' text for a function with
	// argument names, defaults or VARIADIC ("" for the others)
	args string
}

// procPropsByName are the properties every PostgreSQL overload of a name
// shares, for a signature sqlgate spells with other argument types (its
// polymorphic "any" where PostgreSQL has anyelement).
var procPropsByName = func() map[string]procProp {
	out := map[string]procProp{}
	mixed := map[string]bool{}
	for k, p := range procProps {
		name := k[:strings.IndexByte(k, '(')]
		if cur, ok := out[name]; ok && (cur.volatile != p.volatile || cur.strict != p.strict || cur.parallel != p.parallel) {
			mixed[name] = true
		}
		p.src, p.lang, p.support, p.cost, p.body, p.leakproof, p.args = "", "", "", 0, "", false, ""
		out[name] = p
	}
	for name := range mixed {
		delete(out, name)
	}
	return out
}()

// builtinProp is PostgreSQL's pg_proc properties of a built-in: its exact
// signature's, else those all the name's overloads share; ok false when
// neither is known.
func builtinProp(p procInfo) (procProp, bool) {
	var key strings.Builder
	key.WriteString(p.name)
	key.WriteByte('(')
	for i, a := range p.args {
		if i > 0 {
			key.WriteByte(',')
		}
		if p.varArgs && i == len(p.args)-1 && a.(uint32) != oidAny {
			// pg_proc's VARIADIC parameter is the array type; the
			// signature lists its element
			a = arrayTypeOf(a.(uint32))
		}
		fmt.Fprint(&key, a)
	}
	key.WriteByte(')')
	if pp, ok := procProps[key.String()]; ok {
		return pp, true
	}
	pp, ok := procPropsByName[p.name]
	return pp, ok
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
	if pp, ok := procProps[string(key)]; ok {
		return pp.volatile, true
	}
	pp, ok := procPropsByName[name]
	return pp.volatile, ok
}

// IOVolatility is PostgreSQL 15's provolatile of type oid's input
// function (typinput), or of its output function (typoutput) when output
// is set: a cast from text to the type (from the type to text) is an I/O
// conversion calling it, which the planner computes for a constant when
// it is immutable (cidr_in, jsonb_out) and leaves to execution when
// stable (date_in, array_out). ok false when the type is not known.
func IOVolatility(oid uint32, output bool) (byte, bool) {
	procs, ok := typeProcs[oid]
	if !ok {
		return 0, false
	}
	fn := procs[0]
	if output {
		fn = procs[1]
	}
	for _, p := range typeProcInfos {
		if p.oid == fn {
			pp, ok := builtinProp(p)
			return pp.volatile, ok
		}
	}
	return 0, false
}
