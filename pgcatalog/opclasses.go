package pgcatalog

import (
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/types"
)

// The operator families and classes of sqlgate's types (internal/pgoper's
// opclasses.go, PostgreSQL 15's rows of the btree, hash, gist, gin, spgist
// and brin families whose every operator sqlgate binds): pg_opfamily, pg_opclass, pg_amop
// and pg_amproc, which psql's \dA* commands and tools' index dialogs
// read; pg_index.indclass names the key columns' default btree classes;
// the support functions (btint4cmp, hashtext ...) are pg_proc rows under
// PostgreSQL's OIDs, as pg_amproc.amproc names them (sqlgate does not
// bind a call of them: their results are the index machinery's, 42883).

func opFamilyRows() []row {
	var rows []row
	for _, f := range pgoper.OpFamilies() {
		rows = append(rows, row{"oid": f.OID, "opfmethod": f.Method, "opfname": f.Name, "opfnamespace": nsPgCatalog, "opfowner": ownerOID})
	}
	return rows
}

func opClassRows() []row {
	var rows []row
	for _, c := range pgoper.OpClasses() {
		rows = append(rows, row{"oid": c.OID, "opcmethod": c.Method, "opcname": c.Name, "opcnamespace": nsPgCatalog, "opcowner": ownerOID,
			"opcfamily": c.Family, "opcintype": c.InType, "opcdefault": c.Default, "opckeytype": c.KeyType})
	}
	return rows
}

func amOpRows() []row {
	var rows []row
	for _, a := range pgoper.AmOps() {
		rows = append(rows, row{"oid": a.OID, "amopfamily": a.Family, "amoplefttype": a.Left, "amoprighttype": a.Right,
			"amopstrategy": int(a.Strategy), "amoppurpose": string(a.Purpose), "amopopr": a.Opr, "amopmethod": a.Method, "amopsortfamily": a.SortFamily})
	}
	return rows
}

func amProcRows() []row {
	var rows []row
	for _, a := range pgoper.AmProcs() {
		rows = append(rows, row{"oid": a.OID, "amprocfamily": a.Family, "amproclefttype": a.Left, "amprocrighttype": a.Right,
			"amprocnum": int(a.Num), "amproc": a.Proc})
	}
	return rows
}

// supportProcs are the pg_proc rows of support (PostgreSQL's functions
// sqlgate's catalog rows name by OID: pg_amproc's, pg_ts_parser's ...),
// one per function, apart from those procs already lists under the same
// signature: those take PostgreSQL's OID.
func supportProcs(procs []procInfo, support []pgoper.SupportProc) []procInfo {
	listed := map[string]int{}
	for i, p := range procs {
		listed[procSignature(p)] = i // operators.go
	}
	var out []procInfo
	for _, s := range support {
		args := make([]any, len(s.Args))
		for i, a := range s.Args {
			args[i] = a
		}
		p := procInfo{oid: s.OID, name: s.Name, args: args, ret: s.Ret, nargs: len(args), comment: s.Comment}
		if i, ok := listed[procSignature(p)]; ok {
			procs[i].oid = s.OID
			continue
		}
		out = append(out, p)
	}
	return out
}

// btreeClass is the default btree operator class of a key column of type
// t, as CREATE INDEX puts it in pg_index.indclass: its own type's class or
// its polymorphic family's (an array's array_ops, an enum's enum_ops, a
// range's range_ops, a composite's record_ops).
func (c *Catalog) btreeClass(t types.T) uint32 {
	return binder.DefaultIndexOpClass(amBtree, t)
}
