package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/server"
)

// procCandidate is one of PostgreSQL 15's pg_catalog pg_proc rows, with
// what it takes to write a call of it.
type procCandidate struct {
	row pgproc.Row
	agg *pgproc.Agg
	// argTypes are the arguments' type names for the call (polymorphic
	// ones made concrete), "" when the row takes a type no call can give
	argTypes []string
}

// procPseudoArg is the concrete type a call gives each polymorphic
// pseudo-type (int4's family, consistently across one call, so that
// anycompatible and anycompatiblearray agree).
var procPseudoArg = map[uint32]string{
	2276: "int4", 2283: "int4", 5077: "int4", 2776: "int4", 5080: "int4",
	2277: "int4[]", 5078: "int4[]",
	3831: "int4range", 5079: "int4range",
	4537: "int4multirange", 4538: "int4multirange",
	2249: "record",
	3500: "procrows_enum", // anyenum: the enum type both servers are given
}

// procCall is the statement calling c with NULLs of its argument types
// (a VARIADIC parameter given two elements), as the row's kind is called:
// an aggregate over one row, an ordered-set or hypothetical-set aggregate
// WITHIN GROUP, a window function OVER (); quoted quotes the name.
func procCall(c procCandidate, quoted bool) (string, bool) {
	args := make([]string, len(c.argTypes))
	for i, a := range c.argTypes {
		if a == "" {
			return "", false
		}
		args[i] = "NULL::" + a
	}
	if c.row.Variadic != 0 && c.row.Variadic != 2276 && len(args) > 0 {
		// a second element: one would call the function's plain
		// overload where it has one (jsonb_delete(jsonb, text))
		args = append(args, args[len(args)-1])
	}
	name := c.row.Name
	if quoted {
		name = `"` + name + `"`
	}
	const from = " FROM (VALUES (1)) v(x)"
	switch {
	case c.row.Kind == 'w':
		return fmt.Sprintf("SELECT %s(%s) OVER ()%s", name, strings.Join(args, ", "), from), true
	case c.row.Kind == 'a' && c.agg != nil && c.agg.Kind == 'h':
		return fmt.Sprintf("SELECT %s(%s) WITHIN GROUP (ORDER BY %s)%s", name, strings.Join(args, ", "), strings.Join(args, ", "), from), true
	case c.row.Kind == 'a' && c.agg != nil && c.agg.Kind == 'o':
		nd := c.agg.NumDirect
		if nd > len(args) {
			return "", false
		}
		return fmt.Sprintf("SELECT %s(%s) WITHIN GROUP (ORDER BY %s)%s", name, strings.Join(args[:nd], ", "), strings.Join(args[nd:], ", "), from), true
	case c.row.Kind == 'a' && len(args) == 0:
		return fmt.Sprintf("SELECT %s(*)%s", name, from), true
	case c.row.Kind == 'a':
		return fmt.Sprintf("SELECT %s(%s)%s", name, strings.Join(args, ", "), from), true
	}
	return fmt.Sprintf("SELECT %s(%s)", name, strings.Join(args, ", ")), true
}

