package pgcatalog

import (
	"sort"
	"strings"

	"github.com/sqlgate/sqlgate/internal/pgproc"
)

// PostgreSQL's own pg_proc rows (internal/pgproc's Rows: every built-in
// function, aggregate and window function whose call sqlgate's binder
// resolves to a result of PostgreSQL's type, found by tests/difftest's
// TestProcRowsMatchPostgres, and the support functions their
// pg_aggregate rows name) under PostgreSQL's OIDs, kinds, argument modes
// and names; the library's overloads PostgreSQL has no row of follow
// under sqlgate's own OIDs (functionProcs). pg_aggregate lists the
// aggregates' rows.
//
// The support functions (int8inc, int4_sum, numeric_avg, ...) are not
// callable in sqlgate, whose aggregates are executed whole, not by
// transition: they are listed because pg_aggregate's regproc columns name
// them, as pg_type's name the types' I/O functions (typeprocs.go), and a
// client that joins pg_aggregate to pg_proc finds them as in PostgreSQL.

// pgRowProc is r as a procInfo: a VARIADIC parameter is its element type
// (varArgs, as the library's signatures are), and OUT / TABLE columns are
// outTypes / outNames.
func pgRowProc(r *pgproc.Row) procInfo {
	p := procInfo{oid: r.OID, name: r.Name, ret: r.Ret, nargs: len(r.Args), retset: r.RetSet, rows: float64(r.Rows), pg: r, comment: r.Desc}
	p.args = make([]any, len(r.Args))
	for i, a := range r.Args {
		p.args[i] = a
	}
	if r.Variadic != 0 && len(p.args) > 0 {
		p.varArgs, p.args[len(p.args)-1] = true, r.Variadic
	}
	if !strings.ContainsAny(r.Modes, "ot") {
		p.argNames = r.Names
		return p
	}
	p.argNames = nil
	for i, m := range r.Modes {
		name := ""
		if i < len(r.Names) {
			name = r.Names[i]
		}
		switch m {
		case 'o', 't':
			p.outTypes, p.outNames = append(p.outTypes, r.AllArgs[i]), append(p.outNames, name)
			p.table = p.table || m == 't'
		default:
			p.argNames = append(p.argNames, name)
		}
	}
	return p
}

// pgArgs are p's argument types as pg_proc's proargtypes lists them: a
// VARIADIC parameter is its array type ("any" stays "any").
func pgArgs(p procInfo) []uint32 {
	args := make([]uint32, len(p.args))
	for i, a := range p.args {
		args[i] = a.(uint32)
		if p.varArgs && i == len(p.args)-1 && args[i] != oidAny {
			args[i] = arrayTypeOf(args[i])
		}
	}
	return args
}

// procKey is p's signature as pgproc keys it (name and proargtypes).
func procKey(p procInfo) string {
	return pgproc.Signature(p.name, pgArgs(p))
}

// pgRowColumns sets row's columns that p's PostgreSQL row (p.pg) gives
// beyond what every built-in's row has: its kind, argument modes, names
// and defaults.
func pgRowColumns(rw row, p procInfo) {
	r := p.pg
	rw["prokind"], rw["pronargdefaults"], rw["provariadic"], rw["prorows"] = string(r.Kind), r.Defaults, r.Variadic, float64(r.Rows)
	rw["proargtypes"] = anyOIDs(r.Args)
	if d, ok := pgproc.ArgDefaults(r.OID); ok { // PostgreSQL's node tree text
		rw["proargdefaults"] = d.Tree
	}
	if r.AllArgs != nil {
		rw["proallargtypes"] = anyOIDs(r.AllArgs)
	} else {
		delete(rw, "proallargtypes")
	}
	if r.Modes != "" {
		modes := make([]any, len(r.Modes))
		for i, m := range r.Modes {
			modes[i] = string(m)
		}
		rw["proargmodes"] = modes
	} else {
		delete(rw, "proargmodes")
	}
	if r.Names != nil {
		names := make([]any, len(r.Names))
		for i, n := range r.Names {
			names[i] = n
		}
		rw["proargnames"] = names
	} else {
		delete(rw, "proargnames")
	}
}

func anyOIDs(oids []uint32) []any {
	out := make([]any, len(oids))
	for i, o := range oids {
		out[i] = o
	}
	return out
}

// aggregateRows is pg_aggregate: PostgreSQL's row of each aggregate
// pg_proc lists.
func aggregateRows() []row {
	aggs := pgproc.Aggs()
	out := make([]row, len(aggs))
	for i, a := range aggs {
		r := row{"aggfnoid": a.FnOID, "aggkind": string(a.Kind), "aggnumdirectargs": a.NumDirect,
			"aggtransfn": a.TransFn, "aggfinalfn": a.FinalFn, "aggcombinefn": a.CombineFn, "aggserialfn": a.SerialFn,
			"aggdeserialfn": a.DeserialFn, "aggmtransfn": a.MTransFn, "aggminvtransfn": a.MInvTransFn, "aggmfinalfn": a.MFinalFn,
			"aggfinalextra": a.FinalExtra, "aggmfinalextra": a.MFinalExtra, "aggfinalmodify": string(a.FinalModify),
			"aggmfinalmodify": string(a.MFinalModify), "aggsortop": a.SortOp, "aggtranstype": a.TransType,
			"aggtransspace": a.TransSpace, "aggmtranstype": a.MTransType, "aggmtransspace": a.MTransSpace}
		if a.HasInitVal {
			r["agginitval"] = a.InitVal
		}
		if a.HasMInitVal {
			r["aggminitval"] = a.MInitVal
		}
		out[i] = r
	}
	return out
}

// aggOf is the pg_aggregate row of the aggregate oid.
func aggOf(oid uint32) (pgproc.Agg, bool) {
	aggs := pgproc.Aggs()
	i := sort.Search(len(aggs), func(i int) bool { return aggs[i].FnOID >= oid })
	if i < len(aggs) && aggs[i].FnOID == oid {
		return aggs[i], true
	}
	return pgproc.Agg{}, false
}

// orderedSetArgs joins an ordered-set or hypothetical-set aggregate's
// arguments as ruleutils.c's print_function_arguments does: the direct
// ones, ORDER BY, the aggregated ones; a variadic one that is the last
// direct argument printed again after ORDER BY (rank(VARIADIC "any"
// ORDER BY VARIADIC "any")).
func orderedSetArgs(args []string, direct int) string {
	switch {
	case direct == 0:
		return "ORDER BY " + strings.Join(args, ", ")
	case direct >= len(args):
		return strings.Join(args, ", ") + " ORDER BY " + args[len(args)-1]
	}
	return strings.Join(args[:direct], ", ") + " ORDER BY " + strings.Join(args[direct:], ", ")
}
