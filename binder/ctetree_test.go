package binder

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// keyedCatalog serves two primary-key tables, s and u (a int, b text).
type keyedCatalog struct{}

func (keyedCatalog) GetTable(_ context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	if p.Table != "s" && p.Table != "u" {
		return fluss.TableInfo{}, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", p.Table)
	}
	return fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: p.Table}, TableID: int64(len(p.Table)), Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
		Columns:    []fluss.Column{{Name: "a", Type: types.Int32Type}, {Name: "b", Type: types.StringType}},
		PrimaryKey: []string{"a"},
	}}}, nil
}

// TestWithFromTree: WITH lists bind from the tree, keyed by its items
// (cte.go, recursive.go): the references to an item are counted over the
// whole query or write that holds the list, UPDATE ... FROM and DELETE ...
// USING included, as PostgreSQL counts them (twice: evaluated once, a
// CTEScan); PostgreSQL's checks of a recursive item walk the tree (each
// context's SQLSTATE, ORDER BY's error at its first item as PostgreSQL
// places it).
func TestWithFromTree(t *testing.T) {
	cases := []struct {
		q      string
		shared bool
		code   sqlerr.Code
		at     string // the error's position: where this text first stands ("": none checked)
	}{
		{q: "WITH w AS (SELECT 1 AS k) UPDATE s SET b = 'x' FROM w, w w2 WHERE a = w.k", shared: true},
		{q: "WITH w AS (SELECT 1 AS k) UPDATE s SET b = 'x' FROM w WHERE a = w.k"},
		{q: "WITH w AS (SELECT 1 AS k) DELETE FROM s USING w WHERE a IN (SELECT k FROM w)", shared: true},
		{q: "WITH w AS (SELECT 1 AS k) DELETE FROM s WHERE a IN (SELECT k FROM w)"},
		{q: "WITH w AS (SELECT 1 AS k) INSERT INTO s (a) SELECT w.k FROM w, w w2", shared: true},
		{q: "WITH w AS (SELECT 1 AS k) INSERT INTO s (a) SELECT k FROM w RETURNING (SELECT k FROM w)"},
		{q: "WITH w AS (SELECT a FROM s) SELECT * FROM (WITH w AS (SELECT 2 AS z) SELECT * FROM w) q, w"},
		{q: "WITH w AS (SELECT a FROM s) SELECT * FROM (WITH v AS (SELECT * FROM w) SELECT * FROM v, w) q", shared: true},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n < 3) SELECT * FROM r, r r2", shared: true},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n < 3) SEARCH DEPTH FIRST BY n SET o SELECT r.n, r2.n FROM r, r r2", shared: true},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n FROM s LEFT JOIN r ON true) SELECT n FROM r", code: sqlerr.InvalidRecursion},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n FROM r FULL JOIN s ON true) SELECT n FROM r", code: sqlerr.InvalidRecursion},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL (SELECT n FROM r INTERSECT ALL SELECT 1)) SELECT n FROM r", code: sqlerr.InvalidRecursion},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL (SELECT 1 EXCEPT SELECT n FROM r)) SELECT n FROM r", code: sqlerr.InvalidRecursion},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n FROM r WHERE n IN (SELECT n FROM r)) SELECT n FROM r", code: sqlerr.InvalidRecursion},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT max(n) FROM r) SELECT n FROM r", code: sqlerr.InvalidRecursion},
		{q: "WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT * FROM a", code: sqlerr.FeatureNotSupported},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL (WITH r AS (SELECT 5 AS n) SELECT n FROM r)) SELECT n FROM r"},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n < 3 ORDER BY n) SELECT n FROM r",
			code: sqlerr.FeatureNotSupported, at: "n) SELECT"},
		{q: "WITH w AS (SELECT 1), w AS (SELECT 2) UPDATE s SET b = 'x'", code: sqlerr.DuplicateAlias},
	}
	p := sql.NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		st, err := Bind(context.Background(), keyedCatalog{}, stmts[0], nil)
		if c.code != "" {
			se := sqlerr.As(err)
			switch {
			case sqlerr.CodeOf(err) != c.code:
				t.Errorf("%s: %v, want %s", c.q, err, c.code)
			case c.at != "" && se.Position != strings.Index(c.q, c.at)+1:
				t.Errorf("%s: error at %d, want %d", c.q, se.Position, strings.Index(c.q, c.at)+1)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		var plan Node
		switch x := st.(type) {
		case *Query:
			plan = x.Plan
		case *Insert:
			plan = x.Source
		case *Update:
			plan = x.Source
		case *Delete:
			plan = x.Keys
		}
		if shared := strings.Contains(planShape(plan), "*binder.CTEScan"); shared != c.shared {
			t.Errorf("%s: shared %v, want %v:\n%s", c.q, shared, c.shared, planShape(plan))
		}
	}
}

// TestRecursiveItemBindsAgain: an item's tree binds once per reference
// (bindRecursiveUnion); the SEARCH / CYCLE columns go on a copy of its
// recursive SELECT, so a second binding is the first's.
func TestRecursiveItemBindsAgain(t *testing.T) {
	q := "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT z.n+1 FROM r AS z WHERE z.n < 3) CYCLE n SET c USING p SELECT n FROM r"
	stmts, err := sql.NewParser().Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0]
	b := &binder{ctx: context.Background(), cat: keyedCatalog{}, stmt: st}
	tree, err := b.trees.QueryToTree(st.AST, st)
	if err != nil {
		t.Fatal(err)
	}
	sel := tree.(*pt.Select)
	if err := b.bindWith(sel.With, sel); err != nil {
		t.Fatal(err)
	}
	cte := sel.With.CTEs[0]
	rec := cte.Query.(*pt.SetOp).R.(*pt.Select)
	targets := len(rec.Targets)
	var shapes []string
	for i := 0; i < 2; i++ {
		n, err := b.bindRecursiveUnion(cte)
		if err != nil {
			t.Fatalf("binding %d: %v", i+1, err)
		}
		shapes = append(shapes, planShape(n))
	}
	if shapes[0] != shapes[1] || len(rec.Targets) != targets {
		t.Errorf("the second binding differs (%d targets, were %d):\n%s\n%s", len(rec.Targets), targets, shapes[0], shapes[1])
	}
}
