package pgcatalog

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgoper"
)

// The operators sqlgate resolves (internal/pgoper, generated from
// PostgreSQL 15 by binding each of its operators on sqlgate): pg_operator's
// rows, their comments in pg_description, and the functions implementing
// them (oprcode: int4pl, textlike ...), which the binder binds as their
// operators, as pg_proc rows under PostgreSQL's OIDs.

// classPgOperator is pg_description.classoid of operators.
const classPgOperator = 2617

// operatorRows is pg_operator. oprrest and oprjoin are 0: sqlgate has no
// selectivity estimators for pg_proc to list.
func operatorRows() []row {
	ops := pgoper.All()
	rows := make([]row, len(ops))
	for i := range ops {
		o := &ops[i]
		rows[i] = row{
			"oid": o.OID, "oprname": o.Name, "oprnamespace": nsPgCatalog, "oprowner": ownerOID,
			"oprkind": string(o.Kind), "oprcanmerge": o.CanMerge, "oprcanhash": o.CanHash,
			"oprleft": o.Left, "oprright": o.Right, "oprresult": o.Result, "oprcom": o.Com, "oprnegate": o.Negate,
			"oprcode": o.CodeOID, "oprrest": uint32(0), "oprjoin": uint32(0),
		}
	}
	return rows
}

// operatorDescriptionRows are the operators' comments, as PostgreSQL's
// pg_description has them.
func operatorDescriptionRows() []row {
	var rows []row
	for _, o := range pgoper.All() {
		if o.Comment != "" {
			rows = append(rows, row{"objoid": o.OID, "classoid": uint32(classPgOperator), "objsubid": 0, "description": o.Comment})
		}
	}
	return rows
}

// operatorProcs are the implementing functions' pg_proc rows, one per
// function the function library does not list under that name itself.
func operatorProcs() []procInfo {
	var out []procInfo
	seen := map[uint32]bool{}
	for _, o := range pgoper.All() {
		if seen[o.CodeOID] || len(functions.Lookup(o.Code)) > 0 {
			continue
		}
		seen[o.CodeOID] = true
		var args []any
		for _, a := range o.Operands() {
			args = append(args, a)
		}
		out = append(out, procInfo{oid: o.CodeOID, name: o.Code, args: args, ret: o.Result, nargs: len(args), comment: o.CodeComment})
	}
	return out
}

// withOperatorProcs puts operatorProcs among procs, functionProcs' list,
// before the types' I/O functions that end it.
func withOperatorProcs(procs []procInfo) []procInfo {
	n := len(procs) - len(typeProcInfos)
	out := append(procs[:n:n], operatorProcs()...)
	return append(out, procs[n:]...)
}
