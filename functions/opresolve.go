package functions

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ResolveOperator picks among the overloads of binary operator op (decls[i]
// is overload i's left and right types) for operands of types l and r as
// PostgreSQL 15's oper_select_candidate does (parse_oper.c):
//
//   - binary_oper_exact: an unknown literal beside an operand of a known
//     type is first read as that type, when the operator takes that type on
//     both sides ('1' = 1 is int4 = int4);
//   - otherwise the overloads each operand reaches through an implicit
//     cast (an unknown reaching any), narrowed by func_select_candidate's
//     rules (exact matches, preferred types, the known operand's category).
//
// It returns the chosen overload's index and the types to cast the operands
// to. When no overload fits it is 42883 "operator does not exist: l op r",
// the unknown operand named as unknown: the literal's text is never read as
// a type no overload of op takes (PostgreSQL reports '-' & 'x'::text so,
// not as an integer's invalid input). When several fit equally it is
// 42725. The caller positions the error at the operator.
func ResolveOperator(op string, decls [][]types.T, l, r types.T) (int, []types.T, error) {
	args := []types.T{l, r}
	in := []pgType{pgTypeOf(l), pgTypeOf(r)}
	if (in[0] == pgUnknown) != (in[1] == pgUnknown) {
		known := in[0]
		if known == pgUnknown {
			known = in[1]
		}
		for k, d := range decls {
			if pgTypeOf(d[0]) == known && pgTypeOf(d[1]) == known {
				return k, []types.T{d[0], d[1]}, nil
			}
		}
	}
	fs := make([]*Func, len(decls))
	index := make(map[*Func]int, len(decls))
	for k, d := range decls {
		fs[k] = &Func{Name: op, Args: d}
		index[fs[k]] = k
	}
	cands := viableCandidates(fs, in)
	if len(cands) == 0 {
		return 0, nil, sqlerr.New(sqlerr.UndefinedFunction, "operator does not exist: %s %s %s", operandName(args[0]), op, operandName(args[1])).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	if len(cands) > 1 {
		cands = selectCandidate(cands, in)
	}
	if len(cands) != 1 {
		return 0, nil, sqlerr.New(sqlerr.Code("42725"), "operator is not unique: %s %s %s", operandName(args[0]), op, operandName(args[1])).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	}
	return index[cands[0].f], cands[0].decl, nil
}

// operandName is an operand type as PostgreSQL's operator errors print it.
func operandName(t types.T) string {
	if t.Kind == types.Null {
		return "unknown"
	}
	return t.OperandName()
}
