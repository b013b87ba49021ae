package pgoper_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestCastsMatchPostgres checks internal/pgoper/casts.go against PostgreSQL
// 15's pg_cast: every row whose cast sqlgate binds (CAST(NULL::source AS
// target), to the target type) is listed as PostgreSQL has it, and no
// other; a row's function is marked callable when sqlgate binds a call of
// it by name with its argument types, to the target type. Which context
// (implicit, assignment, explicit) sqlgate applies a cast in is
// tests/difftest's TestCastContextDifferential's, against the same
// PostgreSQL rows. With SQLGATE_WRITE_OPERATORS=1 it writes the file.
func TestCastsMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	rows, err := conn.Query(ctx, `SELECT c.oid, c.castsource, c.casttarget, c.castfunc, c.castcontext::text, c.castmethod::text,
		coalesce(p.proname::text, ''), coalesce(p.proargtypes::oid[], '{}'), coalesce(p.prorettype, 0), coalesce(obj_description(p.oid, 'pg_proc'), ''),
		format_type(c.castsource, NULL), format_type(c.casttarget, NULL),
		coalesce((SELECT string_agg(format_type(a, NULL), ',' ORDER BY n) FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY u(a, n)), '')
		FROM pg_cast c LEFT JOIN pg_proc p ON p.oid = c.castfunc ORDER BY c.oid`)
	if err != nil {
		t.Fatal(err)
	}
	var want []pgoper.Cast
	all := 0
	for rows.Next() {
		var c pgoper.Cast
		var ctxt, method, src, tgt, argNames string
		if err := rows.Scan(&c.OID, &c.Source, &c.Target, &c.Func, &ctxt, &method, &c.FuncName, &c.FuncArgs, &c.FuncRet, &c.FuncComment, &src, &tgt, &argNames); err != nil {
			t.Fatal(err)
		}
		all++
		c.Context, c.Method = ctxt[0], method[0]
		if len(c.FuncArgs) == 0 {
			c.FuncArgs = nil
		}
		if ok, _ := binds(fmt.Sprintf("SELECT CAST(NULL::%s AS %s)", src, tgt), c.Target); !ok {
			continue
		}
		if c.Func != 0 {
			var args []string
			for _, a := range strings.Split(argNames, ",") {
				args = append(args, "NULL::"+a)
			}
			c.FuncCallable, _ = binds(fmt.Sprintf("SELECT %s(%s)", quoteIdent(c.FuncName), strings.Join(args, ", ")), c.FuncRet)
		}
		want = append(want, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of PostgreSQL's %d casts bind", len(want), all)
	if os.Getenv("SQLGATE_WRITE_OPERATORS") != "" {
		writeCasts(t, want)
		return
	}
	got := map[uint32]pgoper.Cast{}
	for _, c := range pgoper.Casts() {
		got[c.OID] = c
	}
	for _, w := range want {
		g, ok := got[w.OID]
		switch {
		case !ok:
			t.Errorf("cast %d -> %d binds on sqlgate but has no pg_cast row", w.Source, w.Target)
		case g.Source != w.Source || g.Target != w.Target || g.Func != w.Func || g.Context != w.Context || g.Method != w.Method ||
			g.FuncName != w.FuncName || g.FuncRet != w.FuncRet || !slices.Equal(g.FuncArgs, w.FuncArgs) || g.FuncComment != w.FuncComment || g.FuncCallable != w.FuncCallable:
			t.Errorf("cast %d is %+v, PostgreSQL and sqlgate say %+v", w.OID, g, w)
		}
		delete(got, w.OID)
	}
	for _, g := range got {
		t.Errorf("cast %d -> %d (%d) is listed but does not bind on sqlgate", g.Source, g.Target, g.OID)
	}
}

// quoteIdent quotes a function name that is a keyword (char, bit ...).
func quoteIdent(name string) string { return `"` + name + `"` }

func writeCasts(t *testing.T, casts []pgoper.Cast) {
	var b bytes.Buffer
	b.WriteString("// Code generated from PostgreSQL 15 by TestCastsMatchPostgres (SQLGATE_WRITE_OPERATORS=1); DO NOT EDIT.\n\n")
	b.WriteString("package pgoper\n\n")
	b.WriteString("// casts are PostgreSQL 15's pg_cast rows of the casts sqlgate binds, by\n// OID.\n")
	b.WriteString("var casts = []Cast{\n")
	for _, c := range casts {
		args := "nil"
		if len(c.FuncArgs) > 0 {
			args = strings.ReplaceAll(fmt.Sprintf("[]uint32{%v}", c.FuncArgs), " ", ", ")
			args = strings.NewReplacer("{[", "{", "]}", "}").Replace(args)
		}
		fmt.Fprintf(&b, "\t{%d, %d, %d, %d, '%c', '%c', %q, %s, %d, %q, %v},\n",
			c.OID, c.Source, c.Target, c.Func, c.Context, c.Method, c.FuncName, args, c.FuncRet, c.FuncComment, c.FuncCallable)
	}
	b.WriteString("}\n")
	pgtest.WriteGoSource(t, "casts.go", b.Bytes())
}
