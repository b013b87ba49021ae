package binder_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
)

// TestBindKeepsAST checks that binding only reads the syntax tree: a
// statement bound (twice) stays deeply equal to a second parse of the same
// text. The planner's benchmarks and a prepared statement's re-bind rely on
// it. The one exception, EXTRACT and TRIM(... FROM x), whose call the
// binder renames in place, is idempotent: TestRebindSameResult.
func TestBindKeepsAST(t *testing.T) {
	for _, q := range []string{
		`SELECT id, name, name || '!' AS tagged, n * 2 + 1 AS s FROM t WHERE id IN (1, 2, 3) AND name = 'eu' AND n BETWEEN 10 AND 20 AND name LIKE 'a%' AND n <> 15 ORDER BY s DESC, id LIMIT 10 OFFSET 0`,
		`SELECT n, count(*), sum(score) FILTER (WHERE id > 1) FROM t GROUP BY n HAVING count(*) > 1 ORDER BY 1`,
		`SELECT id, row_number() OVER (PARTITION BY n ORDER BY score) FROM t`,
		`SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.n) AND n NOT IN (SELECT id FROM u)`,
		`WITH c AS (SELECT id, n FROM t WHERE n > $1) SELECT c.id, u.label FROM c JOIN u ON u.id = c.n`,
		`SELECT CASE WHEN n > 1 THEN 'a' ELSE 'b' END, coalesce(name, 'x'), (ARRAY[1, 2])[1], (SELECT max(id) FROM u) FROM t`,
		`SELECT id FROM t UNION ALL SELECT id FROM u ORDER BY 1`,
		`INSERT INTO t (id, name) VALUES (1, 'a'), (2, NULL)`,
		`UPDATE t SET n = n + 1 WHERE id = 3 RETURNING id, n`,
		`DELETE FROM t WHERE name LIKE 'x%'`,
	} {
		p := sql.NewParser()
		a, err := p.Parse(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		b, err := sql.NewParser().Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a[0].AST, b[0].AST) {
			t.Fatalf("%s: two parses differ before binding", q)
		}
		for i := 0; i < 2; i++ {
			if _, err := binder.Bind(context.Background(), catalog(), a[0], nil); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if !reflect.DeepEqual(a[0].AST, b[0].AST) {
				t.Errorf("%s: binding changed the syntax tree", q)
			}
		}
	}
}

// TestRebindSameResult binds statements whose syntax tree the binder edits
// (EXTRACT's and TRIM's calls are renamed in place) twice and expects the
// same output columns and plan both times.
func TestRebindSameResult(t *testing.T) {
	for _, q := range []string{
		`SELECT extract(year FROM DATE '2024-01-02') AS y, trim(both 'x' FROM name) AS b, trim(leading FROM name) AS l FROM t`,
	} {
		stmts, err := sql.NewParser().Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		var plans []string
		for i := 0; i < 2; i++ {
			st, err := binder.Bind(context.Background(), catalog(), stmts[0], nil)
			if err != nil {
				t.Fatalf("%s (bind %d): %v", q, i+1, err)
			}
			p := st.(*binder.Query).Plan
			plans = append(plans, fmt.Sprint(p.Columns(), p.(*binder.Project).Exprs))
		}
		if plans[0] != plans[1] {
			t.Errorf("%s: bound\n%s\nthen\n%s", q, plans[0], plans[1])
		}
		if !strings.Contains(plans[0], "btrim") || !strings.Contains(plans[0], "ltrim") || !strings.Contains(plans[0], "extract") {
			t.Errorf("%s: %s", q, plans[0])
		}
	}
}
