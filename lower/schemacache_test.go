package lower

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
)

// findLookup returns the point-lookup node of a blueprint, or nil.
func findLookup(n Node) *lookupNode {
	if l, ok := n.(*lookupNode); ok {
		return l
	}
	for _, in := range n.Inputs() {
		if l := findLookup(in); l != nil {
			return l
		}
	}
	return nil
}

// planLookup plans text over cat and returns its lookup node.
func planLookup(t *testing.T, cat catalog, text string) *lookupNode {
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
	l := findLookup(root)
	if l == nil {
		t.Fatalf("%s: no lookup in\n%v", text, Explain(root, nil))
	}
	return l
}

// TestLookupSchemasComeFromTheTableCache checks that a lookup's schemas
// read from the table's ArrowSchemas are the ones built without it, that a
// second plan shares them, and that lookups of other columns, column
// orders or names get their own.
func TestLookupSchemasComeFromTheTableCache(t *testing.T) {
	queries := []string{
		`SELECT id, region, v, n FROM kv WHERE id = 1 AND region = 'a'`,
		`SELECT * FROM kv WHERE id = 1 AND region = 'a'`,
		`SELECT v FROM kv WHERE id = 1 AND region = 'a'`,
		`SELECT n, id FROM kv WHERE id IN (1, 2) AND region = 'a'`,
		`SELECT n AS v, v AS n FROM kv WHERE id = 1 AND region = 'a'`,
		`SELECT k.v FROM kv AS k WHERE k.id = 1 AND k.region = 'a'`,
		`SELECT x FROM (SELECT id, region, v AS x FROM kv) AS s WHERE id = 1 AND region = 'a'`,
	}
	cached := testCatalog()
	uncached := testCatalog()
	kv := uncached["kv"]
	kv.ArrowSchemas = nil
	uncached["kv"] = kv
	seen := map[string]*lookupNode{}
	for _, q := range queries {
		first := planLookup(t, cached, q)
		again := planLookup(t, cached, q)
		fresh := planLookup(t, uncached, q)
		if !first.out.Equal(fresh.out) || !first.keySchema.Equal(fresh.keySchema) {
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
