package pgproc

// Row is one of PostgreSQL 15's pg_proc rows, as pg_catalog lists it:
// the rows of the built-ins sqlgate resolves a call of (functions,
// aggregates, window functions) and the support functions their
// pg_aggregate rows name (procrows.go, generated from PostgreSQL and
// from sqlgate's binder by tests/difftest's TestProcRowsMatchPostgres,
// which also checks it in both directions).
type Row struct {
	OID      uint32
	Name     string
	Kind     byte // prokind: 'f', 'a' or 'w'
	RetSet   bool
	Ret      uint32
	Args     []uint32 // proargtypes (a VARIADIC parameter's array type)
	Variadic uint32   // provariadic: the VARIADIC parameter's element type, 0 for none
	Defaults int      // pronargdefaults
	// proallargtypes, proargmodes and proargnames (nil where pg_proc's are NULL)
	AllArgs []uint32
	Modes   string
	Names   []string
	Rows    float32 // prorows
	// Support marks a function sqlgate does not resolve a call of, listed
	// because a pg_aggregate row names it (a transition, final, combine,
	// serial or deserial function)
	Support bool
	// Desc is the function's comment (obj_description)
	Desc string
}

// Agg is one of PostgreSQL 15's pg_aggregate rows; the functions are
// pg_proc OIDs (0 for none), each one listed in Rows.
type Agg struct {
	FnOID                           uint32
	Kind                            byte // aggkind: 'n', 'o' or 'h'
	NumDirect                       int
	TransFn, FinalFn, CombineFn     uint32
	SerialFn, DeserialFn            uint32
	MTransFn, MInvTransFn, MFinalFn uint32
	FinalExtra, MFinalExtra         bool
	FinalModify, MFinalModify       byte
	SortOp, TransType               uint32
	TransSpace                      int
	MTransType                      uint32
	MTransSpace                     int
	InitVal, MInitVal               string
	HasInitVal, HasMInitVal         bool
}

// Rows are the pg_proc rows of the built-ins sqlgate resolves (and their
// aggregates' support functions), in OID order.
func Rows() []Row { return rows }

// Aggs are the pg_aggregate rows of the aggregates in Rows, in OID order.
func Aggs() []Agg { return aggs }

// ArgDefault is a built-in's proargdefaults: PostgreSQL 15's node tree
// text (a list of the defaults' expressions) and pg_get_expr's text of it.
type ArgDefault struct{ Tree, Text string }

// ArgDefaults is the row oid's (argdefaults.go); ok false for a row
// without defaults.
func ArgDefaults(oid uint32) (ArgDefault, bool) {
	d, ok := argDefaults[oid]
	return d, ok
}

// ArgDefaultOIDs are the rows ArgDefaults knows.
func ArgDefaultOIDs() []uint32 {
	out := make([]uint32, 0, len(argDefaults))
	for o := range argDefaults {
		out = append(out, o)
	}
	return out
}

// ArgDefaultsText is pg_get_expr of a built-in's proargdefaults tree.
func ArgDefaultsText(tree string) (string, bool) {
	for _, d := range argDefaults {
		if d.Tree == tree {
			return d.Text, true
		}
	}
	return "", false
}
