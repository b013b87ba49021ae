package sql

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestCatalogQualifiedNames: a catalog part naming the session's database
// is dropped where PostgreSQL's grammar takes a relation name (three parts)
// or a column reference (four); another database is 0A000 with
// PostgreSQL's message; a three-part column reference is left alone.
func TestCatalogQualifiedNames(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{in: `select * from "db"."s"."t"`, want: `select * from "s"."t"`},
		{in: `SELECT * FROM db.s.t, db.s.u WHERE x = 1`, want: `SELECT * FROM "s".t, "s".u WHERE x = 1`},
		{in: `select a from s.t join db.s.u on s.t.c = db.s.u.c`, want: `select a from s.t join "s".u on s.t.c = "s".u.c`},
		{in: `select s.t.c from s.t`, want: `select s.t.c from s.t`},
		{in: `insert into db.s.t (a) select a from db.s.u`, want: `insert into "s".t (a) select a from "s".u`},
		{in: `delete from db.s.t as d where (id) in (select distinct id from db.s.u)`, want: `delete from "s".t as d where (id) in (select distinct id from "s".u)`},
		{in: `drop view if exists "db"."s"."v" cascade`, want: `drop view if exists "s"."v" cascade`},
		{in: `alter table "db"."s"."a" rename to "b"`, want: `alter table "s"."a" rename to "b"`},
		{in: `select extract(year from s.t.c) from s.t`, want: `select extract(year from s.t.c) from s.t`},
		{in: `select x is distinct from s.t.c from s.t`, want: `select x is distinct from s.t.c from s.t`},
		{in: `select * from other.s.t`, err: `0A000 cross-database references are not implemented: "other.s.t"`},
		{in: `select other.s.t.c from s.t`, err: `0A000 cross-database references are not implemented: other.s.t.c`},
		{in: `drop table a.b, other.s.t`, err: `0A000 cross-database references are not implemented: "other.s.t"`},
	} {
		p := NewParser()
		p.SetDatabase("db")
		got, _, err := p.stripCatalogs(c.in, mustLex(t, c.in))
		if c.err != "" {
			e := sqlerr.As(err)
			if e == nil || string(e.Code)+" "+e.Message != c.err {
				t.Errorf("%s: error %v, want %s", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if s := tokensText(c.in, got); s != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, s, c.want)
		}
	}
	// The whole parse: the statement reaches TiDB without the catalog.
	p := NewParser()
	p.SetDatabase("db")
	sts, err := p.Parse(`select * from "db"."raw"."orders" o join db.raw.customers c on o.cid = c.id`)
	if err != nil || !strings.Contains(sts[0].Rewritten, ` "raw"."orders"`) || strings.Contains(sts[0].Rewritten, "db") {
		t.Fatalf("%v %+v", err, sts)
	}
}

func mustLex(t *testing.T, s string) []token {
	t.Helper()
	toks, err := lexInto(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return toks
}

// tokensText joins the tokens' texts with their leading whitespace as the
// rewrite emits it.
func tokensText(src string, toks []token) string {
	var b strings.Builder
	r := &rewriter{src: src, toks: toks}
	for _, t := range toks {
		var p piece
		if r.leadPiece(t, &p) {
			b.WriteString(p.text)
		}
		b.WriteString(t.text(src))
	}
	return b.String()
}

// TestRenameInDefinition: the names of a renamed relation in a view's
// definition follow it, keeping the old name as the alias where there was
// none, and nothing else changes.
func TestRenameInDefinition(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT id FROM a WHERE a.id > 1`, `SELECT id FROM "public"."b" AS "a" WHERE a.id > 1`},
		{`select x.id from public.a x join c on c.id = x.id`, `select x.id from "public"."b" x join c on c.id = x.id`},
		{`select * from "db"."public"."a" as y, a`, `select * from "public"."b" as y, "public"."b" AS "a"`},
		{`select a.a from other.a, (select 1 from a) s`, `select a.a from other.a, (select 1 from "public"."b" AS "a") s`},
		{`select * from c where id in (select id from a)`, `select * from c where id in (select id from "public"."b" AS "a")`},
		{`select a(1) from c`, ``},
	} {
		got, ok := RenameInDefinition(c.in, "public", "a", "b")
		if c.want == "" {
			if ok {
				t.Errorf("%s: rewritten to %s", c.in, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
