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
	fs := make([]*Func, len(decls))
	index := map[*Func]int{}
	for k, d := range decls {
		fs[k] = &Func{Name: lname, Args: d}
		index[fs[k]] = k
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
