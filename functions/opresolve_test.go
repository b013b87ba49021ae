package functions

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestResolveOperatorUnknownOperand checks oper_select_candidate's rules
// for an unknown literal beside a known type, over the integer overloads of
// & (PostgreSQL 15's answers: '1' & 3 is int4 & int4, '1' & 3::int8 is
// int8 & int8, '-' & 'x'::text and '-' & 2.5 have no operator, 'a' & 'b'
// is not unique).
func TestResolveOperatorUnknownOperand(t *testing.T) {
	decls := [][]types.T{
		{types.Int16Type, types.Int16Type}, {types.Int32Type, types.Int32Type}, {types.Int64Type, types.Int64Type},
	}
	u := types.UnknownType
	for _, c := range []struct {
		l, r types.T
		want int    // the overload, when err is ""
		err  string // the message of a refusal
		code sqlerr.Code
	}{
		{l: u, r: types.Int32Type, want: 1},
		{l: types.Int64Type, r: u, want: 2},
		{l: u, r: types.Int16Type, want: 0},
		{l: types.Int16Type, r: types.Int32Type, want: 1}, // int2 reaches int4 and int8: int4 matches exactly
		{l: u, r: types.StringType, err: "operator does not exist: unknown & text", code: sqlerr.UndefinedFunction},
		{l: types.DecimalType(2, 1), r: u, err: "operator does not exist: numeric & unknown", code: sqlerr.UndefinedFunction},
		{l: types.BoolType, r: u, err: "operator does not exist: boolean & unknown", code: sqlerr.UndefinedFunction},
		{l: u, r: types.Float32Type, err: "operator does not exist: unknown & real", code: sqlerr.UndefinedFunction},
		{l: u, r: u, err: "operator is not unique: unknown & unknown", code: "42725"},
	} {
		k, _, err := ResolveOperator("&", decls, c.l, c.r)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s & %s: %v", c.l, c.r, err)
		case c.err == "" && k != c.want:
			t.Errorf("%s & %s: overload %d, want %d", c.l, c.r, k, c.want)
		case c.err != "" && err == nil:
			t.Errorf("%s & %s: overload %d, want %q", c.l, c.r, k, c.err)
		case c.err != "" && (err.Error() != c.err || sqlerr.CodeOf(err) != c.code):
			t.Errorf("%s & %s: %s %v, want %s %s", c.l, c.r, sqlerr.CodeOf(err), err, c.code, c.err)
		}
	}
}
