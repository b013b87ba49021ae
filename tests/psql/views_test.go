package psql

import (
	"strings"
	"testing"
)

// viewsMatchPostgres: psql's \d+ of a view ("View definition:") and \sv
// print the definition as PostgreSQL re-prints it (pg_get_viewdef(v,
// true)): qualified columns, AS names, joins, WHERE, GROUP BY, HAVING,
// ORDER BY, LIMIT, a set operation, a CTE and a subquery. The tables and
// views are made here and dropped at the end, so the other suites'
// listings do not see them.
func viewsMatchPostgres(t *testing.T, pg, sg int) {
	defer func() {
		for _, port := range []int{pg, sg} {
			runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", "DROP VIEW IF EXISTS vw_join, vw_union, vw_cte")
			runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", "DROP TABLE IF EXISTS vw_orders, vw_items")
		}
	}()
	for _, port := range []int{pg, sg} {
		for _, stmt := range []string{
			`CREATE TABLE vw_orders (id int, customer text, total numeric(10,2), placed date)`,
			`CREATE TABLE vw_items (order_id int, sku varchar(12), qty bigint)`,
			`CREATE VIEW vw_join AS SELECT o.customer, count(*) AS n, sum(i.qty) AS units, o.total * 2 AS doubled
			 FROM vw_orders o JOIN vw_items i ON i.order_id = o.id LEFT JOIN vw_items j ON j.sku = i.sku
			 WHERE o.placed > '2024-01-01' AND (i.sku LIKE 'A%' OR i.qty BETWEEN 1 AND 9)
			 GROUP BY o.customer, o.total HAVING count(*) > 1 ORDER BY 2 DESC, o.customer LIMIT 10`,
			`CREATE VIEW vw_union AS SELECT id, customer FROM vw_orders WHERE total > 100 UNION SELECT order_id, sku FROM vw_items ORDER BY 1`,
			`CREATE VIEW vw_cte AS WITH big AS (SELECT id, total FROM vw_orders WHERE total > 10)
			 SELECT b.id, s.m FROM big b, (SELECT order_id, max(qty) AS m FROM vw_items GROUP BY order_id) s
			 WHERE s.order_id = b.id AND EXISTS (SELECT 1 FROM vw_items WHERE vw_items.order_id = b.id)`,
		} {
			if out := runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", stmt); out != "" {
				t.Fatalf("DDL on port %d: %s", port, out)
			}
		}
	}
	for _, cmd := range []string{`\d+ vw_join`, `\d+ vw_union`, `\d+ vw_cte`, `\sv vw_join`, `\sv vw_cte`} {
		got := runPsql(t, sg, "sqlgate", "sqlgate", "-c", cmd)
		if strings.HasPrefix(cmd, `\d+`) && !strings.Contains(got, "View definition:\n SELECT") && !strings.Contains(got, "View definition:\n WITH") {
			t.Errorf("%s shows no definition:\n%s", cmd, got)
		}
		want := normalize(runPsql(t, pg, "sqlgate", "sqlgate", "-c", cmd))
		if normalize(got) != want {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
	}
}
