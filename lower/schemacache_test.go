package lower

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
)

// tableRead is the schemas of the node that reads a table.
type tableRead struct{ out, keySchema *arrow.Schema }

// findTableRead returns the schemas of the blueprint's point lookup or
// scan, or false.
func findTableRead(n Node) (tableRead, bool) {
	switch x := n.(type) {
	case *lookupNode:
		return tableRead{x.out, x.keySchema}, true
	case *scanNode:
		return tableRead{out: x.out}, true
	}
	for _, in := range n.Inputs() {
		if r, ok := findTableRead(in); ok {
			return r, true
		}
	}
	return tableRead{}, false
}

// planTableRead plans text over cat and returns its table read's schemas.
func planTableRead(t *testing.T, cat catalog, text string) tableRead {
	t.Helper()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	st, err := binder.Bind(context.Background(), cat, stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Plan(st.(*binder.Query).Plan)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := findTableRead(root)
	if !ok {
		t.Fatalf("%s: no lookup or scan in\n%v", text, Explain(root, nil))
	}
	return r
}

// TestReadSchemasComeFromTheTableCache checks that a lookup's or scan's schemas
// read from the table's ArrowSchemas are the ones built without it, that a
// second plan shares them, and that lookups of other columns, column
// orders or names get their own.
func TestReadSchemasComeFromTheTableCache(t *testing.T) {
	queries := []string{
		`SELECT id, region, v, n FROM kv WHERE id = 1 AND region = 'a'`,
		`SELECT * FROM kv WHERE id = 1 AND region = 'a'`,
		`SELECT v FROM kv WHERE id = 1 AND region = 'a'`,
		`SELECT n, id FROM kv WHERE id IN (1, 2) AND region = 'a'`,
		`SELECT n AS v, v AS n FROM kv WHERE id = 1 AND region = 'a'`,
		`SELECT k.v FROM kv AS k WHERE k.id = 1 AND k.region = 'a'`,
		`SELECT x FROM (SELECT id, region, v AS x FROM kv) AS s WHERE id = 1 AND region = 'a'`,
		`SELECT * FROM kv`,
		`SELECT v FROM kv WHERE n > 1`,
		`SELECT n, v FROM kv`,
		`SELECT v, n FROM kv`,
		`SELECT * FROM kv$changelog`,
		`SELECT v, _change_type FROM kv$changelog`,
	}
	cached := testCatalog()
	uncached := testCatalog()
	kv := uncached["kv"]
	kv.ArrowSchemas = nil
	uncached["kv"] = kv
	seen := map[string]tableRead{}
	for _, q := range queries {
		first := planTableRead(t, cached, q)
		again := planTableRead(t, cached, q)
		fresh := planTableRead(t, uncached, q)
		if !first.out.Equal(fresh.out) || (first.keySchema != nil) != (fresh.keySchema != nil) ||
			(first.keySchema != nil && !first.keySchema.Equal(fresh.keySchema)) {
			t.Errorf("%s: cached schemas %v / %v, built %v / %v", q, first.out, first.keySchema, fresh.out, fresh.keySchema)
		}
		if again.out != first.out || again.keySchema != first.keySchema {
			t.Errorf("%s: a second plan built its schemas again", q)
		}
		if fresh.out == first.out {
			t.Errorf("%s: a table without a cache shares a cached schema", q)
		}
		for p, l := range seen {
			if l.out == first.out && !l.out.Equal(fresh.out) {
				t.Errorf("%s shares %s's lookup schema %v, wants %v", q, p, l.out, fresh.out)
			}
		}
		seen[q] = first
	}
}
