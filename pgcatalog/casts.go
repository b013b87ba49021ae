package pgcatalog

import "github.com/sqlgate/sqlgate/internal/pgoper"

// The casts sqlgate performs (internal/pgoper's casts, generated from
// PostgreSQL 15 by binding each of its pg_cast rows on sqlgate): pg_cast's
// rows, and their functions that sqlgate binds by name (int4(int8),
// text(boolean) ...) as pg_proc rows under PostgreSQL's OIDs.

// castRows is pg_cast.
func castRows() []row {
	casts := pgoper.Casts()
	rows := make([]row, len(casts))
	for i, c := range casts {
		rows[i] = row{"oid": c.OID, "castsource": c.Source, "casttarget": c.Target, "castfunc": c.Func,
			"castcontext": string(c.Context), "castmethod": string(c.Method)}
	}
	return rows
}

// castProcs are the pg_proc rows of the cast functions, one per function,
// apart from those procs already lists under the same signature: those
// take PostgreSQL's OID, which castfunc names. The functions that apply a
// typmod (varchar(varchar, int4, bool), bit(int8, int4) ...), which
// sqlgate applies in a cast but does not bind by name (42883), are listed
// too: pg_cast names them, and psql's \dC and pg_dump join them by OID.
func castProcs(procs []procInfo) []procInfo {
	listed := map[string]int{}
	for i, p := range procs {
		listed[procSignature(p)] = i // operators.go
	}
	var out []procInfo
	seen := map[uint32]bool{}
	for _, c := range pgoper.Casts() {
		if c.Func == 0 || seen[c.Func] {
			continue
		}
		seen[c.Func] = true
		args := make([]any, len(c.FuncArgs))
		for i, a := range c.FuncArgs {
			args[i] = a
		}
		p := procInfo{oid: c.Func, name: c.FuncName, args: args, ret: c.FuncRet, nargs: len(args), comment: c.FuncComment}
		if i, ok := listed[procSignature(p)]; ok {
			procs[i].oid = c.Func
			continue
		}
		out = append(out, p)
	}
	return out
}
