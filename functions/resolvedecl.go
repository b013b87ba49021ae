package functions

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ResolveDeclared picks among overloads declared outside the library (Go
// UDFs: decls[i] is overload i's argument types) with the same rules
// Resolve applies to built-in functions: implicit casts, PostgreSQL's
// candidate selection, 42883 naming the argument types when nothing fits
// and 42725 when several fit equally. It returns the chosen overload's
// index and the types to cast each argument to: the declared types
// themselves (not the argument's own typmod, as Resolve keeps), since a UDF
// receives its arguments as the declared types' Arrow arrays.
func ResolveDeclared(name string, decls [][]types.T, args []types.T) (int, []types.T, error) {
	lname := strings.ToLower(name)
	in := make([]pgType, len(args))
	for i, a := range args {
		in[i] = pgTypeOf(a)
	}
	fs := make([]*Func, 0, len(decls))
	index := map[*Func]int{}
	for k, d := range decls {
		if !arraysFit(args, d) {
			continue
		}
		f := &Func{Name: lname, Args: d}
		fs = append(fs, f)
		index[f] = k
	}
	cands := viableCandidates(fs, in)
	if len(cands) == 0 {
		return 0, nil, undefinedFunction(lname, args)
	}
	if len(cands) > 1 {
		cands = selectCandidate(cands, in)
	}
	if len(cands) != 1 {
		return 0, nil, sqlerr.New(sqlerr.Code("42725"), "function %s(%s) is not unique", lname, typeList(args)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	c := cands[0]
	return index[c.f], c.decl, nil
}

// arraysFit reports whether each array argument converts implicitly to
// its declared array parameter, as PostgreSQL's find_coercion_pathway
// converts arrays: element by element, by an implicit cast of the
// elements (int[] to bigint[], not numeric[] to int[] or text[] to
// int[]). Resolve's types know arrays as one category; a declared
// parameter is a UDF's concrete type.
func arraysFit(args, decl []types.T) bool {
	for i, a := range args {
		if i >= len(decl) {
			break
		}
		from, to := a, decl[i]
		if from.Kind != types.Array || to.Kind != types.Array {
			continue
		}
		for from.Kind == types.Array && to.Kind == types.Array && from.Elem != nil && to.Elem != nil {
			from, to = *from.Elem, *to.Elem
		}
		if from.Kind == types.Array || to.Kind == types.Array || to.Kind == types.Unknown {
			continue // arrays of other depths are one type in PostgreSQL; "any"
		}
		if !canCoerce(pgTypeOf(from), pgTypeOf(to)) {
			return false
		}
	}
	return true
}
