package functions

import (
	"context"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Procs is implemented by a CatalogInfo that lists functions (pg_proc):
// regproc and regprocedure input and output use it. Without it every name
// is unknown and every OID prints as its number.
type Procs interface {
	// FunctionOIDs are the OIDs of the pg_proc rows named name.
	FunctionOIDs(name string) []uint32
	// FunctionProc is a pg_proc row's name and argument type OIDs.
	FunctionProc(oid uint32) (name string, args []uint32, ok bool)
}

// regprocFuncs are regproc_in/out, regprocedure_in/out, to_regproc and
// to_regprocedure; the binder turns 'upper'::regproc into
// regproc_in('upper') and oid::regproc::text into regproc_out(oid).
func regprocFuncs() []*Func {
	return []*Func{
		{Name: "regproc_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegProc), Strict: true, Kernel: regprocIn(false, true)},
		{Name: "to_regproc", Args: []types.T{tText}, Ret: types.RegOf(types.RegProc), Strict: true, Kernel: regprocIn(false, false)},
		{Name: "regproc_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegProc)},
		{Name: "regprocedure_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegProcedure), Strict: true, Kernel: regprocIn(true, true)},
		{Name: "to_regprocedure", Args: []types.T{tText}, Ret: types.RegOf(types.RegProcedure), Strict: true, Kernel: regprocIn(true, false)},
		{Name: "regprocedure_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegProcedure)},
	}
}

func procsOf(c CatalogInfo) Procs {
	if p, ok := c.(Procs); ok {
		return p
	}
	return noProcs{}
}

type noProcs struct{}

func (noProcs) FunctionOIDs(string) []uint32                 { return nil }
func (noProcs) FunctionProc(uint32) (string, []uint32, bool) { return "", nil, false }

// regprocIn is regproc's (withArgs false: a name, which must name one
// function) or regprocedure's (withArgs: name(type, ...)) text input, as
// PostgreSQL's regprocin/regprocedurein: a number is the OID itself, "-"
// is 0; with must a miss is 42883 (42725 for an ambiguous regproc name),
// without it (to_regproc ...) NULL.
func regprocIn(withArgs, must bool) Kernel {
	return withCatalog(tOid, func(_ context.Context, c CatalogInfo, a []any) (any, error) {
		return regprocLookup(c, a[0].(string), withArgs, must)
	})
}

// regprocLookup is regprocIn's answer for one text: the OID as an int64,
// nil (not found, without must) or the error.
func regprocLookup(c CatalogInfo, text string, withArgs, must bool) (any, error) {
	s := strings.TrimSpace(text)
	if n, err := strconv.ParseUint(s, 10, 32); err == nil && must {
		return int64(n), nil
	}
	if s == "-" && must {
		return int64(0), nil
	}
	miss := func() (any, error) {
		if !must {
			return nil, nil
		}
		return nil, sqlerr.New(sqlerr.UndefinedFunction, "function %q does not exist", s)
	}
	if !withArgs {
		if _, err := qualifiedNameParts(s); err != nil {
			return nil, err // even to_regproc, as on PostgreSQL
		}
	}
	nameText, argText := s, ""
	if withArgs {
		i := strings.IndexByte(s, '(')
		if i < 0 || !strings.HasSuffix(s, ")") {
			// to_regprocedure fails here too, as on PostgreSQL
			return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "expected a left parenthesis")
		}
		nameText, argText = s[:i], strings.TrimSpace(s[i+1:len(s)-1])
	}
	parts, err := parseIdent(nameText, true)
	if err != nil {
		if !must {
			return nil, nil
		}
		return nil, err
	}
	if len(parts) == 2 && parts[0] == "pg_catalog" {
		parts = parts[1:] // sqlgate's functions all live in pg_catalog
	}
	if len(parts) != 1 {
		return miss()
	}
	p := procsOf(c)
	oids := p.FunctionOIDs(parts[0])
	if !withArgs {
		switch len(oids) {
		case 0:
			return miss()
		case 1:
			return int64(oids[0]), nil
		}
		if !must {
			return nil, nil
		}
		return nil, sqlerr.New(sqlerr.AmbiguousFunction, "more than one function named %q", s)
	}
	var want []uint32
	if argText != "" {
		for _, tn := range splitTypeList(argText) {
			o, ok := c.LookupType(tn)
			if !ok {
				if !must {
					return nil, nil
				}
				return nil, sqlerr.New(sqlerr.UndefinedObject, "type %q does not exist", strings.TrimSpace(tn))
			}
			want = append(want, o)
		}
	}
	for _, o := range oids {
		if _, args, ok := p.FunctionProc(o); ok && equalOIDs(args, want) {
			return int64(o), nil
		}
	}
	return miss()
}

// splitTypeList splits "int, numeric(10,2), text" at the commas outside
// parentheses.
func splitTypeList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

func equalOIDs(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// regprocText is regproc's output (the name; 0 is "-") or regprocedure's
// (name(type, ...), types as format_type spells them); an OID that names
// no function prints as its number, as PostgreSQL does.
func regprocText(c CatalogInfo, oid uint32, withArgs bool) string {
	if oid == 0 {
		return "-"
	}
	name, args, ok := procsOf(c).FunctionProc(oid)
	if !ok {
		return strconv.FormatUint(uint64(oid), 10)
	}
	if !withArgs {
		return QuoteIdent(name)
	}
	ts := make([]string, len(args))
	for i, t := range args {
		ts[i] = c.FormatType(t, -1, false)
	}
	return QuoteIdent(name) + "(" + strings.Join(ts, ",") + ")"
}