// TestProcRowsMatchPostgres checks the committed internal/pgproc/procrows.go
// in both directions: each of PostgreSQL 15's pg_catalog pg_proc rows whose
// call (procCall, with the row's argument types) sqlgate binds to a result
// of the type PostgreSQL's has is there with PostgreSQL's OID and columns,
// and each row there is such a row (or a support function a listed
// aggregate's pg_aggregate row names); each listed aggregate has its
// pg_aggregate row. With SQLGATE_WRITE_PROCROWS=1 it writes that file
// instead (after the binder learns a function). pgcatalog's pg_proc lists
// these rows (pgcatalog's TestBuiltinProcsHavePostgresRows checks that
// every overload the function library has is one of them or is named as
// sqlgate's own).
func TestProcRowsMatchPostgres(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	pg := sharedPG.Database(t)
	pgc, err := pgconn.Connect(ctx, pg.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer pgc.Close(context.Background())
	sgURL, cleanup, err := server.InProcess(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	sg := &Session{connString: sgURL, timeout: queryTimeout}
	defer sg.Close(context.Background())

	cands, aggByOID := procCandidates(t, ctx, pg.ConnString())
	// an enum type for anyenum's calls (min, max, enum_first ...), whose
	// OID differs between the servers: sqlgate's is read as PostgreSQL's
	enumOID := map[string]string{}
	for sys, url := range map[string]string{"postgres": pg.ConnString(), "sqlgate": sgURL} {
		conn, err := pgconn.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		res := conn.ExecParams(ctx, "CREATE TYPE procrows_enum AS ENUM ('a')", nil, nil, nil, nil).Read()
		if res.Err == nil {
			res = conn.ExecParams(ctx, "SELECT 'procrows_enum'::regtype::oid", nil, nil, nil, nil).Read()
		}
		if res.Err != nil {
			t.Fatalf("%s: %v", sys, res.Err)
		}
		enumOID[sys] = string(res.Rows[0][0])
		conn.Close(ctx)
	}
	describe := func(sys string, sql string) (string, error) {
		var conn *pgconn.PgConn
		if sys == "postgres" {
			conn = pgc
		} else {
			if sg.conn == nil || sg.conn.IsClosed() { // a call that killed the connection
				if err := sg.reconnect(ctx); err != nil {
					t.Fatal(err)
				}
			}
			conn = sg.conn
		}
		cctx, cancel := context.WithTimeout(ctx, queryTimeout)
		defer cancel()
		d, err := conn.Prepare(cctx, "", sql, nil)
		if err != nil {
			return "", err
		}
		var cols []string
		for _, f := range d.Fields {
			oid := fmt.Sprint(f.DataTypeOID)
			if oid == enumOID[sys] {
				oid = "enum"
			}
			cols = append(cols, oid)
		}
		return strings.Join(cols, ","), nil
	}
	resolved := map[uint32]bool{}
	bySQL := map[string]uint32{}
	unwritable := 0
	for _, c := range cands {
		sql, ok := procCall(c, false)
		if !ok {
			unwritable++
			continue
		}
		want, err := describe("postgres", sql)
		var pe *pgconn.PgError
		if err != nil && errors.As(err, &pe) && pe.Code == "42601" {
			sql, _ = procCall(c, true) // a keyword's syntax (position, overlay ...): the function by its quoted name
			want, err = describe("postgres", sql)
		}
		if err != nil {
			unwritable++ // a call PostgreSQL cannot resolve from NULLs alone (an ambiguous polymorphic one ...)
			continue
		}
		if other, dup := bySQL[sql]; dup {
			t.Logf("%s calls both %d and %d: kept %d", sql, other, c.row.OID, other)
			continue
		}
		bySQL[sql] = c.row.OID
		got, err := describe("sqlgate", sql)
		if err != nil && errors.As(err, &pe) && pe.Code == "42601" {
			// a name sqlgate's grammar reserves where PostgreSQL's does
			// not (width): the function by its quoted name on both
			quoted, _ := procCall(c, true)
			if w, werr := describe("postgres", quoted); werr == nil && w == want {
				sql = quoted
				got, err = describe("sqlgate", sql)
			}
		}
		if err == nil && got == want {
			resolved[c.row.OID] = true
			continue
		}
		if c.row.RetSet && c.row.Kind == 'f' {
			// a set-returning function sqlgate calls in FROM only
			// (json_to_recordset ...): its columns there
			from := "SELECT * FROM " + strings.TrimPrefix(sql, "SELECT ") + " AS f"
			want, err := describe("postgres", from)
			if err != nil {
				continue
			}
			if got, err := describe("sqlgate", from); err == nil && got == want {
				resolved[c.row.OID] = true
			}
		}
	}
	t.Logf("%d of %d pg_catalog functions resolve in sqlgate; %d have no call written from NULLs", len(resolved), len(cands), unwritable)

	// the listed rows: the resolved ones, then their aggregates' support
	// functions
	support := map[uint32]bool{}
	var aggs []pgproc.Agg
	for oid := range resolved {
		if a, ok := aggByOID[oid]; ok {
			aggs = append(aggs, *a)
			for _, fn := range []uint32{a.TransFn, a.FinalFn, a.CombineFn, a.SerialFn, a.DeserialFn, a.MTransFn, a.MInvTransFn, a.MFinalFn} {
				if fn != 0 && !resolved[fn] {
					support[fn] = true
				}
			}
		}
	}
	sort.Slice(aggs, func(i, j int) bool { return aggs[i].FnOID < aggs[j].FnOID })
	var rows []pgproc.Row
	for _, c := range cands {
		if resolved[c.row.OID] || support[c.row.OID] {
			r := c.row
			r.Support = support[r.OID]
			rows = append(rows, r)
		}
	}
	if os.Getenv("SQLGATE_WRITE_PROCROWS") != "" {
		writeProcRows(t, rows, aggs)
		return
	}
	diffRows(t, "pg_proc", rows, pgproc.Rows(), func(r pgproc.Row) uint32 { return r.OID })
	diffRows(t, "pg_aggregate", aggs, pgproc.Aggs(), func(a pgproc.Agg) uint32 { return a.FnOID })
}

// diffRows reports the rows of want missing from or different in got, and
// those of got want lacks, by key.
func diffRows[T any](t *testing.T, what string, want, got []T, key func(T) uint32) {
	t.Helper()
	w := map[uint32]string{}
	for _, r := range want {
		w[key(r)] = fmt.Sprintf("%+v", r)
	}
	g := map[uint32]string{}
	for _, r := range got {
		g[key(r)] = fmt.Sprintf("%+v", r)
	}
	for k, ws := range w {
		if gs, ok := g[k]; !ok {
			t.Errorf("%s: sqlgate resolves %s, procrows.go lacks it (regenerate with SQLGATE_WRITE_PROCROWS=1)", what, ws)
		} else if gs != ws {
			t.Errorf("%s: procrows.go has %s, PostgreSQL 15 %s", what, gs, ws)
		}
	}
	for k, gs := range g {
		if _, ok := w[k]; !ok {
			t.Errorf("%s: procrows.go lists %s, which sqlgate does not resolve (or PostgreSQL 15 lacks)", what, gs)
		}
	}
}

// procCandidates are PostgreSQL 15's pg_catalog functions, aggregates and
// window functions with their pg_aggregate rows.
func procCandidates(t *testing.T, ctx context.Context, connString string) ([]procCandidate, map[uint32]*pgproc.Agg) {
	t.Helper()
	conn, err := pgconn.Connect(ctx, connString)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	// one line of text per row: the columns tab-separated, arrays as
	// their text
	res := conn.ExecParams(ctx, `SELECT p.oid, p.proname, p.prokind, p.proretset, p.prorettype, array_to_string(p.proargtypes::oid[], ','),
		p.provariadic, p.pronargdefaults, coalesce(array_to_string(p.proallargtypes, ','), ''), coalesce(array_to_string(p.proargmodes, ''), ''),
		coalesce(array_to_string(p.proargnames, ',', ''), ''), p.proargnames IS NOT NULL, p.prorows,
		coalesce((SELECT string_agg(CASE WHEN t.typtype = 'p' THEN '' ELSE format_type(CASE WHEN p.provariadic <> 0 AND u.n = p.pronargs THEN p.provariadic ELSE u.a END, NULL) END || '/' ||
			CASE WHEN p.provariadic <> 0 AND u.n = p.pronargs THEN p.provariadic ELSE u.a END, ',' ORDER BY u.n)
			FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY u(a, n) JOIN pg_type t ON t.oid = CASE WHEN p.provariadic <> 0 AND u.n = p.pronargs THEN p.provariadic ELSE u.a END), ''),
		a.aggfnoid IS NOT NULL, coalesce(a.aggkind, 'n'), coalesce(a.aggnumdirectargs, 0),
		coalesce(a.aggtransfn::oid, 0), coalesce(a.aggfinalfn::oid, 0), coalesce(a.aggcombinefn::oid, 0),
		coalesce(a.aggserialfn::oid, 0), coalesce(a.aggdeserialfn::oid, 0), coalesce(a.aggmtransfn::oid, 0),
		coalesce(a.aggminvtransfn::oid, 0), coalesce(a.aggmfinalfn::oid, 0), coalesce(a.aggfinalextra, false),
		coalesce(a.aggmfinalextra, false), coalesce(a.aggfinalmodify, 'r'), coalesce(a.aggmfinalmodify, 'r'),
		coalesce(a.aggsortop, 0), coalesce(a.aggtranstype, 0), coalesce(a.aggtransspace, 0), coalesce(a.aggmtranstype, 0),
		coalesce(a.aggmtransspace, 0), coalesce(a.agginitval, ''), a.agginitval IS NOT NULL, coalesce(a.aggminitval, ''), a.aggminitval IS NOT NULL,
		coalesce(obj_description(p.oid, 'pg_proc'), '')
		FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
		WHERE p.pronamespace = 'pg_catalog'::regnamespace ORDER BY p.oid`, nil, nil, nil, nil).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out []procCandidate
	aggs := map[uint32]*pgproc.Agg{}
	for _, v := range res.Rows {
		s := func(i int) string { return string(v[i]) }
		n := func(i int) uint32 {
			var x uint32
			fmt.Sscan(s(i), &x)
			return x
		}
		b := func(i int) bool { return s(i) == "t" }
		r := pgproc.Row{OID: n(0), Name: s(1), Kind: s(2)[0], RetSet: b(3), Ret: n(4), Args: oidList(s(5)),
			Variadic: n(6), Defaults: int(n(7)), AllArgs: oidList(s(8)), Modes: s(9), Desc: s(38)}
		if b(11) {
			r.Names = strings.Split(s(10), ",")
		}
		var rowsEst float32
		fmt.Sscan(s(12), &rowsEst)
		r.Rows = rowsEst
		c := procCandidate{row: r}
		if s(13) != "" {
			for _, item := range strings.Split(s(13), ",") {
				name, oid, _ := strings.Cut(item, "/")
				var o uint32
				fmt.Sscan(oid, &o)
				if p, ok := procPseudoArg[o]; ok {
					name = p
				}
				c.argTypes = append(c.argTypes, name)
			}
		}
		if len(c.argTypes) != len(r.Args) {
			c.argTypes = append(c.argTypes, "") // a type the join lost: no call
		}
		if b(14) {
			a := &pgproc.Agg{FnOID: r.OID, Kind: s(15)[0], NumDirect: int(n(16)), TransFn: n(17), FinalFn: n(18),
				CombineFn: n(19), SerialFn: n(20), DeserialFn: n(21), MTransFn: n(22), MInvTransFn: n(23), MFinalFn: n(24),
				FinalExtra: b(25), MFinalExtra: b(26), FinalModify: s(27)[0], MFinalModify: s(28)[0], SortOp: n(29),
				TransType: n(30), TransSpace: int(n(31)), MTransType: n(32), MTransSpace: int(n(33)),
				InitVal: s(34), HasInitVal: b(35), MInitVal: s(36), HasMInitVal: b(37)}
			aggs[r.OID], c.agg = a, a
		}
		out = append(out, c)
	}
	return out, aggs
}

// oidList reads a comma-separated list of OIDs ("" is nil).
func oidList(s string) []uint32 {
	if s == "" {
		return nil
	}
	var out []uint32
	for _, f := range strings.Split(s, ",") {
		var x uint32
		fmt.Sscan(f, &x)
		out = append(out, x)
	}
	return out
}

func writeProcRows(t *testing.T, rows []pgproc.Row, aggs []pgproc.Agg) {
	var b bytes.Buffer
	b.WriteString("// Code generated from PostgreSQL 15 and sqlgate's binder by tests/difftest's TestProcRowsMatchPostgres (SQLGATE_WRITE_PROCROWS=1); DO NOT EDIT.\n\n")
	b.WriteString("package pgproc\n\n")
	b.WriteString("var rows = []Row{\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "\t{%d, %q, '%c', %v, %d, %s, %d, %d, %s, %q, %s, %v, %v, %q},\n",
			r.OID, r.Name, r.Kind, r.RetSet, r.Ret, goOIDs(r.Args), r.Variadic, r.Defaults, goOIDs(r.AllArgs), r.Modes, goStrings(r.Names), r.Rows, r.Support, r.Desc)
	}
	b.WriteString("}\n\nvar aggs = []Agg{\n")
	for _, a := range aggs {
		fmt.Fprintf(&b, "\t{%d, '%c', %d, %d, %d, %d, %d, %d, %d, %d, %d, %v, %v, '%c', '%c', %d, %d, %d, %d, %d, %q, %q, %v, %v},\n",
			a.FnOID, a.Kind, a.NumDirect, a.TransFn, a.FinalFn, a.CombineFn, a.SerialFn, a.DeserialFn, a.MTransFn, a.MInvTransFn,
			a.MFinalFn, a.FinalExtra, a.MFinalExtra, a.FinalModify, a.MFinalModify, a.SortOp, a.TransType, a.TransSpace,
			a.MTransType, a.MTransSpace, a.InitVal, a.MInitVal, a.HasInitVal, a.HasMInitVal)
	}
	b.WriteString("}\n")
	pgtest.WriteGoSource(t, "../../internal/pgproc/procrows.go", b.Bytes())
}

// goOIDs is oids as a Go literal in decimal (nil for none).
func goOIDs(oids []uint32) string {
	if oids == nil {
		return "nil"
	}
	parts := make([]string, len(oids))
	for i, o := range oids {
		parts[i] = fmt.Sprint(o)
	}
	return "[]uint32{" + strings.Join(parts, ", ") + "}"
}

// goStrings is names as a Go literal (nil for none).
func goStrings(names []string) string {
	if names == nil {
		return "nil"
	}
	return fmt.Sprintf("%#v", names)
}
