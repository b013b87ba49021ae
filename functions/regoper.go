package functions

import (
	"context"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// regoper and regoperator name pg_operator's rows (internal/pgoper, the
// operators sqlgate binds): regoperin, regoperatorin and their outputs as
// PostgreSQL's regproc.c has them, to_regoper and to_regoperator (NULL
// where the input functions fail to find one).

func regoperFuncs() []*Func {
	return []*Func{
		{Name: "regoper_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegOper), Strict: true, Kernel: regoperIn(false, true)},
		{Name: "to_regoper", Args: []types.T{tText}, Ret: types.RegOf(types.RegOper), Strict: true, Kernel: regoperIn(false, false)},
		{Name: "regoper_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegOper)},
		{Name: "regoperator_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegOperator), Strict: true, Kernel: regoperIn(true, true)},
		{Name: "to_regoperator", Args: []types.T{tText}, Ret: types.RegOf(types.RegOperator), Strict: true, Kernel: regoperIn(true, false)},
		{Name: "regoperator_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegOperator)},
	}
}

func regoperIn(withArgs, must bool) Kernel {
	return withCatalog(tOid, func(_ context.Context, c CatalogInfo, a []any) (any, error) {
		return regoperLookup(c, a[0].(string), withArgs, must)
	})
}

// regoperLookup is regoperin (an operator name, which must name one
// operator: 42725 when several have it) or regoperatorin (name(left,
// right), NONE for a prefix operator's left): the OID as an int64, a
// number taken as the OID itself; without must (to_regoper ...) nil
// where the input function reports a missing or ambiguous operator.
func regoperLookup(c CatalogInfo, text string, withArgs, must bool) (any, error) {
	s := strings.TrimSpace(text)
	if n, err := strconv.ParseUint(s, 10, 32); err == nil && must {
		return int64(n), nil
	}
	miss := func(code sqlerr.Code, format string) (any, error) {
		if !must {
			return nil, nil
		}
		return nil, sqlerr.New(code, format, s)
	}
	name, argText := s, ""
	if withArgs {
		i := strings.IndexByte(s, '(')
		if i < 0 || !strings.HasSuffix(s, ")") {
			return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "expected a left parenthesis")
		}
		name, argText = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:len(s)-1])
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		if !strings.EqualFold(strings.Trim(name[:i], `"`), "pg_catalog") {
			return miss(sqlerr.UndefinedFunction, "operator does not exist: %s")
		}
		name = name[i+1:]
	}
	ops := pgoper.ByName(name)
	if !withArgs {
		switch len(ops) {
		case 0:
			return miss(sqlerr.UndefinedFunction, "operator does not exist: %s")
		case 1:
			return int64(ops[0].OID), nil
		}
		return miss(sqlerr.AmbiguousFunction, "more than one operator named %s")
	}
	args := splitTypeList(argText)
	if argText == "" || len(args) > 2 {
		return nil, sqlerr.New(sqlerr.Code("54023"), "too many arguments").WithHint("Provide two argument types for operator.")
	}
	if len(args) == 1 {
		return nil, sqlerr.New(sqlerr.Code("42P02"), "missing argument").WithHint("Use NONE to denote the missing argument of a unary operator.")
	}
	var oids [2]uint32
	for k, tn := range args {
		if strings.EqualFold(tn, "none") {
			continue // a prefix operator's missing left operand
		}
		o, ok := c.LookupType(tn)
		if !ok {
			return nil, sqlerr.New(sqlerr.UndefinedObject, "type %q does not exist", tn)
		}
		oids[k] = o
	}
	for _, o := range ops {
		if o.Left == oids[0] && o.Right == oids[1] {
			return int64(o.OID), nil
		}
	}
	return miss(sqlerr.UndefinedFunction, "operator does not exist: %s")
}

// regoperText is regoper's output (the name, qualified by pg_catalog when
// several operators have it) or regoperator's (name(left,right), types as
// format_type spells them, NONE for a prefix operator's left); 0 and an
// OID that names no operator print as their number, as PostgreSQL's do.
func regoperText(c CatalogInfo, oid uint32, withArgs bool) string {
	o, ok := pgoper.ByOID(oid)
	if !ok {
		return strconv.FormatUint(uint64(oid), 10)
	}
	if withArgs {
		return o.Signature(func(t uint32) string { return c.FormatType(t, -1, false) })
	}
	if len(pgoper.ByName(o.Name)) == 1 {
		return o.Name
	}
	return "pg_catalog." + o.Name
}
