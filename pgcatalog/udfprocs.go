package pgcatalog

import (
	"cmp"
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// pg_proc rows of the server's Go UDFs (Options.UDFs), after the library's
// functions: in schema public (where a user's functions live, so psql's
// \df lists them), language c (compiled code: the closest of PostgreSQL's
// languages to a Go function), not strict (a UDF sees its NULLs),
// volatile (sqlgate cannot know better). A record-batch UDF is a function
// RETURNS TABLE (...) (proretset, argument modes 't' for its columns); a
// batch UDF's input relation is its first argument, of type record, shown
// by pg_get_function_arguments as TABLE(col type, ...).

// langC is pg_language's "c", langSQL its "sql"; langPython is sqlgate's "python" (CREATE
// FUNCTION ... LANGUAGE python, package pyudf): a procedural language, not
// trusted (superusers only, as PostgreSQL's plpython3u).
const (
	langC      = 13
	langSQL    = 14
	langPython = 13500
)

// language is the pg_language OID of a UDF's language ("" is Go).
func language(lang string) uint32 {
	switch lang {
	case "python":
		return langPython
	case "sql":
		return langSQL
	}
	return langC
}

// udfProcCache is the pg_proc rows of one registry.
type udfProcCache struct {
	reg   *udf.Registry
	procs []procInfo
}

// allProcs is the library's functions, then the UDFs the server has now
// (OIDs after the library's, in the order of the UDFs' names).
func (c *Catalog) allProcs() []procInfo {
	if c.opts.UDFs == nil {
		return c.procs
	}
	reg := c.opts.UDFs()
	if reg == nil {
		return c.procs
	}
	if cached := c.udfProcs.Load(); cached != nil && cached.reg == reg {
		return cached.procs
	}
	next := uint32(procOIDBase)
	for _, p := range c.procs {
		next = max(next, p.oid+1) // after sqlgate's own overloads' OIDs
	}
	procs := append(c.procs[:len(c.procs):len(c.procs)], udfProcs(reg, next)...)
	c.udfProcs.Store(&udfProcCache{reg: reg, procs: procs})
	return procs
}

// udfProcs lists r's UDFs as pg_proc rows with OIDs from next on, in the
// order of their names (stable for a given registry).
func udfProcs(r *udf.Registry, next uint32) []procInfo {
	var out []procInfo
	add := func(p procInfo) {
		p.oid, p.ns, p.userFunc = next, nsPublic, true
		if p.lang == 0 {
			p.lang = langC
		}
		p.nargs = len(p.args)
		out = append(out, p)
		next++
	}
	for _, name := range r.Names() {
		for _, s := range r.Scalars(name) {
			p := procInfo{name: name, args: typeOIDs(s.Args), ret: typeOID(s.Returns), parallel: "u", lang: language(s.Language), src: s.Source,
				argNames: s.ArgNames, owner: s.Owner, comment: s.Comment}
			if f := s.SQL; f != nil {
				p.sql, p.volatile, p.strict, p.argDefaults, p.inTypes = true, f.Volatility, f.Strict, f.Defaults, s.Args
				if f.SetOf {
					p.retset, p.rows = true, cmp.Or(f.Rows, 1000)
				}
				switch {
				case f.Params != nil:
					// OUT and INOUT parameters: all in their order
					for _, a := range f.Params {
						p.params = append(p.params, udfParam{name: a.Name, typ: typeOID(a.Type), mode: a.Mode})
					}
				case len(f.Columns) > 0 && !s.Returns.IsComposite():
					// RETURNS TABLE: its columns are the 't' arguments
					// (a composite result's are its type's attributes)
					p.table = true
					p.outTypes, p.outNames = columnOIDs(f.Columns)
				}
				if f.Variadic && len(p.args) > 0 {
					// a VARIADIC parameter is its element type, as the
					// built-ins' are (provariadic; pgArgs gives the array)
					p.varArgs, p.args[len(p.args)-1] = true, typeOID(*s.Args[len(s.Args)-1].Elem)
				}
				switch f.BodyKind {
				case "return":
					p.src, p.sqlBody = "", "RETURN "+f.Body
				case "atomic":
					p.src, p.sqlBody = "", "BEGIN ATOMIC\n "+f.Body+"\nEND"
				}
			}
			add(p)
		}
		for _, t := range r.Tables(name) {
			p := procInfo{name: name, args: typeOIDs(t.Args), ret: oidRecord, retset: true, rows: 1000, table: true, parallel: "u"}
			p.outTypes, p.outNames = columnOIDs(t.Columns)
			add(p)
		}
		for _, b := range r.Batches(name) {
			p := procInfo{name: name, args: append([]any{uint32(oidRecord)}, typeOIDs(b.Args)...), ret: oidRecord,
				retset: true, rows: 1000, table: true, parallel: "u", lang: language(b.Language), src: b.Source, owner: b.Owner, comment: b.Comment}
			if b.ParallelSafe {
				p.parallel = "s"
			}
			p.outTypes, p.outNames = columnOIDs(b.Columns)
			in := make([]string, len(b.Input))
			for i, c := range b.Input {
				in[i] = quoteIdent(c.Name) + " " + c.Type.PGName()
			}
			p.relArg = "TABLE(" + strings.Join(in, ", ") + ")"
			add(p)
		}
	}
	return out
}

func typeOID(t types.T) uint32 {
	oid, _, _ := pgtypes.OIDOf(t)
	return oid
}

func typeOIDs(ts []types.T) []any {
	out := make([]any, len(ts))
	for i, t := range ts {
		out[i] = typeOID(t)
	}
	return out
}

func columnOIDs(cs []udf.Column) ([]uint32, []string) {
	ts, ns := make([]uint32, len(cs)), make([]string, len(cs))
	for i, c := range cs {
		ts[i], ns[i] = typeOID(c.Type), c.Name
	}
	return ts, ns
}

// tableSignature is the result and arguments of a RETURNS TABLE function
// as pg_get_function_result/_arguments show them: TABLE(col type, ...),
// and the IN arguments (a batch UDF's relation first).
func (c *Catalog) tableSignature(ctx context.Context, p procInfo, args []string) (result, arguments string) {
	cols := make([]string, len(p.outTypes))
	for i, t := range p.outTypes {
		cols[i] = quoteIdent(p.outNames[i]) + " " + c.formatTypeIn(ctx, t)
	}
	if p.relArg != "" && len(args) > 0 {
		args[0] = p.relArg
	}
	return "TABLE(" + strings.Join(cols, ", ") + ")", strings.Join(args, ", ")
}

// udfParam is a parameter of a LANGUAGE sql function with OUT or INOUT
// parameters: its name, type and mode ('i', 'o', 'b').
type udfParam struct {
	name string
	typ  uint32
	mode byte
}

// paramsSignature is pg_get_function_arguments of a function with OUT or
// INOUT parameters (without defaults): every parameter in its order, OUT
// and INOUT ones so marked.
func (c *Catalog) paramsSignature(ctx context.Context, p procInfo) []string {
	out := make([]string, len(p.params))
	for i, a := range p.params {
		s := c.formatTypeIn(ctx, a.typ)
		if a.name != "" {
			s = quoteIdent(a.name) + " " + s
		}
		switch a.mode {
		case 'o':
			s = "OUT " + s
		case 'b':
			s = "INOUT " + s
		case 'v':
			s = "VARIADIC " + s
		}
		out[i] = s
	}
	return out
}

// dependRows are pg_depend's rows: the sequences' and columns' defaults'
// (sequenceDependRows), then each table's row type's internal dependency
// on its table (pg_type -> pg_class, 'i') and a user function's normal
// dependency on a table row type it returns or takes (pg_proc ->
// pg_type, 'n'), as PostgreSQL records them. pg_dump orders its output by
// them: a function RETURNS SETOF t comes after CREATE TABLE t.
func (c *Catalog) dependRows(ctx context.Context, s *snapshot) ([]row, error) {
	rows, err := c.sequenceDependRows(ctx, s)
	if err != nil {
		return nil, err
	}
	rowTypes := map[uint32]bool{}
	for _, t := range s.tables {
		if t.TableID <= 0 {
			continue
		}
		oid := types.TableRowTypeOID(t.TableID)
		rowTypes[oid] = true
		rows = append(rows, row{"classid": classPgType, "objid": oid, "objsubid": 0,
			"refclassid": classPgClass, "refobjid": RelationOID(t.TableID), "refobjsubid": 0, "deptype": "i"})
	}
	for _, p := range c.allProcs() {
		if !p.userFunc {
			continue
		}
		seen := map[uint32]bool{}
		for _, t := range append([]any{p.ret}, p.args...) {
			oid, _ := t.(uint32)
			if rowTypes[oid] && !seen[oid] {
				seen[oid] = true
				rows = append(rows, row{"classid": classPgProc, "objid": p.oid, "objsubid": 0,
					"refclassid": classPgType, "refobjid": oid, "refobjsubid": 0, "deptype": "n"})
			}
		}
	}
	return rows, nil
}
