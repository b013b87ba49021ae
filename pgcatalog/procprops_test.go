package pgcatalog

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestProcPropsMatchPostgres checks the committed internal/pgproc/procprops.go against
// PostgreSQL 15's pg_proc: every signature of a function sqlgate has, with
// its volatility, strictness, parallel safety and prosrc. With
// SQLGATE_WRITE_PROCPROPS=1 it writes that file from PostgreSQL instead
// (after a function is added to the library).
func TestProcPropsMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	seen := map[string]bool{}
	var names []string
	for _, p := range withOperatorProcs(functionProcs()) { // operators.go: the operators' functions too
		if !seen[p.name] {
			seen[p.name] = true
			names = append(names, p.name)
		}
	}
	rows, err := conn.Query(ctx, `SELECT p.proname::text, coalesce(string_agg(a::text, ',' ORDER BY n), ''),
		p.provolatile::text, p.proisstrict, p.proparallel::text, p.prosrc, l.lanname::text, CASE WHEN p.prosupport <> 0 THEN p.prosupport::regproc::text ELSE '' END, p.procost, coalesce(pg_get_function_sqlbody(p.oid), ''), p.proleakproof,
		CASE WHEN p.proargnames IS NOT NULL OR p.pronargdefaults > 0 OR p.provariadic <> 0 THEN pg_get_function_arguments(p.oid) ELSE '' END,
		coalesce(p.probin, '')
		FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang LEFT JOIN LATERAL unnest(p.proargtypes::oid[]) WITH ORDINALITY u(a, n) ON true
		WHERE p.pronamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace) AND p.proname = ANY($1)
		GROUP BY p.oid, l.lanname`, names)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]procProp{}
	for rows.Next() {
		var name, args, vol, par, src, lang, support string
		var strict bool
		var cost float32
		var body, argText, bin string
		var leakproof bool
		if err := rows.Scan(&name, &args, &vol, &strict, &par, &src, &lang, &support, &cost, &body, &leakproof, &argText, &bin); err != nil {
			t.Fatal(err)
		}
		want[name+"("+args+")"] = procProp{Volatile: vol[0], Strict: strict, Parallel: par[0], Src: src, Lang: lang, Support: support, Cost: cost, Body: body, Leakproof: leakproof, Args: argText, Bin: bin}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SQLGATE_WRITE_PROCPROPS") != "" {
		writeProcProps(t, want)
		return
	}
	for k, w := range want {
		if got, ok := pgproc.Of(k); !ok || got != w {
			t.Errorf("pgproc.Of(%q) = %+v (present %v), PostgreSQL 15 says %+v", k, got, ok, w)
		}
	}
	for _, k := range pgproc.Signatures() {
		if _, ok := want[k]; !ok {
			t.Errorf("pgproc.Of(%q) is no signature of PostgreSQL 15's (or of no function sqlgate has)", k)
		}
	}
}

func writeProcProps(t *testing.T, props map[string]procProp) {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("// Code generated from PostgreSQL 15 by TestProcPropsMatchPostgres (SQLGATE_WRITE_PROCPROPS=1); DO NOT EDIT.\n\n")
	b.WriteString("package pgproc\n\n")
	b.WriteString("// props are PostgreSQL 15's provolatile, proisstrict, proparallel,\n")
	b.WriteString("// prosrc, language, support function, procost, SQL body, proleakproof and\n// arguments (named, with defaults, variadic) and probin of the pg_catalog functions\n// sqlgate has, by name(argument type OIDs).\n")
	b.WriteString("var props = map[string]Prop{\n")
	for _, k := range keys {
		p := props[k]
		fmt.Fprintf(&b, "\t%q: {'%c', %v, '%c', %q, %q, %q, %v, %q, %v, %q, %q},\n", k, p.Volatile, p.Strict, p.Parallel, p.Src, p.Lang, p.Support, p.Cost, p.Body, p.Leakproof, p.Args, p.Bin)
	}
	b.WriteString("}\n")
	pgtest.WriteGoSource(t, "../internal/pgproc/procprops.go", b.Bytes())
}
