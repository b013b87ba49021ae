package pgcatalog

import (
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/internal/pgproc"
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
// function, apart from those procs (functionProcs' list) already has under
// the same signature: those take PostgreSQL's OID (byteacat, cash_pl ...),
// which oprcode names.
func operatorProcs(procs []procInfo) []procInfo {
	listed := map[string]int{}
	for i, p := range procs {
		listed[procSignature(p)] = i
	}
	var out []procInfo
	seen := map[uint32]bool{}
	for _, o := range pgoper.All() {
		if seen[o.CodeOID] {
			continue
		}
		seen[o.CodeOID] = true
		var args []any
		for _, a := range o.Operands() {
			args = append(args, a)
		}
		p := procInfo{oid: o.CodeOID, name: o.Code, args: args, ret: o.Result, nargs: len(args), comment: o.CodeComment}
		if i, ok := listed[procSignature(p)]; ok {
			procs[i].oid = o.CodeOID
			continue
		}
		out = append(out, p)
	}
	return out
}

// procSignature is p's name and pg_proc argument types (a VARIADIC
// parameter's as its array type).
func procSignature(p procInfo) string {
	args := make([]uint32, len(p.args))
	for i, a := range p.args {
		args[i] = a.(uint32)
		if p.varArgs && i == len(p.args)-1 {
			args[i] = arrayTypeOf(args[i])
		}
	}
	return pgproc.Signature(p.name, args)
}

// withOperatorProcs puts operatorProcs and castProcs among procs, functionProcs' list,
// before the types' I/O functions that end it.
func withOperatorProcs(procs []procInfo) []procInfo {
	// the I/O functions end the list, less those PostgreSQL's rows listed
	// already (functionProcs): count them back from the end
	io := make(map[uint32]bool, len(typeProcInfos))
	for _, p := range typeProcInfos {
		io[p.oid] = true
	}
	n := len(procs)
	for n > 0 && io[procs[n-1].oid] {
		n--
	}
	ops := operatorProcs(procs[:n])
	out := append(procs[:n:n], ops...)
	out = append(out, castProcs(out)...)                           // casts.go
	out = append(out, supportProcs(out, pgoper.SupportProcs())...) // opclasses.go
	out = append(out, supportProcs(out, pgoper.TSProcs())...)      // the text search parser's and templates' (collations.go)
	return append(out, procs[n:]...)
}
